"""Regression and distribution losses, as PyTorch's: mean squared error, L1, smooth L1,
Huber, KL divergence, Poisson and Gaussian negative log-likelihood (functional forms and
Modules).

Each is a composition of minigrad ops reduced by ``reduction`` ('mean', 'sum', 'none';
``kl_div`` also 'batchmean'), so its gradient is the chain rule through those ops.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad.constructors import tensor
from minigrad.ops.masking import where
from minigrad.step_capture import cannot_replay
from minigrad.tensor import Tensor

from .loss_module import Loss, _check_same_shape, _reduce, _weighted, resolve_reduction


def _as_tensor(x: Any, like: Tensor) -> Tensor:
    return x if isinstance(x, Tensor) else tensor(np.asarray(x, like.dtype))


def _elementwise_weighted(loss: Tensor, weight: Any, reduction: str, name: str) -> Tensor:
    """``loss`` times ``weight`` (of the input's shape), reduced as PyTorch's weighted
    mse_loss/l1_loss: 'mean' is sum(w l) / sum(w), the weighted average."""
    if weight is None:
        return _reduce(loss, reduction, name)
    w = _as_tensor(weight, loss)
    if w.shape != loss.shape:
        raise ValueError("Weights and input must have the same size.")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', "
                         "'mean', 'sum'.")
    weighted = loss * w
    if reduction == "none":
        return weighted
    return weighted.sum() if reduction == "sum" else weighted.sum() / w.sum()


def mse_loss(input: Tensor, target: Any, size_average: bool | None = None,
             reduce: bool | None = None, reduction: str = "mean",
             weight: Any = None) -> Tensor:
    """(input - target)**2, times ``weight`` (the input's shape) when given, reduced ('mean'
    with a weight: the weighted average). ``size_average``/``reduce``: PyTorch's deprecated
    spelling of ``reduction``."""
    reduction = resolve_reduction(size_average, reduce, reduction)
    _check_same_shape(input, target, "mse_loss")
    d = input - target
    return _elementwise_weighted(d * d, weight, reduction, "mse_loss")


def l1_loss(input: Tensor, target: Any, size_average: bool | None = None,
            reduce: bool | None = None, reduction: str = "mean",
            weight: Any = None) -> Tensor:
    """|input - target|, times ``weight`` (the input's shape) when given, reduced ('mean'
    with a weight: the weighted average). ``size_average``/``reduce``: PyTorch's deprecated
    spelling of ``reduction``."""
    reduction = resolve_reduction(size_average, reduce, reduction)
    _check_same_shape(input, target, "l1_loss")
    return _elementwise_weighted((input - target).abs(), weight, reduction, "l1_loss")


def smooth_l1_loss(input: Tensor, target: Any, size_average: bool | None = None,
                   reduce: bool | None = None, reduction: str = "mean",
                   beta: float = 1.0) -> Tensor:
    """d = |input - target|: 0.5 d**2 / beta where d < beta, else d - 0.5 beta (beta = 0:
    the L1 loss), reduced."""
    reduction = _legacy(size_average, reduce, reduction)
    _check_same_shape(input, target, "smooth_l1_loss")
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    d = (input - target).abs()
    loss = d if beta == 0 else where(d < beta, d * d * (0.5 / beta), d - 0.5 * beta)
    return _reduce(loss, reduction, "smooth_l1_loss")


def huber_loss(input: Tensor, target: Any, reduction: str = "mean", delta: float = 1.0,
               weight: Any = None) -> Tensor:
    """d = |input - target|: 0.5 d**2 where d < delta, else delta (d - 0.5 delta); times
    ``weight`` (broadcast), reduced."""
    _check_same_shape(input, target, "huber_loss")
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    d = (input - target).abs()
    loss = where(d < delta, d * d * 0.5, (d - 0.5 * delta) * delta)
    return _reduce(_weighted(loss, weight, "huber_loss"), reduction, "huber_loss")


def kl_div(input: Tensor, target: Any, size_average: bool | None = None,
           reduce: bool | None = None, reduction: str = "mean",
           log_target: bool = False) -> Tensor:
    """Pointwise KL divergence of log-probabilities ``input`` from ``target``:
    t (log t - input), -t input where t = 0 (nan where t < 0, as PyTorch) (``log_target``: e**t (t - input)); 'batchmean' divides
    the sum by the batch size input.shape[0] (the true KL divergence per sample)."""
    reduction = _legacy(size_average, reduce, reduction)
    t = _as_tensor(target, input)
    if log_target:
        loss = t.exp() * (t - input)
    else:
        # t log t as PyTorch's xlogy(t, t): 0 at t = 0, nan for t < 0
        safe = where(t == 0, 1.0, t)
        loss = where(t == 0, 0.0, t * safe.log()) - t * input
    if reduction == "batchmean":
        return loss.sum() / (input.shape[0] if input.ndim else 1)
    return _reduce(loss, reduction, "kl_div")


def poisson_nll_loss(input: Tensor, target: Any, log_input: bool = True, full: bool = False,
                     size_average: bool | None = None, eps: float = 1e-8,
                     reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """Negative log-likelihood of ``target`` under a Poisson of rate e**input (``log_input``)
    or input: e**input - t input, or input - t log(input + eps); ``full`` adds Stirling's
    t log t - t + 0.5 log(2 pi t) where t > 1, reduced."""
    reduction = _legacy(size_average, reduce, reduction)
    t = _as_tensor(target, input)
    loss = input.exp() - t * input if log_input else input - t * (input + eps).log()
    if full:
        safe = where(t > 1, t, 1.0)
        stirling = safe * safe.log() - safe + (safe * (2 * math.pi)).log() * 0.5
        loss = loss + where(t > 1, stirling, 0.0)
    return _reduce(loss, reduction, "poisson_nll_loss")


def gaussian_nll_loss(input: Tensor, target: Any, var: Any, full: bool = False,
                      eps: float = 1e-6, reduction: str = "mean") -> Tensor:
    """0.5 (log(max(var, eps)) + (input - target)**2 / max(var, eps)) (+ 0.5 log(2 pi) with
    ``full``), reduced. ``var`` has input's shape, or input's shape without its last
    dimension, or differs from it in one dimension of size 1 (PyTorch's rule), or is a
    number; clamping at ``eps`` leaves
    the gradient to ``var`` as it is, as PyTorch's."""
    v = _as_tensor(var, input)
    if v.ndim and v.shape != input.shape:
        if input.shape[:-1] == v.shape:  # one variance per sample: (..., 1)
            v = v.unsqueeze(-1)
        elif not (v.ndim == input.ndim
                  and sum(b for a, b in zip(input.shape, v.shape) if a != b) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    cannot_replay("gaussian_nll_loss checks var's values with NumPy")
    if np.any(v.data < 0):
        raise ValueError("var has negative entry/entries")
    v = v + (v.clamp(min=eps) - v).detach()  # clamped value, identity gradient
    loss = ((input - target) ** 2 / v + v.log()) * 0.5
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction, "gaussian_nll_loss")


_legacy = resolve_reduction


class SmoothL1Loss(Loss):
    """Module form of :func:`smooth_l1_loss`."""

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean", beta: float = 1.0) -> None:
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Any) -> Tensor:
        return smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(Loss):
    """Module form of :func:`huber_loss`."""

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Any) -> Tensor:
        return huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(Loss):
    """Module form of :func:`kl_div`."""

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean", log_target: bool = False) -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input: Tensor, target: Any) -> Tensor:
        return kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class PoissonNLLLoss(Loss):
    """Module form of :func:`poisson_nll_loss`."""

    def __init__(self, log_input: bool = True, full: bool = False,
                 size_average: bool | None = None, eps: float = 1e-8,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def forward(self, log_input: Tensor, target: Any) -> Tensor:
        return poisson_nll_loss(log_input, target, self.log_input, self.full, eps=self.eps,
                                reduction=self.reduction)


class GaussianNLLLoss(Loss):
    """Module form of :func:`gaussian_nll_loss`."""

    def __init__(self, *, full: bool = False, eps: float = 1e-6,
                 reduction: str = "mean") -> None:
        super().__init__(reduction=reduction)
        self.full, self.eps = full, eps

    def forward(self, input: Tensor, target: Any, var: Any) -> Tensor:
        return gaussian_nll_loss(input, target, var, self.full, self.eps, self.reduction)


class _PointwiseLoss(Loss):
    """Module form of a loss function: ``MSELoss()(input, target)``."""

    fn = staticmethod(mse_loss)

    def forward(self, input: Tensor, target: Any) -> Tensor:
        return type(self).fn(input, target, reduction=self.reduction)


class MSELoss(_PointwiseLoss):
    """Mean squared error."""

    fn = staticmethod(mse_loss)


class L1Loss(_PointwiseLoss):
    """Mean absolute error."""

    fn = staticmethod(l1_loss)

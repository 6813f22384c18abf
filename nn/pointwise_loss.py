"""Losses computed element by element, then reduced: mean squared error, L1 and binary
cross-entropy (on probabilities or on logits), with PyTorch's names, arguments and
``reduction`` ('mean', 'sum', 'none'). Built from minigrad ops: their backward is the chain
rule. (``nll_loss`` and ``NLLLoss`` live with ``cross_entropy`` in ``loss.py``.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.ops.loss_ops import BinaryCrossEntropy
from minigrad.tensor import Tensor, tensor

from .loss import NLLLoss, nll_loss  # noqa: F401 - NLLLoss is imported from here too
from .loss_module import Loss, WeightedLoss, as_buffer, resolve_reduction


def _reduce(loss: Tensor, reduction: str, name: str) -> Tensor:
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{name}: reduction must be 'mean', 'sum' or 'none', got {reduction!r}")


def _check_same_shape(input: Tensor, target: Any, name: str) -> None:
    if tuple(np.shape(getattr(target, "data", target))) != input.shape:
        raise ValueError(f"{name}: target shape {np.shape(getattr(target, 'data', target))} "
                         f"differs from input shape {input.shape}")


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


def binary_cross_entropy(input: Tensor, target: Any, weight: Any = None,
                         size_average: bool | None = None, reduce: bool | None = None,
                         reduction: str = "mean") -> Tensor:
    """-w (t log p + (1 - t) log(1 - p)) for probabilities p in [0, 1]; each log is clamped
    at -100, as PyTorch, so p = 0 or 1 gives a finite loss. ``weight`` broadcasts against
    the loss; 'mean' is the plain mean of the weighted losses, as PyTorch."""
    reduction = resolve_reduction(size_average, reduce, reduction)
    _check_same_shape(input, target, "binary_cross_entropy")
    p = input.data
    if p.size and (np.nanmin(p) < 0 or np.nanmax(p) > 1):
        raise ValueError("binary_cross_entropy: input must hold probabilities in [0, 1]; "
                         "for logits use binary_cross_entropy_with_logits")
    loss = BinaryCrossEntropy.apply(input, target)  # one Function: exact gradient at 0 and 1
    return _reduce(_weighted(loss, weight, "binary_cross_entropy"), reduction,
                   "binary_cross_entropy")


def binary_cross_entropy_with_logits(input: Tensor, target: Any, weight: Any = None,
                                     size_average: bool | None = None,
                                     reduce: bool | None = None, reduction: str = "mean",
                                     pos_weight: Any = None) -> Tensor:
    """binary_cross_entropy(sigmoid(x), t) computed stably: (1 - t) x + v softplus(-x),
    v = 1 + (pos_weight - 1) t; softplus(-x) = m + log(e**-m + e**(-x - m)), m = max(-x, 0)
    (PyTorch's form); each loss
    times ``weight`` (broadcast) before the reduction, as PyTorch."""
    reduction = resolve_reduction(size_average, reduce, reduction)
    _check_same_shape(input, target, "binary_cross_entropy_with_logits")
    # softplus(-x) = m + log(e**-m + e**(-x - m)), m = max(-x, 0): exact at x = 0 whatever
    # the kink's convention (m's derivative cancels), where log(1 + e**-|x|) would give 0
    m = (-input).clamp(min=0)
    softplus_neg = m + ((-m).exp() + (-input - m).exp()).log()
    v = 1 if pos_weight is None else (_as_tensor(pos_weight, input) - 1) * target + 1
    loss = (1 - target) * input + v * softplus_neg
    return _reduce(_weighted(loss, weight, "binary_cross_entropy_with_logits"), reduction,
                   "binary_cross_entropy_with_logits")


def _as_tensor(x: Any, like: Tensor) -> Tensor:
    return x if isinstance(x, Tensor) else tensor(x, dtype=like.dtype)


def _weighted(loss: Tensor, weight: Any, name: str) -> Tensor:
    """``loss * weight`` (weight broadcasts to the loss's shape, never enlarges it)."""
    if weight is None:
        return loss
    w = _as_tensor(weight, loss)
    if np.broadcast_shapes(w.shape, loss.shape) != loss.shape:
        raise ValueError(f"{name}: weight of shape {w.shape} does not broadcast to the loss's "
                         f"shape {loss.shape}")
    return loss * w


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


class BCELoss(WeightedLoss):
    """Binary cross-entropy on probabilities; ``weight`` (broadcast to the loss) is a buffer."""

    def forward(self, input: Tensor, target: Any) -> Tensor:
        return binary_cross_entropy(input, target, self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(WeightedLoss):
    """Binary cross-entropy on logits (stable); ``weight`` and ``pos_weight`` are buffers."""

    def __init__(self, weight: Any = None, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean",
                 pos_weight: Any = None) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.register_buffer("pos_weight", as_buffer(pos_weight))

    def forward(self, input: Tensor, target: Any) -> Tensor:
        return binary_cross_entropy_with_logits(input, target, self.weight,
                                                reduction=self.reduction,
                                                pos_weight=self.pos_weight)

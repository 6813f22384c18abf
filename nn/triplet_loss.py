"""Distance-based losses, as PyTorch's: pairwise distance, the triplet margin losses and
the multi-class margin loss (functional forms and Modules), composed from minigrad ops."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.ops.masking import where
from minigrad.tensor import Tensor

from .loss_module import Loss, WeightedLoss, _reduce
from .regression_loss import _legacy


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6,
                      keepdim: bool = False) -> Tensor:
    """||x1 - x2 + eps||_p over the last dimension (the inputs broadcast)."""
    return (x1 - x2 + eps).norm(p, -1, keepdim)


def _triplet(anchor: Tensor, positive: Tensor, negative: Tensor,
             dist: Callable[[Tensor, Tensor], Tensor], margin: float, swap: bool,
             reduction: str, name: str) -> Tensor:
    if margin <= 0:
        raise ValueError(f"{name}: expected margin to be greater than 0, got {margin} instead")
    if not anchor.ndim == positive.ndim == negative.ndim:
        raise RuntimeError(f"{name}: The anchor, positive, and negative tensors are expected "
                           f"to have the same number of dimensions, but got: anchor "
                           f"{anchor.ndim}D, positive {positive.ndim}D, and negative "
                           f"{negative.ndim}D inputs")
    d_pos, d_neg = dist(anchor, positive), dist(anchor, negative)
    if swap:
        d_swap = dist(positive, negative)
        d_neg = where(d_swap < d_neg, d_swap, d_neg)
    return _reduce((d_pos - d_neg + margin).clamp(min=0), reduction, name)


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor,
                        margin: float = 1.0, p: float = 2, eps: float = 1e-6,
                        swap: bool = False, size_average: bool | None = None,
                        reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """max(d(a, p) - d(a, n) + margin, 0) with d the ``p``-norm pairwise distance (``swap``:
    d(a, n) replaced by d(p, n) where that is smaller), reduced."""
    return _triplet(anchor, positive, negative,
                    lambda a, b: pairwise_distance(a, b, p, eps), margin, swap,
                    _legacy(size_average, reduce, reduction), "triplet_margin_loss")


def triplet_margin_with_distance_loss(anchor: Tensor, positive: Tensor, negative: Tensor, *,
                                      distance_function: Callable | None = None,
                                      margin: float = 1.0, swap: bool = False,
                                      reduction: str = "mean") -> Tensor:
    """:func:`triplet_margin_loss` with any ``distance_function`` (default: the
    Euclidean :func:`pairwise_distance`)."""
    return _triplet(anchor, positive, negative, distance_function or pairwise_distance,
                    margin, swap, reduction, "triplet_margin_with_distance_loss")


def multi_margin_loss(input: Tensor, target: Any, p: int = 1, margin: float = 1.0,
                      weight: Any = None, size_average: bool | None = None,
                      reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """sum over j != y of w_y max(0, margin - x_y + x_j)**p / C per sample (p 1 or 2), for
    scores (N, C) or (C,) and class ids (N,) or (), reduced."""
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    t = np.asarray(getattr(target, "data", target)).astype(np.int64)
    rows = input if input.ndim == 2 else input.reshape(1, -1)
    tr = t.reshape(-1)
    c = rows.shape[1]
    if tr.shape != rows.shape[:1] or (tr.size and (tr.min() < 0 or tr.max() >= c)):
        raise RuntimeError(f"multi_margin_loss: inconsistent or out-of-range target "
                           f"{t.shape} for input {input.shape}")
    m = (rows - rows.gather(1, tr[:, None]) + margin).clamp(min=0)
    if p == 2:
        m = m * m
    if weight is not None:
        w = weight if isinstance(weight, Tensor) else Tensor(np.asarray(weight, rows.dtype))
        m = m * w[tr].reshape(-1, 1)
    m = where(np.arange(c)[None, :] == tr[:, None], 0.0, m)
    loss = m.sum(-1) / c
    loss = loss.reshape(t.shape) if input.ndim != 2 else loss
    return _reduce(loss, _legacy(size_average, reduce, reduction), "multi_margin_loss")


class TripletMarginLoss(Loss):
    """Module form of :func:`triplet_margin_loss`."""

    def __init__(self, margin: float = 1.0, p: float = 2.0, eps: float = 1e-6,
                 swap: bool = False, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin, self.p, self.eps, self.swap = margin, p, eps, swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return triplet_margin_loss(anchor, positive, negative, self.margin, self.p, self.eps,
                                   self.swap, reduction=self.reduction)


class TripletMarginWithDistanceLoss(Loss):
    """Module form of :func:`triplet_margin_with_distance_loss`."""

    def __init__(self, *, distance_function: Callable | None = None, margin: float = 1.0,
                 swap: bool = False, reduction: str = "mean") -> None:
        super().__init__(reduction=reduction)
        self.distance_function, self.margin, self.swap = distance_function, margin, swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return triplet_margin_with_distance_loss(
            anchor, positive, negative, distance_function=self.distance_function,
            margin=self.margin, swap=self.swap, reduction=self.reduction)


class MultiMarginLoss(WeightedLoss):
    """Module form of :func:`multi_margin_loss`; ``weight`` is a buffer."""

    def __init__(self, p: int = 1, margin: float = 1.0, weight: Any = None,
                 size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.p, self.margin = p, margin

    def forward(self, input: Tensor, target: Any) -> Tensor:
        return multi_margin_loss(input, target, self.p, self.margin, self.weight,
                                 reduction=self.reduction)

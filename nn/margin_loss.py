"""Margin and embedding losses, as PyTorch's: soft margin, margin ranking, hinge
embedding, multi-label soft margin and cosine embedding (functional forms and Modules).

Targets are +1 / -1 labels (0 / 1 for the multi-label soft margin). Each loss is a
composition of minigrad ops reduced by ``reduction``, so its gradient is the chain rule.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.ops.masking import where
from minigrad.tensor import Tensor

from .activation_smooth import logsigmoid
from .loss_module import Loss, WeightedLoss, _reduce, _weighted
from .regression_loss import _as_tensor, _legacy


def soft_margin_loss(input: Tensor, target: Any, size_average: bool | None = None,
                     reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """log(1 + e**(-y x)), reduced."""
    loss = -logsigmoid(input * _as_tensor(target, input))
    return _reduce(loss, _legacy(size_average, reduce, reduction), "soft_margin_loss")


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Any, margin: float = 0,
                        size_average: bool | None = None, reduce: bool | None = None,
                        reduction: str = "mean") -> Tensor:
    """max(0, -y (x1 - x2) + margin), reduced."""
    if input1.ndim != input2.ndim or input1.ndim != np.ndim(getattr(target, "data", target)):
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same "
                           f"dimension but got sizes: input1: {input1.shape}, input2: "
                           f"{input2.shape}, target: {np.shape(getattr(target, 'data', target))} ")
    loss = (-_as_tensor(target, input1) * (input1 - input2) + margin).clamp(min=0)
    return _reduce(loss, _legacy(size_average, reduce, reduction), "margin_ranking_loss")


def hinge_embedding_loss(input: Tensor, target: Any, margin: float = 1.0,
                         size_average: bool | None = None, reduce: bool | None = None,
                         reduction: str = "mean") -> Tensor:
    """x where y = 1, max(0, margin - x) where y = -1 (as PyTorch: the first term where
    y != -1, the second where y != 1), reduced."""
    t = _as_tensor(target, input)
    loss = where(t != 1, (margin - input).clamp(min=0), 0.0) + where(t != -1, input, 0.0)
    return _reduce(loss, _legacy(size_average, reduce, reduction), "hinge_embedding_loss")


def multilabel_soft_margin_loss(input: Tensor, target: Any, weight: Any = None,
                                size_average: bool | None = None, reduce: bool | None = None,
                                reduction: str = "mean") -> Tensor:
    """-(y log sigmoid(x) + (1 - y) log sigmoid(-x)) times ``weight``, averaged over the
    classes (the last dim), reduced over the samples."""
    t = _as_tensor(target, input)
    loss = -(t * logsigmoid(input) + (1 - t) * logsigmoid(-input))
    loss = _weighted(loss, weight, "multilabel_soft_margin_loss")
    loss = loss.sum(-1) / input.shape[-1] if input.ndim else loss
    return _reduce(loss, _legacy(size_average, reduce, reduction), "multilabel_soft_margin_loss")


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Any, margin: float = 0,
                          size_average: bool | None = None, reduce: bool | None = None,
                          reduction: str = "mean") -> Tensor:
    """1 - cos(x1, x2) where y = 1, max(0, cos(x1, x2) - margin) where y = -1, with
    cos = <x1, x2> / sqrt((|x1|**2 + 1e-12)(|x2|**2 + 1e-12)) over the last dim, reduced."""
    if input1.ndim not in (1, 2) or input1.shape != input2.shape:
        raise RuntimeError(f"cosine_embedding_loss: expected 1D or 2D inputs of one shape, "
                           f"got {input1.shape} and {input2.shape}")
    eps = 1e-12
    cos = (input1 * input2).sum(-1) / (((input1 * input1).sum(-1) + eps)
                                       * ((input2 * input2).sum(-1) + eps)).sqrt()
    t = _as_tensor(target, input1)
    loss = where(t == 1, 1 - cos, 0.0) + where(t == -1, (cos - margin).clamp(min=0), 0.0)
    return _reduce(loss, _legacy(size_average, reduce, reduction), "cosine_embedding_loss")


def multilabel_margin_loss(input: Tensor, target: Any, size_average: bool | None = None,
                           reduce: bool | None = None, reduction: str = "mean") -> Tensor:
    """sum over target classes j and non-target classes k of max(0, 1 - (x_j - x_k)) / C
    per sample, for scores (N, C) or (C,) and ``target`` of the same shape holding class ids
    up to the first -1 (a class listed twice counts twice, as PyTorch), reduced."""
    t = np.asarray(getattr(target, "data", target))
    if t.shape != input.shape or input.ndim > 2:
        raise RuntimeError(f"multilabel_margin_loss: inconsistent target size: {t.shape} for "
                           f"input of size: {input.shape}")
    rows = input if input.ndim == 2 else input.reshape(1, -1)
    tr = t.reshape(rows.shape).astype(np.int64)
    c = rows.shape[1]
    listed = np.cumprod(tr != -1, axis=1).astype(bool)  # ids before the first -1
    if np.any(listed & ((tr < 0) | (tr >= c))):
        raise RuntimeError(f"multilabel_margin_loss: target ids must lie in [0, {c}) or be -1")
    count = np.zeros(rows.shape, rows.dtype)  # how often each class is listed, per sample
    r, col = np.nonzero(listed)
    np.add.at(count, (r, tr[r, col]), 1)
    factor = count[:, :, None] * (count == 0)[:, None, :]  # (j listed) x (k not listed)
    hinge = (1 - rows.unsqueeze(2) + rows.unsqueeze(1)).clamp(min=0)
    loss = (hinge * Tensor(factor.astype(rows.dtype))).sum((1, 2)) / c
    loss = loss.reshape(()) if input.ndim < 2 else loss
    return _reduce(loss, _legacy(size_average, reduce, reduction), "multilabel_margin_loss")


class MultiLabelMarginLoss(Loss):
    """Module form of :func:`multilabel_margin_loss`."""

    def forward(self, input: Tensor, target: Any) -> Tensor:
        return multilabel_margin_loss(input, target, reduction=self.reduction)


class SoftMarginLoss(Loss):
    """Module form of :func:`soft_margin_loss`."""

    def forward(self, input: Tensor, target: Any) -> Tensor:
        return soft_margin_loss(input, target, reduction=self.reduction)


class MarginRankingLoss(Loss):
    """Module form of :func:`margin_ranking_loss`."""

    def __init__(self, margin: float = 0.0, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Any) -> Tensor:
        return margin_ranking_loss(input1, input2, target, self.margin,
                                   reduction=self.reduction)


class HingeEmbeddingLoss(Loss):
    """Module form of :func:`hinge_embedding_loss`."""

    def __init__(self, margin: float = 1.0, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input: Tensor, target: Any) -> Tensor:
        return hinge_embedding_loss(input, target, self.margin, reduction=self.reduction)


class MultiLabelSoftMarginLoss(WeightedLoss):
    """Module form of :func:`multilabel_soft_margin_loss`; ``weight`` is a buffer."""

    def forward(self, input: Tensor, target: Any) -> Tensor:
        return multilabel_soft_margin_loss(input, target, self.weight,
                                           reduction=self.reduction)


class CosineEmbeddingLoss(Loss):
    """Module form of :func:`cosine_embedding_loss`."""

    def __init__(self, margin: float = 0.0, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Any) -> Tensor:
        return cosine_embedding_loss(input1, input2, target, self.margin,
                                     reduction=self.reduction)

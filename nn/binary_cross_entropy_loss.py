"""Binary cross-entropy, on probabilities (one Function, exact at p = 0 and 1) or on logits
(composed stably), with PyTorch's names, arguments, ``weight``/``pos_weight`` buffers and
``reduction`` ('mean', 'sum', 'none').
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.ops.binary_cross_entropy import BinaryCrossEntropy
from minigrad.tensor import Tensor

from .loss_module import (
    WeightedLoss,
    _as_tensor,
    _check_same_shape,
    _reduce,
    _weighted,
    as_buffer,
    resolve_reduction,
)


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

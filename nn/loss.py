"""Cross-entropy loss of logits against integer class targets.

loss_i = logsumexp(logits_i) - logits_i[target_i], averaged over the rows
whose target is not ``ignore_index`` (reduction='mean'), summed ('sum') or
returned per row ('none'). The op is :class:`minigrad.ops.loss.CrossEntropyFunction`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import Tensor, backends
from minigrad.ops.loss import CrossEntropyFunction

from .module import Module


def cross_entropy(logits: Tensor, targets: Any, ignore_index: int = -100,
                  reduction: str = "mean") -> Tensor:
    """Cross-entropy of ``logits`` (N, C) against integer ``targets`` (N,).

    Also accepts (B, T, C) logits with (B, T) targets (flattened to rows).
    Targets must be integers in [0, C) or equal ``ignore_index`` (IndexError
    otherwise, raised before anything runs). ``reduction='mean'`` averages
    over non-ignored rows; if every row is ignored the loss is 0.
    """
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"cross_entropy: reduction must be 'mean', 'sum' or 'none', got {reduction!r}")
    if not isinstance(logits, Tensor) or logits.dtype.kind != "f":
        raise TypeError("cross_entropy: logits must be a floating-point Tensor, got "
                        f"{getattr(logits, 'dtype', type(logits).__name__)}")
    t = targets.data if isinstance(targets, Tensor) else np.asarray(targets)
    if t.dtype.kind not in "iu":
        raise TypeError(f"cross_entropy: targets must be integer class ids, got dtype {t.dtype}")
    if logits.ndim < 2 or t.shape != logits.shape[:-1]:
        raise ValueError(
            f"cross_entropy: logits of shape {logits.shape} need targets of shape "
            f"{logits.shape[:-1]} (one class id per row), got {t.shape}"
        )
    if isinstance(ignore_index, (bool, np.bool_)) or not isinstance(ignore_index, (int, np.integer)):
        raise TypeError(f"cross_entropy: ignore_index must be an integer, got {ignore_index!r}")
    ignore_index = int(ignore_index)
    if not -2**63 <= ignore_index < 2**63:
        raise ValueError(f"cross_entropy: ignore_index {ignore_index} does not fit in int64")
    C = logits.shape[-1]
    if C == 0:
        raise ValueError("cross_entropy: logits have zero classes")
    if t.dtype.kind == "u" and t.size:  # a huge unsigned id would wrap in int64: check first
        kept = t[t != ignore_index] if ignore_index >= 0 else t
        if kept.size and int(kept.max()) >= C:
            raise IndexError(f"cross_entropy: target {int(kept.max())} is out of range for {C} "
                             f"classes (valid: 0..{C - 1}, or ignore_index={ignore_index})")
    t = np.array(t.reshape(-1), dtype=np.int64)  # a copy the op owns (the caller may reuse t)
    bad, count = backends.active.count_targets(t, C, ignore_index)
    if bad >= 0:
        raise IndexError(
            f"cross_entropy: target {int(t[bad])} (row {bad}) is out of range for {C} classes "
            f"(valid: 0..{C - 1}, or ignore_index={ignore_index})"
        )
    lead = logits.shape[:-1]
    flat = logits.reshape(-1, C) if logits.ndim != 2 else logits
    out = CrossEntropyFunction.apply(flat, targets=t, count=count, ignore_index=ignore_index,
                                     reduction=reduction)
    if reduction == "none" and logits.ndim != 2:
        out = out.reshape(lead)
    return out


class CrossEntropyLoss(Module):
    """Module form of :func:`cross_entropy`: ``CrossEntropyLoss()(logits, targets)``."""

    def __init__(self, ignore_index: int = -100, reduction: str = "mean") -> None:
        super().__init__()
        self.ignore_index = ignore_index
        self.reduction = reduction

    def forward(self, logits: Tensor, targets: Any) -> Tensor:
        return cross_entropy(logits, targets, self.ignore_index, self.reduction)

    def extra_repr(self) -> str:
        return f"ignore_index={self.ignore_index}, reduction={self.reduction!r}"

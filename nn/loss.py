"""Cross-entropy loss of logits against integer class targets.

loss_i = logsumexp(logits_i) - logits_i[target_i], averaged over the rows
whose target is not ``ignore_index`` (reduction='mean'), summed ('sum') or
returned per row ('none'). The op is :class:`minigrad.ops.loss.CrossEntropyFunction`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.ops.loss import CrossEntropyFunction, check_targets
from minigrad.tensor import Tensor

from .module import Module


def cross_entropy(logits: Tensor, targets: Any, ignore_index: int = -100,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """Cross-entropy of ``logits`` (N, C) against integer ``targets`` (N,).

    Also accepts (B, T, C) logits with (B, T) targets (flattened to rows).
    Targets must be integers in [0, C) or equal ``ignore_index`` (IndexError
    otherwise, raised before anything runs). ``reduction='mean'`` averages
    over non-ignored rows; if every row is ignored the loss is 0.
    ``label_smoothing`` = e mixes in the uniform target, as PyTorch:
    loss_i = (1 - e) * CE_i + e * mean_c(-log_softmax(logits_i)_c).
    """
    if label_smoothing:
        return _smoothed(logits, targets, ignore_index, reduction, label_smoothing)
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
    count = check_targets(t, C, ignore_index)
    lead = logits.shape[:-1]
    flat = logits.reshape(-1, C) if logits.ndim != 2 else logits
    out = CrossEntropyFunction.apply(flat, targets=t, count=count, ignore_index=ignore_index,
                                     reduction=reduction)
    if reduction == "none" and logits.ndim != 2:
        out = out.reshape(lead)
    return out


def _smoothed(logits: Tensor, targets: Any, ignore_index: int, reduction: str,
              eps: float) -> Tensor:
    """Cross-entropy with label smoothing ``eps`` (see :func:`cross_entropy`), from its parts."""
    if not 0.0 <= eps <= 1.0:
        raise ValueError(f"cross_entropy: label_smoothing must be in [0, 1], got {eps}")
    ce = cross_entropy(logits, targets, ignore_index, "none")  # checks targets and shapes
    t = targets.data if isinstance(targets, Tensor) else np.asarray(targets)
    keep = Tensor((t != ignore_index).astype(logits.dtype))
    uniform = -logits.log_softmax(-1).mean(-1)
    per_row = (ce * (1 - eps) + uniform * eps) * keep
    if reduction == "none":
        return per_row
    if reduction == "sum":
        return per_row.sum()
    return per_row.sum() / max(float(keep.data.sum()), 1.0)


class CrossEntropyLoss(Module):
    """Module form of :func:`cross_entropy`: ``CrossEntropyLoss()(logits, targets)``."""

    def __init__(self, ignore_index: int = -100, reduction: str = "mean",
                 label_smoothing: float = 0.0) -> None:
        super().__init__()
        self.ignore_index = ignore_index
        self.reduction = reduction
        self.label_smoothing = label_smoothing

    def forward(self, logits: Tensor, targets: Any) -> Tensor:
        return cross_entropy(logits, targets, self.ignore_index, self.reduction,
                             self.label_smoothing)

    def extra_repr(self) -> str:
        return f"ignore_index={self.ignore_index}, reduction={self.reduction!r}"

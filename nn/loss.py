"""Cross-entropy loss of logits against integer class targets.

loss_i = logsumexp(logits_i) - logits_i[target_i], averaged over the rows
whose target is not ``ignore_index`` (reduction='mean'), summed ('sum') or
returned per row ('none'). Loss and gradient come from one fused Numba pass
(``minigrad/kernels/cross_entropy.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad import Function, Tensor
from minigrad.kernels import cross_entropy as K

from .module import Module


class CrossEntropyFunction(Function):
    """Per-row or reduced cross-entropy; targets are an option (never differentiated)."""

    @staticmethod
    def forward(ctx, logits, *, targets, count, ignore_index=-100, reduction="mean"):
        scale = 1.0
        if reduction == "mean":
            # every target ignored: loss 0 with zero gradient (PyTorch gives nan = 0/0)
            scale = 1.0 / count if count else 0.0
        losses, grad = K.cross_entropy(logits, targets, ignore_index, scale)
        ctx.save_for_backward(grad)
        ctx.reduction = reduction
        if reduction == "none":
            return losses
        return np.asarray(losses.sum(dtype=np.float64) * scale, dtype=logits.dtype)

    @staticmethod
    def backward(ctx, grad):
        # dloss/dlogits = (softmax(logits) - onehot(target)) * scale * dL/dloss, scale = 1/count
        (g,) = ctx.saved_tensors
        if ctx.reduction == "none":
            return g * grad[:, None]
        if grad == 1:  # the usual loss.backward(): the kernel's gradient as it is
            return g
        return g * grad.astype(g.dtype)


def cross_entropy(logits: Tensor, targets: Any, ignore_index: int = -100,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """Cross-entropy of ``logits`` (N, C) against integer ``targets`` (N,).

    Also accepts (B, T, C) logits with (B, T) targets (flattened to rows).
    Targets must be integers in [0, C) or equal ``ignore_index`` (IndexError
    otherwise, raised before the kernel runs). ``reduction='mean'`` averages
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
    C = logits.shape[-1]
    if C == 0:
        raise ValueError("cross_entropy: logits have zero classes")
    if t.dtype.kind == "u" and t.size:  # a huge unsigned id would wrap in int64: check first
        kept = t[t != ignore_index] if ignore_index >= 0 else t
        if kept.size and int(kept.max()) >= C:
            raise IndexError(f"cross_entropy: target {int(kept.max())} is out of range for {C} "
                             f"classes (valid: 0..{C - 1}, or ignore_index={ignore_index})")
    t = np.ascontiguousarray(t.reshape(-1), dtype=np.int64)
    bad, count = K.check_targets(t, C, int(ignore_index))
    if bad >= 0:
        raise IndexError(
            f"cross_entropy: target {int(t[bad])} (row {bad}) is out of range for {C} classes "
            f"(valid: 0..{C - 1}, or ignore_index={ignore_index})"
        )
    lead = logits.shape[:-1]
    flat = logits.reshape(-1, C) if logits.ndim != 2 else logits
    out = CrossEntropyFunction.apply(flat, targets=t, count=count, ignore_index=int(ignore_index),
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

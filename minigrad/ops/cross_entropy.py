"""Cross-entropy of logits against integer class targets, as an autograd Function.

loss_r = logsumexp(x_r) - x_r[t_r]; the backend's ``cross_entropy`` primitive
returns the per-row losses and the gradient in one pass.
"""

from __future__ import annotations

import numpy as np

from .. import backends
from ..function import Function


def check_targets(targets: np.ndarray, num_classes: int, ignore_index: int) -> int:
    """The number of targets that are not ``ignore_index``, for int64 targets (N,); IndexError
    naming the first target outside [0, num_classes) that is not ``ignore_index`` (the
    backend's ``count_targets`` primitive finds both in one pass)."""
    bad, count = backends.active.count_targets(targets, num_classes, ignore_index)
    if bad >= 0:
        raise IndexError(
            f"cross_entropy: target {int(targets[bad])} (row {bad}) is out of range for "
            f"{num_classes} classes (valid: 0..{num_classes - 1}, or ignore_index={ignore_index})"
        )
    return count


class CrossEntropyFunction(Function):
    """Per-row ('none') or reduced ('mean', 'sum') cross-entropy of logits (N, C).

    Options: ``targets`` (int64 (N,), checked and owned by the op), ``count`` (the
    number of targets that are not ``ignore_index``: an int or a 0-d integer array, the form
    a captured step can replay), ``ignore_index``, ``reduction``."""

    @staticmethod
    def forward(ctx, logits, *, targets, count, ignore_index=-100, reduction="mean"):
        count = int(count)  # a Python int: 1 / count must stay a weak scalar for float32
        scale = 1.0
        if reduction == "mean":
            # every target ignored: the loss is 0/0 = nan as PyTorch's, the gradient zero
            # (PyTorch's backward skips ignored rows), so the kernel runs with scale 0
            scale = 1.0 / count if count else 0.0
        losses, grad = backends.active.cross_entropy(logits, targets, ignore_index, scale)
        ctx.save_for_backward(grad)
        ctx.reduction = reduction
        ctx.targets = (targets, ignore_index, scale)  # references only: for composite
        if reduction == "none":
            return losses
        if reduction == "mean" and not count:
            return np.asarray(np.nan, dtype=logits.dtype)
        return np.asarray(losses.sum(dtype=np.float64) * scale, dtype=logits.dtype)

    @staticmethod
    def backward(ctx, grad):
        # dloss/dlogits = (softmax(logits) - onehot(target)) * scale * dL/dloss, scale = 1/count
        (g,) = ctx.saved_tensors
        if ctx.reduction == "none":
            return g * grad[:, None]
        if grad == 1:  # the usual loss.backward(): the primitive's gradient as it is
            return g
        return g * grad.astype(g.dtype)

    @staticmethod
    def composite(ctx, logits):
        return composite_cross_entropy(logits, *ctx.targets, ctx.reduction)


def composite_cross_entropy(logits, targets: np.ndarray, ignore_index: int, scale: float,
                            reduction: str):
    """The loss in small Tensor ops, for create_graph: loss_r = logsumexp(x_r) - x_r[t_r]
    (0 for ignored rows), then summed and multiplied by ``scale`` unless reduction='none'."""
    keep = targets != ignore_index
    rows = np.flatnonzero(keep)
    onehot = np.zeros(logits.shape, logits.dtype)
    onehot[rows, targets[rows]] = 1
    losses = (logits.logsumexp(-1) - (logits * onehot).sum(-1)) * keep.astype(logits.dtype)
    return losses if reduction == "none" else losses.sum() * scale

"""A language model's head and its loss as one autograd Function: the logits never outlive it.

loss = reduce_r( logsumexp(z_r) - z_r[t_r] ),   z = x @ W.T + b   (N, V)

Composed of a Linear layer and cross-entropy, a training step keeps the logits z (N, V) alive
from the forward pass to the backward pass (the Linear layer's output, which the loss holds
as its input) and the loss's saved gradient dz beside them: at GPT-2's 50,257 tokens, block
256 and batch 4, 206 MB each. But the loss is the graph's last op and a scalar: its only
upstream gradient is one number g. So this op runs the head's backward already in its
forward pass, while z is at hand: it writes dz over z (the cross-entropy primitive's
``in_place``), takes dx = dz @ W, dW = dz^T x and db = sum_r dz_r (the Linear layer's own
backward primitive), drops dz and keeps only those, and its backward multiplies them by g.
The matrix products are the same three as the composed pair's; what is saved is the (N, V)
logits and gradient, and a step's peak memory falls by both.

Only ``reduction='mean'`` or ``'sum'`` (one number out, so one g): per-row losses would need
one g per row, and dW sums over rows before g is known. Under ``create_graph`` the op is
differentiated through its ``composite``, the pair written out, so higher derivatives are
exact too.
"""

from __future__ import annotations

import numpy as np

from .. import backends
from ..function import Function
from .loss import composite_cross_entropy


class LinearCrossEntropyFunction(Function):
    """Mean or summed cross-entropy of the logits x @ w.T (+ b) against integer targets.

    Inputs x (N, in), w (V, in), optionally b (V,); options as
    :class:`~minigrad.ops.loss.CrossEntropyFunction` (``targets`` int64 (N,) checked and
    owned by the op, ``count`` of targets that are not ``ignore_index``, ``ignore_index``,
    ``reduction`` 'mean' or 'sum')."""

    @staticmethod
    def forward(ctx, x, w, b=None, *, targets, count, ignore_index=-100, reduction="mean"):
        scale = (1.0 / count if count else 0.0) if reduction == "mean" else 1.0
        be = backends.active
        z = be.linear(x, w, b)  # (N, V): a fresh array this op owns, overwritten by dz below
        losses, dz = be.cross_entropy(z, targets, ignore_index, scale, in_place=True)
        needs = ctx.needs_input_grad  # empty when nothing is recorded (no_grad)
        if needs:
            has_bias = len(needs) == 3
            ctx.save_for_backward(*be.linear_backward(dz, x, w, needs[0], needs[1],
                                                      has_bias and needs[2])[:len(needs)])
        del z, dz  # the point of the op: the (N, V) buffer dies here
        ctx.targets = (targets, ignore_index, scale)  # for composite
        ctx.reduction = reduction
        return np.asarray(losses.sum(dtype=np.float64) * scale, dtype=losses.dtype)  # z's dtype

    @staticmethod
    def backward(ctx, grad):
        # d loss / d(x, w, b) = g * (dx, dW, db), all three computed by forward with g = 1
        saved = ctx.saved_tensors
        if grad == 1:  # the usual loss.backward(): the saved gradients as they are
            return saved
        return tuple(None if s is None else s * grad.astype(s.dtype) for s in saved)

    @staticmethod
    def composite(ctx, x, w, b=None):
        # the pair in small ops: z = x @ w.T + b, then CrossEntropyFunction's composite
        z = x @ w.T
        return composite_cross_entropy(z if b is None else z + b, *ctx.targets, ctx.reduction)

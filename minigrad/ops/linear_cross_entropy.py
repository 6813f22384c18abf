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
It does so a chunk of rows at a time (logits of at most ``CHUNK_BYTES``), dW summed over the
chunks in place (the backend's ``add_weight_grad``, BLAS with beta = 1), so that only one
chunk's logits ever exist. The matrix products are the same three as the composed pair's;
what is saved is the (N, V) logits and gradient, and a step's peak memory falls by both.

Only ``reduction='mean'`` or ``'sum'`` (one number out, so one g): per-row losses would need
one g per row, and dW sums over rows before g is known. Under ``create_graph`` the op is
differentiated through its ``composite``, the pair written out, so higher derivatives are
exact too.
"""

from __future__ import annotations

import math

import numpy as np

from .. import backends
from ..function import Function
from .cross_entropy import composite_cross_entropy

CHUNK_BYTES = 64 << 20  # the logits of at most this many bytes exist at once


class LinearCrossEntropyFunction(Function):
    """Mean or summed cross-entropy of the logits x @ w.T (+ b) against integer targets.

    Inputs x (N, in), w (V, in), optionally b (V,); options as
    :class:`~minigrad.ops.cross_entropy.CrossEntropyFunction` (``targets`` int64 (N,) checked and
    owned by the op, ``count`` of targets that are not ``ignore_index``, ``ignore_index``,
    ``reduction`` 'mean' or 'sum')."""

    @staticmethod
    def forward(ctx, x, w, b=None, *, targets, count, ignore_index=-100, reduction="mean"):
        count = int(count)  # an int or a 0-d array (see CrossEntropyFunction)
        scale = (1.0 / count if count else 0.0) if reduction == "mean" else 1.0
        be = backends.active
        needs = ctx.needs_input_grad  # empty when nothing is recorded (no_grad)
        n, v = x.shape[0], w.shape[0]
        chunks = max(1, math.ceil(n * v * x.itemsize / CHUNK_BYTES))
        rows = max(1, math.ceil(n / chunks))  # chunks of even size
        losses, grads = [], None
        for r0 in range(0, max(n, 1), rows):  # no rows: one empty chunk (zero gradients)
            xc, tc = x[r0:r0 + rows], targets[r0:r0 + rows]
            z = be.linear(xc, w, b)  # (rows, V): a fresh array this op owns
            loss_c, dz = be.cross_entropy(z, tc, ignore_index, scale, in_place=True)  # over z
            losses.append(loss_c)
            if needs:  # the head's backward, now: dx = dz W, dW = dz^T x, db = sum of dz
                need_b = len(needs) == 3 and needs[2]
                if grads is None:  # the first chunk's dW and db start the sums
                    dx, dw, db = be.linear_backward(dz, xc, w, needs[0], needs[1], need_b)
                    if dx is not None and rows < n:  # dx of every row, filled chunk by chunk
                        dx_all = np.empty((n,) + dx.shape[1:], dx.dtype)
                        dx_all[:rows] = dx
                        dx = dx_all
                    grads = [dx, dw, db]
                else:
                    dx_c, _, db_c = be.linear_backward(dz, xc, w, needs[0], False, need_b)
                    if dx_c is not None:
                        grads[0][r0:r0 + rows] = dx_c
                    if needs[1]:
                        be.add_weight_grad(dz, xc, grads[1])  # dW += dz^T x, in place
                    if db_c is not None:
                        grads[2] += db_c
            del z, dz  # the point of the op: a chunk's (rows, V) logits die here
        if needs:
            ctx.save_for_backward(*grads[:len(needs)])
        ctx.targets = (targets, ignore_index, scale)  # for composite
        ctx.reduction = reduction
        total = sum(float(c.sum(dtype=np.float64)) for c in losses)
        if reduction == "mean" and not count:  # every target ignored: 0/0, as PyTorch
            total = np.nan
        return np.asarray(total * scale, dtype=losses[0].dtype)  # z's dtype

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

"""Embedding lookup as an autograd Function: out[..., :] = weight[ids[...], :]."""

from __future__ import annotations

from .. import backends
from ..function import Function
from ..grad_buffers import RowScatterGrad
from .shape_ops import GetItem


class EmbeddingFunction(Function):
    """Row gather weight[ids] for weight (V, D) and integer ids of any shape -> ids.shape + (D,).

    ``ids`` is an option (never differentiated), already checked to lie in [0, V) and
    owned by the op (the caller passes a copy: see ``nn.embedding.check_ids``), so a
    batch buffer the caller refills before backward cannot move the scatter.
    ``grad_scale`` (optional, ids.shape): each position's gradient is multiplied by it
    before the scatter (``scale_grad_by_freq``: 1 / how often that id occurs)."""

    @staticmethod
    def forward(ctx, weight, ids, grad_scale=None):
        ctx.ids = ids
        ctx.num = weight.shape[0]
        ctx.grad_scale = grad_scale
        return weight[ids]

    @staticmethod
    def backward(ctx, grad):
        # dweight[ids[i]] += s[i] * g[i] (repeated ids accumulate; s = 1 without grad_scale),
        # kept lazy: the engine scatters it into the weight's other gradient (a tied head's)
        if ctx.grad_scale is not None:
            grad = grad * ctx.grad_scale[..., None].astype(grad.dtype, copy=False)
        return RowScatterGrad(ctx.num, ctx.ids, grad, backends.active.embedding_backward)

    @staticmethod
    def composite(ctx, weight):
        # the same lookup as a plain gather, differentiated under create_graph; with a
        # grad_scale s the value is rows * s + rows * (1 - s) cut from the graph: the
        # same rows, whose gradient is s * g (the backward above), itself differentiable
        rows = GetItem.apply(weight, index=ctx.ids)
        if ctx.grad_scale is None:
            return rows
        s = ctx.grad_scale[..., None].astype(rows.dtype)
        return rows * s + (rows * (1 - s)).detach()

"""Embedding lookup as an autograd Function: out[..., :] = weight[ids[...], :]."""

from __future__ import annotations

from .. import backends
from ..function import Function
from .shape_ops import GetItem


class EmbeddingFunction(Function):
    """Row gather weight[ids] for weight (V, D) and integer ids of any shape -> ids.shape + (D,).

    ``ids`` is an option (never differentiated), already checked to lie in [0, V) and
    owned by the op (the caller passes a copy: see ``nn.embedding.check_ids``), so a
    batch buffer the caller refills before backward cannot move the scatter."""

    @staticmethod
    def forward(ctx, weight, ids):
        ctx.ids = ids
        ctx.num = weight.shape[0]
        return weight[ids]

    @staticmethod
    def backward(ctx, grad):
        # dweight[ids[i]] += g[i] (repeated ids accumulate)
        return backends.active.embedding_backward(ctx.ids, grad, ctx.num)

    @staticmethod
    def composite(ctx, weight):
        # the same lookup as a plain gather, differentiated under create_graph
        return GetItem.apply(weight, index=ctx.ids)

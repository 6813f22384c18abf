"""Layer normalisation over the last axis as an autograd Function.

y = (x - mean) / sqrt(var + eps) * w + b, statistics per row (biased
variance, as PyTorch); the backend's ``layer_norm`` primitives do the math.
"""

from __future__ import annotations

from .. import backends
from ..function import Function


class LayerNormFunction(Function):
    """Layer norm over the last axis of x (..., D) with w, b (D,)."""

    @staticmethod
    def forward(ctx, x, w, b, eps=1e-5):
        w = w.astype(x.dtype, copy=False)
        b = b.astype(x.dtype, copy=False)
        y, mean, rstd = backends.active.layer_norm(x, w, b, eps)
        ctx.save_for_backward(x, w, mean, rstd)
        ctx.eps = eps
        return y

    @staticmethod
    def backward(ctx, grad):
        # dx = rstd (g w - mean(g w) - xhat mean(g w xhat)); dw = sum g xhat; db = sum g
        x, w, mean, rstd = ctx.saved_tensors
        return backends.active.layer_norm_backward(grad, x, w, mean, rstd)

    @staticmethod
    def composite(ctx, x, w, b):
        # layer norm in small ops, differentiated under create_graph
        centered = x - x.mean(axis=-1, keepdims=True)
        var = (centered * centered).mean(axis=-1, keepdims=True)
        return centered / (var + ctx.eps).sqrt() * w + b

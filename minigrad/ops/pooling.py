"""Max unpooling as an autograd Function: the one pooling op that is not a window view.

out = zeros(N, C, P) with out[n, c, indices[n, c, l]] = x[n, c, l]: each value is written
back where ``max_pool`` found it (an index named twice, as overlapping windows do, is
written, not added: both writes carry the same maximum). Its gradient reads the output's
gradient at the indices, as PyTorch's does.
"""

from __future__ import annotations

import numpy as np

from ..function import Function


class MaxUnpool(Function):
    """out (N, C, size) = zeros, out[n, c, indices[n, c, l]] = x[n, c, l], x (N, C, L)."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, x, indices, size):
        n, c, _ = x.shape
        index = (np.arange(n)[:, None, None], np.arange(c)[None, :, None], indices)
        ctx.index = index
        out = np.zeros((n, c, size), dtype=x.dtype)
        out[index] = x
        return out

    @staticmethod
    def backward(ctx, grad):
        # d out[indices]/dx = 1: the gradient read back at the indices (a gather)
        return ctx.xp.getitem(grad, ctx.index)

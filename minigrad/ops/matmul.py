"""Matrix multiply with batch broadcasting (the backend's ``matmul`` primitive).

For C = A @ B with A (..., M, K) and B (..., K, N):
dA = dC @ B^T and dB = A^T @ dC, then summed over any batch axes that were
broadcast (the same rule as elementwise ops).
"""

from __future__ import annotations

import numpy as np

from .. import backends
from ..function import Function
from .broadcast import unbroadcast


class MatMul(Function):
    """out = a @ b for (..., M, K) @ (..., K, N), batch axes broadcast."""

    differentiable_backward = True

    promote = "same"  # float32 @ float64 is refused, as PyTorch, not run in float64

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return backends.active.matmul(a, b)

    @staticmethod
    def backward(ctx, grad):
        # dA = dC @ B^T, dB = A^T @ dC (summed over broadcast batch axes)
        a, b = ctx.saved_tensors
        xp = ctx.xp
        ga = gb = None
        if ctx.needs_input_grad[0]:
            ga = unbroadcast(xp.matmul(grad, xp.swapaxes(b, -1, -2)), a.shape)
        if ctx.needs_input_grad[1]:
            if b.ndim == 2 and a.ndim > 2:
                # sum over all leading rows in one 2-D product: (K, rows) @ (rows, N)
                rows = int(np.prod(a.shape[:-1]))  # not -1: reshape cannot infer it when K == 0
                gb = xp.matmul(xp.swapaxes(a.reshape(rows, a.shape[-1]), -1, -2),
                               grad.reshape(rows, grad.shape[-1]))
            else:
                gb = unbroadcast(xp.matmul(xp.swapaxes(a, -1, -2), grad), b.shape)
        return ga, gb

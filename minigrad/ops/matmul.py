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


def matmul(a, b):
    """``a @ b`` as ``torch.matmul``: 1-D operands are treated as a row (left) or
    column (right) vector and that axis is removed from the result."""
    from ..tensor import Tensor, as_tensor_like

    a = a if isinstance(a, Tensor) else as_tensor_like(a, b)
    b = b if isinstance(b, Tensor) else as_tensor_like(b, a)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(
            f"matmul: both operands need at least 1 dimension, got shapes {a.shape} and {b.shape}"
        )
    if a.dtype.kind != "f" or b.dtype.kind != "f":
        raise TypeError(f"matmul: needs floating-point tensors, got {a.dtype} and {b.dtype}")
    squeeze_a, squeeze_b = a.ndim == 1, b.ndim == 1
    shape_a, shape_b = a.shape, b.shape  # the caller's shapes, for error messages
    if squeeze_a:
        a = a.reshape(1, -1)
    if squeeze_b:
        b = b.reshape(-1, 1)
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(
            f"matmul: shapes {shape_a} and {shape_b} do not align "
            f"(inner dimensions {a.shape[-1]} != {b.shape[-2]})"
        )
    try:
        np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        raise ValueError(
            f"matmul: batch dimensions of {a.shape} and {b.shape} cannot be broadcast"
        ) from None
    out = MatMul.apply(a, b)
    if squeeze_a:
        out = out.reshape(out.shape[:-2] + (out.shape[-1],))
    if squeeze_b:
        out = out.reshape(out.shape[:-1])
    return out

"""The linear layer as an autograd Function: y = x @ W.T + b.

W has shape (out, in), as in PyTorch. Forward and backward are the backend's
``linear`` and ``linear_backward`` primitives (see backends/reference.py for
the math in NumPy).
"""

from __future__ import annotations

from .. import backends
from ..function import Function


class LinearFunction(Function):
    """y = x @ w.T (+ b) for x (..., in), w (out, in), b (out,) -> (..., out)."""

    @staticmethod
    def forward(ctx, x, w, b=None):
        ctx.save_for_backward(x, w)
        return backends.active.linear(x, w, b)

    @staticmethod
    def backward(ctx, grad):
        # dx = g @ W,  dW = g^T @ x (over all leading rows),  db = sum of g over rows
        x, w = ctx.saved_tensors
        needs = ctx.needs_input_grad
        has_bias = len(needs) == 3
        dx, dw, db = backends.active.linear_backward(grad, x, w, needs[0], needs[1],
                                                     has_bias and needs[2])
        return (dx, dw, db) if has_bias else (dx, dw)

    @staticmethod
    def backward_graph(ctx, grad):
        x, w = ctx.parents[:2]
        needs = ctx.needs_input_grad
        g2 = grad.reshape(-1, grad.shape[-1])
        dx = grad @ w if needs[0] else None
        dw = g2.T @ x.reshape(-1, x.shape[-1]) if needs[1] else None
        if len(needs) == 2:
            return dx, dw
        return dx, dw, (g2.sum(axis=0) if needs[2] else None)

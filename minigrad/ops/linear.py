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

    promote = "same"  # float32 @ float64 is refused, as PyTorch, not run in float64

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
    def composite(ctx, x, w, b=None):
        # x @ w.T + b in small ops, differentiated under create_graph
        y = x @ w.T
        return y if b is None else y + b


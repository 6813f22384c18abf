"""Linear layers as autograd Functions: y = x @ W.T + b, alone or several side by side.

W has shape (out, in), as in PyTorch. Forward and backward are the backend's
``linear`` and ``linear_backward`` primitives (see backends/reference.py for
the math in NumPy).
"""

from __future__ import annotations

import numpy as np

from .. import backends
from ..function import Function
from .shape_ops import cat


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
    def composite(ctx, x, w, b=None):
        # x @ w.T + b in small ops, differentiated under create_graph
        y = x @ w.T
        return y if b is None else y + b


class PackedLinearFunction(Function):
    """Several Linear layers on the same input as one product: for weights
    W_1..W_n (out_i, in) and biases b_1..b_n (or none), y = x @ [W_1; ..; W_n].T + [b_1, .., b_n]
    -> (..., sum out_i), the outputs side by side (e.g. q, k, v of self-attention).

    Inputs: x, then the n weights, then the n biases (if any); option ``n``.
    One (rows, in) @ (in, sum out_i) product keeps BLAS busier than n narrow
    ones, and the backward gives x one gradient instead of n to add up.
    """

    @staticmethod
    def forward(ctx, x, *params, n):
        w = np.concatenate(params[:n])                  # (sum out_i, in), a fresh copy
        b = np.concatenate(params[n:]) if len(params) > n else None
        ctx.save_for_backward(x, w)
        ctx.rows = [p.shape[0] for p in params[:n]]
        return backends.active.linear(x, w, b)

    @staticmethod
    def backward(ctx, grad):
        # dx = g @ [W_i], d[W_i] = g^T x split by rows, d[b_i] = sum of g over rows, split
        x, w = ctx.saved_tensors
        needs = ctx.needs_input_grad
        n = len(ctx.rows)
        has_bias = len(needs) > n + 1
        dx, dw, db = backends.active.linear_backward(grad, x, w, needs[0], any(needs[1:n + 1]),
                                                     has_bias and any(needs[n + 1:]))
        cuts = np.cumsum(ctx.rows)[:-1]
        dws = [None] * n if dw is None else np.split(dw, cuts, axis=0)
        dbs = ([None] * n if db is None else np.split(db, cuts)) if has_bias else []
        return (dx, *dws, *dbs)

    @staticmethod
    def composite(ctx, x, *params):
        # x @ [W_1; ..; W_n].T + [b_1, .., b_n] in small ops, differentiated under create_graph
        n = len(ctx.rows)
        y = x @ cat(params[:n]).T
        return y + cat(params[n:]) if len(params) > n else y

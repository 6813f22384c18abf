"""GELU fused into the Linear layer that consumes it: y = gelu(a) @ w.T (+ b).

A transformer's feed-forward network is Linear -> GELU -> Linear. As two ops, the graph keeps
h = gelu(a) for the second Linear's weight gradient (dW = g^T h) beside a, which GELU itself
needs: two (rows, 4C) arrays a layer. Fused, the op keeps only what the backward cannot cheaply
make again. When h is large (``function.recompute_in_backward``: GPT-2 124M at block 256, batch
4, 12.6 MB a layer, 151 MB over 12 layers) it keeps a alone, which the graph holds anyway (the
op's input), and the backward computes h and GELU's slope from it again, one elementwise pass;
when h is small it keeps h and the slope, as the two ops would.

The math is the two ops' own: :func:`~minigrad.ops.elementwise.gelu_and_slope` and the
backend's ``linear`` / ``linear_backward``; the composite (for ``create_graph``) is GELU's
composite followed by Linear's.
"""

from __future__ import annotations

from .. import backends
from ..function import Function, recompute_in_backward
from .elementwise import GELU, gelu_and_slope
from .linear import LinearFunction


class GELULinearFunction(Function):
    """y = gelu(a) @ w.T (+ b) for a (..., in), w (out, in), b (out,) -> (..., out);
    option ``approximate`` ('none' or 'tanh') as in GELU."""

    promote = "same"  # float32 @ float64 is refused, as PyTorch, not run in float64

    @staticmethod
    def forward(ctx, a, w, b=None, approximate="none"):
        needs = ctx.needs_input_grad  # empty when nothing is recorded
        ctx.approximate = approximate
        ctx.recompute = bool(needs) and recompute_in_backward(a.nbytes)
        h, slope = gelu_and_slope(a, approximate,
                                  want_slope=bool(needs) and needs[0] and not ctx.recompute)
        y = backends.active.linear(h, w, b)
        if ctx.recompute:
            ctx.save_for_backward(a, w)
        else:
            ctx.save_for_backward(h, slope, w)
        return y

    @staticmethod
    def backward(ctx, grad):
        # dh = g W, dW = g^T h, db = sum of g over rows (Linear's); da = dh * gelu'(a) (GELU's)
        needs = ctx.needs_input_grad
        if ctx.recompute:
            a, w = ctx.saved_tensors
            h, slope = gelu_and_slope(a, ctx.approximate, want_slope=needs[0])
        else:
            h, slope, w = ctx.saved_tensors
        has_bias = len(needs) == 3
        dh, dw, db = backends.active.linear_backward(grad, h, w, needs[0], needs[1],
                                                     has_bias and needs[2])
        da = backends.active.gelu_backward(dh, slope) if needs[0] else None
        return (da, dw, db) if has_bias else (da, dw)

    @staticmethod
    def composite(ctx, a, w, b=None):
        # GELU's small ops, then Linear's: what create_graph differentiates
        return LinearFunction.composite(ctx, GELU.composite(ctx, a), w, b)

"""A recurrence over a whole sequence as one autograd Function: the fused form of an RNN,
LSTM or GRU layer's time loop.

Composed step by step, each time step of a layer is a handful of ops forward and backward,
each with its Python and dispatch cost, and the graph holds every one of them. ``Recurrence``
runs the whole loop as the backend's ``recurrence`` primitive and its backpropagation through
time as ``recurrence_backward`` (the math: ``backends/recurrence_reference.py``), as cuDNN
and PyTorch run a layer. The caller passes the cell's step function in small ops
(``step``), which is the op's composite: ``create_graph`` differentiates the loop written
out, so derivatives of every order work.

Inputs: gi (L, N, G H) the input's part of the gates, h0 (N, H), c0 (N, H) for an LSTM,
w_hh (G H, H), b_hh (G H,) if the layer has one. The output y (L, N, S H) holds the state
after every step in time order: h, or for an LSTM h and c side by side (S = 2), so that one
output carries both, and h_n, c_n are its first (``reverse``) or last step.
"""

from __future__ import annotations

from .. import backends
from ..function import Function
from .shape_ops import cat, stack


def _unpack(kind: str, rest: tuple) -> tuple:
    """(c0 or None, w_hh, b_hh or None) from the inputs after gi and h0."""
    c0, rest = (rest[0], rest[1:]) if kind == "LSTM" else (None, rest)
    return c0, rest[0], (rest[1] if len(rest) > 1 else None)


class Recurrence(Function):
    """y (L, N, S H): the states of a recurrence of cell ``kind`` ('RNN_TANH', 'RNN_RELU',
    'LSTM', 'GRU') over gi (L, N, G H) from h0 (and c0), with w_hh and b_hh; options
    ``kind``, ``reverse`` (steps from L - 1 down to 0) and ``step`` (the cell in small ops:
    ``step(gi_t, state, w_hh, b_hh) -> state``, the composite)."""

    promote = "same"

    @staticmethod
    def forward(ctx, gi, h0, *rest, kind, reverse, step):
        c0, w_hh, b_hh = _unpack(kind, rest)
        ctx.kind, ctx.reverse, ctx.step = kind, reverse, step
        y, gates = backends.active.recurrence(kind, gi, h0, c0, w_hh, b_hh, reverse)
        ctx.save_for_backward(y, gates, h0, c0, w_hh)
        return y

    @staticmethod
    def backward(ctx, grad):
        # backpropagation through time: the steps walked backwards (recurrence_reference.py)
        y, gates, h0, c0, w_hh = ctx.saved_tensors
        dgi, dh0, dc0, dw, db = backends.active.recurrence_backward(
            ctx.kind, grad, y, gates, h0, c0, w_hh, ctx.reverse)
        grads = (dgi, dh0) + ((dc0,) if ctx.kind == "LSTM" else ()) + (dw,)
        return grads + (db,) if len(ctx.needs_input_grad) > len(grads) else grads

    @staticmethod
    def composite(ctx, gi, h0, *rest):
        # the loop written out with the cell's own small ops, differentiated by create_graph
        c0, w_hh, b_hh = _unpack(ctx.kind, rest)
        state = (h0,) if c0 is None else (h0, c0)
        outputs = [None] * gi.shape[0]
        order = range(gi.shape[0] - 1, -1, -1) if ctx.reverse else range(gi.shape[0])
        for t in order:
            state = ctx.step(gi[t], state, w_hh, b_hh)
            outputs[t] = state[0] if c0 is None else cat(list(state), -1)
        return stack(outputs, 0)

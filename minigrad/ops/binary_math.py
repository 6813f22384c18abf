"""Smooth-almost-everywhere functions of two tensors that always give floats: atan2 and
copysign (broadcasting). ``remainder`` and ``fmod``, which keep integers integers, are in
``math_ops.py``.

Their dtype rule is true division's (``promote = "divide"``): the two operands meet at
PyTorch's result type, and integers or bools are computed in float32.
"""

from __future__ import annotations

import numpy as np

from ..function import Function
from .broadcast import unbroadcast
from .elementwise import _check_broadcast


class Atan2(Function):
    """out = atan2(a, b): the angle of the point (b, a), in [-pi, pi] (broadcasting)."""

    differentiable_backward = True
    promote = "divide"

    @staticmethod
    def forward(ctx, a, b):
        if a.shape != b.shape:
            _check_broadcast("atan2", a, b)
        ctx.save_for_backward(a, b)
        return np.asarray(np.arctan2(a, b))

    @staticmethod
    def backward(ctx, grad):
        # d atan2(a, b)/da = b / (a^2 + b^2), d/db = -a / (a^2 + b^2), and 0 at a = b = 0
        # (PyTorch's); the square is divided where it is 1 instead of 0 there, so that no
        # 0 * inf enters this or a higher derivative
        a, b = ctx.saved_tensors
        ga = gb = None
        with np.errstate(divide="ignore", invalid="ignore"):
            square = a * a + b * b
            origin = ctx.xp.constant(square) == 0
            r = ctx.xp.where(origin, 0.0, 1 / ctx.xp.where(origin, 1.0, square)) \
                if origin.any() else 1 / square
            if ctx.needs_input_grad[0]:
                ga = unbroadcast(grad * b * r, a.shape)
            if ctx.needs_input_grad[1]:
                gb = unbroadcast(-grad * a * r, b.shape)
        return ga, gb


class CopySign(Function):
    """out = |a| with the sign (bit) of b (broadcasting); ``b = -0.0`` counts as negative."""

    differentiable_backward = True
    promote = "divide"

    @staticmethod
    def forward(ctx, a, b):
        if a.shape != b.shape:
            _check_broadcast("copysign", a, b)
        out = np.asarray(np.copysign(a, b))
        if ctx.needs_input_grad and ctx.needs_input_grad[0]:
            # +1 where out has a's sign, -1 where it flipped, 0 where a == 0 (PyTorch's
            # gradient there): piecewise constant, so a constant under create_graph too
            with np.errstate(invalid="ignore"):
                ctx.flip = np.where(a == 0, 0, np.sign(a) * np.where(np.signbit(out), -1, 1)
                                    ).astype(out.dtype)
        ctx.shapes = (a.shape, b.shape)
        return out

    @staticmethod
    def backward(ctx, grad):
        # d copysign(a, b)/da = +-1 (0 at a = 0), d/db = 0 (the sign is piecewise constant)
        sa, sb = ctx.shapes
        ga = unbroadcast(grad * ctx.flip, sa) if ctx.needs_input_grad[0] else None
        gb = unbroadcast(ctx.xp.zeros_like(grad), sb) if ctx.needs_input_grad[1] else None
        return ga, gb

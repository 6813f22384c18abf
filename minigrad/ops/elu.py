"""The ELU family as one op: elu, celu and selu are one formula with three constants.

    out = scale * (a                                  where a > 0
                   alpha * (e**(input_scale a) - 1)   elsewhere)

elu is (alpha, 1, 1), celu (alpha, 1, 1/alpha), selu (1.6733, 1.0507, 1) (PyTorch computes
all three with this formula too). It is an op of its own, not a composition of ``where`` and
``expm1``, for its corner at 0: PyTorch gives the negative branch's slope there
(scale alpha input_scale) but a second derivative of 0, and no composition can give both.
"""

from __future__ import annotations

import numpy as np

from ..function import Function


class ELU(Function):
    """out = scale * (a where a > 0, else alpha * (e**(input_scale a) - 1)); the options are
    Python floats. Integers and bools are computed in float32."""

    differentiable_backward = True
    promote = "float"

    @staticmethod
    def forward(ctx, a, alpha=1.0, scale=1.0, input_scale=1.0):
        ctx.save_for_backward(a)
        ctx.constants = (alpha, scale, input_scale)
        # expm1 of min(a, 0): exact near 0, and the unused branch never overflows
        neg = alpha * np.expm1(np.minimum(a, 0) * input_scale)
        return np.asarray(scale * np.where(a > 0, a, neg))

    @staticmethod
    def backward(ctx, grad):
        # d out/da = scale alpha input_scale e^(input_scale a) where a <= 0, else scale (NaN
        # included, as PyTorch's comparison); its derivative is taken where a < 0 only (0 at
        # a = 0, as PyTorch)
        (a,) = ctx.saved_tensors
        alpha, scale, s = ctx.constants
        xp = ctx.xp
        an = xp.constant(a)
        zero = np.zeros((), an.dtype)
        below = xp.where(an < 0, a, zero)  # a where a < 0; a constant 0 from 0 up
        slope = xp.where(an <= 0, (scale * alpha * s) * xp.exp(below * s),
                         np.asarray(scale, an.dtype))
        return grad * slope

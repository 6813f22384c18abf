"""Self-gated activations, out = a * gate(a): SiLU (gate sigmoid), Mish (gate
tanh(softplus)) and hardswish (gate relu6(a + 3) / 6), one op each; and GELU (gate Phi,
the normal CDF, or its tanh form) as what ``create_graph`` differentiates (GELU's own op,
``ops/elementwise.py``, runs the backend's kernels).

Each is an op of its own, not the product ``a * gate(a)``, for its gradient: the product
sends the upstream gradient g down two paths, g * gate(a) and g * a * gate'(a), and where
one factor is 0 while g is infinite that path is 0 * inf = NaN, which poisons the sum even
where the whole derivative is finite and nonzero (SiLU at a = 0: g * (1/2 + 0 * 1/4), an
infinite g gives inf, the two paths inf + NaN). Here, as in PyTorch, g multiplies the one
derivative ``slope(a)``, and where the derivative is exactly 0 (hardswish below -3) g is
selected away, never multiplied. Each formula is PyTorch's (so its NaN and inf cases are
PyTorch's too), written in operations arrays and Tensors share: the same backward serves
``create_graph``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from .. import backends
from ..function import Function
from .unary_math import _sigmoid


def _logistic(a, xp):
    """sigmoid(a) = 1 / (1 + e**-a), in operations arrays and Tensors share (exact but for
    a below about -87 in float32, where sigmoid(a) is a subnormal number and this gives 0)."""
    return 1 / (1 + xp.exp(-a))


def _silu_slope(g, a, xp):
    # d a sigmoid(a)/da = s (1 + a (1 - s)), s = sigmoid(a)
    s = _logistic(a, xp)
    return g * (s * (1 + a * (1 - s)))


def _mish_slope(g, a, xp):
    # d a tanh(softplus(a))/da = t + a sigmoid(a) (1 - t^2), t = tanh(softplus(a))
    t = xp.tanh(xp.log1p(xp.exp(a)))
    return g * (t + a * _logistic(a, xp) * (1 - t * t))


def _hardswish_slope(g, a, xp):
    # d a relu6(a + 3)/6 /da = 0 for a <= -3, a/3 + 1/2 for -3 < a < 3, 1 from 3 up;
    # the zero selected (an infinite g there gives 0, as PyTorch), NaN a passing g
    an = xp.constant(a)
    inner = xp.where(an < 3, a / 3 + 0.5, np.ones((), an.dtype))
    return xp.masked(g * inner, ~(an <= -3))


_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


def _gelu_slope(g, a, xp):
    # d a Phi(a)/da = Phi(a) + a phi(a); a phi(a) taken as its limit 0 where |a| >= 1000
    # (so the slope at +-inf is 1 or 0, the backend's values, not inf * 0)
    an = xp.constant(a)
    cdf = 0.5 * (1 + xp.erf(a * (1 / math.sqrt(2.0))))
    a_pdf = xp.where(np.abs(an) < 1e3, a * xp.exp(-0.5 * a * a), np.zeros((), an.dtype))
    return g * (cdf + a_pdf * (1 / math.sqrt(2 * math.pi)))


def _gelu_tanh_slope(g, a, xp):
    # with t = tanh(sqrt(2/pi) (a + 0.044715 a^3)):
    # d 0.5 a (1 + t)/da = 0.5 (1 + t) + 0.5 a (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 a^2)
    t = xp.tanh(_SQRT_2_OVER_PI * (a + 0.044715 * a * a * a))
    return g * (0.5 * (1 + t) + 0.5 * a * (1 - t * t) * _SQRT_2_OVER_PI
                * (1 + 3 * 0.044715 * a * a))


def _mish(a: np.ndarray) -> np.ndarray:
    return a * np.tanh(np.log1p(np.exp(a)))


class Gate(NamedTuple):
    """``forward(a)`` on arrays; ``backward(g, a, xp)``: g * d out/da."""

    forward: Callable
    backward: Callable


GATES: dict[str, Gate] = {
    "silu": Gate(lambda a: a * _sigmoid(a), _silu_slope),
    "mish": Gate(_mish, _mish_slope),
    "hardswish": Gate(lambda a: a * np.clip(a + 3, 0, 6) / 6, _hardswish_slope),
    # GELU's own op computes with the backend's kernels; these rows are what create_graph
    # differentiates (GELU's composite)
    "gelu": Gate(lambda a: backends.active.gelu(a, False)[0], _gelu_slope),
    "gelu_tanh": Gate(lambda a: backends.active.gelu(a, False, approximate="tanh")[0],
                      _gelu_tanh_slope),
}


class SelfGated(Function):
    """out = a * gate(a) for one of ``GATES`` (``name``); integers and bools are computed in
    float32."""

    differentiable_backward = True
    promote = "float"

    @staticmethod
    def forward(ctx, a, name):
        ctx.save_for_backward(a)
        ctx.gate = GATES[name]
        with np.errstate(over="ignore", invalid="ignore"):
            return np.asarray(ctx.gate.forward(a), dtype=a.dtype)

    @staticmethod
    def backward(ctx, grad):
        # d out/da: the gate's (see GATES)
        (a,) = ctx.saved_tensors
        with np.errstate(over="ignore", invalid="ignore"):
            return ctx.gate.backward(grad, a, ctx.xp)

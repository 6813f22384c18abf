"""Smooth functions of one tensor: inverse trigonometric and hyperbolic functions, tan,
the accurate logarithms and exponentials (log1p, expm1, log2, log10, exp2), rsqrt,
reciprocal and log-sigmoid: one Function, ``UnaryMath``, driven by one table.

Each row of ``RULES`` is a function and its derivative, side by side::

    "asin": Rule(np.arcsin, lambda a, y, xp: (1 - a * a) ** -0.5),   # d asin(a)/da

The derivative is a function of the input ``a`` and the output ``y`` (whichever is the
cheaper or the more accurate), written in operations NumPy arrays and Tensors spell alike
(``ctx.xp`` for the rest), so the one rule also serves ``create_graph=True``.

Accuracy: ``log1p``, ``expm1`` and ``logsigmoid`` exist because their naive forms lose
every digit somewhere (``log(1 + 1e-10)`` is 0 in float32, ``log(sigmoid(-200))`` is
``log(0)``); they are computed with ``np.log1p``, ``np.expm1`` and
min(a, 0) - log1p(e**-|a|), never from the naive forms.
Integer and bool inputs are computed in float32 (``promote = "float"``, as PyTorch).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from ..function import Function

_LN2, _LN10 = math.log(2.0), math.log(10.0)  # Python floats: float32 arrays stay float32


def _log_sigmoid(a: np.ndarray) -> np.ndarray:
    """log(1 / (1 + e**-a)) = min(a, 0) - log1p(e**-|a|): exp of a non-positive number
    only, so no overflow, and no log(0) for very negative a."""
    return np.minimum(a, 0) - np.log1p(np.exp(-np.abs(a)))


class Rule(NamedTuple):
    """``forward(a)`` on arrays, and ``derivative(a, y, xp)``: dy/da at input a, output y."""

    forward: Callable
    derivative: Callable


RULES: dict[str, Rule] = {
    # d asin(a)/da = 1 / sqrt(1 - a^2)          (inf at a = +-1, as PyTorch)
    "asin": Rule(np.arcsin, lambda a, y, xp: (1 - a * a) ** -0.5),
    # d acos(a)/da = -1 / sqrt(1 - a^2)
    "acos": Rule(np.arccos, lambda a, y, xp: -(1 - a * a) ** -0.5),
    # d atan(a)/da = 1 / (1 + a^2)
    "atan": Rule(np.arctan, lambda a, y, xp: 1 / (1 + a * a)),
    # d sinh(a)/da = cosh(a)
    "sinh": Rule(np.sinh, lambda a, y, xp: xp.cosh(a)),
    # d cosh(a)/da = sinh(a)
    "cosh": Rule(np.cosh, lambda a, y, xp: xp.sinh(a)),
    # d tan(a)/da = 1 + tan(a)^2
    "tan": Rule(np.tan, lambda a, y, xp: 1 + y * y),
    # d asinh(a)/da = 1 / sqrt(a^2 + 1)
    "asinh": Rule(np.arcsinh, lambda a, y, xp: (a * a + 1) ** -0.5),
    # d acosh(a)/da = 1 / sqrt(a^2 - 1)         (inf at a = 1)
    "acosh": Rule(np.arccosh, lambda a, y, xp: (a * a - 1) ** -0.5),
    # d atanh(a)/da = 1 / (1 - a^2)
    "atanh": Rule(np.arctanh, lambda a, y, xp: 1 / (1 - a * a)),
    # d log(1 + a)/da = 1 / (1 + a)
    "log1p": Rule(np.log1p, lambda a, y, xp: 1 / (1 + a)),
    # d (e^a - 1)/da = e^a = y + 1
    "expm1": Rule(np.expm1, lambda a, y, xp: y + 1),
    # d log2(a)/da = 1 / (a ln 2)
    "log2": Rule(np.log2, lambda a, y, xp: 1 / (a * _LN2)),
    # d log10(a)/da = 1 / (a ln 10)
    "log10": Rule(np.log10, lambda a, y, xp: 1 / (a * _LN10)),
    # d 2^a/da = 2^a ln 2
    "exp2": Rule(np.exp2, lambda a, y, xp: y * _LN2),
    # d a^(-1/2)/da = -a^(-3/2) / 2 = -y^3 / 2
    "rsqrt": Rule(lambda a: 1 / np.sqrt(a), lambda a, y, xp: -0.5 * y * y * y),
    # d (1/a)/da = -1/a^2 = -y^2
    "reciprocal": Rule(lambda a: 1 / a, lambda a, y, xp: -(y * y)),
    # d log(sigmoid(a))/da = 1 - sigmoid(a) = 1 - e^y = -expm1(y): accurate for large a too,
    # where 1 - sigmoid(a) ~ e^-a would be lost to cancellation
    "logsigmoid": Rule(_log_sigmoid, lambda a, y, xp: -xp.expm1(y)),
}


class UnaryMath(Function):
    """out = f(a) for a function f of ``RULES`` (named by the option ``name``).

    Values outside a function's domain give NaN and poles give +-inf, without a warning, as
    in PyTorch (``asin(2)``, ``log2(0)``, ``reciprocal(0)``)."""

    differentiable_backward = True
    promote = "float"

    @staticmethod
    def forward(ctx, a, name):
        rule = RULES[name]
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            out = np.asarray(rule.forward(a))  # a 0-d input stays an array, not a NumPy scalar
        ctx.save_for_backward(a, out)
        ctx.rule = rule
        return out

    @staticmethod
    def backward(ctx, grad):
        # d f(a)/da: the rule's derivative (see RULES)
        a, y = ctx.saved_tensors
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return grad * ctx.rule.derivative(a, y, ctx.xp)

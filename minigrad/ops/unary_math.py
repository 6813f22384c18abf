"""Smooth functions of one tensor, one table: exp, log, sqrt, tanh, sigmoid, sin, cos, erf, the
inverse trigonometric and hyperbolic functions, tan, the accurate logarithms and exponentials
(log1p, expm1, log2, log10, exp2), rsqrt, reciprocal and log-sigmoid.

Each row of ``RULES`` is a function and its backward, side by side::

    # d asin(a)/da = 1 / sqrt(1 - a^2)
    "asin": Rule(np.arcsin, "a", lambda g, a, xp: g * (1 - a * a) ** -0.5),

The backward reads the input ``a`` or the output ``y`` (whichever is the cheaper or the more
accurate: only that one is kept for it) and is written in operations NumPy arrays and Tensors
spell alike (``ctx.xp`` for the rest), so the one rule also serves ``create_graph=True``. Each
row is its own Function class, named after it (``FUNCTIONS["tanh"]`` is ``Tanh``), so graphs
and profiles name the function.

Accuracy: ``log1p``, ``expm1`` and ``logsigmoid`` exist because their naive forms lose
every digit somewhere (``log(1 + 1e-10)`` is 0 in float32, ``log(sigmoid(-200))`` is
``log(0)``); they are computed with ``np.log1p``, ``np.expm1`` and
min(a, 0) - log1p(e**-|a|), never from the naive forms. Sigmoid takes e to non-positive
powers only. Integer and bool inputs are computed in float32 (``promote = "float"``, as
PyTorch). Values outside a function's domain give NaN and poles give +-inf, without a
warning, as in PyTorch (``asin(2)``, ``log2(0)``, ``reciprocal(0)``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from scipy import special

from ..function import Function

_LN2, _LN10 = math.log(2.0), math.log(10.0)  # Python floats: float32 arrays stay float32


def _log_sigmoid(a: np.ndarray) -> np.ndarray:
    """log(1 / (1 + e**-a)) = min(a, 0) - log1p(e**-|a|): exp of a non-positive number
    only, so no overflow, and no log(0) for very negative a."""
    return np.minimum(a, 0) - np.log1p(np.exp(-np.abs(a)))


def _sigmoid(a: np.ndarray) -> np.ndarray:
    """1 / (1 + e**-a), from e**-|a| only: no overflow for large |a|."""
    e = np.exp(-np.abs(a))
    return np.where(a >= 0, 1 / (1 + e), e / (1 + e)).astype(a.dtype, copy=False)


def _erf(a: np.ndarray) -> np.ndarray:
    return special.erf(a).astype(a.dtype, copy=False)


class Rule(NamedTuple):
    """``forward(a)`` on arrays; ``keeps``, the array the backward reads ("a", the input, or
    "y", the output); ``backward(g, kept, xp)``: the gradient g * dy/da."""

    forward: Callable
    keeps: str
    backward: Callable


RULES: dict[str, Rule] = {
    # d e^a/da = e^a = y
    "exp": Rule(np.exp, "y", lambda g, y, xp: g * y),
    # d log(a)/da = 1/a
    "log": Rule(np.log, "a", lambda g, a, xp: g / a),
    # d sqrt(a)/da = 1 / (2 sqrt(a)) = 1 / (2y)
    "sqrt": Rule(np.sqrt, "y", lambda g, y, xp: g / (2 * y)),
    # d tanh(a)/da = 1 - tanh(a)^2 = 1 - y^2
    "tanh": Rule(np.tanh, "y", lambda g, y, xp: g * (1 - y * y)),
    # d sigmoid(a)/da = s (1 - s), s = y
    "sigmoid": Rule(_sigmoid, "y", lambda g, y, xp: g * y * (1 - y)),
    # d sin(a)/da = cos(a)
    "sin": Rule(np.sin, "a", lambda g, a, xp: g * xp.cos(a)),
    # d cos(a)/da = -sin(a)
    "cos": Rule(np.cos, "a", lambda g, a, xp: -g * xp.sin(a)),
    # d erf(a)/da = 2/sqrt(pi) * e^(-a^2)
    "erf": Rule(_erf, "a", lambda g, a, xp: g * (xp.exp(-a * a) * (2.0 / np.sqrt(np.pi)))),
    # d asin(a)/da = 1 / sqrt(1 - a^2)          (inf at a = +-1, as PyTorch)
    "asin": Rule(np.arcsin, "a", lambda g, a, xp: g * (1 - a * a) ** -0.5),
    # d acos(a)/da = -1 / sqrt(1 - a^2)
    "acos": Rule(np.arccos, "a", lambda g, a, xp: g * -(1 - a * a) ** -0.5),
    # d atan(a)/da = 1 / (1 + a^2)
    "atan": Rule(np.arctan, "a", lambda g, a, xp: g * (1 / (1 + a * a))),
    # d sinh(a)/da = cosh(a)
    "sinh": Rule(np.sinh, "a", lambda g, a, xp: g * xp.cosh(a)),
    # d cosh(a)/da = sinh(a)
    "cosh": Rule(np.cosh, "a", lambda g, a, xp: g * xp.sinh(a)),
    # d tan(a)/da = 1 + tan(a)^2 = 1 + y^2
    "tan": Rule(np.tan, "y", lambda g, y, xp: g * (1 + y * y)),
    # d asinh(a)/da = 1 / sqrt(a^2 + 1)
    "asinh": Rule(np.arcsinh, "a", lambda g, a, xp: g * (a * a + 1) ** -0.5),
    # d acosh(a)/da = 1 / sqrt(a^2 - 1)         (inf at a = 1)
    "acosh": Rule(np.arccosh, "a", lambda g, a, xp: g * (a * a - 1) ** -0.5),
    # d atanh(a)/da = 1 / (1 - a^2)
    "atanh": Rule(np.arctanh, "a", lambda g, a, xp: g * (1 / (1 - a * a))),
    # d log(1 + a)/da = 1 / (1 + a)
    "log1p": Rule(np.log1p, "a", lambda g, a, xp: g * (1 / (1 + a))),
    # d (e^a - 1)/da = e^a = y + 1
    "expm1": Rule(np.expm1, "y", lambda g, y, xp: g * (y + 1)),
    # d log2(a)/da = 1 / (a ln 2)
    "log2": Rule(np.log2, "a", lambda g, a, xp: g * (1 / (a * _LN2))),
    # d log10(a)/da = 1 / (a ln 10)
    "log10": Rule(np.log10, "a", lambda g, a, xp: g * (1 / (a * _LN10))),
    # d 2^a/da = 2^a ln 2
    "exp2": Rule(np.exp2, "y", lambda g, y, xp: g * (y * _LN2)),
    # d a^(-1/2)/da = -a^(-3/2) / 2 = -y^3 / 2
    "rsqrt": Rule(lambda a: 1 / np.sqrt(a), "y", lambda g, y, xp: g * (-0.5 * y * y * y)),
    # d (1/a)/da = -1/a^2 = -y^2
    "reciprocal": Rule(lambda a: 1 / a, "y", lambda g, y, xp: g * -(y * y)),
    # d log(sigmoid(a))/da = 1 - sigmoid(a) = 1 - e^y = -expm1(y): accurate for large a too,
    # where 1 - sigmoid(a) ~ e^-a would be lost to cancellation
    "logsigmoid": Rule(_log_sigmoid, "y", lambda g, y, xp: g * -xp.expm1(y)),
}


def _function(name: str, rule: Rule) -> type[Function]:
    """The Function of one row: out = f(a), its backward the row's."""

    def forward(ctx, a):
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            out = np.asarray(rule.forward(a))  # a 0-d input stays an array, not a NumPy scalar
        ctx.save_for_backward(a if rule.keeps == "a" else out)
        return out

    def backward(ctx, grad):
        # d f(a)/da: the row's backward (see RULES)
        (kept,) = ctx.saved_tensors
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return rule.backward(grad, kept, ctx.xp)

    return type(name.capitalize(), (Function,), {
        "__doc__": f"out = {name}(a) (``RULES[{name!r}]``).", "__module__": __name__,
        "__qualname__": name.capitalize(), "differentiable_backward": True, "promote": "float",
        "forward": staticmethod(forward), "backward": staticmethod(backward)})


FUNCTIONS: dict[str, type[Function]] = {name: _function(name, rule) for name, rule in RULES.items()}

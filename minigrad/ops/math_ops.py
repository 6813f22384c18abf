"""More elementwise math: maximum/minimum, sin/cos/erf, remainder and fmod, and the
piecewise-constant functions (sign, floor, ceil, round, trunc). Floor
division ``//`` has no derivative in PyTorch either: the Tensor computes it
without a graph.

Binary ops sum their gradients back to each input's shape with
:func:`~minigrad.ops.broadcast.unbroadcast`. Each backward is written once and also
serves ``create_graph`` (see ``ops/elementwise.py``). Piecewise-constant functions have
gradient 0 almost everywhere; PyTorch returns 0 there too (not None), so a
graph through ``floor`` still reaches its leaves, with zeros.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from ..function import Function
from .broadcast import unbroadcast
from .elementwise import _check_broadcast


class _Pairwise(Function):
    """out = max(a, b) (or min) elementwise (broadcasting); ties split the gradient in half,
    as PyTorch."""

    differentiable_backward = True
    promote = "binary"

    _pick = staticmethod(np.maximum)
    _wins = staticmethod(np.greater)  # where a alone gets the gradient

    @classmethod
    def forward(cls, ctx, a, b):
        if a.shape != b.shape:
            _check_broadcast(cls.__name__.lower(), a, b)
        ctx.save_for_backward(a, b)
        ctx.wins = cls._wins
        return cls._pick(a, b)

    @staticmethod
    def backward(ctx, grad):
        # d max(a,b)/da = 1 where a wins, 1/2 where a == b, else 0 (b: the rest)
        a, b = ctx.saved_tensors
        an, bn = ctx.xp.constant(a), ctx.xp.constant(b)  # which one wins: constant nearby
        wa = (ctx.wins(an, bn) + 0.5 * (an == bn)).astype(grad.dtype)
        return unbroadcast(grad * wa, a.shape), unbroadcast(grad * (1 - wa), b.shape)


class Maximum(_Pairwise):
    """out = max(a, b) elementwise; ties split the gradient in half."""

    _pick = staticmethod(np.maximum)
    _wins = staticmethod(np.greater)


class Minimum(_Pairwise):
    """out = min(a, b) elementwise; ties split the gradient in half."""

    _pick = staticmethod(np.minimum)
    _wins = staticmethod(np.less)


class Sin(Function):
    """out = sin(a)."""

    differentiable_backward = True
    promote = "float"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.sin(a)

    @staticmethod
    def backward(ctx, grad):
        # d sin(a)/da = cos(a)
        (a,) = ctx.saved_tensors
        return grad * ctx.xp.cos(a)


class Cos(Function):
    """out = cos(a)."""

    differentiable_backward = True
    promote = "float"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.cos(a)

    @staticmethod
    def backward(ctx, grad):
        # d cos(a)/da = -sin(a)
        (a,) = ctx.saved_tensors
        return -grad * ctx.xp.sin(a)


class Erf(Function):
    """out = erf(a) = 2/sqrt(pi) * integral_0^a e^(-t^2) dt."""

    differentiable_backward = True
    promote = "float"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return special.erf(a).astype(a.dtype, copy=False)

    @staticmethod
    def backward(ctx, grad):
        # d erf(a)/da = 2/sqrt(pi) * e^(-a^2)
        (a,) = ctx.saved_tensors
        return grad * (ctx.xp.exp(-a * a) * (2.0 / np.sqrt(np.pi)))


class Remainder(Function):
    """out = a - floor(a / b) * b (``mode="floor"``: Python's and PyTorch's ``%`` and
    ``remainder``, the sign of b) or a - trunc(a / b) * b (``mode="trunc"``: C's and
    PyTorch's ``fmod``, the sign of a). Integers stay integers; dividing them by zero raises."""

    differentiable_backward = True
    promote = "binary"

    @staticmethod
    def forward(ctx, a, b, mode="floor"):
        name = "remainder" if mode == "floor" else "fmod"
        if a.shape != b.shape:
            _check_broadcast(name, a, b)
        _check_integer_divisor(b, name)
        ctx.save_for_backward(a, b)
        ctx.mode = mode
        with np.errstate(divide="ignore", invalid="ignore"):  # float x % 0 is NaN, as PyTorch
            return np.asarray(np.remainder(a, b) if mode == "floor" else np.fmod(a, b))

    @staticmethod
    def backward(ctx, grad):
        # d(a % b)/da = 1, d(a % b)/db = -floor(a / b) (fmod: -trunc(a / b))
        a, b = ctx.saved_tensors
        gb = None
        if ctx.needs_input_grad[1]:
            an, bn = ctx.xp.constant(a), ctx.xp.constant(b)  # the quotient is piecewise constant
            with np.errstate(divide="ignore", invalid="ignore"):
                q = np.floor_divide(an, bn) if ctx.mode == "floor" else np.trunc(an / bn)
            gb = unbroadcast(-grad * q, b.shape)
        return unbroadcast(grad, a.shape), gb


def _check_integer_divisor(b: np.ndarray, name: str) -> None:
    """Integer division by zero has no answer (NumPy silently gives 0): raise, as PyTorch."""
    if b.dtype.kind in "iub" and not b.all():
        raise RuntimeError(f"ZeroDivisionError: {name} of {b.dtype} integers by zero")


class RoundedDiv(Function):
    """out = floor(a / b) (``//``, ``div(rounding_mode="floor")``) or trunc(a / b)
    (``rounding_mode="trunc"``). Integers are divided in integers (exact for all of int64,
    which a float32 or float64 quotient is not); dividing them by zero raises.

    The gradient is 0 (the result is piecewise constant), as PyTorch's
    ``div(rounding_mode=...)``."""

    promote = "binary"
    differentiable_backward = True

    @staticmethod
    def forward(ctx, a, b, mode="floor"):
        if a.shape != b.shape:
            _check_broadcast("div", a, b)
        ctx.shapes = (a.shape, b.shape)
        if a.dtype.kind == "f":
            with np.errstate(divide="ignore", invalid="ignore"):
                return np.floor_divide(a, b) if mode == "floor" else np.trunc(a / b)
        _check_integer_divisor(b, f"div(rounding_mode={mode!r})")
        q = np.floor_divide(a, b)
        if mode == "trunc":  # floor rounds a negative inexact quotient down: one step back
            q = q + ((q < 0) & (q * b != a))
        return q

    @staticmethod
    def backward(ctx, grad):
        # d floor(a / b) = 0 almost everywhere, for both inputs
        sa, sb = ctx.shapes
        zero = ctx.xp.zeros_like(grad)
        return unbroadcast(zero, sa), unbroadcast(zero, sb)


_STEP_FUNCTIONS = {"sign": np.sign, "floor": np.floor, "ceil": np.ceil,
                   "round": np.round, "trunc": np.trunc}


class StepFunction(Function):
    """out = f(a) for a piecewise-constant f (sign, floor, ceil, round, trunc).

    ``round`` rounds half to even, as PyTorch and NumPy."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a, name):
        return _STEP_FUNCTIONS[name](a)

    @staticmethod
    def backward(ctx, grad):
        # d f(a)/da = 0 (f is constant between its jumps)
        return ctx.xp.zeros_like(grad)

"""Elementwise ops with NumPy broadcasting.

Binary ops sum their gradients back to each input's shape with
:func:`~minigrad.ops.broadcast.unbroadcast`. Each backward states its
derivative in one comment line, and is written once: in operations NumPy arrays
and Tensors spell alike (``ctx.xp`` for the rest), so the same code serves
``create_graph=True`` (``differentiable_backward``; see ``minigrad/function.py``).
Masks and other piecewise-constant factors are computed from ``ctx.xp.constant(x)``:
an array in both modes, a constant under ``create_graph`` (derivative 0).
"""

from __future__ import annotations

import numpy as np

from .. import backends
from ..function import Function, recompute_in_backward
from .broadcast import unbroadcast
from .self_gated import SelfGated


def _check_broadcast(name: str, a: np.ndarray, b: np.ndarray) -> None:
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise ValueError(
            f"{name}: shapes {a.shape} and {b.shape} cannot be broadcast together"
        ) from None


class Add(Function):
    """out = a + b (broadcasting)."""

    differentiable_backward = True

    promote = "binary"

    @staticmethod
    def forward(ctx, a, b):
        if a.shape != b.shape:
            _check_broadcast("add", a, b)
        ctx.shapes = (a.shape, b.shape)
        return a + b

    @staticmethod
    def backward(ctx, grad):
        # d(a+b)/da = 1, d(a+b)/db = 1
        sa, sb = ctx.shapes
        return unbroadcast(grad, sa), unbroadcast(grad, sb)


class Sub(Function):
    """out = a - b (broadcasting)."""

    differentiable_backward = True

    promote = "binary"

    @staticmethod
    def forward(ctx, a, b):
        if a.shape != b.shape:
            _check_broadcast("sub", a, b)
        ctx.shapes = (a.shape, b.shape)
        return a - b

    @staticmethod
    def backward(ctx, grad):
        # d(a-b)/da = 1, d(a-b)/db = -1
        sa, sb = ctx.shapes
        return unbroadcast(grad, sa), unbroadcast(-grad, sb)


class Mul(Function):
    """out = a * b (broadcasting)."""

    differentiable_backward = True

    promote = "binary"

    @staticmethod
    def forward(ctx, a, b):
        if a.shape != b.shape:
            _check_broadcast("mul", a, b)
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad):
        # d(a*b)/da = b, d(a*b)/db = a
        a, b = ctx.saved_tensors
        ga = unbroadcast(grad * b, a.shape) if ctx.needs_input_grad[0] else None
        gb = unbroadcast(grad * a, b.shape) if ctx.needs_input_grad[1] else None
        return ga, gb


class Div(Function):
    """out = a / b (broadcasting)."""

    differentiable_backward = True

    promote = "divide"

    @staticmethod
    def forward(ctx, a, b):
        if a.shape != b.shape:
            _check_broadcast("div", a, b)
        ctx.save_for_backward(a, b)
        return a / b

    @staticmethod
    def backward(ctx, grad):
        # d(a/b)/da = 1/b, d(a/b)/db = -a/b**2
        a, b = ctx.saved_tensors
        ga = unbroadcast(grad / b, a.shape) if ctx.needs_input_grad[0] else None
        gb = unbroadcast(-grad * a / (b * b), b.shape) if ctx.needs_input_grad[1] else None
        return ga, gb


class PowScalar(Function):
    """out = a ** p for a Python-number exponent p."""

    differentiable_backward = True
    promote = "binary"
    promote_options = ("exponent",)  # int tensor ** 0.5 is computed in float32

    @staticmethod
    def forward(ctx, a, exponent):
        ctx.save_for_backward(a)
        ctx.exponent = exponent
        return a ** np.asarray(exponent, dtype=a.dtype)

    @staticmethod
    def backward(ctx, grad):
        # d(a**p)/da = p * a**(p-1), and 0 for p == 0 (PyTorch's rule: no 0 * inf = nan at a = 0)
        (a,) = ctx.saved_tensors
        p = ctx.exponent
        if p == 0:
            return ctx.xp.zeros_like(grad)
        p = a.dtype.type(p)  # p and p - 1 in a's dtype: float32 stays float32
        with np.errstate(divide="ignore", invalid="ignore"):
            return grad * p * a ** (p - 1)


def _int_pow_negative(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a ** b in integers with some b < 0, as PyTorch: 1 ** b = 1, (-1) ** b = +-1 by
    parity, any other base 0 (1 / a**|b| truncated); NumPy refuses negative powers."""
    neg = b < 0
    out = a ** np.where(neg, 0, b)
    parity = np.where(b % 2 == 0, 1, -1)
    inverse = np.where(a == 1, 1, np.where(a == -1, parity, 0))
    return np.where(neg, inverse, out).astype(out.dtype)


class Pow(Function):
    """out = a ** b for a tensor exponent b (broadcasting)."""

    differentiable_backward = True

    promote = "binary"

    @staticmethod
    def forward(ctx, a, b):
        if a.shape != b.shape:
            _check_broadcast("pow", a, b)
        if a.dtype.kind in "iu" and b.dtype.kind in "iu" and (b < 0).any():
            out = _int_pow_negative(a, b)
        else:
            out = a**b
        ctx.save_for_backward(a, b, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        # d(a**b)/da = b * a**(b-1) (0 at a == b == 0), d(a**b)/db = a**b * log(a) (0 where a == 0, b >= 0)
        a, b, out = ctx.saved_tensors
        xp = ctx.xp
        an, bn = xp.constant(a), xp.constant(b)
        ga = gb = None
        with np.errstate(divide="ignore", invalid="ignore"):
            if ctx.needs_input_grad[0]:
                # masked only where b * a**(b-1) is 0 * inf: elsewhere it is 0 at b == 0 anyway,
                # and masking there too would hide its derivative in b (a**(b-1))
                d = xp.where((bn == 0) & (an == 0), 0.0, b * a ** (b - 1))
                ga = unbroadcast(grad * d, a.shape)
            if ctx.needs_input_grad[1]:
                d = xp.where((an == 0) & (bn >= 0), 0.0, out * xp.log(a))
                gb = unbroadcast(grad * d, b.shape)
        return ga, gb


class Neg(Function):
    """out = -a."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a):
        return -a

    @staticmethod
    def backward(ctx, grad):
        # d(-a)/da = -1
        return -grad


class ReLU(Function):
    """out = max(a, 0)."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a):
        out = backends.active.relu(a) if a.dtype.kind == "f" else np.maximum(a, 0)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        # d(max(a,0))/da = 1 where a > 0, else 0
        (out,) = ctx.saved_tensors
        # selected, not multiplied: an infinite gradient at a zeroed input gives 0, as PyTorch's;
        # out != 0 also passes it at a NaN input, as PyTorch's mask (out <= 0 gets 0). On
        # arrays that is the backend's one pass; under create_graph the same selection recorded
        if isinstance(grad, np.ndarray) and isinstance(out, np.ndarray) \
                and grad.dtype == out.dtype:
            return backends.active.relu_backward(grad, out)
        return ctx.xp.masked(grad, ctx.xp.constant(out) != 0)


def gelu_and_slope(a: np.ndarray, approximate: str, want_slope: bool) -> tuple:
    """(GELU(a), dGELU/da or None): the one home of GELU's math, for :class:`GELU` and the
    fused :class:`~minigrad.ops.gelu_linear.GELULinearFunction`.

    Exact: y = a Phi(a), dy/da = Phi(a) + a phi(a). ``approximate='tanh'``: with u =
    sqrt(2/pi) (a + 0.044715 a^3) and t = tanh(u), y = 0.5 a (1 + t), dy/da = 0.5 (1 + t) +
    0.5 a (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 a^2). Both are the backend's ``gelu``
    primitive, value and slope in one pass.
    """
    if approximate not in ("none", "tanh"):
        raise ValueError(f"gelu: approximate must be 'none' or 'tanh', got {approximate!r}")
    return backends.active.gelu(a, want_grad=want_slope, approximate=approximate)


class GELU(Function):
    """GELU(a) = a * Phi(a), Phi the standard normal CDF (PyTorch's nn.GELU);
    ``approximate='tanh'`` uses 0.5 a (1 + tanh(sqrt(2/pi) (a + 0.044715 a**3))).

    Forward and slope are :func:`gelu_and_slope`. When a gradient will be needed, the
    forward pass also computes dy/da and saves it, so the backward pass is one multiply;
    unless dy/da is large (``function.recompute_in_backward``): then it keeps nothing but
    ``a``, which the graph holds anyway (the op's input), and the backward computes dy/da
    from it again.
    """

    promote = "float"

    @staticmethod
    def forward(ctx, a, approximate="none"):
        ctx.approximate = approximate
        # ctx.needs_input_grad is empty when nothing is recorded (no_grad, or no input needs grad)
        ctx.recompute = bool(ctx.needs_input_grad) and recompute_in_backward(a.nbytes)
        y, slope = gelu_and_slope(a, approximate,
                                  want_slope=bool(ctx.needs_input_grad) and not ctx.recompute)
        ctx.save_for_backward(a if ctx.recompute else slope)
        return y

    @staticmethod
    def backward(ctx, grad):
        # dGELU/da: saved by forward, or computed from a now (see gelu_and_slope)
        (saved,) = ctx.saved_tensors
        slope = gelu_and_slope(saved, ctx.approximate, True)[1] if ctx.recompute else saved
        return backends.active.gelu_backward(grad, slope)

    @staticmethod
    def composite(ctx, a):
        # GELU as an op whose backward is written in Tensor operations, differentiated under
        # create_graph: one slope times the gradient, never a Phi(a) as a product (whose
        # paths would be 0 * inf = NaN for an infinite gradient)
        return SelfGated.apply(a, name="gelu_tanh" if ctx.approximate == "tanh" else "gelu")


class Abs(Function):
    """out = |a|."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.abs(a)

    @staticmethod
    def backward(ctx, grad):
        # d|a|/da = sign(a) (0 at 0)
        (a,) = ctx.saved_tensors
        return grad * np.sign(ctx.xp.constant(a))


class Clamp(Function):
    """out = clip(a, lo, hi)."""

    differentiable_backward = True
    promote = "binary"
    promote_options = ("lo", "hi")  # int tensor clamped to 0.5 is float32, as PyTorch

    @staticmethod
    def forward(ctx, a, lo=None, hi=None):
        ctx.save_for_backward(a)
        ctx.bounds = (lo, hi)
        return np.clip(a, lo, hi).astype(a.dtype, copy=False)  # array bounds: a's dtype wins

    @staticmethod
    def backward(ctx, grad):
        # d clip(a)/da = 1 on [lo, hi], 0 outside: at a bound itself PyTorch's clamp passes
        # the gradient (its mask is a >= lo and a <= hi), so the two agree on that kink
        (a,) = ctx.saved_tensors
        inside = _inside(ctx.xp.constant(a), *ctx.bounds)
        return ctx.xp.masked(grad, inside)  # selected: 0 * inf would be NaN


def _inside(a: np.ndarray, lo, hi) -> np.ndarray:
    """True where lo <= a <= hi (a missing bound does not limit): PyTorch's mask for clamp."""
    keep = np.ones(a.shape, dtype=bool)
    if lo is not None:
        keep &= a >= lo
    if hi is not None:
        keep &= a <= hi
    return keep

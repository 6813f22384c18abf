"""Reductions over axes: sum, mean, max, min, var, prod, logsumexp, cumsum, norm.

Each backward first puts back the reduced axes (size 1) so the incoming
gradient broadcasts against the input again. Each is written once and also
serves ``create_graph`` (see ``ops/elementwise.py``): a saved output is the
op's output Tensor there, so its derivative is kept.
"""

from __future__ import annotations

import numpy as np

from .. import backends
from ..function import Function
from .dims import normalize_axes


def _keep(grad: np.ndarray, shape: tuple, axes: tuple, keepdims: bool) -> np.ndarray:
    """Reshape a reduced gradient (or result) so it broadcasts against ``shape``."""
    if keepdims or not axes:
        return grad
    kept = [1 if i in axes else s for i, s in enumerate(shape)]
    return grad.reshape(kept)


def _count(shape: tuple, axes: tuple) -> int:
    """N, the number of elements a reduction over ``axes`` takes together (1 for no axes)."""
    return int(np.prod([shape[i] for i in axes])) if axes else 1


def _reduced_axes(ctx, a: np.ndarray, axis, keepdims: bool) -> tuple:
    """``axis`` as a tuple of non-negative axes of ``a``, and ``ctx.info`` = (a's shape,
    those axes, keepdims): what every backward needs to put the reduced axes back."""
    axes = normalize_axes(axis, a.ndim)
    ctx.info = (a.shape, axes, keepdims)
    return axes


def _spread(xp, grad, info: tuple):
    """The gradient of a reduction broadcast back over the reduced axes, to the input's
    shape (``info`` as :func:`_reduced_axes` records it)."""
    shape, axes, keepdims = info
    return xp.broadcast_to(_keep(grad, shape, axes, keepdims), shape)


def _save_kept(ctx, a: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Return the kept-dims result ``out`` as the caller asked (reduced axes kept or
    dropped, ``ctx.info`` as :func:`_reduced_axes` recorded it), and save ``a`` and that
    returned array (the op's output) for backward."""
    _, axes, keepdims = ctx.info
    if not keepdims:
        out = out.reshape([s for i, s in enumerate(a.shape) if i not in axes])
    ctx.save_for_backward(a, out)
    return out


class Sum(Function):
    """out = sum of a over ``axis`` (all axes when None), keepdims as NumPy."""

    differentiable_backward = True
    promote = "sum"

    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False):
        return backends.active.reduce_sum(a, _reduced_axes(ctx, a, axis, keepdims), keepdims)

    @staticmethod
    def backward(ctx, grad):
        # d(sum a)/da_i = 1: broadcast the gradient back over the summed axes
        return _spread(ctx.xp, grad, ctx.info)


class Mean(Function):
    """out = sum(a) / N over ``axis``, N the number of elements averaged."""

    differentiable_backward = True
    promote = "float_only"

    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False):
        axes = _reduced_axes(ctx, a, axis, keepdims)
        n = _count(a.shape, axes)
        with np.errstate(invalid="ignore", divide="ignore"):  # mean of nothing: nan, as PyTorch
            return np.asarray(backends.active.reduce_sum(a, axes, keepdims) / a.dtype.type(n),
                              dtype=a.dtype)

    @staticmethod
    def backward(ctx, grad):
        # d(mean a)/da_i = 1/N, N the number of elements averaged
        shape, axes, _ = ctx.info
        return _spread(ctx.xp, grad / grad.dtype.type(max(_count(shape, axes), 1)), ctx.info)


class _Extremum(Function):
    """out = max (or min) of a over ``axis``; ties share the gradient equally.

    Computed directly (not as ``-max(-a)``), so unsigned and bool tensors work."""

    differentiable_backward = True

    _reduce = staticmethod(np.max)

    @classmethod
    def forward(cls, ctx, a, axis=None, keepdims=False):
        axes = _reduced_axes(ctx, a, axis, keepdims)
        if a.size == 0:
            raise ValueError(f"{cls.__name__.lower()}() of an empty tensor of shape {a.shape}")
        return _save_kept(ctx, a, np.asarray(cls._reduce(a, axis=axes, keepdims=True)))

    @staticmethod
    def backward(ctx, grad):
        # d(max a)/da_i = 1 at the maximum (shared equally among ties), else 0
        a, out = ctx.saved_tensors
        shape, axes, keepdims = ctx.info
        hit = ctx.xp.constant(a) == _keep(ctx.xp.constant(out), shape, axes, keepdims)  # constant nearby
        count = hit.sum(axis=axes, keepdims=True)
        return _keep(grad, shape, axes, keepdims) * hit / count.astype(grad.dtype)


class Max(_Extremum):
    """out = max of a over ``axis``; ties share the gradient equally."""

    _reduce = staticmethod(np.max)


class Min(_Extremum):
    """out = min of a over ``axis``; ties share the gradient equally."""

    _reduce = staticmethod(np.min)


class Var(Function):
    """out = sum((a - mean)**2) / (N - correction) over ``axis``."""

    differentiable_backward = True
    promote = "float_only"

    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False, correction=1):
        axes = normalize_axes(axis, a.ndim)
        n = _count(a.shape, axes)
        reduce_sum = backends.active.reduce_sum
        with np.errstate(invalid="ignore", divide="ignore"):
            centered = a - reduce_sum(a, axes, True) / a.dtype.type(n)
        ctx.save_for_backward(a)  # backward recomputes a - mean: a function of a
        # PyTorch's forward divides by max(0, N - correction) (too few elements: nan or inf,
        # not an error) and its backward by N - correction itself: both kept, to match it exactly
        ctx.info = (a.shape, axes, keepdims, n - correction)
        with np.errstate(divide="ignore", invalid="ignore"):
            squares = reduce_sum(centered * centered, axes, keepdims)
            out = squares / a.dtype.type(max(0, n - correction))
        return np.asarray(out, dtype=a.dtype)

    @staticmethod
    def backward(ctx, grad):
        # d(var a)/da_i = 2 (a_i - mean) / (N - correction)
        (a,) = ctx.saved_tensors
        shape, axes, keepdims, denom = ctx.info
        centered = a - a.mean(axis=axes, keepdims=True)  # recomputed: a function of a
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = grad.dtype.type(2.0) / grad.dtype.type(denom)
            return _keep(grad, shape, axes, keepdims) * centered * scale


def _move_last(xp, a: np.ndarray, axes: tuple) -> np.ndarray:
    """``a`` with ``axes`` moved last and merged into one: (..., N)."""
    rest = [i for i in range(a.ndim) if i not in axes]
    moved = xp.permute_dims(a, rest + list(axes))
    return moved.reshape(moved.shape[: len(rest)] + (_count(a.shape, axes),))


def _move_back(xp, m: np.ndarray, shape: tuple, axes: tuple) -> np.ndarray:
    """Inverse of :func:`_move_last` for an array of the full (..., N) size."""
    rest = [i for i in range(len(shape)) if i not in axes]
    order = rest + list(axes)
    m = m.reshape([shape[i] for i in order])
    return xp.permute_dims(m, np.argsort(order))


class Prod(Function):
    """out = product of a over ``axis``."""

    differentiable_backward = True
    promote = "sum"

    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False):
        axes = _reduced_axes(ctx, a, axis, keepdims)
        ctx.save_for_backward(a)
        return np.asarray(np.prod(a, axis=axes, keepdims=keepdims), dtype=a.dtype)

    @staticmethod
    def backward(ctx, grad):
        # d(prod a)/da_i = product of the other elements (prefix * suffix products: exact with zeros)
        (a,) = ctx.saved_tensors
        shape, axes, keepdims = ctx.info
        if 0 in shape:  # an empty input has an empty gradient (the product of none is 1)
            return _keep(grad, shape, axes, keepdims) * np.zeros(shape, a.dtype)
        xp = ctx.xp
        m = _move_last(xp, a, axes)
        ones = np.ones(m.shape[:-1] + (1,), a.dtype)
        left = xp.cumprod(xp.concatenate([ones, m[..., :-1]], axis=-1), axis=-1)
        right = xp.flip(xp.cumprod(xp.concatenate([ones, xp.flip(m[..., 1:], -1)], axis=-1),
                                   axis=-1), -1)
        others = _move_back(xp, left * right, shape, axes)
        return _keep(grad, shape, axes, keepdims) * others


class LogSumExp(Function):
    """out = log(sum(exp(a))) over ``axis``, computed as m + log(sum(exp(a - m))), m the max."""

    differentiable_backward = True
    promote = "float"

    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False):
        axes = _reduced_axes(ctx, a, axis, keepdims)
        m = np.max(a, axis=axes, keepdims=True) if a.size else np.zeros([1] * a.ndim, a.dtype)
        m = np.where(np.isfinite(m), m, 0)  # rows of -inf stay -inf, no inf - inf = nan
        with np.errstate(divide="ignore"):
            out = m + np.log(np.exp(a - m).sum(axis=axes, keepdims=True))
        return _save_kept(ctx, a, out.astype(a.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        # d(logsumexp a)/da_i = exp(a_i - logsumexp a) = softmax(a)_i
        a, out = ctx.saved_tensors
        shape, axes, keepdims = ctx.info
        return _keep(grad, shape, axes, keepdims) * ctx.xp.exp(a - _keep(out, shape, axes, keepdims))


class CumSum(Function):
    """out_i = a_0 + ... + a_i along ``axis``."""

    differentiable_backward = True
    promote = "sum"

    @staticmethod
    def forward(ctx, a, axis):
        ctx.axis = axis
        return np.cumsum(a, axis=axis, dtype=a.dtype)

    @staticmethod
    def backward(ctx, grad):
        # d(out_j)/d(a_i) = 1 for j >= i: the gradient is the reversed cumulative sum
        xp = ctx.xp
        return xp.flip(xp.cumsum(xp.flip(grad, ctx.axis), ctx.axis), ctx.axis)


class Norm2(Function):
    """out = sqrt(sum(a**2)) over ``axis`` (the Euclidean norm)."""

    differentiable_backward = True
    promote = "float_only"

    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False):
        axes = _reduced_axes(ctx, a, axis, keepdims)
        return _save_kept(ctx, a, np.sqrt(backends.active.reduce_sum(a * a, axes, True)))

    @staticmethod
    def backward(ctx, grad):
        # d||a||/da_i = a_i / ||a||, and 0 where ||a|| = 0 (PyTorch's subgradient)
        a, out = ctx.saved_tensors
        shape, axes, keepdims = ctx.info
        norm = _keep(out, shape, axes, keepdims)
        zero = ctx.xp.constant(norm) == 0
        # a / 1 where the norm is 0 (a is 0 there): no 0/0 in this or the next derivative
        safe = ctx.xp.where(zero, 1.0, norm) if zero.any() else norm
        return _keep(grad, shape, axes, keepdims) * (a / safe)

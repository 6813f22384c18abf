"""Reductions over axes: sum, mean, max, min, var, prod, logsumexp, cumsum, norm.

Each backward first puts back the reduced axes (size 1) so the incoming
gradient broadcasts against the input again.
"""

from __future__ import annotations

import numpy as np

from .. import backends
from ..function import Function
from .shape_ops import cat, stack


def normalize_axes(axis, ndim: int) -> tuple:
    """``axis`` (None, int or tuple, negatives allowed) as a sorted tuple of axes."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    if ndim == 0:  # PyTorch lets dim 0 and -1 name the one "axis" of a 0-d tensor
        bad = [ax for ax in axes if ax not in (0, -1)]
        if bad:
            raise IndexError(f"axis {bad[0]} is out of range for a 0-d tensor (use 0, -1 or None)")
        return ()
    out = []
    for ax in axes:
        if not -max(ndim, 1) <= ax < max(ndim, 1):
            raise IndexError(f"axis {ax} is out of range for a tensor with {ndim} dimensions")
        out.append(int(ax) % max(ndim, 1))
    return tuple(sorted(set(out)))


def _keep(grad: np.ndarray, shape: tuple, axes: tuple, keepdims: bool) -> np.ndarray:
    """Reshape a reduced gradient so it broadcasts against ``shape``."""
    if keepdims or not axes:
        return grad
    kept = [1 if i in axes else s for i, s in enumerate(shape)]
    return grad.reshape(kept)


def _save_kept(ctx, a: np.ndarray, out: np.ndarray, axes: tuple, keepdims: bool) -> np.ndarray:
    """Save ``a`` and the kept-dims result ``out`` for backward; return ``out`` as the caller
    asked (reduced axes kept or dropped)."""
    ctx.save_for_backward(a, out)
    ctx.info = (a.shape, axes, keepdims)
    return out if keepdims else out.reshape([s for i, s in enumerate(a.shape) if i not in axes])


class Sum(Function):
    """out = sum of a over ``axis`` (all axes when None), keepdims as NumPy."""

    promote = "sum"

    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False):
        axes = normalize_axes(axis, a.ndim)
        ctx.info = (a.shape, axes, keepdims)
        return backends.active.reduce_sum(a, axes, keepdims)

    @staticmethod
    def backward(ctx, grad):
        # d(sum a)/da_i = 1: broadcast the gradient back over the summed axes
        shape, axes, keepdims = ctx.info
        return np.broadcast_to(_keep(grad, shape, axes, keepdims), shape)

    @staticmethod
    def backward_graph(ctx, grad):
        shape, axes, keepdims = ctx.info
        return _keep(grad, shape, axes, keepdims).expand(shape)


class Mean(Function):
    """out = sum(a) / N over ``axis``, N the number of elements averaged."""

    promote = "float_only"

    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False):
        axes = normalize_axes(axis, a.ndim)
        ctx.info = (a.shape, axes, keepdims)
        n = int(np.prod([a.shape[i] for i in axes])) if axes else 1
        with np.errstate(invalid="ignore", divide="ignore"):  # mean of nothing: nan, as PyTorch
            return np.asarray(backends.active.reduce_sum(a, axes, keepdims) / a.dtype.type(n),
                              dtype=a.dtype)

    @staticmethod
    def backward(ctx, grad):
        # d(mean a)/da_i = 1/N, N the number of elements averaged
        shape, axes, keepdims = ctx.info
        n = int(np.prod([shape[i] for i in axes])) if axes else 1
        g = _keep(grad, shape, axes, keepdims) / grad.dtype.type(max(n, 1))
        return np.broadcast_to(g, shape)

    @staticmethod
    def backward_graph(ctx, grad):
        shape, axes, keepdims = ctx.info
        n = int(np.prod([shape[i] for i in axes])) if axes else 1
        return (_keep(grad, shape, axes, keepdims) / max(n, 1)).expand(shape)


class _Extremum(Function):
    """out = max (or min) of a over ``axis``; ties share the gradient equally.

    Computed directly (not as ``-max(-a)``), so unsigned and bool tensors work."""

    _reduce = staticmethod(np.max)

    @classmethod
    def forward(cls, ctx, a, axis=None, keepdims=False):
        axes = normalize_axes(axis, a.ndim)
        if a.size == 0:
            raise ValueError(f"{cls.__name__.lower()}() of an empty tensor of shape {a.shape}")
        return _save_kept(ctx, a, np.asarray(cls._reduce(a, axis=axes, keepdims=True)), axes,
                          keepdims)

    @staticmethod
    def backward(ctx, grad):
        # d(max a)/da_i = 1 at the maximum (shared equally among ties), else 0
        a, out = ctx.saved_tensors
        shape, axes, keepdims = ctx.info
        hit = a == out
        count = hit.sum(axis=axes, keepdims=True)
        return _keep(grad, shape, axes, keepdims) * hit / count.astype(grad.dtype)

    @staticmethod
    def backward_graph(ctx, grad):
        a, out = ctx.saved_tensors  # only arrays: which elements won is constant nearby
        shape, axes, keepdims = ctx.info
        hit = a == out
        share = (hit / hit.sum(axis=axes, keepdims=True)).astype(grad.dtype)
        return _keep(grad, shape, axes, keepdims) * share


class Max(_Extremum):
    """out = max of a over ``axis``; ties share the gradient equally."""

    _reduce = staticmethod(np.max)


class Min(_Extremum):
    """out = min of a over ``axis``; ties share the gradient equally."""

    _reduce = staticmethod(np.min)


class Var(Function):
    """out = sum((a - mean)**2) / (N - correction) over ``axis``."""

    promote = "float_only"

    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False, correction=1):
        axes = normalize_axes(axis, a.ndim)
        n = int(np.prod([a.shape[i] for i in axes])) if axes else 1
        reduce_sum = backends.active.reduce_sum
        with np.errstate(invalid="ignore", divide="ignore"):
            centered = a - reduce_sum(a, axes, True) / a.dtype.type(n)
        ctx.save_for_backward(centered)
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
        (centered,) = ctx.saved_tensors
        shape, axes, keepdims, denom = ctx.info
        with np.errstate(divide="ignore", invalid="ignore"):
            scale = grad.dtype.type(2.0) / grad.dtype.type(denom)
            return _keep(grad, shape, axes, keepdims) * centered * scale

    @staticmethod
    def backward_graph(ctx, grad):
        a = ctx.parents[0]
        shape, axes, keepdims, denom = ctx.info
        centered = a - a.mean(axis=axes, keepdims=True)
        with np.errstate(divide="ignore"):
            scale = 2.0 / np.float64(denom)
        return _keep(grad, shape, axes, keepdims) * centered * scale


def _move_last(a: np.ndarray, axes: tuple) -> np.ndarray:
    """``a`` with ``axes`` moved last and merged into one: (..., N)."""
    rest = [i for i in range(a.ndim) if i not in axes]
    moved = np.transpose(a, rest + list(axes))
    return moved.reshape(moved.shape[: len(rest)] + (-1,))


def _move_back(m: np.ndarray, shape: tuple, axes: tuple) -> np.ndarray:
    """Inverse of :func:`_move_last` for an array of the full (..., N) size."""
    rest = [i for i in range(len(shape)) if i not in axes]
    order = rest + list(axes)
    m = m.reshape([shape[i] for i in order])
    return np.transpose(m, np.argsort(order))


class Prod(Function):
    """out = product of a over ``axis``."""

    promote = "sum"

    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False):
        axes = normalize_axes(axis, a.ndim)
        ctx.save_for_backward(a)
        ctx.info = (a.shape, axes, keepdims)
        return np.asarray(np.prod(a, axis=axes, keepdims=keepdims), dtype=a.dtype)

    @staticmethod
    def backward(ctx, grad):
        # d(prod a)/da_i = product of the other elements (prefix * suffix products: exact with zeros)
        (a,) = ctx.saved_tensors
        shape, axes, keepdims = ctx.info
        m = _move_last(a, axes)
        ones = np.ones(m.shape[:-1] + (1,), m.dtype)
        left = np.cumprod(np.concatenate([ones, m[..., :-1]], axis=-1), axis=-1)
        right = np.cumprod(np.concatenate([ones, m[..., :0:-1]], axis=-1), axis=-1)[..., ::-1]
        others = _move_back(left * right, shape, axes)
        return _keep(grad, shape, axes, keepdims) * others

    @staticmethod
    def backward_graph(ctx, grad):
        # the product of the other elements, one Prod per position (exact with zeros)
        a = ctx.parents[0]
        shape, axes, keepdims = ctx.info
        if a.ndim == 0:  # the product of one number is that number
            return grad * 1.0
        rest = [i for i in range(len(shape)) if i not in axes]
        moved = a.permute(*(rest + list(axes)))
        m = moved.reshape(moved.shape[: len(rest)] + (-1,))
        n = m.shape[-1]
        others = stack([cat([m[..., :i], m[..., i + 1:]], axis=-1).prod(-1) for i in range(n)], axis=-1)
        back = others.reshape(moved.shape).permute(*np.argsort(rest + list(axes)).tolist())
        return _keep(grad, shape, axes, keepdims) * back


class LogSumExp(Function):
    """out = log(sum(exp(a))) over ``axis``, computed as m + log(sum(exp(a - m))), m the max."""

    promote = "float"

    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False):
        axes = normalize_axes(axis, a.ndim)
        m = np.max(a, axis=axes, keepdims=True) if a.size else np.zeros([1] * a.ndim, a.dtype)
        m = np.where(np.isfinite(m), m, 0)  # rows of -inf stay -inf, no inf - inf = nan
        with np.errstate(divide="ignore"):
            out = m + np.log(np.exp(a - m).sum(axis=axes, keepdims=True))
        return _save_kept(ctx, a, out.astype(a.dtype, copy=False), axes, keepdims)

    @staticmethod
    def backward(ctx, grad):
        # d(logsumexp a)/da_i = exp(a_i - logsumexp a) = softmax(a)_i
        a, out = ctx.saved_tensors
        shape, axes, keepdims = ctx.info
        return _keep(grad, shape, axes, keepdims) * np.exp(a - out)

    @staticmethod
    def backward_graph(ctx, grad):
        a = ctx.parents[0]
        shape, axes, keepdims = ctx.info
        out = LogSumExp.apply(a, axis=axes, keepdims=True)
        return _keep(grad, shape, axes, keepdims) * (a - out).exp()


class CumSum(Function):
    """out_i = a_0 + ... + a_i along ``axis``."""

    promote = "sum"

    @staticmethod
    def forward(ctx, a, axis):
        ctx.axis = axis
        return np.cumsum(a, axis=axis, dtype=a.dtype)

    @staticmethod
    def backward(ctx, grad):
        # d(out_j)/d(a_i) = 1 for j >= i: the gradient is the reversed cumulative sum
        flip = np.flip(grad, ctx.axis)
        return np.flip(np.cumsum(flip, axis=ctx.axis), ctx.axis)

    @staticmethod
    def backward_graph(ctx, grad):
        return grad.flip(ctx.axis).cumsum(ctx.axis).flip(ctx.axis)


class Norm2(Function):
    """out = sqrt(sum(a**2)) over ``axis`` (the Euclidean norm)."""

    promote = "float_only"

    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False):
        axes = normalize_axes(axis, a.ndim)
        return _save_kept(ctx, a, np.sqrt(backends.active.reduce_sum(a * a, axes, True)), axes,
                          keepdims)

    @staticmethod
    def backward(ctx, grad):
        # d||a||/da_i = a_i / ||a||, and 0 where ||a|| = 0 (PyTorch's subgradient)
        a, out = ctx.saved_tensors
        shape, axes, keepdims = ctx.info
        with np.errstate(divide="ignore", invalid="ignore"):
            g = np.where(out == 0, 0, a / out)
        return _keep(grad, shape, axes, keepdims) * g

    @staticmethod
    def backward_graph(ctx, grad):
        a = ctx.parents[0]
        shape, axes, keepdims = ctx.info
        out = Norm2.apply(a, axis=axes, keepdims=True)
        zero = out.data == 0
        # a / 1 where the norm is 0 (a is 0 there): no 0/0 in this or the next derivative
        safe = out.masked_fill(zero, 1.0) if zero.any() else out
        return _keep(grad, shape, axes, keepdims) * (a / safe)

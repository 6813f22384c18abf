"""Reductions over axes: sum, mean, max, var.

Each backward first puts back the reduced axes (size 1) so the incoming
gradient broadcasts against the input again.
"""

from __future__ import annotations

import numpy as np

from ..function import Function


def normalize_axes(axis, ndim: int) -> tuple:
    """``axis`` (None, int or tuple, negatives allowed) as a sorted tuple of axes."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
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


class Sum(Function):
    """out = sum of a over ``axis`` (all axes when None), keepdims as NumPy."""

    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False):
        axes = normalize_axes(axis, a.ndim)
        ctx.info = (a.shape, axes, keepdims)
        return np.asarray(a.sum(axis=axes, keepdims=keepdims))

    @staticmethod
    def backward(ctx, grad):
        # d(sum a)/da_i = 1: broadcast the gradient back over the summed axes
        shape, axes, keepdims = ctx.info
        return np.broadcast_to(_keep(grad, shape, axes, keepdims), shape)


class Mean(Function):
    """out = sum(a) / N over ``axis``, N the number of elements averaged."""

    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False):
        axes = normalize_axes(axis, a.ndim)
        ctx.info = (a.shape, axes, keepdims)
        return np.asarray(a.mean(axis=axes, keepdims=keepdims), dtype=a.dtype)

    @staticmethod
    def backward(ctx, grad):
        # d(mean a)/da_i = 1/N, N the number of elements averaged
        shape, axes, keepdims = ctx.info
        n = int(np.prod([shape[i] for i in axes])) if axes else 1
        g = _keep(grad, shape, axes, keepdims) / grad.dtype.type(max(n, 1))
        return np.broadcast_to(g, shape)


class Max(Function):
    """out = max of a over ``axis``; ties share the gradient equally."""

    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False):
        axes = normalize_axes(axis, a.ndim)
        if a.size == 0:
            raise ValueError("max() of an empty tensor")
        out = np.asarray(a.max(axis=axes, keepdims=True))
        ctx.save_for_backward(a, out)
        ctx.info = (a.shape, axes, keepdims)
        return out if keepdims else out.reshape([s for i, s in enumerate(a.shape) if i not in axes])

    @staticmethod
    def backward(ctx, grad):
        # d(max a)/da_i = 1 at the maximum (shared equally among ties), else 0
        a, out = ctx.saved_tensors
        shape, axes, keepdims = ctx.info
        hit = a == out
        count = hit.sum(axis=axes, keepdims=True)
        return _keep(grad, shape, axes, keepdims) * hit / count.astype(grad.dtype)


class Var(Function):
    """out = sum((a - mean)**2) / (N - correction) over ``axis``."""

    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False, correction=1):
        axes = normalize_axes(axis, a.ndim)
        n = int(np.prod([a.shape[i] for i in axes])) if axes else 1
        centered = a - a.mean(axis=axes, keepdims=True)
        ctx.save_for_backward(centered)
        ctx.info = (a.shape, axes, keepdims, n - correction)
        with np.errstate(divide="ignore", invalid="ignore"):
            squares = (centered * centered).sum(axis=axes, keepdims=keepdims)
            out = squares / a.dtype.type(n - correction)
        return np.asarray(out, dtype=a.dtype)

    @staticmethod
    def backward(ctx, grad):
        # d(var a)/da_i = 2 (a_i - mean) / (N - correction)
        (centered,) = ctx.saved_tensors
        shape, axes, keepdims, denom = ctx.info
        return _keep(grad, shape, axes, keepdims) * centered * grad.dtype.type(2.0 / denom)

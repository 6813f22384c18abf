"""Softmax and log-softmax along any axis.

The backend primitives work on the last axis; another axis is moved last and back.
Their backward is the backend's tuned primitive; under ``create_graph`` the engine
differentiates each op's ``composite`` instead.
"""

from __future__ import annotations

import numpy as np

from .. import backends
from ..function import Function
from .dims import check_dim


def _shift(x) -> np.ndarray:
    """The row max as a constant (0 for rows without a finite entry): softmax(x) =
    softmax(x - c) for any constant c, so it changes values, never derivatives."""
    m = np.max(x.data, axis=-1, keepdims=True, initial=-np.inf)
    return np.where(np.isfinite(m), m, 0).astype(x.dtype)


class _LastAxis(Function):
    """An op over the last axis computed by a backend primitive (``_primitive``, a method
    name of the backend) and differentiated by its twin (``_primitive + "_backward"``), which
    reads the output: the output is what is kept."""

    _primitive = "softmax"

    @classmethod
    def forward(cls, ctx, x):
        y = getattr(backends.active, cls._primitive)(x)
        ctx.save_for_backward(y)
        ctx.primitive = cls._primitive
        return y

    @staticmethod
    def backward(ctx, grad):
        # the backend's derivative (see each subclass)
        (y,) = ctx.saved_tensors
        return getattr(backends.active, ctx.primitive + "_backward")(y, grad)


class Softmax(_LastAxis):
    """y = exp(x - max) / sum(exp(x - max)) over the last axis; dx = y * (g - sum(g * y))."""

    _primitive = "softmax"

    @staticmethod
    def composite(ctx, x):
        # exp(x - c) / sum(exp(x - c)) in small ops; a row with nothing finite gives 0
        e = (x - _shift(x)).exp()
        s = e.sum(axis=-1, keepdims=True)
        return e / s.masked_fill(s.data == 0, 1.0)


class LogSoftmax(_LastAxis):
    """y = x - max - log(sum(exp(x - max))) over the last axis; dx = g - softmax(x) * sum(g)."""

    _primitive = "log_softmax"

    @staticmethod
    def composite(ctx, x):
        # x - c - log(sum(exp(x - c))) in small ops
        z = x - _shift(x)
        return z - z.exp().sum(axis=-1, keepdims=True).log()


def _along(fn, x, axis: int):
    if x.dtype.kind != "f":
        raise TypeError(f"{fn.__name__.lower()}: needs a floating-point tensor, got {x.dtype}")
    ax = check_dim(axis, x.ndim, fn.__name__.lower())
    if x.ndim == 0:
        return fn.apply(x.reshape(1)).reshape(())
    if ax == x.ndim - 1:
        return fn.apply(x)
    return fn.apply(x.transpose(ax, -1)).transpose(ax, -1)


def softmax(x, axis: int = -1):
    """exp(x_i - max) / sum_j exp(x_j - max) along ``axis``; all -inf rows give 0."""
    return _along(Softmax, x, axis)


def log_softmax(x, axis: int = -1):
    """x - logsumexp(x) along ``axis``."""
    return _along(LogSoftmax, x, axis)

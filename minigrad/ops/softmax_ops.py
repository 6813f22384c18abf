"""Softmax and log-softmax along any axis.

The backend primitives work on the last axis; another axis is moved last and back.
"""

from __future__ import annotations

from .. import backends
from ..function import Function


class Softmax(Function):
    """y = exp(x - max) / sum(exp(x - max)) over the last axis."""

    @staticmethod
    def forward(ctx, x):
        y = backends.active.softmax(x)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad):
        # dx = y * (g - sum(g * y))
        (y,) = ctx.saved_tensors
        return backends.active.softmax_backward(y, grad)

    @staticmethod
    def backward_graph(ctx, grad):
        y = Softmax.apply(ctx.parents[0])
        return y * (grad - (grad * y).sum(axis=-1, keepdims=True))


class LogSoftmax(Function):
    """y = x - max - log(sum(exp(x - max))) over the last axis."""

    @staticmethod
    def forward(ctx, x):
        out = backends.active.log_softmax(x)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        # dx = g - softmax(x) * sum(g)
        (out,) = ctx.saved_tensors
        return backends.active.log_softmax_backward(out, grad)

    @staticmethod
    def backward_graph(ctx, grad):
        p = Softmax.apply(ctx.parents[0])
        return grad - p * grad.sum(axis=-1, keepdims=True)


def _along(fn, x, axis: int):
    if x.dtype.kind != "f":
        raise TypeError(f"{fn.__name__.lower()}: needs a floating-point tensor, got {x.dtype}")
    if x.ndim == 0:
        return fn.apply(x.reshape(1)).reshape(())
    ax = axis % x.ndim
    if ax == x.ndim - 1:
        return fn.apply(x)
    return fn.apply(x.transpose(ax, -1)).transpose(ax, -1)


def softmax(x, axis: int = -1):
    """exp(x_i - max) / sum_j exp(x_j - max) along ``axis``; all -inf rows give 0."""
    return _along(Softmax, x, axis)


def log_softmax(x, axis: int = -1):
    """x - logsumexp(x) along ``axis``."""
    return _along(LogSoftmax, x, axis)

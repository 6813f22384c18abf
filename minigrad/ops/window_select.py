"""One element of every window, as an autograd op: max pooling's gather and its adjoint.

Max pooling finds each window's maximum once (the backend's ``window_max``: the value and
its kernel offset) and keeps the offsets; the output is then the gather ``WindowSelect``:
y[..., o] = x[..., o s + k r], k = arg[..., o], whose gradient sends each output's gradient
back to the one element it read (``WindowSelectBackward``, a scatter-add: overlapping
windows that chose the same element add up). The two are linear and each other's adjoint,
so each is the other's backward, to every order of derivative, as ``Windows`` and
``WindowSum`` are.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import backends
from ..function import Function


def window_select(x: Any, arg: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple,
                  values: np.ndarray | None = None) -> Any:
    """x (array or Tensor) at kernel offset ``arg`` of every window (see WindowSelect);
    ``values``: that gather already computed (by ``window_max``), used as the output."""
    if isinstance(x, np.ndarray):
        return backends.active.window_select(x, arg, kernel, stride, dilation)
    return WindowSelect.apply(x, arg=arg, kernel=kernel, stride=stride, dilation=dilation,
                              values=values)


def window_select_backward(g: Any, arg: np.ndarray, shape: tuple, kernel: tuple,
                           stride: tuple, dilation: tuple) -> Any:
    """The scatter-add of g (array or Tensor) into zeros of ``shape`` at the windows'
    offsets ``arg`` (see WindowSelectBackward)."""
    if isinstance(g, np.ndarray):
        return backends.active.window_select_backward(g, arg, shape, kernel, stride, dilation)
    return WindowSelectBackward.apply(g, arg=arg, shape=shape, kernel=kernel, stride=stride,
                                      dilation=dilation)


class WindowSelect(Function):
    """y[..., o] = x[..., o * stride + k * dilation], k = arg[..., o] (flat kernel offset)."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, x, arg, kernel, stride, dilation, values=None):
        ctx.geometry = (arg, x.shape, kernel, stride, dilation)
        if values is not None:
            return values
        return backends.active.window_select(x, arg, kernel, stride, dilation)

    @staticmethod
    def backward(ctx, grad):
        # each output read one element: its gradient goes back there (a scatter-add)
        return window_select_backward(grad, *ctx.geometry)


class WindowSelectBackward(Function):
    """dx = zeros(shape), dx[..., o * stride + k * dilation] += g[..., o], k = arg[..., o]."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, g, arg, shape, kernel, stride, dilation):
        ctx.geometry = (arg, kernel, stride, dilation)
        return backends.active.window_select_backward(g, arg, shape, kernel, stride, dilation)

    @staticmethod
    def backward(ctx, grad):
        # d dx[p] / d g[o] = 1 where p is o's chosen element: the gather again
        return window_select(grad, *ctx.geometry)

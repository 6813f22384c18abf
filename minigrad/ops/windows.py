"""The sliding-window view and its adjoint: the one primitive of convolution and pooling.

``Windows`` turns x (..., *S) into its windows (..., *O, *kernel) (im2col before the
reshape; the backend's ``windows``, a strided view, no copy). Convolution contracts the
windows with the weight, pooling reduces them over the kernel axes, so their gradients
come by composition through this one op. Its gradient is ``WindowSum`` (col2im): each
window hands its gradient back to the elements it read, and an element read by several
overlapping windows collects the sum. The two are linear and each other's adjoint, so
each is the other's backward, to every order of derivative.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import backends
from ..function import Function


def windows(x: Any, kernel: tuple, stride: tuple, dilation: tuple) -> Any:
    """The windows of x (array or Tensor) over its last len(kernel) axes (see Windows)."""
    if isinstance(x, np.ndarray):
        return backends.active.windows(x, kernel, stride, dilation)
    return Windows.apply(x, kernel=kernel, stride=stride, dilation=dilation)


def window_sum(g: Any, shape: tuple, stride: tuple, dilation: tuple) -> Any:
    """col2im of g (..., *O, *kernel) (array or Tensor) into ``shape`` (see WindowSum)."""
    if isinstance(g, np.ndarray):
        return backends.active.windows_backward(g, shape, stride, dilation)
    return WindowSum.apply(g, shape=shape, stride=stride, dilation=dilation)


class Windows(Function):
    """w[..., o, k] = x[..., o * stride + k * dilation] for x (..., *S) -> (..., *O, *kernel)."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, x, kernel, stride, dilation):
        ctx.geometry = (x.shape, stride, dilation)
        return backends.active.windows(x, kernel, stride, dilation)

    @staticmethod
    def backward(ctx, grad):
        # dx[o * stride + k * dilation] += g[o, k]: col2im, the scatter-add of the windows
        shape, stride, dilation = ctx.geometry
        return window_sum(grad, shape, stride, dilation)


class WindowSum(Function):
    """col2im: out = zeros(shape) with out[..., o * stride + k * dilation] += g[..., o, k]."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, g, shape, stride, dilation):
        d = len(stride)
        ctx.geometry = (g.shape[-2 * d:-d], g.shape[-d:], stride, dilation)
        return backends.active.windows_backward(g, shape, stride, dilation)

    @staticmethod
    def backward(ctx, grad):
        # d out/d g[o, k] reads out's gradient at o * stride + k * dilation: the windows
        out, kernel, stride, dilation = ctx.geometry
        w = windows(grad, kernel, stride, dilation)
        if w.shape[-2 * len(out):-len(out)] != out:
            # ``shape`` reaches past the last window (a transposed convolution's
            # output_padding): only the windows g had
            w = w[(Ellipsis, *(slice(0, o) for o in out), *(slice(None),) * len(out))]
        return w

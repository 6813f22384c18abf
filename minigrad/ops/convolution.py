"""Convolution (zero padding, windows, the product with the weight, the bias) as one op.

out[n, o, p] = bias[o] + sum_{c in o's group, k} weight[o, c, k] x_pad[n, c, p s + k r],
x_pad x with ``pads`` zeros on each side of its last d dims, s the stride, r the dilation.

Forward: x is copied once into a zero-padded array, its windows are a strided view
(the backend's ``windows``), and the columns (im2col) are copied out in the product's
layout: (N, G, C/G * prod(kernel), prod(out)), one product per sample and group
(``per_sample``), or (G, C/G * prod(kernel), N * prod(out)), the batch joined into one
product per group (few output positions a sample: the per-sample products would be too
small for BLAS to run at speed). Backward from the saved columns:

    d weight = g @ cols^T,   d bias = sum of g,   d x = col2im(weight^T @ g), unpadded

each computed only when its input needs it. ``nn.functional.conv1d/2d/3d`` (``nn/conv.py``)
builds this op and gives it the same function written in small differentiable ops (the
option ``form``), which is its composite: ``create_graph`` differentiates that.
"""

from __future__ import annotations

import math

import numpy as np

from .. import backends
from ..function import Function


def _padded(x: np.ndarray, pads: tuple) -> np.ndarray:
    """x with ``pads`` ((low, high) per last dim) zeros around its last dims (x itself if none)."""
    if not any(lo or hi for lo, hi in pads):
        return x
    lead = x.ndim - len(pads)
    xp = np.zeros(x.shape[:lead] + tuple(n + lo + hi for n, (lo, hi)
                                         in zip(x.shape[lead:], pads)), dtype=x.dtype)
    xp[_inner(xp.shape, pads)] = x
    return xp


def _inner(shape: tuple, pads: tuple) -> tuple:
    """The index of the unpadded part of a padded array of ``shape``."""
    lead = len(shape) - len(pads)
    return (slice(None),) * lead + tuple(slice(lo, n - hi) for n, (lo, hi)
                                         in zip(shape[lead:], pads))


class ConvFunction(Function):
    """conv of x (N, C, *S) with weight (O, C/G, *kernel) and an optional bias (O,), all of
    one float dtype -> (N, O, *out); options ``pads``, ``stride``, ``dilation``, ``groups``,
    ``per_sample`` (the product layout, see the module docstring) and ``form`` (the same
    function in small ops: ``form(x, weight, bias or None)``, the composite)."""

    @staticmethod
    def forward(ctx, x, weight, *bias, pads, stride, dilation, groups, per_sample, form):
        be = backends.active
        d = len(stride)
        kernel = weight.shape[2:]
        xp = _padded(x, pads)
        cols = be.windows(xp, kernel, stride, dilation)  # (N, C, *out, *kernel), a view
        n, c, o, g = x.shape[0], x.shape[1], weight.shape[0], groups
        out = cols.shape[2:2 + d]
        positions, k = math.prod(out), (c // g) * math.prod(kernel)
        cols = cols.reshape(n, g, c // g, *out, *kernel)
        w = weight.reshape(g, o // g, k)
        outs, kernels = tuple(range(3, 3 + d)), tuple(range(3 + d, 3 + 2 * d))
        if per_sample:
            cm = np.ascontiguousarray(cols.transpose(0, 1, 2, *kernels, *outs)).reshape(
                n, g, k, positions)
            y = be.matmul(w, cm).reshape(n, o, positions)
            if bias:
                y += bias[0][:, None]
        else:
            cm = np.ascontiguousarray(cols.transpose(1, 2, *kernels, 0, *outs)).reshape(
                g, k, n * positions)
            yt = be.matmul(w, cm).reshape(o, n, positions).transpose(1, 0, 2)
            # the bias is added in the pass that lays y out as (N, O, P), C-contiguous (an
            # add alone would keep the transposed layout, and every later op read it so)
            y = np.empty((n, o, positions), dtype=yt.dtype)
            if bias:
                np.add(yt, bias[0][:, None], out=y)
            else:
                np.copyto(y, yt)
        ctx.geometry = (x.shape, xp.shape, pads, stride, dilation, groups, per_sample, out)
        ctx.form = form
        ctx.save_for_backward(cm, weight)
        return y.reshape(n, o, *out)

    @staticmethod
    def backward(ctx, grad):
        shape, padded, pads, stride, dilation, g, per_sample, out = ctx.geometry
        cm, weight = ctx.saved_tensors
        need_x, need_w = ctx.needs_input_grad[:2]
        be = backends.active
        d = len(stride)
        n, c, o = shape[0], shape[1], weight.shape[0]
        kernel = weight.shape[2:]
        positions = math.prod(out)
        g3 = grad.reshape(n, g, o // g, positions)
        if not per_sample:
            g3 = np.ascontiguousarray(g3.transpose(1, 2, 0, 3)).reshape(g, o // g, n * positions)
        dw = db = dx = None
        if need_w:
            dw = be.matmul(g3, np.swapaxes(cm, -1, -2))
            dw = (be.reduce_sum(dw, 0) if per_sample else dw).reshape(weight.shape)
        if len(ctx.needs_input_grad) > 2 and ctx.needs_input_grad[2]:
            # along g3's contiguous last axis when the batch is joined there (a fast sum)
            db = be.reduce_sum(grad.reshape(n, o, positions), (0, 2)) if per_sample else \
                be.reduce_sum(g3, -1).reshape(o)
        if need_x:
            w = weight.reshape(g, o // g, -1)
            dcols = be.matmul(np.swapaxes(w, -1, -2), g3)
            kernels = tuple(range(3, 3 + d))
            if per_sample:  # (N, G, C/G, *kernel, *out)
                dcols = dcols.reshape(n, g, c // g, *kernel, *out).transpose(
                    0, 1, 2, *range(3 + d, 3 + 2 * d), *kernels)
            else:  # (G, C/G, *kernel, N, *out)
                dcols = dcols.reshape(g, c // g, *kernel, n, *out).transpose(
                    2 + d, 0, 1, *range(3 + d, 3 + 2 * d), *range(2, 2 + d))
            dxp = be.windows_backward(dcols.reshape(n, c, *out, *kernel), padded, stride,
                                      dilation)
            dx = dxp[_inner(padded, pads)] if padded != shape else dxp
        return (dx, dw) + ((db,) if len(ctx.needs_input_grad) > 2 else ())

    @staticmethod
    def composite(ctx, x, weight, *bias):
        # the same convolution in small ops (pad, windows, matmul), built by nn's conv
        return ctx.form(x, weight, bias[0] if bias else None)

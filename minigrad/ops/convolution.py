"""Convolution (zero padding, windows, the product with the weight, the bias) as one op.

out[n, o, p] = bias[o] + sum_{c in o's group, k} weight[o, c, k] x_pad[n, c, p s + k r],
x_pad x with ``pads`` zeros on each side of its last d dims, s the stride, r the dilation.

Forward: the windows of the zero-padded x are copied out as the columns of a product
(im2col; the backend never builds the padded x), in one of two layouts:

- ``per_sample``: the backend's ``window_columns``, (N, G, C/G * prod(kernel), prod(out)),
  one product weight @ cols per sample and group (images with many positions);
- otherwise the backend's ``window_rows``,
  (N * prod(out), C * prod(kernel)): one row per window of the whole batch, one product
  cols @ weight^T per group (few positions a sample, an 8 x 8 image: per-sample products
  would be too small for BLAS to run at speed, and this long, thin matrix is the shape it
  runs fastest); its result, channels last, is laid out channels first with the bias
  added in one pass (``channels_first``), and the backward turns the output's gradient
  back, summing it for the bias in the same pass (``channels_last``).

Backward from the saved columns (g the output's gradient in the product's layout):

    d weight = g @ cols^T (or g^T @ cols),   d bias = sum of g,
    d x = col2im(weight^T @ g (or g @ weight)) (the backend's ``window_columns_backward``
          or ``window_rows_backward``: the padding's share dropped)

each computed only when its input needs it. ``nn.functional.conv1d/2d/3d`` (``nn/conv.py``)
builds this op and gives it the same function written in small differentiable ops (the
option ``form``), which is its composite: ``create_graph`` differentiates that.
"""

from __future__ import annotations

import math

import numpy as np

from .. import backends
from ..function import Function


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
        n, c, o, g = x.shape[0], x.shape[1], weight.shape[0], groups
        k = (c // g) * math.prod(kernel)
        w = weight.reshape(g, o // g, k)
        if per_sample:
            cm = be.window_columns(x, kernel, stride, dilation, pads)  # (N, C, *kernel, *out)
            out = cm.shape[2 + d:]
            positions = math.prod(out)
            cm = cm.reshape(n, g, k, positions)
            y = be.matmul(w, cm).reshape(n, o, positions)
            if bias:
                y += bias[0][:, None]
        else:
            rows = be.window_rows(x, kernel, stride, dilation, pads)  # (N, *out, C, *kernel)
            out = rows.shape[1:1 + d]
            positions = math.prod(out)
            cm = rows.reshape(n * positions, g, k).transpose(1, 0, 2)  # (G, N P, K)
            yt = be.matmul(cm, np.swapaxes(w, -1, -2))  # (G, N P, O/G)
            y = be.channels_first(yt.reshape(g, n, positions, o // g), bias[0] if bias else None)
        ctx.geometry = (x.shape, pads, stride, dilation, groups, per_sample, out)
        ctx.form = form
        ctx.save_for_backward(cm, weight)
        return y.reshape(n, o, *out)

    @staticmethod
    def backward(ctx, grad):
        shape, pads, stride, dilation, g, per_sample, out = ctx.geometry
        cm, weight = ctx.saved_tensors
        need_x, need_w = ctx.needs_input_grad[:2]
        need_b = len(ctx.needs_input_grad) > 2 and ctx.needs_input_grad[2]
        be = backends.active
        n, c, o = shape[0], shape[1], weight.shape[0]
        kernel = weight.shape[2:]
        positions = math.prod(out)
        w = weight.reshape(g, o // g, -1)
        dw = db = dx = None
        if per_sample:  # g3 (N, G, O/G, P)
            g3 = grad.reshape(n, g, o // g, positions)
            if need_w:
                dw = be.reduce_sum(be.matmul(g3, np.swapaxes(cm, -1, -2)), 0)
            if need_b:
                db = be.reduce_sum(grad.reshape(n, o, positions), (0, 2))
            if need_x:  # (N, G, C/G * prod(kernel), P) -> the columns' (N, C, *kernel, *out)
                dcols = be.matmul(np.swapaxes(w, -1, -2), g3).reshape(n, c, *kernel, *out)
                dx = be.window_columns_backward(dcols, shape, stride, dilation, pads)
        else:  # g3 (G, N P, O/G): the output's gradient with the columns' rows as rows
            g3, db = be.channels_last(grad.reshape(n, g, o // g, positions), need_b)
            g3 = g3.reshape(g, n * positions, o // g)
            if need_w:
                dw = be.matmul(np.swapaxes(g3, -1, -2), cm)
            if need_x:  # (G, N P, K) -> the rows' (N, *out, C, *kernel)
                dcols = be.matmul(g3, w).transpose(1, 0, 2).reshape(n, *out, c, *kernel)
                dx = be.window_rows_backward(dcols, shape, stride, dilation, pads)
        if need_w:
            dw = dw.reshape(weight.shape)
        if need_b:
            db = db.reshape(o)
        return (dx, dw) + ((db,) if len(ctx.needs_input_grad) > 2 else ())

    @staticmethod
    def composite(ctx, x, weight, *bias):
        # the same convolution in small ops (pad, windows, matmul), built by nn's conv
        return ctx.form(x, weight, bias[0] if bias else None)

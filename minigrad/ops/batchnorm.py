"""Batch normalisation in training as one autograd Function.

y = (x - mean) / sqrt(var + eps) * w + b per channel (axis 1) of x (N, C, *), the mean and
the biased variance over N and the trailing dims; the backend's ``batch_norm`` primitives
do the math (a fused kernel on the fast backend). As PyTorch's ``torch.batch_norm`` in
training, the op also moves the running statistics it is given, in place:
running <- (1 - momentum) running + momentum batch, with the unbiased batch variance.
"""

from __future__ import annotations

import numpy as np

from .. import backends
from ..function import Function


def _moved(running: np.ndarray, batch: np.ndarray, momentum: float) -> None:
    new = (1.0 - momentum) * running + momentum * batch.astype(running.dtype, copy=False)
    np.copyto(running, new, casting="unsafe")


class BatchNormFunction(Function):
    """Batch statistics normalisation of x (N, C, *) with w, b (C,) of x's dtype; options
    ``eps``, ``momentum`` and ``running_mean``, ``running_var`` (arrays (C,) moved in place,
    or None)."""

    @staticmethod
    def forward(ctx, x, w, b, eps, momentum=0.1, running_mean=None, running_var=None):
        n, c = x.shape[0], x.shape[1]
        y, mean, var = backends.active.batch_norm(x.reshape(n, c, -1), w, b, eps)
        count = x.size // c
        if running_mean is not None:
            _moved(running_mean, mean, momentum)
        if running_var is not None:
            _moved(running_var, var * (count / (count - 1)), momentum)
        ctx.save_for_backward(x, w, mean, 1.0 / np.sqrt(var + eps))
        ctx.eps = eps
        return y.reshape(x.shape)

    @staticmethod
    def backward(ctx, grad):
        # db = sum g, dw = sum g xhat, dx = w rstd (g - db / n - xhat dw / n)
        x, w, mean, rstd = ctx.saved_tensors
        n, c = x.shape[0], x.shape[1]
        dx, dw, db = backends.active.batch_norm_backward(
            grad.reshape(n, c, -1), x.reshape(n, c, -1), w, mean, rstd)
        return dx.reshape(x.shape), dw, db

    @staticmethod
    def composite(ctx, x, w, b):
        # the same normalisation in small ops, differentiated under create_graph
        dims = (0,) + tuple(range(2, x.ndim))
        per_channel = (1, x.shape[1]) + (1,) * (x.ndim - 2)
        centered = x - x.mean(dims, keepdim=True)
        var = (centered * centered).mean(dims, keepdim=True)
        return centered * (var + ctx.eps).rsqrt() * w.reshape(per_channel) + \
            b.reshape(per_channel)

"""Binary cross-entropy on probabilities, as one Function so its gradient follows PyTorch's
formula exactly, including at p = 0 and p = 1 where the chain rule through ``log`` would
give 0 * inf = nan."""

from __future__ import annotations

import numpy as np

from ..function import Function
from .broadcast import unbroadcast

_EPS = float(np.float32(1e-12))


class BinaryCrossEntropy(Function):
    """out = -(t max(log p, -100) + (1 - t) max(log(1 - p), -100)) elementwise (PyTorch clamps
    each log at -100 so that p = 0 or 1 gives a finite loss)."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, p, t):
        ctx.save_for_backward(p, t)
        with np.errstate(divide="ignore"):
            log_p = np.maximum(np.log(p), -100)
            log_q = np.maximum(np.log1p(-p), -100)
        return -(t * log_p + (1 - t) * log_q)

    @staticmethod
    def backward(ctx, grad):
        # d/dp = (p - t) / max(p (1 - p), eps), d/dt = log(1 - p) - log(p) (unclamped): PyTorch's,
        # whose eps is 1e-12 rounded to float32 (9.99999996e-13), so p = 0 or 1 gives its numbers
        p, t = ctx.saved_tensors
        xp = ctx.xp
        gp = gt = None
        if ctx.needs_input_grad[0]:
            gp = unbroadcast(grad * (p - t) / xp.clip(p * (1 - p), _EPS, None), p.shape)
        if ctx.needs_input_grad[1]:
            with np.errstate(divide="ignore", invalid="ignore"):
                gt = unbroadcast(grad * (xp.log1p(-p) - xp.log(p)), t.shape)
        return gp, gt

"""Scaled dot-product attention as one autograd Function, in one head layout.

The layout is the kernels': q (B, Tq, H, hs), k (B, Tk, H, hs), v (B, Tk, H, hv),
out (B, Tq, H, hv), i.e. the (B, T, C) projections with C reshaped to (H, hs), so
a packed q|k|v projection (B, T, 3C) reaches it by zero-copy views. For each of
the B * H heads:

    S = q @ k^T * scale + mask          (Tq, Tk) scores, scale = 1/sqrt(hs) by default
    S[j > i + Tk - Tq] = -inf           with ``causal``: the queries are the last Tq of
                                        the Tk positions (as with a key/value cache)
    P = softmax(S) over the keys        a row whose keys are all -inf gives P = 0
    out = (P * drop) @ v                (Tq, hv)

Backward, with G = dL/dout:
    dv = (P * drop)^T G,  dP = (G v^T) * drop,  dS = P * (dP - rowsum(dP * P)),
    dq = dS k * scale,   dk = dS^T q * scale,   dmask = dS summed to the mask's shape
Both are the backend's ``attention`` / ``attention_backward`` primitives (a few
lines of NumPy in backends/reference.py); the fast backend decides inside its
``attention`` whether its fused float32 kernels apply.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import backends
from ..backends.interface import causal_mask
from ..function import Function, recompute_in_backward
from .broadcast import unbroadcast


def additive_mask(blocked: np.ndarray, dtype: Any) -> np.ndarray:
    """A boolean mask (True = may not attend) as the additive mask the Function takes:
    -inf where blocked, 0 elsewhere, in the scores' dtype (same shape)."""
    return np.where(blocked, -np.inf, 0.0).astype(dtype)


class AttentionFunction(Function):
    """out = dropout(softmax(q k^T * scale + mask, causal)) @ v, head by head.

    Inputs q (B, Tq, H, hs), k (B, Tk, H, hs), v (B, Tk, H, hv), one float dtype
    -> (B, Tq, H, hv). ``mask``: a float array added to the scores, broadcastable to
    (B, H, Tq, Tk) (-inf blocks a key), or None; given as the option ``mask=`` it is a
    constant, given as a fourth input (a Tensor of q's dtype that requires grad) it gets
    its gradient dS, summed over the axes it was broadcast along, as q, k, v get theirs.
    Options (checked by the caller, owned by the op): ``causal`` (query i sees key j
    only if j <= i + Tk - Tq); ``scale``; ``drop`` the scaled dropout mask of P
    (B, H, Tq, Tk) or None; ``sink`` a list that receives P (B, H, Tq, Tk), for inspection.
    """

    @staticmethod
    def forward(ctx, q, k, v, mask=None, causal=False, scale=1.0, drop=None, sink=None):
        # a large P (B, H, Tq, Tk) is kept only for a caller that inspects it (sink): a backend
        # that can recompute it in the backward then does (the fast one's fused route)
        p_bytes = q.shape[0] * q.shape[2] * q.shape[1] * k.shape[1] * q.itemsize
        keep_p = sink is not None or not recompute_in_backward(p_bytes)
        out, p, saved = backends.active.attention(q, k, v, mask, causal, scale, drop, keep_p)
        ctx.info = (mask, causal, scale, drop)
        ctx.like = (q, k, v)  # their layout, so slices of one packed q|k|v get one packed gradient
        ctx.save_for_backward(*saved)  # what the backend's backward reads
        if sink is not None:
            sink.append(p)
        return out

    @staticmethod
    def backward(ctx, grad):
        # dv = Pd^T G; dP = (G v^T) drop; dS = P (dP - rowsum(dP P)); dq = dS k scale;
        # dk = dS^T q scale; dmask = dS (one gradient per input: 3, or 4 with a mask input)
        mask, causal, scale, drop = ctx.info
        grads = backends.active.attention_backward(grad, ctx.saved_tensors, scale, drop,
                                                   ctx.needs_input_grad, causal,
                                                   like=ctx.like)
        if len(grads) == 4 and grads[3] is not None:
            grads = (*grads[:3], unbroadcast(grads[3], mask.shape))
        return grads

    @staticmethod
    def composite(ctx, q, k, v, mask=None):
        """The same forward in ordinary ops, per head (B, H, T, d): what create_graph
        differentiates for the second derivative (a mask input too: ``s + mask``)."""
        constant, causal, scale, drop = ctx.info
        mask = constant if mask is None else mask
        qh, kh, vh = (a.permute(0, 2, 1, 3) for a in (q, k, v))
        s = (qh @ kh.transpose(-2, -1)) * scale
        if mask is not None:
            s = s + mask
        if causal:
            s = s.masked_fill(causal_mask(q.shape[1], k.shape[1]), -np.inf)
        p = s.softmax(-1)
        return ((p if drop is None else p * drop) @ vh).permute(0, 2, 1, 3)

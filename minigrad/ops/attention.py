"""Scaled dot-product attention as one autograd Function, and the head layout.

For queries q (..., Tq, hs), keys k (..., Tk, hs) and values v (..., Tk, hv):

    S = q @ k^T * scale                 (Tq, Tk) scores, scale = 1/sqrt(hs)
    S[mask] = -inf                      True in the mask = "may not attend"
    P = softmax(S) over the keys        a row with every key masked gives P = 0
    out = P @ v                         (Tq, hv)

Backward, with G = dL/dout:
    dv = P^T @ G,  dP = G @ v^T,  dS = P * (dP - rowsum(dP * P)) * scale,
    dq = dS @ k,   dk = dS^T @ q
Both are the backend's ``attention`` / ``attention_backward`` primitives (a few
lines of NumPy in backends/reference.py); the fast backend decides when its
fused float32 kernels apply.

Heads: C channels are split into H heads of hs = C / H channels by
:func:`split_heads` ((B, T, C) -> (B, H, T, hs)) and joined back by
:func:`merge_heads`; every head split in minigrad goes through these two.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import backends
from ..backends.interface import causal_mask
from ..function import Function, composite_backward


def split_heads(x: Any, num_heads: int) -> Any:
    """(B, T, C) -> (B, H, T, C/H), for a Tensor or an ndarray (a view where possible)."""
    B, T, C = x.shape
    heads = x.reshape(B, T, num_heads, C // num_heads)
    return heads.permute(0, 2, 1, 3) if hasattr(heads, "permute") else heads.transpose(0, 2, 1, 3)


def merge_heads(x: Any) -> Any:
    """(B, H, T, hs) -> (B, T, H * hs), for a Tensor or an ndarray (the inverse of split_heads)."""
    B, H, T, hs = x.shape
    swapped = x.permute(0, 2, 1, 3) if hasattr(x, "permute") else x.transpose(0, 2, 1, 3)
    return swapped.reshape(B, T, H * hs)


def _split_packed(qkv: np.ndarray, num_heads: int) -> tuple:
    """q, k, v of packed projections (B, T, 3C) as contiguous (B, H, T, hs) arrays (one copy)."""
    q, k, v = np.split(qkv, 3, axis=-1)
    return tuple(np.ascontiguousarray(split_heads(a, num_heads)) for a in (q, k, v))


class AttentionFunction(Function):
    """out = dropout(softmax(mask(q k^T * scale))) @ v.

    Inputs: q (..., Tq, hs), k (..., Tk, hs), v (..., Tk, hv) -> (..., Tq, hv).
    Or, for multi-head self-attention, one input: the packed projections qkv
    (B, T, 3C), queries, keys and values side by side as
    :class:`~minigrad.ops.linear.PackedLinearFunction` makes them, with option
    ``num_heads`` H -> (B, T, C), heads already merged (the fast backend then
    reads the heads straight out of qkv when its fused kernels apply).

    Options: ``mask`` (bool, broadcastable to (..., Tq, Tk), owned by the op),
    ``causal``, ``scale``, ``drop`` (the scaled dropout mask of the weights, or
    None) and ``sink`` (a list that receives the post-softmax weights, for inspection).
    """

    @staticmethod
    def forward(ctx, *qkv, num_heads=None, mask=None, causal=False, scale=1.0, drop=None,
                sink=None):
        B = backends.active
        ctx.info = (scale, drop, num_heads)
        ctx.masks = (mask, causal)  # references only: for backward_graph
        ctx.fused_backward = None
        if num_heads is not None:
            fused = B.fused_packed_attention(qkv[0], num_heads, mask, causal, scale, drop)
            if fused is not None:
                out, p, ctx.fused_backward = fused
                if sink is not None:
                    sink.append(p)
                return out
            q, k, v = _split_packed(qkv[0], num_heads)
        else:
            q, k, v = qkv
            dt = q.dtype
            q, k, v = (np.ascontiguousarray(a, dtype=dt) for a in (q, k, v))
        out, p, pd = B.attention(q, k, v, mask, causal, scale, drop)
        if sink is not None:
            sink.append(p)
        ctx.save_for_backward(q, k, v, p, pd)
        return out if num_heads is None else np.ascontiguousarray(merge_heads(out))

    @staticmethod
    def backward(ctx, grad):
        # dv = Pd^T G; dP = (G v^T) * drop; dS = P (dP - rowsum(dP P)) scale; dq = dS k; dk = dS^T q
        if ctx.fused_backward is not None:
            return ctx.fused_backward(grad)
        scale, drop, num_heads = ctx.info
        q, k, v, p, pd = ctx.saved_tensors
        if num_heads is None:
            g = np.ascontiguousarray(grad, dtype=q.dtype)
            return backends.active.attention_backward(g, q, k, v, p, pd, scale, drop,
                                                      ctx.needs_input_grad)
        g = np.ascontiguousarray(split_heads(grad, num_heads), dtype=q.dtype)
        grads = backends.active.attention_backward(g, q, k, v, p, pd, scale, drop,
                                                   (True, True, True))
        C = grad.shape[-1]
        dqkv = np.empty(grad.shape[:-1] + (3 * C,), dtype=q.dtype)
        for i, d in enumerate(grads):  # dq | dk | dv side by side, as qkv was packed
            dqkv[..., i * C:(i + 1) * C] = merge_heads(d)
        return dqkv

    @staticmethod
    def backward_graph(ctx, grad):
        scale, drop, num_heads = ctx.info
        mask, causal = ctx.masks

        def composite(*qkv):
            if num_heads is None:
                q, k, v = qkv
            else:
                C = qkv[0].shape[-1] // 3
                q, k, v = (split_heads(qkv[0][..., i * C:(i + 1) * C], num_heads)
                           for i in range(3))
            s = (q @ k.transpose(-2, -1)) * scale
            if mask is not None:
                s = s.masked_fill(mask, -np.inf)
            if causal:
                s = s.masked_fill(causal_mask(q.shape[-2], k.shape[-2]),
                                  -np.inf)
            p = s.softmax(-1)
            out = (p if drop is None else p * drop) @ v
            return out if num_heads is None else merge_heads(out)

        return composite_backward(ctx, grad, composite)

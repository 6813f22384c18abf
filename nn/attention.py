"""Scaled dot-product attention and multi-head attention.

For queries q (..., Tq, hs), keys k (..., Tk, hs) and values v (..., Tk, hv):

    S = q @ k^T * scale                 (Tq, Tk) scores, scale = 1/sqrt(hs)
    S[mask] = -inf                      True in the mask = "may not attend"
    P = softmax(S) over the keys        a row with every key masked gives P = 0
    out = P @ v                         (Tq, hv)

Backward, with G = dL/dout:
    dv = P^T @ G,  dP = G @ v^T,  dS = P * (dP - rowsum(dP * P)) * scale,
    dq = dS @ k,   dk = dS^T @ q
The whole computation is one graph node (:class:`AttentionFunction`). In
float32 without a user mask or dropout (a GPT's training step) each pass is one
fused Numba kernel that does a head at a time, products and softmax together
(``minigrad/kernels/attention.py``); otherwise the products run on the BLAS
batched-matmul kernel and the softmax on the Numba row kernels, in place on the
(Tq, Tk) score buffer.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad import Function, Tensor, causal_mask
from minigrad.kernels import attention as KA
from minigrad.kernels import masked_softmax as KSM
from minigrad.kernels import matmul as KM

from .dropout import _check_p, dropout_mask
from .linear import Linear, linear_packed
from .module import Module


def _fusable(*arrays: np.ndarray) -> bool:
    """True if the fused float32 kernels (``kernels/attention.py``) take these operands."""
    return all(a.dtype == np.float32 for a in arrays)


def _packed_heads(qkv: np.ndarray, H: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """q, k, v of packed projections (B, T, 3C) as (B, T, H, hs) views."""
    B, T, C3 = qkv.shape
    heads = qkv.reshape(B, T, 3, H, C3 // (3 * H))
    return heads[:, :, 0], heads[:, :, 1], heads[:, :, 2]


def attend(q3, k3, v3, lead, mask, causal, scale, drop, sink):
    """The forward math on contiguous (L, T, dim) arrays, L = prod(lead) heads:
    returns (out (L, Tq, hv), P, Pd), Pd = P with dropout applied (P itself if none).
    float32 without a user mask or dropout runs fused, one kernel for every head."""
    t_q, t_k = q3.shape[1], k3.shape[1]
    if mask is None and drop is None and _fusable(q3, k3, v3):
        # (L, T, d) -> (L, T, 1, d) views: L batch entries of one head each. The head tiles
        # it returns are copies of q3, k3, v3, which the caller keeps already: dropped.
        out, p, _ = KA.fused_attention(q3[:, :, None], k3[:, :, None], v3[:, :, None], scale,
                                       causal)
        if sink is not None:
            sink.append(p.reshape(lead + (t_q, t_k)))
        return out.reshape(-1, t_q, v3.shape[2]), p, p
    s = KM.matmul(q3, np.swapaxes(k3, -1, -2))  # (L, Tq, Tk), a fresh array
    # scale, mask and softmax in place; rows with every key masked become 0
    p = KSM.masked_softmax(s.reshape(lead + (t_q, t_k)), scale, mask, causal).reshape(s.shape)
    if sink is not None:
        sink.append(p.reshape(lead + (t_q, t_k)))
    pd = p * drop.reshape(p.shape) if drop is not None else p
    return KM.matmul(pd, v3), p, pd


def attend_backward(g3, q3, k3, v3, p, pd, scale, drop, needs):
    """The backward math of :func:`attend` for G = g3 (L, Tq, hv): returns (dq, dk, dv),
    each None unless ``needs`` (three bools) asks for it. Without dropout, float32
    runs fused (a mask needs no care here: P is already 0 where it blocked)."""
    need_q, need_k, need_v = needs
    if drop is None and _fusable(g3, q3, k3, v3):
        grads = np.empty_like(q3), np.empty_like(k3), np.empty_like(v3)
        KA.fused_attention_backward(g3[:, :, None], (q3, k3, v3), p, scale,
                                    *(d[:, :, None] for d in grads))
        return tuple(g if need else None for g, need in zip(grads, needs))
    dv = KM.matmul(np.swapaxes(pd, -1, -2), g3) if need_v else None
    dq = dk = None
    if need_q or need_k:
        dp = KM.matmul(g3, np.swapaxes(v3, -1, -2))
        if drop is not None:
            dp *= drop.reshape(dp.shape)
        ds = KSM.masked_softmax_backward(p, dp, scale)  # in place: dP -> dS
        if need_q:
            dq = KM.matmul(ds, k3)
        if need_k:
            dk = KM.matmul(np.swapaxes(ds, -1, -2), q3)
    return dq, dk, dv


class AttentionFunction(Function):
    """out = dropout(softmax(mask(q k^T * scale))) @ v.

    Inputs: q (..., Tq, hs), k (..., Tk, hs), v (..., Tk, hv) -> (..., Tq, hv).
    Or, for multi-head self-attention, one input: the packed projections qkv
    (B, T, 3C), queries, keys and values side by side as
    :func:`nn.linear.linear_packed` makes them, with option ``num_heads`` H
    -> (B, T, C), heads already merged. The math is the same over the B * H
    heads. Packed and fused (float32, no user mask, no dropout), the kernels
    read each head straight out of qkv and write the (B, T, C) output and the
    (B, T, 3C) gradient directly. Packed otherwise, q, k and v reach the
    (B*H, T, hs) layout the batched matmuls want in one copy, the output
    leaves as (B, T, C) in one copy, and the backward writes dq, dk, dv into
    one (B, T, 3C) gradient.

    Options: ``mask`` (bool, broadcastable to (..., Tq, Tk)), ``causal``, ``scale``, ``drop``
    (the scaled dropout mask of the weights, or None) and ``sink`` (a list that
    receives the post-softmax weights, for inspection).
    """

    @staticmethod
    def forward(ctx, *qkv, num_heads=None, mask=None, causal=False, scale=1.0, drop=None,
                sink=None):
        if num_heads is not None:
            return AttentionFunction._forward_packed(ctx, qkv[0], num_heads, mask, causal, scale,
                                                     drop, sink)
        q, k, v = qkv
        dt = q.dtype
        lead, t_q, t_k = q.shape[:-2], q.shape[-2], k.shape[-2]
        # contiguous (L, T, dim) operands: what the batched BLAS kernel wants
        q3 = np.ascontiguousarray(q).reshape(-1, t_q, q.shape[-1])
        k3 = np.ascontiguousarray(k, dtype=dt).reshape(-1, t_k, k.shape[-1])
        v3 = np.ascontiguousarray(v, dtype=dt).reshape(-1, t_k, v.shape[-1])
        out, p, pd = attend(q3, k3, v3, lead, mask, causal, scale, drop, sink)
        ctx.save_for_backward(q3, k3, v3, p, pd)
        ctx.info = (scale, drop, (q.shape, k.shape, v.shape))
        ctx.packed_fused = False
        return out.reshape(lead + (t_q, v.shape[-1]))

    @staticmethod
    def _forward_packed(ctx, qkv, H, mask, causal, scale, drop, sink):
        B, T, C3 = qkv.shape
        hs = C3 // (3 * H)
        if mask is None and drop is None and _fusable(qkv):
            # the fused kernels read each head's q, k, v straight out of qkv: no copies
            out, p, tiles = KA.fused_attention(*_packed_heads(qkv, H), scale, causal)
            if sink is not None:
                sink.append(p.reshape(B, H, T, T))
            ctx.save_for_backward(p, *tiles)  # tiles: q, k, v as contiguous (B*H, T, hs)
            ctx.info = (scale, None, H)
            ctx.packed_fused = True  # saved: P and the head tiles, not q3, k3, v3
            return out.reshape(B, T, C3 // 3)
        # (B, T, 3, H, hs) -> (3, B, H, T, hs): one copy, then q, k, v are contiguous views
        heads = np.ascontiguousarray(qkv.reshape(B, T, 3, H, hs).transpose(2, 0, 3, 1, 4))
        q3, k3, v3 = (h.reshape(B * H, T, hs) for h in heads)
        out, p, pd = attend(q3, k3, v3, (B, H), mask, causal, scale, drop, sink)
        ctx.save_for_backward(q3, k3, v3, p, pd)
        ctx.info = (scale, drop, H)
        ctx.packed_fused = False
        # merge heads: (B, H, T, hs) -> (B, T, H, hs) = (B, T, C)
        out = out.reshape(B, H, T, hs).transpose(0, 2, 1, 3)
        return np.ascontiguousarray(out).reshape(B, T, H * hs)

    @staticmethod
    def backward(ctx, grad):
        # dv = Pd^T G; dP = (G v^T) * drop; dS = P (dP - rowsum(dP P)) scale; dq = dS k; dk = dS^T q
        scale, drop, shapes = ctx.info
        if ctx.packed_fused:  # write dq|dk|dv straight into the packed gradient
            p, *tiles = ctx.saved_tensors
            B, T, C = grad.shape
            H = shapes
            g4 = np.asarray(grad, dtype=np.float32).reshape(B, T, H, C // H)
            dqkv = np.empty((B, T, 3, H, C // H), dtype=np.float32)
            KA.fused_attention_backward(g4, tiles, p, scale,
                                        dqkv[:, :, 0], dqkv[:, :, 1], dqkv[:, :, 2])
            return dqkv.reshape(B, T, 3 * C)
        q3, k3, v3, p, pd = ctx.saved_tensors
        if isinstance(shapes, int):  # packed: G split into heads, dq dk dv packed side by side
            B, T, C = grad.shape
            H = shapes
            hs = C // H
            g3 = np.ascontiguousarray(grad.reshape(B, T, H, hs).transpose(0, 2, 1, 3),
                                      dtype=q3.dtype).reshape(B * H, T, hs)
            grads = attend_backward(g3, q3, k3, v3, p, pd, scale, drop, (True, True, True))
            dqkv = np.empty((B, T, 3, H, hs), dtype=q3.dtype)
            dqkv_heads = dqkv.transpose(2, 0, 3, 1, 4)  # a (3, B, H, T, hs) view
            for i, g in enumerate(grads):
                dqkv_heads[i] = g.reshape(B, H, T, hs)
            return dqkv.reshape(B, T, 3 * C)
        g3 = np.ascontiguousarray(grad, dtype=q3.dtype).reshape(-1, q3.shape[1], v3.shape[2])
        grads = attend_backward(g3, q3, k3, v3, p, pd, scale, drop, ctx.needs_input_grad)
        return tuple(None if g is None else g.reshape(shape) for g, shape in zip(grads, shapes))


def check_mask(mask: Any, batch_shape: tuple, t_q: int, t_k: int) -> np.ndarray | None:
    """The user's mask as a bool ndarray broadcastable to batch_shape + (Tq, Tk), or None.
    TypeError for a non-boolean mask, ValueError for one that does not broadcast."""
    if mask is None:
        return None
    m = mask.data if isinstance(mask, Tensor) else np.asarray(mask)
    if m.dtype != np.bool_:
        raise TypeError(f"attention mask must be boolean (True = may not attend), got dtype {m.dtype}")
    full = tuple(batch_shape) + (t_q, t_k)
    try:
        if np.broadcast_shapes(m.shape, full) != full:
            raise ValueError
    except ValueError:
        raise ValueError(
            f"attention mask of shape {m.shape} does not broadcast to "
            f"(batch..., q_len, k_len) = {full}"
        ) from None
    return m


def attention_mask(mask: Any, is_causal: bool, batch_shape: tuple, t_q: int, t_k: int):
    """The user mask and the causal mask combined into one boolean array (or None);
    True = may not attend."""
    m = check_mask(mask, batch_shape, t_q, t_k)
    if is_causal:
        c = causal_mask(t_q, t_k)
        m = c if m is None else (m | c)
    return m


def _attention(q: Tensor, k: Tensor, v: Tensor, mask: Any, is_causal: bool,
               scale: float | None, dropout_p: float) -> tuple:
    """Shared body of F.scaled_dot_product_attention and MultiHeadAttention:
    returns (out Tensor, post-softmax weights ndarray)."""
    for name, t in (("q", q), ("k", k), ("v", v)):
        if not isinstance(t, Tensor) or t.dtype.kind != "f":
            raise TypeError(f"scaled_dot_product_attention: {name} must be a floating-point Tensor")
        if t.ndim < 2:
            raise ValueError(f"scaled_dot_product_attention: {name} needs (..., T, dim), got {t.shape}")
    lead = q.shape[:-2]
    if k.shape[:-2] != lead or v.shape[:-2] != lead or k.shape[-1] != q.shape[-1] or \
            v.shape[-2] != k.shape[-2]:
        raise ValueError(
            f"scaled_dot_product_attention: shapes q {q.shape}, k {k.shape}, v {v.shape} do not "
            "fit (..., Tq, hs), (..., Tk, hs), (..., Tk, hv)"
        )
    t_q, t_k = q.shape[-2], k.shape[-2]
    m = check_mask(mask, lead, t_q, t_k)
    if scale is None:
        scale = 1.0 / math.sqrt(q.shape[-1])
    p = _check_p(dropout_p)
    drop = dropout_mask(lead + (t_q, t_k), p, q.dtype) if p > 0 else None
    sink: list = []
    out = AttentionFunction.apply(q, k, v, mask=m, causal=bool(is_causal), scale=float(scale),
                                  drop=drop, sink=sink)
    return out, sink[0]


def scaled_dot_product_attention(q: Tensor, k: Tensor, v: Tensor, mask: Any = None,
                                 is_causal: bool = False, scale: float | None = None,
                                 dropout_p: float = 0.0) -> Tensor:
    """softmax(q k^T * scale, masked) @ v for q (..., Tq, hs), k (..., Tk, hs), v (..., Tk, hv).

    ``mask``: boolean, broadcastable to (..., Tq, Tk), True = may not attend.
    ``is_causal`` adds the causal mask; with Tk > Tq the queries are the last Tq
    positions. ``scale`` defaults to 1/sqrt(hs). Rows with every key masked give 0.
    ``dropout_p`` drops attention weights (pass 0 in eval).
    """
    return _attention(q, k, v, mask, is_causal, scale, dropout_p)[0]


class MultiHeadAttention(Module):
    """Multi-head attention with separate q/k/v/out projections (each nn.Linear).

    forward(query (B, Tq, C), key (B, Tk, C) = query, value (B, Tk, C) = key,
    mask=None, is_causal=False) -> (B, Tq, C). Heads are split by reshaping C into
    (num_heads, head_dim) and moving the head axis next to the batch axis, so
    all heads run in one batched product. ``mask`` broadcasts to (B, heads, Tq, Tk)
    (a key-padding mask is (B, 1, 1, Tk)); True = may not attend. A query whose
    keys are all masked gets output 0 (PyTorch gives NaN there).

    Set ``record_weights = True`` to keep the last post-softmax weights
    (B, heads, Tq, Tk) as an ndarray in ``last_attn_weights`` (for visualisation).
    """

    def __init__(self, embed_dim: int, num_heads: int, bias: bool = True,
                 dropout: float = 0.0) -> None:
        super().__init__()
        if not isinstance(embed_dim, (int, np.integer)) or embed_dim <= 0 or \
                not isinstance(num_heads, (int, np.integer)) or num_heads <= 0:
            raise ValueError(f"MultiHeadAttention: embed_dim ({embed_dim!r}) and num_heads "
                             f"({num_heads!r}) must be positive integers")
        if embed_dim % num_heads != 0:
            raise ValueError(
                f"MultiHeadAttention: embed_dim {embed_dim} is not divisible by num_heads {num_heads}"
            )
        self.embed_dim = int(embed_dim)
        self.num_heads = int(num_heads)
        self.head_dim = self.embed_dim // self.num_heads
        self.dropout = _check_p(dropout)
        self.q_proj = Linear(embed_dim, embed_dim, bias=bias)
        self.k_proj = Linear(embed_dim, embed_dim, bias=bias)
        self.v_proj = Linear(embed_dim, embed_dim, bias=bias)
        self.out_proj = Linear(embed_dim, embed_dim, bias=bias)
        self.record_weights = False
        self.last_attn_weights: np.ndarray | None = None

    def _split_heads(self, x: Tensor) -> Tensor:
        B, T, _ = x.shape  # (B, T, C) -> (B, H, T, hs)
        return x.reshape(B, T, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, query: Tensor, key: Tensor | None = None, value: Tensor | None = None,
                mask: Any = None, is_causal: bool = False) -> Tensor:
        key = query if key is None else key
        value = key if value is None else value
        for name, t in (("query", query), ("key", key), ("value", value)):
            if not isinstance(t, Tensor) or t.ndim != 3 or t.shape[-1] != self.embed_dim:
                raise ValueError(
                    f"MultiHeadAttention: {name} must be a Tensor (B, T, {self.embed_dim}), "
                    f"got {getattr(t, 'shape', type(t).__name__)}"
                )
        B, t_q, C = query.shape
        if key.shape[0] != B or value.shape[:2] != key.shape[:2]:
            raise ValueError(
                f"MultiHeadAttention: query {query.shape}, key {key.shape} and value {value.shape} "
                "need the same batch size and key/value the same length"
            )
        p = self.dropout if self.training else 0.0
        packed = self._packed_projections(query, key, value)
        if packed is not None:  # self-attention: q, k, v in one product, heads split in the op
            out, weights = self._self_attention(packed, mask, is_causal, p)
        else:
            q = self._split_heads(self.q_proj(query))
            k = self._split_heads(self.k_proj(key))
            v = self._split_heads(self.v_proj(value))
            out, weights = _attention(q, k, v, mask, is_causal, None, p)
            out = out.transpose(1, 2).reshape(B, t_q, C)  # merge heads: (B, H, Tq, hs) -> (B, Tq, C)
        # a copy, so the caller's array never aliases what the graph saved
        self.last_attn_weights = weights.copy() if self.record_weights else None
        out = self.out_proj(out)
        blocked = _fully_masked_queries(mask, is_causal, B, self.num_heads, t_q, key.shape[1])
        if blocked is not None:
            # a query that may attend to nothing contributes nothing (not out_proj's bias)
            out = out.masked_fill(blocked[:, :, None], 0.0)
        return out

    def _packed_projections(self, query: Tensor, key: Tensor, value: Tensor) -> Tensor | None:
        """For self-attention (key and value are the query), q, k, v side by side as
        (B, T, 3C) from one packed product; None otherwise (or if a projection is
        not a plain Linear, or only some have biases): then they run one by one."""
        projs = (self.q_proj, self.k_proj, self.v_proj)
        if key is not query or value is not query or \
                not all(type(m) is Linear for m in projs):
            return None
        biases = [m.bias for m in projs]
        if any(b is None for b in biases) and any(b is not None for b in biases):
            return None
        return linear_packed(query, [m.weight for m in projs],
                             None if biases[0] is None else biases)

    def _self_attention(self, qkv: Tensor, mask: Any, is_causal: bool, dropout_p: float) -> tuple:
        """:func:`_attention` for packed (B, T, 3C) projections -> ((B, T, C), weights)."""
        B, T, _ = qkv.shape
        H = self.num_heads
        m = check_mask(mask, (B, H), T, T)
        drop = dropout_mask((B, H, T, T), dropout_p, qkv.dtype) if dropout_p > 0 else None
        sink: list = []
        out = AttentionFunction.apply(qkv, num_heads=H, mask=m, causal=bool(is_causal),
                                      scale=1.0 / math.sqrt(self.head_dim), drop=drop, sink=sink)
        return out, sink[0]

    def extra_repr(self) -> str:
        return f"embed_dim={self.embed_dim}, num_heads={self.num_heads}, dropout={self.dropout}"


def _fully_masked_queries(mask: Any, is_causal: bool, batch: int, heads: int, t_q: int,
                          t_k: int) -> np.ndarray | None:
    """(B, Tq) bool: True where every key is masked for every head, or None if no such row."""
    if mask is None and not (is_causal and t_k < t_q):
        return None
    m = attention_mask(mask, is_causal, (batch, heads), t_q, t_k)
    rows = np.broadcast_to(m.all(axis=-1), (batch, heads, t_q)).all(axis=1)
    return rows if rows.any() else None


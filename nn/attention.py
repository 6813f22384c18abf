"""Scaled dot-product attention and multi-head attention (the Modules and F form).

The math (S = q k^T * scale, masked, softmax, times v, and its backward) is
one autograd Function, :class:`minigrad.ops.attention.AttentionFunction`;
this file checks the inputs, builds masks and dropout, and splits heads.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad.ops.attention import AttentionFunction, merge_heads, split_heads
from minigrad.ops.masking import causal_mask
from minigrad.ops.masking import check_mask as _check_bool_mask
from minigrad.tensor import Tensor

from .dropout import _check_p, dropout_mask
from .linear import Linear, linear_packed
from .module import Module


def check_mask(mask: Any, batch_shape: tuple, t_q: int, t_k: int, name: str = "attention mask"
               ) -> np.ndarray | None:
    """The user's mask as a bool ndarray (a copy the op owns) broadcastable to
    batch_shape + (Tq, Tk), or None. TypeError for a non-boolean mask, ValueError for
    one that does not broadcast."""
    if mask is None:
        return None
    return _check_bool_mask(mask, name, tuple(batch_shape) + (t_q, t_k),
                            "(batch..., q_len, k_len)")


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
        B, t_q, _ = query.shape
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
            H = self.num_heads
            q = split_heads(self.q_proj(query), H)
            k = split_heads(self.k_proj(key), H)
            v = split_heads(self.v_proj(value), H)
            out, weights = _attention(q, k, v, mask, is_causal, None, p)
            out = merge_heads(out)
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
    if t_k == 0:  # no keys at all: every query attends to nothing
        return np.ones((batch, t_q), dtype=bool) if t_q else None
    if mask is None and not (is_causal and t_k < t_q):
        return None
    m = attention_mask(mask, is_causal, (batch, heads), t_q, t_k)
    rows = np.broadcast_to(m.all(axis=-1), (batch, heads, t_q)).all(axis=1)
    return rows if rows.any() else None


"""Scaled dot-product attention (the F form) and multi-head attention (the Module).

The math (S = q k^T * scale + mask, softmax, times v, and its backward) is one
autograd Function, :class:`minigrad.ops.attention.AttentionFunction`, in the
kernels' head layout (B, T, H, hs). This file checks the inputs, turns masks into
the Function's one additive mask, draws dropout, and moves heads into that layout
with views. ``F.scaled_dot_product_attention`` is :func:`scaled_dot_product_attention`.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from minigrad.backends.interface import causal_mask
from minigrad.grad_mode import is_grad_enabled
from minigrad.ops.attention import AttentionFunction, additive_mask
from minigrad.ops.masking import check_mask
from minigrad.ops.shapes import cat
from minigrad.random import generator
from minigrad.step_capture import replayed
from minigrad.tensor import Tensor

from .dropout import _check_p, dropout_mask
from .linear import Linear, linear
from .module import Module, Parameter


@replayed
def _sdpa_mask(attn_mask: Any, shape: tuple, dtype: np.dtype) -> np.ndarray:
    """scaled_dot_product_attention's attn_mask (bool: True = may attend; float: added to the
    scores), checked against ``shape`` (..., L, S), as the additive float mask in ``dtype``
    the op owns (replayed in a captured step: a mask made from the batch is made again)."""
    m = np.asarray(attn_mask.data if isinstance(attn_mask, Tensor) else attn_mask)
    if m.dtype == np.bool_:
        return additive_mask(~check_mask(m, "attn_mask", shape, "(..., L, S)"), dtype)
    if m.dtype.kind == "f":
        check_mask(np.zeros(m.shape, bool), "attn_mask", shape, "(..., L, S)")
        return m.astype(dtype)  # a copy the op owns
    raise TypeError(f"scaled_dot_product_attention: attn_mask must be bool or float, "
                    f"got {m.dtype}")


@replayed
def _module_mask(mask: Any, shape: tuple, dtype: np.dtype) -> np.ndarray:
    """MultiHeadAttention's mask (True = may not attend), checked against ``shape`` (batch,
    heads, q_len, k_len), as the additive float mask the op owns (replayed, as _sdpa_mask)."""
    return additive_mask(check_mask(mask, "MultiHeadAttention: mask", shape,
                                    "(batch, heads, q_len, k_len)"), dtype)


def _attend(q: Tensor, k: Tensor, v: Tensor, mask: np.ndarray | Tensor | None, causal: bool,
            scale: float, dropout_p: float, want_weights: bool = False,
            weights_graph: bool = False) -> tuple:
    """The one call of AttentionFunction: q (B, Tq, H, hs), k (B, Tk, H, hs), v (B, Tk, H, hv),
    ``mask`` additive (broadcastable to (B, H, Tq, Tk)): an ndarray (a constant), a Tensor
    that requires grad (an input, given its gradient), or None -> (out (B, Tq, H, hv),
    weights P (B, H, Tq, Tk) ndarray if ``want_weights``, else None: then the op need not
    keep P, and the fast backend recomputes it in the backward instead); P is after dropout.
    ``weights_graph``: the weights as a Tensor with a graph when a gradient can flow into
    them (see :func:`_weights_with_graph`), for callers that return them to be differentiated."""
    B, t_q, H, _ = q.shape
    drop = dropout_mask((B, H, t_q, k.shape[1]), dropout_p, q.dtype) if dropout_p > 0 else None
    sink: list | None = [] if want_weights else None
    inputs, options = ((q, k, v, mask), {}) if isinstance(mask, Tensor) else \
        ((q, k, v), {"mask": mask})
    out = AttentionFunction.apply(*inputs, causal=bool(causal), scale=float(scale), drop=drop,
                                  sink=sink, **options)
    if not want_weights:
        return out, None
    if weights_graph and is_grad_enabled() and any(isinstance(t, Tensor) and t.requires_grad
                                                   for t in (q, k, mask)):
        return out, _weights_with_graph(q, k, mask, causal, scale, drop)
    return out, (sink[0] if drop is None else sink[0] * drop)  # the weights v was averaged by


def _weights_with_graph(q: Tensor, k: Tensor, mask: Any, causal: bool, scale: float,
                        drop: np.ndarray | None) -> Tensor:
    """The attention weights dropout(softmax(q k^T * scale + mask)) (B, H, Tq, Tk) as a Tensor
    with a graph, composed of existing ops, for a caller that differentiates them (PyTorch's
    ``need_weights=True``): the same values as the op's P, with the same dropout mask. The
    output keeps the op's own backward; the weights' gradient reaches q, k and a mask that
    requires grad through this composition (a softmax row with nothing to attend to is 0)."""
    s = (q.permute(0, 2, 1, 3) @ k.permute(0, 2, 3, 1)) * scale
    if mask is not None:
        s = s + mask
    if causal:
        s = s.masked_fill(causal_mask(q.shape[1], k.shape[1]), float("-inf"))
    p = s.softmax(-1)
    return p if drop is None else p * drop


def _check_qkv(q: Any, k: Any, v: Any, enable_gqa: bool) -> None:
    """TypeError/ValueError unless q (..., L, E), k (..., S, E), v (..., S, Ev) fit."""
    for name, t in (("query", q), ("key", k), ("value", v)):
        if not isinstance(t, Tensor) or t.dtype.kind != "f":
            raise TypeError(f"scaled_dot_product_attention: {name} must be a floating-point "
                            f"Tensor, got {getattr(t, 'dtype', type(t).__name__)}")
        if t.ndim < 2:
            raise ValueError(f"scaled_dot_product_attention: {name} needs (..., T, dim), "
                             f"got {t.shape}")
    if not q.dtype == k.dtype == v.dtype:
        raise TypeError(f"scaled_dot_product_attention: query, key and value must share a "
                        f"dtype, got {q.dtype}, {k.dtype}, {v.dtype}")
    lead_k = k.shape[:-2]
    fits = k.shape[-1] == q.shape[-1] and v.shape[:-1] == k.shape[:-1] and \
        q.ndim == k.ndim == v.ndim
    if fits and enable_gqa:
        fits = q.ndim >= 3 and q.shape[:-3] == lead_k[:-1] and k.shape[-3] > 0 and \
            q.shape[-3] % k.shape[-3] == 0
    elif fits:
        fits = q.shape[:-2] == lead_k
    if not fits:
        raise ValueError(
            f"scaled_dot_product_attention: shapes query {q.shape}, key {k.shape}, value "
            f"{v.shape} do not fit (..., L, E), (..., S, E), (..., S, Ev)"
            + (" with query heads a multiple of key/value heads (enable_gqa)" if enable_gqa
               else "")
        )


def _broadcast_batch(q: Any, k: Any, v: Any) -> tuple:
    """q, k, v with their batch axes (all but the last two) broadcast together, as PyTorch
    (a 3-D query with 4-D key/value); as given when they already agree or cannot broadcast
    (then ``_check_qkv`` names the shapes)."""
    if not all(isinstance(t, Tensor) and t.ndim >= 2 for t in (q, k, v)):
        return q, k, v
    leads = [t.shape[:-2] for t in (q, k, v)]
    if leads[0] == leads[1] == leads[2]:
        return q, k, v
    try:
        lead = np.broadcast_shapes(*leads)
    except ValueError:
        return q, k, v
    return tuple(t.expand(lead + t.shape[-2:]) for t in (q, k, v))


def _repeat_heads(x: Tensor, groups: int) -> Tensor:
    """(..., Hkv, S, d) -> (..., Hkv * groups, S, d), each head repeated ``groups`` times in
    a row (grouped-query attention: query head h reads key/value head h // groups)."""
    if groups == 1:
        return x
    shape = x.shape
    wide = x.unsqueeze(-3).expand(shape[:-2] + (groups,) + shape[-2:])
    return wide.reshape(shape[:-3] + (shape[-3] * groups,) + shape[-2:])


def _as_heads(x: Tensor) -> Tensor:
    """(..., H, T, d) (or (T, d)) -> the Function's (B, T, H, d), a view where NumPy allows."""
    if x.ndim == 2:
        return x.reshape((1, x.shape[0], 1, x.shape[1]))
    if x.ndim != 4:
        x = x.reshape((math.prod(x.shape[:-3]),) + x.shape[-3:])
    return x.transpose(1, 2)


def _from_heads(out: Tensor, lead: tuple) -> Tensor:
    """The Function's (B, L, H, Ev) back to PyTorch's (..., L, Ev) (the inverse of _as_heads)."""
    if not lead:
        return out.reshape(out.shape[1], out.shape[3])
    out = out.transpose(1, 2)
    return out if len(lead) == 2 else out.reshape(lead + out.shape[-2:])


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor,
                                 attn_mask: Any = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, scale: float | None = None,
                                 enable_gqa: bool = False) -> Tensor:
    """softmax(query key^T * scale + mask) @ value, PyTorch's signature and meaning.

    query (..., L, E), key (..., S, E), value (..., S, Ev) -> (..., L, Ev); the
    leading axes (usually (B, heads)) broadcast together, as PyTorch. ``attn_mask``,
    broadcastable to (..., L, S): boolean, True = the query **may** attend that key; or float,
    added to the scores (-inf blocks). ``is_causal`` masks as PyTorch does, with
    the top-left aligned ``tril(ones(L, S))``: query i sees keys 0..i (it may not
    be combined with ``attn_mask``). ``scale`` defaults to 1/sqrt(E).
    ``dropout_p`` drops attention weights (pass 0 in eval: this function does
    not know the module's mode). ``enable_gqa``: key/value may have fewer heads
    (axis -3) than query, a divisor of them; each key/value head serves
    H_q / H_kv query heads in a row (grouped-query attention).

    Gradients reach query, key, value and a float ``attn_mask`` that requires grad
    (dS, the scores' gradient, summed over the axes the mask was broadcast along), to
    any order. A query whose keys are all masked (or that has no keys) gets output 0 and
    zero gradients, as in PyTorch 2.13 (older PyTorch gave NaN).
    """
    if not enable_gqa:
        query, key, value = _broadcast_batch(query, key, value)
    _check_qkv(query, key, value, enable_gqa)
    t_q, t_k = query.shape[-2], key.shape[-2]
    lead = query.shape[:-2]
    if attn_mask is not None and is_causal:
        raise ValueError("scaled_dot_product_attention: attn_mask and is_causal=True together "
                         "(as PyTorch, fold the causal mask into attn_mask)")
    mask = None
    if attn_mask is not None:
        if isinstance(attn_mask, Tensor) and attn_mask.requires_grad:
            _sdpa_mask(attn_mask.data, lead + (t_q, t_k), query.dtype)  # checked only
            mask = attn_mask.to(query.dtype)  # an input of the Function: it gets dS
        else:
            mask = _sdpa_mask(attn_mask, lead + (t_q, t_k), query.dtype)
    if enable_gqa:
        groups = query.shape[-3] // key.shape[-3]
        key, value = _repeat_heads(key, groups), _repeat_heads(value, groups)
    causal = bool(is_causal)
    if causal and t_q != t_k:  # PyTorch's top-left alignment; the op's flag is bottom-right
        mask = additive_mask(~np.tri(t_q, t_k, dtype=bool), query.dtype)
        causal = False
    if mask is not None and len(lead) > 2:  # (..., H, L, S) -> the Function's (B, H, L, S)
        full_shape = lead + (t_q, t_k)  # (a mask Tensor's expand sums its gradient back)
        full = mask.expand(full_shape) if isinstance(mask, Tensor) else \
            np.broadcast_to(mask, full_shape)
        mask = full.reshape((-1,) + full_shape[-3:])
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    q, k, v = _as_heads(query), _as_heads(key), _as_heads(value)
    out, _ = _attend(q, k, v, mask, causal, scale, _check_p(dropout_p))
    return _from_heads(out, lead)


class KVCache:
    """One attention layer's keys and values of the positions processed so far.

    ``keys`` and ``values`` are (B, t, H, hs) Tensors (the attention's head layout)
    or None. In a causal model a position's key and value depend only on the
    tokens up to it, so they are computed once and reused by every later token.
    """

    def __init__(self) -> None:
        self.keys: Tensor | None = None
        self.values: Tensor | None = None

    def __len__(self) -> int:
        """Number of cached positions."""
        return 0 if self.keys is None else self.keys.shape[1]

    def append(self, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        """Add the new positions' k, v (B, t, H, hs); return all of them."""
        if self.keys is not None:
            k = cat([self.keys, k], axis=1)
            v = cat([self.values, v], axis=1)
        self.keys, self.values = k, v
        return k, v


class MultiHeadAttention(Module):
    """Multi-head attention with packed q|k|v projections and an output projection.

    forward(query (B, Tq, C), key (B, Tk, C) = query, value (B, Tk, C) = key,
    mask=None, is_causal=False, cache=None) -> (B, Tq, C).

    ``in_proj_weight`` (3C, C) and ``in_proj_bias`` (3C,) hold the q, k and v
    projections stacked by rows, as PyTorch's ``nn.MultiheadAttention`` and
    nanoGPT's ``c_attn``: self-attention projects once, (B, T, 3C), and reads
    the heads out of that product by views; cross-attention projects the query
    with the q rows and the key/value with the k|v rows. ``out_proj`` is an
    ``nn.Linear``. Heads: C = H * hs, the (B, T, H, hs) layout of the kernels.

    ``mask`` is boolean, broadcastable to (B, H, Tq, Tk) (a key-padding mask is
    (B, 1, 1, Tk)); True = may **not** attend, as PyTorch's
    ``nn.MultiheadAttention``. ``is_causal``: query i sees key j only if
    j <= i + Tk - Tq (the queries are the last Tq of the Tk positions, which is
    what a key/value cache needs). A query whose keys are all masked gets an
    attention output of 0 (PyTorch gives NaN), so the layer returns
    ``out_proj``'s bias there.

    ``cache``: a :class:`KVCache` for decoding: the new positions' keys and
    values are appended to it and the queries attend over all of them.

    Set ``record_weights = True`` to keep the last post-softmax weights
    (B, H, Tq, Tk) as an ndarray in ``last_attn_weights`` (for visualisation); in training
    with dropout they are the weights after dropout, the ones the values were averaged by.
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
        c = self.embed_dim = int(embed_dim)
        self.num_heads = int(num_heads)
        self.head_dim = c // self.num_heads
        self.dropout = _check_p(dropout)
        # Drawn block by block as three nn.Linear(C, C) would be (weight, then bias), so a
        # seeded model starts from the same numbers as when q, k, v were separate layers.
        bound = 1.0 / math.sqrt(c)
        rng = generator()
        blocks = [(rng.uniform(-bound, bound, (c, c)), rng.uniform(-bound, bound, c) if bias
                   else None) for _ in range(3)]
        self.in_proj_weight = Parameter(np.concatenate([w for w, _ in blocks]).astype(np.float32))
        self.register_parameter("in_proj_bias", Parameter(np.concatenate(
            [b for _, b in blocks]).astype(np.float32)) if bias else None)
        self.out_proj = Linear(c, c, bias=bias)
        self.record_weights = False
        self.last_attn_weights: np.ndarray | None = None

    def _project(self, x: Tensor, rows: slice) -> Tensor:
        """x (B, T, C) through the rows ``rows`` of the packed projection -> (B, T, n, H, hs),
        n = the number of C-row blocks (a view of one product)."""
        w, b = self.in_proj_weight, self.in_proj_bias
        whole = rows == slice(None)
        y = linear(x, w if whole else w[rows], None if b is None else (b if whole else b[rows]))
        B, T, n = y.shape
        return y.reshape(B, T, n // self.embed_dim, self.num_heads, self.head_dim)

    def forward(self, query: Tensor, key: Tensor | None = None, value: Tensor | None = None,
                mask: Any = None, is_causal: bool = False, cache: KVCache | None = None) -> Tensor:
        key = query if key is None else key
        value = key if value is None else value
        for name, t in (("query", query), ("key", key), ("value", value)):
            if not isinstance(t, Tensor) or t.ndim != 3 or t.shape[-1] != self.embed_dim:
                raise ValueError(
                    f"MultiHeadAttention: {name} must be a Tensor (B, T, {self.embed_dim}), "
                    f"got {getattr(t, 'shape', type(t).__name__)}"
                )
        B, t_q, c = query.shape
        if key.shape[0] != B or value.shape[:2] != key.shape[:2]:
            raise ValueError(
                f"MultiHeadAttention: query {query.shape}, key {key.shape} and value {value.shape} "
                "need the same batch size and key/value the same length"
            )
        if key is query and value is query:  # self-attention: one product, heads by views
            qkv = self._project(query, slice(None))              # (B, T, 3, H, hs)
            q, k, v = qkv[:, :, 0], qkv[:, :, 1], qkv[:, :, 2]
        else:
            q = self._project(query, slice(0, c))[:, :, 0]
            if key is value:  # cross-attention: one product for k|v
                kv = self._project(key, slice(c, 3 * c))
                k, v = kv[:, :, 0], kv[:, :, 1]
            else:
                k = self._project(key, slice(c, 2 * c))[:, :, 0]
                v = self._project(value, slice(2 * c, 3 * c))[:, :, 0]
        if cache is not None:
            k, v = cache.append(k, v)
        t_k = k.shape[1]
        m = None
        if mask is not None:  # validated once, here (the one validator), owned by the op
            m = _module_mask(mask, (B, self.num_heads, t_q, t_k), q.dtype)
        p = self.dropout if self.training else 0.0
        out, weights = _attend(q, k, v, m, is_causal, 1.0 / math.sqrt(self.head_dim), p,
                               self.record_weights)
        # a copy, so the caller's array never aliases what the graph saved
        self.last_attn_weights = weights.copy() if self.record_weights else None
        return self.out_proj(out.reshape(B, t_q, c))

    def _convert_old_state(self, state: Any, prefix: str) -> Any:
        """A state dict saved before q|k|v were packed (``q_proj``/``k_proj``/``v_proj``
        keys) with those keys replaced by ``in_proj_weight``/``in_proj_bias`` (rows
        q | k | v); ``state`` itself is not changed. Warns once per call."""
        old = [f"{prefix}{n}_proj.weight" for n in "qkv"]
        if not all(k in state for k in old) or f"{prefix}in_proj_weight" in state:
            return state
        warnings.warn(
            "load_state_dict: converting the old unpacked attention keys "
            "q_proj/k_proj/v_proj keys to the packed in_proj_weight/in_proj_bias "
            "(save the model again to store the new layout)", stacklevel=3)
        new = dict(state)

        def take(key: str) -> np.ndarray:
            v = new.pop(key)
            return np.asarray(v.data if isinstance(v, Tensor) else v)

        new[f"{prefix}in_proj_weight"] = np.concatenate([take(k) for k in old])
        biases = [f"{prefix}{n}_proj.bias" for n in "qkv"]
        if all(k in new for k in biases):
            new[f"{prefix}in_proj_bias"] = np.concatenate([take(k) for k in biases])
        return new

    def extra_repr(self) -> str:
        return f"embed_dim={self.embed_dim}, num_heads={self.num_heads}, dropout={self.dropout}"

"""``nn.MultiheadAttention`` with PyTorch's constructor, parameter names, forward and masks.

The attention itself is the one :class:`minigrad.ops.attention.AttentionFunction`, reached
through ``nn.attention._attend`` (as ``F.scaled_dot_product_attention`` and the readable
``nn.MultiHeadAttention`` reach it). This file projects q, k, v, appends ``bias_k``/``bias_v``
and the zero-attention slot, merges ``attn_mask`` and ``key_padding_mask`` into one additive
mask as PyTorch does, and moves between PyTorch's (L, N, E) / (N, L, E) / (L, E) layouts and
the Function's (N, L, H, head_dim).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad.ops.shapes import cat
from minigrad.step_capture import replayed
from minigrad.tensor import Tensor

from . import init
from .attention import _attend
from .dropout import _check_p
from .linear import Linear, linear
from .module import Module, Parameter


def _canonical_mask(mask: Any, name: str, dtype: np.dtype) -> np.ndarray | None:
    """A bool mask (True = may not attend) as -inf/0 floats, a float mask as it is (added to
    the scores), in ``dtype``; None stays None. PyTorch's ``F._canonical_mask``."""
    if mask is None:
        return None
    if isinstance(mask, Tensor) and mask.requires_grad:
        raise ValueError(f"MultiheadAttention: a {name} that requires grad is not supported "
                         "(use F.scaled_dot_product_attention, whose float attn_mask gets its "
                         "gradient)")
    m = np.asarray(mask.data if isinstance(mask, Tensor) else mask)
    if m.dtype == np.bool_:
        return np.where(m, -np.inf, 0.0).astype(dtype)
    if m.dtype.kind != "f":
        raise TypeError(f"only bool and floating types of {name} are supported")
    return m.astype(dtype)


@replayed
def _scores_mask(key_padding_mask: Any, attn_mask: Any, shape: tuple, extra: int, batched: bool,
                 dtype: np.dtype) -> np.ndarray | None:
    """The additive mask of the scores (N, heads, L, S + extra) from a key padding mask (N, S)
    and an attention mask (L, S) or (N * heads, L, S), each bool or float (``_canonical_mask``),
    zero over the ``extra`` key positions appended after the given ones; None without either.
    Made from the batch's masks, so a captured step makes it again at each replay."""
    n, heads, t_q, t_k = shape
    kpm = _canonical_mask(key_padding_mask, "key_padding_mask", dtype)
    mask = _canonical_mask(attn_mask, "attn_mask", dtype)
    if mask is not None:
        want = (t_q, t_k) if mask.ndim == 2 else (n * heads, t_q, t_k)
        if mask.shape != want:
            raise _shape_error(f"The shape of the {mask.ndim}D attn_mask is {mask.shape}, "
                               f"but should be {want}.")
        mask = mask.reshape((1, 1) + want) if mask.ndim == 2 else mask.reshape(shape)
    if kpm is not None and not batched:
        kpm = kpm[None]
    if kpm is not None and kpm.shape != (n, t_k):
        raise _shape_error(f"expecting key_padding_mask shape of {(n, t_k)}, but got "
                           f"{kpm.shape}")
    pad = ((0, 0),) * 3 + ((0, extra),)
    if mask is not None and extra:
        mask = np.pad(mask, pad)
    if kpm is not None:
        kpm = np.pad(kpm.reshape(n, 1, 1, t_k), pad)
        mask = kpm if mask is None else mask + kpm
    return mask


def _shape_error(msg: str) -> ValueError:
    return ValueError(f"MultiheadAttention: {msg}")


class MultiheadAttention(Module):
    """Multi-head attention as PyTorch's ``torch.nn.MultiheadAttention``.

    out = concat_h(softmax(q_h k_h^T / sqrt(head_dim) + mask) v_h) W_o^T + b_o with
    q = query W_q^T + b_q, k = key W_k^T + b_k, v = value W_v^T + b_v, embed_dim = H * head_dim.

    Parameters (PyTorch's names, so its state dicts load strictly): ``in_proj_weight``
    (3E, E) with rows q | k | v when kdim == vdim == embed_dim, else ``q_proj_weight`` (E, E),
    ``k_proj_weight`` (E, kdim), ``v_proj_weight`` (E, vdim); ``in_proj_bias`` (3E,) if
    ``bias``; ``bias_k``, ``bias_v`` (1, 1, E) if ``add_bias_kv`` (appended to the keys and
    values as one more position); ``out_proj`` an ``nn.Linear(E, E)``. Init as PyTorch:
    xavier_uniform on the projections, zeros on ``in_proj_bias`` and ``out_proj.bias``,
    xavier_normal on ``bias_k``/``bias_v``, ``out_proj.weight`` as ``nn.Linear``'s.

    forward(query, key, value, key_padding_mask=None, need_weights=True, attn_mask=None,
    average_attn_weights=True, is_causal=False) -> (attn_output, attn_output_weights):
    query (L, N, E), key (S, N, kdim), value (S, N, vdim) ((N, L, E) ... if ``batch_first``;
    (L, E) ... unbatched) -> attn_output of query's layout; weights (N, L, S) averaged over
    heads, (N, H, L, S) if not ``average_attn_weights``, None if not ``need_weights``.
    ``attn_mask`` (L, S) or (N * H, L, S) and ``key_padding_mask`` (N, S): bool (True = may
    **not** attend) or float (added to the scores); both given, they are added.
    ``add_zero_attn`` appends a key and value of zeros. ``is_causal`` is PyTorch's hint: it
    needs ``attn_mask``; without ``key_padding_mask`` and with ``need_weights=False`` the
    causal mask tril(ones(L, S)) is used in place of ``attn_mask``. ``dropout`` drops
    attention weights in training; the returned weights are those after dropout.

    Differences from PyTorch: a query whose keys are all masked gets an attention output of
    0 (so the layer returns ``out_proj.bias`` there) and weights of 0, always. PyTorch 2.13's
    module gives that only on its ``need_weights=False`` path outside inference; with
    ``need_weights=True`` (the default), and on its eval-mode no-grad fast path, it returns
    NaN for that row (and NaN weights). The returned weights are a constant (no gradient
    flows through them); masks that require grad are refused.
    """

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim: int | None = None,
                 vdim: int | None = None, batch_first: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        if not isinstance(embed_dim, (int, np.integer)) or embed_dim <= 0 or \
                not isinstance(num_heads, (int, np.integer)) or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got "
                             f"embed_dim={embed_dim} and num_heads={num_heads} instead")
        self.embed_dim = e = int(embed_dim)
        self.kdim = int(kdim) if kdim is not None else e
        self.vdim = int(vdim) if vdim is not None else e
        self._qkv_same_embed_dim = self.kdim == e and self.vdim == e
        self.num_heads = int(num_heads)
        self.dropout = _check_p(dropout)
        self.batch_first = bool(batch_first)
        self.head_dim = e // self.num_heads
        if self.head_dim * self.num_heads != e:
            raise ValueError("embed_dim must be divisible by num_heads")
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(np.empty((3 * e, e), np.float32))
            for n in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(n, None)
        else:
            self.q_proj_weight = Parameter(np.empty((e, e), np.float32))
            self.k_proj_weight = Parameter(np.empty((e, self.kdim), np.float32))
            self.v_proj_weight = Parameter(np.empty((e, self.vdim), np.float32))
            self.register_parameter("in_proj_weight", None)
        self.register_parameter("in_proj_bias", Parameter(np.empty(3 * e, np.float32))
                                if bias else None)
        self.out_proj = Linear(e, e, bias=bias)
        for n in ("bias_k", "bias_v"):
            self.register_parameter(n, Parameter(np.empty((1, 1, e), np.float32))
                                    if add_bias_kv else None)
        self.add_zero_attn = bool(add_zero_attn)
        self._reset_parameters()
        if dtype is not None:
            self.to(dtype=dtype)

    def _reset_parameters(self) -> None:
        """PyTorch's init: xavier_uniform projections, zero biases, xavier_normal bias_k/v."""
        for w in (self.in_proj_weight, self.q_proj_weight, self.k_proj_weight,
                  self.v_proj_weight):
            if w is not None:
                init.xavier_uniform_(w)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        for b in (self.bias_k, self.bias_v):
            if b is not None:
                init.xavier_normal_(b)

    def _project(self, query: Tensor, key: Tensor, value: Tensor) -> tuple:
        """(N, L, E), (N, S, kdim), (N, S, vdim) -> q, k, v, each (N, ., E)."""
        e, b = self.embed_dim, self.in_proj_bias
        if self._qkv_same_embed_dim:
            ws = [self.in_proj_weight[i * e:(i + 1) * e] for i in range(3)]
        else:
            ws = [self.q_proj_weight, self.k_proj_weight, self.v_proj_weight]
        bs = [None] * 3 if b is None else [b[i * e:(i + 1) * e] for i in range(3)]
        return tuple(linear(x, w, bb) for x, w, bb in zip((query, key, value), ws, bs))

    def _check_inputs(self, query: Any, key: Any, value: Any, key_padding_mask: Any,
                      attn_mask: Any) -> bool:
        """PyTorch's shape checks; True when the inputs are batched (3-D)."""
        for name, t in (("query", query), ("key", key), ("value", value)):
            if not isinstance(t, Tensor) or t.dtype.kind != "f":
                raise TypeError(f"MultiheadAttention: {name} must be a floating-point Tensor, "
                                f"got {getattr(t, 'dtype', type(t).__name__)}")
        if query.ndim not in (2, 3):
            raise _shape_error(f"query should be unbatched 2D or batched 3D tensor but "
                               f"received {query.ndim}-D query tensor")
        batched = query.ndim == 3
        d = query.ndim
        if key.ndim != d or value.ndim != d:
            raise _shape_error(f"For {'batched' if batched else 'unbatched'} ({d}-D) `query`, "
                               f"expected `key` and `value` to be {d}-D but found "
                               f"{key.ndim}-D and {value.ndim}-D tensors respectively")
        if key_padding_mask is not None and np.ndim(getattr(key_padding_mask, "data",
                                                            key_padding_mask)) != d - 1:
            raise _shape_error(f"For {'batched' if batched else 'unbatched'} ({d}-D) `query`, "
                               f"expected `key_padding_mask` to be `None` or {d - 1}-D")
        if attn_mask is not None and np.ndim(getattr(attn_mask, "data", attn_mask)) not in (2, 3):
            raise _shape_error(f"For {'batched' if batched else 'unbatched'} ({d}-D) `query`, "
                               "expected `attn_mask` to be `None`, 2-D or 3-D")
        if query.shape[-1] != self.embed_dim:
            raise _shape_error(f"was expecting embedding dimension of {self.embed_dim}, but "
                               f"got {query.shape[-1]}")
        if key.shape[-1] != self.kdim or value.shape[-1] != self.vdim:
            raise _shape_error(f"key and value need last dims kdim={self.kdim} and "
                               f"vdim={self.vdim}, got {key.shape} and {value.shape}")
        if key.shape[:-1] != value.shape[:-1]:
            raise _shape_error(f"key's sequence and batch dims {key.shape[:-1]} do not match "
                               f"value's {value.shape[:-1]}")
        return batched

    def forward(self, query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Any = None,
                need_weights: bool = True, attn_mask: Any = None,
                average_attn_weights: bool = True, is_causal: bool = False) -> tuple:
        batched = self._check_inputs(query, key, value, key_padding_mask, attn_mask)
        if not batched:  # (L, E) -> (1, L, E)
            query, key, value = (t.unsqueeze(0) for t in (query, key, value))
        elif not self.batch_first:  # (L, N, E) -> (N, L, E)
            query, key, value = (t.transpose(0, 1) for t in (query, key, value))
        n, t_q, e = query.shape
        if key.shape[0] != n:
            raise _shape_error(f"query batch size {n} does not match key's {key.shape[0]}")
        heads, t_k = self.num_heads, key.shape[1]
        dt = query.dtype
        if is_causal and attn_mask is None:
            raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use "
                               "the Transformer module method `generate_square_subsequent_mask`"
                               " to create this mask.")
        q, k, v = self._project(query, key, value)
        extra = 0  # key positions appended after the given ones (bias_k/v, zero attention)
        if self.bias_k is not None:
            k = cat([k, self.bias_k.expand((n, 1, e))], axis=1)
            v = cat([v, self.bias_v.expand((n, 1, e))], axis=1)
            extra += 1
        if self.add_zero_attn:
            zeros = Tensor(np.zeros((n, 1, e), dt))
            k, v = cat([k, zeros], axis=1), cat([v, zeros], axis=1)
            extra += 1
        t_s = t_k + extra
        mask = _scores_mask(key_padding_mask, attn_mask, (n, heads, t_q, t_k), extra, batched, dt)
        if is_causal and key_padding_mask is None and not need_weights:
            mask = np.where(np.tri(t_q, t_s, dtype=bool), 0.0, -np.inf).astype(dt)
        hd = self.head_dim
        p = self.dropout if self.training else 0.0
        out, weights = _attend(q.reshape(n, t_q, heads, hd), k.reshape(n, t_s, heads, hd),
                               v.reshape(n, t_s, heads, hd), mask, False, 1.0 / math.sqrt(hd),
                               p, want_weights=bool(need_weights), weights_graph=True)
        out = self.out_proj(out.reshape(n, t_q, e))
        if not batched:
            out = out.squeeze(0)
        elif not self.batch_first:
            out = out.transpose(0, 1)
        if not need_weights:
            return out, None
        if not isinstance(weights, Tensor):  # the op's P, an array: nothing to differentiate
            weights = Tensor(weights)
        if average_attn_weights:
            weights = weights.mean(1)
        return out, (weights[0] if not batched else weights)

    def merge_masks(self, attn_mask: Any, key_padding_mask: Any, query: Tensor) -> tuple:
        """PyTorch's merge for a batched self-attention query (N, L, E): -> (mask, mask_type),
        mask (N, H, L, L) (attn_mask expanded, plus key_padding_mask) with mask_type 2 when
        ``attn_mask`` is given; ``key_padding_mask`` itself with mask_type 1 when only it is;
        (None, None) when neither is."""
        if attn_mask is None:
            return (None, None) if key_padding_mask is None else (key_padding_mask, 1)
        n, t, _ = query.shape
        m = np.asarray(getattr(attn_mask, "data", attn_mask))
        merged = m.reshape(n, -1, t, t) if m.ndim == 3 else \
            np.broadcast_to(m.reshape(1, 1, t, t), (n, self.num_heads, t, t))
        if key_padding_mask is not None:
            kpm = np.asarray(getattr(key_padding_mask, "data", key_padding_mask))
            merged = merged + kpm.reshape(n, 1, 1, t)
        return Tensor(np.ascontiguousarray(merged)), 2

    def extra_repr(self) -> str:
        return (f"embed_dim={self.embed_dim}, num_heads={self.num_heads}, "
                f"dropout={self.dropout}, batch_first={self.batch_first}")

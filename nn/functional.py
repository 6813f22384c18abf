"""Functional forms of the layers (``from minigrad.nn import functional as F``), as in PyTorch.

Each function is stateless: weights are passed in. The layer modules call
these, and each is defined beside its layer (e.g. ``layer_norm`` in
``nn/layernorm.py``); this module gathers the names, plus a few small functions of its own
(``one_hot``, ``pad``, ``normalize``, and the PyTorch signature of
``scaled_dot_product_attention``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.ops.shape_ops import cat
from minigrad.tensor import Tensor, full

from . import attention as _attention
from .activation import (
    elu,
    gelu,
    leaky_relu,
    log_softmax,
    relu,
    sigmoid,
    silu,
    softmax,
    softplus,
    tanh,
)
from .dropout import dropout
from .embedding import embedding
from .layernorm import layer_norm
from .linear import linear
from .loss import cross_entropy
from .normalization import rms_norm
from .pointwise_loss import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    l1_loss,
    mse_loss,
    nll_loss,
)


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Any = None,
                                 dropout_p: float = 0.0, is_causal: bool = False,
                                 scale: float | None = None, *, mask: Any = None) -> Tensor:
    """softmax(q k^T * scale + mask) @ v, PyTorch's signature and meaning of ``attn_mask``:
    a boolean ``attn_mask`` says where a query **may** attend (True = attend), a float one is
    added to the scores. q (..., Tq, hs), k (..., Tk, hs), v (..., Tk, hv).

    minigrad's own ``mask=`` (keyword only) has the opposite meaning, True = may **not**
    attend (as ``masked_fill(mask, -inf)``); passing both raises. A query whose keys are
    all masked gives 0 (PyTorch gives NaN). ``is_causal`` with ``attn_mask`` raises, as PyTorch.
    """
    if attn_mask is not None and mask is not None:
        raise ValueError("scaled_dot_product_attention: pass attn_mask= (True = may attend, "
                         "PyTorch's meaning) or mask= (True = blocked, minigrad's), not both")
    if attn_mask is not None and is_causal:
        raise ValueError("scaled_dot_product_attention: attn_mask and is_causal=True together "
                         "(as PyTorch, fold the causal mask into attn_mask)")
    if attn_mask is None:
        return _attention.scaled_dot_product_attention(query, key, value, mask=mask,
                                                       is_causal=is_causal, scale=scale,
                                                       dropout_p=dropout_p)
    m = attn_mask.data if isinstance(attn_mask, Tensor) else np.asarray(attn_mask)
    if m.dtype == np.bool_:  # PyTorch's "may attend" -> minigrad's "blocked"
        return _attention.scaled_dot_product_attention(query, key, value, mask=~m, scale=scale,
                                                       dropout_p=dropout_p)
    if m.dtype.kind != "f":
        raise TypeError(f"scaled_dot_product_attention: attn_mask must be bool or float, got {m.dtype}")
    # an additive float mask: composed from ops (the fused attention takes boolean masks only)
    scale = 1.0 / np.sqrt(query.shape[-1]) if scale is None else scale
    scores = (query @ key.transpose(-2, -1)) * scale + attn_mask
    weights = dropout(softmax(scores, -1), dropout_p) if dropout_p > 0 else softmax(scores, -1)
    return weights @ value


def one_hot(tensor: Any, num_classes: int = -1) -> Tensor:
    """int64 (..., num_classes) with a 1 at each id of ``tensor`` (...); num_classes=-1 means
    max id + 1."""
    ids = np.asarray(tensor.data if isinstance(tensor, Tensor) else tensor)
    if ids.dtype.kind not in "iu":
        raise TypeError(f"one_hot: needs integer ids, got dtype {ids.dtype}")
    n = (int(ids.max()) + 1 if ids.size else 0) if num_classes == -1 else int(num_classes)
    if ids.size and (ids.min() < 0 or ids.max() >= n):
        raise ValueError(f"one_hot: ids must lie in [0, {n}), got [{ids.min()}, {ids.max()}]")
    return Tensor((ids[..., None] == np.arange(n)).astype(np.int64))


def pad(input: Tensor, pad: Any, mode: str = "constant", value: float = 0.0) -> Tensor:
    """Pad the last dims, as PyTorch: ``pad = (left, right)`` for the last dim, then
    ``(left, right, top, bottom)`` adds the second-to-last, and so on; negative amounts crop.
    Only ``mode="constant"``."""
    if mode != "constant":
        raise NotImplementedError(f"pad: only mode='constant' is supported, got {mode!r}")
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2 or len(pad) // 2 > input.ndim:
        raise ValueError(f"pad: needs pairs for at most {input.ndim} dims, got {pad}")
    out = input
    for i in range(len(pad) // 2):
        d, (lo, hi) = input.ndim - 1 - i, pad[2 * i: 2 * i + 2]
        n = out.shape[d]
        idx = [slice(None)] * out.ndim
        idx[d] = slice(max(-lo, 0), n - max(-hi, 0))  # negative padding crops
        out = out[tuple(idx)]
        parts = []
        for k in (lo, hi):
            shape = list(out.shape)
            shape[d] = max(k, 0)
            parts.append(full(shape, value, dtype=input.dtype))
        out = cat([parts[0], out, parts[1]], dim=d)
    return out


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Tensor:
    """input / max(||input||_p along dim, eps)."""
    return input / input.norm(p, dim, keepdim=True).clamp(min=eps)


__all__ = [
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "cross_entropy",
    "dropout",
    "elu",
    "embedding",
    "gelu",
    "l1_loss",
    "layer_norm",
    "leaky_relu",
    "linear",
    "log_softmax",
    "mse_loss",
    "nll_loss",
    "normalize",
    "one_hot",
    "pad",
    "relu",
    "rms_norm",
    "scaled_dot_product_attention",
    "sigmoid",
    "silu",
    "softmax",
    "softplus",
    "tanh",
]

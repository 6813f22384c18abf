"""Functional forms of the layers (``from minigrad.nn import functional as F``), as in PyTorch.

Each function is stateless: weights are passed in. The layer modules call
these, and each is defined beside its layer (e.g. ``layer_norm`` in
``nn/layernorm.py``); this module gathers the names, plus a few small functions of its own
(``one_hot``, ``pad``, ``normalize``). ``scaled_dot_product_attention`` is defined
beside ``MultiHeadAttention`` in ``nn/attention.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.ops.shape_ops import cat
from minigrad.tensor import Tensor, full

from .activation import (
    celu,
    elu,
    gelu,
    leaky_relu,
    log_softmax,
    relu,
    selu,
    sigmoid,
    silu,
    softmax,
    softplus,
    tanh,
)
from .activation_hard import hardsigmoid, hardswish, hardtanh, relu6
from .activation_shrink import hardshrink, prelu, softshrink, tanhshrink, threshold
from .activation_smooth import glu, logsigmoid, mish, softmin, softsign
from .attention import scaled_dot_product_attention
from .bilinear import bilinear
from .dropout import dropout
from .embedding import embedding
from .layernorm import layer_norm
from .linear import gelu_linear, linear
from .loss import cross_entropy, linear_cross_entropy, nll_loss
from .margin_loss import (
    cosine_embedding_loss,
    hinge_embedding_loss,
    margin_ranking_loss,
    multilabel_margin_loss,
    multilabel_soft_margin_loss,
    soft_margin_loss,
)
from .normalization import rms_norm
from .pointwise_loss import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    l1_loss,
    mse_loss,
)
from .regression_loss import (
    gaussian_nll_loss,
    huber_loss,
    kl_div,
    poisson_nll_loss,
    smooth_l1_loss,
)
from .triplet_loss import (
    multi_margin_loss,
    pairwise_distance,
    triplet_margin_loss,
    triplet_margin_with_distance_loss,
)


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

    ``mode``: "constant" fills with ``value``; the others read the input, so each padded
    dim is a gather of the source positions j in [-left, n + right): "replicate" reads
    clip(j, 0, n - 1), "reflect" mirrors without repeating the edge (pad < n), "circular"
    wraps, j mod n (pad <= n; negative amounts crop first). A gather's gradient adds back
    to where it read (index_add).
    """
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise ValueError(f"pad: mode must be 'constant', 'reflect', 'replicate' or 'circular', "
                         f"got {mode!r}")
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2 or len(pad) // 2 > input.ndim:
        raise ValueError(f"pad: needs pairs for at most {input.ndim} dims, got {pad}")
    out = input
    for i in range(len(pad) // 2):
        d, (lo, hi) = input.ndim - 1 - i, pad[2 * i: 2 * i + 2]
        if mode != "constant":
            out = out.index_select(d, _pad_source(out.shape[d], lo, hi, mode))
            continue
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


def _pad_source(n: int, lo: int, hi: int, mode: str) -> np.ndarray:
    """The source index of each output position along one padded dim of size ``n``."""
    j = np.arange(-lo, n + hi)
    if mode == "replicate":
        if n == 0 and j.size:
            raise ValueError("pad: 'replicate' needs a non-empty dim to copy from")
        return np.clip(j, 0, n - 1)
    if mode == "circular":  # crop first, then wrap around what is left, as PyTorch
        start, stop = max(-lo, 0), n - max(-hi, 0)
        if max(lo, hi) > stop - start:
            raise ValueError(f"pad: 'circular' padding ({lo}, {hi}) exceeds the dim's size {n}")
        k = np.arange(-max(lo, 0), stop - start + max(hi, 0))
        return start + k % (stop - start) if stop > start else k
    if max(lo, hi) >= n:
        raise ValueError(f"pad: 'reflect' padding ({lo}, {hi}) must be smaller than the dim's "
                         f"size {n}")
    period = 2 * (n - 1)
    m = j % period if period else np.zeros_like(j)
    return np.where(m < n, m, period - m)


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Tensor:
    """input / max(||input||_p along dim, eps)."""
    return input / input.norm(p, dim, keepdim=True).clamp(min=eps)


__all__ = [
    "bilinear",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "celu",
    "cosine_embedding_loss",
    "cross_entropy",
    "dropout",
    "elu",
    "embedding",
    "gaussian_nll_loss",
    "gelu",
    "gelu_linear",
    "glu",
    "hardshrink",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "hinge_embedding_loss",
    "huber_loss",
    "kl_div",
    "l1_loss",
    "layer_norm",
    "leaky_relu",
    "linear",
    "linear_cross_entropy",
    "log_softmax",
    "logsigmoid",
    "margin_ranking_loss",
    "mish",
    "mse_loss",
    "multi_margin_loss",
    "multilabel_margin_loss",
    "multilabel_soft_margin_loss",
    "nll_loss",
    "normalize",
    "one_hot",
    "pad",
    "pairwise_distance",
    "poisson_nll_loss",
    "prelu",
    "relu",
    "relu6",
    "rms_norm",
    "scaled_dot_product_attention",
    "selu",
    "sigmoid",
    "silu",
    "smooth_l1_loss",
    "soft_margin_loss",
    "softmax",
    "softmin",
    "softplus",
    "softshrink",
    "softsign",
    "tanh",
    "tanhshrink",
    "threshold",
    "triplet_margin_loss",
    "triplet_margin_with_distance_loss",
]

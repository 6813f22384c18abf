"""Functional forms of the layers (``from minigrad.nn import functional as F``), as in PyTorch.

Each function is stateless: weights are passed in. The layer modules call
these, and each is defined beside its layer (e.g. ``layer_norm`` in
``nn/layernorm.py``); this module gathers the names, plus a few small functions of its own
(``one_hot``, ``normalize``). ``scaled_dot_product_attention`` is defined
beside ``MultiHeadAttention`` in ``nn/attention.py``, ``pad`` beside the padding layers in
``nn/padding.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.tensor import Tensor

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
from .adaptive_pooling import (
    adaptive_avg_pool1d,
    adaptive_avg_pool2d,
    adaptive_avg_pool3d,
    adaptive_max_pool1d,
    adaptive_max_pool2d,
    adaptive_max_pool3d,
)
from .attention import scaled_dot_product_attention
from .batchnorm import batch_norm
from .bilinear import bilinear
from .conv import (
    conv1d,
    conv2d,
    conv3d,
    conv_transpose1d,
    conv_transpose2d,
    conv_transpose3d,
)
from .ctc_loss import ctc_loss
from .dropout import dropout
from .embedding import embedding
from .fold import fold, unfold
from .fractional_pooling import fractional_max_pool2d, fractional_max_pool3d
from .groupnorm import group_norm
from .instancenorm import instance_norm
from .layernorm import layer_norm
from .linear import gelu_linear, linear
from .local_response_norm import local_response_norm
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
from .padding import pad
from .pointwise_loss import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    l1_loss,
    mse_loss,
)
from .pooling import (
    avg_pool1d,
    avg_pool2d,
    avg_pool3d,
    lp_pool1d,
    lp_pool2d,
    lp_pool3d,
    max_pool1d,
    max_pool2d,
    max_pool3d,
    max_unpool1d,
    max_unpool2d,
    max_unpool3d,
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


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Tensor:
    """input / max(||input||_p along dim, eps)."""
    return input / input.norm(p, dim, keepdim=True).clamp(min=eps)


__all__ = [
    "adaptive_avg_pool1d",
    "adaptive_avg_pool2d",
    "adaptive_avg_pool3d",
    "adaptive_max_pool1d",
    "adaptive_max_pool2d",
    "adaptive_max_pool3d",
    "avg_pool1d",
    "avg_pool2d",
    "avg_pool3d",
    "batch_norm",
    "bilinear",
    "binary_cross_entropy",
    "binary_cross_entropy_with_logits",
    "celu",
    "conv1d",
    "conv2d",
    "conv3d",
    "conv_transpose1d",
    "conv_transpose2d",
    "conv_transpose3d",
    "cosine_embedding_loss",
    "cross_entropy",
    "ctc_loss",
    "dropout",
    "elu",
    "embedding",
    "fold",
    "fractional_max_pool2d",
    "fractional_max_pool3d",
    "gaussian_nll_loss",
    "gelu",
    "gelu_linear",
    "glu",
    "group_norm",
    "hardshrink",
    "hardsigmoid",
    "hardswish",
    "hardtanh",
    "hinge_embedding_loss",
    "huber_loss",
    "instance_norm",
    "kl_div",
    "l1_loss",
    "layer_norm",
    "leaky_relu",
    "linear",
    "linear_cross_entropy",
    "local_response_norm",
    "log_softmax",
    "logsigmoid",
    "lp_pool1d",
    "lp_pool2d",
    "lp_pool3d",
    "margin_ranking_loss",
    "max_pool1d",
    "max_pool2d",
    "max_pool3d",
    "max_unpool1d",
    "max_unpool2d",
    "max_unpool3d",
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
    "unfold",
]

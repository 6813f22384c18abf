"""Functional forms of the layers (``from minigrad.nn import functional as F``), as in PyTorch.

Each function is stateless: weights are passed in. The layer modules call
these, and each is defined beside its layer (e.g. ``layer_norm`` in
``nn/layernorm.py``); this module only gathers the names.
"""

from .activation import gelu, log_softmax, relu, softmax
from .attention import scaled_dot_product_attention
from .dropout import dropout
from .embedding import embedding
from .layernorm import layer_norm
from .linear import linear
from .loss import cross_entropy

__all__ = [
    "cross_entropy",
    "dropout",
    "embedding",
    "gelu",
    "layer_norm",
    "linear",
    "log_softmax",
    "relu",
    "scaled_dot_product_attention",
    "softmax",
]

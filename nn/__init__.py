"""nn: a PyTorch-shaped neural-network library on minigrad.

>>> import minigrad as mg
>>> from minigrad import nn
>>> layer = nn.Linear(4, 2)
>>> layer(mg.randn(3, 4)).shape
(3, 2)

Layers are :class:`Module` subclasses holding :class:`Parameter` weights;
``nn.functional`` (``from minigrad.nn import functional as F``) has the stateless forms.
"""

from . import functional
from .activation import GELU, ReLU
from .attention import MultiHeadAttention
from .dropout import Dropout
from .embedding import Embedding
from .layernorm import LayerNorm
from .linear import Linear
from .loss import CrossEntropyLoss
from .module import Module, ModuleList, Parameter, Sequential
from .positional import PositionalEncoding

__all__ = [
    "GELU",
    "CrossEntropyLoss",
    "Dropout",
    "Embedding",
    "LayerNorm",
    "Linear",
    "Module",
    "ModuleList",
    "MultiHeadAttention",
    "Parameter",
    "PositionalEncoding",
    "ReLU",
    "Sequential",
    "functional",
]

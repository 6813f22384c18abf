"""nn: a PyTorch-shaped neural-network library on minigrad.

>>> import minigrad as mg
>>> from minigrad import nn
>>> layer = nn.Linear(4, 2)
>>> layer(mg.randn(3, 4)).shape
(3, 2)

Layers are :class:`Module` subclasses holding :class:`Parameter` weights;
``nn.functional`` (``from minigrad.nn import functional as F``) has the stateless forms.
"""

if __name__ != "minigrad.nn":  # the repository's folder imported as top-level ``nn``: one copy
    from minigrad._repo_root import become_installed

    become_installed(__name__, "minigrad.nn")


from . import functional, init, utils
from .activation import (
    CELU,
    ELU,
    GELU,
    SELU,
    Flatten,
    Identity,
    LeakyReLU,
    ReLU,
    Sigmoid,
    SiLU,
    Softmax,
    Tanh,
)
from .activation_hard import Hardsigmoid, Hardswish, Hardtanh, ReLU6
from .activation_smooth import GLU, LogSigmoid, Mish, Softmin, Softsign
from .attention import MultiHeadAttention
from .containers import ModuleDict, ParameterList
from .dropout import Dropout
from .embedding import Embedding
from .layernorm import LayerNorm
from .linear import Linear
from .loss import CrossEntropyLoss
from .module import Module, ModuleList, Parameter, Sequential
from .multihead_attention import MultiheadAttention
from .normalization import RMSNorm
from .pointwise_loss import BCELoss, BCEWithLogitsLoss, L1Loss, MSELoss, NLLLoss
from .positional import PositionalEncoding
from .transformer import (
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)

__all__ = [
    "CELU",
    "ELU",
    "GELU",
    "GLU",
    "SELU",
    "BCELoss",
    "BCEWithLogitsLoss",
    "CrossEntropyLoss",
    "Dropout",
    "Embedding",
    "Flatten",
    "Hardsigmoid",
    "Hardswish",
    "Hardtanh",
    "Identity",
    "L1Loss",
    "LayerNorm",
    "LeakyReLU",
    "Linear",
    "LogSigmoid",
    "MSELoss",
    "Mish",
    "Module",
    "ModuleDict",
    "ModuleList",
    "MultiHeadAttention",
    "MultiheadAttention",
    "NLLLoss",
    "Parameter",
    "ParameterList",
    "PositionalEncoding",
    "RMSNorm",
    "ReLU",
    "ReLU6",
    "Sequential",
    "SiLU",
    "Sigmoid",
    "Softmax",
    "Softmin",
    "Softsign",
    "Tanh",
    "Transformer",
    "TransformerDecoder",
    "TransformerDecoderLayer",
    "TransformerEncoder",
    "TransformerEncoderLayer",
    "functional",
    "init",
    "utils",
]

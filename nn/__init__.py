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
from .activation_shrink import Hardshrink, PReLU, Softshrink, Tanhshrink, Threshold
from .activation_smooth import (
    GLU,
    LogSigmoid,
    LogSoftmax,
    Mish,
    Softmax2d,
    Softmin,
    Softplus,
    Softsign,
)
from .attention import MultiHeadAttention
from .bilinear import Bilinear
from .containers import ModuleDict, ParameterList
from .dropout import Dropout
from .embedding import Embedding
from .layernorm import LayerNorm
from .linear import Linear
from .loss import CrossEntropyLoss, LinearCrossEntropyLoss
from .margin_loss import (
    CosineEmbeddingLoss,
    HingeEmbeddingLoss,
    MarginRankingLoss,
    MultiLabelMarginLoss,
    MultiLabelSoftMarginLoss,
    SoftMarginLoss,
)
from .module import Module, ModuleList, Parameter, Sequential
from .normalization import RMSNorm
from .pointwise_loss import BCELoss, BCEWithLogitsLoss, L1Loss, MSELoss, NLLLoss
from .positional import PositionalEncoding
from .regression_loss import GaussianNLLLoss, HuberLoss, KLDivLoss, PoissonNLLLoss, SmoothL1Loss
from .triplet_loss import MultiMarginLoss, TripletMarginLoss, TripletMarginWithDistanceLoss

__all__ = [
    "CELU",
    "ELU",
    "GELU",
    "GLU",
    "SELU",
    "BCELoss",
    "BCEWithLogitsLoss",
    "Bilinear",
    "CosineEmbeddingLoss",
    "CrossEntropyLoss",
    "Dropout",
    "Embedding",
    "Flatten",
    "GaussianNLLLoss",
    "Hardshrink",
    "Hardsigmoid",
    "Hardswish",
    "Hardtanh",
    "HingeEmbeddingLoss",
    "HuberLoss",
    "Identity",
    "KLDivLoss",
    "L1Loss",
    "LayerNorm",
    "LeakyReLU",
    "Linear",
    "LinearCrossEntropyLoss",
    "LogSigmoid",
    "LogSoftmax",
    "MSELoss",
    "MarginRankingLoss",
    "Mish",
    "Module",
    "ModuleDict",
    "ModuleList",
    "MultiHeadAttention",
    "MultiLabelMarginLoss",
    "MultiLabelSoftMarginLoss",
    "MultiMarginLoss",
    "NLLLoss",
    "PReLU",
    "Parameter",
    "ParameterList",
    "PoissonNLLLoss",
    "PositionalEncoding",
    "RMSNorm",
    "ReLU",
    "ReLU6",
    "Sequential",
    "SiLU",
    "Sigmoid",
    "SmoothL1Loss",
    "SoftMarginLoss",
    "Softmax",
    "Softmax2d",
    "Softmin",
    "Softplus",
    "Softshrink",
    "Softsign",
    "Tanh",
    "Tanhshrink",
    "Threshold",
    "TripletMarginLoss",
    "TripletMarginWithDistanceLoss",
    "functional",
    "init",
    "utils",
]

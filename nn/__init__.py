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
from .adaptive_pooling import (
    AdaptiveAvgPool1d,
    AdaptiveAvgPool2d,
    AdaptiveAvgPool3d,
    AdaptiveMaxPool1d,
    AdaptiveMaxPool2d,
    AdaptiveMaxPool3d,
)
from .attention import MultiHeadAttention
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from .bilinear import Bilinear
from .containers import ModuleDict, ParameterList
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .ctc_loss import CTCLoss
from .dropout import Dropout
from .embedding import Embedding
from .fold import Fold, Unfold
from .fractional_pooling import FractionalMaxPool2d, FractionalMaxPool3d
from .groupnorm import GroupNorm
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .layernorm import LayerNorm
from .lazy import (
    LazyBatchNorm1d,
    LazyBatchNorm2d,
    LazyBatchNorm3d,
    LazyConv1d,
    LazyConv2d,
    LazyConv3d,
    LazyConvTranspose1d,
    LazyConvTranspose2d,
    LazyConvTranspose3d,
    LazyInstanceNorm1d,
    LazyInstanceNorm2d,
    LazyInstanceNorm3d,
    LazyLinear,
    LazyModuleMixin,
    UninitializedBuffer,
    UninitializedParameter,
)
from .linear import Linear
from .local_response_norm import LocalResponseNorm
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
from .multihead_attention import MultiheadAttention
from .normalization import RMSNorm
from .padding import (
    CircularPad1d,
    CircularPad2d,
    CircularPad3d,
    ConstantPad1d,
    ConstantPad2d,
    ConstantPad3d,
    ReflectionPad1d,
    ReflectionPad2d,
    ReflectionPad3d,
    ReplicationPad1d,
    ReplicationPad2d,
    ReplicationPad3d,
    ZeroPad1d,
    ZeroPad2d,
    ZeroPad3d,
)
from .pointwise_loss import BCELoss, BCEWithLogitsLoss, L1Loss, MSELoss, NLLLoss
from .pooling import (
    AvgPool1d,
    AvgPool2d,
    AvgPool3d,
    LPPool1d,
    LPPool2d,
    LPPool3d,
    MaxPool1d,
    MaxPool2d,
    MaxPool3d,
    MaxUnpool1d,
    MaxUnpool2d,
    MaxUnpool3d,
)
from .positional import PositionalEncoding
from .regression_loss import GaussianNLLLoss, HuberLoss, KLDivLoss, PoissonNLLLoss, SmoothL1Loss
from .rnn import GRU, LSTM, RNN, RNNBase
from .rnn_cells import GRUCell, LSTMCell, RNNCell, RNNCellBase
from .transformer import (
    Transformer,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)
from .triplet_loss import MultiMarginLoss, TripletMarginLoss, TripletMarginWithDistanceLoss
from .unflatten import Unflatten

__all__ = [
    "CELU",
    "ELU",
    "GELU",
    "GLU",
    "GRU",
    "LSTM",
    "RNN",
    "SELU",
    "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d",
    "AdaptiveAvgPool3d",
    "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d",
    "AdaptiveMaxPool3d",
    "AvgPool1d",
    "AvgPool2d",
    "AvgPool3d",
    "BCELoss",
    "BCEWithLogitsLoss",
    "BatchNorm1d",
    "BatchNorm2d",
    "BatchNorm3d",
    "Bilinear",
    "CTCLoss",
    "CircularPad1d",
    "CircularPad2d",
    "CircularPad3d",
    "ConstantPad1d",
    "ConstantPad2d",
    "ConstantPad3d",
    "Conv1d",
    "Conv2d",
    "Conv3d",
    "ConvTranspose1d",
    "ConvTranspose2d",
    "ConvTranspose3d",
    "CosineEmbeddingLoss",
    "CrossEntropyLoss",
    "Dropout",
    "Embedding",
    "Flatten",
    "Fold",
    "FractionalMaxPool2d",
    "FractionalMaxPool3d",
    "GRUCell",
    "GaussianNLLLoss",
    "GroupNorm",
    "Hardshrink",
    "Hardsigmoid",
    "Hardswish",
    "Hardtanh",
    "HingeEmbeddingLoss",
    "HuberLoss",
    "Identity",
    "InstanceNorm1d",
    "InstanceNorm2d",
    "InstanceNorm3d",
    "KLDivLoss",
    "L1Loss",
    "LPPool1d",
    "LPPool2d",
    "LPPool3d",
    "LSTMCell",
    "LayerNorm",
    "LazyBatchNorm1d",
    "LazyBatchNorm2d",
    "LazyBatchNorm3d",
    "LazyConv1d",
    "LazyConv2d",
    "LazyConv3d",
    "LazyConvTranspose1d",
    "LazyConvTranspose2d",
    "LazyConvTranspose3d",
    "LazyInstanceNorm1d",
    "LazyInstanceNorm2d",
    "LazyInstanceNorm3d",
    "LazyLinear",
    "LazyModuleMixin",
    "LeakyReLU",
    "Linear",
    "LinearCrossEntropyLoss",
    "LocalResponseNorm",
    "LogSigmoid",
    "LogSoftmax",
    "MSELoss",
    "MarginRankingLoss",
    "MaxPool1d",
    "MaxPool2d",
    "MaxPool3d",
    "MaxUnpool1d",
    "MaxUnpool2d",
    "MaxUnpool3d",
    "Mish",
    "Module",
    "ModuleDict",
    "ModuleList",
    "MultiHeadAttention",
    "MultiLabelMarginLoss",
    "MultiLabelSoftMarginLoss",
    "MultiMarginLoss",
    "MultiheadAttention",
    "NLLLoss",
    "PReLU",
    "Parameter",
    "ParameterList",
    "PoissonNLLLoss",
    "PositionalEncoding",
    "RMSNorm",
    "RNNBase",
    "RNNCell",
    "RNNCellBase",
    "ReLU",
    "ReLU6",
    "ReflectionPad1d",
    "ReflectionPad2d",
    "ReflectionPad3d",
    "ReplicationPad1d",
    "ReplicationPad2d",
    "ReplicationPad3d",
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
    "Transformer",
    "TransformerDecoder",
    "TransformerDecoderLayer",
    "TransformerEncoder",
    "TransformerEncoderLayer",
    "TripletMarginLoss",
    "TripletMarginWithDistanceLoss",
    "Unflatten",
    "Unfold",
    "UninitializedBuffer",
    "UninitializedParameter",
    "ZeroPad1d",
    "ZeroPad2d",
    "ZeroPad3d",
    "functional",
    "init",
    "utils",
]

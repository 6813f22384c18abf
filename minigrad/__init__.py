"""minigrad: reverse-mode autodiff on NumPy, with Numba kernels for the hot ops.

The ops run on one of two backends (``minigrad/backends/``): ``reference``
(plain NumPy) or ``fast`` (Numba kernels, the default); choose with
``MINIGRAD_BACKEND``, :func:`set_backend` or ``with use_backend(name):``.

>>> import minigrad as mg
>>> x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
>>> (x * x).sum().backward()
>>> x.grad
tensor([2., 4., 6.])
"""

# Importing minigrad changes nothing process-wide: malloc tuning, BLAS threads and
# Numba's threading layer are set when the fast kernels are first used, all in
# minigrad/kernels/runtime/settings.py (ensure_ready).
import numpy as _np

from .backends import get_backend, set_backend, use_backend
from .num_threads import get_num_threads, set_num_threads
from . import cold_start
from .grad_mode import no_grad, enable_grad, set_grad_enabled, is_grad_enabled
from .grad_mode import inference_mode
from .function import Function, Context
from . import dtypes
from .tensor import Tensor, tensor, as_tensor, zeros, ones, full, zeros_like, ones_like, arange
from .tensor import tril, triu, matmul
from .tensor import logical_and, logical_or, logical_xor, logical_not, isnan, isinf, isfinite
from .random import manual_seed, randn, rand, randint, get_rng_state, set_rng_state
from .random import Generator, randn_like, rand_like, randint_like, randperm
from .ops.shape_ops import cat, stack
from .ops.masking import where, causal_mask
from .gradcheck import gradcheck, gradgradcheck, GradcheckError
from . import autograd
from .tensor import Device as device
from .sampling import multinomial
from .functional import (
    einsum, full_like, empty, empty_like, eye, linspace, from_numpy, is_tensor, numel, mean, amax,
    amin, var, std, prod, logsumexp, cumsum, norm, argmax, argmin, exp, log, sqrt, tanh, sigmoid,
    relu, clamp, sin, cos, erf, sign, floor, ceil, trunc, maximum, minimum, remainder,
    floor_divide, add, sub, mul, div, neg, eq, ne, lt, le, gt, ge, reshape, transpose, permute,
    flatten, unflatten, squeeze, unsqueeze, clone, expand, repeat, flip, chunk, gather,
    scatter_add, masked_select, masked_fill, argsort, softmax, log_softmax, index_select, narrow,
    nonzero, bmm, outer, split, sort, topk,
    # issue 27: the everyday elementwise ops
    asin, acos, atan, sinh, cosh, tan, asinh, acosh, atanh, log1p, expm1, log2, log10, exp2,
    rsqrt, reciprocal, square, fmod, atan2, copysign, lerp, isclose,
    cumprod, logcumsumexp, cummax, cummin, scatter, scatter_reduce, repeat_interleave, roll,
    unbind, movedim, moveaxis, tile, broadcast_to, diagonal, diag, hstack, vstack, meshgrid, mm,
    mv, dot, addmm, baddbmm, var_mean, std_mean, allclose,
)
# shadow Python builtins here, so re-exported explicitly and kept out of __all__
from .functional import (
    abs as abs, all as all, any as any, max as max, min as min, pow as pow, round as round,
    sum as sum,
)
from . import optim
from .serialization import save, load
from .safetensors_io import save_safetensors, load_safetensors, safetensors_metadata
from . import viz
from .profiler import profile
from . import testing

# dtypes are NumPy dtype objects: ``x.dtype == minigrad.float32`` and ``x.to(minigrad.long)``
# work, and so do NumPy's own names (np.float32) and strings ("float32").
float32 = _np.dtype("float32")
float64 = _np.dtype("float64")
int64 = _np.dtype("int64")
int32 = _np.dtype("int32")
int16 = _np.dtype("int16")
int8 = _np.dtype("int8")
uint8 = _np.dtype("uint8")
bool = _np.dtype("bool")  # PyTorch's names: they shadow builtins in this namespace only
float = float32
double = float64
long = int64
int = int32
short = int16


# Last, as ``torch.nn`` after ``import torch``: the two libraries built on the names above.
# They import minigrad's modules (minigrad.tensor, minigrad.functional, ...), never this
# package's namespace, so this is no import cycle (tools/check_layout.py checks it).
try:
    from . import models, nn
except ImportError as _e:  # a checkout used without `pip install -e .`
    from ._repo_root import check_installed

    check_installed(_e)

# Names that would shadow Python builtins on ``from minigrad import *`` (sum, max, bool, ...)
# are left out of __all__; they remain attributes: ``minigrad.max(x, 1)``.
__all__ = [
    "Context",
    "Function",
    "Generator",
    "GradcheckError",
    "Tensor",
    "acos",
    "acosh",
    "add",
    "addmm",
    "allclose",
    "amax",
    "amin",
    "arange",
    "argmax",
    "argmin",
    "argsort",
    "as_tensor",
    "asin",
    "asinh",
    "atan",
    "atan2",
    "atanh",
    "autograd",
    "baddbmm",
    "bmm",
    "broadcast_to",
    "cat",
    "causal_mask",
    "ceil",
    "chunk",
    "clamp",
    "clone",
    "cold_start",
    "copysign",
    "cos",
    "cosh",
    "cummax",
    "cummin",
    "cumprod",
    "cumsum",
    "device",
    "diag",
    "diagonal",
    "div",
    "dot",
    "double",
    "dtypes",
    "einsum",
    "empty",
    "empty_like",
    "enable_grad",
    "eq",
    "erf",
    "exp",
    "exp2",
    "expand",
    "expm1",
    "eye",
    "flatten",
    "flip",
    "float32",
    "float64",
    "floor",
    "floor_divide",
    "fmod",
    "from_numpy",
    "full",
    "full_like",
    "gather",
    "ge",
    "get_backend",
    "get_num_threads",
    "get_rng_state",
    "gradcheck",
    "gradgradcheck",
    "gt",
    "hstack",
    "index_select",
    "inference_mode",
    "int8",
    "int16",
    "int32",
    "int64",
    "is_grad_enabled",
    "is_tensor",
    "isclose",
    "isfinite",
    "isinf",
    "isnan",
    "le",
    "lerp",
    "linspace",
    "load",
    "load_safetensors",
    "log",
    "log1p",
    "log2",
    "log10",
    "log_softmax",
    "logcumsumexp",
    "logical_and",
    "logical_not",
    "logical_or",
    "logical_xor",
    "logsumexp",
    "long",
    "lt",
    "manual_seed",
    "masked_fill",
    "masked_select",
    "matmul",
    "maximum",
    "mean",
    "meshgrid",
    "minimum",
    "mm",
    "models",
    "moveaxis",
    "movedim",
    "mul",
    "multinomial",
    "mv",
    "narrow",
    "ne",
    "neg",
    "nn",
    "no_grad",
    "nonzero",
    "norm",
    "numel",
    "ones",
    "ones_like",
    "optim",
    "outer",
    "permute",
    "prod",
    "profile",
    "rand",
    "rand_like",
    "randint",
    "randint_like",
    "randn",
    "randn_like",
    "randperm",
    "reciprocal",
    "relu",
    "remainder",
    "repeat",
    "repeat_interleave",
    "reshape",
    "roll",
    "rsqrt",
    "safetensors_metadata",
    "save",
    "save_safetensors",
    "scatter",
    "scatter_add",
    "scatter_reduce",
    "set_backend",
    "set_grad_enabled",
    "set_num_threads",
    "set_rng_state",
    "short",
    "sigmoid",
    "sign",
    "sin",
    "sinh",
    "softmax",
    "sort",
    "split",
    "sqrt",
    "square",
    "squeeze",
    "stack",
    "std",
    "std_mean",
    "sub",
    "tan",
    "tanh",
    "tensor",
    "testing",
    "tile",
    "topk",
    "transpose",
    "tril",
    "triu",
    "trunc",
    "uint8",
    "unbind",
    "unflatten",
    "unsqueeze",
    "use_backend",
    "var",
    "var_mean",
    "viz",
    "vstack",
    "where",
    "zeros",
    "zeros_like",
]

"""``TensorNamespace``: what ``ctx.xp`` is when an op's backward runs under
``create_graph=True``.

The same names as :class:`~minigrad.backends.array_namespace.ArrayNamespace`, each one
recorded op on minigrad Tensors, so the one backward of every op records a graph of its own when the
engine hands it Tensors (see ``graph_backward.GraphContext``), and that graph can be
differentiated again. Nothing here is a derivative: each line names the op that computes
the same function as its NumPy twin.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..ops.einsum import Einsum
from ..ops.elementwise import Clamp
from ..ops.index_put import IndexPut
from ..ops.indexing import Expand, Flip
from ..ops.masking import MaskedFill, Where
from ..ops.matmul import MatMul
from ..ops.nuclear_norm import PolarFactor, SymSylvester
from ..ops.piecewise import StepFunction
from ..ops.reductions import CumSum
from ..ops.scans import CumProd
from ..ops.scatter import ScatterReduce
from ..ops.shapes import Cast, Cat, GetItem, IndexAdd, Permute, Transpose
from ..ops.unary_math import FUNCTIONS


class TensorNamespace:
    """The Tensor namespace of the derivative rules: NumPy's names, minigrad's recorded ops."""

    @staticmethod
    def constant(x: Any) -> np.ndarray:
        """The values of ``x`` without its graph: for masks and piecewise-constant factors,
        whose derivative is zero (NumPy may not read a graph-carrying Tensor here)."""
        return np.asarray(getattr(x, "data", x))

    @staticmethod
    def masked(x, mask):
        """x where ``mask``, exactly 0 elsewhere, as a recorded op."""
        return Where.apply(x, np.zeros((), x.dtype), cond=np.asarray(mask))

    @staticmethod
    def exp(x):
        return FUNCTIONS["exp"].apply(x)

    @staticmethod
    def log(x):
        return FUNCTIONS["log"].apply(x)

    @staticmethod
    def log1p(x):
        return FUNCTIONS["log1p"].apply(x)

    @staticmethod
    def expm1(x):
        return FUNCTIONS["expm1"].apply(x)

    @staticmethod
    def sinh(x):
        return FUNCTIONS["sinh"].apply(x)

    @staticmethod
    def cosh(x):
        return FUNCTIONS["cosh"].apply(x)

    @staticmethod
    def sin(x):
        return FUNCTIONS["sin"].apply(x)

    @staticmethod
    def cos(x):
        return FUNCTIONS["cos"].apply(x)

    @staticmethod
    def tanh(x):
        return FUNCTIONS["tanh"].apply(x)

    @staticmethod
    def erf(x):
        return FUNCTIONS["erf"].apply(x)

    @staticmethod
    def sign(x):
        return StepFunction.apply(x, name="sign")

    @staticmethod
    def where(cond: Any, a, b):
        return Where.apply(a, b, cond=np.asarray(cond))

    @staticmethod
    def clip(x, lo, hi):
        return Clamp.apply(x, lo=lo, hi=hi)

    @staticmethod
    def swapaxes(x, axis1: int, axis2: int):
        return Transpose.apply(x, dim0=axis1, dim1=axis2)

    @staticmethod
    def permute_dims(x, axes):
        return Permute.apply(x, dims=tuple(int(a) for a in axes))

    @staticmethod
    def broadcast_to(x, shape: tuple):
        return Expand.apply(x, shape=tuple(shape))

    @staticmethod
    def flip(x, axis):
        return Flip.apply(x, dims=axis)

    @staticmethod
    def cumsum(x, axis: int):
        return CumSum.apply(x, axis=axis)

    @staticmethod
    def cumprod(x, axis: int):
        return CumProd.apply(x, axis=axis)

    @staticmethod
    def concatenate(xs, axis: int):
        return Cat.apply(*xs, axis=axis)

    @staticmethod
    def astype(x, dtype):
        return Cast.apply(x, dtype=np.dtype(dtype))

    @staticmethod
    def zeros_like(x):
        """Zeros of x's shape that still depend on x (with derivative 0), so a graph through
        a zero gradient reaches its leaves, as PyTorch's does."""
        return Where.apply(np.zeros((), x.dtype), x, cond=np.ones((), bool))

    @staticmethod
    def einsum(equation: str, *operands):
        return Einsum.apply(*operands, equation=equation)

    @staticmethod
    def matmul(a, b):
        return MatMul.apply(a, b)

    @staticmethod
    def polar_factor(a):
        return PolarFactor.apply(a)

    @staticmethod
    def sym_sylvester(p, y):
        return SymSylvester.apply(p, y)

    @staticmethod
    def masked_fill(x, mask: np.ndarray, value: float):
        return MaskedFill.apply(x, mask=mask, value=value)

    @staticmethod
    def getitem(x, index: Any):
        return GetItem.apply(x, index=index)

    @staticmethod
    def index_add(g, shape: tuple, index: Any):
        return IndexAdd.apply(g, shape=shape, index=index)

    @staticmethod
    def scatter_reduce(x, index: tuple, src, reduce: str, include_self: bool):
        return ScatterReduce.apply(x, src, index=index, reduce=reduce, include_self=include_self)

    @staticmethod
    def index_put(x, index: Any, value: float):
        return IndexPut.apply(x, np.asarray(value, x.dtype), index=index)

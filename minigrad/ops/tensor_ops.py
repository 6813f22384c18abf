"""``TensorOps``: what ``ctx.xp`` is when an op's backward runs under ``create_graph=True``.

The same names as :class:`~minigrad.ops.array_ops.ArrayOps`, each one recorded op on
minigrad Tensors, so the one backward of every op records a graph of its own when the
engine hands it Tensors (see ``graph_backward.GraphContext``), and that graph can be
differentiated again. Nothing here is a derivative: each line names the op that computes
the same function as its NumPy twin.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .einsum import Einsum
from .elementwise import Clamp, Exp, Log
from .index_put import IndexPut
from .indexing import Expand, Flip
from .masking import MaskedFill, Where
from .math_ops import Cos, Sin, StepFunction
from .matmul import MatMul
from .nuclear_norm import PolarFactor, SymSylvester
from .reduce_ops import CumSum
from .scans import CumProd
from .scatter import ScatterReduce
from .shape_ops import Cast, Cat, GetItem, IndexAdd, Permute, Transpose
from .unary_math import UnaryMath


class TensorOps:
    """The Tensor namespace of the derivative rules: NumPy's names, minigrad's recorded ops."""

    @staticmethod
    def constant(x: Any) -> np.ndarray:
        """The values of ``x`` without its graph: for masks and piecewise-constant factors,
        whose derivative is zero (NumPy may not read a graph-carrying Tensor here)."""
        return np.asarray(getattr(x, "data", x))

    @staticmethod
    def exp(x):
        return Exp.apply(x)

    @staticmethod
    def log(x):
        return Log.apply(x)

    @staticmethod
    def log1p(x):
        return UnaryMath.apply(x, name="log1p")

    @staticmethod
    def expm1(x):
        return UnaryMath.apply(x, name="expm1")

    @staticmethod
    def sinh(x):
        return UnaryMath.apply(x, name="sinh")

    @staticmethod
    def cosh(x):
        return UnaryMath.apply(x, name="cosh")

    @staticmethod
    def sin(x):
        return Sin.apply(x)

    @staticmethod
    def cos(x):
        return Cos.apply(x)

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

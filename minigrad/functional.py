"""Module-level forms of Tensor methods and the extra constructors, as in PyTorch:
``minigrad.max(x, 1)`` is ``x.max(1)``, ``minigrad.einsum("ij,jk->ik", a, b)``,
``minigrad.eye(3)``. Each function forwards to the one implementation (a Tensor
method or an op in ``minigrad/ops/``), so there is one way to compute each thing.

Every function is written out (no generated names), grouped as the Tensor methods are.
``sum``, ``max``, ``min``, ``abs``, ``all``, ``any``, ``pow`` and ``round`` shadow Python's
builtins inside this module, as ``torch.sum`` does in ``torch``: the bodies below never need
the builtins.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .dtypes import check_generated_dtype
from .ops import rearrange
from .ops.einsum import einsum as _einsum
from .ops.masking import masked_fill as masked_fill_op
from .tensor import (
    Tensor,
    _fill_value,
    _float_dtype,
    _reduce_args,
    _shape_args,
    check_device,
    tensor,
)


def _as_tensor(x: Any) -> Tensor:
    return x if isinstance(x, Tensor) else tensor(x)


# ---- Reductions (minigrad/ops/reduce_ops.py) -----------------------------------------
def sum(input: Any, dim: Any = None, keepdim: bool | None = None, *, axis: Any = None,
        keepdims: bool | None = None) -> Tensor:
    """``minigrad.sum(x, ...)`` is ``x.sum(...)``: sum over ``dim`` (int, tuple or None for all)."""
    return _as_tensor(input).sum(dim, keepdim, axis=axis, keepdims=keepdims)


def mean(input: Any, dim: Any = None, keepdim: bool | None = None, *, axis: Any = None,
        keepdims: bool | None = None) -> Tensor:
    """``minigrad.mean(x, ...)`` is ``x.mean(...)``: mean over ``dim``."""
    return _as_tensor(input).mean(dim, keepdim, axis=axis, keepdims=keepdims)


def max(input: Any, dim: Any = None, keepdim: bool | None = None, *, axis: Any = None,
        keepdims: bool | None = None) -> Any:
    """``minigrad.max(x, ...)`` is ``x.max(...)``: without ``dim``: the maximum (ties share the
    gradient)."""
    return _as_tensor(input).max(dim, keepdim, axis=axis, keepdims=keepdims)


def min(input: Any, dim: Any = None, keepdim: bool | None = None, *, axis: Any = None,
        keepdims: bool | None = None) -> Any:
    """``minigrad.min(x, ...)`` is ``x.min(...)``: as :meth:`max`, for the minimum."""
    return _as_tensor(input).min(dim, keepdim, axis=axis, keepdims=keepdims)


def amax(input: Any, dim: Any = None, keepdim: bool | None = None, *, axis: Any = None,
        keepdims: bool | None = None) -> Tensor:
    """``minigrad.amax(x, ...)`` is ``x.amax(...)``: maximum over ``dim`` (int or tuple), values
    only."""
    return _as_tensor(input).amax(dim, keepdim, axis=axis, keepdims=keepdims)


def amin(input: Any, dim: Any = None, keepdim: bool | None = None, *, axis: Any = None,
        keepdims: bool | None = None) -> Tensor:
    """``minigrad.amin(x, ...)`` is ``x.amin(...)``: minimum over ``dim`` (int or tuple), values
    only."""
    return _as_tensor(input).amin(dim, keepdim, axis=axis, keepdims=keepdims)


def var(input: Any, dim: Any = None, unbiased: bool | None = None, keepdim: bool | None = None,
        *, correction: int | None = None, axis: Any = None, keepdims: bool | None = None
        ) -> Tensor:
    """``minigrad.var(x, ...)`` is ``x.var(...)``: variance, sum((x - mean)**2) / (N -
    correction); the second positional is ``unbiased``, as ``torch.var(x, 1, False)``."""
    return _as_tensor(input).var(dim, unbiased, keepdim, correction=correction, axis=axis,
                                 keepdims=keepdims)


def std(input: Any, dim: Any = None, unbiased: bool | None = None, keepdim: bool | None = None,
        *, correction: int | None = None, axis: Any = None, keepdims: bool | None = None
        ) -> Tensor:
    """``minigrad.std(x, ...)`` is ``x.std(...)``: standard deviation, sqrt(var) (the
    arguments of :meth:`var`)."""
    return _as_tensor(input).std(dim, unbiased, keepdim, correction=correction, axis=axis,
                                 keepdims=keepdims)


def prod(input: Any, dim: Any = None, keepdim: bool | None = None, *, dtype: Any = None,
         axis: Any = None, keepdims: bool | None = None) -> Tensor:
    """``minigrad.prod(x, ...)`` is ``x.prod(...)``: product over ``dim`` (exact gradient even
    with zeros), computed in ``dtype`` when given."""
    return _as_tensor(input).prod(dim, keepdim, dtype=dtype, axis=axis, keepdims=keepdims)


def logsumexp(input: Any, dim: Any = None, keepdim: bool | None = None, *, axis: Any = None,
        keepdims: bool | None = None) -> Tensor:
    """``minigrad.logsumexp(x, ...)`` is ``x.logsumexp(...)``: log(sum(exp(x))) over ``dim``,
    without overflow."""
    return _as_tensor(input).logsumexp(dim, keepdim, axis=axis, keepdims=keepdims)


def cumsum(input: Any, dim: int, *, dtype: Any = None) -> Tensor:
    """``minigrad.cumsum(x, ...)`` is ``x.cumsum(...)``: running sum along ``dim`` (in
    ``dtype`` when given)."""
    return _as_tensor(input).cumsum(dim, dtype=dtype)


def norm(input: Any, p: Any = 2, dim: Any = None, keepdim: bool = False) -> Tensor:
    """``minigrad.norm(x, ...)`` is ``x.norm(...)``: the p-norm over ``dim`` (all elements by
    default): 2 or "fro", 1, inf, -inf, 0 (count of non-zeros) or any other number; "nuc"
    (the nuclear norm of the matrices over the two dims ``dim``)."""
    return _as_tensor(input).norm(p, dim, keepdim)


def argmax(input: Any, dim: int | None = None, keepdim: bool | None = None, *, axis: Any = None,
        keepdims: bool | None = None) -> Tensor:
    """``minigrad.argmax(x, ...)`` is ``x.argmax(...)``: index of the maximum (an int64 tensor, no
    gradient)."""
    return _as_tensor(input).argmax(dim, keepdim, axis=axis, keepdims=keepdims)


def argmin(input: Any, dim: int | None = None, keepdim: bool | None = None, *, axis: Any = None,
        keepdims: bool | None = None) -> Tensor:
    """``minigrad.argmin(x, ...)`` is ``x.argmin(...)``: index of the minimum (an int64 tensor, no
    gradient)."""
    return _as_tensor(input).argmin(dim, keepdim, axis=axis, keepdims=keepdims)


def any(input: Any, dim: Any = None, keepdim: bool | None = None, *, axis: Any = None,
        keepdims: bool | None = None, out: None = None) -> Tensor:
    """``minigrad.any(x, ...)`` is ``x.any(...)``: true where any element along ``dim`` is nonzero
    (a bool tensor)."""
    return _as_tensor(input).any(dim, keepdim, axis=axis, keepdims=keepdims, out=out)


def all(input: Any, dim: Any = None, keepdim: bool | None = None, *, axis: Any = None,
        keepdims: bool | None = None, out: None = None) -> Tensor:
    """``minigrad.all(x, ...)`` is ``x.all(...)``: true where every element along ``dim`` is
    nonzero (a bool tensor)."""
    return _as_tensor(input).all(dim, keepdim, axis=axis, keepdims=keepdims, out=out)




# ---- Pointwise math (minigrad/ops/elementwise.py, math_ops.py) -----------------------
def exp(input: Any) -> Tensor:
    """``minigrad.exp(x, ...)`` is ``x.exp(...)``: e**x."""
    return _as_tensor(input).exp()


def log(input: Any) -> Tensor:
    """``minigrad.log(x, ...)`` is ``x.log(...)``: natural log."""
    return _as_tensor(input).log()


def sqrt(input: Any) -> Tensor:
    """``minigrad.sqrt(x, ...)`` is ``x.sqrt(...)``: square root."""
    return _as_tensor(input).sqrt()


def tanh(input: Any) -> Tensor:
    """``minigrad.tanh(x, ...)`` is ``x.tanh(...)``: hyperbolic tangent."""
    return _as_tensor(input).tanh()


def sigmoid(input: Any) -> Tensor:
    """``minigrad.sigmoid(x, ...)`` is ``x.sigmoid(...)``: 1 / (1 + e**-x)."""
    return _as_tensor(input).sigmoid()


def relu(input: Any) -> Tensor:
    """``minigrad.relu(x, ...)`` is ``x.relu(...)``: max(x, 0)."""
    return _as_tensor(input).relu()


def abs(input: Any) -> Tensor:
    """``minigrad.abs(x, ...)`` is ``x.abs(...)``: |x| (gradient sign(x), 0 at 0)."""
    return _as_tensor(input).abs()


def clamp(input: Any, min: float | None = None, max: float | None = None) -> Tensor:
    """``minigrad.clamp(x, ...)`` is ``x.clamp(...)``: clip values to [min, max]."""
    return _as_tensor(input).clamp(min, max)


def sin(input: Any) -> Tensor:
    """``minigrad.sin(x, ...)`` is ``x.sin(...)``: sin(x)."""
    return _as_tensor(input).sin()


def cos(input: Any) -> Tensor:
    """``minigrad.cos(x, ...)`` is ``x.cos(...)``: cos(x)."""
    return _as_tensor(input).cos()


def erf(input: Any) -> Tensor:
    """``minigrad.erf(x, ...)`` is ``x.erf(...)``: the error function."""
    return _as_tensor(input).erf()


def sign(input: Any) -> Tensor:
    """``minigrad.sign(x, ...)`` is ``x.sign(...)``: -1, 0 or 1 (gradient 0)."""
    return _as_tensor(input).sign()


def floor(input: Any) -> Tensor:
    """``minigrad.floor(x, ...)`` is ``x.floor(...)``: round down (gradient 0)."""
    return _as_tensor(input).floor()


def ceil(input: Any) -> Tensor:
    """``minigrad.ceil(x, ...)`` is ``x.ceil(...)``: round up (gradient 0)."""
    return _as_tensor(input).ceil()


def round(input: Any, *, decimals: int = 0) -> Tensor:
    """``minigrad.round(x, ...)`` is ``x.round(...)``: round half to even (gradient 0), as
    PyTorch, to ``decimals`` places."""
    return _as_tensor(input).round(decimals=decimals)


def trunc(input: Any) -> Tensor:
    """``minigrad.trunc(x, ...)`` is ``x.trunc(...)``: round toward zero (gradient 0)."""
    return _as_tensor(input).trunc()


def asin(input: Any) -> Tensor:
    """``minigrad.asin(x)`` is ``x.asin()``: arcsin(x)."""
    return _as_tensor(input).asin()


def acos(input: Any) -> Tensor:
    """``minigrad.acos(x)`` is ``x.acos()``: arccos(x)."""
    return _as_tensor(input).acos()


def atan(input: Any) -> Tensor:
    """``minigrad.atan(x)`` is ``x.atan()``: arctan(x)."""
    return _as_tensor(input).atan()


def sinh(input: Any) -> Tensor:
    """``minigrad.sinh(x)`` is ``x.sinh()``: hyperbolic sine."""
    return _as_tensor(input).sinh()


def cosh(input: Any) -> Tensor:
    """``minigrad.cosh(x)`` is ``x.cosh()``: hyperbolic cosine."""
    return _as_tensor(input).cosh()


def tan(input: Any) -> Tensor:
    """``minigrad.tan(x)`` is ``x.tan()``: tangent."""
    return _as_tensor(input).tan()


def asinh(input: Any) -> Tensor:
    """``minigrad.asinh(x)`` is ``x.asinh()``: inverse hyperbolic sine."""
    return _as_tensor(input).asinh()


def acosh(input: Any) -> Tensor:
    """``minigrad.acosh(x)`` is ``x.acosh()``: inverse hyperbolic cosine."""
    return _as_tensor(input).acosh()


def atanh(input: Any) -> Tensor:
    """``minigrad.atanh(x)`` is ``x.atanh()``: inverse hyperbolic tangent."""
    return _as_tensor(input).atanh()


def log1p(input: Any) -> Tensor:
    """``minigrad.log1p(x)`` is ``x.log1p()``: log(1 + x), exact for tiny x."""
    return _as_tensor(input).log1p()


def expm1(input: Any) -> Tensor:
    """``minigrad.expm1(x)`` is ``x.expm1()``: e**x - 1, exact for tiny x."""
    return _as_tensor(input).expm1()


def log2(input: Any) -> Tensor:
    """``minigrad.log2(x)`` is ``x.log2()``: base-2 logarithm."""
    return _as_tensor(input).log2()


def log10(input: Any) -> Tensor:
    """``minigrad.log10(x)`` is ``x.log10()``: base-10 logarithm."""
    return _as_tensor(input).log10()


def exp2(input: Any) -> Tensor:
    """``minigrad.exp2(x)`` is ``x.exp2()``: 2**x."""
    return _as_tensor(input).exp2()


def rsqrt(input: Any) -> Tensor:
    """``minigrad.rsqrt(x)`` is ``x.rsqrt()``: 1 / sqrt(x)."""
    return _as_tensor(input).rsqrt()


def reciprocal(input: Any) -> Tensor:
    """``minigrad.reciprocal(x)`` is ``x.reciprocal()``: 1 / x."""
    return _as_tensor(input).reciprocal()


def square(input: Any) -> Tensor:
    """``minigrad.square(x)`` is ``x.square()``: x ** 2."""
    return _as_tensor(input).square()




# ---- Arithmetic and comparisons of two operands --------------------------------------
def add(input: Any, other: Any, alpha: float = 1) -> Tensor:
    """``minigrad.add(x, ...)`` is ``x.add(...)``: self + alpha * other."""
    return _as_tensor(input).add(other, alpha)


def sub(input: Any, other: Any, alpha: float = 1) -> Tensor:
    """``minigrad.sub(x, ...)`` is ``x.sub(...)``: self - alpha * other."""
    return _as_tensor(input).sub(other, alpha)


def mul(input: Any, other: Any) -> Tensor:
    """``minigrad.mul(x, ...)`` is ``x.mul(...)``: self * other."""
    return _as_tensor(input).mul(other)


def div(input: Any, other: Any, rounding_mode: str | None = None) -> Tensor:
    """``minigrad.div(x, ...)`` is ``x.div(...)``: self / other."""
    return _as_tensor(input).div(other, rounding_mode)


def pow(input: Any, exponent: Any) -> Tensor:
    """``minigrad.pow(x, ...)`` is ``x.pow(...)``: self ** exponent."""
    return _as_tensor(input).pow(exponent)


def neg(input: Any) -> Tensor:
    """``minigrad.neg(x, ...)`` is ``x.neg(...)``: -self."""
    return _as_tensor(input).neg()


def maximum(input: Any, other: Any) -> Tensor:
    """``minigrad.maximum(x, ...)`` is ``x.maximum(...)``: elementwise max(self, other)."""
    return _as_tensor(input).maximum(other)


def minimum(input: Any, other: Any) -> Tensor:
    """``minigrad.minimum(x, ...)`` is ``x.minimum(...)``: elementwise min(self, other)."""
    return _as_tensor(input).minimum(other)


def remainder(input: Any, other: Any) -> Tensor:
    """``minigrad.remainder(x, ...)`` is ``x.remainder(...)``."""
    return _as_tensor(input).remainder(other)


def fmod(input: Any, other: Any) -> Tensor:
    """``minigrad.fmod(x, y)`` is ``x.fmod(y)``: x - trunc(x / y) * y (the sign of x)."""
    return _as_tensor(input).fmod(other)


def atan2(input: Any, other: Any) -> Tensor:
    """``minigrad.atan2(y, x)`` is ``y.atan2(x)``: the angle of the point (x, y)."""
    return _as_tensor(input).atan2(other)


def copysign(input: Any, other: Any) -> Tensor:
    """``minigrad.copysign(x, y)`` is ``x.copysign(y)``: |x| with the sign of y."""
    return _as_tensor(input).copysign(other)


def lerp(input: Any, end: Any, weight: Any) -> Tensor:
    """``minigrad.lerp(x, end, weight)`` is ``x.lerp(end, weight)``: x + weight * (end - x)."""
    return _as_tensor(input).lerp(end, weight)


def isclose(input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Tensor:
    """``minigrad.isclose(x, y)`` is ``x.isclose(y)``: |x - y| <= atol + rtol * |y| (bool)."""
    return _as_tensor(input).isclose(other, rtol, atol, equal_nan)


def allclose(input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    """True when every element has |x - y| <= atol + rtol * |y| (``isclose`` everywhere),
    as ``torch.allclose``."""
    return bool(isclose(input, other, rtol, atol, equal_nan).data.all())


def floor_divide(input: Any, other: Any) -> Tensor:
    """``minigrad.floor_divide(x, ...)`` is ``x.floor_divide(...)``: floor(self / other)."""
    return _as_tensor(input).floor_divide(other)


def eq(input: Any, other: Any) -> Tensor:
    """``minigrad.eq(x, ...)`` is ``x.eq(...)``: self == other elementwise (bool)."""
    return _as_tensor(input).eq(other)


def ne(input: Any, other: Any) -> Tensor:
    """``minigrad.ne(x, ...)`` is ``x.ne(...)``: self != other elementwise (bool)."""
    return _as_tensor(input).ne(other)


def lt(input: Any, other: Any) -> Tensor:
    """``minigrad.lt(x, ...)`` is ``x.lt(...)``: self < other elementwise (bool)."""
    return _as_tensor(input).lt(other)


def le(input: Any, other: Any) -> Tensor:
    """``minigrad.le(x, ...)`` is ``x.le(...)``: self <= other elementwise (bool)."""
    return _as_tensor(input).le(other)


def gt(input: Any, other: Any) -> Tensor:
    """``minigrad.gt(x, ...)`` is ``x.gt(...)``: self > other elementwise (bool)."""
    return _as_tensor(input).gt(other)


def ge(input: Any, other: Any) -> Tensor:
    """``minigrad.ge(x, ...)`` is ``x.ge(...)``: self >= other elementwise (bool)."""
    return _as_tensor(input).ge(other)




# ---- Shapes and copies (minigrad/ops/shape_ops.py, indexing.py) ----------------------
def reshape(input: Any, *shape: Any) -> Tensor:
    """``minigrad.reshape(x, ...)`` is ``x.reshape(...)``: same data, new shape (one dimension may
    be -1)."""
    return _as_tensor(input).reshape(*shape)


def transpose(input: Any, dim0: int = -2, dim1: int = -1) -> Tensor:
    """``minigrad.transpose(x, ...)`` is ``x.transpose(...)``: swap two axes (defaults: the last
    two)."""
    return _as_tensor(input).transpose(dim0, dim1)


def permute(input: Any, *dims: Any) -> Tensor:
    """``minigrad.permute(x, ...)`` is ``x.permute(...)``: reorder all axes."""
    return _as_tensor(input).permute(*dims)


def flatten(input: Any, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """``minigrad.flatten(x, ...)`` is ``x.flatten(...)``: merge dims start_dim..end_dim into one."""
    return _as_tensor(input).flatten(start_dim, end_dim)


def unflatten(input: Any, dim: int, sizes: Any) -> Tensor:
    """``minigrad.unflatten(x, ...)`` is ``x.unflatten(...)``: split dimension ``dim`` into
    ``sizes`` (one may be -1)."""
    return _as_tensor(input).unflatten(dim, sizes)


def squeeze(input: Any, dim: Any = None) -> Tensor:
    """``minigrad.squeeze(x, ...)`` is ``x.squeeze(...)``: remove size-1 axes (all, or only
    those in ``dim``, an int or a tuple)."""
    return _as_tensor(input).squeeze(dim)


def unsqueeze(input: Any, dim: int) -> Tensor:
    """``minigrad.unsqueeze(x, ...)`` is ``x.unsqueeze(...)``: insert a size-1 axis at ``dim``."""
    return _as_tensor(input).unsqueeze(dim)


def clone(input: Any) -> Tensor:
    """``minigrad.clone(x, ...)`` is ``x.clone(...)``: A copy with its own memory, still in the
    graph (gradient flows through)."""
    return _as_tensor(input).clone()


def expand(input: Any, *sizes: Any) -> Tensor:
    """``minigrad.expand(x, ...)`` is ``x.expand(...)``: A broadcast view to ``sizes``."""
    return _as_tensor(input).expand(*sizes)


def repeat(input: Any, *repeats: Any) -> Tensor:
    """``minigrad.repeat(x, ...)`` is ``x.repeat(...)``: tile the tensor ``repeats[d]`` times
    along each dimension d."""
    return _as_tensor(input).repeat(*repeats)


def flip(input: Any, *dims: Any, **kw: Any) -> Tensor:
    """``minigrad.flip(x, ...)`` is ``x.flip(...)``: reverse the order of elements along ``dims``
    (positional or ``dims=``)."""
    return _as_tensor(input).flip(*dims, **kw)


def chunk(input: Any, chunks: int, dim: int = 0) -> tuple:
    """``minigrad.chunk(x, ...)`` is ``x.chunk(...)``: split into ``chunks`` pieces of ceil(n /
    chunks) along ``dim`` (the last may be smaller and there may be fewer pieces, as PyTorch)."""
    return _as_tensor(input).chunk(chunks, dim)


def split(input: Any, split_size: int | list, dim: int | None = None, *, axis: int | None = None) -> tuple:
    """``minigrad.split(x, ...)`` is ``x.split(...)``: chunks of ``split_size`` along ``dim`` (or
    sizes given as a list)."""
    return _as_tensor(input).split(split_size, dim, axis=axis)




# ---- Indexing and selection ----------------------------------------------------------
def gather(input: Any, dim: int, index: Any) -> Tensor:
    """``minigrad.gather(x, ...)`` is ``x.gather(...)``: out[i][j] = self[i][index[i][j]] for
    dim=1 (PyTorch's gather)."""
    return _as_tensor(input).gather(dim, index)


def scatter_add(input: Any, dim: int, index: Any, src: Any) -> Tensor:
    """``minigrad.scatter_add(x, ...)`` is ``x.scatter_add(...)``: A copy of self with
    out[i][index[i][j]] += src[i][j] for dim=1 (PyTorch's scatter_add)."""
    return _as_tensor(input).scatter_add(dim, index, src)


def masked_select(input: Any, mask: Any) -> Tensor:
    """``minigrad.masked_select(x, ...)`` is ``x.masked_select(...)``: the elements where ``mask``
    (broadcast with self) is True, as a 1-d tensor."""
    return _as_tensor(input).masked_select(mask)


def masked_fill(input: Any, mask: Any, value: float) -> Tensor:
    """``minigrad.masked_fill(x, mask, value)``: a copy of x with ``value`` where ``mask`` is
    True; x and the mask broadcast together, as torch.masked_fill (the method
    ``x.masked_fill`` keeps x's shape)."""
    return masked_fill_op(_as_tensor(input), mask, value, broadcast_input=True)


def index_select(input: Any, dim: int, index: Any) -> Tensor:
    """``minigrad.index_select(x, ...)`` is ``x.index_select(...)``: the slices ``index`` (1-d
    ints) along ``dim``, in that order (repeats allowed)."""
    return _as_tensor(input).index_select(dim, index)


def narrow(input: Any, dim: int, start: int, length: int) -> Tensor:
    """``minigrad.narrow(x, ...)`` is ``x.narrow(...)``: the slice [start, start + length) along
    ``dim``."""
    return _as_tensor(input).narrow(dim, start, length)


def nonzero(input: Any, *, as_tuple: bool = False) -> Any:
    """``minigrad.nonzero(x, ...)`` is ``x.nonzero(...)``: (n, ndim) int64 indices of the nonzero
    elements (no gradient), or with ``as_tuple=True`` one 1-d index tensor per dimension."""
    return _as_tensor(input).nonzero(as_tuple=as_tuple)


def sort(input: Any, dim: int = -1, descending: bool = False, *, stable: bool = False) -> Any:
    """``minigrad.sort(x, ...)`` is ``x.sort(...)``: ``(values, indices)`` sorted along ``dim``
    (always stable; ``stable=`` accepted)."""
    return _as_tensor(input).sort(dim, descending, stable=stable)


def argsort(input: Any, dim: int = -1, descending: bool = False, *,
            stable: bool = False) -> Tensor:
    """``minigrad.argsort(x, ...)`` is ``x.argsort(...)``: indices that sort along ``dim``
    (always stable; ``stable=`` accepted)."""
    return _as_tensor(input).argsort(dim, descending, stable=stable)


def topk(input: Any, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:
    """``minigrad.topk(x, ...)`` is ``x.topk(...)``: ``(values, indices)`` of the ``k`` largest
    (or smallest) along ``dim``."""
    return _as_tensor(input).topk(k, dim, largest, sorted)




# ---- Softmax and products ------------------------------------------------------------
def softmax(input: Any, dim: int | None = None, dtype: Any = None, *,
            axis: int | None = None) -> Tensor:
    """``minigrad.softmax(x, ...)`` is ``x.softmax(...)``: exp(x) / sum(exp(x)) along ``dim``
    (Numba kernel), the input cast to ``dtype`` first when given."""
    return _as_tensor(input).softmax(dim, dtype, axis=axis)


def log_softmax(input: Any, dim: int | None = None, dtype: Any = None, *,
                axis: int | None = None) -> Tensor:
    """``minigrad.log_softmax(x, ...)`` is ``x.log_softmax(...)``: x - logsumexp(x) along ``dim``,
    the input cast to ``dtype`` first when given."""
    return _as_tensor(input).log_softmax(dim, dtype, axis=axis)


def bmm(input: Any, other: Tensor) -> Tensor:
    """``minigrad.bmm(x, ...)`` is ``x.bmm(...)``: batched matrix product of (B, n, m) and (B, m,
    p) (``@`` without broadcasting)."""
    return _as_tensor(input).bmm(other)


def outer(input: Any, other: Tensor) -> Tensor:
    """``minigrad.outer(x, ...)`` is ``x.outer(...)``: outer product of two 1-d tensors: out[i, j]
    = self[i] * other[j]."""
    return _as_tensor(input).outer(other)


# ---- Running ops, scatter, diagonals, composed shapes, fixed-rank products -------------
def cumprod(input: Any, dim: int, *, dtype: Any = None) -> Tensor:
    """``minigrad.cumprod(x, ...)`` is ``x.cumprod(...)``: running product along ``dim`` (exact
    gradient with zeros)."""
    return _as_tensor(input).cumprod(dim, dtype=dtype)


def logcumsumexp(input: Any, dim: int) -> Tensor:
    """``minigrad.logcumsumexp(x, ...)`` is ``x.logcumsumexp(...)``: log of the running sum of
    exp along ``dim``."""
    return _as_tensor(input).logcumsumexp(dim)


def cummax(input: Any, dim: int) -> Any:
    """``minigrad.cummax(x, ...)`` is ``x.cummax(...)``: ``(values, indices)`` of the running
    maximum."""
    return _as_tensor(input).cummax(dim)


def cummin(input: Any, dim: int) -> Any:
    """``minigrad.cummin(x, ...)`` is ``x.cummin(...)``: ``(values, indices)`` of the running
    minimum."""
    return _as_tensor(input).cummin(dim)


def scatter(input: Any, dim: int, index: Any, src: Any = None, *, value: Any = None,
            reduce: str | None = None) -> Tensor:
    """``minigrad.scatter(x, ...)`` is ``x.scatter(...)``: a copy with ``src`` (or the number
    ``value``) written at ``index`` along ``dim``."""
    return _as_tensor(input).scatter(dim, index, src, value=value, reduce=reduce)


def scatter_reduce(input: Any, dim: int, index: Any, src: Any, reduce: str, *,
                   include_self: bool = True) -> Tensor:
    """``minigrad.scatter_reduce(x, ...)`` is ``x.scatter_reduce(...)``: sum, prod, mean, amax or
    amin of the values sent to each position."""
    return _as_tensor(input).scatter_reduce(dim, index, src, reduce, include_self=include_self)


def repeat_interleave(input: Any, repeats: Any, dim: int | None = None, *,
                      output_size: int | None = None) -> Tensor:
    """``minigrad.repeat_interleave(x, ...)`` is ``x.repeat_interleave(...)``: each slice repeated
    in place."""
    return _as_tensor(input).repeat_interleave(repeats, dim, output_size=output_size)


def roll(input: Any, shifts: Any, dims: Any = None) -> Tensor:
    """``minigrad.roll(x, ...)`` is ``x.roll(...)``: rotate along ``dims`` (the flattened tensor
    without)."""
    return _as_tensor(input).roll(shifts, dims)


def unbind(input: Any, dim: int = 0) -> tuple:
    """``minigrad.unbind(x, ...)`` is ``x.unbind(...)``: the slices along ``dim`` (views)."""
    return _as_tensor(input).unbind(dim)


def movedim(input: Any, source: Any, destination: Any) -> Tensor:
    """``minigrad.movedim(x, ...)`` is ``x.movedim(...)``: dims moved to new positions (a view)."""
    return _as_tensor(input).movedim(source, destination)


def moveaxis(input: Any, source: Any, destination: Any) -> Tensor:
    """``minigrad.moveaxis`` is :func:`movedim` (PyTorch's alias)."""
    return _as_tensor(input).movedim(source, destination)


def tile(input: Any, dims: Any) -> Tensor:
    """``minigrad.tile(x, ...)`` is ``x.tile(...)``: repeat along each dim."""
    return _as_tensor(input).tile(dims)


def broadcast_to(input: Any, size: Any) -> Tensor:
    """``minigrad.broadcast_to(x, ...)`` is ``x.broadcast_to(...)``: a broadcast view."""
    return _as_tensor(input).broadcast_to(size)


def diagonal(input: Any, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """``minigrad.diagonal(x, ...)`` is ``x.diagonal(...)``: a diagonal over two dims (a view)."""
    return _as_tensor(input).diagonal(offset, dim1, dim2)


def diag(input: Any, diagonal: int = 0) -> Tensor:
    """``minigrad.diag(x, ...)`` is ``x.diag(...)``: vector -> diagonal matrix, matrix -> its
    diagonal."""
    return _as_tensor(input).diag(diagonal)


def hstack(tensors: Any) -> Tensor:
    """Join along dim 1, or dim 0 for 1-d tensors (NumPy's and PyTorch's hstack)."""
    return rearrange.hstack([_as_tensor(t) for t in tensors])


def vstack(tensors: Any) -> Tensor:
    """Join along dim 0, 1-d tensors first made rows (NumPy's and PyTorch's vstack)."""
    return rearrange.vstack([_as_tensor(t) for t in tensors])


def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple:
    """Coordinate grids of 0-d/1-d tensors (given one by one or as one list): ``indexing="ij"``
    (the default, as PyTorch's) puts tensor k's values along dim k, ``"xy"`` swaps the first
    two dims. Each output is a broadcast view."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    return rearrange.meshgrid([_as_tensor(t) for t in tensors],
                              "ij" if indexing is None else indexing)


def mm(input: Any, mat2: Any) -> Tensor:
    """``minigrad.mm(x, ...)`` is ``x.mm(...)``: (n, m) @ (m, p), 2-d only."""
    return _as_tensor(input).mm(mat2)


def mv(input: Any, vec: Any) -> Tensor:
    """``minigrad.mv(x, ...)`` is ``x.mv(...)``: (n, m) @ (m,)."""
    return _as_tensor(input).mv(vec)


def dot(input: Any, other: Any) -> Tensor:
    """``minigrad.dot(x, ...)`` is ``x.dot(...)``: the inner product of two 1-d tensors."""
    return _as_tensor(input).dot(other)


def addmm(input: Any, mat1: Any, mat2: Any, *, beta: float = 1, alpha: float = 1) -> Tensor:
    """``minigrad.addmm(x, ...)`` is ``x.addmm(...)``: beta * x + alpha * (mat1 @ mat2)."""
    return _as_tensor(input).addmm(mat1, mat2, beta=beta, alpha=alpha)


def baddbmm(input: Any, batch1: Any, batch2: Any, *, beta: float = 1,
            alpha: float = 1) -> Tensor:
    """``minigrad.baddbmm(x, ...)`` is ``x.baddbmm(...)``: beta * x + alpha * (batch1 @ batch2)."""
    return _as_tensor(input).baddbmm(batch1, batch2, beta=beta, alpha=alpha)


def var_mean(input: Any, dim: Any = None, unbiased: bool | None = None,
             keepdim: bool | None = None, *, correction: Any = None, axis: Any = None,
             keepdims: bool | None = None) -> tuple:
    """``(var, mean)`` over ``dim`` in one call, with PyTorch's arguments (those of
    :meth:`Tensor.var`: the third positional is ``unbiased``, as ``torch.var_mean(x, 1,
    True)``; ``correction`` defaults to 1; NumPy's ``axis``/``keepdims`` spellings too)."""
    return _stat_and_mean("var", input, dim, unbiased, keepdim, correction, axis, keepdims)


def std_mean(input: Any, dim: Any = None, unbiased: bool | None = None,
             keepdim: bool | None = None, *, correction: Any = None, axis: Any = None,
             keepdims: bool | None = None) -> tuple:
    """``(std, mean)`` over ``dim`` (the arguments of :func:`var_mean`)."""
    return _stat_and_mean("std", input, dim, unbiased, keepdim, correction, axis, keepdims)


def _stat_and_mean(stat: str, input: Any, dim: Any, unbiased: Any, keepdim: Any,
                   correction: Any, axis: Any, keepdims: Any) -> tuple:
    x = _as_tensor(input)
    d, k = _reduce_args(f"{stat}_mean", dim, keepdim, axis, keepdims)
    mean_dim = None if isinstance(d, (bool, np.bool_)) else d  # var_mean(x, False)
    return getattr(x, stat)(d, unbiased, k, correction=correction), x.mean(mean_dim, k)


# ---- Functions without a Tensor method -------------------------------------------------
def einsum(equation: str, *operands: Any) -> Tensor:
    """Einstein summation, e.g. ``einsum("bij,bjk->bik", a, b)``, diagonals included
    (``einsum("ii->i", a)``; see ``ops/einsum.py``); operands may also be given as one list."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return _einsum(equation, *[_as_tensor(o) for o in operands])


def full_like(t: Tensor, fill_value: float, dtype: Any = None, *, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    """``fill_value`` with the shape (and dtype) of ``t``, converted as :func:`full`'s."""
    check_device(device)
    return Tensor(np.full(t.shape, _fill_value(fill_value, t.dtype if dtype is None else dtype)),
                  requires_grad=requires_grad)


def empty(*shape: Any, dtype: Any = None, requires_grad: bool = False,
          device: Any = None) -> Tensor:
    """An uninitialised tensor in PyTorch; zeros here (never-read garbage helps no learner)."""
    check_device(device)
    return Tensor(np.zeros(_shape_args(shape), _float_dtype(dtype)), requires_grad=requires_grad)


def empty_like(t: Tensor, dtype: Any = None, *, device: Any = None,
               requires_grad: bool = False) -> Tensor:
    """Zeros with the shape (and dtype) of ``t`` (see :func:`empty`)."""
    check_device(device)
    return Tensor(np.zeros(t.shape, t.dtype if dtype is None else dtype),
                  requires_grad=requires_grad)


def eye(n: int, m: int | None = None, dtype: Any = None, requires_grad: bool = False, *,
        device: Any = None) -> Tensor:
    """The (n, m) identity matrix (m defaults to n)."""
    check_device(device)
    return Tensor(np.eye(n, m, dtype=_float_dtype(dtype)), requires_grad=requires_grad)


def linspace(start: float, end: float, steps: int, dtype: Any = None,
             requires_grad: bool = False, *, device: Any = None) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive, computed in float64
    (0-d tensors as start/end too) and rounded once to ``dtype``; an integer ``dtype``
    truncates start and end to integers first, as PyTorch."""
    check_device(device)
    dt = check_generated_dtype(_float_dtype(dtype), "linspace", "iuf")
    start, end = float(np.asarray(getattr(start, "data", start))), float(
        np.asarray(getattr(end, "data", end)))
    if dt.kind in "iu":
        start, end = float(int(start)), float(int(end))
    arr = np.linspace(start, end, steps).astype(dt)
    return Tensor(arr, requires_grad=requires_grad)


def from_numpy(arr: np.ndarray) -> Tensor:
    """A tensor sharing memory with ``arr`` (its dtype kept), as ``torch.from_numpy``."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"from_numpy: expected an ndarray, got {type(arr).__name__}")
    return Tensor(arr)


def is_tensor(x: Any) -> bool:
    """True for a minigrad Tensor."""
    return isinstance(x, Tensor)


def numel(t: Tensor) -> int:
    """Number of elements of ``t``."""
    return t.numel()

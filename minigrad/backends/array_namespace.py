"""``ArrayNamespace``: what ``ctx.xp`` is when an op's backward runs on arrays (every ordinary
``loss.backward()``): NumPy, and the active backend for the primitives a kernel speeds up.

Each op's backward is written once, in operations that NumPy arrays and minigrad Tensors
spell alike (``+ - * / **``, ``@``, ``.sum``, ``.reshape``, ``[index]``). For the few
functions they spell differently, a backward calls ``ctx.xp.NAME``: this class on the plain
path, :class:`~minigrad.backends.tensor_namespace.TensorNamespace` (the same names, each a
recorded op) under ``create_graph=True``. So the plain path does array work only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import special

from .. import backends
from ..grad_buffers import SliceGrad
from ..ops.matrix_functions import polar_factor, sym_sylvester


def _is_basic(index: Any) -> bool:
    """True for an index of ints, slices, None and Ellipsis only (a view, no gather)."""
    parts = index if isinstance(index, tuple) else (index,)
    return all(isinstance(p, (int, np.integer, slice)) or p is None or p is Ellipsis for p in parts)


def scatter_to(shape: tuple, index: Any, g: np.ndarray) -> np.ndarray:
    """zeros(shape) with ``g`` added at ``index`` (repeated indices add up)."""
    out = np.zeros(shape, dtype=g.dtype)
    if _is_basic(index):
        out[index] = g
    else:
        np.add.at(out, index, g)
    return out


_REDUCE_UFUNCS = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum,
                  "amin": np.minimum}


def _reduce_identity(reduce: str, dtype: np.dtype) -> Any:
    """The value a scattered position starts from when the tensor's own value is left out."""
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if dtype.kind == "f":
        return -np.inf if reduce == "amax" else np.inf
    if dtype.kind == "b":
        return reduce == "amin"
    info = np.iinfo(dtype)
    return info.min if reduce == "amax" else info.max


def scatter_counts(shape: tuple, index: tuple) -> np.ndarray:
    """How many values ``index`` (a NumPy fancy index) sends to each position of ``shape``."""
    counts = np.zeros(shape, dtype=np.int64)
    np.add.at(counts, index, 1)
    return counts


def scatter_reduce_arrays(a: np.ndarray, index: tuple, src: np.ndarray, reduce: str,
                          include_self: bool) -> np.ndarray:
    """PyTorch's scatter_reduce on arrays: each position of ``a`` that ``index`` names is
    reduced (sum, prod, mean, amax, amin) with the ``src`` values sent to it, and with its own
    value when ``include_self``; positions no index names keep ``a``. ``index`` is a NumPy
    fancy index of ``src``'s shape. An integer mean rounds down, as PyTorch's."""
    out = a.copy()
    counts = scatter_counts(a.shape, index)
    hit = counts > 0
    if not include_self:
        out[hit] = _reduce_identity(reduce, a.dtype)
    _REDUCE_UFUNCS[reduce].at(out, index, src)
    if reduce == "mean":
        n = np.where(hit, counts + int(include_self), 1).astype(a.dtype)
        out = out / n if a.dtype.kind == "f" else out // n
    return out


class ArrayNamespace:
    """The array namespace of the derivative rules (NumPy's names and meanings)."""

    exp = staticmethod(np.exp)
    log = staticmethod(np.log)
    log1p = staticmethod(np.log1p)
    expm1 = staticmethod(np.expm1)
    sinh = staticmethod(np.sinh)
    cosh = staticmethod(np.cosh)
    sin = staticmethod(np.sin)
    cos = staticmethod(np.cos)
    tanh = staticmethod(np.tanh)
    erf = staticmethod(special.erf)
    sign = staticmethod(np.sign)
    where = staticmethod(np.where)              # where(cond, a, b), cond a bool array
    clip = staticmethod(np.clip)                # clip(x, lo, hi), None = no bound
    swapaxes = staticmethod(np.swapaxes)        # swapaxes(x, axis1, axis2)
    permute_dims = staticmethod(np.transpose)   # permute_dims(x, axes) (NumPy 2's name)
    broadcast_to = staticmethod(np.broadcast_to)
    flip = staticmethod(np.flip)                # flip(x, axis)
    cumsum = staticmethod(np.cumsum)            # cumsum(x, axis)
    cumprod = staticmethod(np.cumprod)          # cumprod(x, axis)
    concatenate = staticmethod(np.concatenate)  # concatenate(xs, axis)
    zeros_like = staticmethod(np.zeros_like)
    polar_factor = staticmethod(polar_factor)    # U @ Vh of the reduced SVD (nuclear norm)
    sym_sylvester = staticmethod(sym_sylvester)  # X with S X + X S = Y, S symmetric

    @staticmethod
    def constant(x: Any) -> np.ndarray:
        """The values of ``x`` as an array with no derivative: for masks and piecewise-constant
        factors (which side of a kink, where a maximum is), whose derivative is zero."""
        return np.asarray(x)

    @staticmethod
    def masked(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """x where ``mask``, exactly 0 elsewhere (an infinite x there gives 0, not NaN): a
        product with the mask, which NumPy runs several times faster than ``where`` on an
        unpredictable mask, repaired in the rare case that x holds an infinity or NaN."""
        with np.errstate(invalid="ignore"):
            out = x * mask
        if not np.isfinite(out).all():
            out[~np.broadcast_to(mask, out.shape)] = 0
        return out

    @staticmethod
    def astype(x: np.ndarray, dtype) -> np.ndarray:
        """x cast to ``dtype`` (a copy), NumPy 2's ``np.astype``."""
        return x.astype(dtype)

    @staticmethod
    def einsum(equation: str, *operands: np.ndarray) -> np.ndarray:
        """np.einsum, always an array (never a NumPy scalar)."""
        return np.asarray(np.einsum(equation, *operands))

    @staticmethod
    def matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """a @ b with batch broadcasting: the active backend's primitive."""
        return backends.active.matmul(a, b)

    @staticmethod
    def masked_fill(x: np.ndarray, mask: np.ndarray, value: float) -> np.ndarray:
        """A copy of x with ``value`` where the bool ``mask`` (broadcast to x) is True."""
        return backends.active.masked_fill(x, mask, value)

    @staticmethod
    def getitem(x: np.ndarray, index: Any) -> np.ndarray:
        """x[index], always an array (an integer index gives a 0-d array, not a scalar)."""
        return np.asarray(x[index])

    @staticmethod
    def index_add(g: np.ndarray, shape: tuple, index: Any) -> np.ndarray | SliceGrad:
        """zeros(shape) with g added at ``index`` (repeats add up): the adjoint of getitem.
        A basic index (a slice) gives a :class:`SliceGrad`, which the engine adds in place;
        a backward returns it as it is."""
        return SliceGrad(shape, index, g) if _is_basic(index) else scatter_to(shape, index, g)

    @staticmethod
    def scatter_reduce(x: np.ndarray, index: tuple, src: np.ndarray, reduce: str,
                       include_self: bool) -> np.ndarray:
        """PyTorch's scatter_reduce with a prepared fancy ``index`` (see scatter_reduce_arrays)."""
        return scatter_reduce_arrays(x, index, src, reduce, include_self)

    @staticmethod
    def index_put(x: np.ndarray, index: Any, value: float) -> np.ndarray:
        """A copy of x with x[index] = value (a 0-d x may arrive as a NumPy scalar)."""
        out = np.array(x, copy=True)
        out[index] = value
        return out

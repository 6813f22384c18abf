"""``ArrayOps``: what ``ctx.xp`` is when an op's backward runs on arrays (every ordinary
``loss.backward()``): NumPy, and the active backend for the primitives a kernel speeds up.

Each op's backward is written once, in operations that NumPy arrays and minigrad Tensors
spell alike (``+ - * / **``, ``@``, ``.sum``, ``.reshape``, ``[index]``). For the few
functions they spell differently, a backward calls ``ctx.xp.NAME``: this class on the plain
path, :class:`~minigrad.ops.tensor_ops.TensorOps` (the same names, each a recorded op) under
``create_graph=True``. So the plain path does exactly the array work it always did.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import backends
from .matrix_functions import polar_factor, sym_sylvester


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


class SliceGrad:
    """The gradient of slices of one tensor: ``zeros(shape)`` with each part's ``g`` added at
    its basic ``index``, kept as (shape, parts) until it is needed.

    q, k and v are three slices of one (B, T, 3C) product: built eagerly, their gradients
    would be three zero-filled (B, T, 3C) arrays summed into a fourth. The engine instead
    collects the parts (:meth:`plus`) and builds the whole once (:meth:`materialize`):
    when the parts tile the array, as q|k|v do, each is written into an uninitialised
    array, which is what concatenating them costs, or, when the backward that made them
    already wrote them into one array at their places (the fast attention's), that array is
    the whole; otherwise they are added into zeros.
    :meth:`add_to` adds them into an existing buffer. ``np.asarray`` gives the full array.
    """

    __slots__ = ("parts", "shape")

    def __init__(self, shape: tuple, index: Any = None, g: np.ndarray | None = None, *,
                 parts: tuple = ()) -> None:
        self.shape = tuple(shape)
        self.parts = parts if g is None else ((index, g),)

    @property
    def dtype(self) -> np.dtype:
        return self.parts[0][1].dtype

    def astype(self, dtype: Any) -> SliceGrad:
        """The same slice gradient with every part cast to ``dtype``."""
        return SliceGrad(self.shape, parts=tuple((i, g.astype(dtype)) for i, g in self.parts))

    def plus(self, other: Any) -> SliceGrad | np.ndarray:
        """The sum of two slice gradients of the same tensor, still lazy; with a lazy gradient
        of another kind (:class:`RowScatterGrad`), both added into a new array."""
        if type(other) is not SliceGrad:
            out = np.zeros(self.shape, dtype=self.dtype)
            self.add_to(out)
            other.add_to(out)
            return out
        return SliceGrad(self.shape, parts=self.parts + other.parts)

    def materialize(self) -> np.ndarray:
        """zeros(shape) with every part added at its index: a new array. When the parts tile
        the array and already lie in one array at their places (a backward that wrote q's,
        k's and v's gradients into one packed buffer, ``backends.interface.empty_like_packed``),
        that array is the result, and nothing is copied."""
        if _tiles(self.shape, [i for i, _ in self.parts]):
            whole = self._in_place()
            if whole is not None:
                return whole
            out = np.empty(self.shape, dtype=self.dtype)  # every element is written below
            for index, g in self.parts:
                out[index] = g
            return out
        out = np.zeros(self.shape, dtype=self.dtype)
        self.add_to(out)
        return out

    def _in_place(self) -> np.ndarray | None:
        """The one array every part is a view of, seen with ``shape``, when each part sits
        exactly at its index in it (same address, shape and strides); else None."""
        base = self.parts[0][1].base
        if base is None or type(base) is not np.ndarray or not base.flags.c_contiguous \
                or base.dtype != self.dtype or base.size != math.prod(self.shape):
            return None
        whole = base.reshape(self.shape)  # a view: base is C-contiguous
        for index, g in self.parts:
            at = whole[index]
            if g.base is not base or at.shape != g.shape or at.strides != g.strides \
                    or at.__array_interface__["data"][0] != g.__array_interface__["data"][0]:
                return None
        return whole

    def add_to(self, total: np.ndarray) -> None:
        """total[index] += g for each part, in place (a basic index names each element at
        most once, so ``+=`` adds every value)."""
        for index, g in self.parts:
            total[index] += g

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        out = self.materialize()
        return out if dtype is None else out.astype(dtype)


class RowScatterGrad:
    """The gradient of a row gather ``weight[ids]`` (an embedding lookup): zeros((num, D))
    with g[i] added at row ids[i] (repeated ids add up), kept as (ids, g) until it is needed.

    A tied weight (GPT's token embedding, which is also its output head) has a dense gradient
    from the head already when the lookup's arrives. Built eagerly, the lookup's gradient
    would be a second zero-filled (V, D) array and the sum a third: 3 x 154 MB at GPT-2's
    50,257 x 768. The engine instead scatters the rows straight into the head's gradient
    (:meth:`add_to`, the backend's ``embedding_backward`` with ``out=``) and builds the
    array only for a weight with no other gradient (:meth:`materialize`). The same protocol
    as :class:`SliceGrad`; ``np.asarray`` gives the full array.
    """

    __slots__ = ("g", "ids", "num")

    def __init__(self, num: int, ids: np.ndarray, g: np.ndarray) -> None:
        self.num, self.ids, self.g = num, ids, g  # ids (...,) in [0, num), g ids.shape + (D,)

    @property
    def shape(self) -> tuple:
        return (self.num, self.g.shape[-1])

    @property
    def dtype(self) -> np.dtype:
        return self.g.dtype

    def astype(self, dtype: Any) -> RowScatterGrad:
        """The same lazy gradient with g cast to ``dtype``."""
        return RowScatterGrad(self.num, self.ids, self.g.astype(dtype))

    def plus(self, other: Any) -> np.ndarray:
        """This gradient and another lazy one (of the same weight) added into a new array."""
        out = self.materialize()
        other.add_to(out)
        return out

    def materialize(self) -> np.ndarray:
        """zeros((num, D)) with the rows scattered in: a new array."""
        return backends.active.embedding_backward(self.ids, self.g, self.num)

    def add_to(self, total: np.ndarray) -> None:
        """total[ids[i]] += g[i] for every i, in place."""
        backends.active.embedding_backward(self.ids, self.g, self.num, out=total)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        out = self.materialize()
        return out if dtype is None else out.astype(dtype)


def _block(shape: tuple, index: Any) -> tuple | None:
    """(axis, start, stop) when basic ``index`` is one unit-step range along one axis and
    everything along the others (``x[..., a:b]``, ``x[:, a:b]``, or an integer, a range of
    one: ``qkv[:, :, 0]`` of the (B, T, 3, H, hs) projection), (0, 0, n) for the whole array,
    else None."""
    parts = index if isinstance(index, tuple) else (index,)
    if any(p is None or p is not Ellipsis and not isinstance(p, (slice, int, np.integer))
           or isinstance(p, (bool, np.bool_)) for p in parts) \
            or sum(p is Ellipsis for p in parts) > 1:
        return None
    if Ellipsis in parts:
        at = parts.index(Ellipsis)
        parts = parts[:at] + (slice(None),) * (len(shape) - len(parts) + 1) + parts[at + 1:]
    parts = parts + (slice(None),) * (len(shape) - len(parts))
    if len(parts) != len(shape):
        return None
    # an integer i is the range i:i+1 (its axis dropped, which assignment does too)
    parts = tuple(p if isinstance(p, slice) else _unit_range(int(p), n)
                  for p, n in zip(parts, shape))
    if any(p is None for p in parts):
        return None
    sliced = [(axis, *p.indices(n)) for axis, (p, n) in enumerate(zip(parts, shape))
              if p.indices(n) != (0, n, 1)]
    if not sliced:
        return (0, 0, shape[0]) if shape else None
    if len(sliced) > 1 or sliced[0][3] != 1:
        return None
    axis, start, stop, _ = sliced[0]
    return axis, start, max(start, stop)


def _unit_range(i: int, n: int) -> slice | None:
    """Index ``i`` of an axis of length n (negative from the end) as the slice i:i+1, or
    None when it is out of range."""
    i = i + n if i < 0 else i
    return slice(i, i + 1) if 0 <= i < n else None


def _tiles(shape: tuple, indices: list) -> bool:
    """Whether the basic ``indices`` cover every element of ``shape`` exactly once (each a
    block along one common axis, the blocks end to end from 0 to that axis's length)."""
    blocks = [_block(shape, i) for i in indices]
    if not shape or any(b is None for b in blocks) or len({b[0] for b in blocks}) != 1:
        return False
    n, reached = shape[blocks[0][0]], 0
    for _, start, stop in sorted(blocks, key=lambda b: b[1]):
        if start != reached:
            return False
        reached = stop
    return reached == n


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


class ArrayOps:
    """The array namespace of the derivative rules (NumPy's names and meanings)."""

    exp = staticmethod(np.exp)
    log = staticmethod(np.log)
    log1p = staticmethod(np.log1p)
    expm1 = staticmethod(np.expm1)
    sinh = staticmethod(np.sinh)
    cosh = staticmethod(np.cosh)
    sin = staticmethod(np.sin)
    cos = staticmethod(np.cos)
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

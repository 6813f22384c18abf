"""Where the backward walk keeps gradients: the sums it adds into, when it may write into an
array instead of allocating one, and the gradients it keeps lazy until they are read.

The walk (``engine.py``) keeps one running total per tensor and asks a
:class:`GradientSums` (one per backward) four things, nothing more:

- ``accumulate(total, g)`` -> the new total: the gradient summed so far plus one more
  contribution (a tensor used twice receives the sum of both);
- ``finish(total)`` -> the total as the walk hands it on, to the op that made the tensor or
  to a hook: an array (a lazy gradient is built here), a Tensor under ``create_graph``;
- ``store(leaf, total)``: add the total into ``leaf.grad`` (PyTorch's AccumulateGrad), under
  one lock, so backward passes in several threads that share a leaf lose no contribution;
- ``keep(tensor, total)``: ``.grad`` of a non-leaf that asked ``retain_grad()``.

Two policies implement it. :class:`GraphSums` is ``create_graph``'s: totals are Tensors
with a graph, summed with ``+`` and never written in place (an old total may be an input of
the graph being recorded). :class:`ArraySums` is the plain backward's, where the sums are
NumPy arrays and memory is the point:

1. **In place only where nobody else can see.** A total is added into in place when the
   array is the walk's alone: one the walk allocated, or a backward's fresh result that only
   the walk still holds (its Context freed). CPython's reference count tells: an array held
   only by the walk's one name for it, seen here through one call, has the count measured
   once at import (:data:`_UNSHARED`); one more holder (``Add`` hands one array to both of
   its inputs, a captured gradient, an array a retained graph saved, a hook's copy) and the
   sum goes into a new array instead. A leaf's first gradient becomes its ``.grad`` without
   a copy by the same rule (PyTorch steals it too).
2. **Lazy gradients.** A backward may return a :class:`LazyGrad` instead of an array: the
   gradient of slices of one tensor (:class:`SliceGrad`: q, k and v of a packed projection)
   or of an embedding lookup (:class:`RowScatterGrad`). They stay as their parts until they
   meet a total (``add_to`` writes them into it: an embedding's rows scattered straight into
   a tied head's (V, C) gradient) or are read (``materialize``, once, in ``finish``).
3. **Packed layouts.** A backward that computes q's, k's and v's gradients together can
   write them into views of one array laid out as the packed projection they were sliced
   from (:func:`empty_like_packed`, which a backend calls); :meth:`SliceGrad.materialize`
   finds them there and takes that array as the projection's gradient, copying nothing.

None of this changes a value: each rule decides only which buffer a sum is written into.
"""

from __future__ import annotations

import math
import sys
import threading
from collections.abc import Callable
from typing import Any

import numpy as np


class LazyGrad:
    """A gradient kept as its parts until it is read: what a backward may return in place of
    an array (on the plain path; under ``create_graph`` a backward returns Tensors).

    ``shape`` and ``dtype`` are the array's; the engine checks them as an array's. Subclasses
    implement the four methods below; ``np.asarray(lazy)`` gives the full array."""

    __slots__ = ()

    @property
    def shape(self) -> tuple:
        raise NotImplementedError

    @property
    def dtype(self) -> np.dtype:
        raise NotImplementedError

    def astype(self, dtype: Any) -> LazyGrad:
        """The same gradient with its parts cast to ``dtype``."""
        raise NotImplementedError

    def plus(self, other: LazyGrad) -> LazyGrad | np.ndarray:
        """This gradient plus another lazy one of the same tensor: lazy when both are of a kind
        that stays lazy together, else a new array."""
        raise NotImplementedError

    def materialize(self) -> np.ndarray:
        """The full array (new, or the one array the parts already tile in place)."""
        raise NotImplementedError

    def add_to(self, total: np.ndarray) -> None:
        """total += this gradient, in place (``total`` has this shape and dtype)."""
        raise NotImplementedError

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        out = self.materialize()
        return out if dtype is None else out.astype(dtype)


class SliceGrad(LazyGrad):
    """The gradient of slices of one tensor: ``zeros(shape)`` with each part's ``g`` added at
    its basic ``index``, kept as (shape, parts) until it is needed.

    q, k and v are three slices of one (B, T, 3C) product: built eagerly, their gradients
    would be three zero-filled (B, T, 3C) arrays summed into a fourth. The walk instead
    collects the parts (:meth:`plus`) and builds the whole once (:meth:`materialize`):
    when the parts tile the array, as q|k|v do, each is written into an uninitialised
    array, which is what concatenating them costs, or, when the backward that made them
    already wrote them into one array at their places (:func:`empty_like_packed`), that
    array is the whole; otherwise they are added into zeros.
    """

    __slots__ = ("_shape", "parts")

    def __init__(self, shape: tuple, index: Any = None, g: np.ndarray | None = None, *,
                 parts: tuple = ()) -> None:
        self._shape = tuple(shape)
        self.parts = parts if g is None else ((index, g),)

    @property
    def shape(self) -> tuple:
        return self._shape

    @property
    def dtype(self) -> np.dtype:
        return self.parts[0][1].dtype

    def astype(self, dtype: Any) -> SliceGrad:
        """The same slice gradient with every part cast to ``dtype``."""
        return SliceGrad(self.shape, parts=tuple((i, g.astype(dtype)) for i, g in self.parts))

    def plus(self, other: LazyGrad) -> SliceGrad | np.ndarray:
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
        the array and already lie in one array at their places, that array is the result,
        and nothing is copied."""
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


class RowScatterGrad(LazyGrad):
    """The gradient of a row gather ``weight[ids]`` (an embedding lookup): zeros((num, D))
    with g[i] added at row ids[i] (repeated ids add up), kept as (ids, g) until it is needed.

    A tied weight (GPT's token embedding, which is also its output head) has a dense gradient
    from the head already when the lookup's arrives. Built eagerly, the lookup's gradient
    would be a second zero-filled (V, D) array and the sum a third: 3 x 154 MB at GPT-2's
    50,257 x 768. The walk instead scatters the rows straight into the head's gradient
    (:meth:`add_to`) and builds the array only for a weight with no other gradient
    (:meth:`materialize`). ``scatter(ids, g, num, out=None)`` does the scattering (the
    backend's ``embedding_backward``: into zeros, or added into ``out``).
    """

    __slots__ = ("g", "ids", "num", "scatter")

    def __init__(self, num: int, ids: np.ndarray, g: np.ndarray, scatter: Callable) -> None:
        self.num, self.ids, self.g = num, ids, g  # ids (...,) in [0, num), g ids.shape + (D,)
        self.scatter = scatter

    @property
    def shape(self) -> tuple:
        return (self.num, self.g.shape[-1])

    @property
    def dtype(self) -> np.dtype:
        return self.g.dtype

    def astype(self, dtype: Any) -> RowScatterGrad:
        """The same lazy gradient with g cast to ``dtype``."""
        return RowScatterGrad(self.num, self.ids, self.g.astype(dtype), self.scatter)

    def plus(self, other: LazyGrad) -> np.ndarray:
        """This gradient and another lazy one (of the same weight) added into a new array."""
        out = self.materialize()
        other.add_to(out)
        return out

    def materialize(self) -> np.ndarray:
        """zeros((num, D)) with the rows scattered in: a new array."""
        return self.scatter(self.ids, self.g, self.num)

    def add_to(self, total: np.ndarray) -> None:
        """total[ids[i]] += g[i] for every i, in place."""
        self.scatter(self.ids, self.g, self.num, out=total)


# ------------------------------------------------------------------ the sums of one backward

class GradientSums:
    """What the backward walk asks of the buffers that hold its gradients (see the module
    docstring); ``tensor_class`` is minigrad's Tensor class (``.grad`` is one)."""

    def __init__(self, tensor_class: type) -> None:
        self.tensor_class = tensor_class

    def accumulate(self, total: Any, g: Any) -> Any:
        """``total + g``, the running sum of one tensor's gradient after one more
        contribution ``g``; the walk keeps what this returns and forgets ``total``."""
        raise NotImplementedError

    def finish(self, total: Any) -> Any:
        """The summed gradient as the walk passes it on (to the op that made the tensor, to
        its hooks, into ``.grad``). A plain ndarray is passed on as it is: the walk does not
        call this for one."""
        raise NotImplementedError

    def store(self, leaf: Any, total: Any) -> None:
        """Add this backward's total gradient of ``leaf`` into ``leaf.grad``, atomically
        across threads (``leaf.grad`` None: the total becomes it)."""
        raise NotImplementedError

    def keep(self, tensor: Any, total: Any) -> None:
        """``store`` for a non-leaf that asked ``retain_grad()``: its total goes on to the op
        that made it, so ``.grad`` gets a copy."""
        raise NotImplementedError


# One lock for every ``.grad`` update: backward passes running at once in several threads
# may share a leaf (the same model's parameters), and "read .grad, add, write .grad" must not
# interleave or a contribution is lost. An uncontended lock costs well under a microsecond per
# leaf, so the single-thread path stays cheap.
_GRAD_LOCK = threading.Lock()


class GraphSums(GradientSums):
    """``create_graph``'s sums: Tensors with a graph, added with ``+`` (a recorded op), never
    in place."""

    def accumulate(self, total: Any, g: Any) -> Any:
        return total + g

    def finish(self, total: Any) -> Any:
        return total

    def store(self, leaf: Any, total: Any) -> None:
        # .grad becomes a new Tensor: the old one may be an input of the graph just recorded
        with _GRAD_LOCK:
            old = leaf._grad
            leaf._grad = total.clone() if old is None else old + total

    def keep(self, tensor: Any, total: Any) -> None:
        self.store(tensor, total)


class ArraySums(GradientSums):
    """The plain backward's sums: NumPy arrays and :class:`LazyGrad` values, written in place
    wherever only the walk holds the array (rule 1 of the module docstring)."""

    def accumulate(self, total: Any, g: Any) -> Any:
        unshared = _unshared(total)  # counted first: every name below is one more holder
        if isinstance(total, LazyGrad):
            if isinstance(g, LazyGrad):
                return total.plus(g)  # two slice gradients stay lazy: q|k|v built once
            # the whole is ours to add into unless it is the parts' own array (built in place
            # by their backward): a part may be a captured gradient
            total = total.materialize()
            ours = total.base is None
        else:
            ours = unshared and _own_array(total, total.dtype)
        # a 0-d sum comes back from NumPy as a scalar, which has no buffer to write into
        ours = ours and type(total) is np.ndarray
        if isinstance(g, LazyGrad):
            if not ours:
                total = np.array(total)
            g.add_to(total)  # an embedding's rows scattered straight into the total
            return total
        if ours:
            np.add(total, g, out=total)
            return total
        return total + g

    def finish(self, total: Any) -> Any:
        return total.materialize() if isinstance(total, LazyGrad) else total

    def store(self, leaf: Any, total: Any) -> None:
        unshared = _unshared(total)  # counted first, as in accumulate
        with _GRAD_LOCK:
            old = leaf._grad
            if old is not None:
                _add_into_grad(leaf, old, total)
                return
            if not (unshared and _own_array(total, leaf.data.dtype)):
                total = np.array(total, dtype=leaf.data.dtype)  # .grad gets its own copy
            leaf._grad = self.tensor_class._from_op(total, None)

    def keep(self, tensor: Any, total: Any) -> None:
        self.store(tensor, np.array(total, dtype=tensor.data.dtype))


def _add_into_grad(leaf: Any, grad: Any, g: np.ndarray) -> None:
    """``leaf.grad += g`` in place, into the Tensor the user, an optimizer or a hook may hold
    (its version bumped), refusing (before writing) a ``.grad`` it cannot write into."""
    arr = grad.data
    if arr.shape != leaf.data.shape or arr.dtype != leaf.data.dtype:
        raise RuntimeError(
            f"cannot accumulate a gradient into .grad: it has shape {arr.shape} and dtype "
            f"{arr.dtype}, but the tensor has shape {leaf.data.shape} and dtype "
            f"{leaf.data.dtype} (set .grad = None to start a new sum)"
        )
    if not arr.flags.writeable:
        raise RuntimeError(
            f"cannot accumulate a gradient into .grad (shape {arr.shape}): its array is "
            "read-only (set .grad = None, or to a writeable Tensor)"
        )
    np.add(arr, g, out=arr)
    grad._bump_version()


def _own_array(a: Any, dtype: np.dtype) -> bool:
    """Whether ``a`` is an array that can become a buffer as it is: a writeable ndarray of
    ``dtype`` that owns its memory (not a view, not a read-only broadcast)."""
    return type(a) is np.ndarray and a.base is None and a.flags.writeable and a.dtype == dtype


# --------------------------------------------------------------- who else holds an array

def _unshared(a: Any) -> bool:
    """Whether nothing but the walk holds ``a``: called by a :class:`GradientSums` method on
    its argument, which the walk passed from its one name for the array (a local or a table
    entry), before the method gives it any other name."""
    return sys.getrefcount(a) <= _UNSHARED


def _unshared_count() -> int:
    """The reference count :func:`_unshared` sees for an array only the walk's one name holds:
    measured through the same chain of calls (the walk's name, the method's argument,
    ``_unshared``'s argument), so it holds on any CPython whatever its counting conventions."""
    walk_name = np.empty(1)
    return _as_a_method_argument(walk_name)


def _as_a_method_argument(a: Any) -> int:
    return _as_unshared_sees_it(a)


def _as_unshared_sees_it(a: Any) -> int:
    return sys.getrefcount(a)


_UNSHARED = _unshared_count()


# -------------------------------------------------------------------------- packed layouts

def empty_like_packed(arrays: tuple) -> tuple:
    """Uninitialised arrays shaped and strided like ``arrays``, as views of one fresh array when
    ``arrays`` are views that tile one C-contiguous array (q, k, v sliced from a packed
    (B, T, 3, H, hs) projection); otherwise one fresh C-ordered array each.

    A backward that writes each input's gradient into these makes the gradient of the packed
    array by itself: the walk finds the parts in place (:meth:`SliceGrad.materialize`) and
    copies nothing. Tiling is checked exactly: one base, one dtype and shape, no view
    overlapping itself or another (``np.shares_memory``), and their bytes adding up to the
    base's. Anything else (an expanded view, overlapping slices) gets arrays of its own, as a
    gradient must."""
    base = arrays[0].base
    if (base is not None and type(base) is np.ndarray and base.flags.c_contiguous
            and all(a.base is base and a.dtype == base.dtype and a.shape == arrays[0].shape
                    and _no_self_overlap(a) for a in arrays)
            and sum(a.nbytes for a in arrays) == base.nbytes
            and _pairwise_disjoint(arrays)):
        packed = np.empty(base.shape, base.dtype)
        return tuple(np.ndarray(a.shape, a.dtype, buffer=packed, offset=_byte_offset(a, base),
                                strides=a.strides) for a in arrays)
    return tuple(np.empty(a.shape, a.dtype) for a in arrays)


def _byte_offset(view: np.ndarray, base: np.ndarray) -> int:
    """Where ``view``'s first element lies in ``base``'s memory, in bytes."""
    return view.__array_interface__["data"][0] - base.__array_interface__["data"][0]


def _no_self_overlap(a: np.ndarray) -> bool:
    """Whether every element of ``a`` has memory of its own: with its axes in order of
    stride, each (positive) stride clears everything the smaller ones reach."""
    extent = a.itemsize
    for stride, n in sorted((st, n) for st, n in zip(a.strides, a.shape) if n > 1):
        if stride < extent:
            return False
        extent += stride * (n - 1)
    return True


def _pairwise_disjoint(arrays: tuple) -> bool:
    """No two of ``arrays`` share an element (solved exactly; a problem too hard for a small
    budget counts as sharing)."""
    try:
        return not any(np.shares_memory(a, b, max_work=1 << 16)
                       for i, a in enumerate(arrays) for b in arrays[i + 1:])
    except np.exceptions.TooHardError:
        return False


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

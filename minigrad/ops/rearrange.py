"""Shape ops composed from the primitives of ``shapes.py`` and ``indexing.py``: roll,
repeat_interleave, unbind, movedim, tile, hstack, vstack, meshgrid, broadcast_to.

None is a Function of its own: each is a few exact differentiable ops (a slice and a cat, a
gather, a permute, an expand), as teenygrad composes its shape ops, so their gradients and
second derivatives are those of the primitives. The views stay views: ``movedim`` is a
``Permute``, ``unbind`` basic indexing, ``meshgrid`` and ``broadcast_to`` an ``Expand`` (a
read-only broadcast view, as ``expand``); ``Function.apply`` links their version counters.

Dimensions arrive checked and non-negative (the Tensor methods check them), for tensors of
at least one dimension unless a docstring says otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .indexing import Expand, Repeat
from .shapes import Cast, Cat, GetItem, Permute, Reshape


def roll(t, shifts: Sequence[int], dims: Sequence[int]):
    """Rotate ``t`` by ``shifts[k]`` positions along ``dims[k]``: out[i] = t[i - s mod n]."""
    out = t
    for s, d in zip(shifts, dims):
        n = out.shape[d]
        if n == 0 or s % n == 0:
            continue
        s, head = s % n, (slice(None),) * d
        out = Cat.apply(GetItem.apply(out, index=head + (slice(n - s, n),)),
                        GetItem.apply(out, index=head + (slice(0, n - s),)), axis=d)
    return Cast.apply(t, dtype=t.dtype) if out is t else out  # always a new tensor, as PyTorch


def repeat_interleave(t, repeats: Any, dim: int):
    """Each slice of ``t`` along ``dim`` repeated ``repeats`` times (one int, or one count per
    slice), in place: [a, b] -> [a, a, b, b]."""
    n = t.shape[dim]
    reps = np.asarray(getattr(repeats, "data", repeats))
    if reps.dtype.kind not in "iu":
        raise TypeError(f"repeat_interleave: repeats must be integers, got dtype {reps.dtype}")
    if reps.ndim > 1 or (reps.ndim == 1 and reps.shape[0] not in (1, n)):
        raise ValueError(f"repeat_interleave: repeats must be one int or one per slice ({n} "
                         f"along dim {dim} of {t.shape}), got shape {reps.shape}")
    if reps.size and reps.min() < 0:
        raise ValueError(f"repeat_interleave: repeats must be non-negative, got {reps.min()}")
    index = np.repeat(np.arange(n), np.broadcast_to(reps.reshape(-1) if reps.ndim else reps, n))
    return GetItem.apply(t, index=(slice(None),) * dim + (index,))


def unbind(t, dim: int) -> tuple:
    """The slices of ``t`` along ``dim``, that dimension removed (views)."""
    head = (slice(None),) * dim
    return tuple(GetItem.apply(t, index=head + (i,)) for i in range(t.shape[dim]))


def movedim_order(ndim: int, source: Sequence[int], destination: Sequence[int]) -> list:
    """The permutation that moves dims ``source`` to positions ``destination`` (both checked,
    non-negative, without repeats), the other dims keeping their order."""
    order = [d for d in range(ndim) if d not in source]
    for dst, src in sorted(zip(destination, source)):
        order.insert(dst, src)
    return order


def movedim(t, source: Sequence[int], destination: Sequence[int]):
    """``t`` with dims ``source`` moved to ``destination`` (a view)."""
    return Permute.apply(t, dims=tuple(movedim_order(t.ndim, source, destination)))


def tile(t, dims: Sequence[int]):
    """``t`` repeated ``dims[k]`` times along each dim; fewer ``dims`` than dims are padded
    with 1s in front, more add leading dims (PyTorch's tile, NumPy's tile). Any ``t``."""
    dims = (1,) * (t.ndim - len(dims)) + tuple(dims)
    return Repeat.apply(t, repeats=dims)


def _at_least(t, ndim: int):
    """``t`` reshaped to at least ``ndim`` dims, as NumPy's atleast_1d/atleast_2d."""
    if t.ndim >= ndim:
        return t
    return Reshape.apply(t, shape=(1,) * (ndim - t.ndim) + t.shape)


def hstack(tensors: Sequence):
    """Join along dim 1, or along dim 0 when the tensors are 1-d (0-d ones count as 1-d)."""
    if not tensors:
        raise ValueError("hstack: needs at least one tensor")
    ts = [_at_least(t, 1) for t in tensors]
    return Cat.apply(*ts, axis=0 if ts[0].ndim == 1 else 1)


def vstack(tensors: Sequence):
    """Join along dim 0, 0-d and 1-d tensors first made (1, n) rows."""
    if not tensors:
        raise ValueError("vstack: needs at least one tensor")
    return Cat.apply(*[_at_least(t, 2) for t in tensors], axis=0)


def meshgrid(tensors: Sequence, indexing: str) -> tuple:
    """Coordinate grids: for 0-d or 1-d tensors of sizes n_0 ... n_k, each output has shape
    (n_0, ..., n_k) and varies along its own dim (``"ij"``); ``"xy"`` swaps the first two
    dims of every output (Cartesian, NumPy's default). Broadcast views."""
    if indexing not in ("ij", "xy"):
        raise ValueError(f"meshgrid: indexing must be 'ij' or 'xy', got {indexing!r}")
    for k, t in enumerate(tensors):
        if t.ndim > 1:
            raise ValueError(f"meshgrid: tensors must be 0-d or 1-d, tensor {k} has shape "
                             f"{t.shape}")
    sizes = [int(np.prod(t.shape)) for t in tensors]
    position = list(range(len(tensors)))
    if indexing == "xy" and len(tensors) >= 2:
        position[0], position[1] = 1, 0
    shape = [0] * len(tensors)
    for k, p in enumerate(position):
        shape[p] = sizes[k]
    out = []
    for k, t in enumerate(tensors):
        view = [1] * len(tensors)
        view[position[k]] = sizes[k]
        out.append(Expand.apply(Reshape.apply(t, shape=tuple(view)), shape=tuple(shape)))
    return tuple(out)

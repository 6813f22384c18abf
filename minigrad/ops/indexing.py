"""Index-driven ops: gather, scatter_add, expand, repeat, flip.

``gather`` and ``scatter_add`` follow PyTorch: for a 3-d input and ``dim=1``,
``gather`` reads ``out[i][j][k] = a[i][index[i][j][k]][k]`` and ``scatter_add``
writes ``out[i][index[i][j][k]][k] += src[i][j][k]``; ``index`` may be smaller
than the input in every dimension. The index arrays are copied (owned) so a
caller reusing its buffer after the forward cannot change the backward.
"""

from __future__ import annotations

import numpy as np

from ..function import Function
from .broadcast import unbroadcast
from .dims import check_dim


def along_index(index: np.ndarray, dim: int, shape: tuple, name: str) -> tuple:
    """The NumPy fancy index that reads ``a[..., index[...], ...]`` along ``dim`` of an
    array of ``shape``, PyTorch's gather/scatter addressing; checks dtype and ranges."""
    if index.dtype.kind not in "iu":
        raise TypeError(f"{name}: index must be an integer tensor, got dtype {index.dtype}")
    if index.ndim != len(shape):
        raise ValueError(f"{name}: index has {index.ndim} dims, the tensor {len(shape)} ({shape})")
    dim = check_dim(dim, len(shape), name)
    for d, (i, s) in enumerate(zip(index.shape, shape)):
        if d != dim and i > s:
            raise ValueError(f"{name}: index shape {index.shape} exceeds the tensor's {shape} "
                             f"in dim {d}")
    if index.size and (int(index.min()) < -shape[dim] or int(index.max()) >= shape[dim]):
        raise IndexError(f"{name}: index values must lie in [{-shape[dim]}, {shape[dim]}), "
                         f"got [{int(index.min())}, {int(index.max())}]")
    grid = list(np.ix_(*[np.arange(n) for n in index.shape]))
    grid[dim] = index.astype(np.intp)
    return tuple(grid)


class Gather(Function):
    """out = a[..., index, ...] along ``dim`` (PyTorch's gather; out has index's shape)."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a, dim, index):
        idx = along_index(np.array(index), dim, a.shape, "gather")
        ctx.info = (a.shape, idx)
        return a[idx]

    @staticmethod
    def backward(ctx, grad):
        # d out/d a scatters the gradient back to where each element was read (repeats add)
        shape, idx = ctx.info
        return ctx.xp.index_add(grad, shape, idx)


class ScatterAdd(Function):
    """out = a, then out[..., index, ...] += src along ``dim`` (PyTorch's scatter_add)."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a, src, dim, index):
        index = np.array(index)
        if any(i > s for i, s in zip(index.shape, src.shape)):
            raise ValueError(f"scatter_add: index shape {index.shape} exceeds src shape {src.shape}")
        idx = along_index(index, dim, a.shape, "scatter_add")
        ctx.info = (src.shape, index.shape, idx)
        out = a.copy()
        np.add.at(out, idx, src[tuple(slice(0, n) for n in index.shape)])
        return out

    @staticmethod
    def backward(ctx, grad):
        # d out/d a = 1; d out/d src = the gradient read back at the scattered positions
        src_shape, index_shape, idx = ctx.info
        region = tuple(slice(0, n) for n in index_shape)
        return grad, ctx.xp.index_add(ctx.xp.getitem(grad, idx), src_shape, region)


class Expand(Function):
    """out = a broadcast to ``shape`` (a read-only view, as PyTorch's expand)."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a, shape):
        ctx.in_shape = a.shape
        try:
            return np.broadcast_to(a, shape)
        except ValueError:
            raise ValueError(f"expand: shape {a.shape} cannot be expanded to {shape}") from None

    @staticmethod
    def backward(ctx, grad):
        # each input element was read once per copy: sum the copies
        return unbroadcast(grad, ctx.in_shape)


class Repeat(Function):
    """out = a tiled ``repeats`` times per dimension (PyTorch's repeat, NumPy's tile)."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a, repeats):
        if len(repeats) < a.ndim:
            raise ValueError(f"repeat: {len(repeats)} repeats for a tensor of {a.ndim} dims "
                             f"{a.shape}: give at least one per dimension")
        shape = (1,) * (len(repeats) - a.ndim) + a.shape
        ctx.info = (a.shape, shape, tuple(repeats))
        return np.tile(a.reshape(shape), repeats)

    @staticmethod
    def backward(ctx, grad):
        # every copy of an element adds its gradient: view as (r0, s0, r1, s1, ...) and sum the r's
        in_shape, shape, reps = ctx.info
        split = [n for r, s in zip(reps, shape) for n in (r, s)]
        g = grad.reshape(split).sum(axis=tuple(range(0, 2 * len(shape), 2)))
        return g.reshape(in_shape)


class Flip(Function):
    """out = a reversed along ``dims``."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a, dims):
        ctx.dims = dims
        return np.flip(a, dims)

    @staticmethod
    def backward(ctx, grad):
        # reversing is its own inverse
        return ctx.xp.flip(grad, ctx.dims)

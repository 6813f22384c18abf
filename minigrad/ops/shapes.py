"""Ops that move values around without arithmetic: reshape, transpose,
permute, indexing, cat, stack, split, dtype casts.

Their backward passes move the gradient back the same way: a reshape's
gradient is reshaped back, a transpose's is transposed back, an index's is
scattered back (adding where an index repeats). Each is written once and also
serves ``create_graph`` (see ``ops/elementwise.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..backends.array_namespace import scatter_to
from ..function import Function
from .dims import check_dim


class Reshape(Function):
    """Same values, new shape: out = a.reshape(shape)."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a, shape):
        ctx.in_shape = a.shape
        try:
            return a.reshape(shape)
        except ValueError:
            raise ValueError(
                f"reshape: cannot view a tensor of shape {a.shape} ({a.size} elements) "
                f"as shape {tuple(shape)}"
            ) from None

    @staticmethod
    def backward(ctx, grad):
        # reshape moves no values: reshape the gradient back
        return grad.reshape(ctx.in_shape)


class Transpose(Function):
    """Swap two axes: out = swapaxes(a, dim0, dim1) (a view, no copy)."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a, dim0=-2, dim1=-1):
        if a.ndim < 2 and (dim0, dim1) == (-2, -1):
            return a
        ctx.dims = (dim0, dim1)
        try:
            return np.swapaxes(a, dim0, dim1)
        except np.exceptions.AxisError:
            raise IndexError(
                f"transpose: dims ({dim0}, {dim1}) out of range for a tensor of shape {a.shape}"
            ) from None

    @staticmethod
    def backward(ctx, grad):
        # swapping two axes is its own inverse
        if not hasattr(ctx, "dims"):
            return grad
        return ctx.xp.swapaxes(grad, *ctx.dims)


class Permute(Function):
    """Reorder all axes: out = transpose(a, dims)."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a, dims):
        valid = all(-a.ndim <= int(d) < a.ndim for d in dims)
        if not valid or sorted(int(d) % a.ndim for d in dims) != list(range(a.ndim)):
            raise ValueError(
                f"permute: {tuple(dims)} is not a permutation of the {a.ndim} axes of {a.shape}"
            )
        ctx.dims = dims
        return np.transpose(a, dims)

    @staticmethod
    def backward(ctx, grad):
        # undo the permutation with its inverse
        return ctx.xp.permute_dims(grad, np.argsort([d % grad.ndim for d in ctx.dims]))


class Cast(Function):
    """Change dtype: out = a.astype(dtype); the gradient flows back only between float types."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a, dtype):
        ctx.in_dtype = a.dtype
        return a.astype(dtype)

    @staticmethod
    def backward(ctx, grad):
        # a cast is the identity on values: cast the gradient back
        if ctx.in_dtype.kind != "f":
            return None
        return ctx.xp.astype(grad, ctx.in_dtype)




class GetItem(Function):
    """Indexing: out = a[index], basic slices or integer/bool array gather."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a, index):
        ctx.info = (a.shape, index)
        try:
            out = a[index]
        except IndexError as e:
            raise IndexError(f"index out of range for a tensor of shape {a.shape}: {e}") from None
        return np.asarray(out)

    @staticmethod
    def backward(ctx, grad):
        # d(a[idx])/da scatters the gradient back; repeated indices add up
        shape, index = ctx.info
        return ctx.xp.index_add(grad, shape, index)


class IndexAdd(Function):
    """out = zeros(shape) with out[index] += g (repeated indices add up): the adjoint of
    GetItem, which is what a gather's gradient is; so each is the other's backward."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, g, shape, index):
        ctx.index = index
        return scatter_to(shape, index, g)

    @staticmethod
    def backward(ctx, grad):
        # d out/d g reads the gradient back where g was added
        return ctx.xp.getitem(grad, ctx.index)


class Cat(Function):
    """Join along an existing axis: out = concatenate(a_1, ..., a_n, axis). A 1-d empty
    input (shape (0,)) next to others of another shape is skipped, PyTorch's legacy rule."""

    differentiable_backward = True
    promote = "binary"  # cat([int, float]) is float, as PyTorch

    @staticmethod
    def forward(ctx, *arrays, axis=0):
        ctx.skip = [a.shape == (0,) and any(b.shape != (0,) for b in arrays) for a in arrays]
        arrays = [a for a, skip in zip(arrays, ctx.skip) if not skip]
        ctx.sizes = [a.shape[axis] if a.ndim else 0 for a in arrays]
        ctx.axis = axis
        try:
            return np.concatenate(arrays, axis=axis)
        except ValueError:
            raise ValueError(
                f"cat: shapes {[a.shape for a in arrays]} do not match except along axis {axis}"
            ) from None

    @staticmethod
    def backward(ctx, grad):
        # each input receives its own slice of the gradient (a skipped one an empty one)
        ax, start, out = ctx.axis % grad.ndim, 0, []
        sizes = iter(ctx.sizes)
        for skip in ctx.skip:
            if skip:
                out.append(grad.reshape(-1)[:0])
                continue
            n = next(sizes)
            out.append(grad[(slice(None),) * ax + (slice(start, start + n),)])
            start += n
        return tuple(out)


class Stack(Function):
    """Join along a new axis: out = stack(a_1, ..., a_n, axis)."""

    differentiable_backward = True
    promote = "binary"  # as cat

    @staticmethod
    def forward(ctx, *arrays, axis=0):
        ctx.axis = axis
        shapes = {a.shape for a in arrays}
        if len(shapes) != 1:
            raise ValueError(
                f"stack: all tensors must have the same shape, got {[a.shape for a in arrays]}"
            )
        return np.stack(arrays, axis=axis)

    @staticmethod
    def backward(ctx, grad):
        # each input receives its own slice of the gradient along the new axis
        ax = ctx.axis % grad.ndim
        return tuple(grad[(slice(None),) * ax + (i,)] for i in range(grad.shape[ax]))


def cat(tensors: Sequence, axis: int = 0, dim: int | None = None):
    """Join tensors along an existing axis (``dim`` is PyTorch's alias)."""
    if not tensors:
        raise ValueError("cat: needs at least one tensor")
    return Cat.apply(*tensors, axis=axis if dim is None else dim)


def stack(tensors: Sequence, axis: int = 0, dim: int | None = None):
    """Join same-shape tensors along a new axis."""
    if not tensors:
        raise ValueError("stack: needs at least one tensor")
    return Stack.apply(*tensors, axis=axis if dim is None else dim)


def split(t, split_size: int | Sequence[int], axis: int = 0) -> tuple:
    """Pieces of ``t`` along ``axis``: each of ``split_size`` (the last may be
    smaller), or of the sizes listed, as ``torch.split``."""
    ax = check_dim(axis, t.ndim, "split")
    n = t.shape[ax]
    if isinstance(split_size, (int, np.integer)):
        if split_size <= 0:
            raise ValueError(f"split: split_size must be positive, got {split_size}")
        sizes = [min(split_size, n - s) for s in range(0, n, split_size)]
    else:
        sizes = list(split_size)
        if sum(sizes) != n:
            raise ValueError(
                f"split: sizes {sizes} do not add up to {n} (axis {axis} of {t.shape})"
            )
    out, start = [], 0
    for s in sizes:
        index = (slice(None),) * ax + (slice(start, start + s),)
        out.append(GetItem.apply(t, index=index))
        start += s
    return tuple(out)

"""Diagonals: ``diagonal`` (a view, as PyTorch's) and ``diag`` (vector <-> matrix).

The ``offset``-th diagonal of an (n1, n2) matrix holds the elements (i, i + offset) for
offset >= 0 and (i - offset, i) below the main one. ``diagonal`` reads it over any two
dimensions and puts it last, as a view that writes through (``x.diagonal().fill_(1)`` sets
the diagonal of ``x``); ``diag`` builds a matrix from a vector (``IndexAdd``) or copies a
matrix's diagonal out (``GetItem``), so it needs no Function of its own.
"""

from __future__ import annotations

import numpy as np

from ..function import Function
from .shapes import GetItem, IndexAdd


def diagonal_positions(n1: int, n2: int, offset: int) -> tuple:
    """(rows, cols): the int64 coordinates of the ``offset``-th diagonal of an (n1, n2) matrix."""
    length = max(0, min(n1 + min(offset, 0), n2 - max(offset, 0)))
    start = np.arange(length, dtype=np.int64)
    return start + max(-offset, 0), start + max(offset, 0)


def diagonal_view(a: np.ndarray, offset: int, dim1: int, dim2: int) -> np.ndarray:
    """The diagonal as a view of ``a`` that is writeable when ``a`` is (NumPy's own
    ``np.diagonal`` is a read-only view): the same strides, from the diagonal's first element."""
    read_only = np.diagonal(a, offset, dim1, dim2)  # gives the shape and strides
    start = [slice(None)] * a.ndim
    start[dim2 if offset >= 0 else dim1] = slice(abs(offset), None)
    first = a[tuple(start)]  # a basic slice: a view starting at the diagonal
    return np.lib.stride_tricks.as_strided(first, read_only.shape, read_only.strides,
                                           writeable=a.flags.writeable)


class Diagonal(Function):
    """out[..., i] = a[..., i, ..., i + offset, ...] over dims (dim1, dim2), those two dims
    removed and the diagonal appended last (a view of ``a``)."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a, offset, dim1, dim2):
        ctx.info = (a.shape, offset, dim1, dim2)
        return diagonal_view(a, offset, dim1, dim2)

    @staticmethod
    def backward(ctx, grad):
        # each diagonal element came from one element of a: place the gradient back there,
        # zeros elsewhere (built with dims (dim1, dim2) last, then permuted back)
        shape, offset, d1, d2 = ctx.info
        rest = [i for i in range(len(shape)) if i not in (d1, d2)]
        order = rest + [d1, d2]
        rows, cols = diagonal_positions(shape[d1], shape[d2], offset)
        index = (slice(None),) * len(rest) + (rows, cols)
        full = ctx.xp.index_add(grad, tuple(shape[i] for i in order), index)
        return ctx.xp.permute_dims(full, np.argsort(order))


def diagonal(t, offset: int, dim1: int, dim2: int):
    """The ``offset``-th diagonal over dims ``dim1``, ``dim2`` (checked, non-negative)."""
    if dim1 == dim2:
        raise ValueError(f"diagonal: dim1 and dim2 are the same dimension ({dim1}) of a tensor "
                         f"of shape {t.shape}")
    return Diagonal.apply(t, offset=int(offset), dim1=dim1, dim2=dim2)


def diag(t, offset: int = 0):
    """A 1-d tensor -> the square matrix with it on its ``offset``-th diagonal (zeros
    elsewhere); a 2-d tensor -> a copy of its ``offset``-th diagonal."""
    if t.ndim == 1:
        n = t.shape[0] + abs(offset)
        rows, cols = diagonal_positions(n, n, offset)
        return IndexAdd.apply(t, shape=(n, n), index=(rows, cols))
    if t.ndim == 2:
        return GetItem.apply(t, index=diagonal_positions(*t.shape, offset))
    raise ValueError(f"diag: needs a 1-d or 2-d tensor, got shape {t.shape}")

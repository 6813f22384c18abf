"""Sorting: sort, argsort, topk.

The values are read from the input with :class:`~minigrad.ops.indexing.Gather`
at the sorted indices, so their gradient flows back to the positions they came
from; the indices are int64 tensors without gradient.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .indexing import Gather


class ValuesIndices(NamedTuple):
    """``(values, indices)`` as PyTorch's ``torch.return_types`` (``max(dim)``, ``sort``, ``topk``)."""

    values: object
    indices: object


def sort_indices(a: np.ndarray, dim: int, descending: bool) -> np.ndarray:
    """Indices that sort ``a`` along ``dim`` (stable; NaN sorts as the largest, as PyTorch)."""
    if descending:
        # stable descending: sort the reversed array ascending, reverse, map indices back
        n = a.shape[dim]
        rev = np.flip(np.argsort(np.flip(a, dim), axis=dim, kind="stable"), dim)
        return (n - 1 - rev).astype(np.int64)
    return np.argsort(a, axis=dim, kind="stable").astype(np.int64)


def sort(t, dim: int = -1, descending: bool = False) -> ValuesIndices:
    """Sorted values along ``dim`` and the indices they came from."""
    from ..tensor import Tensor

    idx = sort_indices(t.data, dim, descending)
    return ValuesIndices(Gather.apply(t, dim=dim, index=idx), Tensor(idx))


def topk(t, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> ValuesIndices:
    """The ``k`` largest (or smallest) values along ``dim``, largest first, and their indices."""
    from ..tensor import Tensor

    n = t.shape[dim] if t.ndim else 1
    if not 0 <= k <= n:
        raise ValueError(f"topk: k={k} out of range for {n} elements along dim {dim} of {t.shape}")
    idx = np.take(sort_indices(t.data, dim, largest), np.arange(k), axis=dim)
    return ValuesIndices(Gather.apply(t, dim=dim, index=idx), Tensor(idx))

"""Embedding lookup and its backward, a scatter-add.

Forward: out[i] = weight[ids[i]] (a row gather).
Backward: dweight[ids[i]] += g[i] for every i: an id that appears twice
receives the sum of both rows' gradients, which is why this is an add into
the row and not an assignment (NumPy's ``np.add.at`` does the same, slowly).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def scatter_add_rows(ids, g, out):
    """out[ids[i]] += g[i] for ids (N,) in [0, out.shape[0]); returns -1. If some id is out
    of range, returns the position of the first such id and leaves ``out`` untouched: the
    caller checks ids too, but a kernel never writes outside its arrays (one compare per
    id, next to D adds)."""
    N, D = g.shape
    for i in range(N):
        if ids[i] < 0 or ids[i] >= out.shape[0]:
            return i
    for i in range(N):
        row = ids[i]
        for d in range(D):
            out[row, d] += g[i, d]
    return -1


def embedding_backward(ids: np.ndarray, g: np.ndarray, num_embeddings: int) -> np.ndarray:
    """dweight of shape (num_embeddings, D) from ids (any shape) and g (ids.shape + (D,))."""
    D = g.shape[-1]
    out = np.zeros((num_embeddings, D), dtype=g.dtype)
    flat_ids = np.ascontiguousarray(ids, dtype=np.int64).reshape(-1)
    if flat_ids.size:
        bad = scatter_add_rows(flat_ids, np.ascontiguousarray(g).reshape(-1, D), out)
        if bad >= 0:
            raise IndexError(f"embedding backward: id {flat_ids[bad]} at flat position {bad} is "
                             f"outside [0, {num_embeddings})")
    return out

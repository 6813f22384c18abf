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


def embedding_backward(ids: np.ndarray, g: np.ndarray, num_embeddings: int,
                       out: np.ndarray | None = None) -> np.ndarray:
    """dweight of shape (num_embeddings, D) from ids (any shape) and g (ids.shape + (D,)),
    into zeros, or added into ``out`` (num_embeddings, D) in place when given: the kernel
    writes through it when it is C-contiguous and of g's dtype, else the sum is added."""
    D = g.shape[-1]
    if out is not None and not (out.flags.c_contiguous and out.flags.writeable
                                and out.dtype == g.dtype):
        out += embedding_backward(ids, g, num_embeddings)
        return out
    if out is None:
        out = np.zeros((num_embeddings, D), dtype=g.dtype)
    flat_ids = np.ascontiguousarray(ids, dtype=np.int64).reshape(-1)
    if flat_ids.size:
        bad = scatter_add_rows(flat_ids, np.ascontiguousarray(g).reshape(-1, D), out)
        if bad >= 0:
            raise IndexError(f"embedding backward: id {flat_ids[bad]} at flat position {bad} is "
                             f"outside [0, {num_embeddings})")
    return out

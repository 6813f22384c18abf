"""Masked fill: out = value where mask else x; its backward zeroes the
gradient where the mask was set (those outputs did not depend on x).

The usual attention mask is (T, T) while the scores are (B, H, T, T): the
same mask repeats over the leading axes. The kernel takes x as (L, n) rows
and the mask as one row of n values reused for every row, so the broadcast
mask is never built in memory. A mask that broadcasts some other way (a
size-1 axis in the middle) is expanded to x's full shape first.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def masked_fill_rows(x, mask, value, out):
    """x, out: (L, n); mask: (n,) shared by every row. out = value where mask else x."""
    L, n = x.shape
    for i in range(L):
        for j in range(n):
            out[i, j] = value if mask[j] else x[i, j]


def _mask_as_row(mask: np.ndarray, shape: tuple) -> tuple[np.ndarray, int]:
    """The mask as a flat row of n elements such that x.reshape(-1, n) lines up with it.

    n is the size of the trailing axes where the mask matches x's shape; the
    mask must be 1 on all axes before them, else it is expanded to x's shape.
    """
    full = (1,) * (len(shape) - mask.ndim) + mask.shape
    k = len(shape)
    while k > 0 and full[k - 1] == shape[k - 1]:
        k -= 1
    if any(s != 1 for s in full[:k]):  # broadcasts in the middle: expand it
        return np.ascontiguousarray(np.broadcast_to(mask, shape)).reshape(-1), int(np.prod(shape))
    n = int(np.prod(shape[k:]))
    return np.ascontiguousarray(mask).reshape(n), n


def masked_fill(x: np.ndarray, mask: np.ndarray, value: float) -> np.ndarray:
    """``value`` where the boolean ``mask`` (broadcastable to x) is True, else x."""
    out = np.empty(x.shape, dtype=x.dtype)
    if x.size:
        row, n = _mask_as_row(mask, x.shape)
        x2 = np.ascontiguousarray(x).reshape(-1, n)
        masked_fill_rows(x2, row, x.dtype.type(value), out.reshape(-1, n))
    return out

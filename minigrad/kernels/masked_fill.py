"""Masked fill: out = value where mask else x; its backward zeroes the
gradient where the mask was set (those outputs did not depend on x).

The mask is broadcast to x's shape by the caller, so the kernel walks two
flat arrays of equal length.
"""

from __future__ import annotations

import numpy as np
from numba import njit


def masked_fill_reference(x: np.ndarray, mask: np.ndarray, value: float) -> np.ndarray:
    """Plain NumPy: np.where(mask, value, x)."""
    return np.where(mask, np.asarray(value, dtype=x.dtype), x)


@njit(cache=True)
def masked_fill_flat(x, mask, value, out):
    """x, mask, out: 1-D of equal length."""
    for i in range(x.shape[0]):
        out[i] = value if mask[i] else x[i]


def masked_fill(x: np.ndarray, mask: np.ndarray, value: float) -> np.ndarray:
    """``value`` where ``mask`` (broadcastable to x) is True, else x."""
    m = np.ascontiguousarray(np.broadcast_to(mask, x.shape))
    out = np.empty(x.shape, dtype=x.dtype)
    if x.size:
        masked_fill_flat(np.ascontiguousarray(x).reshape(-1), m.reshape(-1), x.dtype.type(value), out.reshape(-1))
    return out

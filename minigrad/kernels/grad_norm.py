"""Sum of squares of an array, accumulated in float64: the core of ``clip_grad_norm_``.

    sum_of_squares(g) = sum over every element of g**2

NumPy needs ``np.square(g, dtype=np.float64)`` (a float64 copy of the whole
gradient, 8 bytes a value) and then a sum over it; the kernel reads each
float32 value once, widens it in a register and adds it up, with no
temporary. Reassociating the sum (``fastmath`` 'reassoc') lets LLVM keep
several partial sums in vector registers; in float64 that changes the result
only in its last bits.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, fastmath={"reassoc", "contract"})
def _sum_of_squares_flat(g):
    """g: 1-D float array -> float64 sum of its squares (inf/nan propagate)."""
    s = 0.0
    for i in range(g.shape[0]):
        v = np.float64(g[i])
        s += v * v
    return s


def sum_of_squares(g: np.ndarray) -> float:
    """sum(g**2) in float64 for a float array of any shape (a copy only if not contiguous)."""
    return float(_sum_of_squares_flat(np.ascontiguousarray(g).reshape(-1)))

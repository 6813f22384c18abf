"""float32 sums over leading and trailing axes, accumulated in float64, split over the threads.

x (A, M, B) C-contiguous -> s (M,) = sum over a and b of x[a, m, b], in float64: a bias'
gradient (the sum of a (rows, features) gradient over its rows: A rows, B = 1) or a
convolution's (over samples and positions: (N, C, P)). NumPy's float32 sum along a
non-contiguous axis adds row after row in float32 (its error grows with the number of
rows), so the reference casts to float64 first: a float64 copy of the whole array. Here
each thread adds its block of a into float64 accumulators of its own, reading x once in
memory order, and the few partial sums are added at the end.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .runtime.split import threads_for


@njit(cache=True)
def _sum_rows(x, acc, a0, a1):
    """acc[m] += sum over a in a0..a1 and b of x[a, m, b] (acc float64)."""
    _, M, B = x.shape
    for a in range(a0, a1):
        for m in range(M):
            s = 0.0
            for b in range(B):
                s += x[a, m, b]
            acc[m] += s


@njit(cache=True)
def _sum_rows_2d(x, acc, a0, a1):
    """acc[m] += sum over a in a0..a1 of x[a, m]: each row added into acc as a vector."""
    M = x.shape[1]
    for a in range(a0, a1):
        for m in range(M):
            acc[m] += x[a, m]


@njit(cache=True, parallel=True)
def sum_rows_par(x, parts, n):
    A = x.shape[0]
    for t in prange(n):
        _sum_rows(x, parts[t], t * A // n, (t + 1) * A // n)


@njit(cache=True, parallel=True)
def sum_rows_2d_par(x, parts, n):
    A = x.shape[0]
    for t in prange(n):
        _sum_rows_2d(x, parts[t], t * A // n, (t + 1) * A // n)


def sum_outer(x3: np.ndarray) -> np.ndarray:
    """(M,) float64 sums of a C-contiguous (A, M, B) over A and B."""
    A, M, _ = x3.shape
    n = threads_for(x3.size) if A >= 2 else 1
    parts = np.zeros((n, M), np.float64)
    if x3.shape[2] == 1:  # rows (a bias' gradient): a vector add of each row
        x2 = x3.reshape(A, M)
        if n > 1:
            sum_rows_2d_par(x2, parts, n)
        else:
            _sum_rows_2d(x2, parts[0], 0, A)
    elif n > 1:
        sum_rows_par(x3, parts, n)
    else:
        _sum_rows(x3, parts[0], 0, A)
    return parts.sum(0)

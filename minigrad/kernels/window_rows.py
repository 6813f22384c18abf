"""im2col as rows, and its adjoint: a convolution's windows over zero-padded x copied so that
each row of a matrix is one window across all channels, and the gradient of that matrix
added back.

x (N, C, *S) -> cols (N, *O, C, *K), C-contiguous, with cols[n, o, c, k] = x_pad[n, c, o s + k r]
(s the stride, r the dilation, x_pad x with ``pads`` zeros around each spatial dim).
Reshaped to (N * prod(O), C * prod(K)) this is the matrix a convolution multiplies by its
weight (O_ch, C * prod(K)) transposed: the positions of the whole batch as rows, a long
matrix BLAS runs at speed even when each image has few positions.

The kernel is one gather per element through the geometry's table of offsets
(``window_offsets.py``): cols[n, o, c, k] = plane(n, c)[at[o, k]], or 0 in the padding,
which is never built. NumPy's copy of the transposed window view instead walks the
destination through six or more strided dims.

The adjoint, plane(n, c)[at[o, k]] += cols[n, o, c, k] where at >= 0, reads cols in memory
order. Samples are split over the threads: a sample's windows read and write that sample
only, so the adjoint needs no atomics.
"""

from __future__ import annotations

import math

import numpy as np
from numba import get_num_threads, njit, prange

from .runtime.settings import parallel
from .runtime.threads import PARALLEL_MIN_SIZE
from .window_offsets import offsets, window_counts_padded


@njit(cache=True)
def _gather(x, at, cols, n0, n1):
    """cols[n, o, c, k] = x[n, c, at[o, k]] (0 where at < 0) for samples n0..n1."""
    _, P, C, K = cols.shape
    for n in range(n0, n1):
        for o in range(P):
            ao = at[o]
            for c in range(C):
                xc, rc = x[n, c], cols[n, o, c]
                for k in range(K):
                    j = ao[k]
                    v = xc[max(j, 0)]
                    rc[k] = v if j >= 0 else 0  # a select, not a branch per element


@njit(cache=True)
def _scatter(cols, at, dx, n0, n1):
    """dx[n, c, at[o, k]] += cols[n, o, c, k] where at >= 0, for samples n0..n1."""
    _, P, C, K = cols.shape
    for n in range(n0, n1):
        for o in range(P):
            ao = at[o]
            for c in range(C):
                dc, rc = dx[n, c], cols[n, o, c]
                for k in range(K):
                    j = ao[k]
                    if j >= 0:
                        dc[j] += rc[k]


@njit(cache=True, parallel=True)
def gather_par(x, at, cols, n):
    N = cols.shape[0]
    for t in prange(n):
        _gather(x, at, cols, t * N // n, (t + 1) * N // n)


@njit(cache=True, parallel=True)
def scatter_par(cols, at, dx, n):
    N = cols.shape[0]
    for t in prange(n):
        _scatter(cols, at, dx, t * N // n, (t + 1) * N // n)


def _threads(size: int) -> int:
    return get_num_threads() if parallel() and size >= PARALLEL_MIN_SIZE else 1


def window_rows(x: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple, pads: tuple
                ) -> np.ndarray:
    """cols (N, *O, C, *kernel) of x (N, C, *S) padded by ``pads`` ((low, high) per
    spatial dim), C-contiguous (see the module docstring)."""
    n, c, space = x.shape[0], x.shape[1], tuple(x.shape[2:])
    at = offsets(space, tuple(kernel), tuple(stride), tuple(dilation), tuple(pads))
    out = window_counts_padded(space, kernel, stride, dilation, pads)
    x3 = np.ascontiguousarray(x).reshape(n, c, math.prod(space))
    cols = np.empty((n, *out, c, *kernel), x.dtype)
    cols4 = cols.reshape(n, at.shape[0], c, at.shape[1])
    t = _threads(cols.size)
    if t > 1:
        gather_par(x3, at, cols4, t)
    else:
        _gather(x3, at, cols4, 0, n)
    return cols


def window_rows_backward(g: np.ndarray, shape: tuple, kernel: tuple, stride: tuple,
                         dilation: tuple, pads: tuple) -> np.ndarray:
    """dx (shape, unpadded) for g (N, *O, C, *kernel): the adjoint of :func:`window_rows`."""
    n, c, space = shape[0], shape[1], tuple(shape[2:])
    at = offsets(space, tuple(kernel), tuple(stride), tuple(dilation), tuple(pads))
    g4 = np.ascontiguousarray(g).reshape(n, at.shape[0], c, at.shape[1])
    dx = np.zeros((n, c, math.prod(space)), g.dtype)
    t = _threads(g.size)
    if t > 1:
        scatter_par(g4, at, dx, t)
    else:
        _scatter(g4, at, dx, 0, n)
    return dx.reshape(shape)

"""im2col in the two layouts a convolution multiplies, and their adjoints (col2im): the
windows of zero-padded x copied out as a matrix, and the gradient of that matrix added back.

With x_pad x with ``pads`` zeros around each spatial dim, s the stride and r the dilation:

- rows, x (N, C, *S) -> cols (N, *O, C, *K), cols[n, o, c, k] = x_pad[n, c, o s + k r].
  Reshaped to (N * prod(O), C * prod(K)), one row per window of the whole batch: the matrix
  a convolution multiplies by its weight transposed when each image has few positions (a
  long matrix BLAS runs at speed where per-sample products would be tiny);
- columns, x -> cols (N, C, *K, *O), cols[n, c, k, o] = x_pad[n, c, o s + k r]: per sample a
  (C * prod(K), prod(O)) matrix that the weight (O_ch, C * prod(K)) multiplies, for images
  with many positions.

Each kernel is one gather per element through the geometry's table of offsets
(``window_offsets.py``): plane(n, c)[at[o, k]], or 0 in the padding, which is never built.
NumPy's copy of the transposed window view instead walks the destination through six or
more strided dims. The adjoints, plane(n, c)[at[o, k]] += cols[...] where at >= 0, read
cols in memory order. Work is split over the threads by sample (rows) or by plane
(columns): each reads and writes its own planes only, so the adjoints need no atomics.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from .runtime.split import run_split
from .window_offsets import table


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


@njit(cache=True)
def _gather_columns(x, at_t, cols, b0, b1):
    """cols[b, k, o] = x[b, at_t[k, o]] (0 where at_t < 0) for planes b0..b1 (b = n C + c)."""
    _, K, P = cols.shape
    for b in range(b0, b1):
        xb = x[b]
        for k in range(K):
            ak, rk = at_t[k], cols[b, k]
            for o in range(P):
                j = ak[o]
                v = xb[max(j, 0)]
                rk[o] = v if j >= 0 else 0


@njit(cache=True)
def _scatter_columns(cols, at_t, dx, b0, b1):
    """dx[b, at_t[k, o]] += cols[b, k, o] where at_t >= 0, for planes b0..b1."""
    _, K, P = cols.shape
    for b in range(b0, b1):
        db = dx[b]
        for k in range(K):
            ak, rk = at_t[k], cols[b, k]
            for o in range(P):
                j = ak[o]
                if j >= 0:
                    db[j] += rk[o]


@njit(cache=True, parallel=True)
def gather_columns_par(x, at_t, cols, n):
    B = cols.shape[0]
    for t in prange(n):
        _gather_columns(x, at_t, cols, t * B // n, (t + 1) * B // n)


@njit(cache=True, parallel=True)
def scatter_columns_par(cols, at_t, dx, n):
    B = cols.shape[0]
    for t in prange(n):
        _scatter_columns(cols, at_t, dx, t * B // n, (t + 1) * B // n)


def _low(pads: tuple) -> tuple:
    return tuple(lo for lo, _ in pads)


def window_rows(x: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple, pads: tuple,
                out: tuple) -> np.ndarray:
    """cols (N, *out, C, *kernel) of x (N, C, *S) padded by ``pads`` ((low, high) per
    spatial dim), ``out`` windows per dim; C-contiguous (see the module docstring)."""
    n, c, space = x.shape[0], x.shape[1], x.shape[2:]
    at = table(space, out, kernel, stride, dilation, _low(pads))
    x3 = np.ascontiguousarray(x).reshape(n, c, math.prod(space))
    cols = np.empty((n, *out, c, *kernel), x.dtype)
    cols4 = cols.reshape(n, at.shape[0], c, at.shape[1])
    run_split(_gather, gather_par, cols.size, n, x3, at, cols4)
    return cols


def window_rows_backward(g: np.ndarray, shape: tuple, stride: tuple, dilation: tuple,
                         pads: tuple) -> np.ndarray:
    """dx (shape, unpadded) for g (N, *O, C, *kernel): the adjoint of :func:`window_rows`."""
    d = len(stride)
    n, c, space = shape[0], shape[1], shape[2:]
    at = table(space, g.shape[1:1 + d], g.shape[2 + d:], stride, dilation, _low(pads))
    g4 = np.ascontiguousarray(g).reshape(n, at.shape[0], c, at.shape[1])
    dx = np.zeros((n, c, math.prod(space)), g.dtype)
    run_split(_scatter, scatter_par, g.size, n, g4, at, dx)
    return dx.reshape(shape)


def window_columns(x: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple, pads: tuple,
                   out: tuple) -> np.ndarray:
    """cols (N, C, *kernel, *out) of x (N, C, *S) padded by ``pads``, C-contiguous."""
    n, c, space = x.shape[0], x.shape[1], x.shape[2:]
    at_t = table(space, out, kernel, stride, dilation, _low(pads), by_kernel=True)
    x2 = np.ascontiguousarray(x).reshape(n * c, math.prod(space))
    cols = np.empty((n, c, *kernel, *out), x.dtype)
    cols3 = cols.reshape(n * c, at_t.shape[0], at_t.shape[1])
    run_split(_gather_columns, gather_columns_par, cols.size, n * c, x2, at_t, cols3)
    return cols


def window_columns_backward(g: np.ndarray, shape: tuple, stride: tuple, dilation: tuple,
                            pads: tuple) -> np.ndarray:
    """dx (shape, unpadded) for g (N, C, *kernel, *O): the adjoint of :func:`window_columns`."""
    d = len(stride)
    n, c, space = shape[0], shape[1], shape[2:]
    at_t = table(space, g.shape[2 + d:], g.shape[2:2 + d], stride, dilation, _low(pads),
                 by_kernel=True)
    g3 = np.ascontiguousarray(g).reshape(n * c, at_t.shape[0], at_t.shape[1])
    dx = np.zeros((n * c, math.prod(space)), g.dtype)
    run_split(_scatter_columns, scatter_columns_par, g.size, n * c, g3, at_t, dx)
    return dx.reshape(shape)

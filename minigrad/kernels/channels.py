"""A convolution's output between its product's layout and PyTorch's, in one pass each way.

The product of im2col rows with the weight gives the output channels last, rows
(G, N, P, O/G) (G groups, P positions a sample); a layer hands on (N, G, O/G, P), channels
first. :func:`to_channels_first` lays the rows out so and adds the bias in the same pass;
:func:`to_channels_last` is the backward's way back, the output's gradient g (N, G, O/G, P)
as rows (G, N, P, O/G), with the bias' gradient (the sum of g over samples and positions,
accumulated in float64) taken in the same pass. NumPy's transposing copy reads or writes
with a stride of a whole image per element; here each sample is a block of O x P values
that stays in cache while it is turned. Samples are split over the threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .runtime.split import run_split, threads_for


@njit(cache=True)
def _first(rows, bias, has_bias, y, n0, n1):
    """y[n, g, o, p] = rows[g, n, p, o] (+ bias[g, o] if ``has_bias``) for samples n0..n1."""
    G, _, P, O = rows.shape
    for n in range(n0, n1):
        for g in range(G):
            rg, yg, bg = rows[g, n], y[n, g], bias[g]
            for p in range(P):
                for o in range(O):
                    yg[o, p] = rg[p, o] + bg[o] if has_bias else rg[p, o]


@njit(cache=True, parallel=True)
def first_par(rows, bias, has_bias, y, n):
    N = y.shape[0]
    for t in prange(n):
        _first(rows, bias, has_bias, y, t * N // n, (t + 1) * N // n)


@njit(cache=True)
def _last(g, rows, sums, n0, n1):
    """rows[gi, n, p, o] = g[n, gi, o, p] for samples n0..n1; sums[gi, o] += their sum."""
    _, G, O, P = g.shape
    for n in range(n0, n1):
        for gi in range(G):
            for o in range(O):
                src, s = g[n, gi, o], 0.0
                for p in range(P):
                    v = src[p]
                    rows[gi, n, p, o] = v
                    s += v
                sums[gi, o] += s


@njit(cache=True, parallel=True)
def last_par(g, rows, sums, n):
    N = g.shape[0]
    for t in prange(n):
        _last(g, rows, sums[t], t * N // n, (t + 1) * N // n)


def to_channels_first(rows: np.ndarray, bias: np.ndarray | None) -> np.ndarray:
    """(G, N, P, O/G) -> C-contiguous (N, G, O/G, P), plus ``bias`` (G, O/G) if given."""
    rows = np.ascontiguousarray(rows)
    g, n, p, o = rows.shape
    b = np.zeros((g, o), rows.dtype) if bias is None else np.ascontiguousarray(
        bias.reshape(g, o), dtype=rows.dtype)
    y = np.empty((n, g, o, p), rows.dtype)
    run_split(_first, first_par, rows.size, n, rows, b, bias is not None, y)
    return y


def to_channels_last(g: np.ndarray, want_sum: bool) -> tuple:
    """(N, G, O/G, P) -> (C-contiguous (G, N, P, O/G), the sum over N and P (G, O/G) or None)."""
    g = np.ascontiguousarray(g)
    n, groups, o, p = g.shape
    rows = np.empty((groups, n, p, o), g.dtype)
    t = threads_for(g.size)
    sums = np.zeros((t, groups, o), np.float64)
    if t > 1:
        last_par(g, rows, sums, t)
    else:
        _last(g, rows, sums[0], 0, n)
    return rows, (sums.sum(0).astype(g.dtype) if want_sum else None)

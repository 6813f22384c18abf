"""Max pooling's three primitives in one pass each: the maximum of every window with its
position, the element at a given position of every window, and the adjoint of that gather.

Every array is seen as (B, prod(S)): the rows B (batch and channels), each a flat plane of
its spatial dims. A window o reads the plane at the offsets at[o, k] of the geometry's
table (``window_offsets.py``: o s + k r per dim, flattened), for its kernel offsets k in
row-major order (flat index k_d kh kw + k_h kw + k_w); the maximum is the first one in that
order, and a NaN wins (``np.argmax``'s rule and PyTorch's). The rows are split over the
threads: each row's windows read and write that row only, so the scatter needs no atomics.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from .runtime.split import run_split
from .window_offsets import table


@njit(cache=True)
def _max_rows(x, at, y, arg, b0, b1):
    """y, arg of rows b0..b1: each window's maximum over x[b, at[o]] and its offset k."""
    P, K = at.shape
    for b in range(b0, b1):
        xb, yb, ab = x[b], y[b], arg[b]
        for o in range(P):
            ao = at[o]
            best = xb[ao[0]]
            a = 0
            for k in range(1, K):
                v = xb[ao[k]]
                # a larger value, or the first NaN; chosen without a branch (which of a
                # window's values wins is a coin toss on real data: a mispredicted jump for
                # every other element)
                wins = (v > best) | (np.isnan(v) > np.isnan(best))
                best = v if wins else best
                a = k if wins else a
            yb[o] = best
            ab[o] = a


@njit(cache=True)
def _select_rows(x, at, arg, y, scatter, b0, b1):
    """For rows b0..b1 and the element at[o, arg[b, o]] of every window o: y[b, o] = x[b, it]
    (the gather), or with ``scatter`` its adjoint x[b, it] += y[b, o] (x then comes in as
    zeros)."""
    P = at.shape[0]
    for b in range(b0, b1):
        xb, yb, ab = x[b], y[b], arg[b]
        for o in range(P):
            it = at[o, ab[o]]
            if scatter:
                xb[it] += yb[o]
            else:
                yb[o] = xb[it]


@njit(cache=True, parallel=True)
def max_par(x, at, y, arg, n):
    B = x.shape[0]
    for c in prange(n):
        _max_rows(x, at, y, arg, c * B // n, (c + 1) * B // n)


@njit(cache=True, parallel=True)
def select_par(x, at, arg, y, scatter, n):
    B = x.shape[0]
    for c in prange(n):
        _select_rows(x, at, arg, y, scatter, c * B // n, (c + 1) * B // n)


def _planes(x: np.ndarray, d: int) -> np.ndarray:
    """x (..., *S) with d spatial dims as a C-contiguous (B, prod(S)) (a view when it can)."""
    return np.ascontiguousarray(x).reshape(-1, math.prod(x.shape[x.ndim - d:]))


def window_max(x: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple, out: tuple
               ) -> tuple[np.ndarray, np.ndarray]:
    """(y, arg) shaped (..., *out): each window's maximum and its flat kernel offset."""
    d = len(kernel)
    x2 = _planes(x, d)
    at = table(x.shape[x.ndim - d:], out, kernel, stride, dilation)
    y, arg = np.empty((x2.shape[0], at.shape[0]), x.dtype), np.empty(
        (x2.shape[0], at.shape[0]), np.int64)
    run_split(_max_rows, max_par, x2.size, x2.shape[0], x2, at, y, arg)
    lead = x.shape[:x.ndim - d] + tuple(out)
    return y.reshape(lead), arg.reshape(lead)


def _select(x2: np.ndarray, a2: np.ndarray, y2: np.ndarray, at: np.ndarray,
            scatter: bool) -> None:
    """:func:`_select_rows` over every row, on the threads when it pays."""
    run_split(_select_rows, select_par, max(x2.size, y2.size), x2.shape[0], x2, at, a2, y2,
              scatter)


def window_select(x: np.ndarray, arg: np.ndarray, kernel: tuple, stride: tuple,
                  dilation: tuple) -> np.ndarray:
    """y (arg's shape) = x at kernel offset ``arg`` of every window."""
    d = len(kernel)
    a2 = _planes(arg, d)
    y = np.empty(a2.shape, x.dtype)
    _select(_planes(x, d), a2, y, table(x.shape[x.ndim - d:], arg.shape[arg.ndim - d:], kernel,
                                        stride, dilation), False)
    return y.reshape(arg.shape)


def window_scatter(g: np.ndarray, arg: np.ndarray, shape: tuple, kernel: tuple,
                   stride: tuple, dilation: tuple) -> np.ndarray:
    """dx (shape) = zeros with g added at kernel offset ``arg`` of every window."""
    d = len(kernel)
    g2 = _planes(g, d)
    space = shape[len(shape) - d:]
    dx = np.zeros((g2.shape[0], math.prod(space)), g.dtype)
    _select(dx, _planes(arg, d), g2, table(space, g.shape[g.ndim - d:], kernel, stride,
                                           dilation), True)
    return dx.reshape(shape)

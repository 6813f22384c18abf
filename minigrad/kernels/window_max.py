"""Max pooling's three primitives in one pass each: the maximum of every window with its
position, the element at a given position of every window, and the adjoint of that gather.

Every array is seen as (B, D, H, W): the rows B (batch and channels) and up to three spatial
dims, a 1-d or 2-d pooling given size-1 leading dims (``as_3d``). A window at output
position o reads x[b, o s + k r] for its kernel offsets k (row-major, flat index
k_d kh kw + k_h kw + k_w); the maximum is the first one in that order, and a NaN wins
(``np.argmax``'s rule and PyTorch's). The rows are split over the threads: each row's
windows read and write that row only, so the scatter needs no atomics.
"""

from __future__ import annotations

import numpy as np
from numba import get_num_threads, njit, prange

from .runtime.settings import parallel
from .runtime.threads import PARALLEL_MIN_SIZE


@njit(cache=True)
def _max_rows(x, k, s, r, y, arg, b0, b1):
    """y, arg of rows b0..b1 (k, s, r: kernel, stride, dilation as 3-tuples)."""
    _, OD, OH, OW = y.shape
    for b in range(b0, b1):
        xb, yb, ab = x[b], y[b], arg[b]
        for od in range(OD):
            for oh in range(OH):
                for ow in range(OW):
                    d0, h0, w0 = od * s[0], oh * s[1], ow * s[2]
                    best = xb[d0, h0, w0]
                    at = 0
                    n = 0
                    for i in range(k[0]):
                        for j in range(k[1]):
                            for m in range(k[2]):
                                v = xb[d0 + i * r[0], h0 + j * r[1], w0 + m * r[2]]
                                # a larger value, or the first NaN; chosen without a branch
                                # (which of a window's values wins is a coin toss on real
                                # data: a mispredicted jump for every other element)
                                wins = (v > best) | (np.isnan(v) > np.isnan(best))
                                best = v if wins else best
                                at = n if wins else at
                                n += 1
                    yb[od, oh, ow] = best
                    ab[od, oh, ow] = at


@njit(cache=True)
def _select_rows(x, k, s, r, arg, y, b0, b1, scatter):
    """For rows b0..b1 and the element p = o s + k(arg) r of every window o: y[b, o] =
    x[b, p] (the gather), or with ``scatter`` its adjoint x[b, p] += y[b, o] (x then comes
    in as zeros)."""
    _, OD, OH, OW = y.shape
    # each flat kernel offset's position in the window, looked up (no division per window)
    at = np.empty((k[0] * k[1] * k[2], 3), np.int64)
    for a in range(at.shape[0]):
        at[a, 0] = a // (k[1] * k[2]) * r[0]
        at[a, 1] = (a // k[2]) % k[1] * r[1]
        at[a, 2] = a % k[2] * r[2]
    for b in range(b0, b1):
        xb, yb, ab = x[b], y[b], arg[b]
        for od in range(OD):
            for oh in range(OH):
                for ow in range(OW):
                    a = ab[od, oh, ow]
                    d, h, w = od * s[0] + at[a, 0], oh * s[1] + at[a, 1], ow * s[2] + at[a, 2]
                    if scatter:
                        xb[d, h, w] += yb[od, oh, ow]
                    else:
                        yb[od, oh, ow] = xb[d, h, w]


@njit(cache=True, parallel=True)
def max_par(x, k, s, r, y, arg, n):
    B = x.shape[0]
    for c in prange(n):
        _max_rows(x, k, s, r, y, arg, c * B // n, (c + 1) * B // n)


@njit(cache=True, parallel=True)
def select_par(x, k, s, r, arg, y, n, scatter):
    B = x.shape[0]
    for c in prange(n):
        _select_rows(x, k, s, r, arg, y, c * B // n, (c + 1) * B // n, scatter)


def as_3d(x: np.ndarray, d: int) -> np.ndarray:
    """x (..., *S) with d spatial dims as a C-contiguous (B, D, H, W) (a view when it can)."""
    space = x.shape[x.ndim - d:]
    return np.ascontiguousarray(x).reshape((-1,) + (1,) * (3 - d) + space)


def _three(t: tuple) -> tuple:
    return (1,) * (3 - len(t)) + tuple(int(v) for v in t)


def _threads(size: int) -> int:
    return get_num_threads() if parallel() and size >= PARALLEL_MIN_SIZE else 1


def window_max(x: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple, out: tuple
               ) -> tuple[np.ndarray, np.ndarray]:
    """(y, arg) shaped (..., *out): each window's maximum and its flat kernel offset."""
    d = len(kernel)
    x3 = as_3d(x, d)
    shape = (x3.shape[0],) + _three(out)
    y, arg = np.empty(shape, x.dtype), np.empty(shape, np.int64)
    n = _threads(x3.size)
    k, s, r = _three(kernel), _three(stride), _three(dilation)
    if n > 1:
        max_par(x3, k, s, r, y, arg, n)
    else:
        _max_rows(x3, k, s, r, y, arg, 0, x3.shape[0])
    lead = x.shape[:x.ndim - d] + tuple(out)
    return y.reshape(lead), arg.reshape(lead)


def _select(x3: np.ndarray, a3: np.ndarray, y3: np.ndarray, kernel: tuple, stride: tuple,
            dilation: tuple, scatter: bool) -> None:
    """:func:`_select_rows` over every row, on the threads when it pays."""
    n = _threads(max(x3.size, y3.size))
    k, s, r = _three(kernel), _three(stride), _three(dilation)
    if n > 1:
        select_par(x3, k, s, r, a3, y3, n, scatter)
    else:
        _select_rows(x3, k, s, r, a3, y3, 0, x3.shape[0], scatter)


def window_select(x: np.ndarray, arg: np.ndarray, kernel: tuple, stride: tuple,
                  dilation: tuple) -> np.ndarray:
    """y (arg's shape) = x at kernel offset ``arg`` of every window."""
    d = len(kernel)
    a3 = as_3d(arg, d)
    y = np.empty(a3.shape, x.dtype)
    _select(as_3d(x, d), a3, y, kernel, stride, dilation, False)
    return y.reshape(arg.shape)


def window_scatter(g: np.ndarray, arg: np.ndarray, shape: tuple, kernel: tuple,
                   stride: tuple, dilation: tuple) -> np.ndarray:
    """dx (shape) = zeros with g added at kernel offset ``arg`` of every window."""
    d = len(kernel)
    g3 = as_3d(g, d)
    dx = np.zeros((g3.shape[0],) + _three(shape[len(shape) - d:]), g.dtype)
    _select(dx, as_3d(arg, d), g3, kernel, stride, dilation, True)
    return dx.reshape(shape)

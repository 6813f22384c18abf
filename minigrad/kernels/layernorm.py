"""Layer normalisation over the last axis, forward and backward fused per row.

Forward, for a row x of length D (biased variance, as PyTorch):
    mu = mean(x),  var = mean((x - mu)**2),  rstd = 1 / sqrt(var + eps)
    xhat = (x - mu) * rstd,  y = xhat * w + b
A constant row has var = 0, so rstd = 1/sqrt(eps) stays finite and y = b.

Backward, with g = dL/dy and dxhat = g * w:
    dx = rstd * (dxhat - mean(dxhat) - xhat * mean(dxhat * xhat))
    dw = sum over rows of g * xhat,   db = sum over rows of g
The kernel keeps only (mu, rstd) per row from the forward pass and rebuilds
xhat on the fly, so one pass over x and g gives dx, dw and db together.
Sums are accumulated in float64 even for float32 data. The kernels may
reassociate those sums (``fastmath`` 'reassoc'), which lets LLVM add 8 or 16
values per instruction instead of waiting for each add in turn: ~5x faster
rows, at a difference of a few float64 ulps. The forward of 16k values or more
is split into blocks of rows, one per thread (see ``runtime/threads.py``); the backward
stays on one thread (split, with per-block dw and db sums, it measured no faster).
"""

from __future__ import annotations

import numpy as np
from numba import get_num_threads, njit, prange

from .runtime.settings import parallel
from .runtime.threads import PARALLEL_MIN_SIZE

# Reassociate sums (so they vectorize), ignore the sign of zero. Not 'nnan'/'ninf':
# a NaN or inf in x must stay visible in y. Not 'contract' either: a fused
# g*w - mean(g*w) would no longer cancel exactly (dx of a one-element row must be 0).
_FAST = {"reassoc", "nsz"}


@njit(cache=True, fastmath=_FAST, error_model="numpy", inline="always")
def _forward_rows(x, w, b, eps, y, mean, rstd, r0, r1):
    """Rows r0..r1-1 of the forward: fills y, mean, rstd there."""
    D = x.shape[1]
    # The statistics are float64; the per-element work runs in x's dtype (float32
    # vectors are twice as wide): a scalar is cast by a store into this scratch array.
    as_x = np.empty(2, x.dtype)
    for r in range(r0, r1):
        xr = x[r]
        s = 0.0
        for d in range(D):
            s += xr[d]
        mu = s / D
        v = 0.0
        for d in range(D):
            t = xr[d] - mu
            v += t * t
        rs = 1.0 / np.sqrt(v / D + eps)
        mean[r] = mu
        rstd[r] = rs
        as_x[0] = mu
        as_x[1] = rs
        mu_x, rs_x = as_x[0], as_x[1]
        yr = y[r]
        for d in range(D):
            yr[d] = (xr[d] - mu_x) * rs_x * w[d] + b[d]


@njit(cache=True, fastmath=_FAST, error_model="numpy")
def layer_norm_backward_rows(g, x, w, mean, rstd, dx, dw, db):
    """g, x, dx: (R, D); w: (D,); mean, rstd: (R,); dw, db: (D,) float64, zeroed by the caller."""
    R, D = x.shape
    as_x = np.empty(4, x.dtype)  # float64 scalars cast to x's dtype (see _forward_rows)
    for r in range(R):
        as_x[0] = mean[r]
        as_x[1] = rstd[r]
        mu, rs = as_x[0], as_x[1]
        xr, gr = x[r], g[r]
        s1 = 0.0  # sum(dxhat)
        s2 = 0.0  # sum(dxhat * xhat)
        for d in range(D):
            xh = (xr[d] - mu) * rs
            gd = gr[d]
            dxh = gd * w[d]
            s1 += dxh
            s2 += dxh * xh
            dw[d] += gd * xh
            db[d] += gd
        as_x[2] = s1 / D
        as_x[3] = s2 / D
        m1, m2 = as_x[2], as_x[3]
        dxr = dx[r]
        for d in range(D):
            xh = (xr[d] - mu) * rs
            dxr[d] = rs * (gr[d] * w[d] - m1 - xh * m2)


@njit(cache=True, fastmath=_FAST, error_model="numpy")
def layer_norm_rows(x, w, b, eps, y, mean, rstd):
    """x, y: (R, D); w, b: (D,); mean, rstd: (R,). Fills y, mean, rstd."""
    _forward_rows(x, w, b, eps, y, mean, rstd, 0, x.shape[0])


@njit(cache=True, fastmath=_FAST, error_model="numpy", parallel=True)
def layer_norm_rows_par(x, w, b, eps, y, mean, rstd, n):
    """layer_norm_rows with the rows split into n blocks, one per thread."""
    R = x.shape[0]
    for c in prange(n):
        _forward_rows(x, w, b, eps, y, mean, rstd, c * R // n, (c + 1) * R // n)


def _threads(x2: np.ndarray) -> int:
    """How many row blocks (threads) to use: 1 for small inputs (the threads' start costs
    a few microseconds)."""
    return get_num_threads() if parallel() and x2.size >= PARALLEL_MIN_SIZE and x2.shape[0] > 1 else 1


def layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float):
    """Forward over the last axis of x (any leading shape): returns (y, mean, rstd).

    ``w`` and ``b`` have shape (D,) and x's dtype; shapes are checked by the caller.
    """
    D = x.shape[-1]
    x2 = np.ascontiguousarray(x).reshape(-1, D)
    y = np.empty(x2.shape, dtype=x.dtype)
    # per-row statistics stay float64: the backward rebuilds xhat from them
    mean = np.empty(x2.shape[0], dtype=np.float64)
    rstd = np.empty(x2.shape[0], dtype=np.float64)
    w, b = np.ascontiguousarray(w), np.ascontiguousarray(b)
    n = _threads(x2)
    if n > 1:
        layer_norm_rows_par(x2, w, b, float(eps), y, mean, rstd, n)
    elif x2.size:
        layer_norm_rows(x2, w, b, float(eps), y, mean, rstd)
    lead = x.shape[:-1]
    return y.reshape(x.shape), mean.reshape(lead), rstd.reshape(lead)


def layer_norm_backward(g: np.ndarray, x: np.ndarray, w: np.ndarray, mean: np.ndarray,
                        rstd: np.ndarray):
    """Backward of :func:`layer_norm`: returns (dx, dw, db), dw and db of shape (D,)."""
    D = x.shape[-1]
    x2 = np.ascontiguousarray(x).reshape(-1, D)
    g2 = np.ascontiguousarray(g, dtype=x.dtype).reshape(-1, D)
    dx = np.empty(x2.shape, dtype=x.dtype)
    dw = np.zeros(D, dtype=np.float64)
    db = np.zeros(D, dtype=np.float64)
    if x2.size:  # one thread: split in row blocks it measured no faster (dw, db partials)
        layer_norm_backward_rows(g2, x2, np.ascontiguousarray(w), mean.reshape(-1),
                                 rstd.reshape(-1), dx, dw, db)
    return dx.reshape(x.shape), dw.astype(x.dtype), db.astype(x.dtype)

"""Batch normalisation in training, forward and backward fused per channel.

x (N, C, S): channel c's values are x[:, c, :] (S the spatial positions, 1 when there are
none). Forward, per channel (biased variance, as PyTorch normalises):

    mu = mean(x_c),  var = mean((x_c - mu)**2),  rstd = 1 / sqrt(var + eps)
    y_c = (x_c - mu) * rstd * w[c] + b[c]

The statistics take one pass: the sums of t = x - k and t**2 in float64, k the channel's
first value (a shift that keeps the variance exact when the values sit far from zero:
mean(t**2) - mean(t)**2 cancels only what the spread of t leaves). A second pass writes y.

Backward, g = dL/dy, xhat = (x - mu) rstd, two reductions per channel and one pass:

    db = sum(g),  dw = sum(g xhat)
    dx = w rstd (g - db / n - xhat dw / n)

Channels split over the threads when x holds ``PARALLEL_MIN_SIZE`` values or more.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .runtime.settings import parallel
from .runtime.threads import PARALLEL_MIN_SIZE

# Reassociate sums (so they vectorize), ignore the sign of zero; NaN and inf stay visible.
_FAST = {"reassoc", "nsz"}


@njit(cache=True, fastmath=_FAST, error_model="numpy", inline="always")
def _forward_channel(x, w, b, eps, y, mean, var, c):
    """Channel c of the forward: its mean and biased variance (float64), and y."""
    N, _, S = x.shape
    k = np.float64(x[0, c, 0])
    s = 0.0
    q = 0.0
    for n in range(N):
        row = x[n, c]
        for j in range(S):
            t = np.float64(row[j]) - k
            s += t
            q += t * t
    count = N * S
    m = s / count
    v = max(q / count - m * m, 0.0)
    mean[c] = k + m
    var[c] = v
    # the per-element work runs in x's dtype: the scalars are cast by a store
    as_x = np.empty(3, x.dtype)
    as_x[0] = k + m
    as_x[1] = w[c] / np.sqrt(v + eps)
    as_x[2] = b[c]
    mu_x, scale, shift = as_x[0], as_x[1], as_x[2]
    for n in range(N):
        row = x[n, c]
        out = y[n, c]
        for j in range(S):
            out[j] = (row[j] - mu_x) * scale + shift


@njit(cache=True, fastmath=_FAST, error_model="numpy", inline="always")
def _backward_channel(g, x, w, mean, rstd, dx, dw, db, c):
    """Channel c of the backward: dw[c], db[c] (float64) and dx."""
    N, _, S = x.shape
    mu, rs = mean[c], rstd[c]
    sg = 0.0
    sgx = 0.0
    for n in range(N):
        gr, xr = g[n, c], x[n, c]
        for j in range(S):
            gj = np.float64(gr[j])
            sg += gj
            sgx += gj * (np.float64(xr[j]) - mu)
    count = N * S
    dw[c] = sgx * rs
    db[c] = sg
    as_x = np.empty(4, x.dtype)
    as_x[0] = mu
    as_x[1] = rs
    as_x[2] = w[c] * rs
    as_x[3] = sg / count
    mu_x, rs_x, a, g_mean = as_x[0], as_x[1], as_x[2], as_x[3]
    as_x[0] = sgx * rs / count
    gx_mean = as_x[0]
    for n in range(N):
        gr, xr, out = g[n, c], x[n, c], dx[n, c]
        for j in range(S):
            out[j] = a * (gr[j] - g_mean - (xr[j] - mu_x) * rs_x * gx_mean)


@njit(cache=True, fastmath=_FAST, error_model="numpy")
def _forward(x, w, b, eps, y, mean, var):
    for c in range(x.shape[1]):
        _forward_channel(x, w, b, eps, y, mean, var, c)


@njit(cache=True, fastmath=_FAST, error_model="numpy", parallel=True)
def _forward_par(x, w, b, eps, y, mean, var):
    for c in prange(x.shape[1]):
        _forward_channel(x, w, b, eps, y, mean, var, c)


@njit(cache=True, fastmath=_FAST, error_model="numpy")
def _backward(g, x, w, mean, rstd, dx, dw, db):
    for c in range(x.shape[1]):
        _backward_channel(g, x, w, mean, rstd, dx, dw, db, c)


@njit(cache=True, fastmath=_FAST, error_model="numpy", parallel=True)
def _backward_par(g, x, w, mean, rstd, dx, dw, db):
    for c in prange(x.shape[1]):
        _backward_channel(g, x, w, mean, rstd, dx, dw, db, c)


def _threads(x: np.ndarray) -> bool:
    return parallel() and x.shape[1] > 1 and x.size >= PARALLEL_MIN_SIZE


def batch_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> tuple:
    """(y, mean, var) for C-contiguous x (N, C, S), w and b (C,) of x's dtype: y like x,
    mean and the biased var (C,) float64 (see the module docstring)."""
    y = np.empty_like(x)
    C = x.shape[1]
    mean, var = np.empty(C), np.empty(C)
    (_forward_par if _threads(x) else _forward)(x, w, b, eps, y, mean, var)
    return y, mean, var


def batch_norm_backward(g: np.ndarray, x: np.ndarray, w: np.ndarray, mean: np.ndarray,
                        rstd: np.ndarray) -> tuple:
    """(dx, dw, db) for C-contiguous g and x (N, C, S), w (C,) of x's dtype, the forward's
    mean and rstd = 1 / sqrt(var + eps) (C,) float64; each result in x's dtype."""
    dx = np.empty_like(x)
    C = x.shape[1]
    dw, db = np.empty(C), np.empty(C)
    (_backward_par if _threads(x) else _backward)(g, x, w, mean, rstd, dx, dw, db)
    return dx, dw.astype(x.dtype), db.astype(x.dtype)

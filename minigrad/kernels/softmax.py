"""Softmax over the last axis, forward and backward, row by row.

Forward, for a row x:  y_j = exp(x_j - m) / sum_k exp(x_k - m),  m = max(x).
Subtracting m keeps exp() from overflowing (logits of +-1000 are fine); a row
that is entirely -inf (every key masked) has no valid m and gives zeros.

Backward, for a row with output y and incoming gradient g:
dx_j = y_j * (g_j - sum_k g_k y_k)    (the softmax Jacobian diag(y) - y y^T
applied to g without ever building it).
"""

from __future__ import annotations

import numpy as np
from numba import njit


def softmax_reference(x: np.ndarray) -> np.ndarray:
    """Plain NumPy softmax over the last axis (fully -inf rows give zeros)."""
    m = x.max(axis=-1, keepdims=True)
    finite = np.isfinite(m)
    e = np.exp(x - np.where(finite, m, 0))
    s = e.sum(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(finite & (s > 0), e / s, 0).astype(x.dtype)


def softmax_backward_reference(y: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Plain NumPy: dx = y * (g - sum(g * y))."""
    return y * (g - (g * y).sum(axis=-1, keepdims=True))


def log_softmax_reference(x: np.ndarray) -> np.ndarray:
    """Plain NumPy log-softmax over the last axis: x - m - log(sum(exp(x - m)))."""
    m = x.max(axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    return (x - m - np.log(np.exp(x - m).sum(axis=-1, keepdims=True))).astype(x.dtype)


@njit(cache=True)
def softmax_rows(x, out):
    """x, out: (R, C) C-contiguous. out[r] = softmax(x[r])."""
    R, C = x.shape
    for r in range(R):
        m = -np.inf
        for c in range(C):
            if x[r, c] > m:
                m = x[r, c]
        if m == -np.inf:
            for c in range(C):
                out[r, c] = 0.0
            continue
        s = 0.0
        for c in range(C):
            e = np.exp(x[r, c] - m)
            out[r, c] = e
            s += e
        inv = 1.0 / s
        for c in range(C):
            out[r, c] *= inv


@njit(cache=True)
def softmax_backward_rows(y, g, out):
    """y, g, out: (R, C). out[r] = y[r] * (g[r] - dot(g[r], y[r]))."""
    R, C = y.shape
    for r in range(R):
        d = 0.0
        for c in range(C):
            d += g[r, c] * y[r, c]
        for c in range(C):
            out[r, c] = y[r, c] * (g[r, c] - d)


@njit(cache=True)
def log_softmax_rows(x, out):
    """x, out: (R, C). out[r] = x[r] - m - log(sum(exp(x[r] - m)))."""
    R, C = x.shape
    for r in range(R):
        m = -np.inf
        for c in range(C):
            if x[r, c] > m:
                m = x[r, c]
        if m == -np.inf:
            m = 0.0
        s = 0.0
        for c in range(C):
            s += np.exp(x[r, c] - m)
        lse = m + np.log(s)
        for c in range(C):
            out[r, c] = x[r, c] - lse


@njit(cache=True)
def log_softmax_backward_rows(out_ls, g, dx):
    """dx[r] = g[r] - softmax(x[r]) * sum(g[r]), with softmax = exp(log_softmax)."""
    R, C = out_ls.shape
    for r in range(R):
        s = 0.0
        for c in range(C):
            s += g[r, c]
        for c in range(C):
            dx[r, c] = g[r, c] - np.exp(out_ls[r, c]) * s


def _rows(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(x).reshape(-1, x.shape[-1]) if x.ndim else x.reshape(1, 1)


def softmax(x: np.ndarray) -> np.ndarray:
    """Softmax over the last axis of a float array (any leading shape)."""
    out = np.empty(x.shape, dtype=x.dtype)
    if x.size:
        softmax_rows(_rows(x), out.reshape(-1, x.shape[-1]))
    return out


def softmax_backward(y: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Gradient of softmax over the last axis, given output y and upstream g."""
    out = np.empty(y.shape, dtype=y.dtype)
    if y.size:
        softmax_backward_rows(_rows(y), _rows(g.astype(y.dtype, copy=False)), out.reshape(-1, y.shape[-1]))
    return out


def log_softmax(x: np.ndarray) -> np.ndarray:
    """Log-softmax over the last axis."""
    out = np.empty(x.shape, dtype=x.dtype)
    if x.size:
        log_softmax_rows(_rows(x), out.reshape(-1, x.shape[-1]))
    return out


def log_softmax_backward(out_ls: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Gradient of log-softmax given its output and upstream g."""
    dx = np.empty(out_ls.shape, dtype=out_ls.dtype)
    if out_ls.size:
        log_softmax_backward_rows(
            _rows(out_ls), _rows(g.astype(out_ls.dtype, copy=False)), dx.reshape(-1, out_ls.shape[-1])
        )
    return dx

"""Softmax over the last axis, forward and backward, row by row.

Forward, for a row x:  y_j = exp(x_j - m) / sum_k exp(x_k - m),  m = max(x).
Subtracting m keeps exp() from overflowing (logits of +-1000 are fine); a row
that is entirely -inf (every key masked) has no valid m and gives zeros.

Backward, for a row with output y and incoming gradient g:
dx_j = y_j * (g_j - sum_k g_k y_k)    (the softmax Jacobian diag(y) - y y^T
applied to g without ever building it).

How the forward is split, and why: the exponential dominates the cost. Numba
compiles ``np.exp`` to one scalar libm call per element (~5 ns), while NumPy's
own ``np.exp`` runs SIMD code over the whole array (~0.5 ns per float32). So
the forward is three passes over a block that stays in cache: a Numba pass
that subtracts each row's max, NumPy's exp in place, and a Numba pass that
divides each row by its sum. The Numba loops use ``fastmath`` flags that only
allow reordering sums (so they vectorize); they keep inf/NaN semantics, which
the -inf masking relies on.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Reassociate sums, contract to FMA, ignore the sign of zero, reciprocal
# instead of divide. Deliberately NOT 'nnan'/'ninf': masked logits are -inf.
_FAST = {"reassoc", "contract", "nsz", "arcp"}


@njit(cache=True, fastmath=_FAST)
def subtract_row_max(x, out, lowest):
    """x, out: (R, C). out[r] = x[r] - max(lowest, max(x[r])).

    ``lowest`` is the most negative finite number of x's dtype. It changes
    nothing for a row with any finite entry, and a row that is all -inf
    (every key masked) subtracts a finite number and stays all -inf, so its
    exponentials are 0 instead of exp(-inf - -inf) = NaN.
    """
    R, C = x.shape
    for r in range(R):
        m = lowest
        for c in range(C):
            m = max(m, x[r, c])
        for c in range(C):
            out[r, c] = x[r, c] - m


@njit(cache=True, inline="always")
def divide_row_by_sum(e, r, n, total, one):
    """e[r, :n] *= one / total: the last step of every softmax row of the fast backend
    (:func:`normalise_rows`, and the fused attention tile of ``attention.py``).

    minigrad's fully-masked-row rule, written once: a row whose exponentials sum to 0
    (every key masked, so each is exp(-inf) = 0) stays 0 instead of 0 / 0 = NaN.
    """
    if total != 0:
        inv = one / total
        for c in range(n):
            e[r, c] *= inv


@njit(cache=True, fastmath=_FAST)
def normalise_rows(e, one):
    """e: (R, C) of exponentials, in place: e[r] /= sum(e[r]). ``one`` is 1 in e's dtype
    (the sum then stays in that precision and vectorizes).

    An all-zero row (fully masked) stays 0 (:func:`divide_row_by_sum`); a NaN anywhere
    makes the row NaN. Shared by :func:`softmax` and the attention softmax
    (``masked_softmax.py``).
    """
    R, C = e.shape
    for r in range(R):
        t = e[r, 0]
        for c in range(1, C):
            t += e[r, c]
        divide_row_by_sum(e, r, C, t, one)


@njit(cache=True, fastmath=_FAST)
def subtract_log_row_sum(shifted, e):
    """shifted[r] -= log(sum(e[r])) in place, e = exp(shifted)."""
    R, C = shifted.shape
    for r in range(R):
        s = 0.0
        for c in range(C):
            s += e[r, c]
        lse = np.log(s)
        for c in range(C):
            shifted[r, c] -= lse


@njit(cache=True, fastmath=_FAST)
def softmax_backward_rows(y, g, scale):
    """y, g: (R, C), C >= 1. In place on g: g[r] = scale * y[r] * (g[r] - dot(g[r], y[r]));
    ``scale`` in y's dtype (1 for a plain softmax, the score scale for attention's).
    In place because a separate output array that might alias g kept LLVM from
    vectorizing the loop (measured 2-3x slower)."""
    R, C = y.shape
    for r in range(R):
        d = g[r, 0] * y[r, 0]
        for c in range(1, C):
            d += g[r, c] * y[r, c]
        for c in range(C):
            g[r, c] = scale * y[r, c] * (g[r, c] - d)


@njit(cache=True, fastmath=_FAST)
def log_softmax_backward_rows(p, g):
    """p holds softmax = exp(log_softmax); in place: p[r] = g[r] - p[r] * sum(g[r])."""
    R, C = p.shape
    for r in range(R):
        s = 0.0
        for c in range(C):
            s += g[r, c]
        for c in range(C):
            p[r, c] = g[r, c] - p[r, c] * s


def _rows(x: np.ndarray) -> np.ndarray:
    """x as a 2-D (rows, last axis) array; copies only if x is not C-contiguous."""
    return np.ascontiguousarray(x).reshape(-1, x.shape[-1])


def softmax(x: np.ndarray) -> np.ndarray:
    """Softmax over the last axis of a float array (ndim >= 1, any leading shape)."""
    out = np.empty(x.shape, dtype=x.dtype)
    if x.size:
        out2 = out.reshape(-1, x.shape[-1])
        subtract_row_max(_rows(x), out2, np.finfo(x.dtype).min)
        np.exp(out2, out=out2)
        normalise_rows(out2, x.dtype.type(1))
    return out


def softmax_backward(y: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Gradient of softmax over the last axis, given output y and upstream g (same dtype)."""
    out = np.array(g, dtype=y.dtype, order="C")  # the gradient is computed in place
    if y.size:
        softmax_backward_rows(_rows(y), out.reshape(-1, y.shape[-1]), y.dtype.type(1))
    return out


def log_softmax(x: np.ndarray) -> np.ndarray:
    """Log-softmax over the last axis (ndim >= 1); an all -inf row gives NaN."""
    out = np.empty(x.shape, dtype=x.dtype)
    if x.size:
        out2 = out.reshape(-1, x.shape[-1])
        subtract_row_max(_rows(x), out2, np.finfo(x.dtype).min)
        subtract_log_row_sum(out2, np.exp(out2))
    return out


def log_softmax_backward(out_ls: np.ndarray, g: np.ndarray) -> np.ndarray:
    """Gradient of log-softmax given its output and upstream g (same dtype)."""
    dx = np.exp(out_ls)  # softmax, then overwritten in place with the gradient
    if dx.size:
        log_softmax_backward_rows(dx.reshape(-1, out_ls.shape[-1]), _rows(g))
    return dx

"""A whole float32 recurrence (Elman RNN, LSTM, GRU) and its backpropagation through time,
one compiled loop over the time steps.

The math is ``minigrad/backends/recurrence_reference.py``'s (PyTorch's cells), step for
step: per step one BLAS product for the recurrent part (``np.dot`` into preallocated
buffers) and one fused pass over the (N, H) gates.

The product is taken transposed: gh^T = W_hh h^T (4H, n) forward and dh_prev^T = W_hh^T
dgh^T (H, n) backward (W_hh^T copied to C order once per sequence), with n the few batch
rows of a thread. OpenBLAS runs this shape, a wide weight times a thin block of columns,
much faster than h W_hh^T with a thin block of rows: for LSTM(128, 128) over 64 steps,
64 products of 32 rows took 3.8 ms forward (SkylakeX kernels) and 6.6 ms (forced Haswell
kernels), transposed 2.9 and 2.8 ms; for 16 rows (one of two threads) 2.4 / 3.2 ms
against 1.6 / 1.6 ms, the backward alike. The gate pass then reads gh's column q for row
q (a strided read from a buffer that stays in cache, ~0.5 ms of the saving given back
for 32 rows), and the backward adds the (H, n) result into dh by columns. Composed of autograd ops, a GRU step is about twenty ops forward and as many
backward, each with its Python and dispatch cost; here it is one call for the whole
sequence, as cuDNN's and PyTorch's fused RNN kernels.

The gate functions are float32 arithmetic on ``exp_nonpos_f32`` (no libm call, so the
inner loop vectorises): σ(a) = 1 / (1 + e) for a >= 0 and e / (1 + e) below, e = exp(-|a|);
tanh(a) = sign(a) (1 - e) / (1 + e), e = exp(-2 |a|) (absolute error a few 1e-8 near 0).
"""

from __future__ import annotations

import numpy as np
from numba import get_num_threads, njit, prange

from .runtime.float32_bits import CONTRACT, exp_nonpos_f32
from .runtime.settings import parallel
from .runtime.threads import PARALLEL_MIN_SIZE

_F = np.float32
#: the cell kinds as the kernels number them
KINDS = {"RNN_TANH": 0, "RNN_RELU": 1, "LSTM": 2, "GRU": 3}


@njit(cache=True, inline="always", error_model="numpy")
def _sigmoid(a):
    e = exp_nonpos_f32(-abs(a))
    s = _F(1.0) / (_F(1.0) + e)
    return s if a >= 0 else e * s


@njit(cache=True, inline="always", error_model="numpy")
def _tanh(a):
    e = exp_nonpos_f32(_F(-2.0) * abs(a))
    t = (_F(1.0) - e) / (_F(1.0) + e)
    return t if a >= 0 else -t


@njit(cache=True, error_model="numpy", fastmath=CONTRACT)
def _sigmoid_into(v, out):
    """out = σ(v) over 1-d arrays (one read, one write: the loop vectorises)."""
    for j in range(v.size):
        out[j] = _sigmoid(v[j])


@njit(cache=True, error_model="numpy", fastmath=CONTRACT)
def _tanh_into(v, out):
    """out = tanh(v) over 1-d arrays."""
    for j in range(v.size):
        out[j] = _tanh(v[j])


@njit(cache=True, error_model="numpy", fastmath=CONTRACT)
def _add3(a, b, c, out):
    """out = a + b + c over 1-d arrays."""
    for j in range(out.size):
        out[j] = a[j] + b[j] + c[j]


@njit(cache=True, error_model="numpy", fastmath=CONTRACT)
def recurrence_f32(kind, gi, h0, c0, w_hh, b_hh, reverse, y, gates, r0, r1):
    """Fill y (L, N, S H) and gates (L, N, 4 H) for gi (L, N, G H), h0, c0 (N, H), w_hh
    (G H, H), b_hh (G H,) (zeros when the layer has none), ``kind`` a :data:`KINDS` value.
    Each step is the product, then passes over 1-d rows that each write one array (so that
    the gate functions run as vector code). Only the batch rows r0..r1 are computed: the
    rows never meet, so :func:`recurrence_par` gives each thread rows of its own."""
    L, _, GH = gi.shape
    H = h0.shape[1]
    h = h0[r0:r1].copy()  # the rows' states, row q = n - r0
    c = c0[r0:r1].copy()
    ght = np.empty((GH, r1 - r0), np.float32)  # gh transposed: column q is row n's
    a = np.empty(GH, np.float32)
    for s in range(L):
        t = L - 1 - s if reverse else s
        np.dot(w_hh, h.T, ght)
        for n in range(r0, r1):
            q = n - r0
            gh = ght[:, q]
            if kind == 3:  # GRU: gates[t, n] = [r, z, n, gh_n]
                g = gates[t, n]
                _add3(gi[t, n, :2 * H], gh[:2 * H], b_hh[:2 * H], a[:2 * H])
                _sigmoid_into(a[:2 * H], g[:2 * H])
                for j in range(H):
                    g[3 * H + j] = gh[2 * H + j] + b_hh[2 * H + j]
                for j in range(H):
                    a[j] = gi[t, n, 2 * H + j] + g[j] * g[3 * H + j]
                _tanh_into(a[:H], g[2 * H:3 * H])
                for j in range(H):
                    h[q, j] = (_F(1.0) - g[H + j]) * g[2 * H + j] + g[H + j] * h[q, j]
                y[t, n, :] = h[q]
            elif kind == 2:  # LSTM: gates[t, n] = [σ(i), σ(f), tanh(g), σ(o)]
                g = gates[t, n]
                _add3(gi[t, n], gh, b_hh, a)
                _sigmoid_into(a[:2 * H], g[:2 * H])
                _tanh_into(a[2 * H:3 * H], g[2 * H:3 * H])
                _sigmoid_into(a[3 * H:], g[3 * H:])
                for j in range(H):
                    c[q, j] = g[H + j] * c[q, j] + g[j] * g[2 * H + j]
                _tanh_into(c[q], a[:H])
                for j in range(H):
                    h[q, j] = g[3 * H + j] * a[j]
                y[t, n, :H] = h[q]
                y[t, n, H:] = c[q]
            else:
                _add3(gi[t, n], gh, b_hh, a)
                if kind == 0:
                    _tanh_into(a, h[q])
                else:
                    for j in range(H):  # relu, a NaN kept (as np.maximum)
                        h[q, j] = _F(0.0) if a[j] <= 0 else a[j]
                y[t, n, :] = h[q]


@njit(cache=True, parallel=True)
def recurrence_par(kind, gi, h0, c0, w_hh, b_hh, reverse, y, gates, n):
    """recurrence_f32 with the batch rows split into n blocks, one thread each: a row's
    steps depend on that row alone, so the threads never wait for each other."""
    N = gi.shape[1]
    for c in prange(n):
        recurrence_f32(kind, gi, h0, c0, w_hh, b_hh, reverse, y, gates, c * N // n,
                       (c + 1) * N // n)


@njit(cache=True, error_model="numpy", fastmath=CONTRACT)
def recurrence_backward_f32(kind, gy, y, gates, h0, c0, w_hh, reverse, dgi, dgh, dh, dc,
                            db, r0, r1):
    """Backpropagation through time of :func:`recurrence_f32`: fill dgi and dgh (L, N, G H)
    (the same array but for the GRU, whose recurrent part of n is scaled by r) and leave
    dh0, dc0 in dh, dc (N, H), which come in as zeros. The rows of dgh are added into the
    float64 db (G H,) (zeros coming in) as they are made, while they are still in cache:
    db_hh without another pass over (L, N, G H). As the forward, each pass over a row
    writes one array; only the batch rows r0..r1, as the forward."""
    L, _, GH = dgh.shape
    H = h0.shape[1]
    back = np.empty((H, r1 - r0), np.float32)  # dgh W_hh transposed: column q is row n's
    w_t = np.ascontiguousarray(w_hh.T)
    d = np.empty(H, np.float32)   # the gradient reaching h'
    e = np.empty(H, np.float32)   # LSTM: tanh(c'), then the gradient reaching c'
    one = _F(1.0)
    for s in range(L):
        t = s if reverse else L - 1 - s
        tp = t + 1 if reverse else t - 1
        first = tp < 0 or tp >= L  # the step that started from h0 (and c0)
        for n in range(r0, r1):
            gyr, g, dg = gy[t, n], gates[t, n], dgi[t, n]
            for j in range(H):
                d[j] = dh[n, j] + gyr[j]
            if kind == 3:  # GRU
                hp = h0[n] if first else y[tp, n]
                for j in range(H):  # da_n
                    dg[2 * H + j] = d[j] * (one - g[H + j]) * (one - g[2 * H + j] * g[2 * H + j])
                for j in range(H):  # da_z
                    dg[H + j] = d[j] * (hp[j] - g[2 * H + j]) * g[H + j] * (one - g[H + j])
                for j in range(H):  # da_r
                    dg[j] = dg[2 * H + j] * g[3 * H + j] * g[j] * (one - g[j])
                dr = dgh[t, n]
                for j in range(2 * H):
                    dr[j] = dg[j]
                for j in range(H):
                    dr[2 * H + j] = dg[2 * H + j] * g[j]
                for j in range(H):
                    dh[n, j] = d[j] * g[H + j]
            elif kind == 2:  # LSTM
                yr = y[t, n]
                cp = c0[n] if first else y[tp, n, H:]
                _tanh_into(yr[H:], e)
                for j in range(H):  # da_o
                    dg[3 * H + j] = d[j] * e[j] * g[3 * H + j] * (one - g[3 * H + j])
                for j in range(H):  # the gradient reaching c'
                    e[j] = dc[n, j] + gyr[H + j] + d[j] * g[3 * H + j] * (one - e[j] * e[j])
                for j in range(H):  # da_i
                    dg[j] = e[j] * g[2 * H + j] * g[j] * (one - g[j])
                for j in range(H):  # da_f
                    dg[H + j] = e[j] * cp[j] * g[H + j] * (one - g[H + j])
                for j in range(H):  # da_g
                    dg[2 * H + j] = e[j] * g[j] * (one - g[2 * H + j] * g[2 * H + j])
                for j in range(H):
                    dc[n, j] = e[j] * g[H + j]
                for j in range(H):
                    dh[n, j] = _F(0.0)
            else:
                yr = y[t, n]
                for j in range(H):
                    if kind == 0:
                        dg[j] = d[j] * (one - yr[j] * yr[j])
                    else:
                        dg[j] = d[j] if yr[j] > 0 else _F(0.0)  # relu: by selection
                for j in range(H):
                    dh[n, j] = _F(0.0)
            dr = dgh[t, n]
            for j in range(GH):
                db[j] += dr[j]
        np.dot(w_t, dgh[t, r0:r1].T, back)
        for n in range(r0, r1):
            for j in range(H):
                dh[n, j] += back[j, n - r0]


@njit(cache=True, parallel=True)
def recurrence_backward_par(kind, gy, y, gates, h0, c0, w_hh, reverse, dgi, dgh, dh, dc, db):
    """recurrence_backward_f32 with the batch rows split over the threads, one per row of
    db (threads, G H), each thread's part of db_hh (see recurrence_par)."""
    N = gy.shape[1]
    n = db.shape[0]
    for c in prange(n):
        recurrence_backward_f32(kind, gy, y, gates, h0, c0, w_hh, reverse, dgi, dgh, dh, dc,
                                db[c], c * N // n, (c + 1) * N // n)


def threads_for(batch: int, size: int) -> int:
    """How many threads share a recurrence of ``batch`` rows and ``size`` gate values."""
    if not parallel() or batch < 2 or size < PARALLEL_MIN_SIZE:
        return 1
    return min(get_num_threads(), batch)

"""A whole float32 recurrence (Elman RNN, LSTM, GRU) and its backpropagation through time,
one compiled loop over the time steps.

The math is ``minigrad/backends/recurrence_reference.py``'s (PyTorch's cells), step for
step: per step one BLAS product for the recurrent part (forward gh = h W_hh^T, backward
dh_prev = dgh W_hh, ``np.dot`` into preallocated buffers) and one fused pass over the
(N, H) gates. Composed of autograd ops, a GRU step is about twenty ops forward and as many
backward, each with its Python and dispatch cost; here it is one call for the whole
sequence, as cuDNN's and PyTorch's fused RNN kernels.

The gate functions are float32 arithmetic on ``exp_nonpos_f32`` (no libm call, so the
inner loop vectorises): σ(a) = 1 / (1 + e) for a >= 0 and e / (1 + e) below, e = exp(-|a|);
tanh(a) = sign(a) (1 - e) / (1 + e), e = exp(-2 |a|) (absolute error a few 1e-8 near 0).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .runtime.float32_bits import CONTRACT, exp_nonpos_f32

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
def recurrence_f32(kind, gi, h0, c0, w_hh, b_hh, reverse, y, gates):
    """Fill y (L, N, S H) and gates (L, N, 4 H) for gi (L, N, G H), h0, c0 (N, H), w_hh
    (G H, H), b_hh (G H,) (zeros when the layer has none), ``kind`` a :data:`KINDS` value."""
    L, N, GH = gi.shape
    H = h0.shape[1]
    h = h0.copy()
    c = c0.copy()
    gh = np.empty((N, GH), np.float32)
    w_t = w_hh.T
    for s in range(L):
        t = L - 1 - s if reverse else s
        np.dot(h, w_t, gh)
        for n in range(N):
            if kind == 3:  # GRU
                for j in range(H):
                    r = _sigmoid(gi[t, n, j] + gh[n, j] + b_hh[j])
                    z = _sigmoid(gi[t, n, H + j] + gh[n, H + j] + b_hh[H + j])
                    ghn = gh[n, 2 * H + j] + b_hh[2 * H + j]
                    m = _tanh(gi[t, n, 2 * H + j] + r * ghn)
                    v = (_F(1.0) - z) * m + z * h[n, j]
                    h[n, j] = v
                    y[t, n, j] = v
                    gates[t, n, j] = r
                    gates[t, n, H + j] = z
                    gates[t, n, 2 * H + j] = m
                    gates[t, n, 3 * H + j] = ghn
            elif kind == 2:  # LSTM
                for j in range(H):
                    i = _sigmoid(gi[t, n, j] + gh[n, j] + b_hh[j])
                    f = _sigmoid(gi[t, n, H + j] + gh[n, H + j] + b_hh[H + j])
                    g = _tanh(gi[t, n, 2 * H + j] + gh[n, 2 * H + j] + b_hh[2 * H + j])
                    o = _sigmoid(gi[t, n, 3 * H + j] + gh[n, 3 * H + j] + b_hh[3 * H + j])
                    cv = f * c[n, j] + i * g
                    v = o * _tanh(cv)
                    c[n, j] = cv
                    h[n, j] = v
                    y[t, n, j] = v
                    y[t, n, H + j] = cv
                    gates[t, n, j] = i
                    gates[t, n, H + j] = f
                    gates[t, n, 2 * H + j] = g
                    gates[t, n, 3 * H + j] = o
            else:
                for j in range(H):
                    a = gi[t, n, j] + gh[n, j] + b_hh[j]
                    v = _tanh(a) if kind == 0 else (a if a > 0 else _F(0.0))
                    h[n, j] = v
                    y[t, n, j] = v


@njit(cache=True, error_model="numpy", fastmath=CONTRACT)
def recurrence_backward_f32(kind, gy, y, gates, h0, c0, w_hh, reverse, dgi, dgh, dh, dc):
    """Backpropagation through time of :func:`recurrence_f32`: fill dgi and dgh (L, N, G H)
    (the same array but for the GRU, whose recurrent part of n is scaled by r) and leave
    dh0, dc0 in dh, dc (N, H), which come in as zeros."""
    L, N, GH = gy.shape
    H = h0.shape[1]
    back = np.empty((N, H), np.float32)
    for s in range(L):
        t = s if reverse else L - 1 - s
        tp = t + 1 if reverse else t - 1
        first = tp < 0 or tp >= L  # the step that started from h0 (and c0)
        for n in range(N):
            if kind == 3:  # GRU
                for j in range(H):
                    d = dh[n, j] + gy[t, n, j]
                    r = gates[t, n, j]
                    z = gates[t, n, H + j]
                    m = gates[t, n, 2 * H + j]
                    hp = h0[n, j] if first else y[tp, n, j]
                    dan = d * (_F(1.0) - z) * (_F(1.0) - m * m)
                    daz = d * (hp - m) * z * (_F(1.0) - z)
                    dar = dan * gates[t, n, 3 * H + j] * r * (_F(1.0) - r)
                    dgi[t, n, j] = dar
                    dgi[t, n, H + j] = daz
                    dgi[t, n, 2 * H + j] = dan
                    dgh[t, n, j] = dar
                    dgh[t, n, H + j] = daz
                    dgh[t, n, 2 * H + j] = dan * r
                    dh[n, j] = d * z
            elif kind == 2:  # LSTM
                for j in range(H):
                    d = dh[n, j] + gy[t, n, j]
                    i = gates[t, n, j]
                    f = gates[t, n, H + j]
                    g = gates[t, n, 2 * H + j]
                    o = gates[t, n, 3 * H + j]
                    tc = _tanh(y[t, n, H + j])
                    cp = c0[n, j] if first else y[tp, n, H + j]
                    dcv = dc[n, j] + gy[t, n, H + j] + d * o * (_F(1.0) - tc * tc)
                    dgi[t, n, j] = dcv * g * i * (_F(1.0) - i)
                    dgi[t, n, H + j] = dcv * cp * f * (_F(1.0) - f)
                    dgi[t, n, 2 * H + j] = dcv * i * (_F(1.0) - g * g)
                    dgi[t, n, 3 * H + j] = d * tc * o * (_F(1.0) - o)
                    dc[n, j] = dcv * f
                    dh[n, j] = _F(0.0)
            else:
                for j in range(H):
                    d = dh[n, j] + gy[t, n, j]
                    v = y[t, n, j]
                    if kind == 0:
                        dgi[t, n, j] = d * (_F(1.0) - v * v)
                    else:
                        dgi[t, n, j] = d if v > 0 else _F(0.0)
                    dh[n, j] = _F(0.0)
        np.dot(dgh[t], w_hh, back)
        for n in range(N):
            for j in range(H):
                dh[n, j] += back[n, j]

"""A whole recurrence (Elman RNN, LSTM, GRU) over a sequence, and its backpropagation through
time, in plain NumPy: the reference backend's ``recurrence`` and ``recurrence_backward``.

The input's part of every gate, gi = x W_ih^T + b_ih (L, N, G H), is computed before (one
product for all steps); each step adds the recurrent part gh = h W_hh^T + b_hh and applies
the cell (PyTorch's gate order and formulas):

- RNN_TANH / RNN_RELU:  h' = act(gi + gh)
- LSTM  [i, f, g, o]:   c' = σ(f) c + σ(i) tanh(g);  h' = σ(o) tanh(c')
- GRU   [r, z, n]:      r = σ(gi_r + gh_r), z = σ(gi_z + gh_z),
                        n = tanh(gi_n + r gh_n),  h' = (1 - z) n + z h

Forward returns y (L, N, S H), y[t] the state after step t (h, or h and c side by side for
the LSTM: S = 2), and ``gates`` (L, N, 4 H) what the backward reads (LSTM: σ(i), σ(f),
tanh(g), σ(o); GRU: r, z, n, gh_n; None for the Elman RNN, whose h' is enough). With
``reverse`` the steps run from t = L - 1 down to 0 (y stays in time order).

The backward walks the steps the other way. With dh, dc the gradients reaching a step's
output (from y's gradient and from the next step), and a the gate pre-activations:

- RNN:   da = dh act'(h')
- LSTM:  dc += dh σ(o) (1 - tanh²c');  da_o = dh tanh(c') σ'(o);  da_i = dc tanh(g) σ'(i);
         da_g = dc σ(i) (1 - tanh²g);  da_f = dc c σ'(f);  dc_prev = dc σ(f)
- GRU:   da_n = dh (1 - z)(1 - n²);  da_z = dh (h - n) σ'(z);  da_r = da_n gh_n σ'(r);
         dgh = [da_r, da_z, da_n r], dgi = [da_r, da_z, da_n];  dh_prev gets dh z

and dh_prev += dgh W_hh (dgh = da for RNN and LSTM); dW_hh = sum_t dgh_t^T h_{t-1} and
db_hh = sum_t dgh_t, one product over all steps after the walk.
"""

from __future__ import annotations

import numpy as np

#: gates per hidden unit of each kind (rows of W_ih, W_hh: G H)
GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _sigmoid(a: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):  # exp(-a) -> inf for a << 0 gives 0, as it should
        return 1 / (1 + np.exp(-a))


def steps(length: int, reverse: bool) -> range:
    """The time steps in the order the forward runs them."""
    return range(length - 1, -1, -1) if reverse else range(length)


def recurrence(kind: str, gi: np.ndarray, h0: np.ndarray, c0: np.ndarray | None,
               w_hh: np.ndarray, b_hh: np.ndarray | None, reverse: bool) -> tuple:
    """(y (L, N, S H), gates (L, N, 4 H) or None) of the module docstring's recurrence, for
    gi (L, N, G H), h0 and c0 (N, H) (c0 only for the LSTM), w_hh (G H, H), b_hh (G H,)."""
    L, N, _ = gi.shape
    H = h0.shape[-1]
    lstm = kind == "LSTM"
    y = np.empty((L, N, (2 if lstm else 1) * H), gi.dtype)
    gates = np.empty((L, N, 4 * H), gi.dtype) if kind in ("LSTM", "GRU") else None
    h, c = h0, c0
    for t in steps(L, reverse):
        gh = h @ w_hh.T
        if b_hh is not None:
            gh = gh + b_hh
        if kind == "GRU":
            r = _sigmoid(gi[t, :, :H] + gh[:, :H])
            z = _sigmoid(gi[t, :, H:2 * H] + gh[:, H:2 * H])
            n = np.tanh(gi[t, :, 2 * H:] + r * gh[:, 2 * H:])
            h = (1 - z) * n + z * h
            gates[t] = np.concatenate([r, z, n, gh[:, 2 * H:]], axis=-1)
        elif lstm:
            a = gi[t] + gh
            i, f, o = _sigmoid(a[:, :H]), _sigmoid(a[:, H:2 * H]), _sigmoid(a[:, 3 * H:])
            g = np.tanh(a[:, 2 * H:3 * H])
            c = f * c + i * g
            h = o * np.tanh(c)
            gates[t] = np.concatenate([i, f, g, o], axis=-1)
            y[t, :, H:] = c
        else:
            a = gi[t] + gh
            h = np.tanh(a) if kind == "RNN_TANH" else np.maximum(a, 0)
        y[t, :, :H] = h
    return y, gates


def previous_states(y: np.ndarray, first: np.ndarray, reverse: bool) -> np.ndarray:
    """(L, N, K): the state each step started from, y of the step before it (``first``, the
    initial state, for the first step run), for y (L, N, K) in time order."""
    if reverse:
        return np.concatenate([y[1:], first[None]], axis=0)
    return np.concatenate([first[None], y[:-1]], axis=0)


def recurrence_backward(kind: str, gy: np.ndarray, y: np.ndarray, gates: np.ndarray | None,
                        h0: np.ndarray, c0: np.ndarray | None, w_hh: np.ndarray,
                        reverse: bool) -> tuple:
    """(dgi (L, N, G H), dh0 (N, H), dc0 (N, H) or None, dw_hh (G H, H), db_hh (G H,)) for
    gy = dL/dy (L, N, S H) and the forward's y and gates (see the module docstring)."""
    L, N, _ = gy.shape
    H = h0.shape[-1]
    lstm, gru = kind == "LSTM", kind == "GRU"
    h_prev = previous_states(y[:, :, :H], h0, reverse)
    c_prev = previous_states(y[:, :, H:], c0, reverse) if lstm else None
    dgi = np.empty((L, N, GATES[kind] * H), gy.dtype)
    dgh = np.empty_like(dgi) if gru else dgi  # the recurrent part's gradient
    dh = np.zeros((N, H), gy.dtype)
    dc = np.zeros((N, H), gy.dtype) if lstm else None
    for t in reversed(steps(L, reverse)):
        dh = dh + gy[t, :, :H]
        if gru:
            r, z, n, ghn = (gates[t, :, k * H:(k + 1) * H] for k in range(4))
            dan = dh * (1 - z) * (1 - n * n)
            daz = dh * (h_prev[t] - n) * z * (1 - z)
            dar = dan * ghn * r * (1 - r)
            dgi[t] = np.concatenate([dar, daz, dan], axis=-1)
            dgh[t] = np.concatenate([dar, daz, dan * r], axis=-1)
            dh = dh * z + dgh[t] @ w_hh
        elif lstm:
            i, f, g, o = (gates[t, :, k * H:(k + 1) * H] for k in range(4))
            tc = np.tanh(y[t, :, H:])
            dc = dc + gy[t, :, H:] + dh * o * (1 - tc * tc)
            dgi[t] = np.concatenate([dc * g * i * (1 - i), dc * c_prev[t] * f * (1 - f),
                                     dc * i * (1 - g * g), dh * tc * o * (1 - o)], axis=-1)
            dc = dc * f
            dh = dgi[t] @ w_hh
        else:
            h = y[t, :, :H]
            # relu passes the gradient by selection (an infinite one where h = 0 gives 0)
            dgi[t] = dh * (1 - h * h) if kind == "RNN_TANH" else np.where(h > 0, dh, 0)
            dh = dgi[t] @ w_hh
    rows = dgh.reshape(L * N, dgh.shape[-1])
    dw = rows.T @ h_prev.reshape(L * N, H)
    db = rows.sum(axis=0, dtype=np.float64).astype(gy.dtype)
    return dgi, dh, dc, dw, db

"""Fused float32 attention: one kernel per pass, one (query, key) tile per head.

For the B * H heads of q (B, Tq, H, hs), k (B, Tk, H, hs), v (B, Tk, H, hv):

    forward:   P = softmax(causal_mask(q k^T * scale)),  out = P v
    backward:  dv = P^T G,  dP = G v^T,  dS = P * (dP - rowsum(dP * P)) * scale,
               dq = dS k,   dk = dS^T q

The unfused path (``masked_softmax.py`` between batched matmuls) needs the
heads copied out to contiguous (B*H, T, hs) arrays and back, and sweeps the
whole (B*H, Tq, Tk) score array five times per pass, each sweep on one core.
Here each head is done start to finish by one thread while its tiles are in
cache: it gathers its q, k, v (T, hs) tiles straight from the caller's arrays
(any strides: views into the packed (B, T, 3C) projection of self-attention),
does the two products (single-threaded BLAS, see ``runtime/threads.py``) and the
softmax between them, whose exp is vectorised float32 arithmetic
(:func:`~minigrad.kernels.runtime.float32_bits.exp_nonpos_f32`) rather than a libm call,
and writes its slice of the (B, T, H, hv) output (and in the backward its
slices of dq, dk, dv). The heads are shared out over Numba's threads.

The causal mask (query i sees key j only if j <= i + Tk - Tq, queries being
the last Tq of Tk positions) is never stored: the softmax of row i stops at
its last visible key and writes zeros after it; a row that sees no key is all
zero (``softmax.divide_row_by_sum``, the fast backend's one home of that rule).
Neither P nor the tiles are kept for the backward unless asked (``keep``, for a caller
that inspects the weights): P is B*H*Tq*Tk floats, more than q, k and v together once
T > 3 hs (at GPT-2's block 256, batch 4: 151 MB a step over 12 layers), and the tiles copy
q, k, v, which the graph keeps anyway as the op's inputs (113 MB). The backward gathers each
head's tiles again and recomputes its P with the same code, so the same bits, for one more
(Tq, hs) x (hs, Tk) product and softmax a head: what FlashAttention does too.
These kernels cover float32 with no user mask and no dropout (the training hot
path); everything else runs on the unfused path, which they must equal (``tests/nn/test_attention.py``). The only fastmath flag is 'contract'
(a * b + c may become one fused multiply-add, rounding once); nothing is regrouped
('reassoc' would break the exp's two-part ln2), except the sums that
``add_reassoc_f32`` marks one addition at a time.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .matmul import PARALLEL_MIN_MACS
from .runtime.float32_bits import CONTRACT, add_reassoc_f32, exp_row_f32, row_max_f32
from .runtime.settings import parallel
from .softmax import divide_row_by_sum

_F = np.float32


@njit(cache=True, inline="always", error_model="numpy")
def _visible_keys(i, t_q, t_k, causal):
    """How many keys (from the first) query i may attend to."""
    if not causal:
        return t_k
    return max(0, min(t_k, i + t_k - t_q + 1))


@njit(cache=True, inline="always", error_model="numpy")
def _softmax_tile(s, scale, causal):
    """In place on one head's scores s (Tq, Tk): the scaled, causally masked softmax.

    Every loop is vector code: the row max is an integer max over ``order_key``
    (``float32_bits.row_max_f32``: a NaN score makes the row NaN), the exp is
    arithmetic and its sum uses reassociated adds (``exp_row_f32``).
    """
    t_q, t_k = s.shape
    for i in range(t_q):
        lim = _visible_keys(i, t_q, t_k, causal)
        total = _F(0.0)
        if lim > 0:
            m = row_max_f32(s, i, lim, scale)  # max z (of the scaled scores: any sign of scale)
            total = exp_row_f32(s, i, lim, scale, m, s)  # s[i, j] = exp(z_j - max z) in [0, 1]
        for j in range(lim, t_k):
            s[i, j] = _F(0.0)  # a key it may not see: exp(-inf)
        divide_row_by_sum(s, i, lim, total, _F(1.0))  # (no key seen: the row stays 0)


@njit(cache=True, inline="always", error_model="numpy")
def _gather(x4, b, h, tile):
    """tile (T, d) = head h of batch entry b of x4 (B, T, H, d). Written as loops: the
    inner one runs over contiguous d, so it is a plain vector copy (Numba's generic
    strided copy costs several times more)."""
    for t in range(tile.shape[0]):
        for d in range(tile.shape[1]):
            tile[t, d] = x4[b, t, h, d]


@njit(cache=True, inline="always", error_model="numpy")
def _scatter(tile, x4, b, h):
    """x4[b, :, h] = tile, the inverse of :func:`_gather`."""
    for t in range(tile.shape[0]):
        for d in range(tile.shape[1]):
            x4[b, t, h, d] = tile[t, d]


@njit(cache=True, inline="always", error_model="numpy")
def _probabilities(q, k, scale, causal, p, bh):
    """Head bh's P = softmax(mask(q k^T * scale)) (Tq, Tk): written into p[bh] when p holds
    every head's, else into a fresh tile (p has no rows: P is not kept, see the module
    docstring). Forward and backward both call this, so a recomputed P is the same bits."""
    if p.shape[0] == 0:
        ph = np.empty((q.shape[0], k.shape[0]), dtype=np.float32)
    else:
        ph = p[bh]
    np.dot(q, k.T, ph)
    _softmax_tile(ph, scale, causal)
    return ph


@njit(cache=True, inline="always", error_model="numpy")
def _tile(x4, b, h, kept, bh):
    """Head h of batch entry b of x4 (B, T, H, d) as a contiguous (T, d) tile: gathered into
    kept[bh] when ``kept`` holds every head's tiles, else into a fresh one (kept has no rows)."""
    if kept.shape[0] == 0:
        tile = np.empty((x4.shape[1], x4.shape[3]), dtype=np.float32)
    else:
        tile = kept[bh]
    _gather(x4, b, h, tile)
    return tile


@njit(cache=True, inline="always", error_model="numpy")
def _forward_head(q4, k4, v4, scale, causal, p, out4, q3, k3, v3, bh):
    """Head bh = b * H + h: gathers its q, k, v into contiguous tiles (q3[bh], k3[bh],
    v3[bh] when those are kept), then P = softmax(mask(q k^T * scale)), out = P v."""
    n_head = q4.shape[2]
    b, h = bh // n_head, bh % n_head
    q, k, v = _tile(q4, b, h, q3, bh), _tile(k4, b, h, k3, bh), _tile(v4, b, h, v3, bh)
    out = np.empty((q.shape[0], v.shape[1]), dtype=np.float32)
    np.dot(_probabilities(q, k, scale, causal, p, bh), v, out)
    _scatter(out, out4, b, h)


@njit(cache=True, inline="always", error_model="numpy")
def _backward_head(g4, q4, k4, v4, p, scale, causal, dq4, dk4, dv4, bh):
    """Head bh: its q, k, v, g gathered into tiles, P from p[bh] (or recomputed when p has
    no rows), then dv = P^T g, ds = softmax backward of g v^T, dq = ds k, dk = ds^T q."""
    n_head = g4.shape[2]
    b, h = bh // n_head, bh % n_head
    none = np.empty((0, 1, 1), dtype=np.float32)
    q, k, v = _tile(q4, b, h, none, bh), _tile(k4, b, h, none, bh), _tile(v4, b, h, none, bh)
    ph = p[bh] if p.shape[0] else _probabilities(q, k, scale, causal, p, bh)
    g = _tile(g4, b, h, none, bh)
    t_q, t_k = ph.shape
    dv = np.empty_like(v)
    np.dot(ph.T, g, dv)
    ds = np.empty((t_q, t_k), dtype=np.float32)
    np.dot(g, v.T, ds)
    for i in range(t_q):
        d = _F(0.0)
        for j in range(t_k):
            d = add_reassoc_f32(d, ds[i, j] * ph[i, j])
        for j in range(t_k):
            ds[i, j] = scale * ph[i, j] * (ds[i, j] - d)  # masked keys: p = 0, so ds = 0
    dq = np.empty_like(q)
    dk = np.empty_like(k)
    np.dot(ds, k, dq)
    np.dot(ds.T, q, dk)
    _scatter(dq, dq4, b, h)
    _scatter(dk, dk4, b, h)
    _scatter(dv, dv4, b, h)


@njit(cache=True, error_model="numpy", fastmath=CONTRACT)
def attention_forward_f32(q4, k4, v4, scale, causal, p, out4, q3, k3, v3):
    """Every head in turn: out4 (B, Tq, H, hv) is written, and the tiles q3, k3, v3
    (B*H, T, d) and p (B*H, Tq, Tk), unless they have no rows."""
    for bh in range(q4.shape[0] * q4.shape[2]):
        _forward_head(q4, k4, v4, scale, causal, p, out4, q3, k3, v3, bh)


@njit(cache=True, error_model="numpy", parallel=True, fastmath=CONTRACT)
def attention_forward_f32_par(q4, k4, v4, scale, causal, p, out4, q3, k3, v3):
    """attention_forward_f32 with the heads shared out over the threads."""
    for bh in prange(q4.shape[0] * q4.shape[2]):
        _forward_head(q4, k4, v4, scale, causal, p, out4, q3, k3, v3, bh)


@njit(cache=True, error_model="numpy", fastmath=CONTRACT)
def attention_backward_f32(g4, q4, k4, v4, p, scale, causal, dq4, dk4, dv4):
    """Every head in turn: dq4, dk4, dv4 (B, T, H, d) are written."""
    for bh in range(q4.shape[0] * q4.shape[2]):
        _backward_head(g4, q4, k4, v4, p, scale, causal, dq4, dk4, dv4, bh)


@njit(cache=True, error_model="numpy", parallel=True, fastmath=CONTRACT)
def attention_backward_f32_par(g4, q4, k4, v4, p, scale, causal, dq4, dk4, dv4):
    """attention_backward_f32 with the heads shared out over the threads."""
    for bh in prange(q4.shape[0] * q4.shape[2]):
        _backward_head(g4, q4, k4, v4, p, scale, causal, dq4, dk4, dv4, bh)


def _use_threads(n_heads: int, t_q: int, t_k: int, hs: int) -> bool:
    """Share the heads out over the threads when there are several and enough work."""
    return parallel() and n_heads >= 2 and n_heads * t_q * t_k * hs >= PARALLEL_MIN_MACS


def fused_attention(q4: np.ndarray, k4: np.ndarray, v4: np.ndarray, scale: float,
                    causal: bool, keep: bool = True) -> tuple:
    """(out (B, Tq, H, hv), P (B*H, Tq, Tk), tiles) for float32 q4 (B, Tq, H, hs),
    k4 (B, Tk, H, hs), v4 (B, Tk, H, hv) of any strides (e.g. views into packed
    (B, T, 3, H, hs) projections). ``tiles`` = (q, k, v) gathered head by head into
    contiguous (B*H, T, d) arrays. Without ``keep`` each head's tiles and P live only while
    the head is done, and P and tiles are None: :func:`fused_attention_backward` gathers the
    heads again from q4, k4, v4 and recomputes P."""
    B, t_q, H, hs = q4.shape
    t_k = k4.shape[1]
    n = B * H if keep else 0
    p = np.empty((n, t_q, t_k), dtype=np.float32)
    out = np.empty((B, t_q, H, v4.shape[3]), dtype=np.float32)
    tiles = (np.empty((n, t_q, hs), dtype=np.float32),
             np.empty((n, t_k, hs), dtype=np.float32),
             np.empty((n, t_k, v4.shape[3]), dtype=np.float32))
    kernel = attention_forward_f32_par if _use_threads(B * H, t_q, t_k, hs) else attention_forward_f32
    kernel(q4, k4, v4, _F(scale), causal, p, out, *tiles)
    return (out, p, tiles) if keep else (out, None, None)


def fused_attention_backward(g4: np.ndarray, q4: np.ndarray, k4: np.ndarray, v4: np.ndarray,
                             p: np.ndarray | None, scale: float, causal: bool, dq4: np.ndarray,
                             dk4: np.ndarray, dv4: np.ndarray) -> None:
    """Write dq4, dk4, dv4 ((B, T, H, d), any strides: e.g. views into one packed gradient)
    for the upstream gradient g4 (B, Tq, H, hv), given the forward's q4, k4, v4 (any
    strides: the inputs themselves, or the kept tiles viewed as (B, T, H, d)) and its P
    (B*H, Tq, Tk), or None: then each head's P is recomputed from its q and k (``causal``
    and ``scale`` as in the forward)."""
    B, t_q, H, hs = q4.shape
    if p is None:
        p = np.empty((0, t_q, k4.shape[1]), dtype=np.float32)
    kernel = attention_backward_f32_par if _use_threads(B * H, t_q, k4.shape[1], hs) \
        else attention_backward_f32
    kernel(g4, q4, k4, v4, p, _F(scale), causal, dq4, dk4, dv4)

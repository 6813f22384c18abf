"""Fused float32 attention: one kernel per pass, one (query, key) tile per head.

For the L = B * H heads of q (L, Tq, hs), k (L, Tk, hs), v (L, Tk, hv):

    forward:   P = softmax(causal_mask(q k^T * scale)),  out = P v
    backward:  dv = P^T G,  dP = G v^T,  dS = P * (dP - rowsum(dP * P)) * scale,
               dq = dS k,   dk = dS^T q

The unfused path (``masked_softmax.py`` between batched matmuls) sweeps the
whole (L, Tq, Tk) score array five times per pass, each sweep on one core.
Here each head is done start to finish by one thread while its (Tq, Tk) tile
is in cache: the two products (single-threaded BLAS, see ``threads.py``) and
the softmax between them, whose exp is vectorised float32 arithmetic
(:func:`~minigrad.kernels.float32_bits.exp_nonpos_f32`) rather than a libm call.
The heads are shared out over Numba's threads with ``prange``.

The causal mask (query i sees key j only if j <= i + Tk - Tq, queries being
the last Tq of Tk positions) is never stored: the softmax of row i stops at
its last visible key and writes zeros after it; a row that sees no key is all
zero. These kernels cover float32 with no user mask and no dropout (the
training hot path); everything else runs on the unfused path, which they must
equal (``tests/test_kernels_attention.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .float32_bits import add_reassoc_f32, bits_to_f32, exp_nonpos_f32, f32_to_bits, order_key
from .matmul import PARALLEL_MIN_MACS
from .threads import PARALLEL

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

    Every loop is vector code: the row max is an integer max over
    :func:`order_key` (NaN sorts last, so a NaN score makes the row NaN), the
    exp is arithmetic, and the sums use :func:`add_reassoc_f32`.
    """
    t_q, t_k = s.shape
    for i in range(t_q):
        row = s[i]
        lim = _visible_keys(i, t_q, t_k, causal)
        if lim > 0:
            key = order_key(f32_to_bits(row[0]))
            for j in range(1, lim):
                key = max(key, order_key(f32_to_bits(row[j])))
            m = bits_to_f32(order_key(key)) * scale  # scale > 0 keeps the max the max
            total = _F(0.0)
            for j in range(lim):
                e = exp_nonpos_f32(row[j] * scale - m)  # exp(z_j - max z) in [0, 1]
                row[j] = e
                total = add_reassoc_f32(total, e)
            inv = _F(1.0) / total
            for j in range(lim):
                row[j] *= inv
        for j in range(lim, t_k):
            row[j] = _F(0.0)


@njit(cache=True, inline="always", error_model="numpy")
def _forward_head(q, k, v, scale, causal, p, out):
    """One head: p = softmax(mask(q k^T * scale)), out = p v."""
    np.dot(q, k.T, p)
    _softmax_tile(p, scale, causal)
    np.dot(p, v, out)


@njit(cache=True, inline="always", error_model="numpy")
def _backward_head(g, q, k, v, p, scale, ds, dq, dk, dv):
    """One head: dv = p^T g, ds = softmax backward of g v^T, dq = ds k, dk = ds^T q."""
    np.dot(p.T, g, dv)
    np.dot(g, v.T, ds)
    t_q, t_k = p.shape
    for i in range(t_q):
        d = _F(0.0)
        for j in range(t_k):
            d = add_reassoc_f32(d, ds[i, j] * p[i, j])
        for j in range(t_k):
            ds[i, j] = scale * p[i, j] * (ds[i, j] - d)  # masked keys: p = 0, so ds = 0
    np.dot(ds, k, dq)
    np.dot(ds.T, q, dk)


@njit(cache=True, error_model="numpy")
def attention_forward_f32(q, k, v, scale, causal, p, out):
    """Every head in turn: p (L, Tq, Tk) and out (L, Tq, hv) are written."""
    for h in range(q.shape[0]):
        _forward_head(q[h], k[h], v[h], scale, causal, p[h], out[h])


@njit(cache=True, error_model="numpy", parallel=True)
def attention_forward_f32_par(q, k, v, scale, causal, p, out):
    """attention_forward_f32 with the heads shared out over the threads."""
    for h in prange(q.shape[0]):
        _forward_head(q[h], k[h], v[h], scale, causal, p[h], out[h])


@njit(cache=True, error_model="numpy")
def attention_backward_f32(g, q, k, v, p, scale, ds, dq, dk, dv):
    """Every head in turn; ds (L, Tq, Tk) is scratch, dq, dk, dv are written."""
    for h in range(q.shape[0]):
        _backward_head(g[h], q[h], k[h], v[h], p[h], scale, ds[h], dq[h], dk[h], dv[h])


@njit(cache=True, error_model="numpy", parallel=True)
def attention_backward_f32_par(g, q, k, v, p, scale, ds, dq, dk, dv):
    """attention_backward_f32 with the heads shared out over the threads."""
    for h in prange(q.shape[0]):
        _backward_head(g[h], q[h], k[h], v[h], p[h], scale, ds[h], dq[h], dk[h], dv[h])


def _use_threads(q: np.ndarray, t_k: int) -> bool:
    """Share the heads out over the threads when there are several and enough work."""
    n_heads, t_q, hs = q.shape
    return PARALLEL and n_heads >= 2 and n_heads * t_q * t_k * hs >= PARALLEL_MIN_MACS


def fused_attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float,
                    causal: bool) -> tuple[np.ndarray, np.ndarray]:
    """(out (L, Tq, hv), P (L, Tq, Tk)) for C-contiguous float32 q (L, Tq, hs),
    k (L, Tk, hs), v (L, Tk, hv); see the module docstring."""
    n_heads, t_q, t_k = q.shape[0], q.shape[1], k.shape[1]
    p = np.empty((n_heads, t_q, t_k), dtype=np.float32)
    out = np.empty((n_heads, t_q, v.shape[2]), dtype=np.float32)
    kernel = attention_forward_f32_par if _use_threads(q, t_k) else attention_forward_f32
    kernel(q, k, v, _F(scale), causal, p, out)
    return out, p


def fused_attention_backward(g: np.ndarray, q: np.ndarray, k: np.ndarray, v: np.ndarray,
                             p: np.ndarray, scale: float
                             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(dq, dk, dv) for the upstream gradient g (L, Tq, hv) of :func:`fused_attention`
    (C-contiguous float32 operands, P as it returned)."""
    ds = np.empty_like(p)
    dq, dk, dv = np.empty_like(q), np.empty_like(k), np.empty_like(v)
    kernel = attention_backward_f32_par if _use_threads(q, k.shape[1]) else attention_backward_f32
    kernel(g, q, k, v, p, _F(scale), ds, dq, dk, dv)
    return dq, dk, dv

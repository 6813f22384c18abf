"""Batched matrix multiply: (..., M, K) @ (..., K, N) -> (..., M, N).

The Numba kernels loop over the batch and call ``np.dot(a, b, out)`` on each
pair of matrices. Inside ``@njit`` that call goes straight to BLAS
(sgemm/dgemm through SciPy's binding, which is why SciPy is a dependency) and
writes into the result array, so nothing is allocated or copied per matrix:
that is what makes the kernel as fast as ``numpy.matmul``.

BLAS multiplies a matrix stored row-major (C order) or column-major (F order)
equally well, because it takes a "transposed" flag. A transposed view such as
``k.transpose(-2, -1)`` is therefore handed over as the transpose of a
contiguous matrix instead of being copied; only other strided layouts are
copied to contiguous memory first.

With :func:`~minigrad.kernels.runtime.settings.parallel` (see ``runtime/threads.py``: each
BLAS call single-threaded, Numba's threads share out the work), the
``*_par`` kernels split a product over the threads:

- a 2-D product by blocks of rows of ``a`` and ``out`` (each block is one
  contiguous BLAS call: out[r0:r1] = a[r0:r1] @ b);
- when ``a`` is a transposed view (a weight gradient g^T x), by blocks of
  the shared inner dimension instead: out = sum over blocks of
  a[:, k0:k1] @ b[k0:k1], each partial product on its own thread;
- a batch of products by matrix (the heads of attention);
- a Linear layer's product with a few rows of input (decoding: one row per
  new token, a matrix-vector product, GEMV) by blocks of rows of the weight
  (:func:`linear_few_rows`): it does a few multiply-adds per weight it reads,
  so its speed is the memory bandwidth, one core alone draws only part of it,
  and a split by rows of the input would make each thread read every weight.
Small products (under ``PARALLEL_MIN_MACS`` multiply-adds) stay serial: the
threads' start costs a few microseconds.
"""

from __future__ import annotations

import math

import numpy as np
from numba import get_num_threads, njit, prange

from .runtime.settings import parallel

PARALLEL_MIN_MACS = 1 << 16  # multiply-adds below which a product runs on one thread


@njit(cache=True)
def mm_into(a, b, out):
    """out = a @ b for 2-D a (M, K), b (K, N), C-contiguous out (M, N)."""
    np.dot(a, b, out)


@njit(cache=True)
def bmm_into(a, b, out):
    """out[i] = a[i] @ b[i] for a (L, M, K), b (L, K, N), out (L, M, N)."""
    for i in range(a.shape[0]):
        np.dot(a[i], b[i], out[i])


@njit(cache=True)
def bmm_bt_into(a, bt, out):
    """out[i] = a[i] @ bt[i].T: ``bt`` (L, N, K) holds each b[i] transposed."""
    for i in range(a.shape[0]):
        np.dot(a[i], bt[i].T, out[i])


@njit(cache=True)
def bmm_at_into(at, b, out):
    """out[i] = at[i].T @ b[i]: ``at`` (L, K, M) holds each a[i] transposed."""
    for i in range(at.shape[0]):
        np.dot(at[i].T, b[i], out[i])


@njit(cache=True)
def bmm_at_bt_into(at, bt, out):
    """out[i] = at[i].T @ bt[i].T, both operands stored transposed."""
    for i in range(at.shape[0]):
        np.dot(at[i].T, bt[i].T, out[i])


@njit(cache=True, parallel=True)
def mm_rows_par(a, b, out, n):
    """out = a @ b, C-contiguous a (M, K) and out split into n row blocks (n threads)."""
    M = a.shape[0]
    for c in prange(n):
        r0, r1 = c * M // n, (c + 1) * M // n
        if r1 > r0:
            np.dot(a[r0:r1], b, out[r0:r1])


@njit(cache=True, parallel=True)
def mm_at_par(at, b, out, n):
    """out = at.T @ b for C-contiguous at (K, M) and b (K, N): the inner dimension K is
    split into n blocks (n threads), whose partial products are then added up."""
    K = at.shape[0]
    parts = np.empty((n,) + out.shape, out.dtype)
    for c in prange(n):
        k0, k1 = c * K // n, (c + 1) * K // n
        if k1 > k0:
            np.dot(at[k0:k1].T, b[k0:k1], parts[c])
        else:
            parts[c][:] = 0
    out[:] = parts[0]
    for c in range(1, n):
        out += parts[c]


@njit(cache=True, parallel=True)
def bmm_par(a, b, out):
    """bmm_into with the matrices shared out over the threads."""
    for i in prange(a.shape[0]):
        np.dot(a[i], b[i], out[i])


@njit(cache=True, parallel=True)
def bmm_bt_par(a, bt, out):
    """bmm_bt_into with the matrices shared out over the threads."""
    for i in prange(a.shape[0]):
        np.dot(a[i], bt[i].T, out[i])


@njit(cache=True, parallel=True)
def bmm_at_par(at, b, out):
    """bmm_at_into with the matrices shared out over the threads."""
    for i in prange(at.shape[0]):
        np.dot(at[i].T, b[i], out[i])


@njit(cache=True, parallel=True)
def bmm_at_bt_par(at, bt, out):
    """bmm_at_bt_into with the matrices shared out over the threads."""
    for i in prange(at.shape[0]):
        np.dot(at[i].T, bt[i].T, out[i])


@njit(cache=True, parallel=True)
def mm_rows_bias_par(a, b, bias, out, n):
    """mm_rows_par plus a bias: out = a @ b + bias, each thread adding the bias to its
    rows while they are still in cache. (One kernel with an optional ``bias=None`` made the
    fastest baby steps ~1 ms slower, 33.2-33.8 vs 32.2-32.9 ms, so the split is written twice.)"""
    M = a.shape[0]
    for c in prange(n):
        r0, r1 = c * M // n, (c + 1) * M // n
        if r1 > r0:
            np.dot(a[r0:r1], b, out[r0:r1])
            for r in range(r0, r1):
                for j in range(out.shape[1]):
                    out[r, j] += bias[j]


@njit(cache=True, parallel=True)
def few_rows_par(x, w, out, n, chunk):
    """out = x @ w.T for C-contiguous x (M, K), w (N, K), out (M, N): the N rows of w split
    into n blocks, one thread each, so that every weight comes from memory once. A thread
    walks its block ``chunk`` rows of w at a time, and each row of x takes its
    matrix-vector product with the chunk while the chunk is still in the core's cache."""
    N = w.shape[0]
    for c in prange(n):
        r0, r1 = c * N // n, (c + 1) * N // n
        for s in range(r0, r1, chunk):
            e = min(s + chunk, r1)
            for m in range(x.shape[0]):
                np.dot(w[s:e], x[m], out[m, s:e])


@njit(cache=True, parallel=True)
def linear_grads_par(g, w, x, dx, dw, db, want_db):
    """dx = g @ w and dw = g.T @ x at once, one whole product per thread; with
    ``want_db`` the second thread also sums g over its rows into db (float64 sums)."""
    for c in prange(2):
        if c == 0:
            np.dot(g, w, dx)
        else:
            np.dot(g.T, x, dw)
            if want_db:
                acc = np.zeros(g.shape[1])
                for r in range(g.shape[0]):
                    for j in range(g.shape[1]):
                        acc[j] += g[r, j]
                for j in range(g.shape[1]):
                    db[j] = acc[j]


def matmul_bias(a: np.ndarray, b: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """a @ b + bias for a (M, K), b (K, N) (C- or F-contiguous, e.g. a weight's .T view) and
    bias (N,), one float dtype: a Linear layer's forward, bias added by the threads."""
    M, K = a.shape
    N = b.shape[1]
    if parallel() and M >= 2 and M * K * N >= PARALLEL_MIN_MACS and a.flags.c_contiguous \
            and a.dtype == b.dtype == bias.dtype and bias.flags.c_contiguous:
        out = np.empty((M, N), dtype=a.dtype)
        mm_rows_bias_par(a, _blas_2d(b), bias, out, get_num_threads())
        return out
    out = matmul(a, b)
    out += bias
    return out


FEW_ROWS = 16  # up to this many rows of input, a Linear layer's product splits the weight
CHUNK_BYTES = 384 << 10  # the part of a weight that stays in one core's cache (L2)


def linear_few_rows(x: np.ndarray, w: np.ndarray) -> np.ndarray | None:
    """x @ w.T (M, N) for x (M, K) with 1 <= M <= FEW_ROWS and a C-contiguous weight w
    (N, K) of x's float dtype, split over the threads by rows of w (:func:`few_rows_par`);
    None when that does not apply or pay (no threads, more rows, a small or non-contiguous
    w, mixed dtypes): the caller then takes the general product."""
    M, K = x.shape
    N = w.shape[0]
    if not parallel() or not 1 <= M <= FEW_ROWS or N < 2 or N * K < PARALLEL_MIN_MACS \
            or not w.flags.c_contiguous or x.dtype != w.dtype:
        return None
    out = np.empty((M, N), dtype=w.dtype)
    few_rows_par(np.ascontiguousarray(x), w, out, get_num_threads(),
                 max(1, CHUNK_BYTES // (K * w.itemsize)))
    return out


def linear_grads(g: np.ndarray, w: np.ndarray, x: np.ndarray, want_db: bool = False
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """(dx, dw, db) = (g @ w, g^T @ x, g summed over rows or None) for a Linear layer's
    g (M, N), w (N, K), x (M, K), all C-contiguous of one float dtype. The two products
    have the same cost (2 M N K flops), so with two threads each thread takes one whole
    product: no row blocks, no partial sums to add up. Otherwise each product is split
    over the threads as usual."""
    M, N = g.shape
    K = w.shape[1]
    if parallel() and get_num_threads() == 2 and M * N * K >= PARALLEL_MIN_MACS:
        dx = np.empty((M, K), dtype=g.dtype)
        dw = np.empty((N, K), dtype=g.dtype)
        db = np.empty(N, dtype=g.dtype)
        linear_grads_par(g, w, x, dx, dw, db, want_db)
        return dx, dw, (db if want_db else None)
    db = np.add.reduce(g, axis=0, dtype=np.float64).astype(g.dtype) if want_db else None
    return matmul(g, w), matmul(g.T, x), db  # db in float64 sums, as the threaded kernel


def mm_2d(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    """out = a @ b for C- or F-contiguous 2-D a, b of one dtype, on the threads if it pays."""
    M, K = a.shape
    if not parallel() or M * K * b.shape[1] < PARALLEL_MIN_MACS or M < 2:
        mm_into(a, b, out)
    elif a.flags.c_contiguous:
        mm_rows_par(a, b, out, get_num_threads())
    elif b.flags.c_contiguous and K >= 2:  # a = at.T, e.g. the weight gradient g^T x
        mm_at_par(a.T, b, out, get_num_threads())
    else:
        mm_rows_par(np.ascontiguousarray(a), b, out, get_num_threads())


def _blas_2d(x: np.ndarray) -> np.ndarray:
    """A 2-D operand BLAS takes without a copy: C- or F-contiguous."""
    flags = x.flags
    if flags.c_contiguous or flags.f_contiguous:
        return x
    return np.ascontiguousarray(x)


def _as_batch(x: np.ndarray, batch: tuple, n_batch: int) -> tuple[np.ndarray, bool]:
    """``x`` (..., R, C) broadcast to ``batch`` and flattened to (n_batch, R, C).

    Returns ``(y, transposed)``: when ``transposed`` is True, ``y`` is (L, C, R)
    and C-contiguous and holds each matrix transposed (the layout of a
    ``transpose(-2, -1)`` view); otherwise ``y`` is (L, R, C) C-contiguous.
    """
    R, C = x.shape[-2:]
    if x.shape[:-2] != batch:
        x = np.broadcast_to(x, batch + (R, C))
    # a view when the batch axes are contiguous, else a copy
    x = x.reshape(n_batch, R, C)
    if x.flags.c_contiguous:
        return x, False
    xt = x.swapaxes(-1, -2)
    if xt.flags.c_contiguous:
        return xt, True
    return np.ascontiguousarray(x), False


# (a stored transposed, b stored transposed) -> batched kernel (serial, parallel)
_BATCHED = {
    (False, False): (bmm_into, bmm_par),
    (False, True): (bmm_bt_into, bmm_bt_par),
    (True, False): (bmm_at_into, bmm_at_par),
    (True, True): (bmm_at_bt_into, bmm_at_bt_par),
}


def matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` for float arrays with ndim >= 2 and broadcastable batch dims.

    Shapes are checked by the caller (``minigrad.ops.matmul``). The Python
    work here is kept to a few attribute checks (math.prod, not np.prod; no
    np.broadcast_shapes when the batch shapes already agree): on small
    per-head products it is a noticeable share of the time.
    """
    if a.dtype != b.dtype:
        dt = np.result_type(a.dtype, b.dtype)
        a, b = a.astype(dt), b.astype(dt)
    M, K = a.shape[-2:]
    N = b.shape[-1]
    if b.ndim == 2:
        # (..., M, K) @ (K, N): one big 2-D product over all leading rows
        lead = a.shape[:-2]
        a2 = _blas_2d(a.reshape(math.prod(lead) * M, K) if lead else a)
        out = np.empty((a2.shape[0], N), dtype=a.dtype)
        mm_2d(a2, _blas_2d(b), out)
        return out.reshape(lead + (M, N)) if lead else out
    batch_a, batch_b = a.shape[:-2], b.shape[:-2]
    batch = batch_a if batch_a == batch_b else np.broadcast_shapes(batch_a, batch_b)
    n_batch = math.prod(batch)
    a3, a_t = _as_batch(a, batch, n_batch)
    b3, b_t = _as_batch(b, batch, n_batch)
    out = np.empty((n_batch, M, N), dtype=a.dtype)
    serial, shared = _BATCHED[a_t, b_t]
    if parallel() and n_batch >= 2 and n_batch * M * K * N >= PARALLEL_MIN_MACS:
        shared(a3, b3, out)
    elif n_batch == 1 and M and N:  # one matrix: the 2-D kernel can still split it
        mm_2d(a3[0].T if a_t else a3[0], b3[0].T if b_t else b3[0], out[0])
    else:
        serial(a3, b3, out)
    return out.reshape(batch + (M, N))

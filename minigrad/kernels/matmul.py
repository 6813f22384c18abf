"""Batched matrix multiply: (..., M, K) @ (..., K, N) -> (..., M, N).

The Numba kernel loops over the batch and calls ``np.dot`` on each pair of
matrices; inside ``@njit`` that call goes to BLAS (sgemm/dgemm through SciPy's
binding), which is what makes it as fast as ``numpy.matmul``. A matrix that
is a transposed view (``k.transpose(-2, -1)``) is handed to BLAS as the
transpose of a contiguous matrix instead of being copied.
"""

from __future__ import annotations

import numpy as np
from numba import njit


def matmul_reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The plain NumPy definition the kernel must equal."""
    return np.matmul(a, b)


@njit(cache=True)
def _mm(a, b):
    return np.dot(a, b)


@njit(cache=True)
def _bmm(a, b, out):
    # a (L, M, K), b (L, K, N), out (L, M, N): all C-contiguous
    for i in range(a.shape[0]):
        out[i] = np.dot(a[i], b[i])


@njit(cache=True)
def _bmm_bt(a, bt, out):
    # bt (L, N, K) holds each b[i] transposed: out[i] = a[i] @ bt[i].T
    for i in range(a.shape[0]):
        out[i] = np.dot(a[i], bt[i].T)


@njit(cache=True)
def _bmm_at(at, b, out):
    # at (L, K, M) holds each a[i] transposed: out[i] = at[i].T @ b[i]
    for i in range(at.shape[0]):
        out[i] = np.dot(at[i].T, b[i])


def _as_2d_operand(x: np.ndarray) -> np.ndarray:
    """A 2-D operand BLAS can take without a copy (C- or F-contiguous)."""
    if x.flags.c_contiguous or x.flags.f_contiguous:
        return x
    return np.ascontiguousarray(x)


def _transposed_contiguous(x: np.ndarray) -> bool:
    """True when x (L, R, C) is a last-two-axes transpose of a C-contiguous array."""
    return x.ndim == 3 and np.swapaxes(x, -1, -2).flags.c_contiguous and not x.flags.c_contiguous


def matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` for float arrays with ndim >= 2 and broadcastable batch dims.

    Shapes are checked by the caller (``minigrad.ops.matmul``).
    """
    if a.dtype != b.dtype:
        dt = np.result_type(a.dtype, b.dtype)
        a, b = a.astype(dt), b.astype(dt)
    M, K = a.shape[-2:]
    N = b.shape[-1]
    if b.ndim == 2:
        # (..., M, K) @ (K, N): one big 2-D product over all leading rows
        lead = a.shape[:-2]
        a2 = a.reshape(-1, K) if a.ndim > 2 else a
        if not (a2.flags.c_contiguous or a2.flags.f_contiguous):
            a2 = np.ascontiguousarray(a2)
        out = _mm(a2, _as_2d_operand(b))
        return out.reshape(lead + (M, N))
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a3 = np.broadcast_to(a, batch + (M, K)).reshape(-1, M, K)
    b3 = np.broadcast_to(b, batch + (K, N)).reshape(-1, K, N)
    out = np.empty((a3.shape[0], M, N), dtype=a.dtype)
    if _transposed_contiguous(b3) and a3.flags.c_contiguous:
        _bmm_bt(a3, np.swapaxes(b3, -1, -2), out)
    elif _transposed_contiguous(a3) and b3.flags.c_contiguous:
        _bmm_at(np.swapaxes(a3, -1, -2), b3, out)
    else:
        _bmm(np.ascontiguousarray(a3), np.ascontiguousarray(b3), out)
    return out.reshape(batch + (M, N))

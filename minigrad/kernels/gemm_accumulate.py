"""out += a^T b in place: BLAS's beta = 1, for a weight gradient summed over chunks of rows.

``F.linear_cross_entropy`` (ops/linear_cross_entropy.py) takes a language model's head and
loss a chunk of rows at a time, so that only a chunk's logits exist at once. Its weight
gradient dW = dz^T x is then a sum over the chunks, dW += dz_c^T x_c. ``numpy.matmul`` and
``np.dot`` inside Numba always overwrite their output (BLAS's beta = 0), so each chunk would
need a temporary of dW's size (154 MB for GPT-2's head) and a pass to add it. BLAS's gemm
computes C = alpha A B + beta C; with beta = 1 it adds into C as it goes, at the product's own
speed.

The gemm is SciPy's (``scipy.linalg.cython_blas``: the same OpenBLAS the Numba kernels' np.dot
calls), reached through ctypes. Numba cannot cache a kernel that holds a ctypes function
pointer, so the split over the cores is done here in Python: out's rows are cut into one
block per thread, and each block is one single-threaded gemm (runtime/threads.py: BLAS runs
on one thread per call) on a thread of a small pool; ctypes releases the GIL during the
call, so the blocks run at once.

Column-major, as BLAS sees C-contiguous arrays: out (N, K) is out^T (K, N) with ld K; a (M, N)
is a^T (N, M) with ld N; b (M, K) is b^T (K, M) with ld K. So out^T[:, n0:n1] += b^T a[:, n0:n1]
is gemm('N', 'T', K, n1 - n0, M, 1, b, K, a + n0, N, 1, out + n0 K, K).
"""

from __future__ import annotations

import ctypes
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import get_num_threads

from .runtime.settings import parallel

_GEMM: dict = {}  # dtype -> the ctypes function (sgemm, dgemm), looked up once
_POOL: dict = {}  # process id -> its thread pool (a forked child starts its own)


def _gemm(dtype: np.dtype):
    """SciPy's Fortran gemm for float32 or float64, as a ctypes function of 13 pointers."""
    f = _GEMM.get(dtype)
    if f is None:
        from scipy.linalg import cython_blas

        name = {np.dtype(np.float32): "sgemm", np.dtype(np.float64): "dgemm"}[dtype]
        capsule = cython_blas.__pyx_capi__[name]
        get = ctypes.pythonapi.PyCapsule_GetPointer
        get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
        address = get(capsule, ctypes.pythonapi.PyCapsule_GetName(ctypes.py_object(capsule)))
        f = _GEMM[dtype] = ctypes.CFUNCTYPE(None, *([ctypes.c_void_p] * 13))(address)
    return f


ctypes.pythonapi.PyCapsule_GetName.restype = ctypes.c_char_p
ctypes.pythonapi.PyCapsule_GetName.argtypes = [ctypes.py_object]


def _block(a: np.ndarray, b: np.ndarray, out: np.ndarray, n0: int, n1: int) -> None:
    """out[n0:n1] += a[:, n0:n1]^T b: one gemm call with beta = 1."""
    m, n = a.shape
    k = b.shape[1]
    item = a.itemsize
    ints = [ctypes.c_int(v) for v in (k, n1 - n0, m, k, n, k)]  # m, n, k, lda, ldb, ldc
    one = (ctypes.c_float if a.dtype == np.float32 else ctypes.c_double)(1.0)
    ref = ctypes.byref
    _gemm(a.dtype)(ctypes.c_char_p(b"N"), ctypes.c_char_p(b"T"), ref(ints[0]), ref(ints[1]),
                   ref(ints[2]), ref(one), b.ctypes.data, ref(ints[3]),
                   a.ctypes.data + n0 * item, ref(ints[4]), ref(one),
                   out.ctypes.data + n0 * k * item, ref(ints[5]))


def add_at_b(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    """out += a^T b in place for C-contiguous a (M, N), b (M, K), out (N, K) of one dtype,
    float32 or float64 (the caller checks), the rows of out split over the threads."""
    m, n = a.shape
    if m == 0 or n == 0 or b.shape[1] == 0:
        return
    threads = get_num_threads() if parallel() and n >= 2 else 1
    cuts = [c * n // threads for c in range(threads + 1)]
    if threads == 1:
        _block(a, b, out, 0, n)
        return
    pool = _POOL.get(os.getpid())
    if pool is None:
        pool = _POOL[os.getpid()] = ThreadPoolExecutor(threads - 1, "minigrad-gemm")
    others = [pool.submit(_block, a, b, out, cuts[c], cuts[c + 1]) for c in range(1, threads)]
    _block(a, b, out, cuts[0], cuts[1])
    for f in others:
        f.result()

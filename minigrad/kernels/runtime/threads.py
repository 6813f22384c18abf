"""Who uses the cores: minigrad's Numba threads, with each BLAS call on one thread.

The hot kernels split their work over the cores with Numba's ``prange``: a
matrix product by blocks of rows, the per-head attention products by head,
the elementwise kernels by index ranges. Each block's product calls BLAS
(``np.dot`` inside ``@njit``, i.e. SciPy's OpenBLAS), and that call must then
run on the calling thread alone.

Why not let OpenBLAS thread its own products instead: OpenBLAS keeps its own
pool of worker threads, which spin for ~0.1 s after every call. On a 2-core
machine a Numba parallel kernel that runs right after a threaded BLAS call
finds the second core taken by a spinning BLAS worker: measured here, a GELU
took 3.7 ms instead of 0.3 ms, and a row-split product ran at 3-13 GFLOP/s
instead of 190. With one pool of threads (Numba's) for everything, a product
split in two row blocks on two single-threaded BLAS calls reaches the speed
of OpenBLAS's own two threads (184-200 GFLOP/s on the GPT shapes), the
per-head attention products run on both cores (~2x), and the elementwise
kernels go 2x faster too.

:func:`use_one_blas_thread` sets SciPy's OpenBLAS to one thread through its
``openblas_set_num_threads`` (``minigrad/num_threads.py`` finds it among the libraries
the process has loaded). This changes SciPy's BLAS for the whole process
(``scipy.linalg`` included); NumPy's own OpenBLAS, a separate copy, is left alone
(``minigrad.set_num_threads`` governs it, with the Numba threads' count). Where that
cannot be done (no such library, not Linux), Numba has one thread or no
OpenMP threading layer, kernels run serially, leaving the threading to BLAS.
``MINIGRAD_PARALLEL=0`` in the environment chooses that too. Nothing here runs
at import: :func:`decide` is called once by ``settings.ensure_ready``, with the
other process-wide settings.

Which threading layer, and fork/threads (Numba documents tbb as fork- and
thread-safe, omp as thread-safe but, with GNU OpenMP, not fork-safe, and
workqueue as fork-safe but not thread-safe):

- omp (chosen): idle threads spin briefly, so back-to-back kernels start in ~2 us;
  on a quiet machine a training step ran 1.7x faster than on workqueue. Two Python
  threads may launch kernels at once. Not fork-safe, so ``settings.py`` makes a forked
  child run every kernel serially (each ``*_par`` kernel keeps its serial twin for that).
- tbb: safe everywhere, but the PyPI wheel (tbb 2023.2) puts ``libtbb.so.12`` in
  the venv's ``lib/``, which the loader does not search: Numba reports "No threading
  layer could be loaded" unless ``LD_LIBRARY_PATH`` is set before Python starts, so it
  cannot be a plain dependency.
- workqueue: fork-safe, but two Python threads launching kernels at once abort the
  process, so every launch would need a lock, and it wakes its threads every time.

Why omp can still be the wrong choice: with the machine heavily oversubscribed (load ~12
on 2 cores, six test runs beside it), medians of 25 x 20 calls, matmul rows
(768x128 @ 128x512) / fused attention (B*H=48, T=64, hs=32) / GELU (393k float32):
omp 25.2 / 23.6 / 25.6 ms (a repeat: 23.6 / 14.0 / 14.9), workqueue 4.3 / 3.6 / 4.8,
tbb 4.1 / 3.0 / 4.3, serial 12.9 / 2.8 / 3.4: spinning threads lose badly when the
cores are taken by other processes. On a quiet machine omp was the fastest
(above); ``bench/train_step.py`` on a quiet machine decides, and
``MINIGRAD_PARALLEL=0`` (or, for a program that calls minigrad from one Python thread
only, ``NUMBA_THREADING_LAYER=workqueue``) is the way out on a
shared, oversubscribed one.
"""

from __future__ import annotations

import os

import numba

from ...num_threads import set_openblas_threads


def use_one_blas_thread() -> bool:
    """Make SciPy's OpenBLAS single-threaded; True if it could be done."""
    import scipy.linalg.cython_blas  # noqa: F401  (loads the library Numba binds to)

    return set_openblas_threads("scipy", 1) is not None


def _openmp_layer() -> bool:
    """Use Numba's OpenMP threading layer if the user has not chosen one and it exists.

    Its idle threads spin briefly before they sleep (libgomp's default
    GOMP_SPINCOUNT, ~10 ms here), so the back-to-back parallel kernels of a
    training step start in ~2 us; the "workqueue" fallback wakes its threads
    every time, which made a training step 1.7x slower here. False: no OpenMP
    layer (parallel kernels would then cost more than they save).

    GOMP_SPINCOUNT is left to the user on purpose: a longer spin (30M spins
    held a core for ~0.75 s after the last kernel) did not make back-to-back
    training steps faster, and it would also be read by any other libgomp in
    the process (PyTorch's), slowing whatever runs next on the second core.
    """
    try:
        from numba.np.ufunc import omppool  # noqa: F401  (present only if OpenMP is)
    except ImportError:
        return False
    if numba.config.THREADING_LAYER == "default":
        numba.config.THREADING_LAYER = "omp"
    return True


def decide() -> bool:
    """Whether kernels may split work over Numba's threads in this process; on True the
    OpenMP layer is chosen and SciPy's BLAS made single-threaded (process-wide: only
    :func:`minigrad.kernels.runtime.settings.ensure_ready` calls this)."""
    if os.environ.get("MINIGRAD_PARALLEL", "1") == "0" or numba.config.NUMBA_NUM_THREADS < 2:
        return False
    return _openmp_layer() and use_one_blas_thread()


# Elementwise kernels go parallel from this many values on (starting the
# threads costs a few microseconds; 16k float32 values take ~5-20 us).
PARALLEL_MIN_SIZE = 1 << 14

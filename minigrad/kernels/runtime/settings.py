"""Every process-wide setting minigrad makes, applied once, when the fast kernels are first used.

``import minigrad`` changes nothing outside minigrad. The first time a fast kernel
decides whether to use threads (:func:`parallel`), or the fast backend calls
:func:`ensure_ready`, these settings are made, in this one place:

1. malloc keeps freed memory (``malloc.keep_freed_memory``: glibc's mmap/trim thresholds
   to 1 GB; ``MINIGRAD_KEEP_FREED_MEMORY=0`` leaves malloc alone);
2. Numba's threading layer is OpenMP, unless the user chose one
   (``NUMBA_THREADING_LAYER``), and SciPy's OpenBLAS runs on one thread, because
   the threads that share out a kernel are Numba's (``threads.py`` says why;
   ``MINIGRAD_PARALLEL=0`` keeps every kernel serial and changes neither);
3. the thread count ``minigrad.set_num_threads`` asked for before the kernels were loaded
   (:func:`apply_thread_count`; later calls apply it at once);
4. a fork handler (``os.register_at_fork``, registered when this module is imported;
   it acts only in a forked child) makes a forked child run every kernel serially: GNU OpenMP cannot be used again in a child forked after it ran (its
   thread pool does not survive ``fork``; Numba then kills the child with
   "fork() called from a process already using GNU OpenMP"). The parent keeps its
   threads; ``multiprocessing`` with "spawn" or "forkserver" starts fresh processes,
   whose kernels are parallel again.

Two Python threads may run kernels at once: the OpenMP layer is thread-safe (each
calling thread leads its own team), and no kernel launches another parallel kernel.
NumPy's own OpenBLAS (a separate copy from SciPy's) is left as it was, unless
``minigrad.set_num_threads`` sets it.
"""

from __future__ import annotations

import os
import threading

from ...num_threads import requested_threads, set_openblas_threads
from . import threads
from .malloc import keep_freed_memory

_lock = threading.Lock()
_ready = False
_parallel = False


def _serial_in_forked_child() -> None:
    global _lock, _parallel, _ready
    # Settled for the child: no threads, and ensure_ready has nothing left to do. A new
    # lock, because another thread of the parent may have held the old one at the fork.
    _lock = threading.Lock()
    _parallel, _ready = False, True


# Registered at import (it changes nothing until a fork), so that a child is serial even
# when its parent ran a parallel kernel directly, without asking parallel() first.
os.register_at_fork(after_in_child=_serial_in_forked_child)


def ensure_ready() -> bool:
    """Apply the process-wide settings above once (thread-safe, idempotent); return
    whether kernels may split work over threads in this process."""
    global _ready, _parallel
    if _ready:
        return _parallel
    with _lock:
        if not _ready:
            keep_freed_memory()
            _parallel = threads.decide()
            _ready = True
    requested = requested_threads()
    if requested is not None:
        apply_thread_count(requested)
    return _parallel


def apply_thread_count(n: int) -> None:
    """Give the kernels ``n`` threads (``minigrad.set_num_threads``): Numba's count in the
    calling Python thread, capped at its pool's size; SciPy's BLAS gets ``n`` only when the
    kernels run serially (parallel kernels keep it on one thread, see ``threads.py``)."""
    import numba

    if not ensure_ready():
        set_openblas_threads("scipy", n)
        return
    numba.set_num_threads(min(n, numba.config.NUMBA_NUM_THREADS))


def parallel() -> bool:
    """True when kernels may share work over Numba's threads (False in a forked child)."""
    return _parallel if _ready else ensure_ready()

"""How many threads minigrad computes with: ``set_num_threads(n)`` / ``get_num_threads()``.

PyTorch's ``torch.set_num_threads`` governs one pool of threads. minigrad computes with
three: NumPy's OpenBLAS (every product of the reference backend), Numba's threads (the fast
kernels split their work over them) and SciPy's OpenBLAS (the products inside those
kernels, one per Numba thread). :func:`set_num_threads` sets all three consistently:

- NumPy's OpenBLAS gets ``n`` threads, at once;
- Numba's kernels share their work over ``min(n, NUMBA_NUM_THREADS)`` threads in the
  calling Python thread (Numba's count is per Python thread; other Python threads keep
  theirs); when no kernel has run yet, from the moment the kernels load;
- SciPy's OpenBLAS stays on one thread while the kernels split work over Numba's threads
  (``minigrad/kernels/runtime/threads.py`` says why), else it gets ``n`` too.

``import minigrad`` changes none of them: until :func:`set_num_threads` is called each
library keeps its own default, and :func:`get_num_threads` reports what Numba would use
(``NUMBA_NUM_THREADS``, else the cores this process may run on). Nothing here imports
Numba.
"""

from __future__ import annotations

import ctypes
import os
import sys

_requested: int | None = None

# Symbols of the OpenBLAS copies the NumPy and SciPy wheels bundle (NumPy's is built with
# 64-bit integers: its symbols carry the suffix "64_").
_SETTERS = {"numpy": ("scipy_openblas_set_num_threads64_", "openblas_set_num_threads64_",
                      "openblas_set_num_threads"),
            "scipy": ("scipy_openblas_set_num_threads", "openblas_set_num_threads")}
_GETTERS = {"numpy": ("scipy_openblas_get_num_threads64_", "openblas_get_num_threads64_",
                      "openblas_get_num_threads"),
            "scipy": ("scipy_openblas_get_num_threads", "openblas_get_num_threads")}


class ThreadCountError(ValueError, RuntimeError):
    """An invalid thread count: a ValueError (a bad argument), and a RuntimeError as
    PyTorch raises, so that either ``except`` works."""


def _loaded_openblas(owner: str) -> ctypes.CDLL | None:
    """The OpenBLAS that the package ``owner`` ('numpy' or 'scipy') bundles, as loaded in
    this process, or None (not loaded, not Linux)."""
    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if "openblas" in line.lower()}
    except OSError:  # not Linux
        return None
    # the wheels bundle theirs under numpy.libs/ and scipy.libs/: two separate copies
    for path in sorted(paths):
        if owner in os.path.basename(os.path.dirname(path)) and os.path.exists(path):
            return ctypes.CDLL(path)
    return None


def _symbol(lib: ctypes.CDLL, names: tuple[str, ...]):
    for name in names:
        fn = getattr(lib, name, None)
        if fn is not None:
            return fn
    return None


def openblas_threads(owner: str) -> int | None:
    """How many threads the OpenBLAS bundled by ``owner`` ('numpy' or 'scipy') uses, or None
    where that cannot be read (not loaded, not Linux, another BLAS)."""
    lib = _loaded_openblas(owner)
    getter = _symbol(lib, _GETTERS[owner]) if lib is not None else None
    if getter is None:
        return None
    getter.restype = ctypes.c_int
    return int(getter())


def set_openblas_threads(owner: str, n: int) -> int | None:
    """Give the OpenBLAS bundled by ``owner`` ('numpy' or 'scipy') ``n`` threads; returns
    how many it had (to restore later), or None where it cannot be done."""
    lib = _loaded_openblas(owner)
    if lib is None:
        return None
    setter, getter = _symbol(lib, _SETTERS[owner]), _symbol(lib, _GETTERS[owner])
    if setter is None or getter is None:
        return None
    setter.argtypes, getter.restype = (ctypes.c_int,), ctypes.c_int
    previous = int(getter())
    setter(int(n))
    return previous


def requested_threads() -> int | None:
    """The count :func:`set_num_threads` was last given in this process (None: never)."""
    return _requested


def set_num_threads(n: int) -> None:
    """Use ``n`` threads (a positive int) for minigrad's computations in this process, as
    ``torch.set_num_threads``: NumPy's BLAS, Numba's kernel threads and SciPy's BLAS, each as
    the module docstring says. Raises :class:`ThreadCountError` (a ValueError and a
    RuntimeError) for anything but a positive int, changing nothing."""
    global _requested
    if isinstance(n, bool) or not isinstance(n, int):
        raise ThreadCountError(f"set_num_threads expects an int, but got {type(n).__name__}")
    if n < 1:
        raise ThreadCountError(f"set_num_threads expects a positive integer, got {n}")
    _requested = n
    set_openblas_threads("numpy", n)
    # The kernels' runtime is loaded with the first fast kernel; it is never imported from
    # here (that would import Numba, and the runtime imports this module). Until it is
    # loaded, its set-up applies the requested count itself (requested_threads).
    settings = sys.modules.get("minigrad.kernels.runtime.settings")
    if settings is not None:
        settings.apply_thread_count(n)


def get_num_threads() -> int:
    """The thread count minigrad computes with: the last :func:`set_num_threads` value, else
    Numba's default (``NUMBA_NUM_THREADS``, else the cores this process may run on)."""
    if _requested is not None:
        return _requested
    numba = sys.modules.get("numba")
    if numba is not None:  # its configured pool size (asking for the count starts the pool)
        return int(numba.config.NUMBA_NUM_THREADS)
    configured = os.environ.get("NUMBA_NUM_THREADS", "").strip()
    if configured.isdigit() and int(configured) > 0:
        return int(configured)
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1

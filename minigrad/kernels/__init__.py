"""Numba kernels for the hot ops: each replaces a method of the reference backend
(``minigrad/backends/reference.py``); ``backends/fast.py`` overrides that method with it.

Every kernel is ``@njit(cache=True)``, works on float32 and float64, and reads
only inside the arrays it is given: callers check shapes and index ranges
before a kernel runs, and the kernels that index by caller data (embedding ids,
cross-entropy targets) check again and raise IndexError. Tests hold each kernel
equal to that reference method. The process machinery the kernels need (threads,
malloc, fork handling, the compile cache, float32 bit tricks) lives in ``runtime/``.
Importing this package changes nothing process-wide: ``runtime/settings.py`` applies the
few process-wide settings when a kernel first runs, and every kernel also runs as plain
Python under ``NUMBA_DISABLE_JIT=1``. The one thing importing it does tell Numba, before
any kernel is decorated, is where to cache minigrad's own compiled kernels: the user's
cache folder, never inside the installed package (``runtime/cache_location.py``).
"""

from .runtime.cache_location import install as _install_cache_location

_install_cache_location()

"""Run a kernel on one thread or split over Numba's threads, by the size of its work.

A kernel over ``count`` independent units (samples, planes, rows, values) comes as a pair:
``serial(*args, u0, u1)`` does units u0..u1 on the calling thread, and ``par(*args, n)``
(``parallel=True``, a ``prange`` over n blocks) hands each of n threads a block of
``serial``'s range. :func:`run_split` picks: the threads when the process allows them
(``settings.parallel``) and the work is large enough to pay for starting them
(``PARALLEL_MIN_SIZE`` values), else ``serial`` over everything.
"""

from __future__ import annotations

from collections.abc import Callable

from numba import get_num_threads

from .settings import parallel
from .threads import PARALLEL_MIN_SIZE


def threads_for(size: int) -> int:
    """How many threads a kernel touching ``size`` values should use (1: stay serial)."""
    return get_num_threads() if parallel() and size >= PARALLEL_MIN_SIZE else 1


def run_split(serial: Callable, par: Callable, size: int, count: int, *args) -> None:
    """``par(*args, n)`` on n threads if :func:`threads_for` says so, else
    ``serial(*args, 0, count)``."""
    n = threads_for(size)
    if n > 1:
        par(*args, n)
    else:
        serial(*args, 0, count)

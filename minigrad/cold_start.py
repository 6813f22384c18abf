"""The fast backend on a cold Numba cache: how its kernels compile, and waiting for them.

The fast backend's kernels are compiled by Numba the first time each runs with new argument
types, 0.3-1 s each, and kept in a cache on disk for later processes. On a cold cache (a new
install, a new minigrad or Numba version, a new cache folder) a script's first training
step would wait 20 s or more. So, by default (compile mode ``'background'``), a kernel that
is not cached compiles in a worker process while its primitive is answered by the
reference backend's code (plain NumPy: the same math, slower); each kernel switches to its
compiled version as soon as it is ready
(``minigrad/kernels/runtime/background_compile.py`` holds the machinery).

The price: the two backends round float32 differently, so a run that starts on a cold
cache is not bit-for-bit the run a warm cache gives with the same seed. Compile mode
``'wait'`` compiles each kernel in the process that calls it, as Numba does by default:
every run is repeatable from the first one (and the test suite uses it, since tests of the
kernels must run the kernels).

The mode comes from the environment variable ``MINIGRAD_COMPILE`` (``background`` or
``wait``), read at each kernel's first call, so :func:`set_compile_mode` (which sets it,
for this process and the processes it starts) takes effect at once. This module is the
library's public door to that machinery; importing it imports no kernel and not Numba.

>>> import minigrad
>>> minigrad.cold_start.set_compile_mode("wait")    # repeatable from the first run
>>> minigrad.cold_start.wait_for_kernels()          # or: let the worker finish first
"""

from __future__ import annotations

import os
import sys
from types import ModuleType

#: the environment variable that chooses how kernels compile on a cold cache, and its values
COMPILE_ENV = "MINIGRAD_COMPILE"
COMPILE_MODES = ("background", "wait")

_MACHINERY = "minigrad.kernels.runtime.background_compile"


def compile_mode() -> str:
    """``'background'`` or ``'wait'``, from ``MINIGRAD_COMPILE``. Unset, empty or unknown
    values mean ``'background'``: like ``MINIGRAD_BACKEND``, the library does not fail over
    a typo in the environment (the trainer's ``--compile`` refuses one)."""
    value = os.environ.get(COMPILE_ENV, "").strip().lower()
    return "wait" if value == "wait" else "background"


def set_compile_mode(mode: str) -> None:
    """Choose how kernels that are not cached compile from now on, in this process and the
    processes it starts: ``'background'`` or ``'wait'`` (see the module docstring).
    Raises ValueError for any other value, changing nothing."""
    if mode not in COMPILE_MODES:
        raise ValueError(f"compile mode must be 'background' or 'wait', got {mode!r}")
    os.environ[COMPILE_ENV] = mode


def _machinery() -> ModuleType | None:
    # Loaded with the fast backend's kernels; never imported from here, which would import
    # Numba. Not loaded yet means no kernel has run, so none is compiling.
    return sys.modules.get(_MACHINERY)


def compiling() -> bool:
    """Whether kernels are compiling in a worker process for this process right now (their
    primitives are answered by the reference code meanwhile), or calls the reference code
    answered still have kernels to compile (which :func:`wait_for_kernels` brings in)."""
    machinery = _machinery()
    return machinery is not None and machinery.compiling()


def wait_for_kernels() -> None:
    """Block until every kernel sent to the worker process is compiled (at once if none
    is), and the kernels that the calls answered by the reference code run after those;
    from then on the fast kernels answer. A run that ends while kernels compile can call it
    so that the next run finds them cached."""
    machinery = _machinery()
    if machinery is not None:
        machinery.wait_for_kernels()


def reference_answers() -> int:
    """How many fast-backend primitive calls in this process were answered by the reference
    code because a kernel was still compiling (0 on a warm cache and in ``'wait'`` mode)."""
    machinery = _machinery()
    return 0 if machinery is None else int(machinery.reference_answers)

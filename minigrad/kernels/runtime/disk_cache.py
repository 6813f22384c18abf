"""Numba's on-disk cache of compiled kernels: use it without compiling, and say what compiles.

Every kernel is ``@njit(cache=True)``: the first call with a new signature (dtypes, number
of dimensions, memory layout of the arguments) compiles machine code and writes it to
Numba's cache (the user's cache folder, see ``cache_location.py``, or ``NUMBA_CACHE_DIR``); later
processes load it from there in milliseconds instead of compiling it again for a second or
more. Two tools build on Numba's ``"numba:compile"`` event, which fires just before a
dispatcher compiles, i.e. only after the cache had no copy:

- :func:`cached_only`: inside it, a kernel call that would have to compile raises
  :class:`KernelNotCached` instead (loading from the cache still works). Running a workload
  once inside it answers "is everything this workload needs already compiled?" without
  paying for a compilation (a script or a test can check so that a workload is
  warm).
- :func:`announce_compiles`: prints one line per kernel compiled inside it, with the time
  it took, so a user waiting on a cold cache sees what is happening.
- the fast backend's background compile (``background_compile.py``) sends a kernel that
  would compile inside one of its primitives to a worker process, except inside the two
  blocks above (:func:`explicit_block_open`);
- :func:`notice_first_compile`: outside those blocks, one line on a terminal's stderr the
  first time a kernel compiles in the process (the fast backend turns it on when it loads),
  so that a script's first call that stalls for seconds says why.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator
from typing import TextIO

from numba.core import event

_COMPILE = "numba:compile"


class KernelNotCached(RuntimeError):
    """A kernel needed compiling inside :func:`cached_only` (no cached machine code)."""


def kernel_name(ev: event.Event) -> str:
    """'module.function(arg types)' of the dispatcher an event is about."""
    fn = ev.data["dispatcher"].py_func
    args = ", ".join(str(a) for a in ev.data["args"])
    return f"{fn.__module__}.{fn.__qualname__}({args})"


def is_minigrad(ev: event.Event) -> bool:
    """Whether an event's dispatcher is one of minigrad's kernels (not Numba's own helpers)."""
    return ev.data["dispatcher"].py_func.__module__.startswith("minigrad.")


class _RefuseToCompile(event.Listener):
    def on_start(self, ev: event.Event) -> None:
        raise KernelNotCached(f"{kernel_name(ev)} is not in Numba's cache")

    def on_end(self, ev: event.Event) -> None:
        pass


_explicit = 0  # cached_only and announce_compiles blocks open (background_compile.py)


def explicit_block_open() -> bool:
    """Whether a :func:`cached_only` or :func:`announce_compiles` block is open: they say
    how kernels may compile, so the fast backend's background compile stays out of them."""
    return _explicit > 0


@contextlib.contextmanager
def cached_only() -> Iterator[None]:
    """Within the block, kernels load from memory or from Numba's on-disk cache, and any
    call that would compile raises :class:`KernelNotCached` (naming the kernel and its
    argument types) before it compiles. Process-wide while it lasts: meant for a probe run
    from one thread, not for code running beside other threads that use kernels."""
    global _explicit
    _explicit += 1
    try:
        with event.install_listener(_COMPILE, _RefuseToCompile()):
            yield
    finally:
        _explicit -= 1


class _Announcer(event.Listener):
    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.started: list[float] = []
        self.count = 0

    def on_start(self, ev: event.Event) -> None:
        self.started.append(time.perf_counter())
        # A kernel's nested compiles (its callees, the NumPy functions Numba builds for it)
        # are part of it: only the outermost compile, of one of minigrad's kernels, gets a line.
        if len(self.started) == 1 and is_minigrad(ev):
            fn = ev.data["dispatcher"].py_func
            print(f"  compiling {fn.__module__.removeprefix('minigrad.')}.{fn.__qualname__}",
                  end="", file=self.stream, flush=True)

    def on_end(self, ev: event.Event) -> None:
        seconds = time.perf_counter() - self.started.pop()
        if not self.started and is_minigrad(ev):
            self.count += 1
            print(f" ({seconds:.1f} s)", file=self.stream, flush=True)


_announcing = 0  # announce_compiles blocks open: they say more than the notice would


class _FirstCompileNotice(event.Listener):
    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.said = False

    def on_start(self, ev: event.Event) -> None:
        if not self.said and not _announcing and is_minigrad(ev):
            self.said = True
            print("minigrad: compiling fast kernels (first use with this Numba cache, a second "
                  "or more each; they are cached on disk for later runs)...",
                  file=self.stream, flush=True)

    def on_end(self, ev: event.Event) -> None:
        pass


_notice: _FirstCompileNotice | None = None


def notice_first_compile(stream: TextIO | None = None) -> None:
    """Once per process: if ``stream`` (default stderr) is a terminal, print one line there
    the first time a minigrad kernel compiles. Logs and pipes get nothing."""
    global _notice
    stream = stream if stream is not None else sys.stderr
    if _notice is None and stream.isatty():
        _notice = _FirstCompileNotice(stream)
        event.register(_COMPILE, _notice)


@contextlib.contextmanager
def announce_compiles(stream: TextIO | None = None) -> Iterator[_Announcer]:
    """Print ``compiling kernels.module.kernel (1.2 s)`` to ``stream`` (default stderr) for
    every minigrad kernel compiled within the block; ``.count`` says how many were."""
    global _announcing, _explicit
    announcer = _Announcer(stream if stream is not None else sys.stderr)
    _announcing += 1
    _explicit += 1
    try:
        with event.install_listener(_COMPILE, announcer):
            yield announcer
    finally:
        _announcing -= 1
        _explicit -= 1

"""One benchmark contender in a process of its own, driven by method calls over a pipe.

Why a process each: two frameworks in one process bring two thread pools
(minigrad's Numba/OpenMP threads, PyTorch's own OpenMP runtime, NumPy's
OpenBLAS pool) that spin for a while after each parallel region. Run back to
back in one process, as a training loop runs its steps, they take the two
cores from each other: measured here, the `baby` step of PyTorch's fused
attention took ~2 s instead of ~50 ms with minigrad's threads in the same
process. A user trains with one framework per process; the benchmark does too.

    worker = Worker(Trainer, "minigrad", cfg)         # Trainer(...) is built in the child
    seconds = worker.call("run", 5)                   # -> the child's obj.run(5)
    worker.close()

The child is started with the "spawn" method (a fresh interpreter: nothing of
the parent's imports or threads is inherited), so ``factory`` must be a
module-level class or function of an importable module and its arguments picklable.
"""

from __future__ import annotations

import multiprocessing as mp
import traceback
from collections.abc import Callable
from typing import Any, Self


def _serve(conn: Any, factory: Callable[..., Any], args: tuple) -> None:
    """The child's loop: build the object, then answer (method, args) calls until None."""
    try:
        obj = factory(*args)
        conn.send(("ok", None))
    except BaseException:  # noqa: BLE001  (reported to the parent, which raises)
        conn.send(("error", traceback.format_exc()))
        return
    while True:
        request = conn.recv()
        if request is None:
            return
        method, call_args = request
        try:
            conn.send(("ok", getattr(obj, method)(*call_args)))
        except BaseException:  # noqa: BLE001
            conn.send(("error", traceback.format_exc()))


class WorkerError(RuntimeError):
    """A call in the worker process raised; the message holds the child's traceback."""


class Worker:
    """``factory(*args)`` built in a child process; :meth:`call` runs its methods there."""

    def __init__(self, factory: Callable[..., Any], *args: Any) -> None:
        ctx = mp.get_context("spawn")
        self._conn, child_conn = ctx.Pipe()
        self._process = ctx.Process(target=_serve, args=(child_conn, factory, args), daemon=True)
        self._process.start()
        child_conn.close()
        self._receive(f"building {getattr(factory, '__name__', factory)}{args!r}")

    def _receive(self, what: str) -> Any:
        try:
            status, value = self._conn.recv()
        except EOFError:
            raise WorkerError(f"the worker process died while {what}") from None
        if status == "error":
            raise WorkerError(f"{what} failed in the worker process:\n{value}")
        return value

    def call(self, method: str, *args: Any) -> Any:
        """``obj.method(*args)`` in the child; its return value (pickled back)."""
        self._conn.send((method, args))
        return self._receive(f"calling {method}{args!r}")

    def close(self) -> None:
        """Ask the child to exit and wait for it."""
        if self._process.is_alive():
            try:
                self._conn.send(None)
            except (BrokenPipeError, OSError):
                pass
            self._process.join(timeout=10)
        if self._process.is_alive():
            self._process.kill()
        self._conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

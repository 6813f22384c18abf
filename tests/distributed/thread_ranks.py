"""Ranks as threads of one process: a :class:`~minigrad.distributed.communicator.Communicator`
without MPI, so that the data-parallel code is tested where mpi4py is not installed.

:func:`run_ranks` runs ``fn(group)`` on N threads, each with a
:class:`~minigrad.distributed.process_group.ProcessGroup` over a :class:`ThreadCommunicator`
of the same :class:`Rendezvous`, and returns what each rank returned or raised. A collective
completes when every rank has started it; its result is computed from copies of what each
rank passed, in rank order (as MPI's reductions over two ranks: a + b). Ranks that start
different collectives at the same position fail with a DistributedError naming both, and
:meth:`ThreadCommunicator.abort` stops every rank (each raises :class:`Aborted`), as
``MPI_Abort`` stops every process.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.distributed.communicator import Communicator
from minigrad.distributed.process_group import DistributedError, ProcessGroup


class Aborted(BaseException):
    """Raised on every rank once any rank called abort (a BaseException, as the process's
    end under MPI is not an error a rank can catch)."""

    def __init__(self, code: int, by: int) -> None:
        super().__init__(f"rank {by} aborted every rank with exit code {code}")
        self.code, self.by = code, by


class Rendezvous:
    """What the ranks share: every collective's contributions, by position in each rank's
    sequence of collectives."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.lock = threading.Lock()
        self.posts: dict[int, dict[int, tuple[str, Any]]] = {}
        self.aborted: Aborted | None = None


class _Request:
    def __init__(self, seq: int, kind: str, finish: Callable[[list], None]) -> None:
        self.seq, self.kind, self.finish, self.done = seq, kind, finish, False


class ThreadCommunicator(Communicator):
    """Rank ``rank`` of the ranks sharing ``rendezvous`` (see the module docstring)."""

    def __init__(self, rendezvous: Rendezvous, rank: int) -> None:
        self.rv, self.rank, self.size = rendezvous, rank, rendezvous.size
        self.local_rank, self.local_size, self.processes = rank, rendezvous.size, []
        self._count = 0
        self.started: list[str] = []  # the collectives this rank started, in order

    def _start(self, kind: str, payload: Any, finish: Callable[[list], None]) -> _Request:
        self._check_abort()
        seq, self._count = self._count, self._count + 1
        self.started.append(kind)
        with self.rv.lock:
            self.rv.posts.setdefault(seq, {})[self.rank] = (kind, payload)
        return _Request(seq, kind, finish)

    def _check_abort(self) -> None:
        if self.rv.aborted is not None:
            raise Aborted(self.rv.aborted.code, self.rv.aborted.by)

    def iallreduce(self, arr: np.ndarray, op: str) -> _Request:
        reduce = {"sum": np.add, "max": np.maximum, "min": np.minimum}[op]

        def finish(parts: list) -> None:
            out = parts[0].copy()
            for part in parts[1:]:
                reduce(out, part, out=out)
            np.copyto(arr, out)
        return self._start(f"allreduce({op})", arr.copy(), finish)

    def ibcast(self, arr: np.ndarray, root: int) -> _Request:
        return self._start(f"bcast(root={root})", arr.copy(),
                           lambda parts: np.copyto(arr, parts[root]))

    def ibarrier(self) -> _Request:
        return self._start("barrier", None, lambda parts: None)

    def iallgather(self, send: np.ndarray, recv: np.ndarray) -> _Request:
        return self._start("allgather", send.copy(),
                           lambda parts: np.copyto(recv, np.concatenate(parts)))

    def iallgatherv(self, send: np.ndarray, recv: np.ndarray, counts: list[int]) -> _Request:
        return self._start("allgatherv", send.copy(),
                           lambda parts: np.copyto(recv, np.concatenate(parts)))

    def testall(self, requests: list) -> bool:
        self._check_abort()
        for req in requests:
            if req.done:
                continue
            with self.rv.lock:
                posts = dict(self.rv.posts.get(req.seq, {}))
            if len(posts) < self.size:
                return False
            kinds = {r: kind for r, (kind, _) in posts.items()}
            if len(set(kinds.values())) > 1:
                raise DistributedError(
                    f"rank {self.rank}: collective {req.seq} is "
                    + ", ".join(f"{k} on rank {r}" for r, k in sorted(kinds.items())))
            req.finish([posts[r][1] for r in range(self.size)])
            req.done = True
        return True

    def abort(self, code: int) -> None:
        with self.rv.lock:
            if self.rv.aborted is None:
                self.rv.aborted = Aborted(code, self.rank)
        self._check_abort()


def run_ranks(size: int, fn: Callable[[ProcessGroup], Any],
              timeout: float = 30.0) -> list[tuple[str, Any]]:
    """Run ``fn(group)`` on ``size`` threads (ranks 0..size-1); per rank ("ok", result) or
    ("raised", exception). ``timeout`` is each collective's deadline."""
    rv = Rendezvous(size)
    out: list[tuple[str, Any]] = [("missing", None)] * size

    def one(rank: int) -> None:
        group = ProcessGroup(ThreadCommunicator(rv, rank), timeout=timeout)
        try:
            out[rank] = ("ok", fn(group))
        except BaseException as e:  # noqa: BLE001  (a rank's SystemExit is a result too)
            out[rank] = ("raised", e)

    threads = [threading.Thread(target=one, args=(r,), daemon=True) for r in range(size)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout * 4)
        assert not t.is_alive(), "a rank is still running"
    return out


def results(outcomes: list[tuple[str, Any]]) -> list[Any]:
    """The values every rank returned, or the first rank's exception raised again."""
    for status, value in outcomes:
        if status != "ok":
            raise value
    return [value for _, value in outcomes]

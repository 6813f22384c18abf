"""The communicator: the few non-blocking collectives a process group is built on.

:class:`Communicator` is the whole interface the rest of ``minigrad.distributed`` uses to talk
to the other ranks; :class:`MPICommunicator` implements it on ``mpi4py``'s ``COMM_WORLD``.
Every operation starts a collective and returns a request at once; :meth:`Communicator.testall`
says whether requests are complete (and drives their progress). Keeping the interface this
small lets a test run two ranks as two threads of one process (tests/distributed/thread_ranks.py)
without MPI installed, through exactly the code a real run uses.

Every rank must start the same collectives in the same order; a buffer passed to a collective
must stay untouched until its request is complete, and then holds the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

#: reductions every communicator supports (elementwise over the ranks' arrays)
REDUCE_OPS = ("sum", "max", "min")


class Communicator:
    """What a process group needs from its transport: who am I, how many are we, and
    non-blocking collectives on NumPy arrays (see the module docstring)."""

    rank: int = 0
    size: int = 1
    local_rank: int = 0      # this rank's index among the ranks on its host
    local_size: int = 1      # ranks on this host (they share its cores)
    processes: Sequence = ()  # (pid, host) of every rank, when known: names a rank that died

    def iallreduce(self, arr: np.ndarray, op: str) -> Any:
        """Start replacing ``arr`` on every rank by the elementwise ``op`` (REDUCE_OPS) of
        every rank's ``arr``."""
        raise NotImplementedError

    def ibcast(self, arr: np.ndarray, root: int) -> Any:
        """Start overwriting ``arr`` on every rank with rank ``root``'s ``arr``."""
        raise NotImplementedError

    def ibarrier(self) -> Any:
        """Start a barrier: complete once every rank has started it."""
        raise NotImplementedError

    def iallgather(self, send: np.ndarray, recv: np.ndarray) -> Any:
        """Start filling ``recv`` (size * len(send)) with every rank's ``send``, in rank order."""
        raise NotImplementedError

    def iallgatherv(self, send: np.ndarray, recv: np.ndarray, counts: list[int]) -> Any:
        """As :meth:`iallgather` with rank r sending ``counts[r]`` elements."""
        raise NotImplementedError

    def testall(self, requests: list) -> bool:
        """Whether every request is complete (advancing them)."""
        raise NotImplementedError

    def abort(self, code: int) -> None:
        """Stop every rank now, with exit code ``code`` (does not return)."""
        raise NotImplementedError


class MPICommunicator(Communicator):
    """:class:`Communicator` on an mpi4py communicator (``MPI.COMM_WORLD``)."""

    def __init__(self, MPI: Any, comm: Any) -> None:
        self.MPI, self.comm = MPI, comm
        self.rank, self.size = comm.Get_rank(), comm.Get_size()
        # the ranks that share this host's memory: their rank among themselves (a GPU or
        # core-set index, e.g. for choosing threads)
        local = comm.Split_type(MPI.COMM_TYPE_SHARED, key=self.rank)
        self.local_rank, self.local_size = local.Get_rank(), local.Get_size()
        local.Free()
        self.processes = []
        self._ops = {"sum": MPI.SUM, "max": MPI.MAX, "min": MPI.MIN}

    def iallreduce(self, arr: np.ndarray, op: str) -> Any:
        return self.comm.Iallreduce(self.MPI.IN_PLACE, arr, op=self._ops[op])

    def ibcast(self, arr: np.ndarray, root: int) -> Any:
        return self.comm.Ibcast(arr, root=root)

    def ibarrier(self) -> Any:
        return self.comm.Ibarrier()

    def iallgather(self, send: np.ndarray, recv: np.ndarray) -> Any:
        return self.comm.Iallgather(send, recv)

    def iallgatherv(self, send: np.ndarray, recv: np.ndarray, counts: list[int]) -> Any:
        return self.comm.Iallgatherv(send, (recv, counts))

    def testall(self, requests: list) -> bool:
        return bool(self.MPI.Request.Testall(requests))

    def abort(self, code: int) -> None:
        self.comm.Abort(code)

"""Data-parallel runs of minigrad-train: ``mpiexec -n N minigrad-train --batch-size B ...``.

Every rank builds the same model from the same seed and draws the same global batch of B rows
from the same sampler, then computes only its own B/N rows (``split_batch``);
DistributedDataParallel averages the gradients, so every rank takes the step one process
with the global batch takes, and the data order is that of one process. Loss estimates are
split the same way and averaged across ranks. Rank 0 alone prints and writes files
(checkpoints, metrics, plot, sample); the other ranks' standard output goes to /dev/null (their
errors still reach stderr, with the rank named, see minigrad/distributed/process_group.py).

Under a plain ``minigrad-train`` (no mpiexec, or ``mpiexec -n 1``) nothing here imports
mpi4py: :data:`SINGLE` is a world of one whose operations do nothing.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from typing import Any

import numpy as np

from .. import distributed as dist
from ..backends import get_backend

# what MPI launchers put in each rank's environment: MPICH/Intel MPI (hydra), Open MPI
SIZE_ENV = ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS")


def launched_world_size() -> int:
    """The number of ranks the MPI launcher started (1 when not started by one)."""
    for name in SIZE_ENV:
        if os.environ.get(name, "").isdigit():
            return int(os.environ[name])
    return 1


class World:
    """The trainer's view of the ranks: who it is, how to split a batch and average a
    number; a world of one (:data:`SINGLE`) leaves everything as a single process has it."""

    def __init__(self, size: int = 1, rank: int = 0) -> None:
        self.size, self.rank = size, rank

    @property
    def is_main(self) -> bool:
        """Rank 0: the one that prints and writes files."""
        return self.rank == 0

    def split(self, batch: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """This rank's rows of a global (x, y) batch."""
        return batch if self.size == 1 else dist.split_batch(batch, self.rank, self.size)

    def mean(self, value: float) -> float:
        """The mean of ``value`` over the ranks (every rank gets it)."""
        return value if self.size == 1 else dist.all_reduce(float(value), "mean")

    def agreed_signal(self, signum: int | None) -> int | None:
        """The stop signal any rank received (the ranks receive a Ctrl-C at slightly
        different moments, but must all stop before the same step), or None."""
        if self.size == 1:
            return signum
        return int(dist.all_reduce(float(signum or 0), "max")) or None

    def wrap(self, model: Any) -> Any:
        """The module that computes the training loss: ``model`` itself, or its DDP wrapper."""
        return model if self.size == 1 else dist.DistributedDataParallel(model)

    def no_sync(self, net: Any, last: bool) -> contextlib.AbstractContextManager:
        """Where a micro-batch's backward runs: gradients are averaged across the ranks only
        after the ``last`` micro-batch of a step; the others accumulate locally (DDP.no_sync)."""
        if last or not isinstance(net, dist.DistributedDataParallel):
            return contextlib.nullcontext()
        return net.no_sync()

    def finish_gradients(self, net: Any) -> None:
        """Complete the gradient averaging before the optimizer step (see DDP)."""
        if isinstance(net, dist.DistributedDataParallel):
            net.finish_gradient_sync()

    def describe(self, batch_size: int, threads: int | None) -> dict:
        """What metrics.json records about how the run ran."""
        return {"world_size": self.size, "batch_per_rank": batch_size // self.size,
                "threads_per_rank": threads}


SINGLE = World()


def default_threads(local_ranks: int) -> int:
    """The cores this process may use, shared evenly among the ranks on this host."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, cores // max(1, local_ranks))


def set_threads(n: int) -> None:
    """Use ``n`` threads for NumPy's BLAS and Numba's kernels in this process. Numba reads
    NUMBA_NUM_THREADS when it is imported (the fast backend imports it on first use)."""
    os.environ["NUMBA_NUM_THREADS"] = str(n)
    os.environ["OMP_NUM_THREADS"] = str(n)  # OpenMP and a BLAS not loaded yet (SciPy's)
    if "numba" in sys.modules:  # already loaded: change its pool's active size
        numba = sys.modules["numba"]
        numba.set_num_threads(min(n, numba.config.NUMBA_NUM_THREADS))
    if get_backend() == "fast":
        # imported here, not at the top: only the fast backend may load Numba
        importlib.import_module("minigrad.kernels.runtime.threads").set_numpy_blas_threads(n)


def connect(batch_size: int, threads: int | None) -> tuple[World, int | None]:
    """Join the MPI world when mpiexec started several ranks (else :data:`SINGLE`), check
    that ``batch_size`` splits evenly, set this rank's threads (``threads``, else cores on
    this host / ranks on this host) and silence the standard output of ranks other than 0.
    Returns the world and the thread count set (None: left as it was)."""
    if launched_world_size() <= 1:
        if threads is not None:
            set_threads(threads)
        return SINGLE, threads
    dist.init_process_group()
    world = World(dist.get_world_size(), dist.get_rank())
    dist.split_sizes(batch_size, world.size)  # ValueError naming the sizes
    threads = threads if threads is not None else default_threads(dist.get_local_world_size())
    set_threads(threads)
    if not world.is_main:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (for the life of the process)
    return world, threads

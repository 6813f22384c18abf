"""Data-parallel training across processes and machines, on MPI (``pip install
'minigrad-autodiff[mpi]'``; run with ``mpiexec -n 2 python train.py``).

Every process (a *rank*) holds a full copy of the model and computes the gradient of its own
slice of each global batch; :class:`DistributedDataParallel` averages those gradients across
ranks during backward, so every rank takes the same optimizer step as one process that saw
the whole batch. See docs/09_data_parallel.md.

Importing this package does not import mpi4py: that happens on the first call that needs MPI
(:func:`init_process_group`, or building a :class:`DistributedDataParallel`).
"""

from .batch import split_batch, split_sizes
from .data_parallel import DistributedDataParallel
from .process_group import (
    DistributedError,
    ProcessGroup,
    all_gather_object,
    all_reduce,
    barrier,
    broadcast,
    broadcast_object,
    get_local_rank,
    get_local_world_size,
    get_rank,
    get_world_size,
    init_process_group,
    is_initialized,
)

__all__ = [
    "DistributedDataParallel", "DistributedError", "ProcessGroup", "all_gather_object",
    "all_reduce", "barrier", "broadcast", "broadcast_object",
    "get_local_rank", "get_local_world_size", "get_rank", "get_world_size", "init_process_group", "is_initialized",
    "split_batch", "split_sizes",
]

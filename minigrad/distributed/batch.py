"""Which rows of a global batch each rank computes.

With a global batch of B rows and N ranks, rank r takes a contiguous slice of ``B // N``
rows, the first ``B % N`` ranks one row more. The slices, in rank order, are the global batch
itself, so N ranks together see exactly the rows one process with the same global batch
sees. Each rank's loss is the mean over its rows; averaging gradients across ranks then gives
the gradient of the mean over the whole batch only when every rank has the same number of
rows, so :class:`~minigrad.distributed.DistributedDataParallel` users pick B divisible by N
(:func:`split_sizes` refuses an uneven split unless asked).
"""

from __future__ import annotations

from typing import Any


def split_sizes(global_batch: int, world: int, allow_uneven: bool = False) -> list[int]:
    """Rows per rank for a global batch of ``global_batch`` rows over ``world`` ranks.

    Raises ValueError when ``global_batch`` is not divisible by ``world`` (then the average of
    the ranks' mean losses is not the mean over the batch) unless ``allow_uneven``."""
    if world < 1 or global_batch < world:
        raise ValueError(
            f"cannot split a global batch of {global_batch} rows over {world} ranks: every "
            "rank needs at least one row"
        )
    if global_batch % world and not allow_uneven:
        raise ValueError(
            f"global batch {global_batch} is not divisible by the world size {world}: the "
            "ranks would average means over different numbers of rows, which is not the mean "
            f"over the batch; use a batch size that is a multiple of {world}"
        )
    base, extra = divmod(global_batch, world)
    return [base + (r < extra) for r in range(world)]


def split_batch(global_batch: Any, rank: int, world: int, allow_uneven: bool = False) -> Any:
    """Rank ``rank``'s rows of ``global_batch`` (an array or Tensor of (B, ...), or a tuple or
    list of them with the same B, e.g. ``(x, y)``), sliced along the first axis."""
    if isinstance(global_batch, (tuple, list)):
        sizes = {len(a) for a in global_batch}
        if len(sizes) != 1:
            raise ValueError(f"split_batch: the arrays have different batch sizes {sorted(sizes)}")
        return type(global_batch)(split_batch(a, rank, world, allow_uneven) for a in global_batch)
    if not 0 <= rank < world:
        raise ValueError(f"split_batch: rank {rank} is outside 0..{world - 1}")
    sizes = split_sizes(len(global_batch), world, allow_uneven)
    start = sum(sizes[:rank])
    return global_batch[start:start + sizes[rank]]

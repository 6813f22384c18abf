"""Keep freed memory in the process for reuse, instead of handing it back to the OS.

Why: a training step allocates the same large arrays every iteration
(activations, gradients, matmul outputs of 0.1-25 MB). glibc's ``malloc``
serves a request above its mmap threshold (128 KB by default) with a fresh
``mmap`` and returns it with ``munmap`` when freed, so every step the kernel
maps new pages and the first write to each 4 KB page takes a page fault that
zeroes it. On the 2-core VM this project targets a fault costs ~2 us: filling a
fresh (768, 512) float32 array took 0.74 ms against 0.045 ms for reused
memory, and a LayerNorm forward on (768, 128) 0.24 ms against 0.05 ms, i.e.
the faults cost more than the arithmetic. (glibc's own "dynamic threshold"
does not help: it rises to the size of the last freed block, and a request of
that same size still goes to ``mmap``.)

:func:`keep_freed_memory` raises the mmap threshold and the heap trim
threshold to 1 GB with ``mallopt``, so freed blocks stay in malloc's heap and
the next step reuses pages that are already mapped (as PyTorch's caching
allocator does for its tensors). Memory freed after the peak is kept by the process
instead of being returned, and the peak itself can rise: a freed block in the middle of the
heap is reused only by a request that fits it, so at GPT-2 124M's scale the heap grew
150-300 MB above the live arrays during a backward pass (bench/README.md). It is called once,
when the fast kernels are first used (``minigrad.kernels.runtime.settings.ensure_ready``;
importing minigrad does not call it), on Linux with glibc only; set the environment
variable ``MINIGRAD_KEEP_FREED_MEMORY=0`` to leave malloc alone.
"""

from __future__ import annotations

import ctypes
import os
import sys

M_TRIM_THRESHOLD = -1  # glibc's mallopt parameter numbers (<malloc.h>)
M_MMAP_THRESHOLD = -3
THRESHOLD_BYTES = 1 << 30


def keep_freed_memory() -> bool:
    """Set glibc's mmap and trim thresholds to 1 GB; True if malloc now keeps freed
    memory, False if not applicable (not glibc, or turned off by the environment)."""
    if os.environ.get("MINIGRAD_KEEP_FREED_MEMORY", "1") == "0" or not sys.platform.startswith(
        "linux"
    ):
        return False
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):  # musl, or no libc.so.6: nothing to tune
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    # mallopt returns 1 on success; older glibc refuses an mmap threshold above 32 MB
    if not mallopt(M_MMAP_THRESHOLD, THRESHOLD_BYTES):
        mallopt(M_MMAP_THRESHOLD, 32 << 20)
    return bool(mallopt(M_TRIM_THRESHOLD, THRESHOLD_BYTES))

"""Where each window reads: one table per geometry, shared by the window kernels.

A window at position o (over d spatial dims) reads, at kernel offset k, the element
o s + k r - low of a channel's plane (s the stride, r the dilation, low the padding before
each dim), whatever the sample or the channel. So the kernels (im2col in ``im2col.py``, max
pooling in ``window_max.py``) look the position up in a table ``at`` (prod(O), prod(K)) of
flat offsets into the plane of prod(S) values, -1 where the offset falls in the padding,
built once per geometry in NumPy and cached (or its transpose (prod(K), prod(O)), for
kernels whose inner loop runs over the windows). A kernel is then one gather (or scatter)
per element whatever the number of spatial dims, stride, dilation or padding: no size-1
dims added, no multiplications by the stride in its inner loop, the padding never built.
The number of windows O comes from the caller (the backend's ``window_counts``, the one
home of that rule) or from the shape of the windows' gradient.
"""

from __future__ import annotations

import functools
import math

import numpy as np


def table(space: tuple, out: tuple, kernel: tuple, stride: tuple, dilation: tuple,
          low: tuple | None = None, by_kernel: bool = False) -> np.ndarray:
    """The read-only table ``at`` of windows ``out`` (per spatial dim) over a plane of
    ``space``, padded by ``low`` before each dim (None: no padding); with ``by_kernel`` its
    C-contiguous transpose. Offsets are int32 (half the memory traffic of int64), int64 for
    planes of 2**31 values or more."""
    # the cache's key: tuples of integers (NumPy's hash and compare equal to Python's), as
    # given: this runs on every call of a window kernel, a few microseconds matter
    key = (tuple(space), tuple(out), tuple(kernel), tuple(stride), tuple(dilation),
           tuple(low) if low is not None else (0,) * len(kernel))
    return _by_kernel(*key) if by_kernel else _offsets(*key)


@functools.lru_cache(maxsize=32)
def _offsets(space: tuple, out: tuple, kernel: tuple, stride: tuple, dilation: tuple,
             low: tuple) -> np.ndarray:
    """at[o, k]: windows and kernel offsets in row-major order."""
    flat = np.zeros((1, 1), np.int64)
    inside = np.ones((1, 1), bool)
    for n, o, k, s, r, lo in zip(space, out, kernel, stride, dilation, low):
        at = np.arange(o)[:, None] * s + np.arange(k)[None, :] * r - lo  # (o, k)
        # row-major: the dims so far vary slower than this one, in windows and in offsets
        flat = (flat[:, None, :, None] * n + at[None, :, None, :]).reshape(
            flat.shape[0] * o, flat.shape[1] * k)
        inside = (inside[:, None, :, None] & ((at >= 0) & (at < n))[None, :, None, :]).reshape(
            flat.shape)
    index = np.int32 if math.prod(space) < 2**31 else np.int64
    at = np.where(inside, flat, -1).astype(index)
    at.flags.writeable = False
    return at


@functools.lru_cache(maxsize=32)
def _by_kernel(*key: tuple) -> np.ndarray:
    """The table transposed, (prod(K), prod(O)), C-contiguous."""
    at = np.ascontiguousarray(_offsets(*key).T)
    at.flags.writeable = False
    return at

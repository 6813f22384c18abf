"""Where each window reads: one table per geometry, shared by the window kernels.

A window at position o (over d spatial dims) reads, at kernel offset k, the element
o s + k r - pad of a channel's plane (s the stride, r the dilation), whatever the sample or
the channel. So the kernels (im2col as rows in ``im2col.py``, max pooling in
``window_max.py``) look the position up in a table ``at`` (prod(O), prod(K)) of flat
offsets into the plane of prod(S) values, -1 where the offset falls in the padding, built
once per geometry in NumPy and cached. (``offsets_by_kernel`` is the same table transposed, for kernels whose inner loop runs
over the windows.) A kernel is then one gather (or scatter) per element
whatever the number of spatial dims, stride, dilation or padding: no size-1 dims added, no
multiplications by the stride in its inner loop, the padding never built.
"""

from __future__ import annotations

import functools
import math

import numpy as np


def window_counts_padded(space: tuple, kernel: tuple, stride: tuple, dilation: tuple,
                         pads: tuple) -> tuple:
    """O_i = (S_i + low_i + high_i - r_i (k_i - 1) - 1) // s_i + 1 per spatial dim."""
    return tuple((n + lo + hi - r * (k - 1) - 1) // s + 1 for n, k, s, r, (lo, hi)
                 in zip(space, kernel, stride, dilation, pads))


@functools.lru_cache(maxsize=32)
def offsets(space: tuple, kernel: tuple, stride: tuple, dilation: tuple,
            pads: tuple) -> np.ndarray:
    """at (prod(O), prod(K)), read-only: the flat offset in a (space) plane that window o's
    kernel offset k reads, -1 in the padding; windows and offsets in row-major order; int32
    (half the memory traffic of int64), int64 for planes of 2**31 values or more."""
    flat = np.zeros((1, 1), np.int64)
    inside = np.ones((1, 1), bool)
    for n, k, s, r, pad, out in zip(space, kernel, stride, dilation, pads,
                                    window_counts_padded(space, kernel, stride, dilation, pads)):
        at = np.arange(out)[:, None] * s + np.arange(k)[None, :] * r - pad[0]  # (out, k)
        # row-major: the dims so far vary slower than this one, in windows and in offsets
        flat = (flat[:, None, :, None] * n + at[None, :, None, :]).reshape(
            flat.shape[0] * out, flat.shape[1] * k)
        inside = (inside[:, None, :, None] & ((at >= 0) & (at < n))[None, :, None, :]).reshape(
            flat.shape)
    index = np.int32 if math.prod(space) < 2**31 else np.int64
    table = np.where(inside, flat, -1).astype(index)
    table.flags.writeable = False
    return table


@functools.lru_cache(maxsize=32)
def offsets_by_kernel(space: tuple, kernel: tuple, stride: tuple, dilation: tuple,
                      pads: tuple) -> np.ndarray:
    """The table transposed, (prod(K), prod(O)), C-contiguous: for kernels that run over the
    windows in the inner loop (im2col's columns layout)."""
    table = np.ascontiguousarray(offsets(space, kernel, stride, dilation, pads).T)
    table.flags.writeable = False
    return table

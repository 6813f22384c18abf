"""Adaptive average and max pooling over 1-3 spatial dims: the output size is given, the
windows follow from it.

Along a dim of n inputs and o outputs, window i spans [floor(i n / o), ceil((i + 1) n / o)):
windows of unequal lengths (they overlap when o does not divide n), so no single stride
describes them. Each dim's windows are gathered as an (o, k_max) index table (shorter windows
padded with a masked repeat of their last element), the tables of all dims together index
the input (a gather, whose gradient adds back where it read), and the masked entries are
left out of the mean (0) or the max (-inf). When every output size divides its input size,
the windows are ordinary pooling's (kernel = stride = n / o) and the strided window view
serves instead of the gather. The max is the first maximum in row-major order
within the window, as max_pool's.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.tensor import Tensor

from .module import Module
from .pooling import avg_pool, flat_indices, lowest, max_over_windows, max_pool
from .windowing import batched, unbatched


def adaptive_windows(n: int, o: int) -> tuple:
    """(start (o,), index (o, k_max), valid (o, k_max)) of the adaptive windows of one dim."""
    i = np.arange(o)
    start, stop = (i * n) // o, -((-(i + 1) * n) // o)
    k = int((stop - start).max()) if o else 0
    index = start[:, None] + np.arange(k)
    return start, np.minimum(index, n - 1), index < stop[:, None]


def _output_size(x: Tensor, output_size: Any, d: int, op: str) -> tuple:
    """The output's spatial size, checked as PyTorch checks it."""
    if isinstance(output_size, (tuple, list)):
        if len(output_size) != d:
            raise ValueError(f"{op}: output_size must be an int or a tuple of {d} ints (None "
                             f"keeps the input's size), got {output_size!r}")
        out = tuple(n if o is None else int(o) for o, n in zip(output_size, x.shape[2:]))
    else:
        out = (int(output_size),) * d
    if any(o < 0 for o in out):
        raise RuntimeError(f"{op}: elements of output_size must be greater than or equal to 0 "
                           f"but received {out}")
    if any(n == 0 for n in x.shape[2:]):
        raise RuntimeError(f"{op}: Expected input to have non-zero size for non-batch "
                           f"dimensions, but input has sizes {list(x.shape)}")
    return out


def _uniform_kernel(x: Tensor, out: tuple) -> tuple | None:
    """n / o per dim when every o divides its n: then the windows are those of ordinary
    pooling with kernel = stride = n / o (the strided view, no gather); else None."""
    if all(o > 0 and n % o == 0 for n, o in zip(x.shape[2:], out)):
        return tuple(n // o for n, o in zip(x.shape[2:], out))
    return None


def _adaptive_windows(x: Tensor, out: tuple, d: int) -> tuple:
    """(windows (N, C, *out, *k_max), their validity mask (*out, *k_max), starts per dim)."""
    tables = [adaptive_windows(n, o) for n, o in zip(x.shape[2:], out)]
    # dim i's (o_i, k_i) table sits on axes (2i, 2i + 1) of the gathered block
    index, valid = [], np.ones((), bool)
    for i, (_, idx, ok) in enumerate(tables):
        shape = [1] * (2 * d)
        shape[2 * i: 2 * i + 2] = idx.shape
        index.append(idx.reshape(shape))
        valid = valid & ok.reshape(shape)
    block = x[(slice(None), slice(None), *index)]  # (N, C, o_1, k_1, ..., o_d, k_d)
    order = [0, 1, *(2 + 2 * i for i in range(d)), *(3 + 2 * i for i in range(d))]
    valid = np.broadcast_to(valid, block.shape[2:]).transpose([o - 2 for o in order[2:]])
    return block.permute(*order), valid, [s for s, _, _ in tables]


def _adaptive_avg_pool(input: Any, output_size: Any, d: int) -> Tensor:
    op = f"adaptive_avg_pool{d}d"
    x, was_unbatched = batched(input, d, op, pool=True)
    out = _output_size(x, output_size, d, op)
    kernel = _uniform_kernel(x, out)
    if kernel is not None:
        return avg_pool(input, kernel, kernel, 0, False, True, None, d)
    if x.dtype.kind != "f":  # no products of integers: the windows gathered and summed
        cols, valid, _ = _adaptive_windows(x, out, d)
        axes = tuple(range(-d, 0))
        count = valid.sum(axis=axes).astype(x.dtype)
        return unbatched(cols.masked_fill(~valid, 0).sum(axis=axes) / count, was_unbatched)
    # a mean over a box of windows is the mean along each dim in turn: one product per dim
    # with that dim's averaging matrix (no gather, no scatter-add in the backward)
    for i, (n, o) in enumerate(zip(x.shape[2:], out)):
        axis = 2 + i
        x = (x.transpose(axis, -1) @ averaging_matrix(n, o, x.dtype).T).transpose(axis, -1)
    return unbatched(x, was_unbatched)


def averaging_matrix(n: int, o: int, dtype: np.dtype) -> np.ndarray:
    """(o, n): row i averages the adaptive window i of n inputs (1 / its length on it)."""
    _, index, valid = adaptive_windows(n, o)
    rows = np.zeros((o, n), dtype)
    for i in range(o):
        rows[i, index[i, valid[i]]] = 1 / valid[i].sum()
    return rows


def _adaptive_max_pool(input: Any, output_size: Any, return_indices: bool, d: int) -> Any:
    op = f"adaptive_max_pool{d}d"
    x, was_unbatched = batched(input, d, op, pool=True)
    out = _output_size(x, output_size, d, op)
    kernel = _uniform_kernel(x, out)
    if kernel is not None:
        return max_pool(input, kernel, kernel, 0, 1, False, return_indices, d)
    cols, valid, starts = _adaptive_windows(x, out, d)
    y, arg = max_over_windows(cols.masked_fill(~valid, lowest(x.dtype)), d)
    y = unbatched(y, was_unbatched)
    if not return_indices:
        return y
    offsets = np.unravel_index(arg, cols.shape[-d:])
    positions = [s.reshape((-1,) + (1,) * (d - 1 - i)) + k
                 for i, (s, k) in enumerate(zip(starts, offsets))]
    indices = flat_indices(positions, x.shape[2:])
    return y, Tensor(indices[0] if was_unbatched else indices)


def adaptive_avg_pool1d(input: Any, output_size: Any) -> Tensor:
    """Mean over the adaptive windows of x (N, C, L) or (C, L) -> (N, C, output_size)."""
    return _adaptive_avg_pool(input, output_size, 1)


def adaptive_avg_pool2d(input: Any, output_size: Any) -> Tensor:
    """Mean over the adaptive windows of x (N, C, H, W) or unbatched -> (N, C, *output_size)
    (an entry None keeps that dim's size)."""
    return _adaptive_avg_pool(input, output_size, 2)


def adaptive_avg_pool3d(input: Any, output_size: Any) -> Tensor:
    """Mean over the adaptive windows of x (N, C, D, H, W) or unbatched."""
    return _adaptive_avg_pool(input, output_size, 3)


def adaptive_max_pool1d(input: Any, output_size: Any, return_indices: bool = False) -> Any:
    """Max over the adaptive windows of x (N, C, L) or (C, L); with ``return_indices`` also
    each maximum's position in L."""
    return _adaptive_max_pool(input, output_size, return_indices, 1)


def adaptive_max_pool2d(input: Any, output_size: Any, return_indices: bool = False) -> Any:
    """Max over the adaptive windows of x (N, C, H, W) or unbatched; indices are flat
    positions in H * W."""
    return _adaptive_max_pool(input, output_size, return_indices, 2)


def adaptive_max_pool3d(input: Any, output_size: Any, return_indices: bool = False) -> Any:
    """Max over the adaptive windows of x (N, C, D, H, W) or unbatched; indices are flat
    positions in D * H * W."""
    return _adaptive_max_pool(input, output_size, return_indices, 3)


class _AdaptivePoolNd(Module):
    """An adaptive pooling layer: ``output_size`` an int or a d-tuple (None keeps a dim)."""

    d = 0

    def __init__(self, output_size: Any) -> None:
        super().__init__()
        self.output_size = output_size

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"


class _AdaptiveAvgPoolNd(_AdaptivePoolNd):
    def forward(self, input: Tensor) -> Tensor:
        return _adaptive_avg_pool(input, self.output_size, self.d)


class _AdaptiveMaxPoolNd(_AdaptivePoolNd):
    def __init__(self, output_size: Any, return_indices: bool = False) -> None:
        super().__init__(output_size)
        self.return_indices = return_indices

    def forward(self, input: Tensor) -> Any:
        return _adaptive_max_pool(input, self.output_size, self.return_indices, self.d)


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    """Mean over adaptive windows of (N, C, L) or (C, L)."""

    d = 1


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    """Mean over adaptive windows of (N, C, H, W) or (C, H, W)."""

    d = 2


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    """Mean over adaptive windows of (N, C, D, H, W) or (C, D, H, W)."""

    d = 3


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """Max over adaptive windows of (N, C, L) or (C, L)."""

    d = 1


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """Max over adaptive windows of (N, C, H, W) or (C, H, W)."""

    d = 2


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """Max over adaptive windows of (N, C, D, H, W) or (C, D, H, W)."""

    d = 3

"""Fractional max pooling over 2 or 3 spatial dims (Graham, "Fractional Max-Pooling"), as
PyTorch's.

Each (sample, channel) plane gets its own pseudo-random windows: along a dim of n inputs, o
outputs and window size k, with u in [0, 1) that plane's sample for the dim and
alpha = (n - k) / (o - 1) (computed in the input's dtype, as PyTorch),

    start_i = int((i + u) alpha) - int(u alpha)  for i < o - 1,   start_{o-1} = n - k,

and output i is the max over [start_i, start_i + k). The samples are ``_random_samples``
(N, C, d) (drawn uniformly from minigrad's global generator when not given); a 2-d pooling reads sample 0 for the width and 1
for the height, a 3-d one 0, 1, 2 for depth, height, width, as PyTorch's kernels. The windows
are gathered by index (they differ per plane), the max taken over each (the first maximum,
a later NaN replacing an earlier one, as PyTorch's loop), and its gradient flows back
through the gather to that element alone. ``return_indices`` also gives each maximum's flat
position in its plane (for ``max_unpool``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad import random
from minigrad.ops.masking import where
from minigrad.tensor import Tensor

from .module import Module
from .windowing import ntuple

# which entry of a plane's samples drives each spatial dim (first spatial dim first)
_SAMPLE_OF_DIM = {2: (1, 0), 3: (0, 1, 2)}


def window_starts(u: np.ndarray, n: int, o: int, k: int) -> np.ndarray:
    """int64 (..., o) window starts along one dim for samples ``u`` (...) (see the module
    docstring); the arithmetic runs in u's dtype, as PyTorch's in the input's."""
    starts = np.empty((*u.shape, o), dtype=np.int64)
    if o > 1:
        alpha = u.dtype.type(n - k) / u.dtype.type(o - 1)
        i = np.arange(o - 1, dtype=u.dtype)
        starts[..., :-1] = ((i + u[..., None]) * alpha).astype(np.int64) \
            - (u[..., None] * alpha).astype(np.int64)
    if o > 0:
        starts[..., -1] = n - k
    return starts


def _argmax_last_nan(flat: np.ndarray) -> np.ndarray:
    """Per row of the last axis: the first maximum, or the last NaN when there is one."""
    arg = np.argmax(np.where(np.isnan(flat), -np.inf, flat), axis=-1) if flat.shape[-1] \
        else np.zeros(flat.shape[:-1], np.int64)
    nan = np.isnan(flat)
    last_nan = flat.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1)
    return np.where(nan.any(-1), last_nan, arg)


def _output_size(x: Tensor, d: int, output_size: Any, output_ratio: Any, op: str) -> tuple:
    if output_size is None and output_ratio is None:
        raise ValueError(f"{op} requires specifying either an output_size or an output_ratio")
    if output_size is not None:
        return ntuple(output_size, d, "output_size", op)
    if isinstance(output_ratio, (tuple, list)) and len(output_ratio) not in (1, d):
        raise ValueError(f"{op} requires output_ratio to either be a single Int or tuple of "
                         "Ints.")
    ratio = tuple(output_ratio) * (d if len(tuple(output_ratio)) == 1 else 1) \
        if isinstance(output_ratio, (tuple, list)) else (output_ratio,) * d
    return tuple(int(n * r) for n, r in zip(x.shape[-d:], ratio))


def _check_samples(samples: np.ndarray, x: Tensor, d: int) -> None:
    """PyTorch's checks of ``_random_samples`` against the (batched) input."""
    if samples.ndim != 3:
        raise RuntimeError(f"Expect _random_samples to be a 3-D tensor (N, C, {d}), got shape "
                           f"{list(samples.shape)}")
    if samples.shape[0] < x.shape[0]:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if samples.shape[1] != x.shape[1]:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    if samples.shape[2] != d:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {d}; got "
                           f"{samples.shape[2]}.")
    if samples.dtype != x.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")


def fractional_max_pool(input: Any, kernel_size: Any, output_size: Any, output_ratio: Any,
                        return_indices: bool, _random_samples: Any, d: int) -> Any:
    """Fractional max pooling over the last d dims (see the module docstring)."""
    op = f"fractional_max_pool{d}d"
    x = input if isinstance(input, Tensor) else Tensor(input)
    if x.ndim not in (d + 1, d + 2):
        raise RuntimeError(f"{op}(): Expected {d + 1}D or {d + 2}D tensor, but got: "
                           f"{list(x.shape)}")
    if x.dtype.kind != "f":
        raise NotImplementedError(f'"{op}" not implemented for {x.dtype}: needs a '
                                  "floating-point input")
    out = _output_size(x, d, output_size, output_ratio, op)
    kernel = ntuple(kernel_size, d, "kernel_size", op)
    was_unbatched = x.ndim == d + 1
    if was_unbatched:
        x = x.unsqueeze(0)
    if any(n == 0 for n in x.shape[1:]):
        raise RuntimeError(f"{op}(): Expected input to have non-zero size for non-batch "
                           f"dimensions, but got {list(x.shape)}")
    if any(k <= 0 for k in kernel) or any(o < 0 for o in out):
        raise RuntimeError(f"{op}(): kernel_size must be greater than zero and output_size "
                           f"at least zero, got kernel_size {kernel}, output_size {out}")
    names = ("time", "height", "width")[3 - d:]
    # PyTorch's 3-d kernel also refuses windows that end exactly at the last element
    reach = 0 if d == 2 else 1
    for name, n, o, k in zip(names, x.shape[2:], out, kernel):
        if o + k - 1 + reach > n:
            raise RuntimeError(f"{op}{'' if d == 2 else '_out'}(): pool {name} {k} too large "
                               f"relative to input {name} {n}")
    if _random_samples is None:
        samples = random.generator().random((x.shape[0], x.shape[1], d)).astype(x.dtype)
    else:
        samples = np.asarray(_random_samples.data if isinstance(_random_samples, Tensor)
                             else _random_samples)
        _check_samples(samples, x, d)
        samples = samples[:x.shape[0]]
    # per dim i: the gather index (N, C, o_i, k_i) placed on axes (2 + 2i, 3 + 2i) of a block
    index = []
    for i, (n, o, k, j) in enumerate(zip(x.shape[2:], out, kernel, _SAMPLE_OF_DIM[d])):
        rows = window_starts(samples[:, :, j], n, o, k)[..., None] + np.arange(k)
        shape = [x.shape[0], x.shape[1]] + [1] * (2 * d)
        shape[2 + 2 * i: 4 + 2 * i] = [o, k]
        index.append(rows.reshape(shape))
    lead = (np.arange(x.shape[0]).reshape(-1, 1, *(1,) * (2 * d)),
            np.arange(x.shape[1]).reshape(1, -1, *(1,) * (2 * d)))
    block = x[(*lead, *index)]  # (N, C, o_1, k_1, ..., o_d, k_d)
    order = [0, 1, *(2 + 2 * i for i in range(d)), *(3 + 2 * i for i in range(d))]
    cols = block.permute(*order)  # (N, C, *out, *kernel)
    flat = cols.reshape(*cols.shape[:2 + d], math.prod(kernel))
    arg = _argmax_last_nan(flat.data)
    chosen = np.arange(flat.shape[-1]) == arg[..., None]
    y = where(chosen, flat, 0.0).sum(-1)
    y = y.squeeze(0) if was_unbatched else y
    if not return_indices:
        return y
    offsets = np.unravel_index(arg, kernel)
    positions = []
    for i, (idx, k_off) in enumerate(zip(index, offsets)):
        starts = np.take(idx, 0, axis=3 + 2 * i)  # (N, C, 1.., o_i, 1..) without the k axis
        starts = starts.reshape(x.shape[0], x.shape[1], *(
            out[j] if j == i else 1 for j in range(d)))
        positions.append(starts + k_off)
    flat_index = np.zeros(arg.shape, dtype=np.int64)
    for p, n in zip(positions, x.shape[2:]):
        flat_index = flat_index * n + p
    return y, Tensor(flat_index[0] if was_unbatched else flat_index)


def fractional_max_pool2d(input: Any, kernel_size: Any, output_size: Any = None,
                          output_ratio: Any = None, return_indices: bool = False,
                          _random_samples: Any = None) -> Any:
    """x (N, C, H, W) or (C, H, W) -> (N, C, oH, oW): the max over each plane's random
    kH x kW windows (see the module docstring); ``_random_samples`` (N, C, 2)."""
    return fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                               _random_samples, 2)


def fractional_max_pool3d(input: Any, kernel_size: Any, output_size: Any = None,
                          output_ratio: Any = None, return_indices: bool = False,
                          _random_samples: Any = None) -> Any:
    """x (N, C, T, H, W) or (C, T, H, W) -> (N, C, oT, oH, oW) (see
    :func:`fractional_max_pool2d`); ``_random_samples`` (N, C, 3)."""
    return fractional_max_pool(input, kernel_size, output_size, output_ratio, return_indices,
                               _random_samples, 3)


class _FractionalMaxPoolNd(Module):
    """The options of a fractional max pooling; ``_random_samples`` is a buffer (in the
    state_dict when given, as PyTorch's)."""

    d = 0

    def __init__(self, kernel_size: Any, output_size: Any = None, output_ratio: Any = None,
                 return_indices: bool = False, _random_samples: Any = None) -> None:
        super().__init__()
        name, d = type(self).__name__, self.d
        self.kernel_size = ntuple(kernel_size, d, "kernel_size", name)
        self.return_indices = return_indices
        self.register_buffer("_random_samples", _random_samples)
        self.output_size = None if output_size is None else \
            ntuple(output_size, d, "output_size", name)
        self.output_ratio = None if output_ratio is None else (
            tuple(output_ratio) if isinstance(output_ratio, (tuple, list))
            else (output_ratio,) * d)
        if output_size is None and output_ratio is None:
            raise ValueError(f"{name} requires specifying either an output size, or a "
                             "pooling ratio")
        if output_size is not None and output_ratio is not None:
            raise ValueError("only one of output_size and output_ratio may be specified")
        if self.output_ratio is not None and not all(0 < r < 1 for r in self.output_ratio):
            raise ValueError(f"output_ratio must be between 0 and 1 (got {output_ratio})")

    def forward(self, input: Tensor) -> Any:
        return fractional_max_pool(input, self.kernel_size, self.output_size,
                                   self.output_ratio, self.return_indices,
                                   self._random_samples, self.d)


class FractionalMaxPool2d(_FractionalMaxPoolNd):
    """Fractional max pooling over x (N, C, H, W) or (C, H, W) (see
    :func:`fractional_max_pool2d`)."""

    d = 2


class FractionalMaxPool3d(_FractionalMaxPoolNd):
    """Fractional max pooling over x (N, C, T, H, W) or (C, T, H, W) (see
    :func:`fractional_max_pool3d`)."""

    d = 3

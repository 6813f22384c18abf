"""Max, average, power-average (LP) pooling and max unpooling over 1-3 spatial dims.

Pooling reduces each window of the input (``minigrad.ops.windows``, the view convolution
uses too) over its kernel axes: max_pool keeps the largest element (the first one in the
window, in row-major order, when several tie, and a NaN wins, as PyTorch's; its gradient
goes to that element alone), avg_pool sums and divides. The input is padded first (with
-inf for max, 0 for avg) and, with ``ceil_mode``, on the high side for the last, partial
window. out_i = floor_or_ceil((n_i + 2 p_i - r_i (k_i - 1) - 1) / s_i) + 1, dropping a last
window that would start in the high padding. Gradients come by composition: max_pool's
is the backend's scatter of each output's gradient to the element its window chose
(``minigrad.ops.window_select``: the maximum and its offset are found in one pass, then
gathered), avg_pool's the sum's and the windows' (col2im).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad import backends
from minigrad.ops.masking import where
from minigrad.ops.pooling import MaxUnpool
from minigrad.ops.window_select import window_select
from minigrad.ops.windows import windows
from minigrad.step_capture import cannot_replay, replayed
from minigrad.tensor import Tensor

from .module import Module
from .padding import pad
from .windowing import batched, ntuple, pad_pairs, too_small, unbatched


def pool_output_size(n: int, k: int, s: int, p: int, r: int, ceil_mode: bool) -> int:
    """PyTorch's pooling output length along one dim (see the module docstring)."""
    out = (n + 2 * p - r * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= n + p:
        out -= 1
    return out


def _geometry(op: str, x: Tensor, d: int, kernel_size: Any, stride: Any, padding: Any,
              dilation: Any, ceil_mode: bool) -> tuple:
    """(kernel, stride, padding, dilation, out) as d-tuples, checked as PyTorch checks them."""
    kernel = ntuple(kernel_size, d, "kernel_size", op)
    stride = kernel if stride is None or stride == [] or stride == () else \
        ntuple(stride, d, "stride", op)
    padding = ntuple(padding, d, "padding", op)
    dilation = ntuple(dilation, d, "dilation", op)
    if any(s == 0 for s in stride):
        raise RuntimeError("stride should not be zero")
    if any(v <= 0 for v in kernel + stride):
        raise RuntimeError(f"{op}: kernel_size and stride should be greater than zero, but got "
                           f"kernel_size: {kernel}, stride: {stride}")
    if any(r <= 0 for r in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got dilation: {dilation}")
    for k, p, r in zip(kernel, padding, dilation):
        if p < 0 or p > (r * (k - 1) + 1) // 2:
            raise RuntimeError(f"pad should be at most half of effective kernel size, but got "
                               f"pad={p}, kernel_size={k} and dilation={r}")
    out = tuple(pool_output_size(n, k, s, p, r, ceil_mode) for n, k, s, p, r
                in zip(x.shape[2:], kernel, stride, padding, dilation))
    too_small(op, x, out)
    return kernel, stride, padding, dilation, out


def _padded(x: Tensor, kernel: tuple, stride: tuple, padding: tuple, dilation: tuple,
            out: tuple, value: float) -> Tensor:
    """x padded with ``value``: ``padding`` low, and high as far as the last window reaches
    (a ceil_mode window past the end, or less than ``padding`` when the windows stop short
    of it), so that its windows are exactly the ``out`` pooling windows."""
    pairs = [(p, (o - 1) * s + r * (k - 1) + 1 - n - p) for n, k, s, p, r, o
             in zip(x.shape[2:], kernel, stride, padding, dilation, out)]
    if any(lo or hi for lo, hi in pairs):
        x = pad(x, pad_pairs(pairs), value=value)
    return x


def _padded_windows(x: Tensor, kernel: tuple, stride: tuple, padding: tuple, dilation: tuple,
                    out: tuple, value: float) -> Tensor:
    """The windows (N, C, *out, *kernel) of x padded as :func:`_padded` pads it."""
    return windows(_padded(x, kernel, stride, padding, dilation, out, value), kernel, stride,
                   dilation)


def lowest(dtype: np.dtype) -> Any:
    """The value no element is below: max pooling's padding (-inf, an integer type's
    minimum, False)."""
    if dtype.kind == "f":
        return -math.inf
    return False if dtype.kind == "b" else np.iinfo(dtype).min


def max_over_windows(cols: Tensor, d: int) -> tuple:
    """(max of each window, its kernel offset as a flat int64 index) for windows
    (N, C, *out, *kernel): the first maximum in row-major order, a NaN counting as the
    largest (``np.argmax``'s rule and PyTorch's); its gradient goes to that element only."""
    flat = cols.reshape(*cols.shape[:-d], math.prod(cols.shape[-d:]))
    cannot_replay("max pooling over gathered windows finds its maxima with NumPy")
    arg = np.argmax(flat.data, axis=-1) if flat.shape[-1] else np.zeros(flat.shape[:-1], int)
    if flat.dtype.kind != "f":  # integers and bools: no gradient, the dtype kept
        return Tensor(np.take_along_axis(flat.data, arg[..., None], -1)[..., 0]), arg
    # the selected element as a masked sum (its gradient a mask, no scatter): exact, since
    # every other term is 0, and an -inf or NaN elsewhere in the window is never multiplied
    chosen = np.arange(flat.shape[-1]) == arg[..., None]
    return where(chosen, flat, 0.0).sum(-1), arg


@replayed
def _backend_window_max(x: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple) -> tuple:
    """The backend's (values, offsets) of every window's maximum (replayed in a captured step,
    on that replay's x)."""
    return backends.active.window_max(x, kernel, stride, dilation)


def window_max(x: Tensor, kernel: tuple, stride: tuple, dilation: tuple) -> tuple:
    """(max of each window of x, its kernel offset as a flat int64 index), the rule of
    :func:`max_over_windows`, found in one pass by the backend (no copy of the windows); the
    output is the gather of those elements, so its gradient goes to them alone."""
    values, arg = _backend_window_max(x.data, kernel, stride, dilation)
    if x.dtype.kind != "f":  # integers and bools: no gradient, the dtype kept
        return Tensor(values), arg
    return window_select(x, arg, kernel, stride, dilation, values=values), arg


def flat_indices(positions: list, space: tuple) -> np.ndarray:
    """int64 flat index into the spatial dims ``space`` of per-dim ``positions``."""
    index = np.zeros(np.broadcast_shapes(*(p.shape for p in positions)), dtype=np.int64)
    for p, n in zip(positions, space):
        index = index * n + p
    return index


def max_pool(input: Any, kernel_size: Any, stride: Any, padding: Any, dilation: Any,
             ceil_mode: bool, return_indices: bool, d: int) -> Any:
    """max pooling over the last d dims (see the module docstring)."""
    op = f"max_pool{d}d"
    x, was_unbatched = batched(input, d, op, pool=True)
    kernel, stride, padding, dilation, out = _geometry(op, x, d, kernel_size, stride, padding,
                                                       dilation, ceil_mode)
    y, arg = window_max(_padded(x, kernel, stride, padding, dilation, out, lowest(x.dtype)),
                        kernel, stride, dilation)
    y = unbatched(y, was_unbatched)
    if not return_indices:
        return y
    offsets = np.unravel_index(arg, kernel)  # the kernel offset of each window's maximum
    positions = [np.arange(o).reshape((-1,) + (1,) * (d - 1 - i)) * s + k * r - p
                 for i, (o, s, k, r, p) in enumerate(zip(out, stride, offsets, dilation,
                                                         padding))]
    indices = flat_indices(positions, x.shape[2:])
    return y, Tensor(indices[0] if was_unbatched else indices)


def max_pool1d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """max over windows of x (N, C, L) or (C, L) -> (N, C, L_out); with ``return_indices``
    also each maximum's position in L (int64), for :func:`max_unpool1d`."""
    return max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 1)


def max_pool2d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """max over windows of x (N, C, H, W) or unbatched -> (N, C, H_out, W_out); indices are
    flat positions in H * W."""
    return max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 2)


def max_pool3d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
               dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False) -> Any:
    """max over windows of x (N, C, D, H, W) or unbatched; indices are flat positions in
    D * H * W."""
    return max_pool(input, kernel_size, stride, padding, dilation, ceil_mode, return_indices, 3)


def avg_pool(input: Any, kernel_size: Any, stride: Any, padding: Any, ceil_mode: bool,
             count_include_pad: bool, divisor_override: int | None, d: int) -> Tensor:
    """average pooling over the last d dims (see the module docstring)."""
    op = f"avg_pool{d}d"
    x, was_unbatched = batched(input, d, op, pool=True)
    kernel, stride, padding, dilation, out = _geometry(op, x, d, kernel_size, stride, padding,
                                                       1, ceil_mode)
    sums = _padded_windows(x, kernel, stride, padding, dilation, out, 0.0).sum(
        axis=tuple(range(-d, 0)))
    if divisor_override is not None:
        if divisor_override == 0:
            raise RuntimeError("divisor must be not zero")
        return unbatched(_divide(sums, divisor_override), was_unbatched)
    # the divisor of each window: how many of its elements lie in the input (and, with
    # count_include_pad, in the padding; never in ceil_mode's extra), counted by the same
    # windows over a mask of the padded shape
    reach = [(o - 1) * s + k for o, s, k in zip(out, stride, kernel)]
    mask = np.zeros([max(r, n + 2 * p) for r, n, p in zip(reach, x.shape[2:], padding)])
    inside = tuple(slice(0, n + 2 * p) if count_include_pad else slice(p, p + n)
                   for n, p in zip(x.shape[2:], padding))
    mask[inside] = 1
    count = backends.active.windows(mask, kernel, stride, dilation)
    count = count.sum(axis=tuple(range(-d, 0)))[tuple(slice(0, o) for o in out)]
    return unbatched(_divide(sums, count), was_unbatched)


def _divide(sums: Tensor, divisor: Any) -> Tensor:
    """The window averages: sums / divisor in a float dtype; for integers, as PyTorch, in
    the input's dtype, rounded toward zero (integers never carry a gradient)."""
    if sums.dtype.kind == "f":
        return sums / np.asarray(divisor, dtype=sums.dtype)
    s, c = sums.data, np.asarray(divisor, dtype=sums.dtype)
    return Tensor((np.sign(s) * np.sign(c) * (np.abs(s) // np.abs(c))).astype(sums.dtype))


def avg_pool1d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
               ceil_mode: bool = False, count_include_pad: bool = True) -> Tensor:
    """mean over windows of x (N, C, L) or (C, L) -> (N, C, L_out); ``count_include_pad``
    counts the zero padding in each window's divisor."""
    return avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad, None, 1)


def avg_pool2d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    """mean over windows of x (N, C, H, W) or unbatched; ``divisor_override`` divides every
    window's sum by that number instead."""
    return avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, 2)


def avg_pool3d(input: Any, kernel_size: Any, stride: Any = None, padding: Any = 0,
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: int | None = None) -> Tensor:
    """mean over windows of x (N, C, D, H, W) or unbatched (see :func:`avg_pool2d`)."""
    return avg_pool(input, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, 3)


def _lp_pool(input: Any, norm_type: float, kernel_size: Any, stride: Any, ceil_mode: bool,
             d: int) -> Tensor:
    """(sum over each window of x^p)^(1/p), as PyTorch computes it: avg_pool of x^p times
    the window size, then the root. PyTorch's sign(s) relu(|s|) before the root is s with
    derivative 0 where s = 0: a window of zeros gets gradient 0 there, not inf * 0 = NaN
    from the root's infinite slope; the mask below gives the same."""
    kernel = ntuple(kernel_size, d, "kernel_size", f"lp_pool{d}d")
    x = input if isinstance(input, Tensor) else Tensor(input)
    out = avg_pool(x.pow(norm_type), kernel, stride, 0, ceil_mode, True, None, d)
    cannot_replay("lp_pool masks its zero windows with NumPy")
    return (out.masked_fill(out.data == 0, 0.0) * math.prod(kernel)).pow(1.0 / norm_type)


def lp_pool1d(input: Any, norm_type: float, kernel_size: Any, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """Power-average pooling over L: (sum of x^p over each window)^(1/p)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 1)


def lp_pool2d(input: Any, norm_type: float, kernel_size: Any, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """Power-average pooling over H, W: (sum of x^p over each window)^(1/p)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 2)


def lp_pool3d(input: Any, norm_type: float, kernel_size: Any, stride: Any = None,
              ceil_mode: bool = False) -> Tensor:
    """Power-average pooling over D, H, W: (sum of x^p over each window)^(1/p)."""
    return _lp_pool(input, norm_type, kernel_size, stride, ceil_mode, 3)


def _unpool_size(x: Tensor, kernel: tuple, stride: tuple, padding: tuple,
                 output_size: Any) -> tuple:
    """PyTorch's max_unpool output size: (in - 1) s - 2 p + k, or ``output_size`` (spatial,
    or with N and C) if it lies strictly within one stride of that."""
    d = len(kernel)
    default = tuple((n - 1) * s + k - 2 * p for n, k, s, p in zip(x.shape[2:], kernel, stride,
                                                                  padding))
    if output_size is None:
        return default
    size = tuple(int(v) for v in output_size)
    if len(size) == d + 2:
        size = size[2:]
    if len(size) != d:
        raise ValueError(f"output_size should be a sequence containing {d} or {d + 2} elements, "
                         f"but it has a length of '{len(size)}'")
    for i, (v, dflt, s) in enumerate(zip(size, default, stride)):
        if not dflt - s < v < dflt + s:
            raise ValueError(f'invalid output_size "{list(size)}" (dim {i} must be between '
                             f"{dflt - s} and {dflt + s})")
    return size


def _max_unpool(input: Any, indices: Any, kernel_size: Any, stride: Any, padding: Any,
                output_size: Any, d: int) -> Tensor:
    op = f"max_unpool{d}d"
    x, was_unbatched = batched(input, d, op, pool=True)
    idx = np.asarray(indices.data if isinstance(indices, Tensor) else indices)
    idx = idx[None] if was_unbatched else idx
    if idx.shape != x.shape or idx.dtype.kind not in "iu":
        raise RuntimeError(f"{op}: expected indices of dtype int64 and the input's shape "
                           f"{list(x.shape)}, got {idx.dtype} {list(idx.shape)}")
    kernel = ntuple(kernel_size, d, "kernel_size", op)
    stride = kernel if stride is None else ntuple(stride, d, "stride", op)
    padding = ntuple(padding, d, "padding", op)
    size = _unpool_size(x, kernel, stride, padding, output_size)
    n, c = x.shape[:2]
    flat = idx.reshape(n, c, -1).astype(np.int64)
    bad = flat[(flat < 0) | (flat >= math.prod(size))]
    if bad.size:
        raise RuntimeError(f"Found an invalid max index: {int(bad[0])} (output volumes are of "
                           f"size {'x'.join(map(str, size))})")
    y = MaxUnpool.apply(x.reshape(n, c, -1), indices=flat, size=math.prod(size))
    return unbatched(y.reshape(n, c, *size), was_unbatched)


def max_unpool1d(input: Any, indices: Any, kernel_size: Any, stride: Any = None,
                 padding: Any = 0, output_size: Any = None) -> Tensor:
    """The inverse of :func:`max_pool1d` with its indices: zeros except each maximum, back
    at its position."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 1)


def max_unpool2d(input: Any, indices: Any, kernel_size: Any, stride: Any = None,
                 padding: Any = 0, output_size: Any = None) -> Tensor:
    """The inverse of :func:`max_pool2d` with its indices (see :func:`max_unpool1d`)."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 2)


def max_unpool3d(input: Any, indices: Any, kernel_size: Any, stride: Any = None,
                 padding: Any = 0, output_size: Any = None) -> Tensor:
    """The inverse of :func:`max_pool3d` with its indices (see :func:`max_unpool1d`)."""
    return _max_unpool(input, indices, kernel_size, stride, padding, output_size, 3)


class _PoolNd(Module):
    """What the pooling layers share: their options, kept as given (PyTorch's attributes)."""

    d = 0

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0) -> None:
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = kernel_size if stride is None else stride
        self.padding = padding


class _MaxPoolNd(_PoolNd):
    """max over windows (see :func:`max_pool2d`)."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 dilation: Any = 1, return_indices: bool = False,
                 ceil_mode: bool = False) -> None:
        super().__init__(kernel_size, stride, padding)
        self.dilation, self.return_indices, self.ceil_mode = dilation, return_indices, ceil_mode

    def forward(self, input: Tensor) -> Any:
        return max_pool(input, self.kernel_size, self.stride, self.padding, self.dilation,
                         self.ceil_mode, self.return_indices, self.d)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}, "
                f"dilation={self.dilation}, ceil_mode={self.ceil_mode}")


class MaxPool1d(_MaxPoolNd):
    """max over windows of (N, C, L) or (C, L)."""

    d = 1


class MaxPool2d(_MaxPoolNd):
    """max over windows of (N, C, H, W) or (C, H, W)."""

    d = 2


class MaxPool3d(_MaxPoolNd):
    """max over windows of (N, C, D, H, W) or (C, D, H, W)."""

    d = 3


class _AvgPoolNd(_PoolNd):
    """mean over windows (see :func:`avg_pool2d`)."""

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True,
                 divisor_override: int | None = None) -> None:
        super().__init__(kernel_size, stride, padding)
        self.ceil_mode, self.count_include_pad = ceil_mode, count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input: Tensor) -> Tensor:
        return avg_pool(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                         self.count_include_pad, self.divisor_override, self.d)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_AvgPoolNd):
    """mean over windows of (N, C, L) or (C, L); its options kept as 1-tuples (PyTorch's)."""

    d = 1

    def __init__(self, kernel_size: Any, stride: Any = None, padding: Any = 0,
                 ceil_mode: bool = False, count_include_pad: bool = True) -> None:
        one = lambda v, name: ntuple(v, 1, name, "AvgPool1d")
        super().__init__(one(kernel_size, "kernel_size"),
                         None if stride is None else one(stride, "stride"),
                         one(padding, "padding"), ceil_mode, count_include_pad)


class AvgPool2d(_AvgPoolNd):
    """mean over windows of (N, C, H, W) or (C, H, W)."""

    d = 2


class AvgPool3d(_AvgPoolNd):
    """mean over windows of (N, C, D, H, W) or (C, D, H, W)."""

    d = 3


class _LPPoolNd(Module):
    """(sum of x^p over each window)^(1/p) (see :func:`lp_pool2d`)."""

    d = 0

    def __init__(self, norm_type: float, kernel_size: Any, stride: Any = None,
                 ceil_mode: bool = False) -> None:
        super().__init__()
        self.norm_type, self.kernel_size = norm_type, kernel_size
        self.stride, self.ceil_mode = stride, ceil_mode

    def forward(self, input: Tensor) -> Tensor:
        return _lp_pool(input, self.norm_type, self.kernel_size, self.stride, self.ceil_mode,
                        self.d)

    def extra_repr(self) -> str:
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, ceil_mode={self.ceil_mode}")


class LPPool1d(_LPPoolNd):
    """Power-average pooling of (N, C, L) or (C, L)."""

    d = 1


class LPPool2d(_LPPoolNd):
    """Power-average pooling of (N, C, H, W) or (C, H, W)."""

    d = 2


class LPPool3d(_LPPoolNd):
    """Power-average pooling of (N, C, D, H, W) or (C, D, H, W)."""

    d = 3


class _MaxUnpoolNd(_PoolNd):
    """max_pool's inverse with its indices (see :func:`max_unpool2d`)."""

    def forward(self, input: Tensor, indices: Any, output_size: Any = None) -> Tensor:
        return _max_unpool(input, indices, self.kernel_size, self.stride, self.padding,
                           output_size, self.d)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class MaxUnpool1d(_MaxUnpoolNd):
    """Inverse of MaxPool1d: (N, C, L_in) and indices -> (N, C, L_out)."""

    d = 1


class MaxUnpool2d(_MaxUnpoolNd):
    """Inverse of MaxPool2d: (N, C, H_in, W_in) and indices -> (N, C, H_out, W_out)."""

    d = 2


class MaxUnpool3d(_MaxUnpoolNd):
    """Inverse of MaxPool3d over (N, C, D, H, W)."""

    d = 3

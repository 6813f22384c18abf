"""Convolution over 1, 2 or 3 spatial dims, and its transpose: functions and modules.

conv: out[n, o, p] = bias[o] + sum_{c in o's group, k} weight[o, c, k] x_pad[n, c, p s + k r],
s the stride, r the dilation. The input is padded first (``F.pad``), cut into its windows
(``minigrad.ops.windows``, the one primitive convolution and pooling share: a strided view,
im2col before the reshape), and the windows are multiplied with the weight, one matmul per
group. Every gradient comes by composition: matmul's, and the windows' (col2im).

conv_transpose is the adjoint of conv in its input: each input element spreads
``weight[c, o, k]`` times itself to out[n, o, p s + k r] (a matmul, then col2im, i.e.
``WindowSum``), then ``padding`` is cut from both ends; out = (in - 1) s - 2 padding
+ r (k - 1) + output_padding + 1.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from minigrad.backends.interface import window_counts
from minigrad.ops.convolution import ConvFunction
from minigrad.ops.windows import window_sum, windows
from minigrad.tensor import Tensor

from . import init
from .module import Module, Parameter
from .padding import pad
from .windowing import batched, ntuple, pad_pairs, unbatched

PADDING_MODES = ("zeros", "reflect", "replicate", "circular")


def conv_padding(padding: Any, kernel: tuple, stride: tuple, dilation: tuple, op: str,
                 layer: bool = False) -> list:
    """Per-dim (low, high) zero padding of a convolution: ints, a tuple, 'valid' (none) or
    'same' (total r (k - 1), the odd one extra on the high side, as PyTorch; stride 1 only).
    A bad string is PyTorch's RuntimeError in the functions, its ValueError in a ``layer``."""
    d = len(kernel)
    if isinstance(padding, str):
        error = ValueError if layer else RuntimeError
        if padding == "valid":
            return [(0, 0)] * d
        if padding != "same":
            raise error(f"Invalid padding string {padding!r}, should be one of "
                        "{'same', 'valid'}" if layer else f"Invalid padding string: {padding!r}")
        if any(s != 1 for s in stride):
            raise error("padding='same' is not supported for strided convolutions")
        total = [r * (k - 1) for k, r in zip(kernel, dilation)]
        return [(t // 2, t - t // 2) for t in total]
    pads = ntuple(padding, d, "padding", op)
    if any(p < 0 for p in pads):
        raise RuntimeError("negative padding is not supported")
    return [(p, p) for p in pads]


def _check_weight(x: Tensor, weight: Tensor, bias: Tensor | None, groups: int, d: int,
                  op: str, transposed: bool) -> None:
    """PyTorch's checks of a convolution's weight, bias and groups against the input."""
    if x.dtype.kind != "f" or weight.dtype.kind != "f":
        # the product runs on BLAS, which has no integer kernels
        raise TypeError(f"{op}: needs floating-point input and weight, got {x.dtype} and "
                        f"{weight.dtype}")
    if weight.ndim != d + 2:
        raise RuntimeError(f"{op}: expected a {d + 2}-D weight, got weight of size "
                           f"{list(weight.shape)}")
    if groups < 1:
        raise RuntimeError("non-positive groups is not supported")
    w = list(weight.shape)
    expected = w[0] if transposed else w[1] * groups
    if x.shape[1] != expected:
        raise RuntimeError(f"Given {'transposed=1' if transposed else f'groups={groups}'}, "
                           f"weight of size {w}, expected input{list(x.shape)} to have "
                           f"{expected} channels, but got {x.shape[1]} channels instead")
    if w[0] % groups:
        raise RuntimeError(f"Given groups={groups}, expected weight to be divisible by {groups} "
                           f"at dimension 0, but got weight of size {w} instead")
    out_channels = w[1] * groups if transposed else w[0]
    if bias is not None and tuple(bias.shape) != (out_channels,):
        raise RuntimeError(f"Given weight of size {w}, expected bias to be 1-dimensional with "
                           f"{out_channels} elements, but got bias of size {list(bias.shape)} "
                           "instead")


# A convolution is a matrix product of the weight (O, C * prod(kernel)) with the columns of
# windows. With many output positions per sample (a 56 x 56 map: 3,136) each sample's
# product is large enough for BLAS to run at speed and the columns stay one sample's size;
# with few (an 8 x 8 image, a 40-point signal) per-sample products are too small to be
# efficient, so the batch joins the columns and one product serves it all.
ONE_PRODUCT_PER_SAMPLE_FROM = 256


def _check_stride_dilation(stride: tuple, dilation: tuple) -> None:
    if any(s <= 0 for s in stride):
        raise RuntimeError("non-positive stride is not supported")
    if any(r <= 0 for r in dilation):
        raise RuntimeError("dilation should be greater than zero")


def _add_bias(y: Tensor, bias: Tensor | None, d: int) -> Tensor:
    return y if bias is None else y + bias.reshape(-1, *(1,) * d)


def _conv(input: Any, weight: Tensor, bias: Tensor | None, stride: Any, padding: Any,
          dilation: Any, groups: int, d: int) -> Tensor:
    """conv over the last d dims (see the module docstring)."""
    op = f"conv{d}d"
    x, was_unbatched = batched(input, d, op)
    _check_weight(x, weight, bias, groups, d, op, transposed=False)
    kernel = tuple(weight.shape[2:])
    stride, dilation = ntuple(stride, d, "stride", op), ntuple(dilation, d, "dilation", op)
    _check_stride_dilation(stride, dilation)
    pads = tuple(conv_padding(padding, kernel, stride, dilation, op))
    space = tuple(n + lo + hi for n, (lo, hi) in zip(x.shape[2:], pads))
    if any(r * (k - 1) + 1 > n for n, k, r in zip(space, kernel, dilation)):
        raise RuntimeError(
            f"Calculated padded input size per channel: ({' x '.join(map(str, space))}). Kernel "
            f"size: ({' x '.join(str(r * (k - 1) + 1) for k, r in zip(kernel, dilation))}). "
            "Kernel size can't be greater than actual input size")
    out = window_counts(space, kernel, stride, dilation)
    per_sample = math.prod(out) >= ONE_PRODUCT_PER_SAMPLE_FROM
    if x.dtype == weight.dtype and (bias is None or bias.dtype == x.dtype):
        # one op (minigrad.ops.convolution), the small ops below its composite
        form = functools.partial(_conv_ops, pads=pads, stride=stride, dilation=dilation,
                                 groups=groups, per_sample=per_sample)
        y = ConvFunction.apply(x, weight, *(() if bias is None else (bias,)), pads=pads,
                               stride=stride, dilation=dilation, groups=groups,
                               per_sample=per_sample, form=form)
    else:  # mixed dtypes: the small ops' rules (the product refuses them, as PyTorch)
        y = _conv_ops(x, weight, bias, pads, stride, dilation, groups, per_sample)
    return unbatched(y, was_unbatched)


def _conv_ops(x: Tensor, weight: Tensor, bias: Tensor | None, pads: tuple, stride: tuple,
              dilation: tuple, groups: int, per_sample: bool) -> Tensor:
    """conv of a batched x in small differentiable ops: zero pad, windows, one matmul per
    group (and per sample if ``per_sample``), the bias."""
    d = len(stride)
    kernel = tuple(weight.shape[2:])
    if any(lo or hi for lo, hi in pads):
        x = pad(x, pad_pairs(list(pads)))
    n, c = x.shape[:2]
    o, g = weight.shape[0], groups
    cols = windows(x, kernel, stride, dilation)  # (N, C, *out, *kernel), a view
    out = cols.shape[2:2 + d]
    positions = math.prod(out)
    cols = cols.reshape(n, g, c // g, *out, *kernel)
    w = weight.reshape(g, o // g, -1)
    if per_sample:
        # im2col: (N, G, C/G * prod(kernel), prod(out)), then one matmul per sample and group
        cols = cols.permute(0, 1, 2, *range(3 + d, 3 + 2 * d), *range(3, 3 + d))
        y = w @ cols.reshape(n, g, (c // g) * math.prod(kernel), positions)
        return _add_bias(y.reshape(n, o, *out), bias, d)
    # few positions a sample: one row per window of the whole batch, one matmul per group
    # (G, N * prod(out), C/G * prod(kernel)) @ (G, C/G * prod(kernel), O/G) -> (G, N P, O/G)
    cols = cols.permute(0, *range(3, 3 + d), 1, 2, *range(3 + d, 3 + 2 * d))
    rows = cols.reshape(n * positions, g, (c // g) * math.prod(kernel)).permute(1, 0, 2)
    y = rows @ w.transpose(-1, -2)
    y = y.reshape(g, n, positions, o // g).permute(1, 0, 3, 2)
    return _add_bias(y.reshape(n, o, *out), bias, d)


def _conv_transpose(input: Any, weight: Tensor, bias: Tensor | None, stride: Any,
                    padding: Any, output_padding: Any, groups: int, dilation: Any,
                    d: int) -> Tensor:
    """conv_transpose over the last d dims (see the module docstring)."""
    op = f"conv_transpose{d}d"
    x, was_unbatched = batched(input, d, op)
    _check_weight(x, weight, bias, groups, d, op, transposed=True)
    kernel = tuple(weight.shape[2:])
    stride, dilation = ntuple(stride, d, "stride", op), ntuple(dilation, d, "dilation", op)
    _check_stride_dilation(stride, dilation)
    if isinstance(padding, str):
        raise TypeError(f"{op}: padding must be an int or a tuple of ints, got {padding!r}")
    padding = ntuple(padding, d, "padding", op)
    output_padding = ntuple(output_padding, d, "output_padding", op)
    if any(p < 0 for p in padding):
        raise RuntimeError("negative padding is not supported")
    if any(op_ >= max(s, r) for op_, s, r in zip(output_padding, stride, dilation)):
        raise RuntimeError(f"{op}: output padding must be smaller than either stride or "
                           f"dilation, but got output_padding: {output_padding}, stride: "
                           f"{stride}, dilation: {dilation}")
    n, c = x.shape[:2]
    g, og = groups, weight.shape[1]
    space = x.shape[2:]
    full = tuple((i - 1) * s + r * (k - 1) + 1 + p_out for i, k, s, r, p_out
                 in zip(space, kernel, stride, dilation, output_padding))
    out = tuple(f - 2 * p for f, p in zip(full, padding))
    if any(v < 1 for v in out):
        raise RuntimeError(f"{op}: Given input size per channel: {tuple(space)}. Calculated "
                           f"output size per channel: {out}. Output size is too small")
    # each input element times the weight: (N, G, O/G * prod(kernel), prod(space))
    w = weight.reshape(g, c // g, og * math.prod(kernel)).transpose(-1, -2)
    cols = w @ x.reshape(n, g, c // g, math.prod(space))
    cols = cols.reshape(n, g * og, *kernel, *space)
    cols = cols.permute(0, 1, *range(2 + d, 2 + 2 * d), *range(2, 2 + d))
    y = window_sum(cols, (n, g * og, *full), stride, dilation)  # col2im
    y = y[(slice(None), slice(None), *(slice(p, p + v) for p, v in zip(padding, out)))]
    return unbatched(_add_bias(y, bias, d), was_unbatched)


def conv1d(input: Any, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """x (N, C_in, L) or (C_in, L), weight (C_out, C_in / groups, k), bias (C_out,) ->
    (N, C_out, L_out), L_out = (L + pads - r (k - 1) - 1) // s + 1."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 1)


def conv2d(input: Any, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """x (N, C_in, H, W) or (C_in, H, W), weight (C_out, C_in / groups, kH, kW) ->
    (N, C_out, H_out, W_out), each dim as in :func:`conv1d`."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 2)


def conv3d(input: Any, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    """x (N, C_in, D, H, W) or unbatched, weight (C_out, C_in / groups, kD, kH, kW) ->
    (N, C_out, D_out, H_out, W_out), each dim as in :func:`conv1d`."""
    return _conv(input, weight, bias, stride, padding, dilation, groups, 3)


def conv_transpose1d(input: Any, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
                     padding: Any = 0, output_padding: Any = 0, groups: int = 1,
                     dilation: Any = 1) -> Tensor:
    """x (N, C_in, L) or (C_in, L), weight (C_in, C_out / groups, k) -> (N, C_out, L_out),
    L_out = (L - 1) s - 2 padding + r (k - 1) + output_padding + 1."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 1)


def conv_transpose2d(input: Any, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
                     padding: Any = 0, output_padding: Any = 0, groups: int = 1,
                     dilation: Any = 1) -> Tensor:
    """x (N, C_in, H, W) or unbatched, weight (C_in, C_out / groups, kH, kW) ->
    (N, C_out, H_out, W_out), each dim as in :func:`conv_transpose1d`."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 2)


def conv_transpose3d(input: Any, weight: Tensor, bias: Tensor | None = None, stride: Any = 1,
                     padding: Any = 0, output_padding: Any = 0, groups: int = 1,
                     dilation: Any = 1) -> Tensor:
    """x (N, C_in, D, H, W) or unbatched, weight (C_in, C_out / groups, kD, kH, kW) ->
    (N, C_out, D_out, H_out, W_out), each dim as in :func:`conv_transpose1d`."""
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups,
                           dilation, 3)


class _ConvNd(Module):
    """What Conv and ConvTranspose share: the checks, the weight and its init.

    Init as PyTorch's ``reset_parameters``: weight ~ kaiming_uniform(a=sqrt(5)), i.e.
    U(-1/sqrt(fan_in), 1/sqrt(fan_in)), and bias ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in)),
    fan_in = weight.shape[1] * prod(kernel_size)."""

    d = 0
    transposed = False

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any,
                 padding: Any, dilation: Any, groups: int, bias: bool, padding_mode: str,
                 output_padding: Any = 0, dtype: Any = np.float32) -> None:
        super().__init__()
        name, d = type(self).__name__, self.d
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups:
            raise ValueError("out_channels must be divisible by groups")
        if padding_mode not in PADDING_MODES:
            raise ValueError(f"padding_mode must be one of {list(PADDING_MODES)}, but got "
                             f"padding_mode='{padding_mode}'")
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size = ntuple(kernel_size, d, "kernel_size", name)
        self.stride = ntuple(stride, d, "stride", name)
        self.dilation = ntuple(dilation, d, "dilation", name)
        self.output_padding = ntuple(output_padding, d, "output_padding", name)
        self.padding_mode = padding_mode
        if isinstance(padding, str):
            conv_padding(padding, self.kernel_size, self.stride, self.dilation, name, layer=True)
            self.padding = padding
        else:
            self.padding = ntuple(padding, d, "padding", name)
        shape = ((in_channels, out_channels // groups) if self.transposed
                 else (out_channels, in_channels // groups)) + self.kernel_size
        self.weight = Parameter(np.zeros(shape, dtype=dtype))
        if bias:
            self.bias = Parameter(np.zeros(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """PyTorch's init (see the class docstring)."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.weight.shape[1] * math.prod(self.kernel_size)
            if fan_in:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self) -> str:
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
             f"stride={self.stride}")
        if self.padding != (0,) * self.d:
            s += f", padding={self.padding}"
        if self.dilation != (1,) * self.d:
            s += f", dilation={self.dilation}"
        if self.output_padding != (0,) * self.d:
            s += f", output_padding={self.output_padding}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class _Conv(_ConvNd):
    """A convolution layer; padding modes other than 'zeros' pad with ``F.pad`` first."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", dtype: Any = np.float32) -> None:
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, dtype=dtype)

    def forward(self, input: Tensor) -> Tensor:
        if self.padding_mode == "zeros":
            return _conv(input, self.weight, self.bias, self.stride, self.padding,
                         self.dilation, self.groups, self.d)
        pads = conv_padding(self.padding, self.kernel_size, self.stride, self.dilation,
                            type(self).__name__)
        return _conv(pad(input, pad_pairs(pads), mode=self.padding_mode), self.weight,
                     self.bias, self.stride, 0, self.dilation, self.groups, self.d)


class Conv1d(_Conv):
    """1-D convolution over x (N, C_in, L) or (C_in, L) (see :func:`conv1d`); weight
    (out_channels, in_channels / groups, k), bias (out_channels,)."""

    d = 1


class Conv2d(_Conv):
    """2-D convolution over x (N, C_in, H, W) or unbatched (see :func:`conv2d`); weight
    (out_channels, in_channels / groups, kH, kW), bias (out_channels,)."""

    d = 2


class Conv3d(_Conv):
    """3-D convolution over x (N, C_in, D, H, W) or unbatched (see :func:`conv3d`); weight
    (out_channels, in_channels / groups, kD, kH, kW), bias (out_channels,)."""

    d = 3


class _ConvTranspose(_ConvNd):
    """A transposed convolution layer; ``forward(x, output_size)`` picks the output_padding
    that gives ``output_size``, as PyTorch's."""

    transposed = True

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, output_padding: Any = 0, groups: int = 1, bias: bool = True,
                 dilation: Any = 1, padding_mode: str = "zeros", dtype: Any = np.float32) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation,
                         groups, bias, padding_mode, output_padding, dtype)

    def _output_padding(self, x: Tensor, output_size: Any) -> tuple:
        """output_padding that makes the output ``output_size`` (spatial, or with N, C)."""
        if output_size is None:
            return self.output_padding
        d = self.d
        size = tuple(int(v) for v in output_size)[-d:] if len(output_size) in (d, d + 2) \
            else None
        if size is None:
            raise ValueError(f"ConvTranspose{d}D: for {x.ndim}D input, output_size must have "
                             f"{d} or {d + 2} elements (got {len(output_size)})")
        lows = tuple((i - 1) * s - 2 * p + r * (k - 1) + 1 for i, s, p, r, k in zip(
            x.shape[-d:], self.stride, self.padding, self.dilation, self.kernel_size))
        highs = tuple(lo + s - 1 for lo, s in zip(lows, self.stride))
        if any(not lo <= v <= hi for v, lo, hi in zip(size, lows, highs)):
            raise ValueError(f"requested an output size of {list(size)}, but valid sizes range "
                             f"from {list(lows)} to {list(highs)} (for an input of "
                             f"{list(x.shape[-d:])})")
        return tuple(v - lo for v, lo in zip(size, lows))

    def forward(self, input: Tensor, output_size: Any = None) -> Tensor:
        return _conv_transpose(input, self.weight, self.bias, self.stride, self.padding,
                               self._output_padding(input, output_size), self.groups,
                               self.dilation, self.d)


class ConvTranspose1d(_ConvTranspose):
    """1-D transposed convolution (see :func:`conv_transpose1d`); weight
    (in_channels, out_channels / groups, k), bias (out_channels,)."""

    d = 1


class ConvTranspose2d(_ConvTranspose):
    """2-D transposed convolution (see :func:`conv_transpose2d`); weight
    (in_channels, out_channels / groups, kH, kW), bias (out_channels,)."""

    d = 2


class ConvTranspose3d(_ConvTranspose):
    """3-D transposed convolution (see :func:`conv_transpose3d`); weight
    (in_channels, out_channels / groups, kD, kH, kW), bias (out_channels,)."""

    d = 3

"""unfold (im2col) and fold (col2im) as PyTorch exposes them, over 2 spatial dims.

unfold: x (N, C, H, W) -> (N, C kH kW, L), column l holding the l-th window (row-major over
the window positions) flattened channel first, then kernel offsets: the window view
(``minigrad.ops.windows``) of the padded input, reshaped. fold is its adjoint: each column's
entries are added back where unfold read them (col2im, ``WindowSum``), overlapping windows
summing, and the padding cut off. fold(unfold(x)) is x times how many windows read each
element.
"""

from __future__ import annotations

import math
from typing import Any

from minigrad.ops.windows import window_sum, windows
from minigrad.tensor import Tensor

from .module import Module
from .padding import pad
from .windowing import check_positive, ntuple, pad_pairs


def _options(op: str, kernel_size: Any, dilation: Any, padding: Any, stride: Any) -> tuple:
    kernel = ntuple(kernel_size, 2, "kernel_size", op)
    dilation, padding = ntuple(dilation, 2, "dilation", op), ntuple(padding, 2, "padding", op)
    stride = ntuple(stride, 2, "stride", op)
    check_positive(op, kernel_size=kernel, dilation=dilation, stride=stride)
    if any(p < 0 for p in padding):
        raise RuntimeError(f"{op}: padding should be non-negative, but got padding: {padding}")
    return kernel, dilation, padding, stride


def _blocks(space: tuple, kernel: tuple, dilation: tuple, padding: tuple, stride: tuple) -> tuple:
    return tuple((n + 2 * p - r * (k - 1) - 1) // s + 1
                 for n, k, r, p, s in zip(space, kernel, dilation, padding, stride))


def unfold(input: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
           stride: Any = 1) -> Tensor:
    """The sliding windows of x (N, C, H, W) or (C, H, W) as columns: (N, C kH kW, L),
    L = the number of window positions (see the module docstring)."""
    x = input if isinstance(input, Tensor) else Tensor(input)
    if x.ndim not in (3, 4):
        raise RuntimeError(f"Input Error: Only 3D or 4D input Tensors are supported (got "
                           f"{x.ndim}D)")
    kernel, dilation, padding, stride = _options("unfold", kernel_size, dilation, padding,
                                                 stride)
    blocks = _blocks(x.shape[-2:], kernel, dilation, padding, stride)
    if any(b < 1 for b in blocks):
        raise RuntimeError(f"Given input with spatial size {tuple(x.shape[-2:])}, "
                           f"kernel_size={kernel}, dilation={dilation}, padding={padding}, "
                           f"calculated shape of the array of sliding blocks as {blocks}, but "
                           "its components must be at least one.")
    if any(padding):
        x = pad(x, pad_pairs([(p, p) for p in padding]))
    cols = windows(x, kernel, stride, dilation)  # (..., C, oH, oW, kH, kW)
    lead = cols.ndim - 5
    cols = cols.permute(*range(lead + 1), lead + 3, lead + 4, lead + 1, lead + 2)
    return cols.reshape(*cols.shape[:lead], x.shape[-3] * math.prod(kernel), math.prod(blocks))


def fold(input: Any, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
         stride: Any = 1) -> Tensor:
    """The adjoint of :func:`unfold`: columns (N, C kH kW, L) or (C kH kW, L) summed back
    into (N, C, *output_size) (see the module docstring)."""
    g = input if isinstance(input, Tensor) else Tensor(input)
    if g.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2D or 3D (batch mode) tensor for input with possibly 0 "
                           f"batch size and non-zero dimensions for input, but got: "
                           f"{list(g.shape)}")
    size = ntuple(output_size, 2, "output_size", "fold")
    kernel, dilation, padding, stride = _options("fold", kernel_size, dilation, padding, stride)
    k = math.prod(kernel)
    if g.shape[-2] % k:
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the product "
                           f"of kernel_size, but got input.size(1)={g.shape[-2]} and "
                           f"kernel_size={kernel}")
    blocks = _blocks(size, kernel, dilation, padding, stride)
    if g.shape[-1] != math.prod(blocks):
        raise RuntimeError(f"Given output_size={size}, kernel_size={kernel}, dilation={dilation}, "
                           f"padding={padding}, stride={stride}, expected size of input's "
                           f"dimension 2 to match the calculated number of sliding blocks "
                           f"{blocks[0]} * {blocks[1]} = {math.prod(blocks)}, but got "
                           f"input.size(2)={g.shape[-1]}.")
    lead = g.shape[:-2]
    c = g.shape[-2] // k
    cols = g.reshape(*lead, c, *kernel, *blocks)
    n = len(lead)
    cols = cols.permute(*range(n + 1), n + 3, n + 4, n + 1, n + 2)
    full = tuple(s + 2 * p for s, p in zip(size, padding))
    y = window_sum(cols, (*lead, c, *full), stride, dilation)
    return y[(..., *(slice(p, p + s) for p, s in zip(padding, size)))]


class Unfold(Module):
    """``unfold`` as a layer: (N, C, H, W) -> (N, C kH kW, L)."""

    def __init__(self, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> None:
        super().__init__()
        self.kernel_size, self.dilation = kernel_size, dilation
        self.padding, self.stride = padding, stride

    def forward(self, input: Tensor) -> Tensor:
        return unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, "
                f"padding={self.padding}, stride={self.stride}")


class Fold(Module):
    """``fold`` as a layer: (N, C kH kW, L) -> (N, C, *output_size)."""

    def __init__(self, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> None:
        super().__init__()
        self.output_size, self.kernel_size = output_size, kernel_size
        self.dilation, self.padding, self.stride = dilation, padding, stride

    def forward(self, input: Tensor) -> Tensor:
        return fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                    self.stride)

    def extra_repr(self) -> str:
        return (f"output_size={self.output_size}, kernel_size={self.kernel_size}, "
                f"dilation={self.dilation}, padding={self.padding}, stride={self.stride}")

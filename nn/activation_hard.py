"""The "hard" activations: piecewise-linear stand-ins for tanh, sigmoid and swish that cost
a compare and a multiply (mobile networks use them): hardtanh, relu6, hardsigmoid,
hardswish (functional forms and Modules).

Hardtanh, relu6 and hardsigmoid are composed of ``where`` and arithmetic, so their gradients
(and second derivatives) come from those ops; hardswish is an op of its own
(``minigrad/ops/self_gated.py``). Their corners follow PyTorch's conventions, which the
code states explicitly: hardtanh, relu6 and hardsigmoid pass no gradient at their bounds
(``clamp`` would pass it), hardswish's derivative at -3 and at 3 is its outer pieces' (0
and 1), and a NaN input gives NaN and takes the branch PyTorch's comparison gives it.
"""

from __future__ import annotations

import numpy as np

from minigrad.ops.masking import where
from minigrad.ops.self_gated import SelfGated
from minigrad.tensor import Tensor

from .activation import _Elementwise
from .module import Module


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """min_val where x <= min_val, max_val where x >= max_val, else x. Gradient 0 at and
    beyond the bounds, 1 elsewhere (NaN included: its gradient passes, as PyTorch's)."""
    if min_val > max_val:
        raise ValueError(f"hardtanh: min_val ({min_val}) must not exceed max_val ({max_val})")
    a = input.data
    outside = (a <= min_val) | (a >= max_val)
    # outside the bounds the value is a constant of x's dtype: no gradient flows there
    return where(outside, np.clip(a, min_val, max_val).astype(a.dtype, copy=False), input)


def relu6(input: Tensor) -> Tensor:
    """min(max(x, 0), 6): hardtanh(x, 0, 6) (gradient 0 at 0 and at 6)."""
    return hardtanh(input, 0.0, 6.0)


def hardsigmoid(input: Tensor) -> Tensor:
    """0 where x <= -3, 1 where x >= 3, else x / 6 + 1/2 (NaN for NaN). Gradient 1/6
    strictly between -3 and 3, 0 elsewhere (as PyTorch)."""
    a = input.data
    middle = input / 6 + 0.5
    return where((a > -3) & (a < 3), middle, np.clip(middle.data, 0, 1))


def hardswish(input: Tensor) -> Tensor:
    """x * relu6(x + 3) / 6: 0 where -inf < x <= -3, x where x >= 3, else x (x + 3) / 6
    (NaN at -inf: -inf * 0, as PyTorch). One op (``minigrad/ops/self_gated.py``): the
    derivative is 0 up to -3, x / 3 + 1/2 between, 1 from 3 up (PyTorch's corners), and an
    infinite gradient meets no 0 * inf."""
    return SelfGated.apply(input, name="hardswish")


class Hardtanh(Module):
    """min_val where x <= min_val, max_val where x >= max_val, else x."""

    def __init__(self, min_val: float = -1.0, max_val: float = 1.0) -> None:
        super().__init__()
        if min_val > max_val:
            raise ValueError(f"Hardtanh: min_val ({min_val}) must not exceed max_val ({max_val})")
        self.min_val, self.max_val = min_val, max_val

    def forward(self, input: Tensor) -> Tensor:
        return hardtanh(input, self.min_val, self.max_val)

    def extra_repr(self) -> str:
        return f"min_val={self.min_val}, max_val={self.max_val}"


class ReLU6(_Elementwise):
    """min(max(x, 0), 6)."""

    fn = staticmethod(relu6)


class Hardsigmoid(_Elementwise):
    """0 where x <= -3, 1 where x >= 3, else x / 6 + 1/2."""

    fn = staticmethod(hardsigmoid)


class Hardswish(_Elementwise):
    """x * relu6(x + 3) / 6."""

    fn = staticmethod(hardswish)

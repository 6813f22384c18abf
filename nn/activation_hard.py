"""The "hard" activations: piecewise-linear stand-ins for tanh, sigmoid and swish that cost
a compare and a multiply (mobile networks use them): hardtanh, relu6, hardsigmoid,
hardswish (functional forms and Modules).

Each is composed of ``where`` and arithmetic, so its gradient (and second derivative) comes
from those ops. Their corners follow PyTorch's conventions, which the compositions state
explicitly: hardtanh, relu6 and hardsigmoid pass no gradient at their bounds (``clamp``
would pass it), and hardswish's derivative at -3 and at 3 is its outer pieces' (0 and 1).
"""

from __future__ import annotations

import numpy as np

from minigrad.ops.masking import where
from minigrad.tensor import Tensor

from .activation import _Elementwise
from .module import Module


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:
    """min_val where x <= min_val, max_val where x >= max_val, else x. Gradient 1 strictly
    between the bounds, 0 elsewhere (at the bounds too, as PyTorch)."""
    if min_val > max_val:
        raise ValueError(f"hardtanh: min_val ({min_val}) must not exceed max_val ({max_val})")
    a = input.data
    inside = (a > min_val) & (a < max_val)
    # outside the bounds the value is a constant of x's dtype: no gradient flows there
    return where(inside, input, np.clip(a, min_val, max_val).astype(a.dtype, copy=False))


def relu6(input: Tensor) -> Tensor:
    """min(max(x, 0), 6): hardtanh(x, 0, 6) (gradient 0 at 0 and at 6)."""
    return hardtanh(input, 0.0, 6.0)


def hardsigmoid(input: Tensor) -> Tensor:
    """0 where x <= -3, 1 where x >= 3, else x / 6 + 1/2. Gradient 1/6 strictly between -3
    and 3, 0 elsewhere (as PyTorch)."""
    a = input.data
    middle = input / 6 + 0.5
    return where((a > -3) & (a < 3), middle, (a >= 3).astype(middle.dtype))


def hardswish(input: Tensor) -> Tensor:
    """x * relu6(x + 3) / 6: 0 where x <= -3, x where x >= 3, else x (x + 3) / 6. The
    derivative at -3 is 0 and at 3 is 1 (the outer pieces'), as PyTorch."""
    a = input.data
    middle = input * (input + 3) / 6
    outer = where(a >= 3, input, np.zeros((), middle.dtype))
    return where((a > -3) & (a < 3), middle, outer)


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

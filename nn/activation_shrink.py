"""Shrinking, thresholding and parametric activations, as PyTorch's: hardshrink,
softshrink, tanhshrink, threshold and PReLU (functional forms and Modules).

Each is a composition of minigrad ops (``where``, ``tanh``, products), so its gradient is
the chain rule through them; at a branch point the branch PyTorch's derivative takes is
the one ``where`` selects (e.g. PReLU's slope at x = 0 is the weight, as PyTorch's). Each
condition is PyTorch's comparison, so a NaN input takes the branch it takes there (NaN out,
the gradient passed).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.ops.masking import where
from minigrad.tensor import Tensor

from .module import Module, Parameter


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """x where |x| > lambd, else 0 (NaN for NaN, whose gradient passes, as PyTorch's)."""
    return where(input.abs() <= lambd, 0.0, input)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:
    """x - lambd where x > lambd, x + lambd where x < -lambd, else 0 (lambd >= 0)."""
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    return where(input.abs() <= lambd, 0.0, where(input > lambd, input - lambd, input + lambd))


def tanhshrink(input: Tensor) -> Tensor:
    """x - tanh(x)."""
    return input - input.tanh()


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    """x where x > threshold, else ``value`` (cast to the input's dtype, as PyTorch).
    ``inplace`` is accepted and gives a new tensor (minigrad's activations never write
    into their input)."""
    del inplace  # the result is the same; minigrad returns a new tensor
    return where(input <= threshold, np.asarray(value).astype(input.dtype), input)


def prelu(input: Tensor, weight: Tensor) -> Tensor:
    """x where x > 0, else a * x, with ``weight`` a (C,) or (1,): one slope per channel
    (dim 1; dim 0 of a 1-D input) or one for all."""
    if weight.ndim != 1 and int(np.prod(weight.shape)) != 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: "
                           f"ndim = {weight.ndim}")
    n = int(np.prod(weight.shape))
    if n != 1:
        if input.ndim == 0:
            raise RuntimeError("Not allow zero-dim input tensor.")
        ch = 1 if input.ndim >= 2 else 0
        if input.shape[ch] != n:
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found "
                               f"parameter numbers = {n} and channel size = {input.shape[ch]}.")
        a = weight.reshape((n,) + (1,) * (input.ndim - ch - 1))
    else:
        a = weight.reshape(())
    return where(input > 0, input, a * input)


class Hardshrink(Module):
    """x where |x| > lambd, else 0."""

    def __init__(self, lambd: float = 0.5) -> None:
        super().__init__()
        self.lambd = lambd

    def forward(self, input: Tensor) -> Tensor:
        return hardshrink(input, self.lambd)

    def extra_repr(self) -> str:
        return f"{self.lambd}"


class Softshrink(Hardshrink):
    """x -+ lambd outside [-lambd, lambd], else 0."""

    def forward(self, input: Tensor) -> Tensor:
        return softshrink(input, self.lambd)


class Tanhshrink(Module):
    """x - tanh(x)."""

    def forward(self, input: Tensor) -> Tensor:
        return tanhshrink(input)


class Threshold(Module):
    """x where x > threshold, else ``value``."""

    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None:
        super().__init__()
        self.threshold, self.value, self.inplace = threshold, value, inplace

    def forward(self, input: Tensor) -> Tensor:
        return threshold(input, self.threshold, self.value)

    def extra_repr(self) -> str:
        return f"threshold={self.threshold}, value={self.value}"


class PReLU(Module):
    """x where x > 0, else a * x, with learned slopes ``weight`` (num_parameters,), each
    ``init`` at the start (PyTorch's 0.25)."""

    def __init__(self, num_parameters: int = 1, init: float = 0.25, device: Any = None,
                 dtype: Any = np.float32) -> None:
        super().__init__()
        del device  # CPU only (Module.to checks a device)
        self.num_parameters = num_parameters
        self.weight = Parameter(np.full(num_parameters, init, dtype=dtype))

    def forward(self, input: Tensor) -> Tensor:
        return prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"

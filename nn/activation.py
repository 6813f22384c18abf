"""Activation functions: ReLU, GELU, softmax and log-softmax.

The math lives in minigrad's ops (``Tensor.relu``, ``Tensor.gelu``, the
softmax kernels); this file gives them PyTorch's functional names and
Module wrappers.
"""

from __future__ import annotations

import minigrad
from minigrad import Tensor

from .module import Module


def relu(x: Tensor) -> Tensor:
    """max(x, 0) elementwise."""
    return x.relu()


def gelu(x: Tensor, approximate: str = "none") -> Tensor:
    """x * Phi(x) (Phi the standard normal CDF), or its tanh approximation
    0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) with ``approximate='tanh'``."""
    if approximate not in ("none", "tanh"):
        raise ValueError(f"gelu: approximate must be 'none' or 'tanh', got {approximate!r}")
    return x.gelu(approximate=approximate)


def softmax(x: Tensor, dim: int = -1) -> Tensor:
    """exp(x_i) / sum_j exp(x_j) along ``dim`` (stable: the row max is subtracted)."""
    return minigrad.softmax(x, dim)


def log_softmax(x: Tensor, dim: int = -1) -> Tensor:
    """x_i - logsumexp(x) along ``dim``."""
    return minigrad.log_softmax(x, dim)


class ReLU(Module):
    """max(x, 0) elementwise."""

    def forward(self, x: Tensor) -> Tensor:
        return relu(x)


class GELU(Module):
    """Gaussian error linear unit, exact (``approximate='none'``) or tanh-approximated."""

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        if approximate not in ("none", "tanh"):
            raise ValueError(f"GELU: approximate must be 'none' or 'tanh', got {approximate!r}")
        self.approximate = approximate

    def forward(self, x: Tensor) -> Tensor:
        return gelu(x, self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"

"""More smooth activations: softsign, log-sigmoid, mish, softmin and the gated linear unit
(functional forms and Modules).

All but log-sigmoid are compositions of minigrad ops, so their gradients come from those
ops. Log-sigmoid is its own op (``minigrad/ops/unary_math.py``): composed as
``log(sigmoid(x))`` it would be ``log(0) = -inf`` for x below about -104 (float32).
"""

from __future__ import annotations

from typing import Any

from minigrad.ops.unary_math import UnaryMath
from minigrad.tensor import Tensor

from .activation import _Elementwise, softmax, softplus
from .module import Module


def softsign(x: Tensor) -> Tensor:
    """x / (1 + |x|)."""
    return x / (1 + x.abs())


def logsigmoid(x: Tensor) -> Tensor:
    """log(sigmoid(x)) = -softplus(-x), computed as min(x, 0) - log1p(e**-|x|): no overflow
    and no log(0) for any x."""
    return UnaryMath.apply(x, name="logsigmoid")


def mish(x: Tensor) -> Tensor:
    """x * tanh(softplus(x)) (softplus with its threshold of 20: no overflow for large x)."""
    return x * softplus(x).tanh()


def softmin(x: Tensor, dim: int = -1, dtype: Any = None) -> Tensor:
    """softmax(-x) along ``dim``; ``dtype=`` casts x first, as PyTorch. (PyTorch's ``dim=None``
    picks a dimension by the input's rank and warns; minigrad's default is the last one, as
    its ``softmax``.)"""
    if dtype is not None:
        x = x.to(dtype)
    return softmax(-x, dim)


def glu(x: Tensor, dim: int = -1) -> Tensor:
    """a * sigmoid(b), where a and b are the first and second halves of x along ``dim``
    (whose size must be even): the output has half that size."""
    if x.ndim == 0:
        raise RuntimeError("glu: does not support 0-d tensors (there is no dimension to halve)")
    n = x.size(dim)  # raises IndexError for a dim out of range
    d = dim % x.ndim
    if n % 2:
        raise RuntimeError(f"glu: halving dimension must be even, but dimension {dim} is size {n}")
    head = (slice(None),) * d
    return x[head + (slice(0, n // 2),)] * x[head + (slice(n // 2, n),)].sigmoid()


class Softsign(_Elementwise):
    """x / (1 + |x|)."""

    fn = staticmethod(softsign)


class LogSigmoid(_Elementwise):
    """log(sigmoid(x)), stable for any x."""

    fn = staticmethod(logsigmoid)


class Mish(_Elementwise):
    """x * tanh(softplus(x))."""

    fn = staticmethod(mish)


class Softmin(Module):
    """softmax(-x) along ``dim`` (PyTorch's ``nn.Softmin(dim)``)."""

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, x: Tensor) -> Tensor:
        return softmin(x, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class GLU(Module):
    """a * sigmoid(b) for the two halves a, b of x along ``dim``."""

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, x: Tensor) -> Tensor:
        return glu(x, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"

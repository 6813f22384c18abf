"""More smooth activations: softsign, log-sigmoid, mish, softmin and the gated linear unit
(functional forms and Modules).

Softsign, softmin and GLU are compositions of minigrad ops, so their gradients come from
those ops. Log-sigmoid is its own op (``minigrad/ops/unary_math.py``): composed as
``log(sigmoid(x))`` it would be ``log(0) = -inf`` for x below about -104 (float32). Mish is
its own op too (``minigrad/ops/self_gated.py``): composed as ``x * tanh(softplus(x))`` its
gradient would be NaN wherever an infinite upstream gradient meets a zero factor.
"""

from __future__ import annotations

from typing import Any

from minigrad.ops.self_gated import SelfGated
from minigrad.ops.unary_math import FUNCTIONS
from minigrad.tensor import Tensor

from .activation import _Elementwise, log_softmax, softmax, softplus
from .module import Module
from .softmax_dim import implicit_softmax_dim


def softsign(input: Tensor) -> Tensor:
    """x / (1 + |x|)."""
    return input / (1 + input.abs())


def logsigmoid(input: Tensor) -> Tensor:
    """log(sigmoid(x)) = -softplus(-x), computed as min(x, 0) - log1p(e**-|x|): no overflow
    and no log(0) for any x."""
    return FUNCTIONS["logsigmoid"].apply(input)


def mish(input: Tensor) -> Tensor:
    """x * tanh(log(1 + e**x)), one op (``minigrad/ops/self_gated.py``): its gradient is
    g * (t + x sigmoid(x) (1 - t^2)), t = tanh(log(1 + e**x)), as PyTorch's."""
    return SelfGated.apply(input, name="mish")


def softmin(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype: Any = None) -> Tensor:
    """softmax(-x) along ``dim``; ``dtype=`` casts x first, as PyTorch. Without ``dim``:
    PyTorch's implicit choice, with its warning."""
    if dim is None:
        dim = implicit_softmax_dim("softmin", input.ndim, _stacklevel)
    if dtype is not None:
        input = input.to(dtype)
    return softmax(-input, dim)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    """a * sigmoid(b), where a and b are the first and second halves of x along ``dim``
    (whose size must be even): the output has half that size."""
    if input.ndim == 0:
        raise RuntimeError("glu: does not support 0-d tensors (there is no dimension to halve)")
    n = input.size(dim)  # raises IndexError for a dim out of range
    d = dim % input.ndim
    if n % 2:
        raise RuntimeError(f"glu: halving dimension must be even, but dimension {dim} is size {n}")
    head = (slice(None),) * d
    return input[head + (slice(0, n // 2),)] * input[head + (slice(n // 2, n),)].sigmoid()


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
    """softmax(-x) along ``dim`` (PyTorch's ``nn.Softmin(dim)``; None: PyTorch's implicit
    choice, with its warning)."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return softmin(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class GLU(Module):
    """a * sigmoid(b) for the two halves a, b of x along ``dim``."""

    def __init__(self, dim: int = -1) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return glu(input, self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softplus(Module):
    """log(1 + e**(beta x)) / beta, linear above ``threshold`` (see :func:`softplus`)."""

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, input: Tensor) -> Tensor:
        return softplus(input, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


class LogSoftmax(Module):
    """log_softmax along ``dim`` (None: PyTorch's implicit choice, dim 0 of a 0-, 1- or 3-D
    input, else dim 1, with its warning)."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return log_softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Softmax2d(Module):
    """softmax over the channels of (C, H, W) or (N, C, H, W) input (dim -3)."""

    def forward(self, input: Tensor) -> Tensor:
        if input.ndim not in (3, 4):
            raise ValueError(f"Softmax2d: expected input to be 3D or 4D, got {input.ndim}D "
                             "instead")
        return softmax(input, -3)

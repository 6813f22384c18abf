"""Activation functions: ReLU, GELU, softmax, log-softmax, sigmoid, tanh, SiLU, leaky ReLU,
the ELU family (ELU, CELU, SELU), softplus (functional forms and Modules), and Identity and
Flatten. The piecewise-linear "hard" activations are in ``activation_hard.py``, the other
smooth ones (softsign, log-sigmoid, mish, softmin, GLU) in ``activation_smooth.py``.

The math lives in minigrad's ops (``Tensor.relu``, ``Tensor.gelu``, the
softmax kernels); this file gives them PyTorch's functional names and
Module wrappers.
"""

from __future__ import annotations

from typing import Any

from minigrad.ops.elu import ELU as ELUFunction
from minigrad.ops.masking import where
from minigrad.ops.self_gated import SelfGated
from minigrad.tensor import Tensor

from .module import Module
from .softmax_dim import implicit_softmax_dim


def relu(input: Tensor) -> Tensor:
    """max(x, 0) elementwise."""
    return input.relu()


def gelu(input: Tensor, approximate: str = "none") -> Tensor:
    """x * Phi(x) (Phi the standard normal CDF), or its tanh approximation
    0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) with ``approximate='tanh'``."""
    if approximate not in ("none", "tanh"):
        raise ValueError(f"gelu: approximate must be 'none' or 'tanh', got {approximate!r}")
    return input.gelu(approximate=approximate)


def softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
            dtype: Any = None) -> Tensor:
    """exp(x_i) / sum_j exp(x_j) along ``dim`` (stable: the row max is subtracted); the input
    is cast to ``dtype`` first when given. Without ``dim``: PyTorch's implicit choice, with
    its warning (:func:`~minigrad.nn.softmax_dim.implicit_softmax_dim`)."""
    if dim is None:
        dim = implicit_softmax_dim("softmax", input.ndim, _stacklevel)
    return input.softmax(dim, dtype)


def log_softmax(input: Tensor, dim: int | None = None, _stacklevel: int = 3,
                dtype: Any = None) -> Tensor:
    """x_i - logsumexp(x) along ``dim``; the input is cast to ``dtype`` first when given.
    Without ``dim``: PyTorch's implicit choice, with its warning."""
    if dim is None:
        dim = implicit_softmax_dim("log_softmax", input.ndim, _stacklevel)
    return input.log_softmax(dim, dtype)


class ReLU(Module):
    """max(x, 0) elementwise."""

    def forward(self, input: Tensor) -> Tensor:
        return relu(input)


class GELU(Module):
    """Gaussian error linear unit, exact (``approximate='none'``) or tanh-approximated."""

    def __init__(self, approximate: str = "none") -> None:
        super().__init__()
        if approximate not in ("none", "tanh"):
            raise ValueError(f"GELU: approximate must be 'none' or 'tanh', got {approximate!r}")
        self.approximate = approximate

    def forward(self, input: Tensor) -> Tensor:
        return gelu(input, self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


def sigmoid(input: Tensor) -> Tensor:
    """1 / (1 + e**-x)."""
    return input.sigmoid()


def tanh(input: Tensor) -> Tensor:
    """Hyperbolic tangent."""
    return input.tanh()


def silu(input: Tensor) -> Tensor:
    """x * sigmoid(x) (also called swish), one op (``minigrad/ops/self_gated.py``): its
    gradient is g * sigmoid(x) (1 + x (1 - sigmoid(x))), as PyTorch's."""
    return SelfGated.apply(input, name="silu")


def leaky_relu(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    """x where x > 0, else negative_slope * x (the gradient at 0 is negative_slope, as PyTorch)."""
    return where(input > 0, input, input * negative_slope)


def _elu(x: Tensor, alpha: float, scale: float = 1.0, input_scale: float = 1.0) -> Tensor:
    """scale * (x where x > 0, else alpha * (e**(input_scale x) - 1)): the one op of the ELU
    family (``minigrad/ops/elu.py``). At x = 0 the gradient is the negative branch's,
    scale * alpha * input_scale, as PyTorch."""
    return ELUFunction.apply(x, alpha=float(alpha), scale=float(scale),
                             input_scale=float(input_scale))


def elu(input: Tensor, alpha: float = 1.0) -> Tensor:
    """x where x > 0, else alpha * (e**x - 1)."""
    return _elu(input, alpha)


def celu(input: Tensor, alpha: float = 1.0) -> Tensor:
    """x where x > 0, else alpha * (e**(x / alpha) - 1): ELU with a slope of 1 at 0 for any
    alpha (continuously differentiable)."""
    if alpha == 0:
        raise ValueError("celu: alpha must not be 0 (it divides x)")
    return _elu(input, alpha, input_scale=1.0 / alpha)


# SELU's constants (Klambauer et al., 2017): the fixed point of mean 0 and variance 1
_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input: Tensor) -> Tensor:
    """scale * (x where x > 0, else alpha * (e**x - 1)), alpha = 1.6733, scale = 1.0507
    (self-normalising: keeps activations near mean 0, variance 1)."""
    return _elu(input, _SELU_ALPHA, _SELU_SCALE)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """log(1 + e**(beta x)) / beta, and x itself where beta x > threshold (as PyTorch; a NaN
    x gives NaN and a NaN gradient, as PyTorch's)."""
    bx = input * beta
    linear = bx.data > threshold
    # the unused branch is filled, not clamped: a clamp passes no gradient at a NaN input
    soft = bx.masked_fill(linear, threshold).exp().log1p() / beta  # log1p: exact for tiny e**bx
    return where(linear, input, soft)


class _Elementwise(Module):
    """A Module applying a stateless function: ``Tanh()(x) == tanh(x)``."""

    fn = staticmethod(relu)

    def forward(self, input: Tensor) -> Tensor:
        return type(self).fn(input)


class Tanh(_Elementwise):
    """Hyperbolic tangent."""

    fn = staticmethod(tanh)


class Sigmoid(_Elementwise):
    """1 / (1 + e**-x)."""

    fn = staticmethod(sigmoid)


class SiLU(_Elementwise):
    """x * sigmoid(x)."""

    fn = staticmethod(silu)


class Identity(Module):
    """Returns its input unchanged (a placeholder layer); constructor arguments are ignored."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__()

    def forward(self, input: Tensor) -> Tensor:
        return input


class LeakyReLU(Module):
    """x where x > 0, else negative_slope * x."""

    def __init__(self, negative_slope: float = 0.01) -> None:
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, input: Tensor) -> Tensor:
        return leaky_relu(input, self.negative_slope)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}"


class ELU(Module):
    """x where x > 0, else alpha * (e**x - 1)."""

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        self.alpha = alpha

    def forward(self, input: Tensor) -> Tensor:
        return elu(input, self.alpha)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}"


class CELU(Module):
    """x where x > 0, else alpha * (e**(x / alpha) - 1)."""

    def __init__(self, alpha: float = 1.0) -> None:
        super().__init__()
        if alpha == 0:
            raise ValueError("CELU: alpha must not be 0 (it divides x)")
        self.alpha = alpha

    def forward(self, input: Tensor) -> Tensor:
        return celu(input, self.alpha)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}"


class SELU(_Elementwise):
    """1.0507 * (x where x > 0, else 1.6733 * (e**x - 1))."""

    fn = staticmethod(selu)


class Softmax(Module):
    """softmax along ``dim`` (PyTorch's ``nn.Softmax(dim)``; None: PyTorch's implicit choice,
    with its warning)."""

    def __init__(self, dim: int | None = None) -> None:
        super().__init__()
        self.dim = dim

    def forward(self, input: Tensor) -> Tensor:
        return softmax(input, self.dim, _stacklevel=5)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Flatten(Module):
    """Merge dims start_dim..end_dim (default: all but the batch dim)."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input: Tensor) -> Tensor:
        return input.flatten(self.start_dim, self.end_dim)

"""Local response normalisation (Krizhevsky et al., 2012), as ``torch.nn.LocalResponseNorm``.

y[c] = x[c] / (k + alpha / size * sum of x[c']**2 over the ``size`` channels
c' = c - size // 2 ... c + (size - 1) // 2) ** beta, channels outside [0, C) counting as
zero: a window across channels (axis 1), built from differentiable ops.
"""

from __future__ import annotations

from minigrad.constructors import zeros
from minigrad.ops.shapes import cat
from minigrad.tensor import Tensor

from .module import Module


def local_response_norm(input: Tensor, size: int, alpha: float = 1e-4, beta: float = 0.75,
                        k: float = 1.0) -> Tensor:
    """Normalise input (N, C, *) by its squares summed over ``size`` neighbouring channels."""
    if input.ndim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {input.ndim} dimensions)")
    if input.data.size == 0:
        return input
    c = input.shape[1]
    lo, hi = size // 2, (size - 1) // 2
    edge = [zeros((input.shape[0], p) + input.shape[2:], dtype=input.dtype) for p in (lo, hi)]
    padded = cat([edge[0], input * input, edge[1]], dim=1)
    window = padded[:, 0:c]
    for j in range(1, size):
        window = window + padded[:, j:j + c]
    return input / (window * (alpha / size) + k) ** beta


class LocalResponseNorm(Module):
    """Local response normalisation across ``size`` neighbouring channels."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input: Tensor) -> Tensor:
        return local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"

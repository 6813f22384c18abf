"""RMSNorm (Zhang and Sennrich, 2019), as ``torch.nn.RMSNorm``.

y = x / sqrt(mean(x**2 over the normalized dims) + eps) * weight: LayerNorm
without centring and without a bias. Built from minigrad ops, so its backward
is the chain rule through them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.tensor import Tensor

from .module import Module, Parameter


def rms_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None = None,
             eps: float | None = None) -> Tensor:
    """x / sqrt(mean(x**2) + eps) over the last len(normalized_shape) dims, times ``weight``;
    ``eps`` defaults to the dtype's machine epsilon, as PyTorch."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if tuple(input.shape[input.ndim - len(shape):]) != shape:
        raise ValueError(f"rms_norm: input {input.shape} does not end with normalized_shape {shape}")
    eps = float(np.finfo(input.dtype).eps) if eps is None else eps
    dims = tuple(range(input.ndim - len(shape), input.ndim))
    y = input * ((input * input).mean(dims, keepdim=True) + eps) ** -0.5
    return y if weight is None else y * weight


class RMSNorm(Module):
    """Root-mean-square normalisation over the last dims; ``.weight`` starts at ones."""

    def __init__(self, normalized_shape: Any, eps: float | None = None,
                 elementwise_affine: bool = True) -> None:
        super().__init__()
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.normalized_shape = shape
        self.eps = eps
        self.weight = Parameter(np.ones(shape, np.float32)) if elementwise_affine else None

    def forward(self, x: Tensor) -> Tensor:
        return rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}"

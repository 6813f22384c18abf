"""Layer normalisation: normalise each vector over its last dimension(s).

y = (x - mean) / sqrt(var + eps) * weight + bias, statistics per row over
``normalized_shape`` (biased variance, as PyTorch). Forward and backward run
in :class:`minigrad.ops.layernorm.LayerNormFunction` (the backend's ``layer_norm``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.ops.layernorm import LayerNormFunction
from minigrad.tensor import Tensor

from .module import Module, Parameter


def _normalized_shape(shape: Any) -> tuple:
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    shape = tuple(int(s) for s in shape)
    if not shape or any(s <= 0 for s in shape):
        raise ValueError(f"layer_norm: normalized_shape must be positive sizes, got {shape}")
    return shape


def layer_norm(input: Tensor, normalized_shape: Any, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Normalise x (..., *normalized_shape) over its trailing ``normalized_shape`` dims,
    then scale by ``weight`` and shift by ``bias`` (each of ``normalized_shape``, or None)."""
    ns = _normalized_shape(normalized_shape)
    if not isinstance(input, Tensor) or input.dtype.kind != "f":
        raise TypeError("layer_norm: x must be a floating-point Tensor, got "
                        f"{getattr(input, 'dtype', type(input).__name__)}")
    if input.shape[input.ndim - len(ns):] != ns or input.ndim < len(ns):
        raise ValueError(f"layer_norm: input of shape {input.shape} does not end in normalized_shape {ns}")
    for name, p in (("weight", weight), ("bias", bias)):
        if p is not None and p.shape != ns:
            raise ValueError(f"layer_norm: {name} of shape {p.shape} != normalized_shape {ns}")
    D = int(np.prod(ns))
    w = weight.reshape(D) if weight is not None else Tensor(np.ones(D, dtype=input.dtype))
    b = bias.reshape(D) if bias is not None else Tensor(np.zeros(D, dtype=input.dtype))
    flat = input.reshape(input.shape[: input.ndim - len(ns)] + (D,)) if len(ns) > 1 else input
    y = LayerNormFunction.apply(flat, w, b, eps=eps)
    return y.reshape(input.shape) if len(ns) > 1 else y


class LayerNorm(Module):
    """LayerNorm over the trailing ``normalized_shape`` dims; weight ones, bias zeros
    (learned when ``elementwise_affine``)."""

    def __init__(self, normalized_shape: Any, eps: float = 1e-5, elementwise_affine: bool = True,
                 bias: bool = True, dtype: Any = np.float32) -> None:
        super().__init__()
        self.normalized_shape = _normalized_shape(normalized_shape)
        if not eps > 0:
            raise ValueError(f"LayerNorm: eps must be positive, got {eps}")
        self.eps = float(eps)
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(np.ones(self.normalized_shape, dtype=dtype))
            if bias:
                self.bias = Parameter(np.zeros(self.normalized_shape, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, input: Tensor) -> Tensor:
        return layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, "
                f"elementwise_affine={self.elementwise_affine}")

"""The bilinear layer: y_o = x1^T W_o x2 + b_o, as PyTorch's ``nn.Bilinear``."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad.functional import einsum
from minigrad.random import generator
from minigrad.tensor import Tensor

from .module import Module, Parameter


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None,
             ) -> Tensor:
    """y[..., o] = sum_ij input1[..., i] weight[o, i, j] input2[..., j] + bias[o], for
    input1 (..., in1), input2 (..., in2) with the same leading shape, weight (out, in1, in2)."""
    if weight.ndim != 3 or input1.shape[-1:] != weight.shape[1:2] \
            or input2.shape[-1:] != weight.shape[2:3] or input1.shape[:-1] != input2.shape[:-1]:
        raise RuntimeError(f"bilinear: input1 {input1.shape} and input2 {input2.shape} do not "
                           f"match weight {weight.shape} (expected (..., in1), (..., in2) and "
                           "(out, in1, in2))")
    y = einsum("...i,oij,...j->...o", input1, weight, input2)
    return y if bias is None else y + bias


class Bilinear(Module):
    """y = x1^T W x2 + b for x1 (..., in1_features), x2 (..., in2_features) -> (...,
    out_features). Init as PyTorch: W and b ~ U(-1/sqrt(in1_features), 1/sqrt(in1_features))."""

    def __init__(self, in1_features: int, in2_features: int, out_features: int,
                 bias: bool = True, device: Any = None, dtype: Any = np.float32) -> None:
        super().__init__()
        del device  # CPU only
        self.in1_features, self.in2_features = in1_features, in2_features
        self.out_features = out_features
        bound = 1.0 / math.sqrt(in1_features)
        rng = generator()
        shape = (out_features, in1_features, in2_features)
        self.weight = Parameter(rng.uniform(-bound, bound, shape).astype(dtype))
        if bias:
            self.bias = Parameter(rng.uniform(-bound, bound, out_features).astype(dtype))
        else:
            self.register_parameter("bias", None)

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")

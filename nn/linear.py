"""Linear (fully connected) layer: y = x @ W.T + b.

``W`` has shape (out_features, in_features), as in PyTorch, so each output
unit's weights are one contiguous row. The op is one graph node,
:class:`minigrad.ops.linear.LinearFunction`; :func:`gelu_linear` is GELU fused into it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad.dtypes import check_same_float
from minigrad.ops.gelu_linear import GELULinearFunction
from minigrad.ops.linear import LinearFunction
from minigrad.random import generator
from minigrad.tensor import Tensor

from .module import Module, Parameter


def _checked_input(name: str, x: Any, weight: Tensor, bias: Tensor | None) -> Tensor:
    """x as a Tensor, after the checks linear and gelu_linear share (one home for them)."""
    x = x if isinstance(x, Tensor) else Tensor(x)
    if x.dtype.kind != "f":
        raise TypeError(f"{name}: the input must be floating-point, got dtype {x.dtype}")
    check_same_float([x.data, weight.data] + ([] if bias is None else [bias.data]), name)
    if weight.ndim != 2:
        raise ValueError(f"{name}: weight must be 2-D (out, in), got shape {weight.shape}")
    if x.ndim == 0 or x.shape[-1] != weight.shape[1]:
        raise ValueError(
            f"{name}: input of shape {x.shape} does not match weight of shape {weight.shape} "
            f"(expected last dimension {weight.shape[1]})"
        )
    if bias is not None and bias.shape != (weight.shape[0],):
        raise ValueError(f"{name}: bias of shape {bias.shape} does not match weight {weight.shape}")
    return x


def linear(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """y = x @ weight.T + bias for x (..., in), weight (out, in), bias (out,) -> (..., out)."""
    input = _checked_input("linear", input, weight, bias)
    if input.ndim == 1:  # a single vector: treat it as one row
        return linear(input.reshape(1, -1), weight, bias).reshape(-1)
    if bias is None:
        return LinearFunction.apply(input, weight)
    return LinearFunction.apply(input, weight, bias)


def gelu_linear(input: Tensor, weight: Tensor, bias: Tensor | None = None,
                approximate: str = "none") -> Tensor:
    """``linear(gelu(x, approximate), weight, bias)`` as one op (minigrad's own; PyTorch has
    no such function): x (..., in) -> (..., out), the same values and gradients.

    The fused op keeps less for the backward pass: above ``function.recompute_in_backward``'s
    4 MB it keeps only x and recomputes gelu(x) there, where the two ops would keep both x and
    gelu(x) (:class:`minigrad.ops.gelu_linear.GELULinearFunction`). GPT's MLP uses it."""
    if approximate not in ("none", "tanh"):
        raise ValueError(f"gelu_linear: approximate must be 'none' or 'tanh', got {approximate!r}")
    input = _checked_input("gelu_linear", input, weight, bias)
    if input.ndim == 1:
        return gelu_linear(input.reshape(1, -1), weight, bias, approximate).reshape(-1)
    params = (weight,) if bias is None else (weight, bias)
    return GELULinearFunction.apply(input, *params, approximate=approximate)


class Linear(Module):
    """y = x @ W.T + b for x (..., in_features) -> (..., out_features).

    Init as PyTorch: W and b ~ U(-1/sqrt(in_features), 1/sqrt(in_features)),
    drawn from ``minigrad.random.generator()``.
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 dtype: Any = np.float32) -> None:
        super().__init__()
        for name, v in (("in_features", in_features), ("out_features", out_features)):
            if not isinstance(v, (int, np.integer)) or v <= 0:
                raise ValueError(f"Linear: {name} must be a positive integer, got {v!r}")
        self.in_features = int(in_features)
        self.out_features = int(out_features)
        bound = 1.0 / math.sqrt(in_features)
        rng = generator()
        self.weight = Parameter(rng.uniform(-bound, bound, (out_features, in_features)).astype(dtype))
        if bias:
            self.bias = Parameter(rng.uniform(-bound, bound, out_features).astype(dtype))
        else:
            self.register_parameter("bias", None)

    def forward(self, input: Tensor) -> Tensor:
        return linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")

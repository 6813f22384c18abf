"""Group normalisation (Wu and He, 2018), as ``torch.nn.GroupNorm``.

The C channels of x (N, C, *spatial) are split into ``num_groups`` groups of C / G
consecutive channels; each (sample, group) is normalised over its channels and spatial
values (x reshaped to (N, G, -1), normalised over the last axis), then each channel is
scaled and shifted. G = 1 is LayerNorm over (C, *spatial); G = C is InstanceNorm.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.device import check_device
from minigrad.tensor import Tensor

from .module import Module
from .norm_axes import (
    channel_affine,
    check_channels,
    normalize_over,
    register_affine,
    reset_affine,
    verify_batch_size,
)


def group_norm(input: Tensor, num_groups: int, weight: Tensor | None = None,
               bias: Tensor | None = None, eps: float = 1e-5) -> Tensor:
    """Normalise each group of C / num_groups channels of input (N, C, *) per sample,
    then scale and shift each channel by ``weight``/``bias`` (C,)."""
    if input.ndim < 2:
        raise RuntimeError("Expected at least 2 dimensions for input tensor but received "
                           f"{input.ndim}")
    n, c = input.shape[:2]
    if num_groups <= 0 or c % num_groups:
        raise RuntimeError("Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {list(input.shape)} and "
                           f"num_groups={num_groups}")
    verify_batch_size([n * c // num_groups, num_groups] + list(input.shape[2:]))
    for name, t in (("weight", weight), ("bias", bias)):
        check_channels(name, t, c)
    y, _, _ = normalize_over(input.reshape(n, num_groups, input.data.size // max(n * num_groups, 1)), (2,), eps)
    return channel_affine(y.reshape(input.shape), weight, bias)


class GroupNorm(Module):
    """GroupNorm of ``num_channels`` channels in ``num_groups`` groups; per-channel
    weight (ones) and bias (zeros, unless ``bias=False``) when ``affine``."""

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5,
                 affine: bool = True, device: Any = None, dtype: Any = None, *,
                 bias: bool = True) -> None:
        super().__init__()
        check_device(device)
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by "
                             f"num_groups ({num_groups})")
        dt = np.dtype(np.float32 if dtype is None else dtype)
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        register_affine(self, num_channels, affine, bias, dt)

    def reset_parameters(self) -> None:
        """weight <- 1, bias <- 0."""
        reset_affine(self)

    def forward(self, input: Tensor) -> Tensor:
        return group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")

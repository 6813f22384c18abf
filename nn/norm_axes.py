"""The one normalisation core behind BatchNorm, InstanceNorm and GroupNorm.

Each of them computes xhat = (x - mean) / sqrt(var + eps) with the mean and the biased
variance taken over some axes, then y = xhat * weight[c] + bias[c] per channel (axis 1).
They differ only in the axes (and a reshape): BatchNorm over (N, *spatial) for each
channel, InstanceNorm over *spatial for each (sample, channel), GroupNorm over the channels
of a group and *spatial for each (sample, group). Everything here is built from
differentiable minigrad ops, so first and second derivatives are the chain rule through them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from minigrad.step_capture import replayed
from minigrad.tensor import Tensor

from .module import Module, Parameter


def normalize_over(x: Tensor, dims: Sequence[int], eps: float) -> tuple[Tensor, Tensor, Tensor]:
    """(xhat, mean, var): xhat = (x - mean) / sqrt(var + eps), with mean and biased var
    (divided by the count, as PyTorch normalises) over ``dims``, kept as size-1 dims."""
    dims = tuple(dims)
    mean = x.mean(dims, keepdim=True)
    centered = x - mean
    var = (centered * centered).mean(dims, keepdim=True)
    return centered * (var + eps).rsqrt(), mean, var


def per_channel(t: Tensor, ndim: int) -> Tensor:
    """A (C,) tensor shaped (1, C, 1, ...) to broadcast over an ndim-d (N, C, ...) input."""
    return t.reshape((1, t.shape[0]) + (1,) * (ndim - 2))


def channel_affine(y: Tensor, weight: Tensor | None, bias: Tensor | None) -> Tensor:
    """y * weight[c] + bias[c] along axis 1 (either may be None: no scale / no shift)."""
    if weight is not None:
        y = y * per_channel(weight, y.ndim)
    if bias is not None:
        y = y + per_channel(bias, y.ndim)
    return y


@replayed
def update_running(running: Tensor, batch: np.ndarray, factor: float, scale: float = 1.0) -> None:
    """running <- (1 - factor) * running + factor * (batch * scale), in place (so the buffer,
    its ``state_dict`` entry and any alias see the new value); no gradient flows. Replayed in
    a captured step, with that replay's batch statistics."""
    if scale != 1.0:
        batch = batch * scale
    new = (1.0 - factor) * running.data + factor * batch.astype(running.data.dtype, copy=False)
    np.copyto(running.data, new, casting="unsafe")


def check_channels(name: str, t: Tensor | None, channels: int) -> None:
    """PyTorch's check that a per-channel tensor holds one value per channel."""
    if t is not None and t.data.size != channels:
        raise RuntimeError(f"{name} should contain {channels} elements not {t.data.size}")


def verify_batch_size(size: Sequence[int]) -> None:
    """Training statistics need more than one value per channel (PyTorch's rule)."""
    if size[0] * int(np.prod(size[2:], dtype=np.int64)) == 1:
        raise ValueError("Expected more than 1 value per channel when training, "
                         f"got input size {list(size)}")


def register_affine(module: Module, channels: int, affine: bool, bias: bool, dtype: np.dtype) -> None:
    """Give ``module`` a per-channel ``weight`` (ones) and, with ``bias``, a ``bias``
    (zeros) when ``affine``; the ones not learned are registered as None (PyTorch's keys)."""
    module.register_parameter("weight", Parameter(np.ones(channels, dtype=dtype)) if affine else None)
    module.register_parameter("bias", Parameter(np.zeros(channels, dtype=dtype))
                              if affine and bias else None)


def reset_affine(module: Module) -> None:
    """weight <- 1 and bias <- 0, in place, for those the module has."""
    if module.weight is not None:
        module.weight.data[...] = 1
    if module.bias is not None:
        module.bias.data[...] = 0

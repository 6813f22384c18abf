"""Batch normalisation (Ioffe and Szegedy, 2015), as ``torch.nn.BatchNorm1d/2d/3d``.

In training each channel c of x (N, C, *spatial) is normalised with the mean and biased
variance of its N * prod(spatial) values, y = (x - mean) / sqrt(var + eps) * weight + bias,
and the running statistics move towards the batch's: running <- (1 - m) running + m batch,
with the *unbiased* batch variance (n / (n - 1) times the biased one), as PyTorch. In
evaluation the running statistics replace the batch's. ``momentum=None`` makes m = 1 / t on
the t-th training batch (``num_batches_tracked``): a cumulative average of every batch.

In training the normalisation, the affine map and the running statistics' move are one op
(``minigrad.ops.batchnorm``, a fused kernel per channel on the fast backend) when the
weight and bias share the input's float dtype; its composite, for ``create_graph``, is the
same normalisation in small ops (``norm_axes.normalize_over``'s formula).

Under data-parallel training (:mod:`minigrad.distributed`) each rank normalises with the
statistics of its own slice of the batch and updates its own running statistics, as
PyTorch's plain BatchNorm under ``DistributedDataParallel``: the gradients are averaged,
the statistics are not, so BatchNorm sees batch B/N, not B. minigrad's
``DistributedDataParallel`` broadcasts buffers only when it is built (PyTorch's also before
every forward), so the ranks' running statistics drift apart: evaluate or save from one rank.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.device import check_device
from minigrad.ops.batchnorm import BatchNormFunction
from minigrad.step_capture import cannot_replay, replayed
from minigrad.tensor import Tensor

from .module import Module
from .norm_axes import (
    channel_affine,
    check_channels,
    normalize_over,
    per_channel,
    register_affine,
    reset_affine,
    update_running,
    verify_batch_size,
)


def batch_norm(input: Tensor, running_mean: Tensor | None, running_var: Tensor | None,
               weight: Tensor | None = None, bias: Tensor | None = None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Normalise each channel (axis 1) of input (N, C, *) over N and the trailing dims.

    ``training``: batch statistics, and the running ones (if given) updated in place with
    factor ``momentum`` and the unbiased batch variance. Otherwise the running statistics
    normalise (they are required). ``weight``/``bias`` (C,) scale and shift each channel.
    """
    if not isinstance(input, Tensor) or input.dtype.kind != "f":
        raise TypeError("batch_norm: input must be a floating-point Tensor, got "
                        f"{getattr(input, 'dtype', type(input).__name__)}")
    if input.ndim < 2:
        raise ValueError(f"batch_norm: expected an input (N, C, *) of at least 2 dims, "
                         f"got shape {input.shape}")
    channels = input.shape[1]
    for name, t in (("running_mean", running_mean), ("running_var", running_var),
                    ("weight", weight), ("bias", bias)):
        check_channels(name, t, channels)
    if input.data.size == 0:  # no values, no statistics: the running ones stay (as PyTorch)
        return channel_affine(input, weight, bias)
    dims = (0,) + tuple(range(2, input.ndim))
    if training:
        verify_batch_size(input.shape)
        if _fusable(input, weight, bias):
            return _fused(input, running_mean, running_var, weight, bias, momentum, eps)
        y, mean, var = normalize_over(input, dims, eps)
        n = input.data.size // channels
        if running_mean is not None:
            update_running(running_mean, mean.data.reshape(channels), momentum)
        if running_var is not None:
            update_running(running_var, var.data.reshape(channels), momentum, n / (n - 1))
    else:
        if running_mean is None or running_var is None:
            raise RuntimeError("running_mean must be defined in evaluation mode")
        mean = Tensor(running_mean.data.astype(input.dtype, copy=False))
        var = Tensor(running_var.data.astype(input.dtype, copy=False))
        y = (input - per_channel(mean, input.ndim)) * (per_channel(var, input.ndim) + eps).rsqrt()
    return channel_affine(y, weight, bias)


@replayed
def count_batch(num_batches_tracked: Tensor) -> None:
    """num_batches_tracked += 1, in place (replayed in a captured step)."""
    num_batches_tracked.data[...] += 1


def _fusable(x: Tensor, weight: Tensor | None, bias: Tensor | None) -> bool:
    """Whether the one-op form applies: a float32 or float64 input whose weight and bias
    (those given) share its dtype (mixed dtypes promote through the small ops instead)."""
    return x.dtype in (np.float32, np.float64) and all(
        t is None or t.dtype == x.dtype for t in (weight, bias))


def _fused(x: Tensor, running_mean: Tensor | None, running_var: Tensor | None,
           weight: Tensor | None, bias: Tensor | None, momentum: float, eps: float) -> Tensor:
    """Training batch norm as one op (minigrad.ops.batchnorm): the statistics, y and the
    running statistics' move in one call, the backward in one; an absent weight or bias is
    a constant 1 or 0."""
    c = x.shape[1]
    w = weight if weight is not None else Tensor(np.ones(c, dtype=x.dtype))
    b = bias if bias is not None else Tensor(np.zeros(c, dtype=x.dtype))
    return BatchNormFunction.apply(
        x, w, b, eps=eps, momentum=momentum,
        running_mean=None if running_mean is None else running_mean.data,
        running_var=None if running_var is None else running_var.data)


class _NormBase(Module):
    """Per-channel weight and bias (``affine``; ``bias=False`` drops the bias) and, with ``track_running_stats``, the
    buffers ``running_mean`` (zeros), ``running_var`` (ones) and ``num_batches_tracked``
    (an int64 count); without it all three are None. Shared by BatchNorm and InstanceNorm."""

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = True, track_running_stats: bool = True, device: Any = None,
                 dtype: Any = None, *, bias: bool = True) -> None:
        super().__init__()
        check_device(device)
        dt = np.dtype(np.float32 if dtype is None else dtype)
        self.num_features = int(num_features)
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        register_affine(self, self.num_features, affine, bias, dt)
        if track_running_stats:
            self.register_buffer("running_mean", np.zeros(self.num_features, dtype=dt))
            self.register_buffer("running_var", np.ones(self.num_features, dtype=dt))
            self.register_buffer("num_batches_tracked", np.array(0, dtype=np.int64))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)

    def reset_running_stats(self) -> None:
        """running_mean <- 0, running_var <- 1, num_batches_tracked <- 0 (in place)."""
        if self.track_running_stats:
            self.running_mean.data[...] = 0
            self.running_var.data[...] = 1
            self.num_batches_tracked.data[...] = 0

    def reset_parameters(self) -> None:
        """Running statistics reset; weight <- 1, bias <- 0."""
        self.reset_running_stats()
        reset_affine(self)

    def _convert_old_state(self, state: Any, prefix: str) -> Any:
        # PyTorch fills a missing num_batches_tracked (a state saved before it existed)
        # with the module's own count rather than refusing the state: so do we.
        key = prefix + "num_batches_tracked"
        if self.num_batches_tracked is not None and key not in state and \
                prefix + "running_mean" in state:
            state = dict(state)
            state[key] = self.num_batches_tracked.data.copy()
        return state

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
                f"affine={self.affine}, bias={self.bias is not None}, "
                f"track_running_stats={self.track_running_stats}")


class _BatchNorm(_NormBase):
    """BatchNorm over (N, C, *): batch statistics in training (or when no running
    statistics are tracked), running statistics in evaluation; see the module docstring."""

    _dims: tuple[int, ...] = ()

    def _check_input_dim(self, input: Tensor) -> None:
        if input.ndim not in self._dims:
            want = " or ".join(f"{d}D" for d in self._dims)
            raise ValueError(f"expected {want} input (got {input.ndim}D input)")

    def forward(self, input: Tensor) -> Tensor:
        self._check_input_dim(input)
        factor = 0.0 if self.momentum is None else self.momentum
        counting = self.training and self.track_running_stats and \
            self.num_batches_tracked is not None
        if counting:
            verify_batch_size(input.shape)  # before the count moves: a refused batch changes nothing
            count_batch(self.num_batches_tracked)
            if self.momentum is None:  # the factor is read from the count, on the host
                cannot_replay("BatchNorm with momentum=None reads num_batches_tracked")
                factor = 1.0 / float(self.num_batches_tracked.data)
        use_batch = self.training or (self.running_mean is None and self.running_var is None)
        keep = not self.training or self.track_running_stats
        return batch_norm(input, self.running_mean if keep else None,
                          self.running_var if keep else None, self.weight, self.bias,
                          use_batch, factor, self.eps)


class BatchNorm1d(_BatchNorm):
    """BatchNorm over (N, C) or (N, C, L) inputs, per channel C."""

    _dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    """BatchNorm over (N, C, H, W) inputs, per channel C."""

    _dims = (4,)


class BatchNorm3d(_BatchNorm):
    """BatchNorm over (N, C, D, H, W) inputs, per channel C."""

    _dims = (5,)


__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "batch_norm"]

"""Instance normalisation (Ulyanov et al., 2016), as ``torch.nn.InstanceNorm1d/2d/3d``.

Each (sample, channel) plane of x (N, C, *spatial) is normalised over its spatial values:
it is batch normalisation of x reshaped to (1, N * C, *spatial), which is how it is
computed here (and in PyTorch). With running statistics the N per-sample statistics of a
channel are averaged before they move the running ones (unbiased variances, as BatchNorm).
Defaults differ from BatchNorm: no affine parameters and no running statistics.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from minigrad.step_capture import cannot_replay
from minigrad.tensor import Tensor

from .batchnorm import _NormBase, batch_norm
from .norm_axes import channel_affine, check_channels


def instance_norm(input: Tensor, running_mean: Tensor | None = None,
                  running_var: Tensor | None = None, weight: Tensor | None = None,
                  bias: Tensor | None = None, use_input_stats: bool = True, momentum: float = 0.1,
                  eps: float = 1e-5) -> Tensor:
    """Normalise each (sample, channel) of input (N, C, *) over its trailing dims.

    ``use_input_stats``: each plane's own statistics, and the running ones (C,), if given,
    move by ``momentum`` towards their mean over the batch; otherwise the running
    statistics normalise every plane. ``weight``/``bias`` (C,) scale and shift each channel.
    """
    if input.ndim < 2:
        raise ValueError(f"instance_norm: expected an input (N, C, *) of at least 2 dims, "
                         f"got shape {input.shape}")
    n, c = input.shape[:2]
    for name, t in (("running_mean", running_mean), ("running_var", running_var)):
        check_channels(name, t, c)
    if use_input_stats and int(np.prod(input.shape[2:], dtype=np.int64)) == 1:
        raise ValueError("Expected more than 1 spatial element when training, "
                         f"got input size {list(input.shape)}")
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined "
                           "when use_input_stats is false")
    tiled = [None if t is None else Tensor(np.tile(t.data, n)) for t in (running_mean, running_var)]
    folded = input.reshape((1, n * c) + input.shape[2:])
    y = batch_norm(folded, tiled[0], tiled[1], None, None, use_input_stats, momentum, eps)
    if use_input_stats and input.data.size:  # an empty batch leaves them (PyTorch makes nan)
        if running_mean is not None or running_var is not None:
            cannot_replay("instance_norm updates its running statistics with NumPy")
        for running, per_sample in zip((running_mean, running_var), tiled):
            if running is not None:
                np.copyto(running.data, per_sample.data.reshape(n, c).mean(0), casting="unsafe")
    return channel_affine(y.reshape(input.shape), weight, bias)


class _InstanceNorm(_NormBase):
    """InstanceNorm over (N, C, *spatial) or the unbatched (C, *spatial)."""

    _spatial = 0

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float | None = 0.1,
                 affine: bool = False, track_running_stats: bool = False, device: Any = None,
                 dtype: Any = None, *, bias: bool = True) -> None:
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype,
                         bias=bias)

    def forward(self, input: Tensor) -> Tensor:
        unbatched = self._spatial + 1
        if input.ndim not in (unbatched, unbatched + 1):
            raise ValueError(f"expected {unbatched}D or {unbatched + 1}D input "
                             f"(got {input.ndim}D input)")
        feature_dim = input.ndim - unbatched
        if input.shape[feature_dim] != self.num_features:
            if self.affine:
                raise ValueError(
                    f"expected input's size at dim={feature_dim} to match num_features "
                    f"({self.num_features}), but got: {input.shape[feature_dim]}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. "
                          "You can silence this warning by not passing in num_features, "
                          "which is not used because affine=False", stacklevel=2)
        x = input.reshape((1,) + input.shape) if input.ndim == unbatched else input
        y = instance_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                          self.training or not self.track_running_stats,
                          0.0 if self.momentum is None else self.momentum, self.eps)
        return y.reshape(input.shape)


class InstanceNorm1d(_InstanceNorm):
    """InstanceNorm over (N, C, L) or unbatched (C, L), per sample and channel."""

    _spatial = 1


class InstanceNorm2d(_InstanceNorm):
    """InstanceNorm over (N, C, H, W) or unbatched (C, H, W), per sample and channel."""

    _spatial = 2


class InstanceNorm3d(_InstanceNorm):
    """InstanceNorm over (N, C, D, H, W) or unbatched (C, D, H, W), per sample and channel."""

    _spatial = 3

"""Sinusoidal positional encoding ("Attention Is All You Need", section 3.5).

PE[pos, 2i]   = sin(pos / 10000^(2i / d_model))
PE[pos, 2i+1] = cos(pos / 10000^(2i / d_model))
Each pair of dimensions is a sine/cosine of one frequency; the wavelengths
grow geometrically from 2*pi to 10000*2*pi, so every position gets a
distinct code and a fixed offset is a linear map of it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.tensor import Tensor

from .module import Module


def sinusoidal_table(max_len: int, d_model: int) -> np.ndarray:
    """The (max_len, d_model) float64 table above; for odd d_model the last
    (even) column is a sine with no cosine partner."""
    pos = np.arange(max_len, dtype=np.float64)[:, None]
    two_i = np.arange(0, d_model, 2, dtype=np.float64)  # 2i for each sin/cos pair
    angle = pos / np.power(10000.0, two_i / d_model)  # (max_len, ceil(d/2))
    pe = np.empty((max_len, d_model), dtype=np.float64)
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle[:, : d_model // 2])
    return pe


class PositionalEncoding(Module):
    """forward(x) = x + PE[:T] for x of shape (B, T, d_model) (or (T, d_model)).

    The table is a buffer, not a parameter (it is not learned). It is
    registered non-persistent: it is a fixed function of (d_model, max_len),
    so it is not written into checkpoints.
    """

    def __init__(self, d_model: int, max_len: int = 5000, dtype: Any = np.float32) -> None:
        super().__init__()
        for name, v in (("d_model", d_model), ("max_len", max_len)):
            if not isinstance(v, (int, np.integer)) or v <= 0:
                raise ValueError(f"PositionalEncoding: {name} must be a positive integer, got {v!r}")
        self.d_model = int(d_model)
        self.max_len = int(max_len)
        self.register_buffer("pe", sinusoidal_table(max_len, d_model).astype(dtype), persistent=False)

    def forward(self, x: Tensor) -> Tensor:
        if x.ndim < 2 or x.shape[-1] != self.d_model:
            raise ValueError(
                f"PositionalEncoding: expected input (B, T, {self.d_model}), got shape {x.shape}"
            )
        T = x.shape[-2]
        if T > self.max_len:
            raise ValueError(f"PositionalEncoding: sequence length {T} exceeds max_len {self.max_len}")
        return x + self.pe.data[:T].astype(x.dtype, copy=False)

    def extra_repr(self) -> str:
        return f"d_model={self.d_model}, max_len={self.max_len}"

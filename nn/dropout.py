"""Dropout: randomly zero activations while training, to regularise.

Inverted dropout: each element is kept with probability 1 - p and then
scaled by 1 / (1 - p), so the expected value is unchanged and evaluation
needs no rescaling (dropout is the identity in eval mode). The mask is drawn
from ``minigrad.random.generator()``, so ``manual_seed`` makes it repeatable.
"""

from __future__ import annotations

import numpy as np

from minigrad.ops.dropout import DropoutFunction
from minigrad.random import generator
from minigrad.step_capture import replayed
from minigrad.tensor import Tensor

from .module import Module


def _check_p(p: float) -> float:
    if not isinstance(p, (int, float, np.floating)) or not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability must be in [0, 1], got {p!r}")
    return float(p)


@replayed
def dropout_mask(shape: tuple, p: float, dtype: np.dtype) -> np.ndarray:
    """keep / (1 - p) with keep ~ Bernoulli(1 - p), in ``dtype`` (all zeros when p == 1);
    a captured step draws a new mask at each replay (``minigrad.step_capture.replayed``)."""
    if p >= 1.0:
        return np.zeros(shape, dtype=dtype)
    keep = generator().random(shape, dtype=np.float32) >= p
    return keep.astype(dtype) * dtype.type(1.0 / (1.0 - p))


def dropout(input: Tensor, p: float = 0.5, training: bool = True) -> Tensor:
    """Inverted dropout of x (any shape); the identity when not training or p == 0."""
    p = _check_p(p)
    if not training or p == 0.0:
        return input
    return DropoutFunction.apply(input, scaled_mask=dropout_mask(input.shape, p, input.dtype))


class Dropout(Module):
    """Zero each element with probability ``p`` in training (scaling the rest by
    1/(1-p)); the identity in eval mode."""

    def __init__(self, p: float = 0.5) -> None:
        super().__init__()
        self.p = _check_p(p)

    def forward(self, input: Tensor) -> Tensor:
        return dropout(input, self.p, self.training)

    def extra_repr(self) -> str:
        return f"p={self.p}"

"""Dimension arguments, checked once: every op that takes ``dim`` names its axis through here.

PyTorch accepts ``dim`` in ``[-n, n)`` for a tensor of ``n`` dims (a 0-d tensor takes 0 and -1)
and raises ``IndexError`` for anything else; wrapping a dim with ``%`` would silently pick
another axis, so no op normalises a dim by hand.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def check_dim(dim: Any, ndim: int, name: str, word: str = "dim") -> int:
    """``dim`` as a non-negative axis of a tensor with ``ndim`` dims, or IndexError.

    Valid dims are ``-max(ndim, 1) <= dim < max(ndim, 1)`` (PyTorch's range). For an op that
    inserts an axis (``unsqueeze``), pass ``ndim + 1``. ``word`` is how the message names the
    argument (``dim`` in PyTorch's spelling, ``axis`` in NumPy's)."""
    n = max(ndim, 1)
    if isinstance(dim, bool) or not isinstance(dim, (int, np.integer)):
        raise TypeError(f"{name}: {word} must be an int, got {type(dim).__name__}")
    if not -n <= dim < n:
        raise IndexError(f"{name}: {word} {dim} is out of range for a tensor with {ndim} dims "
                         f"(Dimension out of range: expected to be in range of [{-n}, {n - 1}])")
    return int(dim) % n


def normalize_axes(axis: Any, ndim: int) -> tuple:
    """``axis`` (None: every axis, an int or a sequence of ints, negatives allowed) as a sorted
    tuple of distinct non-negative axes; a dim named twice is an error, as in PyTorch."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    out = [check_dim(ax, ndim, "reduction", "axis") for ax in axes]
    if ndim == 0:  # 0 and -1 both name the one "axis" of a 0-d tensor: nothing to reduce
        return ()
    for i, ax in enumerate(out):
        if ax in out[:i]:
            raise RuntimeError(f"dim {ax} appears multiple times in the list of dims")
    return tuple(sorted(out))

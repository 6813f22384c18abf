"""``pad`` (``F.pad``) and the padding layers, PyTorch's names: ``pad`` over the last 1, 2
or 3 dims with a fixed amount and mode.

``padding``: an int (every side) or a 2d-tuple (left, right[, top, bottom[, front, back]]),
last dim first as ``F.pad`` reads it. Zero and Constant pads fill with a value; Reflection
mirrors without repeating the edge, Replication repeats the edge, Circular wraps around.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.constructors import full
from minigrad.ops.shapes import cat
from minigrad.tensor import Tensor

from .module import Module


def pad(input: Tensor, pad: Any, mode: str = "constant", value: float = 0.0) -> Tensor:
    """Pad the last dims, as PyTorch: ``pad = (left, right)`` for the last dim, then
    ``(left, right, top, bottom)`` adds the second-to-last, and so on; negative amounts crop.

    ``mode``: "constant" fills with ``value``; the others read the input, so each padded
    dim is a gather of the source positions j in [-left, n + right): "replicate" reads
    clip(j, 0, n - 1), "reflect" mirrors without repeating the edge (pad < n), "circular"
    wraps, j mod n (pad <= n; negative amounts crop first). A gather's gradient adds back
    to where it read (index_add).
    """
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise ValueError(f"pad: mode must be 'constant', 'reflect', 'replicate' or 'circular', "
                         f"got {mode!r}")
    pad = tuple(int(p) for p in pad)
    if len(pad) % 2 or len(pad) // 2 > input.ndim:
        raise ValueError(f"pad: needs pairs for at most {input.ndim} dims, got {pad}")
    out = input
    for i in range(len(pad) // 2):
        d, (lo, hi) = input.ndim - 1 - i, pad[2 * i: 2 * i + 2]
        if mode != "constant":
            out = out.index_select(d, _pad_source(out.shape[d], lo, hi, mode))
            continue
        n = out.shape[d]
        idx = [slice(None)] * out.ndim
        idx[d] = slice(max(-lo, 0), n - max(-hi, 0))  # negative padding crops
        out = out[tuple(idx)]
        parts = []
        for k in (lo, hi):
            shape = list(out.shape)
            shape[d] = max(k, 0)
            parts.append(full(shape, value, dtype=input.dtype))
        out = cat([parts[0], out, parts[1]], dim=d)
    return out


def _pad_source(n: int, lo: int, hi: int, mode: str) -> np.ndarray:
    """The source index of each output position along one padded dim of size ``n``."""
    j = np.arange(-lo, n + hi)
    if mode == "replicate":
        if n == 0 and j.size:
            raise ValueError("pad: 'replicate' needs a non-empty dim to copy from")
        return np.clip(j, 0, n - 1)
    if mode == "circular":  # crop first, then wrap around what is left, as PyTorch
        start, stop = max(-lo, 0), n - max(-hi, 0)
        if max(lo, hi) > stop - start:
            raise ValueError(f"pad: 'circular' padding ({lo}, {hi}) exceeds the dim's size {n}")
        k = np.arange(-max(lo, 0), stop - start + max(hi, 0))
        return start + k % (stop - start) if stop > start else k
    if max(lo, hi) >= n:
        raise ValueError(f"pad: 'reflect' padding ({lo}, {hi}) must be smaller than the dim's "
                         f"size {n}")
    period = 2 * (n - 1)
    m = j % period if period else np.zeros_like(j)
    return np.where(m < n, m, period - m)


class _PadNd(Module):
    """F.pad(x, padding, mode, value) for the last ``d`` dims."""

    d = 0
    mode = "constant"

    value = 0.0  # what the non-constant modes ignore; _ConstantPadNd takes it as an argument

    def __init__(self, padding: Any) -> None:
        super().__init__()
        n = 2 * self.d
        if isinstance(padding, (tuple, list)):
            if len(padding) != n:
                raise ValueError(f"{type(self).__name__}: padding must be an int or a tuple of "
                                 f"{n} ints, got {padding!r}")
            self.padding = tuple(int(p) for p in padding)
        else:
            self.padding = (int(padding),) * n

    def forward(self, input: Tensor) -> Tensor:
        if self.mode != "constant" and input.ndim not in (self.d + 1, self.d + 2):
            raise ValueError(f"expected {self.d + 1}D or {self.d + 2}D input (got "
                             f"{input.ndim}D input)")
        return pad(input, self.padding, self.mode, self.value)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class _ConstantPadNd(_PadNd):
    """Pads with ``value``."""

    def __init__(self, padding: Any, value: float) -> None:
        super().__init__(padding)
        self.value = float(value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}"


class _ZeroPadNd(_ConstantPadNd):
    """Pads with zeros."""

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)

    def extra_repr(self) -> str:
        return f"{self.padding}"


class ZeroPad1d(_ZeroPadNd):
    """Zeros on both sides of the last dim."""

    d = 1


class ZeroPad2d(_ZeroPadNd):
    """Zeros around the last 2 dims."""

    d = 2


class ZeroPad3d(_ZeroPadNd):
    """Zeros around the last 3 dims."""

    d = 3


class ConstantPad1d(_ConstantPadNd):
    """``value`` on both sides of the last dim."""

    d = 1


class ConstantPad2d(_ConstantPadNd):
    """``value`` around the last 2 dims."""

    d = 2


class ConstantPad3d(_ConstantPadNd):
    """``value`` around the last 3 dims."""

    d = 3


class ReflectionPad1d(_PadNd):
    """Mirror of the last dim without repeating its edge (padding < its size)."""

    d, mode = 1, "reflect"


class ReflectionPad2d(_PadNd):
    """Mirror of the last 2 dims without repeating their edges."""

    d, mode = 2, "reflect"


class ReflectionPad3d(_PadNd):
    """Mirror of the last 3 dims without repeating their edges."""

    d, mode = 3, "reflect"


class ReplicationPad1d(_PadNd):
    """The edge of the last dim, repeated."""

    d, mode = 1, "replicate"


class ReplicationPad2d(_PadNd):
    """The edges of the last 2 dims, repeated."""

    d, mode = 2, "replicate"


class ReplicationPad3d(_PadNd):
    """The edges of the last 3 dims, repeated."""

    d, mode = 3, "replicate"


class CircularPad1d(_PadNd):
    """The last dim wrapped around (padding <= its size)."""

    d, mode = 1, "circular"


class CircularPad2d(_PadNd):
    """The last 2 dims wrapped around."""

    d, mode = 2, "circular"


class CircularPad3d(_PadNd):
    """The last 3 dims wrapped around."""

    d, mode = 3, "circular"

"""Selecting values by a boolean mask: masked_fill, where, tril/triu.

Masks and conditions may be Tensors or NumPy arrays; they never get gradients.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..function import Function
from ..kernels import masked_fill as K
from .broadcast import unbroadcast


def _as_bool_mask(mask: Any, name: str) -> np.ndarray:
    m = getattr(mask, "data", mask)
    m = np.asarray(m)
    if m.dtype != np.bool_:
        raise TypeError(f"{name}: the mask must be boolean, got dtype {m.dtype}")
    return m


class MaskedFill(Function):
    """out = value where mask else x (Numba kernel); mask broadcasts to x."""

    @staticmethod
    def forward(ctx, x, mask, value):
        ctx.mask = mask
        return K.masked_fill(x, mask, value)

    @staticmethod
    def backward(ctx, grad):
        # d out/dx = 0 where the mask is set, 1 elsewhere
        return K.masked_fill(grad, ctx.mask, 0.0)


def masked_fill(x, mask: Any, value: float):
    """Copy of ``x`` with ``value`` where ``mask`` is True; mask broadcasts to x."""
    m = _as_bool_mask(mask, "masked_fill")
    try:
        if np.broadcast_shapes(m.shape, x.shape) != x.shape:
            raise ValueError
    except ValueError:
        raise ValueError(
            f"masked_fill: mask of shape {m.shape} does not broadcast to the tensor's "
            f"shape {x.shape}"
        ) from None
    return MaskedFill.apply(x, mask=m, value=value)


class Where(Function):
    """out = a where cond else b (all three broadcast together)."""

    promote = "binary"

    @staticmethod
    def forward(ctx, a, b, cond):
        ctx.info = (cond, a.shape, b.shape)
        return np.where(cond, a, b)

    @staticmethod
    def backward(ctx, grad):
        # d where(c, a, b)/da = c, /db = not c
        cond, sa, sb = ctx.info
        zero = np.zeros((), dtype=grad.dtype)
        ga = unbroadcast(np.where(cond, grad, zero), sa)
        gb = unbroadcast(np.where(cond, zero, grad), sb)
        return ga, gb


def where(condition: Any, a: Any, b: Any):
    """Elementwise ``a`` where ``condition`` else ``b`` (all broadcast together)."""
    from ..tensor import Tensor, as_tensor_like

    c = _as_bool_mask(condition, "where")
    ref = a if isinstance(a, Tensor) else b if isinstance(b, Tensor) else None
    a = a if isinstance(a, Tensor) else as_tensor_like(a, ref)
    b = b if isinstance(b, Tensor) else as_tensor_like(b, ref)
    try:
        np.broadcast_shapes(c.shape, a.shape, b.shape)
    except ValueError:
        raise ValueError(
            f"where: condition {c.shape}, a {a.shape} and b {b.shape} cannot be broadcast together"
        ) from None
    return Where.apply(a, b, cond=c)


def _triangle(x: Any, diagonal: int, lower: bool):
    from ..tensor import Tensor

    t = x if isinstance(x, Tensor) else Tensor(x)
    if t.ndim < 2:
        raise ValueError(f"tril/triu need at least 2 dimensions, got shape {t.shape}")
    n, m = t.shape[-2:]
    keep = np.tri(n, m, diagonal, dtype=bool) if lower else ~np.tri(n, m, diagonal - 1, dtype=bool)
    if t.dtype == np.bool_:
        return Tensor(t.data & keep)
    return masked_fill(t, ~keep, 0)


def tril(x: Any, diagonal: int = 0):
    """Keep the lower triangle (j <= i + diagonal) of the last two axes, zero the rest.

    ``tril(ones(T, T))`` is the causal "may attend" matrix of the seeds.
    """
    return _triangle(x, diagonal, lower=True)


def triu(x: Any, diagonal: int = 0):
    """Keep the upper triangle (j >= i + diagonal), zero the rest.

    ``triu(ones(T, T, dtype=bool), 1)`` is the causal mask "may not attend".
    """
    return _triangle(x, diagonal, lower=False)


def causal_mask(t_q: int, t_k: int | None = None) -> np.ndarray:
    """Boolean (t_q, t_k) mask, True above the diagonal: query i may not attend key j > i.

    With t_k > t_q (a key/value cache holding earlier positions), the queries
    are the last t_q positions of the t_k keys.
    """
    t_k = t_q if t_k is None else t_k
    return ~np.tri(t_q, t_k, t_k - t_q, dtype=bool)

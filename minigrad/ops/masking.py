"""Selecting values by a boolean mask: masked_fill, where, tril/triu.

Masks and conditions may be Tensors or NumPy arrays; they never get gradients.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import backends
from ..backends.reference import causal_mask
from ..function import Function
from .broadcast import unbroadcast

__all__ = ["MaskedFill", "Where", "causal_mask", "check_mask", "masked_fill", "tril", "triu",
           "where"]


def check_mask(mask: Any, name: str, shape: tuple | None = None, what: str = "") -> np.ndarray:
    """The one mask validator: ``mask`` (Tensor or array) as a bool ndarray the op owns
    (a copy, so a caller reusing its buffer cannot change a saved mask). TypeError if not
    boolean; ValueError if ``shape`` is given and the mask does not broadcast to it
    (``what`` names the axes of ``shape`` in the message)."""
    m = np.array(getattr(mask, "data", mask))
    if m.dtype != np.bool_:
        raise TypeError(f"{name} must be boolean (True = masked), got dtype {m.dtype}")
    if shape is not None:
        try:
            ok = np.broadcast_shapes(m.shape, shape) == tuple(shape)
        except ValueError:
            ok = False
        if not ok:
            raise ValueError(f"{name} of shape {m.shape} does not broadcast to "
                             f"{what + ' = ' if what else 'shape '}{tuple(shape)}")
    return m


class MaskedFill(Function):
    """out = value where mask else x; mask broadcasts to x."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, x, mask, value):
        ctx.mask = mask
        return backends.active.masked_fill(x, mask, value)

    @staticmethod
    def backward(ctx, grad):
        # d out/dx = 0 where the mask is set, 1 elsewhere
        return ctx.xp.masked_fill(grad, ctx.mask, 0.0)


def masked_fill(x, mask: Any, value: float):
    """Copy of ``x`` with ``value`` where ``mask`` is True; mask broadcasts to x."""
    m = check_mask(mask, "masked_fill: the mask", x.shape, "the tensor's shape")
    return MaskedFill.apply(x, mask=m, value=value)


class Where(Function):
    """out = a where cond else b (all three broadcast together)."""

    differentiable_backward = True

    promote = "binary"

    @staticmethod
    def forward(ctx, a, b, cond):
        ctx.info = (cond, a.shape, b.shape)
        return np.where(cond, a, b)

    @staticmethod
    def backward(ctx, grad):
        # d where(c, a, b)/da = c, /db = not c
        cond, sa, sb = ctx.info
        xp = ctx.xp
        zero = np.zeros((), dtype=grad.dtype)
        ga = unbroadcast(xp.where(cond, grad, zero), sa)
        gb = unbroadcast(xp.where(cond, zero, grad), sb)
        return ga, gb


def where(condition: Any, a: Any, b: Any):
    """Elementwise ``a`` where ``condition`` else ``b`` (all broadcast together)."""
    from ..tensor import Tensor, as_tensor_like

    c = check_mask(condition, "where: the condition")
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

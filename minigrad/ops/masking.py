"""Selecting values by a boolean mask: masked_fill, where (tril/triu are in tensor.py).

Masks and conditions may be Tensors or NumPy arrays; they never get gradients.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import backends
from ..backends.interface import causal_mask
from ..function import Function
from .broadcast import unbroadcast

__all__ = ["MaskedFill", "Where", "causal_mask", "check_mask", "masked_fill", "where"]


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


def masked_fill(x, mask: Any, value: Any, broadcast_input: bool = False):
    """Copy of ``x`` with ``value`` where ``mask`` is True; the mask broadcasts to ``x``
    (with ``broadcast_input``, torch.masked_fill's form, ``x`` and the mask broadcast
    together). A 0-d Tensor ``value`` that requires grad gets the sum of the gradient where
    the mask is set (then the op is ``where(mask, value, x)``)."""
    m = check_mask(mask, "masked_fill: the mask")
    try:
        shape = np.broadcast_shapes(m.shape, x.shape)
        if shape != x.shape and not broadcast_input:
            raise ValueError
    except ValueError:
        raise ValueError(f"masked_fill: the mask of shape {m.shape} does not broadcast with "
                         f"the tensor's shape {x.shape}") from None
    if hasattr(value, "requires_grad"):  # a Tensor value: 0-d, as PyTorch's
        if value.ndim != 0:
            raise ValueError(f"masked_fill: a tensor value must be 0-d, got shape {value.shape}")
        if value.requires_grad:
            return where(m, value.to(x.dtype), x)
    if shape != x.shape:
        x = x.expand(shape)
    return MaskedFill.apply(x, mask=m, value=getattr(value, "data", value))


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
    """Elementwise ``a`` where ``condition`` else ``b`` (all broadcast together); a number
    or array operand becomes a constant of the Tensor operand's dtype (Function.apply)."""
    c = check_mask(condition, "where: the condition")
    sa, sb = np.shape(getattr(a, "data", a)), np.shape(getattr(b, "data", b))
    try:
        np.broadcast_shapes(c.shape, sa, sb)
    except ValueError:
        raise ValueError(
            f"where: condition {c.shape}, a {sa} and b {sb} cannot be broadcast together"
        ) from None
    return Where.apply(a, b, cond=c)

"""Writing src values into a copy of a tensor at index positions: scatter, scatter_reduce.

PyTorch's addressing (as ``gather``/``scatter_add`` in ``indexing.py``): for a 3-d tensor and
``dim=1``, ``src[i][j][k]`` goes to ``out[i][index[i][j][k]][k]``; ``index`` may be smaller
than ``src`` in every dimension (only ``src``'s leading region of ``index``'s shape is sent).

- ``scatter`` writes (the tensor's value there is replaced); when an index repeats, which
  write wins is unspecified in PyTorch, here the last one;
- ``scatter_reduce`` combines every value sent to a position (``sum prod mean amax amin``),
  with the tensor's own value there unless ``include_self=False``.

The helpers at the bottom check the arguments and slice ``src`` to ``index``'s region (a
differentiable ``GetItem``), so the Functions see an ``src`` of exactly the index's shape.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..function import Function
from .array_ops import scatter_counts, scatter_reduce_arrays
from .indexing import along_index
from .shape_ops import GetItem

REDUCTIONS = ("sum", "prod", "mean", "amax", "amin")


class Scatter(Function):
    """out = a, then out[..., index, ...] = src along ``dim`` (``index`` prepared: a NumPy
    fancy index of src's shape)."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a, src, index):
        ctx.info = (index, a.shape)
        out = a.copy()
        out[index] = src
        return out

    @staticmethod
    def backward(ctx, grad):
        # d out/d a = 1 where nothing was written, else 0; d out/d src reads the gradient
        # back at the written positions (every src element, as PyTorch, even a write that lost)
        index, shape = ctx.info
        hit = scatter_counts(shape, index) > 0
        xp = ctx.xp
        ga = xp.where(hit, np.zeros((), grad.dtype), grad) if ctx.needs_input_grad[0] else None
        gs = xp.getitem(grad, index) if ctx.needs_input_grad[1] else None
        return ga, gs


def _equal(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """x == y elementwise, NaN equal to NaN (a NaN maximum is the NaN that made it)."""
    eq = x == y
    if x.dtype.kind == "f":
        eq |= np.isnan(x) & np.isnan(y)
    return eq


class ScatterReduce(Function):
    """out = a with each indexed position reduced with the src values sent to it (and with its
    own value when ``include_self``); ``reduce`` is one of sum, prod, mean, amax, amin.

    One difference from PyTorch 2.13, on purpose: for amax/amin with ``include_self=False``,
    PyTorch still counts the tensor's own value as a tie when it equals the result, and gives
    the src values there a share of the gradient only; here the own value is no member, so
    they get all of it (what finite differences measure)."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a, src, index, reduce, include_self):
        out = scatter_reduce_arrays(a, index, src, reduce, include_self)
        ctx.save_for_backward(a, src, out)
        ctx.info = (index, reduce, include_self)
        return out

    @staticmethod
    def backward(ctx, grad):
        # Each position's value is a reduction of its members: its own value (when included,
        # or when nothing was sent to it) and the src values sent to it. d out/d member:
        #   sum: 1; mean: 1/N (N members); amax/amin: 1/T for the T members equal to the
        #   result, else 0; prod: the product of the other members (exact with zeros).
        a, src, out = ctx.saved_tensors
        index, reduce, include_self = ctx.info
        xp = ctx.xp
        counts = scatter_counts(a.shape, index)
        own = include_self | (counts == 0)  # where a's own value is a member
        zero = np.zeros((), grad.dtype)
        if reduce in ("sum", "mean"):
            if reduce == "mean":
                grad = grad / (counts + own).astype(grad.dtype)
            return xp.where(own, grad, zero), xp.getitem(grad, index)
        if reduce in ("amax", "amin"):
            o, av, sv = xp.constant(out), xp.constant(a), xp.constant(src)
            own_hit, src_hit = own & _equal(av, o), _equal(sv, o[index])
            ties = own_hit.astype(np.int64)
            np.add.at(ties, index, src_hit)
            share = grad / np.maximum(ties, 1).astype(grad.dtype)
            return (xp.where(own_hit, share, zero),
                    xp.where(src_hit, xp.getitem(share, index), zero))
        needs = ctx.needs_input_grad
        return _prod_grads(xp, a, src, out, grad, index, own, include_self, needs)


def _prod_grads(xp, a, src, out, grad, index: tuple, own: np.ndarray, include_self: bool,
                needs: tuple):
    """Gradients of a scatter product: each member's is g times the product of the other
    members, computed without dividing by a zero.

    - a's own value (one per position): the product with a's zeros replaced by 1, divided by
      that 1 or by a itself: SR(a1, src) / a1;
    - a src value x: g * out / x when x != 0 (written with out, so its own derivative is
      right too); when x is its position's only zero among the src values: the product with
      x replaced by 1, SR(a, src1); a zero among several: 0 (another zero remains).

    SR is this op again (``xp.scatter_reduce``), so every term is differentiable; only the
    last case's second derivative is not (as in PyTorch), and create_graph refuses it. The
    division by x, differentiated again, cancels two terms of size 1/x: second derivatives
    lose precision for |x| near the smallest floats (as PyTorch's, which divides too)."""
    av, sv = xp.constant(a), xp.constant(src)
    one, zero = np.ones((), av.dtype), np.zeros((), av.dtype)
    ga = gs = None
    if needs[0]:
        a1 = xp.where(av == 0, one, a)
        ga = xp.where(own, grad * xp.scatter_reduce(a1, index, src, "prod", include_self) / a1,
                      zero)
    if needs[1]:
        src_zeros = np.zeros(av.shape, np.int64)
        np.add.at(src_zeros, index, sv == 0)
        lone = (sv == 0) & (src_zeros[index] == 1)
        if not isinstance(grad, np.ndarray) and ((sv == 0) & (src_zeros[index] > 1)).any():
            raise RuntimeError(
                "scatter_reduce(reduce='prod'): double backward is not supported where two or "
                "more zeros of src meet at one position (as PyTorch)")
        gs = xp.getitem(grad * out, index) / xp.where(sv == 0, one, src)
        if lone.any():
            rest = xp.scatter_reduce(a, index, xp.where(lone, one, src), "prod", include_self)
            gs = xp.where(lone, xp.getitem(grad * rest, index), gs)
    return ga, gs


def _prepare(name: str, t, dim: int, index: Any, src_shape: tuple) -> tuple:
    """Check ``index`` against the tensor and ``src``; return the fancy index and the slice of
    src's leading region of the index's shape (None when src has exactly that shape)."""
    index = np.array(getattr(index, "data", index))
    if index.ndim != len(src_shape):
        raise ValueError(f"{name}: index has {index.ndim} dims, src {len(src_shape)} "
                         f"({src_shape})")
    if any(i > s for i, s in zip(index.shape, src_shape)):
        raise ValueError(f"{name}: index shape {index.shape} exceeds src shape {src_shape}")
    idx = along_index(index, dim, t.shape, name)
    region = None if index.shape == tuple(src_shape) else tuple(slice(0, n) for n in index.shape)
    return idx, region


def scatter(t, dim: int, index: Any, src):
    """A copy of ``t`` with the tensor ``src`` (of t's dtype) written at ``index`` along
    ``dim`` (PyTorch's scatter, ``reduce=None``)."""
    if src.dtype != t.dtype:
        raise TypeError(f"scatter: src has dtype {src.dtype}, the tensor {t.dtype}: they must "
                        "match (as PyTorch)")
    idx, region = _prepare("scatter", t, dim, index, src.shape)
    if region is not None:
        src = GetItem.apply(src, index=region)
    return Scatter.apply(t, src, index=idx)


def scatter_reduce(t, dim: int, index: Any, src, reduce: str, include_self: bool = True):
    """PyTorch's scatter_reduce: each position of ``t`` named by ``index`` along ``dim``
    reduced with the ``src`` values sent to it (``reduce``: sum, prod, mean, amax, amin)."""
    if reduce not in REDUCTIONS:
        raise ValueError(f"scatter_reduce: reduce must be one of {REDUCTIONS}, got {reduce!r}")
    if src.dtype != t.dtype:
        raise TypeError(f"scatter_reduce: src has dtype {src.dtype}, the tensor {t.dtype}: "
                        "they must match (as PyTorch)")
    idx, region = _prepare("scatter_reduce", t, dim, index, src.shape)
    if region is not None:
        src = GetItem.apply(src, index=region)
    return ScatterReduce.apply(t, src, index=idx, reduce=reduce, include_self=bool(include_self))

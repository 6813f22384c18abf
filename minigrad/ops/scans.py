"""Running (cumulative) ops along one axis: cumprod, logcumsumexp, cummax and cummin.

``cumsum`` sits with the reductions (``reductions.py``); these are its relatives. Each
backward is written once (``ctx.xp``) and also serves ``create_graph``. cummax and cummin
are no Function of their own: their values are a gather of the input at the running
arg-max, so :func:`running_extremum_indices` computes those indices and ``Gather``
differentiates (the gradient goes to the chosen element, as PyTorch's).

The helpers below take an axis already checked and a tensor of at least one dimension
(the Tensor methods reshape a 0-d input to (1,) and back).
"""

from __future__ import annotations

import numpy as np

from ..function import Function


def _to_last(xp, a, axis: int):
    """``a`` with ``axis`` swapped with the last axis (its own inverse)."""
    return a if axis in (-1, a.ndim - 1) else xp.swapaxes(a, axis, -1)


def _cumprod_grad_exact(xp, a, grad):
    """d(sum_j g_j out_j)/da_i = sum_{j >= i} g_j prod_{k <= j, k != i} a_k along the last
    axis, with no division, so exact where ``a`` has zeros: prod_{k < i} a_k times
    sum_{j >= i} g_j R[i, j], R[i, j] = prod_{i < k <= j} a_k (an (n, n) table per row)."""
    n = a.shape[-1]
    ones = np.ones(a.shape[:-1] + (1,), dtype=a.dtype)
    before = xp.cumprod(xp.concatenate([ones, a[..., :-1]], axis=-1), axis=-1)
    later = np.triu(np.ones((n, n), dtype=bool), 1)           # [i, k]: k > i
    table = xp.cumprod(xp.where(later, a[..., None, :], 1.0), axis=-1)
    upper = np.triu(np.ones((n, n), dtype=bool))               # [i, j]: j >= i
    return before * (xp.where(upper, table, 0.0) * grad[..., None, :]).sum(-1)


def _division_is_exact(a: np.ndarray, out: np.ndarray) -> bool:
    """True when (g * out) / a loses nothing: no a is 0 and every out is finite and far
    enough above the smallest normal number (tiny / eps) that g * out stays normal for any
    |g| >= eps. Integer inputs never reach here (their cumprod has no gradient)."""
    if (a == 0).any() or not np.isfinite(out).all():
        return False
    info = np.finfo(out.dtype)
    return bool(out.size == 0 or np.abs(out).min() >= info.tiny / info.eps)


class CumProd(Function):
    """out_i = a_0 * a_1 * ... * a_i along ``axis``."""

    differentiable_backward = True
    promote = "sum"  # integers and bool multiply in int64, as PyTorch

    @staticmethod
    def forward(ctx, a, axis):
        ctx.axis = axis
        out = np.cumprod(a, axis=axis, dtype=a.dtype)
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        # d out_j/d a_i = out_j / a_i for j >= i: a reversed cumulative sum of g * out, over a;
        # where a has a zero that division is 0/0, and where out is so small that g * out
        # underflows (a = 5e-324: g * out = 0, so 0 / a), it loses the answer: the exact
        # (n, n) form is used instead. Recorded for a second derivative, the division's d/da
        # of (a * rest) / a cancels two terms of size rest / a (1e35 for a = 1e-36): the
        # exact form is used then too
        a, out = ctx.saved_tensors
        xp, ax = ctx.xp, ctx.axis
        if isinstance(grad, np.ndarray) and _division_is_exact(a, out):
            return xp.flip(xp.cumsum(xp.flip(grad * out, ax), ax), ax) / a
        exact = _cumprod_grad_exact(xp, _to_last(xp, a, ax), _to_last(xp, grad, ax))
        return _to_last(xp, exact, ax)


class LogCumSumExp(Function):
    """out_i = log(exp(a_0) + ... + exp(a_i)) along ``axis``, accumulated without overflow."""

    differentiable_backward = True
    promote = "float"

    @staticmethod
    def forward(ctx, a, axis):
        ctx.axis = axis
        out = np.logaddexp.accumulate(a, axis=axis, dtype=a.dtype)
        ctx.save_for_backward(a, out)
        return out

    @staticmethod
    def backward(ctx, grad):
        # d out_j/d a_i = exp(a_i - out_j) for j >= i (<= 1: out_j >= a_i), summed against g_j
        # in an (n, n) table per row, so no exp ever overflows
        a, out = ctx.saved_tensors
        xp, ax = ctx.xp, ctx.axis
        a_l, out_l, g_l = _to_last(xp, a, ax), _to_last(xp, out, ax), _to_last(xp, grad, ax)
        n = a_l.shape[-1]
        upper = np.triu(np.ones((n, n), dtype=bool))  # [i, j]: j >= i
        with np.errstate(invalid="ignore"):  # -inf - (-inf) where a prefix is all -inf
            weights = xp.exp(xp.where(upper, a_l[..., :, None] - out_l[..., None, :], -np.inf))
        return _to_last(xp, (weights * g_l[..., None, :]).sum(-1), ax)


def running_extremum_indices(a: np.ndarray, axis: int, largest: bool) -> np.ndarray:
    """int64 indices of the running maximum (``largest``) or minimum of ``a`` along ``axis``,
    PyTorch's cummax/cummin: a tie takes the latest index, and a NaN, once seen, stays the
    value (each later NaN its index). Element k starts or ties the running extremum when it
    equals the running value at k; index j is the last such k <= j."""
    running = (np.maximum if largest else np.minimum).accumulate(a, axis=axis)
    marks = a == running
    if a.dtype.kind == "f":
        marks |= np.isnan(a)
    shape = [1] * a.ndim
    shape[axis] = a.shape[axis]
    positions = np.where(marks, np.arange(a.shape[axis]).reshape(shape), 0)
    return np.maximum.accumulate(positions, axis=axis).astype(np.int64)

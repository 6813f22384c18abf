"""The fast backend: the reference primitives' names bound to the Numba kernels.

Every function here computes what the function of the same name in
``reference.py`` computes (tests/test_backends.py holds them equal); a
primitive without a kernel is the reference one, imported below. This is the
only module that imports ``minigrad.kernels`` (and so Numba); it is loaded
the first time the fast backend is selected. The choices that depend on the
operands (is this float32 and unmasked, so the fused attention kernel
applies? is the input contiguous enough for the one-pass linear gradient?)
are made here, not in the ops.
"""

from __future__ import annotations

import math

import numpy as np

from ..kernels import adamw as _adamw
from ..kernels import attention as _attention
from ..kernels import cross_entropy as _ce
from ..kernels import masked_softmax as _masked_softmax
from ..kernels import matmul as _matmul

# The primitives whose kernel takes every operand as it comes, bound as they are
# (F401: they are this module's interface, read as ``backends.active.<name>``).
from ..kernels.cross_entropy import cross_entropy  # noqa: F401
from ..kernels.disk_cache import notice_first_compile
from ..kernels.embedding import embedding_backward  # noqa: F401
from ..kernels.gelu import gelu, gelu_backward  # noqa: F401
from ..kernels.grad_norm import sum_of_squares  # noqa: F401
from ..kernels.layernorm import layer_norm, layer_norm_backward  # noqa: F401
from ..kernels.masked_fill import masked_fill  # noqa: F401
from ..kernels.matmul import matmul
from ..kernels.softmax import log_softmax, log_softmax_backward, softmax, softmax_backward  # noqa: F401
from . import reference
from .reference import adam_coefficients, causal_mask  # noqa: F401  (no kernel: shared)

NAME = "fast"

notice_first_compile()  # a first call that stalls on compiling says why (on a terminal)


def linear(x: np.ndarray, w: np.ndarray, b: np.ndarray | None) -> np.ndarray:
    """reference.linear: BLAS takes w.T as a transposed view (no copy); the bias is added
    by the threads into the fresh product when it shares x's dtype. A few rows of input
    (decoding: one per new token) read the weight at memory speed, split by rows of w."""
    rows = math.prod(x.shape[:-1])  # not reshape(-1, ...): ambiguous for in_features = 0
    if rows <= _matmul.FEW_ROWS:
        y = _matmul.linear_few_rows(x.reshape(rows, x.shape[-1]), w)
        if y is not None:
            if b is not None:
                y += b
            return y.reshape(x.shape[:-1] + (w.shape[0],))
    if b is None or x.ndim < 2 or b.dtype != x.dtype:
        y = matmul(x, w.T)
        if b is not None:
            y += b
        return y
    y = _matmul.matmul_bias(np.ascontiguousarray(x).reshape(rows, x.shape[-1]), w.T, b)
    return y.reshape(x.shape[:-1] + (w.shape[0],))


def linear_backward(g: np.ndarray, x: np.ndarray, w: np.ndarray, need_x: bool, need_w: bool,
                    need_b: bool) -> tuple:
    """reference.linear_backward: dx and dw together go to one kernel that gives each
    product a thread of its own (and sums db on the way)."""
    g2 = g.reshape(-1, g.shape[-1])
    x2 = x.reshape(-1, x.shape[-1])
    if need_x and need_w and g2.flags.c_contiguous and x2.flags.c_contiguous \
            and w.flags.c_contiguous and g2.dtype == x2.dtype == w.dtype:
        dx, dw, db = _matmul.linear_grads(g2, w, x2, need_b)
        return dx.reshape(x.shape), dw, db
    dx = matmul(g, w) if need_x else None
    dw = matmul(g2.T, x2) if need_w else None
    return dx, dw, (g2.sum(axis=0) if need_b else None)


def _fusable(*arrays: np.ndarray) -> bool:
    """Whether the fused float32 attention kernels apply: float32 operands."""
    return all(a.dtype == np.float32 for a in arrays)


def _heads(x: np.ndarray) -> np.ndarray:
    """(B, T, H, d) -> contiguous (B*H, T, d): a view when x's heads are already laid out
    so (the tiles :func:`attention` saves), else one copy."""
    B, T, H, d = x.shape
    return np.ascontiguousarray(np.swapaxes(x, 1, 2)).reshape(B * H, T, d)


def _unheads(x3: np.ndarray, B: int) -> np.ndarray:
    """(B*H, T, d) -> (B, T, H, d), a view (the inverse of :func:`_heads`)."""
    return np.swapaxes(x3.reshape(B, -1, x3.shape[-2], x3.shape[-1]), 1, 2)


def attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None,
              causal: bool, scale: float, drop: np.ndarray | None) -> tuple:
    """reference.attention, deciding in one place which route runs: float32 without a mask
    or dropout runs fused (one kernel for every head, reading q, k, v with their strides,
    e.g. views into the packed q|k|v projection); otherwise the heads are copied out, the
    products run on the batched BLAS kernel and scale, mask and softmax in place on the
    score buffer. Either way ``saved`` holds q, k, v as contiguous head tiles (viewed as
    (B, T, H, d)), which :func:`attention_backward` reads without a copy."""
    B, t_q, H, _ = q.shape
    t_k = k.shape[1]
    if q.size == 0 or k.size == 0 or v.size == 0:
        return reference.attention(q, k, v, mask, causal, scale, drop)
    if mask is None and drop is None and _fusable(q, k, v):
        out, p, tiles = _attention.fused_attention(q, k, v, scale, causal)
        p = p.reshape(B, H, t_q, t_k)
        return out, p, (*(_unheads(t, B) for t in tiles), p, p)
    q3, k3, v3 = _heads(q), _heads(k), _heads(v)
    s = matmul(q3, np.swapaxes(k3, -1, -2))  # (B*H, Tq, Tk), a fresh array
    # scale, mask and softmax in place; rows with every key masked become 0
    p = _masked_softmax.masked_softmax(s.reshape(B, H, t_q, t_k), scale, mask, causal)
    pd = p * drop if drop is not None else p
    out = matmul(pd.reshape(s.shape), v3)  # (B*H, Tq, hv)
    return _unheads(out, B), p, (_unheads(q3, B), _unheads(k3, B), _unheads(v3, B), p, pd)


def attention_backward(g: np.ndarray, saved: tuple, scale: float, drop: np.ndarray | None,
                       needs: tuple) -> tuple:
    """reference.attention_backward; float32 without dropout runs fused (the kernel writes
    dq, dk, dv straight in the (B, T, H, d) layout)."""
    q, k, v, p, pd = saved
    if p.size == 0 or q.size == 0 or v.size == 0:
        return reference.attention_backward(g, saved, scale, drop, needs)
    B = q.shape[0]
    q3, k3, v3 = _heads(q), _heads(k), _heads(v)  # views of the saved tiles
    need_q, need_k, need_v = needs
    if drop is None and _fusable(g, q3, k3, v3):
        grads = tuple(np.empty(a.shape, a.dtype) for a in (q, k, v))  # (B, T, H, d), C order
        _attention.fused_attention_backward(g, (q3, k3, v3), p.reshape(-1, *p.shape[-2:]),
                                            scale, *grads)
        return tuple(d if need else None for d, need in zip(grads, needs))
    g3 = _heads(g)
    p3, pd3 = (a.reshape(-1, a.shape[-2], a.shape[-1]) for a in (p, pd))
    dv = _unheads(matmul(np.swapaxes(pd3, -1, -2), g3), B) if need_v else None
    dq = dk = None
    if need_q or need_k:
        dp = matmul(g3, np.swapaxes(v3, -1, -2))
        if drop is not None:
            dp *= drop.reshape(dp.shape)
        ds = _masked_softmax.masked_softmax_backward(p3, dp, scale)  # in place: dP -> dS
        if need_q:
            dq = _unheads(matmul(ds, k3), B)
        if need_k:
            dk = _unheads(matmul(np.swapaxes(ds, -1, -2), q3), B)
    return dq, dk, dv


def count_targets(targets: np.ndarray, num_classes: int, ignore_index: int) -> tuple:
    """reference.count_targets in one compiled pass."""
    bad, count = _ce.check_targets(targets, num_classes, ignore_index)
    return int(bad), int(count)



def adam_update(p: np.ndarray, g: np.ndarray, m: np.ndarray, v: np.ndarray, c) -> None:
    """reference.adam_update in one Numba pass when p, m, v are C-contiguous (the kernel
    writes through their flat views); the reference otherwise."""
    if p.flags.c_contiguous and m.flags.c_contiguous and v.flags.c_contiguous:
        _adamw.adam_update_fused(p, g, m, v, c)
    else:
        reference.adam_update(p, g, m, v, c)

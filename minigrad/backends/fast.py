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
from .reference import adam_coefficients, causal_mask, reduce_sum  # noqa: F401  (no kernel: shared)

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
    return dx, dw, (reduce_sum(g2, axis=0) if need_b else None)


def _fusable(*arrays: np.ndarray) -> bool:
    """The one place that decides whether the fused float32 attention kernels apply:
    float32 operands with at least one query and one key."""
    return all(a.dtype == np.float32 and a.size for a in arrays)


def attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None,
              causal: bool, scale: float, drop: np.ndarray | None) -> tuple:
    """reference.attention on C-contiguous q, k, v of one dtype. float32 without a mask or
    dropout runs fused, one kernel for every head; otherwise the products run on the
    batched BLAS kernel and scale, mask and softmax in place on the score buffer."""
    if q.size == 0 or k.size == 0 or v.size == 0:
        return reference.attention(q, k, v, mask, causal, scale, drop)
    lead, t_q, t_k = q.shape[:-2], q.shape[-2], k.shape[-2]
    q3, k3, v3 = (a.reshape(-1, a.shape[-2], a.shape[-1]) for a in (q, k, v))
    out_shape = lead + (t_q, v.shape[-1])
    if mask is None and drop is None and _fusable(q3, k3, v3):
        # (L, T, d) -> (L, T, 1, d) views: L batch entries of one head each. The head tiles
        # it returns are copies of q3, k3, v3, which the op keeps already: dropped.
        out, p, _ = _attention.fused_attention(q3[:, :, None], k3[:, :, None], v3[:, :, None],
                                               scale, causal)
        p = p.reshape(lead + (t_q, t_k))
        return out.reshape(out_shape), p, p
    s = matmul(q3, np.swapaxes(k3, -1, -2))  # (L, Tq, Tk), a fresh array
    # scale, mask and softmax in place; rows with every key masked become 0
    p = _masked_softmax.masked_softmax(s.reshape(lead + (t_q, t_k)), scale, mask, causal)
    pd = p * drop if drop is not None else p
    out = matmul(pd.reshape(s.shape), v3)
    return out.reshape(out_shape), p, pd


def attention_backward(g: np.ndarray, q: np.ndarray, k: np.ndarray, v: np.ndarray,
                       p: np.ndarray, pd: np.ndarray, scale: float, drop: np.ndarray | None,
                       needs: tuple) -> tuple:
    """reference.attention_backward; float32 without dropout runs fused."""
    if p.size == 0:
        return reference.attention_backward(g, q, k, v, p, pd, scale, drop, needs)
    q3, k3, v3, g3 = (a.reshape(-1, a.shape[-2], a.shape[-1]) for a in (q, k, v, g))
    p3, pd3 = (a.reshape(-1, a.shape[-2], a.shape[-1]) for a in (p, pd))
    need_q, need_k, need_v = needs
    if drop is None and _fusable(g3, q3, k3, v3):
        grads = np.empty_like(q3), np.empty_like(k3), np.empty_like(v3)
        _attention.fused_attention_backward(g3[:, :, None], (q3, k3, v3), p3, scale,
                                            *(d[:, :, None] for d in grads))
        return tuple(d.reshape(a.shape) if need else None
                     for d, a, need in zip(grads, (q, k, v), needs))
    dv = matmul(np.swapaxes(pd3, -1, -2), g3).reshape(v.shape) if need_v else None
    dq = dk = None
    if need_q or need_k:
        dp = matmul(g3, np.swapaxes(v3, -1, -2))
        if drop is not None:
            dp *= drop.reshape(dp.shape)
        ds = _masked_softmax.masked_softmax_backward(p3, dp, scale)  # in place: dP -> dS
        if need_q:
            dq = matmul(ds, k3).reshape(q.shape)
        if need_k:
            dk = matmul(np.swapaxes(ds, -1, -2), q3).reshape(k.shape)
    return dq, dk, dv


def fused_packed_attention(qkv: np.ndarray, num_heads: int, mask: np.ndarray | None,
                           causal: bool, scale: float, drop: np.ndarray | None):
    """Multi-head self-attention straight from the packed projections qkv (B, T, 3C):
    (out (B, T, C), backward) where ``backward(grad (B, T, C)) -> dqkv (B, T, 3C)``,
    or None when the fused kernels do not apply (then the op splits heads and calls
    :func:`attention`). The kernels read each head out of qkv and write the packed
    gradient directly: no head copies."""
    if mask is not None or drop is not None or not _fusable(qkv):
        return None
    B, T, C3 = qkv.shape
    H = num_heads
    heads = qkv.reshape(B, T, 3, H, C3 // (3 * H))
    out, p, tiles = _attention.fused_attention(heads[:, :, 0], heads[:, :, 1], heads[:, :, 2],
                                               scale, causal)

    def backward(grad: np.ndarray) -> np.ndarray:
        g4 = np.asarray(grad, dtype=np.float32).reshape(B, T, H, C3 // (3 * H))
        dqkv = np.empty((B, T, 3, H, C3 // (3 * H)), dtype=np.float32)
        _attention.fused_attention_backward(g4, tiles, p, scale,
                                            dqkv[:, :, 0], dqkv[:, :, 1], dqkv[:, :, 2])
        return dqkv.reshape(B, T, C3)

    return out.reshape(B, T, C3 // 3), p.reshape(B, H, T, T), backward


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

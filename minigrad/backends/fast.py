"""The fast backend: the reference backend with the Numba kernels in place of its hot methods.

:class:`Fast` subclasses :class:`~minigrad.backends.reference.Reference` and overrides a
primitive only where a kernel of ``minigrad/kernels/`` speeds it up; every override
computes what the reference method computes (tests/test_backends.py holds each one
equal to it, and fails for an override it does not check). A primitive without a kernel
is inherited: the reference one.

The choices that depend on the operands are made here, not in the ops. The one that
matters most is attention: ``Fast.attention`` is "if the fused float32 kernel applies
(:func:`_fusable`, no mask, no dropout): the kernel; else BLAS products around an
in-place masked softmax", and :meth:`Fast.fused_packed_attention` reads the heads
straight out of the packed q|k|v projections when that kernel applies.

The kernels are imported the first time a :class:`Fast` method runs
(:func:`_load_kernels`), not when this module is: importing them imports Numba (half a
second or more), which ``import minigrad`` must not do. This is the one place the
library imports ``minigrad.kernels``; the trainer's background compile also uses the
process machinery of ``minigrad/kernels/runtime/``.
"""

from __future__ import annotations

import math
from types import ModuleType

import numpy as np

from .reference import Reference

# The kernel modules, bound by _load_kernels() when the first Fast primitive runs.
_adamw: ModuleType
_attention: ModuleType
_ce: ModuleType
_embedding: ModuleType
_gelu: ModuleType
_grad_norm: ModuleType
_layernorm: ModuleType
_masked_fill: ModuleType
_masked_softmax: ModuleType
_matmul: ModuleType
_softmax: ModuleType
_loaded = False


def _load_kernels() -> None:
    """Import the kernel modules into this module's names, once per process (a second
    thread racing the first binds the same modules: imports are thread-safe), and turn on
    the one-line notice a terminal gets when a kernel first compiles."""
    global _adamw, _attention, _ce, _embedding, _gelu, _grad_norm, _layernorm
    global _masked_fill, _masked_softmax, _matmul, _softmax, _loaded
    if _loaded:
        return
    from ..kernels import adamw as _adamw
    from ..kernels import attention as _attention
    from ..kernels import cross_entropy as _ce
    from ..kernels import embedding as _embedding
    from ..kernels import gelu as _gelu
    from ..kernels import grad_norm as _grad_norm
    from ..kernels import layernorm as _layernorm
    from ..kernels import masked_fill as _masked_fill
    from ..kernels import masked_softmax as _masked_softmax
    from ..kernels import matmul as _matmul
    from ..kernels import softmax as _softmax
    from ..kernels.runtime.disk_cache import notice_first_compile

    notice_first_compile()  # a first call that stalls on compiling says why (on a terminal)
    _loaded = True


def _fusable(*arrays: np.ndarray) -> bool:
    """The one place that decides whether the fused float32 attention kernels apply:
    float32 operands with at least one query and one key."""
    return all(a.dtype == np.float32 and a.size for a in arrays)


class Fast(Reference):
    """The reference backend with a Numba kernel in place of each primitive it speeds up."""

    name = "fast"

    # ------------------------------------------------------------- softmax
    def softmax(self, x: np.ndarray) -> np.ndarray:
        """Reference.softmax: Numba passes for the row max and the division around
        NumPy's vectorised exp, in one output buffer."""
        _load_kernels()
        return _softmax.softmax(x)

    def softmax_backward(self, y: np.ndarray, g: np.ndarray) -> np.ndarray:
        """Reference.softmax_backward: one pass per row, in a fresh copy of g."""
        _load_kernels()
        return _softmax.softmax_backward(y, g)

    def log_softmax(self, x: np.ndarray) -> np.ndarray:
        """Reference.log_softmax: Numba passes around NumPy's exp, in one output buffer."""
        _load_kernels()
        return _softmax.log_softmax(x)

    def log_softmax_backward(self, y: np.ndarray, g: np.ndarray) -> np.ndarray:
        """Reference.log_softmax_backward: one Numba pass over exp(y), in place."""
        _load_kernels()
        return _softmax.log_softmax_backward(y, g)

    # -------------------------------------------------------------- matmul
    def matmul(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Reference.matmul: products split by blocks of rows over Numba's threads."""
        _load_kernels()
        return _matmul.matmul(a, b)

    # -------------------------------------------------------------- linear
    def linear(self, x: np.ndarray, w: np.ndarray, b: np.ndarray | None) -> np.ndarray:
        """Reference.linear: BLAS takes w.T as a transposed view (no copy); the bias is added
        by the threads into the fresh product when it shares x's dtype. A few rows of input
        (decoding: one per new token) read the weight at memory speed, split by rows of w."""
        _load_kernels()
        rows = math.prod(x.shape[:-1])  # not reshape(-1, ...): ambiguous for in_features = 0
        if rows <= _matmul.FEW_ROWS:
            y = _matmul.linear_few_rows(x.reshape(rows, x.shape[-1]), w)
            if y is not None:
                if b is not None:
                    y += b
                return y.reshape(x.shape[:-1] + (w.shape[0],))
        if b is None or x.ndim < 2 or b.dtype != x.dtype:
            y = _matmul.matmul(x, w.T)
            if b is not None:
                y += b
            return y
        y = _matmul.matmul_bias(np.ascontiguousarray(x).reshape(rows, x.shape[-1]), w.T, b)
        return y.reshape(x.shape[:-1] + (w.shape[0],))

    def linear_backward(self, g: np.ndarray, x: np.ndarray, w: np.ndarray, need_x: bool,
                        need_w: bool, need_b: bool) -> tuple:
        """Reference.linear_backward: dx and dw together go to one kernel that gives each
        product a thread of its own (and sums db on the way)."""
        _load_kernels()
        g2 = g.reshape(-1, g.shape[-1])
        x2 = x.reshape(-1, x.shape[-1])
        if need_x and need_w and g2.flags.c_contiguous and x2.flags.c_contiguous \
                and w.flags.c_contiguous and g2.dtype == x2.dtype == w.dtype:
            dx, dw, db = _matmul.linear_grads(g2, w, x2, need_b)
            return dx.reshape(x.shape), dw, db
        dx = _matmul.matmul(g, w) if need_x else None
        dw = _matmul.matmul(g2.T, x2) if need_w else None
        return dx, dw, (self.reduce_sum(g2, axis=0) if need_b else None)

    # ----------------------------------------------------------- attention
    def attention(self, q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None,
                  causal: bool, scale: float, drop: np.ndarray | None) -> tuple:
        """Reference.attention on C-contiguous q, k, v of one dtype. float32 without a mask or
        dropout runs fused, one kernel for every head; otherwise the products run on the
        batched BLAS kernel and scale, mask and softmax in place on the score buffer."""
        _load_kernels()
        if q.size == 0 or k.size == 0 or v.size == 0:
            return super().attention(q, k, v, mask, causal, scale, drop)
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
        s = _matmul.matmul(q3, np.swapaxes(k3, -1, -2))  # (L, Tq, Tk), a fresh array
        # scale, mask and softmax in place; rows with every key masked become 0
        p = _masked_softmax.masked_softmax(s.reshape(lead + (t_q, t_k)), scale, mask, causal)
        pd = p * drop if drop is not None else p
        out = _matmul.matmul(pd.reshape(s.shape), v3)
        return out.reshape(out_shape), p, pd

    def attention_backward(self, g: np.ndarray, q: np.ndarray, k: np.ndarray, v: np.ndarray,
                           p: np.ndarray, pd: np.ndarray, scale: float, drop: np.ndarray | None,
                           needs: tuple) -> tuple:
        """Reference.attention_backward; float32 without dropout runs fused."""
        _load_kernels()
        if p.size == 0:
            return super().attention_backward(g, q, k, v, p, pd, scale, drop, needs)
        q3, k3, v3, g3 = (a.reshape(-1, a.shape[-2], a.shape[-1]) for a in (q, k, v, g))
        p3, pd3 = (a.reshape(-1, a.shape[-2], a.shape[-1]) for a in (p, pd))
        need_q, need_k, need_v = needs
        if drop is None and _fusable(g3, q3, k3, v3):
            grads = np.empty_like(q3), np.empty_like(k3), np.empty_like(v3)
            _attention.fused_attention_backward(g3[:, :, None], (q3, k3, v3), p3, scale,
                                                *(d[:, :, None] for d in grads))
            return tuple(d.reshape(a.shape) if need else None
                         for d, a, need in zip(grads, (q, k, v), needs))
        dv = _matmul.matmul(np.swapaxes(pd3, -1, -2), g3).reshape(v.shape) if need_v else None
        dq = dk = None
        if need_q or need_k:
            dp = _matmul.matmul(g3, np.swapaxes(v3, -1, -2))
            if drop is not None:
                dp *= drop.reshape(dp.shape)
            ds = _masked_softmax.masked_softmax_backward(p3, dp, scale)  # in place: dP -> dS
            if need_q:
                dq = _matmul.matmul(ds, k3).reshape(q.shape)
            if need_k:
                dk = _matmul.matmul(np.swapaxes(ds, -1, -2), q3).reshape(k.shape)
        return dq, dk, dv

    def fused_packed_attention(self, qkv: np.ndarray, num_heads: int, mask: np.ndarray | None,
                               causal: bool, scale: float, drop: np.ndarray | None):
        """Multi-head self-attention straight from the packed projections qkv (B, T, 3C):
        (out (B, T, C), backward) where ``backward(grad (B, T, C)) -> dqkv (B, T, 3C)``,
        or None when the fused kernels do not apply (then the op splits heads and calls
        :meth:`attention`). The kernels read each head out of qkv and write the packed
        gradient directly: no head copies."""
        _load_kernels()
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

    # ----------------------------------------------------------- layernorm
    def layer_norm(self, x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> tuple:
        """Reference.layer_norm: one pass per row, rows split over the threads."""
        _load_kernels()
        return _layernorm.layer_norm(x, w, b, eps)

    def layer_norm_backward(self, g: np.ndarray, x: np.ndarray, w: np.ndarray,
                            mean: np.ndarray, rstd: np.ndarray) -> tuple:
        """Reference.layer_norm_backward: one pass per row, dw and db summed per block."""
        _load_kernels()
        return _layernorm.layer_norm_backward(g, x, w, mean, rstd)

    # ---------------------------------------------------------------- gelu
    def gelu(self, x: np.ndarray, want_grad: bool) -> tuple:
        """Reference.gelu and dy/dx in one pass; float32 in float32 arithmetic (a vectorised
        erfc, no float64 copy), split over the threads."""
        _load_kernels()
        return _gelu.gelu(x, want_grad)

    def gelu_backward(self, g: np.ndarray, dydx: np.ndarray) -> np.ndarray:
        """Reference.gelu_backward, split over the threads."""
        _load_kernels()
        return _gelu.gelu_backward(g, dydx)

    # ------------------------------------------------------- cross-entropy
    def count_targets(self, targets: np.ndarray, num_classes: int, ignore_index: int) -> tuple:
        """Reference.count_targets in one compiled pass."""
        _load_kernels()
        bad, count = _ce.check_targets(targets, num_classes, ignore_index)
        return int(bad), int(count)


    def cross_entropy(self, logits: np.ndarray, targets: np.ndarray, ignore_index: int,
                      scale: float = 1.0) -> tuple:
        """Reference.cross_entropy: loss and gradient of a row in one pass."""
        _load_kernels()
        return _ce.cross_entropy(logits, targets, ignore_index, scale)

    # ----------------------------------------------------------- embedding
    def embedding_backward(self, ids: np.ndarray, g: np.ndarray,
                           num_embeddings: int) -> np.ndarray:
        """Reference.embedding_backward: one scatter-add loop instead of np.add.at."""
        _load_kernels()
        return _embedding.embedding_backward(ids, g, num_embeddings)

    # ------------------------------------------------------------- masking
    def masked_fill(self, x: np.ndarray, mask: np.ndarray, value: float) -> np.ndarray:
        """Reference.masked_fill in one pass."""
        _load_kernels()
        return _masked_fill.masked_fill(x, mask, value)

    # ---------------------------------------------------------- optimizers
    def adam_update(self, p: np.ndarray, g: np.ndarray, m: np.ndarray, v: np.ndarray,
                    c: tuple, fused: bool = True) -> None:
        """Reference.adam_update in one Numba pass when ``fused`` and p, m, v are C-contiguous
        (the kernel writes through their flat views); the reference otherwise."""
        if not (fused and p.flags.c_contiguous and m.flags.c_contiguous
                and v.flags.c_contiguous):
            return super().adam_update(p, g, m, v, c)
        _load_kernels()
        _adamw.adam_update_fused(p, g, m, v, *c)

    def sum_of_squares(self, g: np.ndarray) -> float:
        """Reference.sum_of_squares in one pass, without a float64 copy of g."""
        _load_kernels()
        return _grad_norm.sum_of_squares(g)

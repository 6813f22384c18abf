"""The fast backend: the reference backend with the Numba kernels in place of its hot methods.

:class:`Fast` subclasses :class:`~minigrad.backends.reference.Reference` and overrides a
primitive only where a kernel of ``minigrad/kernels/`` speeds it up; every override
computes what the reference method computes (tests/kernels/test_backends.py holds each one
equal to it, and fails for an override it does not check). A primitive without a kernel
is inherited: the reference one.

The choices that depend on the operands are made here, not in the ops. The one that
matters most is attention: ``Fast.attention`` is "if the fused float32 kernel applies
(:func:`_fusable`, no mask, no dropout): the kernel; else BLAS products around an
in-place masked softmax". The fused kernel reads q, k, v with their strides, so the heads
come straight out of the packed q|k|v projection without a copy.

The kernels are imported the first time a :class:`Fast` method runs
(:func:`_load_kernels`), not when this module is: importing them imports Numba (half a
second or more), which ``import minigrad`` must not do. This is the one place the
library imports ``minigrad.kernels`` (``minigrad.cold_start`` and
``minigrad.set_num_threads`` reach the kernels' runtime only once this has loaded it).

On a cold Numba cache a kernel is not compiled in the middle of a primitive call: every
primitive that runs kernels is marked :func:`_kernel_backed`, and a kernel that would have
to compile is sent to a worker process instead while the reference method of the same name
answers (``kernels/runtime/background_compile.py``; ``MINIGRAD_COMPILE=wait`` compiles
here instead). So a script's first training step takes about as long as one on the
reference backend, not the 20 s or more that compiling every kernel takes.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from types import ModuleType

import numpy as np

from ..grad_buffers import empty_like_packed
from .interface import window_counts
from .recurrence_reference import previous_states
from .reference import Reference

# The kernel modules, bound by _load_kernels() when the first Fast primitive runs.
_adamw: ModuleType
_batchnorm: ModuleType
_attention: ModuleType
_ce: ModuleType
_col2im: ModuleType
_recurrence: ModuleType
_window_max: ModuleType
_im2col: ModuleType
_relu: ModuleType
_sums: ModuleType
_channels: ModuleType
_embedding: ModuleType
_gelu: ModuleType
_gemm_accumulate: ModuleType
_grad_norm: ModuleType
_layernorm: ModuleType
_masked_fill: ModuleType
_masked_softmax: ModuleType
_matmul: ModuleType
_softmax: ModuleType
_background: ModuleType
_loaded = False


def _load_kernels() -> None:
    """Import the kernel modules into this module's names, once per process (a second
    thread racing the first binds the same modules: imports are thread-safe), and turn on
    the one-line notice a terminal gets when a kernel first compiles."""
    global _batchnorm
    global _adamw, _attention, _ce, _col2im, _embedding, _gelu, _gemm_accumulate, _grad_norm, _layernorm
    global _masked_fill, _masked_softmax, _matmul, _recurrence, _softmax, _window_max
    global _im2col, _channels, _relu, _sums
    global _background, _loaded
    if _loaded:
        return
    from ..kernels import adamw as _adamw
    from ..kernels import attention as _attention
    from ..kernels import batchnorm as _batchnorm
    from ..kernels import channels as _channels
    from ..kernels import col2im as _col2im
    from ..kernels import cross_entropy as _ce
    from ..kernels import embedding as _embedding
    from ..kernels import gelu as _gelu
    from ..kernels import gemm_accumulate as _gemm_accumulate
    from ..kernels import grad_norm as _grad_norm
    from ..kernels import im2col as _im2col
    from ..kernels import layernorm as _layernorm
    from ..kernels import masked_fill as _masked_fill
    from ..kernels import masked_softmax as _masked_softmax
    from ..kernels import matmul as _matmul
    from ..kernels import recurrence as _recurrence
    from ..kernels import relu as _relu
    from ..kernels import softmax as _softmax
    from ..kernels import sums as _sums
    from ..kernels import window_max as _window_max
    from ..kernels.runtime import background_compile as _background
    from ..kernels.runtime.disk_cache import notice_first_compile

    _background.install()  # a kernel that is not cached compiles in a second process
    notice_first_compile()  # a first call that stalls on compiling says why (on a terminal)
    _loaded = True


#: what answers for a primitive whose kernel is compiling: the reference backend itself, so
#: that the primitives its methods call are the reference ones too (not kernels of types
#: only a reference answer asks for, such as a float64 softmax inside the reference attention)
_REFERENCE = Reference()


def _kernel_backed(method: Callable) -> Callable:
    """A primitive that runs kernels: they are loaded first, and while one of them is
    compiling in the background (``kernels/runtime/background_compile.py``), the
    reference backend's method of the same name answers instead."""
    reference_method = getattr(_REFERENCE, method.__name__)

    def reference(_fast: Fast, *args, **kwargs):
        return reference_method(*args, **kwargs)

    @functools.wraps(method)
    def primitive(self, *args, **kwargs):
        if not _loaded:
            _load_kernels()
        return _background.run_primitive(method, reference, self, *args, **kwargs)

    return primitive


def _fusable(*arrays: np.ndarray) -> bool:
    """Whether the fused float32 attention kernels apply: float32 operands."""
    return all(a.dtype == np.float32 for a in arrays)


def _heads(x: np.ndarray) -> np.ndarray:
    """(B, T, H, d) -> contiguous (B*H, T, d): a view when x's heads are already laid out
    so, else one copy."""
    B, T, H, d = x.shape
    return np.ascontiguousarray(np.swapaxes(x, 1, 2)).reshape(B * H, T, d)


def _unheads(x3: np.ndarray, B: int) -> np.ndarray:
    """(B*H, T, d) -> (B, T, H, d), a view (the inverse of :func:`_heads`)."""
    return np.swapaxes(x3.reshape(B, -1, x3.shape[-2], x3.shape[-1]), 1, 2)


class Fast(Reference):
    """The reference backend with a Numba kernel in place of each primitive it speeds up."""

    name = "fast"

    # ------------------------------------------------------------- softmax
    @_kernel_backed
    def softmax(self, x: np.ndarray) -> np.ndarray:
        """Reference.softmax: Numba passes for the row max and the division around
        NumPy's vectorised exp, in one output buffer."""
        return _softmax.softmax(x)

    @_kernel_backed
    def softmax_backward(self, y: np.ndarray, g: np.ndarray) -> np.ndarray:
        """Reference.softmax_backward: one pass per row, in a fresh copy of g."""
        return _softmax.softmax_backward(y, g)

    @_kernel_backed
    def log_softmax(self, x: np.ndarray) -> np.ndarray:
        """Reference.log_softmax: Numba passes around NumPy's exp, in one output buffer."""
        return _softmax.log_softmax(x)

    @_kernel_backed
    def log_softmax_backward(self, y: np.ndarray, g: np.ndarray) -> np.ndarray:
        """Reference.log_softmax_backward: one Numba pass over exp(y), in place."""
        return _softmax.log_softmax_backward(y, g)

    # -------------------------------------------------------------- matmul
    @_kernel_backed
    def matmul(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Reference.matmul: products split by blocks of rows over Numba's threads."""
        return _matmul.matmul(a, b)

    # -------------------------------------------------------------- linear
    @_kernel_backed
    def reduce_sum(self, a: np.ndarray, axis: int | tuple | None = None,
                   keepdims: bool = False) -> np.ndarray:
        """Reference.reduce_sum; a C-contiguous float32 array summed over leading and trailing
        axes around a kept block (a bias' gradient: rows; a convolution's: samples and
        positions) in one pass of float64 accumulators per thread, without the reference's
        float64 copy (kernels/sums.py)."""
        kept = _kept_block(a, axis)
        if kept is None:
            return super().reduce_sum(a, axis, keepdims)
        lo, hi = kept
        m = math.prod(a.shape[lo:hi])
        s = _sums.sum_outer(a.reshape(math.prod(a.shape[:lo]), m, -1)).astype(np.float32)
        if keepdims:
            return s.reshape(tuple(n if lo <= i < hi else 1 for i, n in enumerate(a.shape)))
        return s.reshape(a.shape[lo:hi])

    @_kernel_backed
    def linear(self, x: np.ndarray, w: np.ndarray, b: np.ndarray | None) -> np.ndarray:
        """Reference.linear: BLAS takes w.T as a transposed view (no copy); the bias is added
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
            y = _matmul.matmul(x, w.T)
            if b is not None:
                y += b
            return y
        y = _matmul.matmul_bias(np.ascontiguousarray(x).reshape(rows, x.shape[-1]), w.T, b)
        return y.reshape(x.shape[:-1] + (w.shape[0],))

    @_kernel_backed
    def linear_backward(self, g: np.ndarray, x: np.ndarray, w: np.ndarray, need_x: bool,
                        need_w: bool, need_b: bool) -> tuple:
        """Reference.linear_backward: dx and dw together go to one kernel that gives each
        product a thread of its own (and sums db on the way)."""
        g2 = g.reshape(-1, g.shape[-1])
        x2 = x.reshape(-1, x.shape[-1])
        if need_x and need_w and g2.flags.c_contiguous and x2.flags.c_contiguous \
                and w.flags.c_contiguous and g2.dtype == x2.dtype == w.dtype:
            dx, dw, db = _matmul.linear_grads(g2, w, x2, need_b)
            return dx.reshape(x.shape), dw, db
        dx = _matmul.matmul(g, w) if need_x else None
        dw = _matmul.matmul(g2.T, x2) if need_w else None
        return dx, dw, (self.reduce_sum(g2, axis=0) if need_b else None)

    @_kernel_backed
    def add_weight_grad(self, g: np.ndarray, x: np.ndarray, dw: np.ndarray) -> None:
        """Reference.add_weight_grad with BLAS's beta = 1 (no temporary of dw's size), the
        rows of dw split over the threads (kernels/gemm_accumulate.py)."""
        if g.dtype == x.dtype == dw.dtype and g.dtype in (np.float32, np.float64) \
                and g.flags.c_contiguous and x.flags.c_contiguous and dw.flags.c_contiguous:
            _gemm_accumulate.add_at_b(g, x, dw)
        else:
            dw += _matmul.matmul(g.T, x)

    # ----------------------------------------------------------- attention
    @_kernel_backed
    def attention(self, q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None,
                  causal: bool, scale: float, drop: np.ndarray | None,
                  keep_p: bool = True) -> tuple:
        """Reference.attention, deciding in one place which route runs: float32 without a
        mask or dropout runs fused (one kernel for every head, reading q, k, v with their
        strides, e.g. views into the packed q|k|v projection); otherwise the heads are copied
        out, the products run on the batched BLAS kernel and scale, mask and softmax in place
        on the score buffer. Either way ``saved`` holds the q, k, v given, as the reference's
        does (so that a backward reads arrays of one layout whichever backend ran the
        forward), and P only with ``keep_p`` or a mask or dropout (the backward recomputes
        it)."""
        B, t_q, H, _ = q.shape
        t_k = k.shape[1]
        if q.size == 0 or k.size == 0 or v.size == 0:
            return super().attention(q, k, v, mask, causal, scale, drop, keep_p)
        recompute = not keep_p and mask is None and drop is None
        if mask is None and drop is None and _fusable(q, k, v):
            out, p, _ = _attention.fused_attention(q, k, v, scale, causal, keep_p)
            if recompute:
                return out, None, (q, k, v, None, None)
            p = p.reshape(B, H, t_q, t_k)
            return out, p, (q, k, v, p, p)
        q3, k3, v3 = _heads(q), _heads(k), _heads(v)
        s = _matmul.matmul(q3, np.swapaxes(k3, -1, -2))  # (B*H, Tq, Tk), a fresh array
        # scale, mask and softmax in place; rows with every key masked become 0
        p = _masked_softmax.masked_softmax(s.reshape(B, H, t_q, t_k), scale, mask, causal)
        pd = p * drop if drop is not None else p
        out = np.ascontiguousarray(_unheads(_matmul.matmul(pd.reshape(s.shape), v3), B))
        if recompute:
            return out, None, (q, k, v, None, None)
        return out, p, (q, k, v, p, pd)

    @_kernel_backed
    def attention_backward(self, g: np.ndarray, saved: tuple, scale: float,
                           drop: np.ndarray | None, needs: tuple, causal: bool = False,
                           like: tuple | None = None) -> tuple:
        """Reference.attention_backward; float32 without dropout runs fused (the kernel writes
        dq, dk, dv straight in the (B, T, H, d) layout, into views of one packed gradient when
        ``like``'s q, k, v are slices of one projection). dS (``needs`` of four, a mask that
        requires grad) is the reference's: the fused kernel keeps dS in a per-head tile it
        never writes out, and the BLAS route below turns dP into dS * scale in place."""
        q, k, v, p, pd = saved
        fused = drop is None and len(needs) == 3 and _fusable(g, q, k, v)
        if p is None and not fused:  # the fused forward's P, recomputed for the other routes
            p = pd = self.attention(q, k, v, None, causal, scale, None)[1]
            saved = (q, k, v, p, pd)
        if (p is not None and p.size == 0) or q.size == 0 or v.size == 0 or len(needs) > 3:
            return super().attention_backward(g, saved, scale, drop, needs, causal, like)
        B = q.shape[0]
        need_q, need_k, need_v = needs
        if fused:  # q, k, v: the inputs; p None: recomputed
            # (B, T, H, d): laid out as the inputs when they tile one packed array, else C order
            if like is None or any(a.shape != b.shape or a.dtype != b.dtype
                                   for a, b in zip(like, (q, k, v))):
                like = (q, k, v)
            grads = empty_like_packed(like)
            p3 = None if p is None else p.reshape(-1, *p.shape[-2:])
            _attention.fused_attention_backward(g, q, k, v, p3, scale, causal, *grads)
            return tuple(d if need else None for d, need in zip(grads, needs))
        q3, k3, v3 = _heads(q), _heads(k), _heads(v)  # views of the saved tiles, or copies
        g3 = _heads(g)
        p3, pd3 = (a.reshape(-1, a.shape[-2], a.shape[-1]) for a in (p, pd))
        dv = _unheads(_matmul.matmul(np.swapaxes(pd3, -1, -2), g3), B) if need_v else None
        dq = dk = None
        if need_q or need_k:
            dp = _matmul.matmul(g3, np.swapaxes(v3, -1, -2))
            if drop is not None:
                dp *= drop.reshape(dp.shape)
            ds = _masked_softmax.masked_softmax_backward(p3, dp, scale)  # in place: dP -> dS
            if need_q:
                dq = _unheads(_matmul.matmul(ds, k3), B)
            if need_k:
                dk = _unheads(_matmul.matmul(np.swapaxes(ds, -1, -2), q3), B)
        return dq, dk, dv

    # ----------------------------------------------------------- layernorm
    @_kernel_backed
    def layer_norm(self, x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> tuple:
        """Reference.layer_norm: one pass per row, rows split over the threads."""
        return _layernorm.layer_norm(x, w, b, eps)

    @_kernel_backed
    def layer_norm_backward(self, g: np.ndarray, x: np.ndarray, w: np.ndarray,
                            mean: np.ndarray, rstd: np.ndarray) -> tuple:
        """Reference.layer_norm_backward: one pass per row, dw and db summed per block."""
        return _layernorm.layer_norm_backward(g, x, w, mean, rstd)

    # ----------------------------------------------------------- batchnorm
    @_kernel_backed
    def batch_norm(self, x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> tuple:
        """Reference.batch_norm: the statistics in one pass per channel, y in a second, the
        channels split over the threads (kernels/batchnorm.py)."""
        if not (_float_and_full(x) and x.dtype == w.dtype == b.dtype):
            return super().batch_norm(x, w, b, eps)
        return _batchnorm.batch_norm(np.ascontiguousarray(x), w, b, eps)

    @_kernel_backed
    def batch_norm_backward(self, g: np.ndarray, x: np.ndarray, w: np.ndarray,
                            mean: np.ndarray, rstd: np.ndarray) -> tuple:
        """Reference.batch_norm_backward: two sums per channel, then dx in one pass."""
        if not (_float_and_full(x) and x.dtype == g.dtype == w.dtype):
            return super().batch_norm_backward(g, x, w, mean, rstd)
        return _batchnorm.batch_norm_backward(np.ascontiguousarray(g), np.ascontiguousarray(x),
                                              w, mean, rstd)

    # ---------------------------------------------------------------- gelu
    @_kernel_backed
    def relu(self, x: np.ndarray) -> np.ndarray:
        """Reference.relu in one vectorised pass (kernels/relu.py)."""
        if not (_float_and_full(x) and x.flags.c_contiguous):
            return super().relu(x)
        return _relu.relu(x)

    @_kernel_backed
    def relu_backward(self, g: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Reference.relu_backward in one vectorised pass."""
        if not (_float_and_full(g) and g.shape == y.shape and g.flags.c_contiguous
                and y.flags.c_contiguous):
            return super().relu_backward(g, y)
        return _relu.relu_backward(g, y)

    @_kernel_backed
    def gelu(self, x: np.ndarray, want_grad: bool, approximate: str = "none") -> tuple:
        """Reference.gelu and dy/dx in one pass; float32 in float32 arithmetic (a vectorised
        erfc, or tanh from a vectorised exp; no float64 copy), split over the threads."""
        return _gelu.gelu(x, want_grad, approximate)

    @_kernel_backed
    def gelu_backward(self, g: np.ndarray, dydx: np.ndarray) -> np.ndarray:
        """Reference.gelu_backward, split over the threads."""
        return _gelu.gelu_backward(g, dydx)

    # ------------------------------------------------------- cross-entropy
    @_kernel_backed
    def count_targets(self, targets: np.ndarray, num_classes: int, ignore_index: int) -> tuple:
        """Reference.count_targets in one compiled pass."""
        bad, count = _ce.check_targets(targets, num_classes, ignore_index)
        return int(bad), int(count)


    @_kernel_backed
    def cross_entropy(self, logits: np.ndarray, targets: np.ndarray, ignore_index: int,
                      scale: float = 1.0, in_place: bool = False) -> tuple:
        """Reference.cross_entropy: loss and gradient of a row in one pass."""
        return _ce.cross_entropy(logits, targets, ignore_index, scale, in_place)

    # ----------------------------------------------------------- embedding
    @_kernel_backed
    def embedding_backward(self, ids: np.ndarray, g: np.ndarray, num_embeddings: int,
                           out: np.ndarray | None = None) -> np.ndarray:
        """Reference.embedding_backward: one scatter-add loop instead of np.add.at."""
        return _embedding.embedding_backward(ids, g, num_embeddings, out)

    # ------------------------------------------------------------- masking
    @_kernel_backed
    def masked_fill(self, x: np.ndarray, mask: np.ndarray, value: float) -> np.ndarray:
        """Reference.masked_fill in one pass."""
        return _masked_fill.masked_fill(x, mask, value)

    # ---------------------------------------------------------- optimizers
    @_kernel_backed
    def adam_update(self, p: np.ndarray, g: np.ndarray, m: np.ndarray, v: np.ndarray,
                    c: tuple, fused: bool = True, v_max: np.ndarray | None = None) -> None:
        """Reference.adam_update in one Numba pass when ``fused`` and p, m, v are C-contiguous
        (the kernel writes through their flat views) and there is no ``v_max``; the
        reference otherwise."""
        if not (fused and v_max is None and p.flags.c_contiguous and m.flags.c_contiguous
                and v.flags.c_contiguous):
            return super().adam_update(p, g, m, v, c, v_max=v_max)
        _adamw.adam_update_fused(p, g, m, v, *c)

    @_kernel_backed
    def sum_of_squares(self, g: np.ndarray) -> float:
        """Reference.sum_of_squares in one pass, without a float64 copy of g."""
        return _grad_norm.sum_of_squares(g)

    # ------------------------------------------------------------- windows
    @_kernel_backed
    def windows_backward(self, g: np.ndarray, shape: tuple, stride: tuple,
                         dilation: tuple) -> np.ndarray:
        """Reference.windows_backward (col2im) in one pass over g per row of windows, the
        rows split over the threads (kernels/col2im.py)."""
        if not (_float_and_full(g) and math.prod(shape)) or tuple(shape[:g.ndim - 2 * len(
                stride)]) != g.shape[:g.ndim - 2 * len(stride)]:
            return super().windows_backward(g, shape, stride, dilation)
        return _col2im.col2im(g, shape, stride, dilation)

    @_kernel_backed
    def window_rows(self, x: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple,
                    pads: tuple) -> np.ndarray:
        """Reference.window_rows as one gather per element through a table of where each
        window's offsets read (the padding never built), the samples split over the threads
        (kernels/im2col.py)."""
        out = _im2col_windows(x, kernel, stride, dilation, pads)
        if out is None:
            return super().window_rows(x, kernel, stride, dilation, pads)
        return _im2col.window_rows(x, kernel, stride, dilation, pads, out)

    @_kernel_backed
    def window_rows_backward(self, g: np.ndarray, shape: tuple, stride: tuple,
                             dilation: tuple, pads: tuple) -> np.ndarray:
        """Reference.window_rows_backward as one scatter-add per element through the same
        table."""
        if not (_float_and_full(g) and math.prod(shape)):
            return super().window_rows_backward(g, shape, stride, dilation, pads)
        return _im2col.window_rows_backward(g, shape, stride, dilation, pads)

    @_kernel_backed
    def window_columns(self, x: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple,
                       pads: tuple) -> np.ndarray:
        """Reference.window_columns as one gather per element through the table of offsets,
        the planes split over the threads (kernels/im2col.py)."""
        out = _im2col_windows(x, kernel, stride, dilation, pads)
        if out is None:
            return super().window_columns(x, kernel, stride, dilation, pads)
        return _im2col.window_columns(x, kernel, stride, dilation, pads, out)

    @_kernel_backed
    def window_columns_backward(self, g: np.ndarray, shape: tuple, stride: tuple,
                                dilation: tuple, pads: tuple) -> np.ndarray:
        """Reference.window_columns_backward as one scatter-add per element."""
        if not (_float_and_full(g) and math.prod(shape)):
            return super().window_columns_backward(g, shape, stride, dilation, pads)
        return _im2col.window_columns_backward(g, shape, stride, dilation, pads)

    @_kernel_backed
    def channels_first(self, rows: np.ndarray, bias: np.ndarray | None) -> np.ndarray:
        """Reference.channels_first a sample at a time in cache (kernels/channels.py)."""
        if not _float_and_full(rows):
            return super().channels_first(rows, bias)
        return _channels.to_channels_first(rows, bias)

    @_kernel_backed
    def channels_last(self, g: np.ndarray, want_sum: bool) -> tuple:
        """Reference.channels_last with the sum in the same pass (kernels/channels.py)."""
        if not _float_and_full(g):
            return super().channels_last(g, want_sum)
        return _channels.to_channels_last(g, want_sum)

    @_kernel_backed
    def window_max(self, x: np.ndarray, kernel: tuple, stride: tuple,
                   dilation: tuple) -> tuple:
        """Reference.window_max in one pass over each window (no copy of the windows), the
        rows split over the threads (kernels/window_max.py)."""
        out = window_counts(x.shape[x.ndim - len(kernel):], kernel, stride, dilation)
        if not _float_and_full(x) or min(out, default=1) < 1:
            return super().window_max(x, kernel, stride, dilation)
        return _window_max.window_max(x, kernel, stride, dilation, out)

    @_kernel_backed
    def window_select(self, x: np.ndarray, arg: np.ndarray, kernel: tuple, stride: tuple,
                      dilation: tuple) -> np.ndarray:
        """Reference.window_select, one read per window."""
        if not (_float_and_full(x) and arg.size):
            return super().window_select(x, arg, kernel, stride, dilation)
        return _window_max.window_select(x, arg, kernel, stride, dilation)

    @_kernel_backed
    def window_select_backward(self, g: np.ndarray, arg: np.ndarray, shape: tuple,
                               kernel: tuple, stride: tuple, dilation: tuple) -> np.ndarray:
        """Reference.window_select_backward, one add per window into zeros."""
        if not (_float_and_full(g) and math.prod(shape)):
            return super().window_select_backward(g, arg, shape, kernel, stride, dilation)
        return _window_max.window_scatter(g, arg, shape, kernel, stride, dilation)

    # ---------------------------------------------------------- recurrence
    @_kernel_backed
    def recurrence(self, kind: str, gi: np.ndarray, h0: np.ndarray, c0: np.ndarray | None,
                   w_hh: np.ndarray, b_hh: np.ndarray | None, reverse: bool) -> tuple:
        """Reference.recurrence for float32 in one compiled loop over the steps
        (kernels/recurrence.py), the batch rows split over the threads (a row's steps
        need no other row); float64 (gradchecks) and empty arrays take the reference."""
        if not _recurrence_fits(gi, h0, c0, w_hh, b_hh):
            return super().recurrence(kind, gi, h0, c0, w_hh, b_hh, reverse)
        L, N, _ = gi.shape
        H = h0.shape[-1]
        lstm = kind == "LSTM"
        y = np.empty((L, N, (2 if lstm else 1) * H), np.float32)
        gates = np.empty((L, N, 4 * H), np.float32) if kind in ("LSTM", "GRU") else None
        bias = np.zeros(w_hh.shape[0], np.float32) if b_hh is None else b_hh
        args = (_recurrence.KINDS[kind], np.ascontiguousarray(gi), np.ascontiguousarray(h0),
                np.ascontiguousarray(h0 if c0 is None else c0), np.ascontiguousarray(w_hh),
                np.ascontiguousarray(bias), reverse, y, y if gates is None else gates)
        threads = _recurrence.threads_for(N, gi.size)
        if threads > 1:
            _recurrence.recurrence_par(*args, threads)
        else:
            _recurrence.recurrence_f32(*args, 0, N)
        return y, gates

    @_kernel_backed
    def recurrence_backward(self, kind: str, gy: np.ndarray, y: np.ndarray,
                            gates: np.ndarray | None, h0: np.ndarray, c0: np.ndarray | None,
                            w_hh: np.ndarray, reverse: bool) -> tuple:
        """Reference.recurrence_backward for float32: the walk back through the steps in one
        compiled loop (db_hh summed in it, in float64), then dW_hh as one product over every
        step (BLAS)."""
        if not _recurrence_fits(gy, y, h0, c0, w_hh):
            return super().recurrence_backward(kind, gy, y, gates, h0, c0, w_hh, reverse)
        L, N, _ = gy.shape
        H = h0.shape[-1]
        dgi = np.empty((L, N, w_hh.shape[0]), np.float32)
        dgh = np.empty_like(dgi) if kind == "GRU" else dgi
        dh = np.zeros((N, H), np.float32)
        dc = np.zeros((N, H), np.float32)
        threads = _recurrence.threads_for(N, gy.size)
        db = np.zeros((threads, w_hh.shape[0]), np.float64)  # each thread's part of db_hh
        args = (_recurrence.KINDS[kind], np.ascontiguousarray(gy), np.ascontiguousarray(y),
                np.ascontiguousarray(y if gates is None else gates), np.ascontiguousarray(h0),
                np.ascontiguousarray(h0 if c0 is None else c0), np.ascontiguousarray(w_hh),
                reverse, dgi, dgh, dh, dc)
        if threads > 1:
            _recurrence.recurrence_backward_par(*args, db)
        else:
            _recurrence.recurrence_backward_f32(*args, db[0], 0, N)
        rows = dgh.reshape(L * N, dgh.shape[-1])
        dw = _matmul.matmul(rows.T, previous_states(y[:, :, :H], h0, reverse).reshape(L * N, H))
        return dgi, dh, (dc if kind == "LSTM" else None), dw, db.sum(axis=0).astype(np.float32)


def _recurrence_fits(*arrays: np.ndarray | None) -> bool:
    """Whether the float32 recurrence kernels take these operands: float32, none empty."""
    return all(a is None or (a.dtype == np.float32 and a.size > 0) for a in arrays)


def _im2col_windows(x: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple,
                    pads: tuple) -> tuple | None:
    """The windows per dim of the padded x if the im2col kernels take x (float, not empty,
    at least one window a dim), else None."""
    space = tuple(n + lo + hi for n, (lo, hi) in zip(x.shape[2:], pads))
    out = window_counts(space, kernel, stride, dilation)
    return out if _float_and_full(x) and min(out) >= 1 else None


def _kept_block(a: np.ndarray, axis: int | tuple | None) -> tuple | None:
    """(lo, hi) when summing ``a`` over ``axis`` keeps exactly its axes lo..hi-1 and the
    reference would sum in float64 (float32, not the contiguous last axis alone) and the
    kernel applies (C-contiguous, not empty, something kept); else None."""
    if axis is None or a.dtype != np.float32 or not a.flags.c_contiguous or not a.size:
        return None
    axes = {ax % a.ndim for ax in ((axis,) if isinstance(axis, int) else axis)}
    kept = [i for i in range(a.ndim) if i not in axes]
    if not kept or kept != list(range(kept[0], kept[-1] + 1)) or axes == {a.ndim - 1}:
        return None
    return kept[0], kept[-1] + 1


def _float_and_full(x: np.ndarray) -> bool:
    """Whether the window kernels take x: float32 or float64, not empty."""
    return x.dtype in (np.float32, np.float64) and x.size > 0

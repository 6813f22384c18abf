"""The reference backend: every primitive in plain NumPy, forward and backward.

:class:`Reference` implements the interface of ``interface.py`` the shortest way NumPy
allows. This is the code a learner reads, and the oracle the tests hold the fast
backend to; nothing here is tuned for speed and nothing imports Numba. The autograd
Functions in ``minigrad/ops/`` call these methods through ``minigrad.backends.active``;
``minigrad/backends/fast.py`` subclasses :class:`Reference` and overrides the methods a
Numba kernel speeds up.

Shapes: "rows" means every axis but the last, which the op runs along.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import erfc

from . import recurrence_reference
from .interface import Backend, causal_mask, window_counts


class Reference(Backend):
    """Every primitive of :class:`~minigrad.backends.interface.Backend` in plain NumPy."""

    name = "reference"

    # ----------------------------------------------------------------- softmax
    def softmax(self, x: np.ndarray) -> np.ndarray:
        """y = exp(x - max) / sum(exp(x - max)) over the last axis.

        Subtracting the row max keeps exp from overflowing. A row with no finite
        entry to attend to (all -inf, or no entries at all) gives zeros, not NaN."""
        m = np.max(x, axis=-1, keepdims=True, initial=-np.inf)
        alive = ~np.isneginf(m)
        e = np.exp(x - np.where(alive, m, 0))
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(alive, e / e.sum(axis=-1, keepdims=True), 0).astype(x.dtype)

    def softmax_backward(self, y: np.ndarray, g: np.ndarray) -> np.ndarray:
        """dx = y * (g - sum(g * y)) over the last axis, for y = softmax(x), g = dL/dy."""
        return (y * (g - (g * y).sum(axis=-1, keepdims=True))).astype(y.dtype, copy=False)

    def log_softmax(self, x: np.ndarray) -> np.ndarray:
        """y = x - max - log(sum(exp(x - max))) over the last axis (an all -inf row gives NaN,
        as in PyTorch)."""
        m = np.max(x, axis=-1, keepdims=True, initial=-np.inf)  # an empty row has no max
        m = np.where(np.isfinite(m), m, 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            return (x - m - np.log(np.exp(x - m).sum(axis=-1, keepdims=True))).astype(x.dtype)

    def log_softmax_backward(self, y: np.ndarray, g: np.ndarray) -> np.ndarray:
        """dx = g - exp(y) * sum(g) over the last axis, for y = log_softmax(x)."""
        return (g - np.exp(y) * g.sum(axis=-1, keepdims=True)).astype(y.dtype, copy=False)

    # -------------------------------------------------------------- reductions
    def reduce_sum(self, a: np.ndarray, axis: int | tuple | None = None,
                   keepdims: bool = False) -> np.ndarray:
        """sum of ``a`` over ``axis`` (None: all), keepdims as NumPy, in ``a``'s dtype.

        float32 is accumulated in float64 and rounded once: along a non-contiguous axis
        (axis 0 of a tall array) NumPy adds row after row, so float32's error grows with the
        number of rows (percents at 10^6 rows; PyTorch sums in a cascade). Along the
        contiguous last axis NumPy already sums pairwise, and that path is kept."""
        if a.dtype != np.float32 or (axis in (-1, a.ndim - 1, (a.ndim - 1,)) and a.ndim
                                     and a.strides[-1] == a.itemsize):
            return np.asarray(np.add.reduce(a, axis=axis, keepdims=keepdims))
        return np.asarray(np.add.reduce(a, axis=axis, dtype=np.float64, keepdims=keepdims),
                          dtype=np.float32)

    # ------------------------------------------------------------------ matmul
    def matmul(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """a @ b for (..., M, K) @ (..., K, N), batch axes broadcast; a fresh array."""
        return np.matmul(a, b)

    # ------------------------------------------------------------------ linear
    def linear(self, x: np.ndarray, w: np.ndarray, b: np.ndarray | None) -> np.ndarray:
        """y = x @ w.T + b for x (..., in), w (out, in), b (out,) or None -> (..., out)."""
        y = x @ w.T
        if b is not None:
            y += b
        return y

    def linear_backward(self, g: np.ndarray, x: np.ndarray, w: np.ndarray, need_x: bool,
                        need_w: bool, need_b: bool) -> tuple:
        """(dx, dw, db) of y = x @ w.T + b, g = dL/dy (..., out): dx = g @ w, dw = g^T x
        and db = sum of g, summed over all leading rows; None if not needed."""
        g2 = g.reshape(-1, g.shape[-1])
        dx = g @ w if need_x else None
        dw = g2.T @ x.reshape(-1, x.shape[-1]) if need_w else None
        db = self.reduce_sum(g2, axis=0) if need_b else None
        return dx, dw, db

    def add_weight_grad(self, g: np.ndarray, x: np.ndarray, dw: np.ndarray) -> None:
        """dw += g^T x in place (g (M, out), x (M, in), dw (out, in))."""
        dw += g.T @ x

    # --------------------------------------------------------------- layernorm
    def layer_norm(self, x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> tuple:
        """y = (x - mean) * rstd * w + b over the last axis, rstd = 1 / sqrt(var + eps)
        (biased variance). Returns (y, mean, rstd), mean and rstd one per row, in float64
        (the statistics the backward rebuilds xhat from; y in x's dtype)."""
        x64 = x.astype(np.float64)
        mean = x64.mean(axis=-1, keepdims=True)
        rstd = 1.0 / np.sqrt(((x64 - mean) ** 2).mean(axis=-1, keepdims=True) + eps)
        y = (x64 - mean) * rstd * w + b
        return y.astype(x.dtype), mean[..., 0], rstd[..., 0]

    def layer_norm_backward(self, g: np.ndarray, x: np.ndarray, w: np.ndarray, mean: np.ndarray,
                            rstd: np.ndarray) -> tuple:
        """(dx, dw, db) for xhat = (x - mean) * rstd, y = xhat w + b:
        dx = rstd (g w - mean(g w) - xhat mean(g w xhat)); dw = sum g xhat;
        db = sum g (over rows). Computed in the statistics' float64; each result in x's dtype."""
        xhat = (x - mean[..., None]) * rstd[..., None]
        gw = g * w
        dx = rstd[..., None] * (gw - gw.mean(axis=-1, keepdims=True)
                                - xhat * (gw * xhat).mean(axis=-1, keepdims=True))
        rows = tuple(range(x.ndim - 1))
        return (dx.astype(x.dtype), self.reduce_sum(g * xhat, rows).astype(x.dtype),
                self.reduce_sum(g, rows))

    # -------------------------------------------------------------- batchnorm
    def batch_norm(self, x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> tuple:
        """y = (x - mean) / sqrt(var + eps) * w + b per channel of x (N, C, S), the statistics
        over N and S (biased variance). Returns (y, mean, var), mean and var (C,) in float64."""
        x64 = x.astype(np.float64)
        mean = x64.mean(axis=(0, 2))
        centered = x64 - mean[:, None]
        var = (centered * centered).mean(axis=(0, 2))
        y = centered / np.sqrt(var + eps)[:, None] * w[:, None] + b[:, None]
        return y.astype(x.dtype), mean, var

    def batch_norm_backward(self, g: np.ndarray, x: np.ndarray, w: np.ndarray,
                            mean: np.ndarray, rstd: np.ndarray) -> tuple:
        """(dx, dw, db) for xhat = (x - mean) * rstd, y = xhat w + b per channel:
        db = sum g, dw = sum g xhat (over N and S), dx = w rstd (g - db / n - xhat dw / n),
        n = N S. Computed in float64; each result in x's dtype."""
        xhat = (x - mean[:, None]) * rstd[:, None]
        n = x.size // x.shape[1]
        db = g.sum(axis=(0, 2), dtype=np.float64)
        dw = (g * xhat).sum(axis=(0, 2))
        dx = (w * rstd)[:, None] * (g - db[:, None] / n - xhat * (dw / n)[:, None])
        return dx.astype(x.dtype), dw.astype(x.dtype), db.astype(x.dtype)

    # -------------------------------------------------------------------- relu
    def relu(self, x: np.ndarray) -> np.ndarray:
        """NumPy's maximum with 0."""
        return np.maximum(x, x.dtype.type(0))

    def relu_backward(self, g: np.ndarray, y: np.ndarray) -> np.ndarray:
        """The gradient selected by the mask y != 0."""
        return np.where(y != 0, g, g.dtype.type(0))

    # -------------------------------------------------------------------- gelu
    def gelu(self, x: np.ndarray, want_grad: bool, approximate: str = "none") -> tuple:
        """(y, dy/dx or None) of exact GELU: y = x Phi(x), dy/dx = Phi(x) + x phi(x),
        Phi the standard normal CDF and phi its density; or of its tanh form (see
        ``Backend.gelu``). Computed in float64."""
        x64 = x.astype(np.float64)
        if approximate == "tanh":
            c = math.sqrt(2.0 / math.pi)
            with np.errstate(invalid="ignore", over="ignore"):
                t = np.tanh(c * (x64 + 0.044715 * x64 ** 3))
                y = (0.5 * x64 * (1.0 + t)).astype(x.dtype)
                if not want_grad:
                    return y, None
                slope = 0.5 * (1.0 + t) + 0.5 * x64 * (1.0 - t * t) * c * (
                    1.0 + 3.0 * 0.044715 * x64 * x64)
            return y, slope.astype(x.dtype)
        # Phi(x) = erfc(-x / sqrt 2) / 2, not (1 + erf(x / sqrt 2)) / 2: for x << 0 that
        # 1 + erf cancels to 0, while erfc keeps the tail's relative precision
        cdf = 0.5 * erfc(-x64 / math.sqrt(2.0))
        y = (x64 * cdf).astype(x.dtype)
        if not want_grad:
            return y, None
        with np.errstate(invalid="ignore", over="ignore"):
            # x phi(x) -> 0 as |x| -> inf: written so that dy/dx(+-inf) is 1 or 0, not nan
            x_pdf = (np.where(np.abs(x64) < 1e3, x64 * np.exp(-0.5 * x64 * x64), 0.0)
                     / math.sqrt(2 * math.pi))
        return y, (cdf + x_pdf).astype(x.dtype)

    def gelu_backward(self, g: np.ndarray, dydx: np.ndarray) -> np.ndarray:
        """dx = g * dy/dx (dy/dx as :meth:`gelu` returned it)."""
        return g * dydx

    # --------------------------------------------------------------- attention
    def attention(self, q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None,
                  causal: bool, scale: float, drop: np.ndarray | None,
                  keep_p: bool = True) -> tuple:
        """out = dropout(softmax(S)) @ v per head, S = q k^T * scale + mask (-inf where causal).

        q (B, Tq, H, hs), k (B, Tk, H, hs), v (B, Tk, H, hv) (any strides); ``mask`` a float
        array added to the scores, broadcastable to (B, H, Tq, Tk), or None; ``causal``: query
        i sees key j only if j <= i + Tk - Tq; ``drop`` the scaled dropout mask of P or None.
        Returns (out (B, Tq, H, hv), P (B, H, Tq, Tk), saved), where ``saved`` = (q, k, v, P,
        Pd) is what :meth:`attention_backward` reads, Pd = P * drop (P itself without
        dropout). A query whose keys are all masked (or that has no keys) gets P = 0, so
        out = 0: :meth:`softmax`'s rule. Without ``keep_p`` and with neither mask nor dropout,
        P is not kept: None is returned and saved, and the backward recomputes it."""
        # in float64, rounded once at the end: the oracle's error is its output's rounding
        # (float32 scores of size ~100 would otherwise carry errors of ~1e-5 into exp)
        qh, kh, vh = (np.swapaxes(a, 1, 2).astype(np.float64) for a in (q, k, v))
        s = (qh @ np.swapaxes(kh, -1, -2)) * scale
        if mask is not None:
            s = s + mask
        if causal:
            s = np.where(causal_mask(q.shape[1], k.shape[1]), -np.inf, s)
        p64 = self.softmax(s)
        p = p64.astype(q.dtype)
        pd = p if drop is None else p * drop
        out = (p64 if drop is None else p64 * drop) @ vh
        out = np.ascontiguousarray(np.swapaxes(out, 1, 2)).astype(q.dtype, copy=False)
        if not keep_p and mask is None and drop is None:
            return out, None, (q, k, v, None, None)
        return out, p, (q, k, v, p, pd)

    def attention_backward(self, g: np.ndarray, saved: tuple, scale: float,
                           drop: np.ndarray | None, needs: tuple, causal: bool = False,
                           like: tuple | None = None) -> tuple:
        """(dq, dk, dv), or (dq, dk, dv, dS) when ``needs`` has a fourth entry, of
        :meth:`attention` for G = dL/dout (B, Tq, H, hv), each None unless ``needs`` asks
        (``like`` is not needed: each gradient is a fresh result of NumPy's);
        ``saved`` = (q, k, v, P, Pd) as :meth:`attention` returned them: dv = Pd^T G;
        dP = (G v^T) * drop; dS = softmax_backward(P, dP) (B, H, Tq, Tk), the scores'
        gradient, which is an additive mask's; dq = dS k * scale; dk = dS^T q * scale.
        (Masked entries need no care: P is 0 there, so dS is too.) A P the forward did not
        keep (None: no mask, no dropout) is recomputed with ``causal`` and ``scale``."""
        q, k, v, p, pd = saved
        if p is None:
            p = pd = self.attention(q, k, v, None, causal, scale, None)[1]
        qh, kh, vh, gh = (np.swapaxes(a, 1, 2) for a in (q, k, v, g))  # (B, H, T, d) views
        need_q, need_k, need_v = needs[:3]
        need_s = len(needs) > 3 and needs[3]
        dv = np.swapaxes(np.swapaxes(pd, -1, -2) @ gh, 1, 2) if need_v else None
        dq = dk = ds = None
        if need_q or need_k or need_s:
            dp = gh @ np.swapaxes(vh, -1, -2)
            if drop is not None:
                dp = dp * drop
            ds = self.softmax_backward(p, dp)
            dqk = ds * q.dtype.type(scale)  # the gradient of q k^T
            dq = np.swapaxes(dqk @ kh, 1, 2) if need_q else None
            dk = np.swapaxes(np.swapaxes(dqk, -1, -2) @ qh, 1, 2) if need_k else None
        return (dq, dk, dv, ds if need_s else None)[:len(needs)]

    # ----------------------------------------------------------- cross-entropy
    def count_targets(self, targets: np.ndarray, num_classes: int, ignore_index: int) -> tuple:
        """(index of the first target outside [0, C) that is not ignore_index, or -1;
        number of targets that are not ignore_index, meaningful only when none is out of range).
        targets: int64 (N,)."""
        kept = targets != ignore_index
        bad = np.flatnonzero(kept & ((targets < 0) | (targets >= num_classes)))
        return (int(bad[0]) if bad.size else -1), int(kept.sum())

    def cross_entropy(self, logits: np.ndarray, targets: np.ndarray, ignore_index: int,
                      scale: float = 1.0, in_place: bool = False) -> tuple:
        """Per-row loss_r = logsumexp(x_r) - x_r[t_r] (N,) and scale * d(loss_r)/dx =
        scale * (softmax(x_r) - onehot(t_r)) (N, C); rows whose target is ignore_index give 0.
        Targets are already checked by :meth:`count_targets`."""
        keep = targets != ignore_index
        t = np.where(keep, targets, 0)
        rows = np.arange(logits.shape[0])
        logp = self.log_softmax(logits)
        losses = np.where(keep, -logp[rows, t], 0).astype(logits.dtype)
        grad = np.exp(logp)
        grad[rows, t] -= 1
        grad[~keep] = 0
        if in_place:
            np.multiply(grad, scale, out=logits, casting="same_kind")
            return losses, logits
        return losses, (grad * scale).astype(logits.dtype)

    # --------------------------------------------------------------- embedding
    def embedding_backward(self, ids: np.ndarray, g: np.ndarray, num_embeddings: int,
                           out: np.ndarray | None = None) -> np.ndarray:
        """dweight (num_embeddings, D): dweight[ids[i]] += g[i]; repeated ids add up, into
        zeros or into ``out`` in place. ids are in range (the op checked them)."""
        if out is None:
            out = np.zeros((num_embeddings, g.shape[-1]), dtype=g.dtype)
        np.add.at(out, ids.reshape(-1), g.reshape(-1, g.shape[-1]))
        return out

    # ---------------------------------------------------------------- masking
    def masked_fill(self, x: np.ndarray, mask: np.ndarray, value: float) -> np.ndarray:
        """A copy of x with ``value`` where mask (bool, broadcast to x) is True."""
        return np.where(mask, x.dtype.type(value), x)

    # -------------------------------------------------------------- optimizers
    def adam_update(self, p: np.ndarray, g: np.ndarray, m: np.ndarray, v: np.ndarray,
                    c: tuple, fused: bool = True, v_max: np.ndarray | None = None) -> None:
        """In place: p *= decay (AdamW); g' = g + l2 p (Adam); m = b1 m + (1-b1) g';
        v = b2 v + (1-b2) g'^2; p -= step_size * m / (sqrt(v) / sqrt(bc2) + eps); with
        ``v_max`` (amsgrad), v_max = max(v_max, v) in place of v in the denominator.
        (``fused`` changes nothing here: NumPy's update is the unfused one.)"""
        if c.apply_decay:
            p *= c.decay
        gp = g + c.l2 * p if c.apply_l2 else g
        m *= c.beta1
        m += c.one_minus_beta1 * gp
        v *= c.beta2
        v += c.one_minus_beta2 * (gp * gp)
        if v_max is not None:
            np.maximum(v_max, v, out=v_max)
        denom = np.sqrt(v if v_max is None else v_max)
        denom /= c.bc2_sqrt
        denom += c.eps
        p -= c.step_size * (m / denom)

    def sum_of_squares(self, g: np.ndarray) -> float:
        """sum(g^2) in float64 (the squared 2-norm that clip_grad_norm_ adds up)."""
        return float(np.sum(np.square(g, dtype=np.float64)))

    # ----------------------------------------------------------------- windows
    def windows(self, x: np.ndarray, kernel: tuple, stride: tuple,
                dilation: tuple) -> np.ndarray:
        """Windows as a strided view (no copy): axis o_i steps s_i elements of x's axis i,
        axis k_i steps r_i, so w[..., o, k] reads x[..., o s + k r]."""
        d = len(kernel)
        lead, space = x.shape[:-d], x.shape[-d:]
        out = window_counts(space, kernel, stride, dilation)
        if any(o < 1 for o in out):
            raise ValueError(f"windows: kernel {kernel} (dilation {dilation}) is larger than "
                             f"the input's spatial size {space}")
        st = x.strides[-d:]
        return np.lib.stride_tricks.as_strided(
            x, lead + out + tuple(kernel),
            x.strides[:-d] + tuple(a * s for a, s in zip(st, stride))
            + tuple(a * r for a, r in zip(st, dilation)), writeable=False)

    def windows_backward(self, g: np.ndarray, shape: tuple, stride: tuple,
                         dilation: tuple) -> np.ndarray:
        """col2im one kernel offset at a time: offset k of every window lands on the strided
        slice k r, k r + s, ..., of dx, so prod(kernel) slice additions do it all."""
        d = len(stride)
        out, kernel = g.shape[-2 * d:-d], g.shape[-d:]
        dx = np.zeros(shape, dtype=g.dtype)
        for k in np.ndindex(*kernel):
            at = tuple(slice(ki * r, ki * r + (o - 1) * s + 1, s)
                       for ki, o, s, r in zip(k, out, stride, dilation))
            dx[(Ellipsis, *at)] += g[(Ellipsis, *(slice(None),) * d, *k)]
        return dx

    def _padded_windows(self, x: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple,
                        pads: tuple) -> np.ndarray:
        """The window view (N, C, *O, *kernel) of x zero-padded (a padded copy of x)."""
        xp = np.pad(x, ((0, 0),) * (x.ndim - len(kernel)) + tuple(pads))
        return self.windows(xp, kernel, stride, dilation)

    def _unpadded_col2im(self, g: np.ndarray, shape: tuple, stride: tuple, dilation: tuple,
                         pads: tuple) -> np.ndarray:
        """col2im of g (N, C, *O, *kernel) onto the padded shape, the padding cut off."""
        lead = len(shape) - len(stride)
        padded = tuple(shape[:lead]) + tuple(
            n + lo + hi for n, (lo, hi) in zip(shape[lead:], pads))
        dxp = self.windows_backward(g, padded, stride, dilation)
        return np.ascontiguousarray(dxp[(slice(None),) * lead + tuple(
            slice(lo, lo + n) for n, (lo, _) in zip(shape[lead:], pads))])

    def window_rows(self, x: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple,
                    pads: tuple) -> np.ndarray:
        """The padded window view with its channel axis moved after the positions, copied."""
        w = self._padded_windows(x, kernel, stride, dilation, pads)
        return np.ascontiguousarray(np.moveaxis(w, 1, 1 + len(kernel)))

    def window_rows_backward(self, g: np.ndarray, shape: tuple, stride: tuple,
                             dilation: tuple, pads: tuple) -> np.ndarray:
        """col2im of g with its channel axis moved back before the positions, unpadded."""
        return self._unpadded_col2im(np.moveaxis(g, 1 + len(stride), 1), shape, stride,
                                     dilation, pads)

    def window_columns(self, x: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple,
                       pads: tuple) -> np.ndarray:
        """The padded window view with its kernel axes moved before the positions, copied."""
        d = len(kernel)
        w = self._padded_windows(x, kernel, stride, dilation, pads)
        return np.ascontiguousarray(w.transpose(0, 1, *range(2 + d, 2 + 2 * d),
                                                *range(2, 2 + d)))

    def window_columns_backward(self, g: np.ndarray, shape: tuple, stride: tuple,
                                dilation: tuple, pads: tuple) -> np.ndarray:
        """col2im of g with its kernel axes moved back after the positions, unpadded."""
        d = len(stride)
        return self._unpadded_col2im(g.transpose(0, 1, *range(2 + d, 2 + 2 * d),
                                                 *range(2, 2 + d)), shape, stride, dilation,
                                     pads)

    def channels_first(self, rows: np.ndarray, bias: np.ndarray | None) -> np.ndarray:
        """One transposing copy (and the bias added in it)."""
        g, n, p, o = rows.shape
        y = np.empty((n, g, o, p), rows.dtype)
        if bias is None:
            np.copyto(y, rows.transpose(1, 0, 3, 2))
        else:
            np.add(rows.transpose(1, 0, 3, 2), bias.reshape(g, o, 1), out=y)
        return y

    def channels_last(self, g: np.ndarray, want_sum: bool) -> tuple:
        """One transposing copy, and the sum (float32 accumulated in float64)."""
        return (np.ascontiguousarray(g.transpose(1, 0, 3, 2)),
                self.reduce_sum(g, (0, 3)) if want_sum else None)

    def _flat_windows(self, x: np.ndarray, kernel: tuple, stride: tuple,
                      dilation: tuple) -> np.ndarray:
        """The windows (..., *O, prod(kernel)), each flattened in row-major order (a copy)."""
        w = self.windows(x, kernel, stride, dilation)
        return w.reshape(w.shape[:w.ndim - len(kernel)] + (math.prod(kernel),))

    def window_max(self, x: np.ndarray, kernel: tuple, stride: tuple,
                   dilation: tuple) -> tuple:
        """(max, argmax) of every window, np.argmax's first-maximum rule (a NaN wins)."""
        flat = self._flat_windows(x, kernel, stride, dilation)
        arg = np.argmax(flat, axis=-1)
        return np.take_along_axis(flat, arg[..., None], -1)[..., 0], arg

    def window_select(self, x: np.ndarray, arg: np.ndarray, kernel: tuple, stride: tuple,
                      dilation: tuple) -> np.ndarray:
        """The element at kernel offset ``arg`` of every window."""
        flat = self._flat_windows(x, kernel, stride, dilation)
        return np.take_along_axis(flat, arg[..., None], -1)[..., 0]

    def window_select_backward(self, g: np.ndarray, arg: np.ndarray, shape: tuple,
                               kernel: tuple, stride: tuple, dilation: tuple) -> np.ndarray:
        """g placed at offset ``arg`` of zero windows (one-hot), then col2im."""
        onehot = np.where(np.arange(math.prod(kernel)) == arg[..., None], g[..., None],
                          g.dtype.type(0))
        return self.windows_backward(onehot.reshape(g.shape + tuple(kernel)), shape, stride,
                                     dilation)

    # -------------------------------------------------------------- recurrence
    def recurrence(self, kind: str, gi: np.ndarray, h0: np.ndarray, c0: np.ndarray | None,
                   w_hh: np.ndarray, b_hh: np.ndarray | None, reverse: bool) -> tuple:
        """(y, gates) of the recurrence, one NumPy step at a time (recurrence_reference.py)."""
        return recurrence_reference.recurrence(kind, gi, h0, c0, w_hh, b_hh, reverse)

    def recurrence_backward(self, kind: str, gy: np.ndarray, y: np.ndarray,
                            gates: np.ndarray | None, h0: np.ndarray, c0: np.ndarray | None,
                            w_hh: np.ndarray, reverse: bool) -> tuple:
        """(dgi, dh0, dc0, dw_hh, db_hh): the steps walked backwards (recurrence_reference.py)."""
        return recurrence_reference.recurrence_backward(kind, gy, y, gates, h0, c0, w_hh,
                                                        reverse)

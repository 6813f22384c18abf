"""The backend interface: every primitive the ops call, with its math.

An autograd Function in ``minigrad/ops/`` does its array work by calling a method of
``minigrad.backends.active``, an instance of a :class:`Backend` subclass:

- :class:`~minigrad.backends.reference.Reference` writes each primitive in plain NumPy
  (the code to read, and the tests' oracle);
- :class:`~minigrad.backends.fast.Fast` subclasses it and overrides only the primitives
  a Numba kernel speeds up; a primitive it does not override is the reference one.

Each method's docstring below is its contract: the math, the shapes, and what it
returns. "Rows" means every axis but the last, which the primitive runs along. The
methods here only raise ``NotImplementedError``: this class names the primitives,
it computes none of them.
"""

from __future__ import annotations

import numpy as np


def causal_mask(t_q: int, t_k: int | None = None) -> np.ndarray:
    """Boolean (t_q, t_k) mask, True above the diagonal: query i may not attend key j > i.

    With t_k > t_q (a key/value cache holding earlier positions), the queries
    are the last t_q positions of the t_k keys. (Public as ``minigrad.causal_mask``;
    it lives here, below the ops, because the attention primitives define ``causal``
    by it.)
    """
    t_k = t_q if t_k is None else t_k
    return ~np.tri(t_q, t_k, t_k - t_q, dtype=bool)


def window_counts(space: tuple, kernel: tuple, stride: tuple, dilation: tuple) -> tuple:
    """The number of windows along each dim: O_i = (S_i - r_i (k_i - 1) - 1) // s_i + 1."""
    return tuple((n - r * (k - 1) - 1) // s + 1 for n, k, s, r in zip(space, kernel, stride,
                                                                    dilation))


class Backend:
    """The primitives the ops run on: forward and backward of each, on NumPy arrays.

    A backend is stateless; :attr:`name` is what ``minigrad.get_backend()`` reports.
    """

    name = "interface"

    def __repr__(self) -> str:
        return f"<minigrad backend {self.name!r}>"

    # ------------------------------------------------------------- softmax
    def softmax(self, x: np.ndarray) -> np.ndarray:
        """y = exp(x - max) / sum(exp(x - max)) over the last axis; same shape and dtype.

        A row with no finite entry to attend to (all -inf, or no entries at all)
        gives zeros, not NaN."""
        raise NotImplementedError

    def softmax_backward(self, y: np.ndarray, g: np.ndarray) -> np.ndarray:
        """dx = y * (g - sum(g * y)) over the last axis, for y = softmax(x), g = dL/dy
        (both shaped like x)."""
        raise NotImplementedError

    def log_softmax(self, x: np.ndarray) -> np.ndarray:
        """y = x - max - log(sum(exp(x - max))) over the last axis; same shape and dtype
        (an all -inf row gives NaN, as in PyTorch)."""
        raise NotImplementedError

    def log_softmax_backward(self, y: np.ndarray, g: np.ndarray) -> np.ndarray:
        """dx = g - exp(y) * sum(g) over the last axis, for y = log_softmax(x)."""
        raise NotImplementedError

    # ---------------------------------------------------------- reductions
    def reduce_sum(self, a: np.ndarray, axis: int | tuple | None = None,
                   keepdims: bool = False) -> np.ndarray:
        """sum(a) over ``axis`` (None: all axes), keepdims as NumPy, in ``a``'s dtype, as
        accurate along any axis as a cascade (pairwise) sum: float32 along a long
        non-contiguous axis must not lose digits row after row."""
        raise NotImplementedError

    # -------------------------------------------------------------- matmul
    def matmul(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """a @ b for (..., M, K) @ (..., K, N) -> (..., M, N), batch axes broadcast;
        a fresh array."""
        raise NotImplementedError

    # -------------------------------------------------------------- linear
    def linear(self, x: np.ndarray, w: np.ndarray, b: np.ndarray | None) -> np.ndarray:
        """y = x @ w.T + b for x (..., in), w (out, in), b (out,) or None -> (..., out)."""
        raise NotImplementedError

    def linear_backward(self, g: np.ndarray, x: np.ndarray, w: np.ndarray, need_x: bool,
                        need_w: bool, need_b: bool) -> tuple:
        """(dx, dw, db) of y = x @ w.T + b, g = dL/dy (..., out): dx = g @ w (..., in),
        dw = g^T x (out, in) and db = sum of g (out,), summed over all leading rows;
        each None if not needed."""
        raise NotImplementedError

    def add_weight_grad(self, g: np.ndarray, x: np.ndarray, dw: np.ndarray) -> None:
        """dw += g^T x in place, for g (M, out), x (M, in), dw (out, in) of one float dtype:
        a Linear layer's weight gradient summed over chunks of rows."""
        raise NotImplementedError

    # ----------------------------------------------------------- layernorm
    def layer_norm(self, x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> tuple:
        """y = (x - mean) * rstd * w + b over the last axis, rstd = 1 / sqrt(var + eps)
        (biased variance); x (..., D), w and b (D,). Returns (y (..., D) in x's dtype, mean,
        rstd), mean and rstd one per row (...,), float64 whatever x's dtype."""
        raise NotImplementedError

    def layer_norm_backward(self, g: np.ndarray, x: np.ndarray, w: np.ndarray,
                            mean: np.ndarray, rstd: np.ndarray) -> tuple:
        """(dx, dw, db) for xhat = (x - mean) * rstd, y = xhat w + b, g = dL/dy (..., D):
        dx = rstd (g w - mean(g w) - xhat mean(g w xhat)) (..., D); dw = sum g xhat and
        db = sum g over rows, each (D,); all three in x's dtype."""
        raise NotImplementedError

    # ----------------------------------------------------------- batchnorm
    def batch_norm(self, x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> tuple:
        """Batch normalisation in training: y = (x - mean) / sqrt(var + eps) * w + b per
        channel of x (N, C, S), mean and the biased var over N and S; w and b (C,). Returns
        (y (N, C, S) in x's dtype, mean, var), mean and var (C,) float64."""
        raise NotImplementedError

    def batch_norm_backward(self, g: np.ndarray, x: np.ndarray, w: np.ndarray,
                            mean: np.ndarray, rstd: np.ndarray) -> tuple:
        """(dx, dw, db) of :meth:`batch_norm` for g = dL/dy (N, C, S), rstd = 1 / sqrt(var +
        eps) (C,): db = sum g, dw = sum g xhat over N and S, dx = w rstd (g - db / n -
        xhat dw / n), xhat = (x - mean) rstd, n = N S; all three in x's dtype."""
        raise NotImplementedError

    # ---------------------------------------------------------------- gelu
    def relu(self, x: np.ndarray) -> np.ndarray:
        """y = max(x, 0) elementwise, NaN passed on, a zeroed input +0 (NumPy's maximum)."""
        raise NotImplementedError

    def relu_backward(self, g: np.ndarray, y: np.ndarray) -> np.ndarray:
        """dx = g where y != 0 (y as :meth:`relu` returned it), exactly 0 elsewhere (an
        infinite g at a zeroed input gives 0, as PyTorch's); g's dtype."""
        raise NotImplementedError

    def gelu(self, x: np.ndarray, want_grad: bool, approximate: str = "none") -> tuple:
        """(y, dy/dx or None), each shaped like x, of exact GELU: y = x Phi(x),
        dy/dx = Phi(x) + x phi(x), Phi the standard normal CDF and phi its density; or, with
        ``approximate='tanh'``, of y = 0.5 x (1 + t), t = tanh(u), u = sqrt(2/pi) (x +
        0.044715 x^3): dy/dx = 0.5 (1 + t) + 0.5 x (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 x^2)."""
        raise NotImplementedError

    def gelu_backward(self, g: np.ndarray, dydx: np.ndarray) -> np.ndarray:
        """dx = g * dy/dx (dy/dx as :meth:`gelu` returned it)."""
        raise NotImplementedError

    # ----------------------------------------------------------- attention
    def attention(self, q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None,
                  causal: bool, scale: float, drop: np.ndarray | None,
                  keep_p: bool = True) -> tuple:
        """out = dropout(softmax(S)) @ v per head, S = q k^T * scale + mask (-inf where causal).

        q (B, Tq, H, hs), k (B, Tk, H, hs), v (B, Tk, H, hv) (any strides); ``mask`` a float
        array added to the scores, broadcastable to (B, H, Tq, Tk), or None; ``causal``:
        query i sees key j only if j <= i + Tk - Tq (:func:`causal_mask`); ``drop`` the
        scaled dropout mask of P or None. Returns (out (B, Tq, H, hv) C-contiguous, P (B, H,
        Tq, Tk), saved), ``saved`` = (q, k, v, P, Pd) what :meth:`attention_backward` reads:
        q, k, v the arrays given, Pd = P * drop (P itself without dropout). A query whose keys are all masked (or that has no
        keys) gets P = 0, so out = 0. Without ``keep_p`` P = None is returned and
        (q, k, v, None, None) saved: the backward then recomputes P (``causal`` and ``scale``
        as here; only where no mask and no dropout were given)."""
        raise NotImplementedError

    def attention_backward(self, g: np.ndarray, saved: tuple, scale: float,
                           drop: np.ndarray | None, needs: tuple, causal: bool = False,
                           like: tuple | None = None) -> tuple:
        """(dq, dk, dv), or (dq, dk, dv, dS) when ``needs`` has a fourth entry, of
        :meth:`attention` for G = dL/dout (B, Tq, H, hv), each None unless ``needs`` asks;
        ``saved`` as :meth:`attention` returned it: dv = Pd^T G; dP = (G v^T) * drop;
        dS = softmax_backward(P, dP) (B, H, Tq, Tk), the scores' gradient (an additive
        mask's); dq = dS k * scale; dk = dS^T q * scale. (Masked entries need no care: P is
        0 there, so dS is.) ``causal``: the forward's, to recompute a P it did not keep.
        ``like``: the forward's q, k, v arrays; a backend that writes the gradients into
        buffers it allocates lays them out so (``grad_buffers.empty_like_packed``)."""
        raise NotImplementedError

    # ------------------------------------------------------- cross-entropy
    def count_targets(self, targets: np.ndarray, num_classes: int, ignore_index: int) -> tuple:
        """(index of the first target outside [0, C) that is not ignore_index, or -1;
        number of targets that are not ignore_index, meaningful only when none is out of
        range). targets: int64 (N,)."""
        raise NotImplementedError

    def cross_entropy(self, logits: np.ndarray, targets: np.ndarray, ignore_index: int,
                      scale: float = 1.0, in_place: bool = False) -> tuple:
        """Per-row loss_r = logsumexp(x_r) - x_r[t_r] (N,) and scale * d(loss_r)/dx =
        scale * (softmax(x_r) - onehot(t_r)) (N, C), for logits x (N, C) and targets t (N,);
        rows whose target is ignore_index give 0. Targets are already checked by
        :meth:`count_targets`. ``in_place``: the gradient is written over ``logits`` (a
        C-contiguous array the caller owns and no longer needs) and returned."""
        raise NotImplementedError

    # ----------------------------------------------------------- embedding
    def embedding_backward(self, ids: np.ndarray, g: np.ndarray, num_embeddings: int,
                           out: np.ndarray | None = None) -> np.ndarray:
        """dweight (num_embeddings, D) for ids (...,) and g (..., D):
        dweight[ids[i]] += g[i]; repeated ids add up. ids are in range (the op checked them).
        Into zeros, or, given ``out`` (num_embeddings, D) of g's dtype, added into ``out`` in
        place (a tied weight's gradient from the head, already there); returns the result."""
        raise NotImplementedError

    # ------------------------------------------------------------- masking
    def masked_fill(self, x: np.ndarray, mask: np.ndarray, value: float) -> np.ndarray:
        """A copy of x with ``value`` where mask (bool, broadcast to x) is True."""
        raise NotImplementedError

    # ---------------------------------------------------------- optimizers
    def adam_update(self, p: np.ndarray, g: np.ndarray, m: np.ndarray, v: np.ndarray,
                    c: tuple, fused: bool = True, v_max: np.ndarray | None = None) -> None:
        """In place, p, g, m, v of one shape: p *= decay (AdamW); g' = g + l2 p (Adam);
        m = b1 m + (1-b1) g'; v = b2 v + (1-b2) g'^2; p -= step_size * m / (sqrt(v) /
        sqrt(bc2) + eps), the scalars ``c`` an ``AdamCoefficients`` from
        :func:`minigrad.optim.adam.adam_coefficients`. With ``v_max`` (amsgrad):
        v_max = max(v_max, v), which the denominator then uses in place of v.
        ``fused=False`` asks for NumPy's array-at-a-time update even where a fused kernel
        exists (the optimizers' ``fused`` option)."""
        raise NotImplementedError

    def sum_of_squares(self, g: np.ndarray) -> float:
        """sum(g^2) in float64 (the squared 2-norm that clip_grad_norm_ adds up)."""
        raise NotImplementedError

    # ------------------------------------------------------------- windows
    def windows(self, x: np.ndarray, kernel: tuple, stride: tuple,
                dilation: tuple) -> np.ndarray:
        """The sliding windows of x (..., *S) over its last d = len(kernel) axes (im2col
        before the reshape): a read-only view w (..., *O, *kernel) with
        w[..., o_1..o_d, k_1..k_d] = x[..., o_1 s_1 + k_1 r_1, ..., o_d s_d + k_d r_d],
        s the stride, r the dilation, O_i = (S_i - r_i (kernel_i - 1) - 1) // s_i + 1.
        Convolution is a contraction of this view with the weight, pooling a reduction of
        it over the kernel axes; the caller pads x first."""
        raise NotImplementedError

    def windows_backward(self, g: np.ndarray, shape: tuple, stride: tuple,
                         dilation: tuple) -> np.ndarray:
        """col2im, the adjoint of :meth:`windows`: dx (shape) = zeros with
        dx[..., o s + k r] += g[..., o, k] for every window position o and kernel offset k
        (overlapping windows add up), g (..., *O, *kernel); a fresh array of g's dtype."""
        raise NotImplementedError

    def window_rows(self, x: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple,
                    pads: tuple) -> np.ndarray:
        """im2col as rows: the windows of x (N, C, *S) with ``pads`` ((low, high) per spatial
        dim) zeros around it, copied to a C-contiguous (N, *O, C, *kernel),
        cols[n, o, c, k] = x_pad[n, c, o s + k r] (:meth:`windows` of the padded x with the
        channels moved after the positions). Reshaped to (N prod(O), C prod(kernel)), one
        row per window of the whole batch: the matrix a convolution multiplies by its
        weight transposed."""
        raise NotImplementedError

    def window_rows_backward(self, g: np.ndarray, shape: tuple, stride: tuple,
                             dilation: tuple, pads: tuple) -> np.ndarray:
        """The adjoint of :meth:`window_rows`: dx (``shape``, the unpadded (N, C, *S)) with
        dx[n, c, o s + k r - pad] += g[n, o, c, k] over the elements inside x, g
        (N, *O, C, *kernel); a fresh C-contiguous array."""
        raise NotImplementedError

    def window_columns(self, x: np.ndarray, kernel: tuple, stride: tuple, dilation: tuple,
                       pads: tuple) -> np.ndarray:
        """im2col as columns: the windows of x (N, C, *S) with ``pads`` zeros around it,
        copied to a C-contiguous (N, C, *kernel, *O), cols[n, c, k, o] = x_pad[n, c, o s + k r];
        per sample a (C prod(kernel), prod(O)) matrix, which a convolution's weight
        multiplies."""
        raise NotImplementedError

    def window_columns_backward(self, g: np.ndarray, shape: tuple, stride: tuple,
                                dilation: tuple, pads: tuple) -> np.ndarray:
        """The adjoint of :meth:`window_columns`: dx (``shape``, the unpadded (N, C, *S))
        with dx[n, c, o s + k r - pad] += g[n, c, k, o] over the elements inside x; a fresh
        C-contiguous array."""
        raise NotImplementedError

    def channels_first(self, rows: np.ndarray, bias: np.ndarray | None) -> np.ndarray:
        """A convolution's product, rows (G, N, P, O/G) (channels last), laid out as
        PyTorch's (N, G, O/G, P), C-contiguous, plus ``bias`` (O,) if given."""
        raise NotImplementedError

    def channels_last(self, g: np.ndarray, want_sum: bool) -> tuple:
        """The way back: g (N, G, O/G, P) as C-contiguous rows (G, N, P, O/G), and the sum of
        g over N and P, (G, O/G) in g's dtype (the bias' gradient), if ``want_sum`` (else
        None)."""
        raise NotImplementedError

    def window_max(self, x: np.ndarray, kernel: tuple, stride: tuple,
                   dilation: tuple) -> tuple:
        """(y, arg) over the windows of x (..., *S) (as :meth:`windows` cuts them): y (..., *O)
        the maximum of each window, arg (..., *O) int64 its flat row-major kernel offset; of
        equal maxima the first, and a NaN counts as the largest (``np.argmax``'s rule)."""
        raise NotImplementedError

    def window_select(self, x: np.ndarray, arg: np.ndarray, kernel: tuple, stride: tuple,
                      dilation: tuple) -> np.ndarray:
        """y (..., *O) = x[..., o s + k r] with k the kernel offset ``arg[..., o]`` (flat,
        row-major): one element of every window, the gather whose adjoint is
        :meth:`window_select_backward`."""
        raise NotImplementedError

    def window_select_backward(self, g: np.ndarray, arg: np.ndarray, shape: tuple,
                               kernel: tuple, stride: tuple, dilation: tuple) -> np.ndarray:
        """dx (shape) = zeros with dx[..., o s + k r] += g[..., o], k = ``arg[..., o]``: the
        adjoint of :meth:`window_select` (overlapping windows add up); g's dtype."""
        raise NotImplementedError

    # ---------------------------------------------------------- recurrence
    def recurrence(self, kind: str, gi: np.ndarray, h0: np.ndarray, c0: np.ndarray | None,
                   w_hh: np.ndarray, b_hh: np.ndarray | None, reverse: bool) -> tuple:
        """A whole recurrence over a sequence (``kind`` 'RNN_TANH', 'RNN_RELU', 'LSTM' or
        'GRU', PyTorch's cells): each step adds gh = h W_hh^T + b_hh to the input's part gi[t]
        and applies the cell (``backends/recurrence_reference.py`` has the formulas). gi
        (L, N, G H), h0 and c0 (N, H) (c0 for the LSTM only, else None), w_hh (G H, H), b_hh
        (G H,) or None; steps run t = 0 .. L-1, or backwards with ``reverse``. Returns (y
        (L, N, S H): the state after each step, in time order, h or (LSTM, S = 2) h and c
        side by side; gates (L, N, 4 H) or None: what :meth:`recurrence_backward` reads)."""
        raise NotImplementedError

    def recurrence_backward(self, kind: str, gy: np.ndarray, y: np.ndarray,
                            gates: np.ndarray | None, h0: np.ndarray, c0: np.ndarray | None,
                            w_hh: np.ndarray, reverse: bool) -> tuple:
        """Backpropagation through time of :meth:`recurrence`, gy = dL/dy (L, N, S H):
        (dgi (L, N, G H), dh0 (N, H), dc0 (N, H) or None, dw_hh (G H, H), db_hh (G H,))."""
        raise NotImplementedError

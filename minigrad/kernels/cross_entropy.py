"""Cross-entropy of logits against integer targets, loss and gradient in one pass.

For a row of logits z (C classes) and target t:
    loss = logsumexp(z) - z_t,   logsumexp(z) = m + log(sum_j exp(z_j - m)),  m = max(z)
    dloss/dz_j = softmax(z)_j - [j == t]
Subtracting m keeps exp() in range for logits of +-1e4. A row whose target is
``ignore_index`` has loss 0 and gradient 0. The gradient needs the same
exp(z_j - m) values as the loss, so the forward pass computes both (each
gradient row already multiplied by a ``scale``, e.g. 1/N for a mean); the
backward pass of the op then has nothing left to do but hand it on.

float32 runs on :func:`cross_entropy_f32`, one Numba pass per row that stays
in L1: row max, e_j = exp(z_j - m) written into the gradient row, their sum,
then the loss and the scaling. Its exp is :func:`_exp_f32`, plain float32
arithmetic (Cody-Waite range reduction and Cephes' ``expf`` polynomial, about
1 ulp) that LLVM turns into AVX-512/AVX2 vector code; ``np.exp`` in a Numba
loop would be one scalar libm call per element (~3 ns, 6x slower).
float64 (gradchecks) keeps libm's exp: a Numba pass writes z - m, NumPy's
``np.exp`` exponentiates that buffer in place, a second pass finishes the rows.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .gelu import bits_to_f32

# Reassociate sums (so they vectorize), contract to FMA, ignore the sign of zero,
# reciprocal instead of divide. Not 'nnan'/'ninf': inf/NaN logits must stay visible.
_FAST = {"reassoc", "contract", "nsz", "arcp"}
_F = np.float32
_EXP_MIN = _F(-87.5)  # exp(-87.5) ~ 1e-38: below it the result is taken as 0


def cross_entropy_reference(logits: np.ndarray, targets: np.ndarray, ignore_index: int):
    """Plain NumPy: per-row losses (N,) and d(loss_i)/d(logits) (N, C); ignored rows are 0."""
    m = logits.max(axis=-1, keepdims=True)
    e = np.exp(logits - m)
    s = e.sum(axis=-1, keepdims=True)
    keep = targets != ignore_index
    t = np.where(keep, targets, 0)
    rows = np.arange(logits.shape[0])
    losses = np.where(keep, (m[:, 0] + np.log(s[:, 0])) - logits[rows, t], 0.0)
    grad = e / s
    grad[rows, t] -= 1.0
    grad[~keep] = 0.0
    return losses.astype(logits.dtype), grad.astype(logits.dtype)


@njit(cache=True)
def check_targets(targets, num_classes, ignore_index):
    """(position of the first target outside [0, C) and not ignore_index, or -1;
    number of targets that are not ignore_index). Run before the other kernels."""
    count = 0
    for i in range(targets.shape[0]):
        t = targets[i]
        if t == ignore_index:
            continue
        if t < 0 or t >= num_classes:
            return i, count
        count += 1
    return -1, count


@njit(cache=True, inline="always", error_model="numpy")
def _exp_f32(y):
    """exp(y) in float32 for y <= 0 (or NaN), as vectorisable arithmetic.

    y = n ln2 + r with n = round(y / ln2), |r| <= ln2 / 2, so exp(y) = 2^n e^r;
    2^n is built from its exponent bits. y < -87.5 (also -inf) gives 0, which is
    off by less than 1.2e-38; a NaN y gives NaN. Compiled without fastmath: the
    two-part ln2 only cancels exactly if every operation is rounded as written.
    """
    yr = _EXP_MIN if y < _EXP_MIN else y  # -inf -> -87.5; NaN stays NaN (and gives NaN)
    yn = yr if yr >= _EXP_MIN else _EXP_MIN  # NaN -> -87.5: n must be a real number
    n = np.floor(yn * _F(1.4426950408889634) + _F(0.5))  # -126 <= n <= 0
    r = yr - n * _F(0.693359375)          # ln2 = 0.693359375 - 2.12194440e-4, the
    r = r - n * _F(-2.12194440e-4)        # first part has few bits: n * it is exact
    p = _F(1.9875691500e-4)               # Cephes expf: e^r = 1 + r + r^2 p(r)
    p = p * r + _F(1.3981999507e-3)
    p = p * r + _F(8.3334519073e-3)
    p = p * r + _F(4.1665795894e-2)
    p = p * r + _F(1.6666665459e-1)
    p = p * r + _F(5.0000001201e-1)
    p = p * r * r + r + _F(1.0)
    e = p * bits_to_f32((np.int32(127) + np.int32(n)) << 23)  # exponent field 127 + n >= 1
    return _F(0.0) if y < _EXP_MIN else e


@njit(cache=True, error_model="numpy")
def exp_f32(y, out):
    """out = exp(y) over flat float32 arrays with y <= 0 (the kernel's exp, for tests)."""
    for i in range(y.size):
        out[i] = _exp_f32(y[i])


@njit(cache=True, fastmath=_FAST)
def _row_max(row):
    """max(row) for C >= 1, as four independent running maxima over interleaved
    columns: one running max makes every comparison wait for the previous one,
    four chains let the CPU overlap them. NaN is skipped (it reaches the loss
    through z - m)."""
    C = row.shape[0]
    m0 = m1 = m2 = m3 = row[0]
    c = 0
    while c + 4 <= C:
        m0 = max(m0, row[c])
        m1 = max(m1, row[c + 1])
        m2 = max(m2, row[c + 2])
        m3 = max(m3, row[c + 3])
        c += 4
    m = max(max(m0, m1), max(m2, m3))
    while c < C:
        m = max(m, row[c])
        c += 1
    return m


@njit(cache=True, fastmath=_FAST)
def _row_sum(row):
    """sum(row) in the data's precision; fastmath's reassoc lets it run 16 lanes wide."""
    s = row[0]
    for c in range(1, row.shape[0]):
        s += row[c]
    return s


@njit(cache=True, error_model="numpy")
def cross_entropy_f32(x, targets, ignore_index, scale, losses, grad):
    """float32 losses[r] = max + log(sum_j exp(x[r, j] - max)) - x[r, t] and
    grad[r] = scale * (softmax(x[r]) - onehot(t)); ignored rows give 0 and 0.
    x, grad: (N, C) C-contiguous, C >= 1; targets already checked."""
    N, C = x.shape
    fs = _F(scale)
    for r in range(N):
        t = targets[r]
        g = grad[r]
        if t == ignore_index:
            losses[r] = 0.0
            for c in range(C):
                g[c] = 0.0
            continue
        row = x[r]
        m = _row_max(row)
        for c in range(C):  # the hot loop: vector exp, no library call
            g[c] = _exp_f32(row[c] - m)
        s = _row_sum(g)
        losses[r] = m + np.log(s) - row[t]
        k = fs / s
        for c in range(C):
            g[c] *= k
        g[t] -= fs


@njit(cache=True, fastmath=_FAST)
def shift_by_row_max(x, shifted, row_max):
    """shifted[r] = x[r] - max(x[r]); row_max[r] = max(x[r]). x, shifted: (N, C), C >= 1.

    The max is kept as four independent running maxima over interleaved columns:
    a single running max makes every comparison wait for the previous one,
    four chains let the CPU overlap them (about 2x faster here). A NaN logit is
    skipped by the comparisons but still gives NaN in ``shifted`` (and the loss).
    """
    N, C = x.shape
    for r in range(N):
        row = x[r]
        m0 = m1 = m2 = m3 = row[0]
        c = 0
        while c + 4 <= C:
            a, b, d, e = row[c], row[c + 1], row[c + 2], row[c + 3]
            m0 = max(m0, a)
            m1 = max(m1, b)
            m2 = max(m2, d)
            m3 = max(m3, e)
            c += 4
        m = max(max(m0, m1), max(m2, m3))
        while c < C:
            m = max(m, row[c])
            c += 1
        row_max[r] = m
        out = shifted[r]
        for c in range(C):
            out[c] = row[c] - m


@njit(cache=True, fastmath=_FAST)
def finish_rows(x, e, row_max, targets, ignore_index, scale, losses):
    """Given e = exp(x - row_max): losses[r] = row_max + log(sum e) - x[r, t], and e
    becomes the gradient scale * (softmax - onehot(t)); ignored rows give 0 and 0."""
    N, C = x.shape
    for r in range(N):
        t = targets[r]
        if t == ignore_index:
            losses[r] = 0.0
            for c in range(C):
                e[r, c] = 0.0
            continue
        s = e[r, 0]  # accumulates in the data's precision: 16 float32 lanes at once
        for c in range(1, C):
            s += e[r, c]
        losses[r] = row_max[r] + np.log(s) - x[r, t]
        k = scale / s
        for c in range(C):
            e[r, c] *= k
        e[r, t] -= scale


def cross_entropy(logits: np.ndarray, targets: np.ndarray, ignore_index: int, scale: float = 1.0):
    """Per-row losses (N,) and the gradient scale * d(loss_r)/d(logits) (N, C).

    The caller has checked that logits is (N, C) with C >= 1 and that every
    target is in [0, C) or equals ``ignore_index`` (:func:`check_targets`).
    """
    x = np.ascontiguousarray(logits)
    t = np.ascontiguousarray(targets, dtype=np.int64)
    losses = np.empty(x.shape[0], dtype=x.dtype)
    grad = np.empty(x.shape, dtype=x.dtype)
    if x.shape[0] and x.dtype == np.float32:
        cross_entropy_f32(x, t, int(ignore_index), float(scale), losses, grad)
    elif x.shape[0]:
        row_max = np.empty(x.shape[0], dtype=x.dtype)
        shift_by_row_max(x, grad, row_max)
        np.exp(grad, out=grad)
        finish_rows(x, grad, row_max, t, int(ignore_index), float(scale), losses)
    return losses, grad

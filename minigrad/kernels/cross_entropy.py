"""Cross-entropy of logits against integer targets, loss and gradient in one pass.

For a row of logits z (C classes) and target t:
    loss = logsumexp(z) - z_t,   logsumexp(z) = m + log(sum_j exp(z_j - m)),  m = max(z)
    dloss/dz_j = softmax(z)_j - [j == t]
Subtracting m keeps exp() in range for logits of +-1e4. A row whose target is
``ignore_index`` has loss 0 and gradient 0. The gradient needs the same
exp(z_j - m) values as the loss, so the forward pass computes both (each
gradient row already multiplied by a ``scale``, e.g. 1/N for a mean); the
backward pass of the op then has nothing left to do but hand it on.

Why three passes: the exponential dominates the cost. Numba compiles
``np.exp`` to one scalar libm call per element (~3 ns), while NumPy's own
``np.exp`` runs SIMD code over the whole array (~0.5 ns per float32). So a
Numba pass writes z - m, NumPy exponentiates that buffer in place, and a
second Numba pass sums each row, writes the loss and turns the buffer into
the gradient. The (N, C) buffer stays in cache between the passes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Reassociate sums (so they vectorize), contract to FMA, ignore the sign of zero,
# reciprocal instead of divide. Not 'nnan'/'ninf': inf/NaN logits must stay visible.
_FAST = {"reassoc", "contract", "nsz", "arcp"}


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
    if x.shape[0]:
        row_max = np.empty(x.shape[0], dtype=x.dtype)
        shift_by_row_max(x, grad, row_max)
        np.exp(grad, out=grad)
        finish_rows(x, grad, row_max, t, int(ignore_index), float(scale), losses)
    return losses, grad

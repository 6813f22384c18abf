"""Cross-entropy of logits against integer targets, loss and gradient in one pass.

For a row of logits z (C classes) and target t:
    loss = logsumexp(z) - z_t,   logsumexp(z) = m + log(sum_j exp(z_j - m)),  m = max(z)
    dloss/dz_j = softmax(z)_j - [j == t]
Subtracting m keeps exp() in range for logits of +-1e4. A row whose target is
``ignore_index`` has loss 0 and gradient 0. The gradient needs the same
exp(z_j - m) values as the loss, so the forward pass computes both (each
gradient row already multiplied by a ``scale``, e.g. 1/N for a mean); the
backward pass of the op then has nothing left to do but hand it on.

float32 runs on :func:`cross_entropy_f32` (rows shared out over the threads when there
are many: :func:`cross_entropy_f32_par`), one Numba pass per row that stays
in L1: row max, e_j = exp(z_j - m) written into the gradient row, their sum,
then the scaling into the gradient (the loss's log is taken by NumPy for all
rows at once). Its exp is ``float32_bits.exp_nonpos_f32``, plain float32
arithmetic (Cody-Waite range reduction and Cephes' ``expf`` polynomial, about
1 ulp) that LLVM turns into AVX-512/AVX2 vector code; ``np.exp`` in a Numba
loop would be one scalar libm call per element (~3 ns, 6x slower).
float64 (gradchecks) keeps libm's exp: a Numba pass writes z - m, NumPy's
``np.exp`` exponentiates that buffer in place, a second pass finishes the rows.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .runtime.float32_bits import CONTRACT, exp_nonpos_f32, exp_row_f32, row_max_f32
from .runtime.settings import parallel
from .runtime.threads import PARALLEL_MIN_SIZE

# Reassociate sums (so they vectorize), contract to FMA, ignore the sign of zero,
# reciprocal instead of divide. Not 'nnan'/'ninf': inf/NaN logits must stay visible.
_FAST = {"reassoc", "contract", "nsz", "arcp"}
_F = np.float32


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


@njit(cache=True, fastmath=CONTRACT, error_model="numpy")
def exp_f32(y, out):
    """out = exp(y) over flat float32 arrays with y <= 0 (the kernel's exp, for tests)."""
    for i in range(y.size):
        out[i] = exp_nonpos_f32(y[i])


@njit(cache=True, fastmath=CONTRACT, error_model="numpy", inline="always")
def _row_f32(x, targets, ignore_index, scale, sums, shift, grad, r):
    """Row r of :func:`cross_entropy_f32` (rows are independent, so a loop may share them out
    over the threads; the two compiled loops may sum a row's exps in another order)."""
    C = x.shape[1]
    fs = _F(scale)
    one = _F(1.0)
    t = targets[r]
    if t == ignore_index:
        sums[r] = 1.0  # log(1) + 0 = 0
        shift[r] = 0.0
        for c in range(C):
            grad[r, c] = 0.0
        return
    # The row max, taken over integer keys that sort like the floats:
    # an int max is one vector instruction with a short horizontal
    # reduction, a float max must handle NaN and costs twice as much here.
    # A NaN logit makes m or the exp NaN: either way the loss is NaN.
    m = row_max_f32(x, r, C, one)
    shift[r] = m - x[r, t]  # read before the exp: grad may be x itself (in place)
    s = exp_row_f32(x, r, C, one, m, grad)  # the hot loop: vector exp, no library call
    sums[r] = s  # the loss is finished below, all rows at once
    inv = fs / s
    for c in range(C):
        grad[r, c] *= inv
    grad[r, t] -= fs


@njit(cache=True, fastmath=CONTRACT, error_model="numpy")
def cross_entropy_f32(x, targets, ignore_index, scale, sums, shift, grad):
    """float32 parts of the loss, sums[r] = sum_j exp(x[r, j] - max) and
    shift[r] = max - x[r, t] (loss = log(sums) + shift), and the gradient
    grad[r] = scale * (softmax(x[r]) - onehot(t)); ignored rows give sums 1,
    shift 0 and gradient 0. x, grad: (N, C) C-contiguous, C >= 1, and ``grad`` may be
    ``x`` itself (each row's x[r, t] is read before the row is overwritten); targets
    already checked. The log is left to the caller: NumPy's vector log over
    all rows costs less than one libm call per row.

    Only 'contract' fastmath: Numba passes the flags on to :func:`_exp_f32`.
    The max and the exp's sum are ``float32_bits.row_max_f32`` / ``exp_row_f32``,
    shared with the fused attention kernel.
    Indexing x[r, c] rather than taking row views avoids reference-counting
    calls in the loop.
    """
    for r in range(x.shape[0]):
        _row_f32(x, targets, ignore_index, scale, sums, shift, grad, r)


@njit(cache=True, fastmath=CONTRACT, error_model="numpy", parallel=True)
def cross_entropy_f32_par(x, targets, ignore_index, scale, sums, shift, grad):
    """cross_entropy_f32 with the rows shared out over the threads (a language model's
    head: 1,024 rows of 50,257 logits a GPT-2 step)."""
    for r in prange(x.shape[0]):
        _row_f32(x, targets, ignore_index, scale, sums, shift, grad, r)


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
def finish_rows(e, row_max, target_logit, targets, ignore_index, scale, losses):
    """Given e = exp(x - row_max) and each row's target logit x[r, t]: losses[r] = row_max +
    log(sum e) - x[r, t], and e becomes the gradient scale * (softmax - onehot(t)); ignored
    rows give 0 and 0. (x itself is not read: e may have been written over it.)"""
    N, C = e.shape
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
        losses[r] = row_max[r] + np.log(s) - target_logit[r]
        k = scale / s
        for c in range(C):
            e[r, c] *= k
        e[r, t] -= scale


def cross_entropy(logits: np.ndarray, targets: np.ndarray, ignore_index: int, scale: float = 1.0,
                  in_place: bool = False):
    """Per-row losses (N,) and the gradient scale * d(loss_r)/d(logits) (N, C).

    The caller has checked that logits is (N, C) with C >= 1 and that every
    target is in [0, C) or equals ``ignore_index`` (:func:`check_targets`). The
    check is repeated here (one pass over N ints) so that the kernels, which index
    rows by target, never read outside ``logits``: IndexError otherwise.
    ``in_place``: the gradient is written over ``logits`` (a C-contiguous, writeable
    array the caller owns and no longer needs), which saves an (N, C) array.
    """
    x = np.ascontiguousarray(logits)
    t = np.ascontiguousarray(targets, dtype=np.int64)
    bad, _ = check_targets(t, x.shape[1], int(ignore_index))
    if bad >= 0:
        raise IndexError(f"cross_entropy: target {t[bad]} at row {bad} is outside "
                         f"[0, {x.shape[1]}) and not ignore_index={ignore_index}")
    if in_place and not (x is logits and x.flags.writeable):
        raise ValueError("cross_entropy(in_place=True) needs C-contiguous, writeable logits")
    losses = np.empty(x.shape[0], dtype=x.dtype)
    grad = x if in_place else np.empty(x.shape, dtype=x.dtype)
    if x.shape[0] and x.dtype == np.float32:
        shift = np.empty_like(losses)
        threads = parallel() and x.size >= PARALLEL_MIN_SIZE and x.shape[0] > 1
        kernel = cross_entropy_f32_par if threads else cross_entropy_f32
        kernel(x, t, int(ignore_index), float(scale), losses, shift, grad)
        np.log(losses, out=losses)
        losses += shift
    elif x.shape[0]:
        row_max = np.empty(x.shape[0], dtype=x.dtype)
        target_logit = x[np.arange(x.shape[0]), np.where(t == ignore_index, 0, t)]  # a copy
        shift_by_row_max(x, grad, row_max)
        np.exp(grad, out=grad)
        finish_rows(grad, row_max, target_logit, t, int(ignore_index), float(scale), losses)
    return losses, grad

"""The Adam / AdamW parameter update, fused into one pass over each array.

For a parameter p with gradient g, first moment m and second moment v, at
step t (counting from 1), with bias corrections bc1 = 1 - beta1**t and
bc2 = 1 - beta2**t (PyTorch's ``torch.optim.Adam``/``AdamW`` rules):

    p  = p * (1 - lr * wd)                    AdamW only (decoupled weight decay)
    g' = g + wd * p                           Adam only (L2 penalty added to the gradient)
    m  = beta1 * m + (1 - beta1) * g'
    v  = beta2 * v + (1 - beta2) * g' * g'
    p  = p - (lr / bc1) * m / (sqrt(v) / sqrt(bc2) + eps)

NumPy needs about ten array passes (and temporaries) for this; the Numba
kernel reads each element of p, g, m, v once and writes p, m, v once.

Both versions take the scalar coefficients from :func:`adam_coefficients`,
already cast to the parameter's dtype, and evaluate the same expressions in
the same order, so for float32 and float64 they round identically (no fused
multiply-add: Numba compiles without fastmath).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit


class AdamCoefficients(NamedTuple):
    """Per-step scalars of the update, each of the parameter's dtype."""

    decay: np.floating  # 1 - lr * wd (AdamW), 1 otherwise
    l2: np.floating  # wd (Adam), 0 otherwise
    beta1: np.floating
    one_minus_beta1: np.floating
    beta2: np.floating
    one_minus_beta2: np.floating
    step_size: np.floating  # lr / bc1
    bc2_sqrt: np.floating  # sqrt(bc2)
    eps: np.floating
    apply_decay: bool
    apply_l2: bool


def adam_coefficients(
    lr: float, beta1: float, beta2: float, eps: float, weight_decay: float, step: int,
    decoupled: bool, dtype: np.dtype,
) -> AdamCoefficients:
    """The scalars of one Adam (``decoupled=False``) or AdamW step ``step`` (>= 1).

    Computed in Python float64 as PyTorch does, then cast to ``dtype`` so the
    array arithmetic stays in the parameter's precision.
    """
    dt = np.dtype(dtype).type
    bc1 = 1.0 - beta1**step
    bc2 = 1.0 - beta2**step
    use_wd = weight_decay != 0.0
    return AdamCoefficients(
        decay=dt(1.0 - lr * weight_decay if decoupled else 1.0),
        l2=dt(0.0 if decoupled else weight_decay),
        beta1=dt(beta1),
        one_minus_beta1=dt(1.0 - beta1),
        beta2=dt(beta2),
        one_minus_beta2=dt(1.0 - beta2),
        step_size=dt(lr / bc1),
        bc2_sqrt=dt(math.sqrt(bc2)),
        eps=dt(eps),
        apply_decay=decoupled and use_wd,
        apply_l2=(not decoupled) and use_wd,
    )


def adam_update_reference(
    p: np.ndarray, g: np.ndarray, m: np.ndarray, v: np.ndarray, c: AdamCoefficients
) -> None:
    """Plain NumPy update of p, m, v in place (any shapes/strides, all equal shapes)."""
    if c.apply_decay:
        p *= c.decay
    gp = g + c.l2 * p if c.apply_l2 else g
    m *= c.beta1
    m += c.one_minus_beta1 * gp
    v *= c.beta2
    v += c.one_minus_beta2 * (gp * gp)
    denom = np.sqrt(v)
    denom /= c.bc2_sqrt
    denom += c.eps
    p -= c.step_size * (m / denom)


# error_model="numpy": x / 0 gives inf/nan as in NumPy instead of a per-element
# ZeroDivisionError check, which would also stop LLVM from vectorising the loop.
@njit(cache=True, error_model="numpy")
def _adam_update_flat(
    p, g, m, v, decay, l2, beta1, one_minus_beta1, beta2, one_minus_beta2,
    step_size, bc2_sqrt, eps, apply_decay, apply_l2,
):
    """p, g, m, v: 1-D arrays of one float dtype and equal length; p, m, v updated in place."""
    for i in range(p.shape[0]):
        pi = p[i]
        if apply_decay:
            pi = pi * decay
        gi = g[i]
        if apply_l2:
            gi = gi + l2 * pi
        mi = beta1 * m[i] + one_minus_beta1 * gi
        vi = beta2 * v[i] + one_minus_beta2 * (gi * gi)
        m[i] = mi
        v[i] = vi
        p[i] = pi - step_size * (mi / (np.sqrt(vi) / bc2_sqrt + eps))


def adam_update_fused(
    p: np.ndarray, g: np.ndarray, m: np.ndarray, v: np.ndarray, c: AdamCoefficients
) -> None:
    """The Numba update of p, m, v in place.

    p, m, v must be C-contiguous (so ``reshape(-1)`` is a view that writes
    through) and share one dtype and shape with g; the caller checks this.
    """
    gf = np.ascontiguousarray(g, dtype=p.dtype).reshape(-1)
    _adam_update_flat(
        p.reshape(-1), gf, m.reshape(-1), v.reshape(-1),
        c.decay, c.l2, c.beta1, c.one_minus_beta1, c.beta2, c.one_minus_beta2,
        c.step_size, c.bc2_sqrt, c.eps, c.apply_decay, c.apply_l2,
    )

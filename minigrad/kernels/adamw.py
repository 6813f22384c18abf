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

Both this kernel and ``Reference.adam_update`` (``minigrad/backends/reference.py``)
take the scalar coefficients of ``minigrad.optim.adam.adam_coefficients``, already cast
to the parameter's dtype, and evaluate the same expressions in the same order, so
for float32 and float64 they round identically (no fused multiply-add: Numba
compiles without fastmath).
"""

from __future__ import annotations

import numpy as np
from numba import njit


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
    p: np.ndarray, g: np.ndarray, m: np.ndarray, v: np.ndarray, decay: np.floating,
    l2: np.floating, beta1: np.floating, one_minus_beta1: np.floating, beta2: np.floating,
    one_minus_beta2: np.floating, step_size: np.floating, bc2_sqrt: np.floating,
    eps: np.floating, apply_decay: bool, apply_l2: bool,
) -> None:
    """The Numba update of p, m, v in place, the scalars in the parameter's dtype (an
    ``AdamCoefficients``, passed as ``*coefficients``).

    p, m, v must be C-contiguous (so ``reshape(-1)`` is a view that writes
    through) and share one dtype and shape with g; the caller checks this.
    """
    gf = np.ascontiguousarray(g, dtype=p.dtype).reshape(-1)
    _adam_update_flat(
        p.reshape(-1), gf, m.reshape(-1), v.reshape(-1),
        decay, l2, beta1, one_minus_beta1, beta2, one_minus_beta2,
        step_size, bc2_sqrt, eps, apply_decay, apply_l2,
    )

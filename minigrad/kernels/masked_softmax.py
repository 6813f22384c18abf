"""The softmax inside attention: scale, mask and normalise the scores in place.

For a score row s (one query against Tk keys):
    z_j = s_j * scale + mask_j, or -inf where the key is after the query (causal);
          the additive mask is -inf where a key is blocked
    p_j = exp(z_j - max(z)) / sum_k exp(z_k - max(z))
A row with every key masked has no finite max and gives p = 0 (never NaN).

Backward, with dP = dL/dp:  dS_j = scale * p_j * (dP_j - sum_k dP_k p_k).

The causal mask is not stored: with queries at the last Tq of Tk positions,
query i may attend key j only if j <= i + (Tk - Tq). As in the softmax kernel,
the exponential is left to NumPy (SIMD, ~0.5 ns a float) between two Numba
passes (a libm call per element inside Numba costs ~3 ns); the first pass
folds scaling, masking and the max subtraction into one sweep over the scores,
the second (and the backward) are the plain softmax's own kernels
(``softmax.py``: ``normalise_rows``, ``softmax_backward_rows`` with a scale).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .softmax import normalise_rows, softmax_backward_rows

# Reassociate sums (so they vectorize), FMA, no signed zeros, reciprocals.
# Not 'nnan'/'ninf': the masked scores are -inf.
_FAST = {"reassoc", "contract", "nsz", "arcp"}


@njit(cache=True, fastmath=_FAST)
def scale_mask_shift(s, scale, neg_inf, mask, use_mask, causal):
    """In place on s (A, B, Tq, Tk): s = s * scale + mask - rowmax (-inf past the causal limit).

    ``scale`` and ``neg_inf`` (-inf) come typed as s's dtype, so float32 stays
    float32. ``mask`` is the additive (A, B, Tq, Tk) mask of s's dtype (broadcast
    views with zero strides are fine), read only if ``use_mask``; ``causal``
    masks keys j > i + Tk - Tq.
    """
    A, B, t_q, t_k = s.shape
    for a in range(A):
        for b in range(B):
            for i in range(t_q):
                row = s[a, b, i]
                lim = min(t_k, i + t_k - t_q + 1) if causal else t_k
                lim = max(lim, 0)
                m = neg_inf
                for j in range(lim):
                    z = row[j] * scale
                    if use_mask:
                        z += mask[a, b, i, j]
                    row[j] = z
                    m = max(m, z)
                for j in range(lim, t_k):
                    row[j] = neg_inf
                if m == neg_inf:
                    continue  # every key masked: exp gives 0 everywhere
                for j in range(lim):
                    row[j] = row[j] - m


def _four_d(x: np.ndarray) -> np.ndarray:
    """(..., Tq, Tk) as (A, B, Tq, Tk) (a view for contiguous x)."""
    lead = x.shape[:-2]
    if len(lead) == 2:
        return x
    b = lead[-1] if lead else 1
    return x.reshape((-1, b) + x.shape[-2:])


def masked_softmax(s: np.ndarray, scale: float, mask: np.ndarray | None, causal: bool) -> np.ndarray:
    """Overwrite the C-contiguous scores ``s`` (..., Tq, Tk) with their scaled, masked
    softmax and return them. ``mask``: additive (-inf = blocked), broadcastable to s."""
    if s.size == 0:
        return s
    s4 = _four_d(s)
    if mask is None:
        m4 = np.zeros((1, 1, 1, 1), dtype=s.dtype)
    else:
        m4 = _four_d(np.broadcast_to(mask.astype(s.dtype, copy=False), s.shape))
        m4 = np.broadcast_to(m4, s4.shape)
    dt = s.dtype.type
    scale_mask_shift(s4, dt(scale), dt(-np.inf), m4, mask is not None, bool(causal))
    np.exp(s, out=s)
    normalise_rows(s.reshape(-1, s.shape[-1]), dt(1))
    return s


def masked_softmax_backward(p: np.ndarray, dp: np.ndarray, scale: float) -> np.ndarray:
    """Overwrite the C-contiguous ``dp`` with dL/ds (see the module docstring) and return it."""
    if p.size:
        softmax_backward_rows(p.reshape(-1, p.shape[-1]), dp.reshape(-1, dp.shape[-1]),
                              p.dtype.type(scale))
    return dp

"""col2im, the adjoint of the strided window view: every window's gradient added back onto
the elements it read, in one pass.

g (B, OD, OH, OW, KD, KH, KW) -> dx (B, D, H, W) = zeros with
dx[b, o s + k r] += g[b, o, k] (s the stride, r the dilation, per dim); 1-d and 2-d windows
come with size-1 leading dims. The reference backend does the same as prod(kernel) strided
slice additions over the whole of dx (nine passes for a 3x3 kernel); here each row b is one
pass, kernel offsets outermost (a convolution's gradient of its im2col matrix is laid out
kernel-major, so g is read in memory order), the rows split over the threads (a row writes
only its own part of dx: no two threads add into one element).
"""

from __future__ import annotations

import numpy as np
from numba import get_num_threads, njit, prange

from .runtime.settings import parallel
from .runtime.threads import PARALLEL_MIN_SIZE


@njit(cache=True)
def _col2im_rows(g, s, r, dx, b0, b1):
    _, OD, OH, OW, KD, KH, KW = g.shape
    for b in range(b0, b1):
        for i in range(KD):
            for j in range(KH):
                for m in range(KW):
                    for od in range(OD):
                        d = od * s[0] + i * r[0]
                        for oh in range(OH):
                            h = oh * s[1] + j * r[1]
                            for ow in range(OW):
                                dx[b, d, h, ow * s[2] + m * r[2]] += g[b, od, oh, ow, i, j, m]


@njit(cache=True, parallel=True)
def col2im_par(g, s, r, dx, n):
    B = g.shape[0]
    for c in prange(n):
        _col2im_rows(g, s, r, dx, c * B // n, (c + 1) * B // n)


def col2im(g: np.ndarray, shape: tuple, stride: tuple, dilation: tuple) -> np.ndarray:
    """dx (shape) for g (..., *O, *kernel) over the last d = len(stride) dims of ``shape``."""
    d = len(stride)
    one = (1,) * (3 - d)
    lead = g.shape[:g.ndim - 2 * d]
    out, kernel = g.shape[g.ndim - 2 * d:g.ndim - d], g.shape[g.ndim - d:]
    g7 = g.reshape((-1,) + one + out + one + kernel)  # a view unless the rows are strided
    dx = np.zeros((g7.shape[0],) + one + tuple(shape[len(shape) - d:]), g.dtype)
    s, r = one + tuple(stride), one + tuple(dilation)
    n = get_num_threads() if parallel() and g.size >= PARALLEL_MIN_SIZE else 1
    if n > 1:
        col2im_par(g7, s, r, dx, n)
    else:
        _col2im_rows(g7, s, r, dx, 0, g7.shape[0])
    return dx.reshape(lead + tuple(shape[len(shape) - d:]))

"""col2im, the adjoint of the strided window view: every window's gradient added back onto
the elements it read, in one pass.

g (A, B, OD, OH, OW, KD, KH, KW) -> dx (A, B, D, H, W) = zeros with
dx[a, b, o s + k r] += g[a, b, o, k] (s the stride, r the dilation, per dim); 1-d and 2-d
windows come with size-1 leading dims. The reference backend does the same as prod(kernel)
strided slice additions over the whole of dx (nine passes for a 3x3 kernel); here each row
(a, b) is one pass, kernel offsets outermost (a convolution's gradient of its im2col matrix
is laid out kernel-major, so g is read in memory order), the rows split over the threads (a
row writes only its own part of dx: no two threads add into one element).
"""

from __future__ import annotations

import math

import numpy as np
from numba import get_num_threads, njit, prange

from .runtime.settings import parallel
from .runtime.threads import PARALLEL_MIN_SIZE


@njit(cache=True)
def _col2im_rows(g, s, r, dx, row0, row1):
    _, B, OD, OH, OW, KD, KH, KW = g.shape
    for row in range(row0, row1):
        a, b = row // B, row % B
        for i in range(KD):
            for j in range(KH):
                for m in range(KW):
                    for od in range(OD):
                        d = od * s[0] + i * r[0]
                        for oh in range(OH):
                            h = oh * s[1] + j * r[1]
                            for ow in range(OW):
                                dx[a, b, d, h, ow * s[2] + m * r[2]] += g[a, b, od, oh, ow, i, j, m]


@njit(cache=True, parallel=True)
def col2im_par(g, s, r, dx, n):
    rows = g.shape[0] * g.shape[1]
    for c in prange(n):
        _col2im_rows(g, s, r, dx, c * rows // n, (c + 1) * rows // n)


def col2im(g: np.ndarray, shape: tuple, stride: tuple, dilation: tuple) -> np.ndarray:
    """dx (shape) for g (..., *O, *kernel) over the last d = len(stride) dims of ``shape``."""
    d = len(stride)
    one = (1,) * (3 - d)
    lead = g.shape[:g.ndim - 2 * d]
    out, kernel = g.shape[g.ndim - 2 * d:g.ndim - d], g.shape[g.ndim - d:]
    # the rows as two dims (a, b): only the dims before the last are merged, so g stays a
    # view however its last two lead dims are strided (a convolution's gradient: C, then N)
    rows = (math.prod(lead[:-1]), lead[-1]) if lead else (1, 1)
    g8 = g.reshape(rows + one + out + one + kernel)
    dx = np.zeros(rows + one + tuple(shape[len(shape) - d:]), g.dtype)
    s, r = one + tuple(stride), one + tuple(dilation)
    n = get_num_threads() if parallel() and g.size >= PARALLEL_MIN_SIZE else 1
    if n > 1:
        col2im_par(g8, s, r, dx, n)
    else:
        _col2im_rows(g8, s, r, dx, 0, rows[0] * rows[1])
    return dx.reshape(lead + tuple(shape[len(shape) - d:]))

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
def _col2im_rows(g, k, s, r, dx, row0, row1):
    """dx[a, b, o s + k r] += g[a, b, o, k] for the rows row0..row1 (row = a B + b); a kernel
    dim of g of size 1 is read at every offset k (a gradient broadcast over the window)."""
    _, B, OD, OH, OW, GD, GH, GW = g.shape
    bd, bh, bw = int(GD > 1), int(GH > 1), int(GW > 1)
    for row in range(row0, row1):
        a, b = row // B, row % B
        for i in range(k[0]):
            for j in range(k[1]):
                for m in range(k[2]):
                    for od in range(OD):
                        d = od * s[0] + i * r[0]
                        for oh in range(OH):
                            h = oh * s[1] + j * r[1]
                            for ow in range(OW):
                                dx[a, b, d, h, ow * s[2] + m * r[2]] += g[
                                    a, b, od, oh, ow, i * bd, j * bh, m * bw]


@njit(cache=True, parallel=True)
def col2im_par(g, k, s, r, dx, n):
    rows = g.shape[0] * g.shape[1]
    for c in prange(n):
        _col2im_rows(g, k, s, r, dx, c * rows // n, (c + 1) * rows // n)


def col2im(g: np.ndarray, shape: tuple, stride: tuple, dilation: tuple) -> np.ndarray:
    """dx (shape) for g (..., *O, *kernel) over the last d = len(stride) dims of ``shape``."""
    d = len(stride)
    one = (1,) * (3 - d)
    lead = g.shape[:g.ndim - 2 * d]
    out, kernel = g.shape[g.ndim - 2 * d:g.ndim - d], g.shape[g.ndim - d:]
    if all(st == 0 for st in g.strides[g.ndim - d:]):
        # the same value at every offset of a window (average pooling's gradient, a
        # broadcast): read as one value per window, not a strided walk over a view
        g = g[(Ellipsis, *(slice(0, 1),) * d)]
    # the rows as two dims (a, b): only the dims before the last are merged, so g stays a
    # view however its last two lead dims are strided (a convolution's gradient: C, then N)
    rows = (math.prod(lead[:-1]), lead[-1]) if lead else (1, 1)
    g8 = g.reshape(rows + one + out + one + g.shape[g.ndim - d:])
    dx = np.zeros(rows + one + tuple(shape[len(shape) - d:]), g.dtype)
    k, s, r = one + tuple(kernel), one + tuple(stride), one + tuple(dilation)
    n = get_num_threads() if parallel() and dx.size >= PARALLEL_MIN_SIZE else 1
    if n > 1:
        col2im_par(g8, k, s, r, dx, n)
    else:
        _col2im_rows(g8, k, s, r, dx, 0, rows[0] * rows[1])
    return dx.reshape(lead + tuple(shape[len(shape) - d:]))

"""ReLU and its backward, one pass each over contiguous float arrays, split over the threads.

    y = x if x > 0 or x is NaN, else +0        (NumPy's ``maximum(x, 0)``, NaN passed on)
    dx = g where y != 0, else exactly 0        (an infinite g at a zeroed input gives 0)

NumPy runs ``maximum`` on float32 through a NaN-aware loop several times slower than an
add, and the backward as a product with a boolean mask (a cast per element) plus a check
for infinities; written as selects, LLVM turns each loop into vector code.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .runtime.split import run_split

# Written so that LLVM vectorises them (10,000 float32 values: 1.0 us, not 8.7 or 9.3): a
# zero of the arrays' own dtype (with the literal 0 the select is computed in float64),
# and a loop over a slice from 0 (over range(i0, i1) of the whole array it is not).


@njit(cache=True)
def _relu(x, y, i0, i1):
    zero = np.zeros(1, x.dtype)[0]
    xs, ys = x[i0:i1], y[i0:i1]
    for i in range(xs.shape[0]):
        v = xs[i]
        # not max(zero, v): that keeps -0.0, and NaN <= 0 is false so NaN is passed on here
        ys[i] = zero if v <= zero else v  # noqa: FURB136


@njit(cache=True)
def _relu_backward(g, y, dx, i0, i1):
    zero = np.zeros(1, g.dtype)[0]
    gs, ys, ds = g[i0:i1], y[i0:i1], dx[i0:i1]
    for i in range(gs.shape[0]):
        ds[i] = gs[i] if ys[i] != zero else zero


@njit(cache=True, parallel=True)
def relu_par(x, y, n):
    size = x.shape[0]
    for t in prange(n):
        _relu(x, y, t * size // n, (t + 1) * size // n)


@njit(cache=True, parallel=True)
def relu_backward_par(g, y, dx, n):
    size = g.shape[0]
    for t in prange(n):
        _relu_backward(g, y, dx, t * size // n, (t + 1) * size // n)


def relu(x: np.ndarray) -> np.ndarray:
    """max(x, 0) of a C-contiguous float array (NaN passed on)."""
    y = np.empty_like(x)
    xf, yf = x.reshape(-1), y.reshape(-1)
    run_split(_relu, relu_par, xf.size, xf.size, xf, yf)
    return y


def relu_backward(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """g where y != 0, else 0; g and y C-contiguous of one shape."""
    dx = np.empty_like(g)
    gf, yf, df = g.reshape(-1), y.reshape(-1), dx.reshape(-1)
    run_split(_relu_backward, relu_backward_par, gf.size, gf.size, gf, yf, df)
    return dx

"""GELU, y = x * Phi(x), and its derivative, fused into one pass; also its tanh form.

Phi is the standard normal CDF and phi its density:
    Phi(x) = 0.5 * erfc(-x / sqrt(2)),   phi(x) = exp(-x**2 / 2) / sqrt(2 pi)
    y = x * Phi(x),                      dy/dx = Phi(x) + x * phi(x)
The forward pass also writes dy/dx when a gradient will be needed, so the
backward pass is a single multiply ``grad * dydx`` and never evaluates erf or
exp again. It saves dydx instead of x, but x stays alive all the same: the graph's edge
from the op to its input holds the input Tensor. So this trades memory (one more array of
x's size until backward) for time (no second erfc): 151 MB of a GPT-2 124M step at block
256, batch 4, against about 1.5 ms of a 35 ms baby step.

float32 runs on :func:`gelu_grad_f32` (or :func:`gelu_f32` for y alone).
It calls no library function, so LLVM turns the loop into AVX-512/AVX2
vector code (16 or 8 values at a time; on this project's AVX2 machine 2.0 ns per
value on one core, 8x SciPy's ``x * 0.5 * erfc(-x / sqrt(2))``):

- erfc(z) for z = |x| / sqrt(2) >= 0 is Numerical Recipes' ``erfcc``,
  t * exp(-z**2) * exp(q(t)) with t = 1 / (1 + z/2) and q a degree-9
  polynomial in [-1.27, 0]: relative error below 1.2e-7 for every z. Using
  erfc of |x| (not 1 + erf(x)) keeps the small Phi of negative x to full
  relative precision instead of losing it to cancellation.
- exp(-u) for u >= 0 is ``float32_bits.exp_nonpos_f32`` (Cephes' ``expf``
  polynomial after a Cody-Waite reduction). exp(q) on [-1.27, 0] needs no reduction: a Taylor
  polynomial around -0.635, relative error below 3e-9.
- z**2 = x**2 / 2 is formed exactly as a float32 head + tail: hi = x*x rounded,
  lo = fma(x, x, -hi) its exact rounding error (``float32_bits.fma_f32``);
  exp(-(hi + lo)) = exp(-hi) * (1 - lo): rounding z**2 to float32 first would
  cost up to ~1e-5 relative error where Phi is tiny.

Measured against float64 SciPy over [-14, 14]: |error| of y below 1.3e-7 *
max(1, |y|) (about one float32 ulp), relative error below 6e-7 even in the
far negative tail, error of dy/dx below 3e-7. float64 input (gradchecks)
runs on :func:`gelu_grad_exact`, which calls libm's erfc and exp instead.
The tanh form (GPT-2's "gelu_new"), y = 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3),
takes tanh from the same exp: see :func:`_gelu_tanh_f32`.
``error_model='numpy'`` lets the divisions skip Python's zero check, which
would otherwise stop the vectorisation. The only fastmath flag is 'contract'
(each a * b + c of the polynomials becomes one fused multiply-add: a third less
time, and one rounding instead of two); nothing may be regrouped ('reassoc'), as
the exp's two-part ln2 must be evaluated as written.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from .runtime.float32_bits import CONTRACT, exp_nonpos_f32, fma_f32
from .runtime.settings import parallel
from .runtime.threads import PARALLEL_MIN_SIZE

_F = np.float32
_INV_SQRT_2 = 0.7071067811865476    # 1 / sqrt(2)
_INV_SQRT_2PI = 0.3989422804014327  # 1 / sqrt(2 pi)


@njit(cache=True, inline="always", error_model="numpy")
def _exp_small_f32(q):
    """exp(q) in float32 for -1.27 <= q <= 0: Taylor series around c = -0.635."""
    r = q + _F(0.635)                    # |r| <= 0.635: 10 terms leave < 3e-9
    p = _F(1.0 / 362880)
    p = p * r + _F(1.0 / 40320)
    p = p * r + _F(1.0 / 5040)
    p = p * r + _F(1.0 / 720)
    p = p * r + _F(1.0 / 120)
    p = p * r + _F(1.0 / 24)
    p = p * r + _F(1.0 / 6)
    p = p * r + _F(0.5)
    p = p * r + _F(1.0)
    p = p * r + _F(1.0)
    return p * _F(0.5299354883175685)    # exp(-0.635)


@njit(cache=True, inline="always", error_model="numpy")
def _half_square_f32(v):
    """x**2 / 2 as float32 (hi, lo) with hi + lo exact: lo is the rounding error of
    hi = x*x, which a fused multiply-add gives exactly."""
    v = min(max(v, _F(-20.0)), _F(20.0))  # z^2 > 100 only feeds exp(-z^2) = 0: no overflow
    hi = v * v
    lo = fma_f32(v, v, -hi)
    return _F(0.5) * hi, _F(0.5) * lo    # halving is exact


@njit(cache=True, inline="always", error_model="numpy")
def _gelu_f32(v):
    """(x Phi(x), Phi(x) + x phi(x)) of one float32 value."""
    z = abs(v) * _F(_INV_SQRT_2)
    t = _F(1.0) / (_F(1.0) + _F(0.5) * z)
    q = _F(0.17087277)                    # NR erfcc: erfc(z) = t exp(-z^2 + q(t))
    q = q * t + _F(-0.82215223)
    q = q * t + _F(1.48851587)
    q = q * t + _F(-1.13520398)
    q = q * t + _F(0.27886807)
    q = q * t + _F(-0.18628806)
    q = q * t + _F(0.09678418)
    q = q * t + _F(0.37409196)
    q = q * t + _F(1.00002368)
    q = q * t + _F(-1.26551223)           # -1.27 <= q <= 0
    hi, lo = _half_square_f32(v)          # z^2 = hi + lo
    e = exp_nonpos_f32(-hi) * (_F(1.0) - lo)  # exp(-z^2) = sqrt(2 pi) phi(x)
    tail = _F(0.5) * t * e * _exp_small_f32(q)  # 0.5 erfc(z) = Phi(-|x|)
    cdf = tail if v < 0 else _F(1.0) - tail
    # x phi(x) is below 1e-20 once z^2 > 50; 0 there keeps dy/dx(+-inf) finite
    return v * cdf, cdf + (v * _F(_INV_SQRT_2PI) * e if hi < _F(50.0) else _F(0.0))


@njit(cache=True, error_model="numpy", fastmath=CONTRACT)
def gelu_f32(x, y):
    """y = x Phi(x) over flat float32 arrays (LLVM drops the unused dy/dx)."""
    for i in range(x.size):
        y[i] = _gelu_f32(x[i])[0]


@njit(cache=True, error_model="numpy", fastmath=CONTRACT)
def gelu_grad_f32(x, y, dydx):
    """y = x Phi(x) and dydx = Phi(x) + x phi(x) over flat float32 arrays."""
    for i in range(x.size):
        y[i], dydx[i] = _gelu_f32(x[i])


# The same loops shared out over Numba's threads (see runtime/threads.py): prange
# splits the index range, and each thread's part still runs as vector code.
@njit(cache=True, error_model="numpy", parallel=True, fastmath=CONTRACT)
def gelu_f32_par(x, y):
    """gelu_f32 on all threads."""
    for i in prange(x.size):
        y[i] = _gelu_f32(x[i])[0]


@njit(cache=True, error_model="numpy", parallel=True, fastmath=CONTRACT)
def gelu_grad_f32_par(x, y, dydx):
    """gelu_grad_f32 on all threads."""
    for i in prange(x.size):
        y[i], dydx[i] = _gelu_f32(x[i])


@njit(cache=True, parallel=True)
def multiply_par(a, b, out):
    """out = a * b over flat arrays, on all threads (the backward's grad * dy/dx)."""
    for i in prange(a.size):
        out[i] = a[i] * b[i]


_SQRT_2_OVER_PI = 0.7978845608028654  # sqrt(2 / pi)
_TANH_C = 0.044715


@njit(cache=True, inline="always", error_model="numpy")
def _gelu_tanh_f32(v):
    """(0.5 x (1 + t), its slope) of one float32 value, t = tanh(u), u = sqrt(2/pi) (x +
    0.044715 x^3). With e = exp(-2|u|) <= 1, 1 + t and 1 - t are 2/(1+e) and 2e/(1+e) (which is
    which follows u's sign): neither is formed by cancellation, so y keeps its relative
    precision where 1 + t is tiny (x << 0), and 1 - t^2 = (1 + t)(1 - t)."""
    x2 = v * v
    u = _F(_SQRT_2_OVER_PI) * (v + _F(_TANH_C) * x2 * v)
    e = exp_nonpos_f32(_F(-2.0) * abs(u))  # x^3 overflowing to inf gives e = 0: t = +-1
    big = _F(2.0) / (_F(1.0) + e)
    small = e * big
    one_plus_t = big if u >= 0 else small
    one_minus_t = small if u >= 0 else big
    du = _F(_SQRT_2_OVER_PI) * (_F(1.0) + _F(3.0 * _TANH_C) * x2)
    return (_F(0.5) * v * one_plus_t,
            _F(0.5) * one_plus_t + _F(0.5) * v * (one_plus_t * one_minus_t) * du)


@njit(cache=True, error_model="numpy", fastmath=CONTRACT)
def gelu_tanh_f32(x, y):
    """y = 0.5 x (1 + tanh(u)) over flat float32 arrays."""
    for i in range(x.size):
        y[i] = _gelu_tanh_f32(x[i])[0]


@njit(cache=True, error_model="numpy", fastmath=CONTRACT)
def gelu_tanh_grad_f32(x, y, dydx):
    """y and its slope (see :func:`_gelu_tanh_f32`) over flat float32 arrays."""
    for i in range(x.size):
        y[i], dydx[i] = _gelu_tanh_f32(x[i])


@njit(cache=True, error_model="numpy", parallel=True, fastmath=CONTRACT)
def gelu_tanh_f32_par(x, y):
    """gelu_tanh_f32 on all threads."""
    for i in prange(x.size):
        y[i] = _gelu_tanh_f32(x[i])[0]


@njit(cache=True, error_model="numpy", parallel=True, fastmath=CONTRACT)
def gelu_tanh_grad_f32_par(x, y, dydx):
    """gelu_tanh_grad_f32 on all threads."""
    for i in prange(x.size):
        y[i], dydx[i] = _gelu_tanh_f32(x[i])


@njit(cache=True)
def gelu_tanh_exact(x, y, dydx):
    """The tanh form with libm's tanh (any float dtype; used for float64)."""
    for i in range(x.size):
        v = x[i]
        t = math.tanh(_SQRT_2_OVER_PI * (v + _TANH_C * v * v * v))
        y[i] = 0.5 * v * (1.0 + t)
        dydx[i] = 0.5 * (1.0 + t) + 0.5 * v * (1.0 - t * t) * _SQRT_2_OVER_PI * (
            1.0 + 3.0 * _TANH_C * v * v)


@njit(cache=True)
def gelu_grad_exact(x, y, dydx):
    """The same with libm's erfc and exp (any float dtype; used for float64)."""
    for i in range(x.size):
        v = x[i]
        cdf = 0.5 * math.erfc(-v * _INV_SQRT_2)
        y[i] = v * cdf
        u = 0.5 * v * v
        dydx[i] = cdf + (v * _INV_SQRT_2PI * math.exp(-u) if u < 750.0 else 0.0)


# (approximate, float32 value only, float32 with slope, any float dtype with slope):
# (serial, threaded) pairs for float32
_KERNELS = {
    "none": ((gelu_f32, gelu_f32_par), (gelu_grad_f32, gelu_grad_f32_par), gelu_grad_exact),
    "tanh": ((gelu_tanh_f32, gelu_tanh_f32_par), (gelu_tanh_grad_f32, gelu_tanh_grad_f32_par),
             gelu_tanh_exact),
}


def gelu(x: np.ndarray, want_grad: bool, approximate: str = "none"
         ) -> tuple[np.ndarray, np.ndarray | None]:
    """(y, dy/dx) of GELU, exact or (``approximate='tanh'``) the tanh form, for float ``x`` of
    any shape; dy/dx is None unless ``want_grad``. Both are fresh arrays of x's shape and
    dtype."""
    value_only, with_slope, exact = _KERNELS[approximate]
    flat = np.ascontiguousarray(x).reshape(-1)
    y = np.empty_like(flat)
    par = int(parallel() and flat.size >= PARALLEL_MIN_SIZE)
    if flat.dtype == np.float32 and not want_grad:
        value_only[par](flat, y)
        return y.reshape(x.shape), None
    dydx = np.empty_like(flat)
    if flat.dtype == np.float32:
        with_slope[par](flat, y, dydx)
    else:
        exact(flat, y, dydx)
    return y.reshape(x.shape), (dydx.reshape(x.shape) if want_grad else None)


def gelu_backward(grad: np.ndarray, dydx: np.ndarray) -> np.ndarray:
    """dL/dx = grad * dy/dx (dy/dx as :func:`gelu` returned it), on the threads if large."""
    if not (parallel() and dydx.size >= PARALLEL_MIN_SIZE and grad.dtype == dydx.dtype
            and grad.shape == dydx.shape and grad.flags.c_contiguous):
        return grad * dydx
    out = np.empty_like(dydx)
    multiply_par(grad.reshape(-1), dydx.reshape(-1), out.reshape(-1))
    return out

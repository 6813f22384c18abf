"""Building blocks for float32 kernels that LLVM can vectorise: bit casts and
the core of ``expf``.

A Numba loop that calls ``math.exp`` makes one scalar libm call per element;
written as plain float32 arithmetic instead, the same loop becomes AVX2/AVX-512
vector code. The GELU, cross-entropy and attention kernels build their exp from these:

- :func:`bits_to_f32` / :func:`f32_to_bits` reinterpret the 32 bits of an int32
  as a float32 and back (free in LLVM, like C's memcpy). With them, 2**n for an
  integer n is the float32 whose exponent field is 127 + n and mantissa 0.
- :func:`expf_poly` is Cephes' ``expf`` polynomial: e**r for |r| <= ln2 / 2,
  about 1 ulp. A caller first reduces its argument to y = n ln2 + r (Cody-Waite:
  ln2 split into :data:`LN2_HI` + :data:`LN2_LO`, so that n * LN2_HI is exact),
  then exp(y) = 2**n * expf_poly(r).
- :func:`order_key` maps float32 bits to an int32 that sorts like the float, so
  a row max can be an integer max (one vector instruction; NaN sorts last).
- :func:`add_reassoc_f32` is one float32 addition that LLVM may regroup, so a
  running sum of them vectorises while the rest of the loop keeps exact order.
- :func:`fma_f32` is a * b + c rounded once (LLVM's ``llvm.fma``: one vector
  instruction on every CPU with FMA, AVX2's companions). ``fma(a, a, -a*a)`` is the
  exact rounding error of a square, which GELU needs to form x**2 / 2 exactly.
- :func:`exp_nonpos_f32` is that whole recipe for exp(y), y <= 0 (a softmax's
  exp(z - max z), a Gaussian's exp(-x**2 / 2)); -inf gives 0 and NaN stays NaN.
- :func:`row_max_f32` and :func:`exp_row_f32` are the two loops of a softmax row
  built from these (the cross-entropy and fused attention kernels share them).

``expf_poly`` is inlined into its caller at the Numba IR level, so it is
compiled with the caller's own fastmath flags (no second, differently-flagged
copy in Numba's cache).

Under ``NUMBA_DISABLE_JIT=1`` (every kernel runs as plain Python, e.g. to step through
it in pdb) the four ``@intrinsic`` functions, which only exist in compiled code, are
replaced at the end of this module by NumPy-scalar versions with the same results.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import config, njit, types
from numba.extending import intrinsic

_F = np.float32
# The fastmath flags of a float32 kernel built from these pieces: 'contract' only (a * b + c
# as one fused multiply-add, rounded once: never less accurate). Not 'reassoc': it could
# regroup the two-part ln2 of exp_nonpos_f32; a sum that may be regrouped says so one
# addition at a time (add_reassoc_f32).
CONTRACT = {"contract"}
_EXP_MIN = _F(-87.5)  # exp(-87.5) ~ 1e-38: below it exp_nonpos_f32 returns 0
LOG2_E = _F(1.4426950408889634)  # 1 / ln2: n = floor(y * LOG2_E + 0.5)
LN2_HI = _F(0.693359375)         # ln2 = LN2_HI + LN2_LO; LN2_HI has few mantissa bits,
LN2_LO = _F(-2.12194440e-4)      # so n * LN2_HI is exact for the n used here


@intrinsic
def bits_to_f32(typingctx, bits):
    """The float32 whose IEEE-754 bit pattern is the int32 ``bits``."""
    sig = types.float32(types.int32)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.FloatType())

    return sig, codegen


@intrinsic
def f32_to_bits(typingctx, v):
    """The int32 holding the IEEE-754 bits of float32 ``v`` (inverse of bits_to_f32)."""
    sig = types.int32(types.float32)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(32))

    return sig, codegen


@njit(cache=True, inline="always", error_model="numpy")
def expf_poly(r):
    """e**r in float32 for |r| <= ln2 / 2: Cephes expf, e**r = 1 + r + r**2 p(r)."""
    p = _F(1.9875691500e-4)
    p = p * r + _F(1.3981999507e-3)
    p = p * r + _F(8.3334519073e-3)
    p = p * r + _F(4.1665795894e-2)
    p = p * r + _F(1.6666665459e-1)
    p = p * r + _F(5.0000001201e-1)
    return p * r * r + r + _F(1.0)


@njit(cache=True, inline="always", error_model="numpy")
def exp_nonpos_f32(y):
    """exp(y) in float32 for y <= 0 (or NaN), as vectorisable arithmetic.

    y = n ln2 + r with n = round(y / ln2), |r| <= ln2 / 2, so exp(y) = 2^n e^r;
    2^n is built from its exponent bits. y < -87.5 (also -inf) gives 0, which is
    off by less than 1.2e-38; a NaN y gives NaN. Only 'contract' fastmath: the
    two-part ln2 only cancels exactly if no operation is regrouped (inlined, this is
    compiled with its caller's flags: a caller must not allow 'reassoc').
    """
    # Written as comparisons, not max(): which operand max() returns for NaN is
    # exactly what matters here.
    yr = _EXP_MIN if y < _EXP_MIN else y  # noqa: FURB136  -inf -> -87.5; NaN stays NaN
    yn = yr if yr >= _EXP_MIN else _EXP_MIN  # noqa: FURB136  NaN -> -87.5: n must be real
    n = np.floor(yn * LOG2_E + _F(0.5))  # -126 <= n <= 0
    r = yr - n * LN2_HI                   # ln2 = LN2_HI + LN2_LO, the first part
    r = r - n * LN2_LO                    # has few bits: n * it is exact
    e = expf_poly(r) * bits_to_f32((np.int32(127) + np.int32(n)) << 23)  # exponent 127 + n
    return _F(0.0) if y < _EXP_MIN else e


@njit(cache=True, inline="always")
def order_key(bits):
    """Map float32 bits to an int32 that sorts like the float: negative floats
    (sign bit set) have their other bits flipped. Its own inverse."""
    return bits ^ ((bits >> 31) & np.int32(0x7FFFFFFF))


@intrinsic
def add_reassoc_f32(typingctx, a, b):
    """a + b in float32, marked reassociable: a running sum of these in a loop may
    be split into 16 partial sums (vector code). Only this addition gets the
    flag; a whole-function ``fastmath`` would also reach the exp's range
    reduction, whose two-part ln2 must be evaluated exactly as written."""
    sig = types.float32(types.float32, types.float32)

    def codegen(context, builder, signature, args):
        return builder.fadd(args[0], args[1], flags=("reassoc",))

    return sig, codegen


@intrinsic
def fma_f32(typingctx, a, b, c):
    """a * b + c in float32 with a single rounding (fused multiply-add)."""
    sig = types.float32(types.float32, types.float32, types.float32)

    def codegen(context, builder, signature, args):
        return builder.fma(args[0], args[1], args[2])

    return sig, codegen


@njit(cache=True, inline="always", error_model="numpy")
def row_max_f32(x, r, n, scale):
    """max over j < n of x[r, j] * scale (n >= 1), as an integer max over
    :func:`order_key`: +NaN sorts above +inf (the max is NaN), -NaN below -inf.
    x is indexed as x[r, j], not through a row view: no reference counting in the loop.
    The max starts from the lowest key rather than from x[r, 0]: a loop over all of
    range(n) vectorises, one that starts at 1 measured 10% slower in cross-entropy."""
    key = np.int32(-2147483648)
    for j in range(n):
        key = max(key, order_key(f32_to_bits(x[r, j] * scale)))
    return bits_to_f32(order_key(key))


@njit(cache=True, inline="always", error_model="numpy")
def exp_row_f32(x, r, n, scale, m, out):
    """out[r, j] = exp(x[r, j] * scale - m) for j < n, m >= every x[r, j] * scale
    (:func:`row_max_f32`); returns their float32 sum (vector code: reassociated adds).
    ``out`` may be ``x`` itself."""
    total = _F(0.0)
    for j in range(n):
        e = exp_nonpos_f32(x[r, j] * scale - m)
        out[r, j] = e
        total = add_reassoc_f32(total, e)
    return total


if config.DISABLE_JIT:
    # Plain-Python twins of the intrinsics above: the same bits through NumPy views.
    def bits_to_f32(bits):
        """The float32 whose IEEE-754 bit pattern is the int32 ``bits``."""
        return np.array(bits, dtype=np.int32).view(np.float32)[()]

    def f32_to_bits(v):
        """The int32 holding the IEEE-754 bits of float32 ``v``."""
        return np.array(v, dtype=np.float32).view(np.int32)[()]

    def add_reassoc_f32(a, b):
        """a + b in float32."""
        return np.float32(np.float32(a) + np.float32(b))

    def fma_f32(a, b, c):
        """a * b + c: the product is exact in float64, the sum rounds in float64 and
        then to float32 (twice, where llvm.fma rounds once: the same float32 whenever
        a * b + c is itself a float32, as for a square's rounding error)."""
        return np.float32(np.float64(a) * np.float64(b) + np.float64(c))

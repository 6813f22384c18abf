"""Issue 27's everyday elementwise ops: the smooth unary functions (asin ... reciprocal,
square), atan2, copysign, fmod/remainder, lerp, isclose and the reflected bitwise operators.

Values against NumPy/SciPy (no PyTorch needed), special points (domain bounds, poles, zero,
inf and NaN), dtypes (integers and bool compute in float32), 0-d and empty tensors,
first and second derivatives against finite differences; comparisons with PyTorch where it is
installed (``needs_torch``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import minigrad as mg
from minigrad import gradcheck, gradgradcheck

try:
    import torch
except ImportError:  # the README's default set-up
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def _log_sigmoid(a):
    return -np.logaddexp(0, -a)


# name -> (NumPy reference, an interior domain (lo, hi) for gradients, special points)
UNARY = {
    "asin": (np.arcsin, (-0.9, 0.9), [-1.0, 1.0, 0.0, 2.0]),
    "acos": (np.arccos, (-0.9, 0.9), [-1.0, 1.0, 0.0, -2.0]),
    "atan": (np.arctan, (-3, 3), [0.0, np.inf, -np.inf]),
    "sinh": (np.sinh, (-2, 2), [0.0, 100.0, -np.inf]),
    "cosh": (np.cosh, (-2, 2), [0.0, 100.0, -np.inf]),
    "tan": (np.tan, (-1.2, 1.2), [0.0, np.pi / 4]),
    "asinh": (np.arcsinh, (-3, 3), [0.0, 1e300, -np.inf]),
    "acosh": (np.arccosh, (1.1, 3), [1.0, 0.5, np.inf]),
    "atanh": (np.arctanh, (-0.9, 0.9), [1.0, -1.0, 0.0, 2.0]),
    "log1p": (np.log1p, (-0.9, 3), [-1.0, -2.0, 0.0, 1e-30]),
    "expm1": (np.expm1, (-2, 2), [0.0, 1e-30, -np.inf, 1000.0]),
    "log2": (np.log2, (0.2, 4), [0.0, -1.0, 8.0, np.inf]),
    "log10": (np.log10, (0.2, 4), [0.0, -1.0, 1000.0]),
    "exp2": (np.exp2, (-3, 3), [0.0, 10.0, -np.inf, 2000.0]),
    "rsqrt": (lambda a: 1 / np.sqrt(a), (0.2, 4), [0.0, -1.0, 4.0, np.inf]),
    "reciprocal": (lambda a: 1 / a, (0.3, 3), [0.0, -0.0, 4.0, np.inf]),
    "square": (np.square, (-2, 2), [0.0, -3.0, np.inf]),
}
METHODS = sorted(UNARY)


def _rand(lo, hi, shape=(2, 3), seed=0):
    return np.random.default_rng(seed).uniform(lo, hi, shape)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", METHODS)
def test_unary_values_match_numpy(name, dtype):
    ref, (lo, hi), special = UNARY[name]
    with np.errstate(all="ignore"):  # 1e300 is inf in float32
        a = np.concatenate([_rand(lo, hi).ravel(), special]).astype(dtype)
        want = ref(a)
    for got in (getattr(mg.tensor(a), name)(), getattr(mg, name)(mg.tensor(a))):
        assert got.dtype == np.dtype(dtype)
        np.testing.assert_allclose(got.numpy(), want, rtol=2e-6 if dtype == "float32" else 1e-13)


@pytest.mark.parametrize("name", METHODS)
def test_unary_0d_and_empty(name):
    ref, (lo, hi), _ = UNARY[name]
    x = mg.tensor((lo + hi) / 2, dtype="float64")
    out = getattr(x, name)()
    assert out.shape == ()
    assert isinstance(out.data, np.ndarray) or name == "square"  # square is x ** 2 (PowScalar)
    np.testing.assert_allclose(out.item(), ref(np.float64((lo + hi) / 2)))
    empty = getattr(mg.zeros(0, 3), name)()
    assert empty.shape == (0, 3) and empty.dtype == np.float32


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "int64"])
@pytest.mark.parametrize("name", sorted(set(METHODS) - {"square"}))
def test_unary_of_integers_and_bools_is_float32(name, dtype):
    ref = UNARY[name][0]
    a = np.array([0, 1, 1, 0]).astype(dtype) if dtype == "bool" else np.array([1, 2, 3], dtype)
    out = getattr(mg.tensor(a), name)()
    assert out.dtype == np.float32
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(out.numpy(), ref(a.astype(np.float64)), rtol=2e-6)


@pytest.mark.parametrize("dtype, want", [("bool", "int64"), ("int32", "int32"),
                                         ("int64", "int64"), ("uint8", "uint8")])
def test_square_keeps_integers_and_bool_gives_int64(dtype, want):
    out = mg.tensor(np.array([0, 1, 1], dtype)).square()
    assert out.dtype == np.dtype(want) and out.tolist() == [0, 1, 1]
    assert mg.square(mg.tensor([3, -4])).tolist() == [9, 16]


@pytest.mark.parametrize("name", METHODS)
def test_unary_first_and_second_derivatives(name):
    _, (lo, hi), _ = UNARY[name]
    x = mg.tensor(_rand(lo, hi), dtype="float64", requires_grad=True)
    fn = lambda a: getattr(a, name)() * a
    assert gradcheck(fn, [x])
    assert gradgradcheck(fn, [x])


def test_accuracy_where_the_naive_forms_lose_every_digit():
    tiny = mg.tensor([1e-10, -1e-12])  # float32: 1 + 1e-10 rounds to 1
    np.testing.assert_allclose(tiny.log1p().numpy(), [1e-10, -1e-12], rtol=1e-6)
    np.testing.assert_allclose(tiny.expm1().numpy(), [1e-10, -1e-12], rtol=1e-6)
    x = mg.tensor([1e-10], requires_grad=True)
    x.log1p().sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [1.0], rtol=1e-6)


@pytest.mark.parametrize("name, at, want", [
    ("asin", 1.0, np.inf), ("acos", -1.0, -np.inf), ("acosh", 1.0, np.inf),
    ("atanh", 1.0, np.inf), ("log1p", -1.0, np.inf), ("log2", 0.0, np.inf),
    ("rsqrt", 0.0, -np.inf), ("reciprocal", 0.0, -np.inf),
])
def test_gradients_at_the_poles_are_infinite_as_pytorch(name, at, want):
    x = mg.tensor([at], dtype="float64", requires_grad=True)
    getattr(x, name)().sum().backward()
    assert x.grad.tolist() == [want]


# ---- atan2, copysign -------------------------------------------------------------------


def test_atan2_values_quadrants_and_broadcasting():
    y = np.array([[1.0, -1.0, 0.0, 0.0, -0.0]])
    x = np.array([[-1.0], [1.0], [0.0]])
    np.testing.assert_allclose(mg.atan2(mg.tensor(y), mg.tensor(x)).numpy(), np.arctan2(y, x),
                               rtol=1e-6)
    assert mg.tensor([1, 2]).atan2(mg.tensor([1, 0])).dtype == np.float32  # ints: float32
    out = mg.tensor([1.0], dtype="float64").atan2(mg.tensor([2]))
    assert out.dtype == np.float64


def test_atan2_gradients():
    a = mg.tensor(_rand(-2, 2), dtype="float64", requires_grad=True)
    b = mg.tensor(_rand(0.5, 2, (3,), seed=1), dtype="float64", requires_grad=True)
    fn = lambda a, b: mg.atan2(a, b) * b
    assert gradcheck(fn, [a, b]) and gradgradcheck(fn, [a, b])


def test_copysign_values_signed_zero_and_dtypes():
    a = np.array([1.0, -2.0, 3.0, 0.0, -0.0, np.inf])
    b = np.array([-1.0, 1.0, -0.0, -5.0, 0.0, -1.0])
    got = mg.copysign(mg.tensor(a), mg.tensor(b)).numpy()
    want = np.copysign(a.astype(np.float32), b.astype(np.float32))
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))  # -0.0 is kept
    assert mg.tensor([1, -2]).copysign(-1).tolist() == [-1.0, -2.0]
    assert mg.tensor([1, -2]).copysign(-1).dtype == np.float32


def test_copysign_gradient_is_the_sign_change_and_zero_at_zero():
    a = mg.tensor([2.0, -2.0, 0.0, 3.0], dtype="float64", requires_grad=True)
    b = mg.tensor([-1.0, -1.0, -1.0, 1.0], dtype="float64", requires_grad=True)
    mg.copysign(a, b).sum().backward()
    assert a.grad.tolist() == [-1.0, 1.0, 0.0, 1.0]
    assert b.grad.tolist() == [0.0, 0.0, 0.0, 0.0]
    a2 = mg.tensor(_rand(0.5, 2), dtype="float64", requires_grad=True)
    fn = lambda a: mg.copysign(a, np.array([-1.0, 1.0, -1.0])) * a
    assert gradcheck(fn, [a2]) and gradgradcheck(fn, [a2])


# ---- fmod and remainder ----------------------------------------------------------------


def test_fmod_takes_the_dividends_sign_remainder_the_divisors():
    a = mg.tensor([-7, 7, -7, 7])
    b = mg.tensor([2, -2, -2, 2])
    assert a.fmod(b).tolist() == [-1, 1, -1, 1]
    assert mg.fmod(a, b).dtype == np.int64
    assert (a % b).tolist() == [1, -1, -1, 1] == mg.remainder(a, b).tolist()
    x = np.array([-7.5, 7.5, -0.5, 5.0])
    np.testing.assert_array_equal(mg.tensor(x).fmod(2.0).numpy(), np.fmod(x, 2.0))
    np.testing.assert_array_equal(mg.tensor(x).remainder(-2.0).numpy(), np.remainder(x, -2.0))
    assert mg.tensor([5]).fmod(2.5).dtype == np.float32  # the binary promotion rule
    big = 2**60 + 3
    assert mg.tensor([big]).fmod(mg.tensor([2**31])).tolist() == [big % 2**31]


@pytest.mark.parametrize("op", [lambda a, b: a.fmod(b), lambda a, b: mg.fmod(a, b),
                                lambda a, b: a.remainder(b)])
def test_integer_fmod_and_remainder_by_zero_raise(op):
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        op(mg.tensor([1, 2]), mg.tensor([1, 0]))
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        op(mg.tensor([True]), False)


def test_float_fmod_by_zero_is_nan_without_warning():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(mg.tensor([1.0, -1.0]).fmod(0.0).numpy()).all()


def test_fmod_gradients():
    a = mg.tensor(-_rand(1.5, 1.6), dtype="float64", requires_grad=True)
    b = mg.tensor(_rand(0.95, 1.05, (3,), seed=1), dtype="float64", requires_grad=True)
    a.fmod(b).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), np.ones((2, 3)))
    np.testing.assert_allclose(b.grad.numpy(), -np.trunc(a.numpy() / b.numpy()).sum(0))
    fn = lambda a, b: a.fmod(b) * a
    assert gradcheck(fn, [a, b]) and gradgradcheck(fn, [a, b])


# ---- lerp ------------------------------------------------------------------------------


def test_lerp_values_and_broadcasting():
    s, e = np.array([[0.0, 1.0, -2.0]]), np.array([[10.0], [-1.0]])
    w = np.array([0.0, 0.25, 1.0])
    got = mg.lerp(mg.tensor(s), mg.tensor(e), mg.tensor(w)).numpy()
    np.testing.assert_allclose(got, s + w * (e - s), rtol=1e-6)
    assert mg.tensor([1.0, 2.0]).lerp(mg.tensor([3.0, 6.0]), 0.5).tolist() == [2.0, 4.0]


def test_lerp_gradients_in_every_input():
    s = mg.tensor(_rand(-1, 1), dtype="float64", requires_grad=True)
    e = mg.tensor(_rand(-1, 1, (3,), seed=1), dtype="float64", requires_grad=True)
    w = mg.tensor(_rand(0, 1, (2, 1), seed=2), dtype="float64", requires_grad=True)
    fn = lambda s, e, w: mg.lerp(s, e, w) * s
    assert gradcheck(fn, [s, e, w]) and gradgradcheck(fn, [s, e, w])
    s2 = mg.tensor([1.0, 2.0], dtype="float64", requires_grad=True)
    s2.lerp(mg.tensor([3.0, 6.0], dtype="float64"), 0.25).sum().backward()
    assert s2.grad.tolist() == [0.75, 0.75]


def test_lerp_refuses_integers_and_mixed_dtypes():
    with pytest.raises(RuntimeError, match="lerp"):
        mg.tensor([1, 2]).lerp(mg.tensor([3, 4]), 0.5)
    with pytest.raises(RuntimeError, match="lerp"):
        mg.tensor([1.0]).lerp(mg.tensor([2.0], dtype="float64"), 0.5)
    with pytest.raises(RuntimeError, match="lerp"):
        mg.tensor([1.0]).lerp(mg.tensor([2.0]), mg.tensor([0.5], dtype="float64"))


# ---- isclose ---------------------------------------------------------------------------


def test_isclose_matches_numpy_with_inf_and_nan():
    a = np.array([1.0, 1.0 + 1e-6, 1.0 + 1e-3, np.inf, -np.inf, np.inf, np.nan, 0.0, 1e-9])
    b = np.array([1.0, 1.0, 1.0, np.inf, -np.inf, -np.inf, np.nan, 1e-9, 0.0])
    for equal_nan in (False, True):
        got = mg.isclose(mg.tensor(a, dtype="float64"), mg.tensor(b, dtype="float64"),
                         equal_nan=equal_nan)
        assert got.dtype == np.bool_
        np.testing.assert_array_equal(got.numpy(), np.isclose(a, b, equal_nan=equal_nan))
    got = mg.tensor([1.0, 2.0]).isclose(mg.tensor([1.05, 2.0]), rtol=0.0, atol=0.1)
    assert got.tolist() == [True, True]
    assert mg.tensor([1.0, 2.0]).isclose(2).tolist() == [False, True]
    assert mg.tensor([1.0]).isclose(mg.tensor([1.0 + 1e-7]), rtol=0, atol=0).tolist() == [False]


def test_isclose_of_integers_never_wraps_around():
    a = mg.tensor(np.array([3, 200], np.uint8))
    b = mg.tensor(np.array([5, 200], np.uint8))
    assert a.isclose(b, atol=2).tolist() == [True, True]
    assert a.isclose(b).tolist() == [False, True]


def test_isclose_refuses_mixed_dtypes_and_negative_tolerances():
    with pytest.raises(RuntimeError, match="one dtype"):
        mg.tensor([1.0]).isclose(mg.tensor([1.0], dtype="float64"))
    with pytest.raises(RuntimeError, match="one dtype"):
        mg.tensor([1]).isclose(1.5)
    with pytest.raises(RuntimeError, match="rtol"):
        mg.tensor([1.0]).isclose(mg.tensor([1.0]), rtol=-1)


# ---- reflected bitwise operators -------------------------------------------------------


def test_reflected_bitwise_operators():
    t = mg.tensor([1, 2, 3])
    assert (6 & t).tolist() == [0, 2, 2] == (t & 6).tolist()
    assert (4 | t).tolist() == [5, 6, 7] == (t | 4).tolist()
    assert (1 ^ t).tolist() == [0, 3, 2] == (t ^ 1).tolist()
    m = mg.tensor([True, False])
    assert (True & m).tolist() == [True, False] and (True & m).dtype == np.bool_
    assert (np.array([False, True]) | m).tolist() == [True, True]
    assert isinstance(np.array([False, True]) ^ m, mg.Tensor)


@pytest.mark.parametrize("a, b, want", [
    (np.array([1, 2], np.int32), 5, "int32"),              # a Python int never widens a tensor
    (np.array([True, False]), 1, "int64"),                 # bool & int: int64
    (np.array([True, False]), True, "bool"),
    (np.array([1, 2], np.uint8), np.array([1, 2], np.int8), "int16"),
    (np.array([1, 2], np.int32), np.array(1, np.int64), "int32"),  # dims outrank a 0-d tensor
])
def test_bitwise_result_dtype_is_pytorchs(a, b, want):
    tb = mg.tensor(b) if isinstance(b, np.ndarray) else b
    for out in (mg.tensor(a) & tb, tb & mg.tensor(a), mg.tensor(a) | tb, tb ^ mg.tensor(a)):
        assert out.dtype == np.dtype(want)


def test_bitwise_with_a_python_int_wraps_to_the_tensors_type_as_pytorch():
    t = mg.tensor(np.array([1, 2], np.uint8))
    assert (t & 255).tolist() == [1, 2] and (t | 255).dtype == np.uint8
    assert (t & 300).tolist() == [0, 0]        # 300 is 44 in uint8
    assert (-1 ^ t).tolist() == [254, 253]     # -1 is 255: every bit flipped


def test_binary_ops_of_0d_and_empty_tensors():
    for fn in (mg.atan2, mg.copysign, mg.fmod, mg.remainder, mg.isclose):
        assert fn(mg.tensor(1.5), mg.tensor(-2.0)).shape == ()
        assert fn(mg.zeros(0, 3), mg.ones(3)).shape == (0, 3)
    assert mg.lerp(mg.tensor(1.0), mg.tensor(3.0), 0.5).item() == 2.0
    assert mg.lerp(mg.zeros(0), mg.ones(0), mg.ones(0)).shape == (0,)
    assert (5 & mg.tensor(3)).item() == 1 and (mg.zeros(0, dtype="int64") | 1).shape == (0,)


def test_bitwise_of_floats_raises():
    with pytest.raises(TypeError, match="bool or integer"):
        mg.tensor([1.0]) & 1
    with pytest.raises(TypeError, match="bool or integer"):
        1 | mg.tensor([1.0])
    with pytest.raises(TypeError, match="bool or integer"):
        mg.tensor([1]) ^ 1.5


# ---- against PyTorch -------------------------------------------------------------------


@needs_torch
@pytest.mark.parametrize("name", METHODS)
def test_unary_values_and_gradients_match_torch(name):
    _, (lo, hi), special = UNARY[name]
    a = np.concatenate([_rand(lo, hi).ravel(), [s for s in special if np.isfinite(s)]])
    x = mg.tensor(a, dtype="float64", requires_grad=True)
    tx = torch.tensor(a, requires_grad=True)
    out, tout = getattr(x, name)(), getattr(tx, name)()
    np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), rtol=1e-12, equal_nan=True)
    interior = np.isfinite(tout.detach().numpy())
    w = np.where(interior, np.random.default_rng(1).standard_normal(a.shape), 0.0)
    with np.errstate(invalid="ignore"):  # inf * 0 where the output is not finite
        (out * mg.tensor(w)).sum().backward()
    (tout * torch.tensor(w)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-12, equal_nan=True)
    for dt in (torch.int64, torch.bool, torch.int32):
        ti = torch.tensor([0, 1, 1]).to(dt)
        assert str(getattr(mg.tensor(ti.numpy()), name)().dtype) == str(
            getattr(ti, name)().dtype).replace("torch.", "")


@needs_torch
@pytest.mark.parametrize("name", ["atan2", "copysign", "fmod", "remainder"])
def test_binary_values_gradients_and_dtypes_match_torch(name):
    rng = np.random.default_rng(3)
    a = np.concatenate([rng.uniform(-3, 3, 6), [0.0, -0.0, 2.0, -2.0]])
    b = np.concatenate([rng.uniform(0.5, 2, 6) * rng.choice([-1, 1], 6), [1.0, -1.0, -0.0, 3.0]])
    if name in ("fmod", "remainder"):
        b[-2] = 1.5  # away from the divide-by-zero NaNs
    x, y = (mg.tensor(v, dtype="float64", requires_grad=True) for v in (a, b))
    tx, ty = (torch.tensor(v, requires_grad=True) for v in (a, b))
    out, tout = getattr(mg, name)(x, y), getattr(torch, name)(tx, ty)
    np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), rtol=1e-12)
    if name == "copysign":
        assert (np.signbit(out.numpy()) == np.signbit(tout.detach().numpy())).all()
    out.sum().backward()
    tout.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(y.grad.numpy(), ty.grad.numpy(), rtol=1e-12)
    for da, db in (("int64", "int64"), ("int32", "float64"), ("bool", "int64"), ("uint8", "int8")):
        pa, pb = np.array([3, 1], da), np.array([2, 1], db)
        want = getattr(torch, name)(torch.tensor(pa), torch.tensor(pb))
        got = getattr(mg, name)(mg.tensor(pa), mg.tensor(pb))
        assert str(got.dtype) == str(want.dtype).replace("torch.", ""), (da, db)
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-6)


@needs_torch
def test_lerp_and_isclose_match_torch():
    rng = np.random.default_rng(5)
    s, e, w = rng.standard_normal((2, 3)), rng.standard_normal(3), rng.uniform(0, 1, (2, 1))
    ms, me, mw = (mg.tensor(v, dtype="float64", requires_grad=True) for v in (s, e, w))
    ts, te, tw = (torch.tensor(v, requires_grad=True) for v in (s, e, w))
    out, tout = mg.lerp(ms, me, mw), torch.lerp(ts, te, tw)
    np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), rtol=1e-12)
    out.sum().backward()
    tout.sum().backward()
    for m, t in ((ms, ts), (me, te), (mw, tw)):
        np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=1e-12)
    a = np.array([1.0, 1.0 + 1e-6, np.inf, np.nan, 0.0, -np.inf])
    b = np.array([1.0, 1.0, np.inf, np.nan, 1e-9, np.inf])
    for equal_nan in (False, True):
        assert mg.isclose(mg.tensor(a, dtype="float32"), mg.tensor(b, dtype="float32"),
                          equal_nan=equal_nan).tolist() == \
            torch.isclose(torch.tensor(a, dtype=torch.float32), torch.tensor(b, dtype=torch.float32),
                          equal_nan=equal_nan).tolist()


@needs_torch
def test_reflected_bitwise_operators_match_torch():
    for a, b in ((np.array([1, 2, 3], np.int32), 6), (np.array([True, False]), 1),
                 (np.array([True, False]), True), (np.array([5, 6], np.uint8), 3)):
        for op in (lambda x, y: y & x, lambda x, y: y | x, lambda x, y: y ^ x):
            want = op(torch.tensor(a), b)
            got = op(mg.tensor(a), b)
            assert str(got.dtype) == str(want.dtype).replace("torch.", "")
            assert got.tolist() == want.tolist()


def test_math_constants_are_python_floats_so_float32_stays_float32():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    for name in ("log2", "log10", "exp2"):
        out = getattr(x, name)()
        out.sum().backward()
        assert out.dtype == np.float32 and x.grad.dtype == np.float32
        x.grad = None
    assert math.isclose(mg.tensor([8.0]).log2().item(), 3.0)

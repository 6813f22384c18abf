"""The fused GELU kernel equals its float64 SciPy reference to float32 accuracy,
and the GELU op uses it (forward value, saved derivative, gradients)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minigrad as mg
from minigrad.backends.reference import Reference
from minigrad.kernels import gelu as KG

R = Reference()  # the reference backend: every primitive in NumPy, the oracle

# float32: about one ulp of max(1, |y|); float64 runs on libm's erfc/exp
TOL = {np.float32: {"rtol": 1e-6, "atol": 2e-7}, np.float64: {"rtol": 1e-14, "atol": 1e-15}}


@given(n=st.integers(0, 300), dt=st.sampled_from([np.float32, np.float64]),
       spread=st.sampled_from([0.5, 3.0, 8.0]), seed=st.integers(0, 99))
def test_gelu_kernel_equals_reference(n, dt, spread, seed):
    x = (np.random.default_rng(seed).standard_normal(n) * spread).astype(dt)
    y, dydx = KG.gelu(x, want_grad=True)
    y_ref, d_ref = R.gelu(x, True)
    assert y.dtype == dt and dydx.dtype == dt and y.shape == x.shape
    np.testing.assert_allclose(y, y_ref, **TOL[dt])
    np.testing.assert_allclose(dydx, d_ref, **TOL[dt])
    y_only, none = KG.gelu(x, want_grad=False)
    assert none is None
    np.testing.assert_array_equal(y_only, y)


def test_gelu_kernel_dense_grid_and_tail_relative_error():
    # every regime of the float32 approximations: erfc's tail, exp's range reduction
    x = np.linspace(-14, 14, 200_001, dtype=np.float32)
    y, dydx = KG.gelu(x, want_grad=True)
    y_ref, d_ref = R.gelu(x.astype(np.float64), True)
    assert np.max(np.abs(y - y_ref) / np.maximum(1.0, np.abs(y_ref))) < 2e-7
    assert np.max(np.abs(dydx - d_ref)) < 4e-7
    tiny = np.abs(y_ref) > 1e-35  # the negative tail keeps relative precision (no 1 + erf)
    assert np.max(np.abs(y - y_ref)[tiny] / np.abs(y_ref)[tiny]) < 1e-6


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_gelu_kernel_special_values(dt):
    x = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 40.0, -40.0, 1e30, -1e30], dtype=dt)
    with np.errstate(invalid="ignore"):
        y, dydx = KG.gelu(x, want_grad=True)
        y_ref, d_ref = R.gelu(x, True)
    np.testing.assert_allclose(y, y_ref, rtol=1e-6, atol=1e-30)  # nan where the reference is
    np.testing.assert_allclose(dydx, d_ref, rtol=1e-6, atol=1e-30)
    assert y[0] == np.inf and dydx[0] == 1.0 and dydx[1] == 0.0


def test_gelu_kernel_any_shape_and_strides():
    base = np.random.default_rng(0).standard_normal((6, 8)).astype(np.float32)
    x = base[:, ::2].T  # a strided view
    y, dydx = KG.gelu(x, want_grad=True)
    assert y.shape == x.shape == dydx.shape
    np.testing.assert_allclose(y, R.gelu(x, True)[0], **TOL[np.float32])


def test_gelu_op_saves_the_derivative_and_matches_float64():
    x = np.random.default_rng(1).standard_normal((5, 7)) * 3
    t32 = mg.tensor(x.astype(np.float32), requires_grad=True)
    t64 = mg.tensor(x, requires_grad=True)
    g = np.random.default_rng(2).standard_normal(x.shape)
    for t in (t32, t64):
        y = t.gelu()
        assert y.dtype == t.dtype
        y.backward(g.astype(t.dtype))
    np.testing.assert_allclose(t32.grad, t64.grad, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(t64.grad, g * R.gelu(x, True)[1], rtol=1e-12)
    with mg.no_grad():  # value only: no derivative computed or kept
        np.testing.assert_array_equal(t32.gelu().data, KG.gelu(t32.data, False)[0])


def test_gelu_backward_on_the_threads_equals_the_product():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((96, 512)).astype(np.float32)  # 49k values: the threaded path
    _, dydx = KG.gelu(x, want_grad=True)
    g = rng.standard_normal(x.shape).astype(np.float32)
    got = KG.gelu_backward(g, dydx)
    assert got.dtype == np.float32 and got.shape == x.shape
    np.testing.assert_array_equal(got, g * dydx)  # one rounding per element, as NumPy
    strided = np.asfortranarray(g)  # not C-contiguous: NumPy's product
    np.testing.assert_array_equal(KG.gelu_backward(strided, dydx), g * dydx)

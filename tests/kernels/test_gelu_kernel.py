"""The fused GELU kernels (exact and tanh form) equal their float64 references to float32
accuracy, and the GELU op uses them (forward value, saved derivative, gradients)."""

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


def _tanh_form_float64(x):
    """The tanh form and its slope in float64 (the oracle of the tanh kernels), written with
    0.5 (1 + tanh(u)) = sigmoid(2u) so that the far negative tail keeps its digits too."""
    x = x.astype(np.float64)
    u = np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)
    e = np.exp(-2 * np.abs(u))
    s = np.where(u >= 0, 1 / (1 + e), e / (1 + e))  # sigmoid(2u)
    du = np.sqrt(2 / np.pi) * (1 + 3 * 0.044715 * x * x)
    return x * s, s + 2 * x * s * (1 - s) * du


@pytest.mark.parametrize("n", [1000, 200_001])  # 200k values: the threaded loops
def test_tanh_form_kernel_dense_grid(n):
    x = np.linspace(-14, 14, n, dtype=np.float32)
    y, dydx = KG.gelu(x, want_grad=True, approximate="tanh")
    y_ref, d_ref = _tanh_form_float64(x)
    assert y.dtype == dydx.dtype == np.float32
    assert np.max(np.abs(y - y_ref) / np.maximum(1.0, np.abs(y_ref))) < 2e-7
    assert np.max(np.abs(dydx - d_ref)) < 4e-7
    # the kernel forms 1 + tanh(u) as 2e / (1 + e), no cancellation: y keeps its relative
    # precision in the negative tail (PyTorch's float32 form rounds it to 0 from x = -5 on);
    # what is left is u's own float32 rounding, |2u| ulps of e (|2u| ~ 50 at y ~ 1e-30)
    tail = np.abs(y_ref) > 1e-30
    assert np.max(np.abs(y - y_ref)[tail] / np.abs(y_ref)[tail]) < 2e-5
    y_only, none = KG.gelu(x, want_grad=False, approximate="tanh")
    assert none is None
    np.testing.assert_allclose(y_only, y, rtol=1e-7, atol=1e-37)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_tanh_form_special_values_and_float64(dt):
    x = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 40.0, -40.0, 3.0, -3.0], dtype=dt)
    with np.errstate(invalid="ignore", over="ignore"):
        y, dydx = KG.gelu(x, want_grad=True, approximate="tanh")
        y_ref, d_ref = R.gelu(x, True, "tanh")
    np.testing.assert_allclose(y, y_ref, rtol=1e-6, atol=1e-30)  # nan where the reference is
    np.testing.assert_allclose(dydx, d_ref, rtol=1e-6, atol=1e-30)
    assert y[0] == np.inf and dydx[5] == 1.0 and dydx[6] == 0.0


def test_tanh_gelu_op_matches_torch():
    torch = pytest.importorskip("torch")
    x = (np.random.default_rng(3).standard_normal((64, 300)) * 4).astype(np.float32)
    g = np.random.default_rng(4).standard_normal(x.shape).astype(np.float32)
    t = mg.tensor(x, requires_grad=True)
    y = t.gelu(approximate="tanh")
    y.backward(mg.tensor(g))
    tt = torch.tensor(x, requires_grad=True)
    ty = torch.nn.functional.gelu(tt, approximate="tanh")
    ty.backward(torch.tensor(g))
    # PyTorch's float32 tanh form loses the tail to 1 + tanh(u) cancelling (y = -0.0 at
    # x = -5.1, where ours gives the float64 value -1.18e-7): the tolerance covers its error
    np.testing.assert_allclose(y.data, ty.detach().numpy(), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(t.grad.data, tt.grad.numpy(), rtol=1e-5, atol=5e-6)

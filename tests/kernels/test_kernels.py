"""Each Numba kernel equals its plain NumPy reference, in float32 and float64."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from strategies import broadcastable_shapes, float_arrays, layouts, shapes, with_layout

import minigrad as mg
from minigrad.backends.reference import Reference
from minigrad.kernels import masked_fill as MF
from minigrad.kernels import matmul as MM
from minigrad.kernels import softmax as SM

R = Reference()  # the reference backend: every primitive in NumPy, the oracle

DTYPES = [np.float32, np.float64]


def _tol(dtype):
    return {"rtol": 1e-5, "atol": 1e-5} if dtype == np.float32 else {"rtol": 1e-12, "atol": 1e-12}


# ---- matmul -------------------------------------------------------------------------


@st.composite
def _matmul_operands(draw, dtype, min_side=0):
    """Two arrays a (..., M, K), b (..., K, N) with broadcast batch dims, each in a
    random memory layout (transposed last axes, strided, reversed)."""
    m, k, n = (draw(st.integers(min_side, 5)) for _ in range(3))
    ba, bb = draw(broadcastable_shapes(2, 0, 2, 1, 3))
    ndim_a, ndim_b = draw(st.sampled_from([(None, None), (2, None), (None, 2)]))
    sa = (m, k) if ndim_a == 2 else ba + (m, k)
    sb = (k, n) if ndim_b == 2 else bb + (k, n)
    a = draw(float_arrays(sa, dtype))
    b = draw(float_arrays(sb, dtype))
    return with_layout(a, draw(layouts())), with_layout(b, draw(layouts()))


@pytest.mark.parametrize("dtype", DTYPES)
@given(data=st.data())
def test_matmul_equals_reference(dtype, data):
    a, b = data.draw(_matmul_operands(dtype))
    got = MM.matmul(a, b)
    want = R.matmul(a, b)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, **_tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@given(data=st.data(), bt=st.booleans(), at=st.booleans())
def test_matmul_transposed_views(dtype, data, at, bt):
    """``q @ k.transpose(-2, -1)``: operands that are transposes of contiguous arrays."""
    lead = data.draw(st.integers(1, 3))
    m, k, n = (data.draw(st.integers(1, 5)) for _ in range(3))
    a = data.draw(float_arrays((lead, k, m) if at else (lead, m, k), dtype))
    b = data.draw(float_arrays((lead, n, k) if bt else (lead, k, n), dtype))
    a = a.swapaxes(-1, -2) if at else a
    b = b.swapaxes(-1, -2) if bt else b
    np.testing.assert_allclose(MM.matmul(a, b), R.matmul(a, b), **_tol(dtype))


def test_matmul_result_is_fresh_and_inputs_untouched():
    a = np.arange(12.0).reshape(2, 2, 3)
    b = np.arange(6.0).reshape(3, 2)
    a0, b0 = a.copy(), b.copy()
    out = MM.matmul(a, b)
    assert not np.shares_memory(out, a) and not np.shares_memory(out, b)
    np.testing.assert_array_equal(a, a0)
    np.testing.assert_array_equal(b, b0)


def test_matmul_mixed_dtypes_promote():
    a = np.ones((2, 3), np.float32)
    b = np.ones((3, 2), np.float64)
    assert MM.matmul(a, b).dtype == np.float64


def test_matmul_op_uses_kernel(monkeypatch):
    """On the fast backend the MatMul op runs the kernel (``Fast.matmul`` calls ``MM.matmul``)."""
    calls = []
    real = MM.matmul
    monkeypatch.setattr(MM, "matmul", lambda a, b: calls.append(1) or real(a, b))
    monkeypatch.setattr(mg.backends, "active", mg.backends.Fast())
    x = mg.tensor(np.ones((2, 3)), requires_grad=True)
    (x @ mg.tensor(np.ones((3, 2)), requires_grad=True)).sum().backward()
    assert len(calls) == 3  # forward, and one product per input gradient


# ---- softmax ------------------------------------------------------------------------------


@st.composite
def _logits(draw, dtype, min_dims=1):
    """Logits with some -inf entries, whole -inf rows, and extreme values (+-1000)."""
    shape = draw(shapes(min_dims=min_dims, max_dims=3, max_side=6))
    x = draw(float_arrays(shape, dtype, -5, 5))
    special = draw(hnp.arrays(np.int8, shape, elements=st.integers(0, 5)))
    x = np.where(special == 1, -np.inf, x)
    x = np.where(special == 2, 1000.0, x)
    x = np.where(special == 3, -1000.0, x)
    if len(shape) >= 2 and draw(st.booleans()):
        x[(draw(st.integers(0, shape[0] - 1)),)] = -np.inf  # whole rows masked
    return with_layout(x.astype(dtype), draw(layouts()))


@pytest.mark.parametrize("dtype", DTYPES)
@given(data=st.data())
def test_softmax_forward_equals_reference(dtype, data):
    x = data.draw(_logits(dtype))
    y = SM.softmax(x)
    assert y.dtype == dtype and y.shape == x.shape
    assert not np.isnan(y).any()
    np.testing.assert_allclose(y, R.softmax(x), **_tol(dtype))
    rows = y.reshape(-1, x.shape[-1]).sum(-1)
    all_masked = np.isneginf(x).all(-1).reshape(-1)
    np.testing.assert_allclose(rows, np.where(all_masked, 0.0, 1.0), rtol=1e-5)


@pytest.mark.parametrize("dtype", DTYPES)
@given(data=st.data())
def test_softmax_backward_equals_reference(dtype, data):
    x = data.draw(_logits(dtype))
    y = SM.softmax(x)
    g = with_layout(data.draw(float_arrays(x.shape, dtype)), data.draw(layouts()))
    dx = SM.softmax_backward(y, g)
    assert dx.dtype == dtype and not np.isnan(dx).any()
    np.testing.assert_allclose(dx, R.softmax_backward(y, g), **_tol(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@given(data=st.data())
def test_log_softmax_equals_reference(dtype, data):
    x = data.draw(_logits(dtype))
    out = SM.log_softmax(x)
    assert out.dtype == dtype
    np.testing.assert_allclose(out, R.log_softmax(x), **_tol(dtype))
    g = data.draw(float_arrays(x.shape, dtype))
    np.testing.assert_allclose(
        SM.log_softmax_backward(out, g), R.log_softmax_backward(out, g), **_tol(dtype)
    )


def test_softmax_rows_entirely_minus_inf_give_zeros():
    for dtype in DTYPES:
        x = np.full((3, 4), -np.inf, dtype)
        x[1] = [1000, -1000, 0, 5]
        y = SM.softmax(x)
        np.testing.assert_array_equal(y[0], 0)
        np.testing.assert_array_equal(y[2], 0)
        np.testing.assert_allclose(y[1], [1, 0, 0, 0])
        dx = SM.softmax_backward(y, np.ones_like(x))
        assert np.isfinite(dx).all()


def test_softmax_empty_shapes():
    for shape in [(0, 3), (3, 0), (0,)]:
        assert SM.softmax(np.zeros(shape)).shape == shape
        assert SM.log_softmax(np.zeros(shape)).shape == shape


# ---- masked fill --------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@given(
    data=st.data(),
    pair=broadcastable_shapes(2, 0, 4),
    value=st.sampled_from([-np.inf, 0.0, -1e9, 2.5]),
)
def test_masked_fill_equals_reference(dtype, data, pair, value):
    x_shape = np.broadcast_shapes(*pair)
    x = with_layout(data.draw(float_arrays(x_shape, dtype)), data.draw(layouts()))
    mask = with_layout(data.draw(hnp.arrays(np.bool_, pair[1])), data.draw(layouts()))
    got = MF.masked_fill(x, mask, value)
    assert got.dtype == dtype and got.shape == x.shape
    np.testing.assert_array_equal(got, R.masked_fill(x, mask, value))


@pytest.mark.parametrize("dtype", DTYPES)
@given(data=st.data(), pair=broadcastable_shapes(2, 0, 4))
def test_masked_fill_backward_equals_reference(dtype, data, pair):
    """The backward is masked_fill(grad, mask, 0): through the op it must equal the reference."""
    x_shape = np.broadcast_shapes(*pair)
    mask = data.draw(hnp.arrays(np.bool_, pair[1]))
    g = data.draw(float_arrays(x_shape, dtype))
    x = mg.tensor(data.draw(float_arrays(x_shape, dtype)), requires_grad=True)
    x.masked_fill(mask, -np.inf).backward(g)
    np.testing.assert_array_equal(x.grad, R.masked_fill(g, mask, 0.0))


def test_attention_mask_is_not_expanded(monkeypatch):
    """A (T, T) mask over (B, H, T, T) scores is passed as one row, not broadcast in memory."""
    seen = []
    real = MF.masked_fill_rows
    def spy(x, m, v, o):
        seen.append(m.shape)
        real(x, m, v, o)

    monkeypatch.setattr(MF, "masked_fill_rows", spy)
    x = np.zeros((2, 3, 4, 4))
    out = MF.masked_fill(x, mg.causal_mask(4), -np.inf)
    assert seen == [(16,)]
    np.testing.assert_array_equal(out, R.masked_fill(x, mg.causal_mask(4), -np.inf))


def test_softmax_nan_propagates_to_its_row_only():
    for dtype in DTYPES:
        x = np.array([[1.0, np.nan, 2.0], [0.0, 1.0, 2.0]], dtype)
        y = SM.softmax(x)
        assert np.isnan(y[0]).all() and np.isfinite(y[1]).all()
        np.testing.assert_array_equal(np.isnan(R.softmax(x)), np.isnan(y))

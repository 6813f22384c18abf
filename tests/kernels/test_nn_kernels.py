"""The nn kernels (layer norm, cross-entropy, embedding scatter-add, attention's
masked softmax) equal their plain NumPy references, in float32 and float64."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from minigrad.backends.interface import causal_mask
from minigrad.backends.reference import Reference
from minigrad.kernels import cross_entropy as KCE
from minigrad.kernels import embedding as KE
from minigrad.kernels import layernorm as KLN
from minigrad.kernels import masked_softmax as KMS

R = Reference()  # the reference backend: every primitive in NumPy, the oracle

dtypes = st.sampled_from([np.float32, np.float64])
TOL = {np.float32: {"rtol": 2e-5, "atol": 2e-5}, np.float64: {"rtol": 1e-12, "atol": 1e-12}}


def masked_softmax_reference(s: np.ndarray, scale: float, mask: np.ndarray | None,
                             causal: bool) -> np.ndarray:
    """What the masked-softmax kernel replaces, from the reference backend's primitives:
    softmax(where(causal, -inf, s * scale + mask)) over the last axis; s (..., Tq, Tk),
    mask additive (-inf = blocked)."""
    z = s * s.dtype.type(scale) + (0 if mask is None else mask.astype(s.dtype))
    blocked = causal_mask(*s.shape[-2:]) if causal else np.zeros(s.shape[-2:], bool)
    return R.softmax(R.masked_fill(z, blocked, -np.inf))


@given(rows=st.integers(1, 6), d=st.integers(1, 40), dt=dtypes, seed=st.integers(0, 99))
def test_layer_norm_kernel_equals_reference(rows, d, dt, seed):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal((rows, d)) * 3 + 1).astype(dt)
    w, b = rng.standard_normal(d).astype(dt), rng.standard_normal(d).astype(dt)
    g = rng.standard_normal((rows, d)).astype(dt)
    y, mean, rstd = KLN.layer_norm(x, w, b, 1e-5)
    y_ref, mean_ref, rstd_ref = R.layer_norm(x, w, b, 1e-5)
    # The kernel forms x - mean in x's dtype (an error of ulp(x)) and the reference in
    # float64; in a nearly constant row rstd amplifies that error in xhat and rstd^2 in dx
    # (e.g. d=2, rows 2.5075 and 2.5317: rstd 80, dx off by 3e-4 relative in float32).
    cond = 4 * np.finfo(dt).eps * np.abs(x).max() * rstd.max() ** 2 * np.abs(g * w).max()
    tol = {"rtol": TOL[dt]["rtol"], "atol": TOL[dt]["atol"] + cond}
    assert y.dtype == dt
    np.testing.assert_allclose(y, y_ref, **tol)
    np.testing.assert_allclose(mean, mean_ref, **TOL[dt])
    np.testing.assert_allclose(rstd, rstd_ref, rtol=TOL[dt]["rtol"])
    dx, dw, db = KLN.layer_norm_backward(g, x, w, mean, rstd)
    for got, ref in zip((dx, dw, db), R.layer_norm_backward(g, x, w, mean, rstd)):
        assert got.dtype == dt
        np.testing.assert_allclose(got, ref, **tol)


def test_layer_norm_kernel_leading_dims_and_constant_rows():
    x = np.full((2, 3, 4), 5.0, dtype=np.float32)
    w, b = np.ones(4, np.float32), np.arange(4, dtype=np.float32)
    y, mean, rstd = KLN.layer_norm(x, w, b, 1e-5)
    assert y.shape == (2, 3, 4) and mean.shape == (2, 3)
    np.testing.assert_array_equal(y, np.broadcast_to(b, y.shape))
    dx, _, _ = KLN.layer_norm_backward(np.ones_like(x), x, w, mean, rstd)
    assert np.all(np.isfinite(dx))


@given(n=st.integers(1, 8), c=st.integers(1, 70), dt=dtypes, scale=st.sampled_from([1.0, 0.25]),
       seed=st.integers(0, 99))
def test_cross_entropy_kernel_equals_reference(n, c, dt, scale, seed):
    rng = np.random.default_rng(seed)
    z = (rng.standard_normal((n, c)) * 4).astype(dt)
    t = rng.integers(0, c, n)
    t[rng.random(n) < 0.25] = -100
    losses, grad = KCE.cross_entropy(z, t, -100, scale)
    l_ref, g_ref = R.cross_entropy(z, t, -100)
    assert losses.dtype == dt and grad.dtype == dt
    np.testing.assert_allclose(losses, l_ref, **TOL[dt])
    np.testing.assert_allclose(grad, scale * g_ref, **TOL[dt])


def test_cross_entropy_threaded_rows_equal_the_serial_loop():
    """Above PARALLEL_MIN_SIZE logits the rows are shared out over the threads (a GPT-2 head's
    chunk). Each row is the same code, but the two loops are compiled apart and may sum a
    row's exps in another order: equal to float32 rounding, not bit for bit."""
    rng = np.random.default_rng(0)
    z = (rng.standard_normal((64, 1000)) * 4).astype(np.float32)  # 64k logits: threaded
    assert z.size >= KCE.PARALLEL_MIN_SIZE
    t = rng.integers(0, 1000, 64)
    t[::7] = -100
    outs = []
    for kernel in (KCE.cross_entropy_f32, KCE.cross_entropy_f32_par):
        sums, shift, grad = np.empty(64, np.float32), np.empty(64, np.float32), z.copy()
        kernel(grad, t, -100, 1 / 64, sums, shift, grad)  # in place, as the fused head does
        outs.append((sums, shift, grad))
    for a, b in zip(*outs):
        np.testing.assert_allclose(a, b, **TOL[np.float32])
    losses, grad = KCE.cross_entropy(z, t, -100, 1 / 64)  # the dispatcher takes the threads
    np.testing.assert_array_equal(grad, outs[1][2])
    np.testing.assert_array_equal(losses, np.log(outs[1][0]) + outs[1][1])


def test_cross_entropy_kernel_extreme_logits_and_target_check():
    z = np.array([[1e4, 0.0, -1e4], [5.0, 5.0, 5.0]], dtype=np.float32)
    t = np.array([2, 0])
    losses, grad = KCE.cross_entropy(z, t, -100)
    np.testing.assert_allclose(losses, [2e4, np.log(3)], rtol=1e-6)
    assert np.all(np.isfinite(grad))
    assert KCE.check_targets(np.array([0, -100, 2]), 3, -100) == (-1, 2)
    assert KCE.check_targets(np.array([0, 3, -5]), 3, -100) == (1, 1)
    assert KCE.check_targets(np.array([-5]), 3, -100)[0] == 0


@given(n=st.integers(1, 6), d=st.integers(1, 5), m=st.integers(0, 20), dt=dtypes,
       seed=st.integers(0, 99))
def test_embedding_scatter_add_equals_np_add_at(n, d, m, dt, seed):
    rng = np.random.default_rng(seed)
    ids = rng.integers(0, n, m)  # with repeats
    g = rng.standard_normal((m, d)).astype(dt)
    got = KE.embedding_backward(ids, g, n)
    assert got.dtype == dt and got.shape == (n, d)
    np.testing.assert_allclose(got, R.embedding_backward(ids, g, n), **TOL[dt])


def test_embedding_scatter_add_accumulates_repeats_with_batch_shape():
    ids = np.array([[1, 1], [1, 0]])
    g = np.ones((2, 2, 3), dtype=np.float32)
    np.testing.assert_array_equal(KE.embedding_backward(ids, g, 3), [[1] * 3, [3] * 3, [0] * 3])


@pytest.mark.parametrize("bad", [3, -1, 10**12, -(2**62)])
def test_gather_scatter_kernels_refuse_out_of_range_ids_without_touching_memory(bad):
    # the callers check ranges; the kernels check again, so a caller's bug cannot corrupt memory
    out = np.zeros((3, 4), np.float32)
    ids = np.array([0, 2, bad, 1])
    assert KE.scatter_add_rows(ids, np.ones((4, 4), np.float32), out) == 2
    assert not out.any()  # nothing was added before the bad id was found
    with pytest.raises(IndexError, match=rf"id {bad} at flat position 2 is outside \[0, 3\)"):
        KE.embedding_backward(ids.reshape(2, 2), np.ones((2, 2, 4), np.float32), 3)
    for dt in (np.float32, np.float64):
        with pytest.raises(IndexError, match=f"target {bad} at row 2"):
            KCE.cross_entropy(np.zeros((4, 3), dt), ids, -100)


@given(a=st.integers(1, 2), b=st.integers(1, 3), tq=st.integers(1, 5), tk=st.integers(1, 5),
       causal=st.booleans(), masked=st.booleans(), dt=dtypes, seed=st.integers(0, 99))
def test_masked_softmax_kernel_equals_reference(a, b, tq, tk, causal, masked, dt, seed):
    rng = np.random.default_rng(seed)
    s = (rng.standard_normal((a, b, tq, tk)) * 3).astype(dt)
    mask = np.where(rng.random((a, 1, tq, tk)) < 0.4, -np.inf, rng.standard_normal(
        (a, 1, tq, tk))).astype(dt) if masked else None
    ref = masked_softmax_reference(s, 0.6, mask, causal)
    got = KMS.masked_softmax(s.copy(), 0.6, mask, causal)
    np.testing.assert_allclose(got, ref, **TOL[dt])
    dp = rng.standard_normal(s.shape).astype(dt)
    np.testing.assert_allclose(KMS.masked_softmax_backward(got, dp.copy(), 0.6),
                               R.softmax_backward(ref, dp) * dt(0.6), **TOL[dt])


@pytest.mark.parametrize("shape", [(4, 4), (3, 2, 4), (2, 2, 2, 4, 4)])
def test_masked_softmax_any_leading_shape_and_dead_rows(shape):
    rng = np.random.default_rng(0)
    s = rng.standard_normal(shape)
    mask = np.zeros(shape[-2:])
    mask[1] = -np.inf  # row 1 blocked everywhere
    got = KMS.masked_softmax(s.copy(), 1.0, mask, causal=False)
    np.testing.assert_allclose(got, masked_softmax_reference(s, 1.0, mask, False), rtol=1e-12)
    assert np.all(got[..., 1, :] == 0)


def test_cross_entropy_kernel_keeps_nan_visible():
    z = np.array([[0.0, np.nan, 1.0, 2.0, 3.0], [0.0, 1.0, 2.0, 3.0, 4.0]], dtype=np.float32)
    losses, _ = KCE.cross_entropy(z, np.array([0, 0]), -100)
    assert np.isnan(losses[0]) and np.isfinite(losses[1])


def test_exp_f32_within_one_ulp_and_edge_values():
    # the float32 kernel's own exp (range reduction + polynomial) against float64 libm
    y = np.concatenate([np.linspace(-87.4, 0.0, 200_001), [-1e-30, -0.0]]).astype(np.float32)
    got = np.empty_like(y)
    KCE.exp_f32(y, got)
    exact = np.exp(y.astype(np.float64))
    assert np.max(np.abs(got - exact) / np.spacing(got)) <= 1.5  # measured: 0.99
    edge = np.array([-np.inf, -1e4, -100.0, -87.6, 0.0, np.nan], dtype=np.float32)
    out = np.empty_like(edge)
    KCE.exp_f32(edge, out)
    np.testing.assert_array_equal(out[:5], [0, 0, 0, 0, 1])
    assert np.isnan(out[5])


def test_cross_entropy_f32_kernel_extreme_logits_equal_float64_reference():
    rng = np.random.default_rng(3)
    z = (rng.standard_normal((6, 65)) * 4).astype(np.float32)
    z[0, 5], z[1, 7], z[2, :3], z[3, 10] = 1e4, -1e4, -np.inf, 88.0
    z[4] = 1e4 * np.sign(rng.standard_normal(65))
    t = np.array([5, 7, 0, 11, 2, -100])  # row 2's target has logit -inf: loss inf
    losses, grad = KCE.cross_entropy(z, t, -100, 0.5)
    l_ref, g_ref = R.cross_entropy(z.astype(np.float64), t, -100)
    with np.errstate(invalid="ignore"):
        np.testing.assert_allclose(losses, l_ref, rtol=4e-7, atol=1e-6)
    np.testing.assert_allclose(grad, 0.5 * g_ref, rtol=0, atol=1e-7)
    assert np.all(grad[5] == 0) and losses[5] == 0


def test_cross_entropy_f32_kernel_nan_and_inf_logits_give_nan_loss():
    z = np.zeros((4, 20), dtype=np.float32)
    z[0, 3] = np.nan
    z[1, 3] = -np.nan  # sign bit set: sorts below -inf in the max, still NaN in exp
    z[2, 3] = np.inf
    losses, grad = KCE.cross_entropy(z, np.zeros(4, np.int64), -100)
    assert np.all(np.isnan(losses[:3])) and np.isfinite(losses[3])
    assert np.all(np.isnan(grad[:3]).any(axis=1)) and np.all(np.isfinite(grad[3]))
    np.testing.assert_allclose(losses[3], np.log(20), rtol=1e-6)

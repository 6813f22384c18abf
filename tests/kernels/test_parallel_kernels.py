"""The speed paths equal the plain ones: parallel matmul kernels (row blocks,
inner-dimension blocks, per-matrix batches), the packed q/k/v projection and
packed self-attention, LayerNorm split into row blocks, and the fused sum of
squares of clip_grad_norm_."""

from __future__ import annotations

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minigrad.backends.fast import Fast
from minigrad.backends.reference import Reference
from minigrad.kernels import grad_norm as KG
from minigrad.kernels import matmul as MM
from minigrad.kernels.runtime import settings as runtime
from minigrad.kernels.runtime import threads
from minigrad.num_threads import set_openblas_threads

R = Reference()  # the reference backend: every primitive in NumPy, the oracle
FB = Fast()

TOL = {np.float32: {"rtol": 2e-5, "atol": 2e-5}, np.float64: {"rtol": 1e-12, "atol": 1e-12}}


# ---- matmul: shapes big enough to take the parallel kernels ------------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("at", [False, True])
@pytest.mark.parametrize("bt", [False, True])
@settings(max_examples=8, deadline=None)
@given(m=st.integers(1, 90), k=st.integers(1, 90), n=st.integers(1, 90), seed=st.integers(0, 9))
def test_matmul_2d_parallel_paths_equal_reference(dtype, at, bt, m, k, n, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((k, m) if at else (m, k)).astype(dtype)
    b = rng.standard_normal((n, k) if bt else (k, n)).astype(dtype)
    a = a.T if at else a  # transposed views: BLAS takes them without a copy
    b = b.T if bt else b
    got = MM.matmul(a, b)
    np.testing.assert_allclose(got, R.matmul(a, b), **TOL[dtype])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("at", [False, True])
@pytest.mark.parametrize("bt", [False, True])
@pytest.mark.parametrize("batch", [(1,), (7,), (2, 3)])
def test_matmul_batched_parallel_paths_equal_reference(dtype, at, bt, batch):
    rng = np.random.default_rng(len(batch) + 3 * at + 5 * bt)
    m, k, n = 33, 40, 47
    a = rng.standard_normal(batch + ((k, m) if at else (m, k))).astype(dtype)
    b = rng.standard_normal(batch + ((n, k) if bt else (k, n))).astype(dtype)
    a = a.swapaxes(-1, -2) if at else a
    b = b.swapaxes(-1, -2) if bt else b
    np.testing.assert_allclose(MM.matmul(a, b), R.matmul(a, b), **TOL[dtype])


def test_matmul_parallel_kernels_directly():
    # the kernels themselves, whatever PARALLEL says on this machine
    rng = np.random.default_rng(0)
    a = rng.standard_normal((101, 64)).astype(np.float32)
    b = rng.standard_normal((64, 37)).astype(np.float32)
    out = np.empty((101, 37), np.float32)
    for n in (1, 2, 3, 200):  # more blocks than rows leaves some blocks empty
        MM.mm_rows_par(a, b, out, n)
        np.testing.assert_allclose(out, a @ b, **TOL[np.float32])
    at = rng.standard_normal((101, 37)).astype(np.float32)
    for n in (1, 2, 5, 200):
        out2 = np.full((37, 64), np.nan, np.float32)
        MM.mm_at_par(at, a, out2, n)
        np.testing.assert_allclose(out2, at.T @ a, **TOL[np.float32])


def test_parallel_flag_is_a_bool_and_blas_setting_is_safe_to_repeat():
    assert isinstance(runtime.parallel(), bool)
    if runtime.parallel():
        assert threads.use_one_blas_thread() is True


# ---- clip_grad_norm_'s fused sum of squares ---------------------------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sum_of_squares_equals_reference(dtype):
    rng = np.random.default_rng(5)
    for shape in [(0,), (7,), (13, 9), (3, 4, 5)]:
        g = (rng.standard_normal(shape) * 100).astype(dtype)
        assert KG.sum_of_squares(g) == pytest.approx(R.sum_of_squares(g), rel=1e-12)
    g = rng.standard_normal((6, 8)).astype(dtype)[:, ::2]  # strided
    assert KG.sum_of_squares(g) == pytest.approx(R.sum_of_squares(g), rel=1e-12)
    assert np.isnan(KG.sum_of_squares(np.array([1.0, np.nan], dtype)))
    assert KG.sum_of_squares(np.array([np.inf, 1.0], dtype)) == np.inf


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("rows", [2, 7, 768])
def test_layer_norm_row_blocks_equal_reference(dtype, rows):
    from minigrad.kernels import layernorm as KLN

    rng = np.random.default_rng(rows)
    d = max(8, 16384 // rows + 1)  # >= 16k values: the threaded kernels
    x = (rng.standard_normal((rows, d)) * 2 + 1).astype(dtype)
    w, b = rng.standard_normal(d).astype(dtype), rng.standard_normal(d).astype(dtype)
    g = rng.standard_normal((rows, d)).astype(dtype)
    assert KLN._threads(x) == (numba.get_num_threads() if runtime.parallel() else 1)
    y, mean, rstd = KLN.layer_norm(x, w, b, 1e-5)
    for got, ref in zip((y, mean, rstd), R.layer_norm(x, w, b, 1e-5)):
        np.testing.assert_allclose(got, ref, **TOL[dtype])
    got = KLN.layer_norm_backward(g, x, w, mean, rstd)
    for got_i, ref in zip(got, R.layer_norm_backward(g, x, w, mean, rstd)):
        np.testing.assert_allclose(got_i, ref, rtol=TOL[dtype]["rtol"] * 10,
                                   atol=TOL[dtype]["atol"] * 10 * max(1, np.abs(ref).max()))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("m, n, k", [(768, 384, 128), (5, 3, 2), (300, 1, 70)])
@pytest.mark.parametrize("want_db", [False, True])
def test_linear_grads_one_product_per_thread_equal_reference(dtype, m, n, k, want_db):
    rng = np.random.default_rng(m)
    g, w, x = (rng.standard_normal(s).astype(dtype) for s in ((m, n), (n, k), (m, k)))
    dx, dw, db = MM.linear_grads(g, w, x, want_db)
    assert dx.dtype == dw.dtype == dtype and dx.shape == (m, k) and dw.shape == (n, k)
    tol = {"rtol": TOL[dtype]["rtol"] * 10, "atol": TOL[dtype]["atol"] * 10 * np.sqrt(m)}
    np.testing.assert_allclose(dx, g @ w, **tol)
    np.testing.assert_allclose(dw, g.T @ x, **tol)
    if want_db:
        assert db.dtype == dtype and db.shape == (n,)
        np.testing.assert_allclose(db, g.astype(np.float64).sum(axis=0), **tol)
    else:
        assert db is None


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("m, n, k", [(768, 384, 128), (5, 3, 2), (300, 1, 70)])
def test_matmul_bias_equals_reference(dtype, m, n, k):
    rng = np.random.default_rng(k)
    x, w, b = (rng.standard_normal(s).astype(dtype) for s in ((m, k), (n, k), (n,)))
    y = MM.matmul_bias(x, w.T, b)  # w.T: a transposed view, as a Linear layer passes it
    assert y.dtype == dtype and y.shape == (m, n)
    np.testing.assert_allclose(y, x @ w.T + b, rtol=TOL[dtype]["rtol"] * 10,
                               atol=TOL[dtype]["atol"] * 10 * np.sqrt(k))


# ---- a few rows of input: the matrix-vector products of decoding ------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("m, n, k", [(1, 1, 1), (1, 2, 1), (3, 7, 3), (1, 257, 255),
                                     (16, 1001, 77), (5, 300, 1)])
def test_few_rows_kernel_equals_reference(dtype, m, n, k):
    # the kernel itself, whatever parallel() says: more blocks than rows leaves some empty,
    # chunks of 1 row, of a few, and larger than a block
    rng = np.random.default_rng(n + k)
    x, w = rng.standard_normal((m, k)).astype(dtype), rng.standard_normal((n, k)).astype(dtype)
    for blocks, chunk in ((1, n), (2, 1), (3, 5), (n + 5, 2), (2, 10 * n)):
        out = np.full((m, n), np.nan, dtype)
        MM.few_rows_par(x, w, out, blocks, chunk)
        np.testing.assert_allclose(out, x @ w.T, rtol=TOL[dtype]["rtol"] * 10,
                                   atol=TOL[dtype]["atol"] * 10 * np.sqrt(k))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("x_shape", [(300,), (1, 300), (1, 1, 300), (2, 7, 300), (16, 300),
                                     (17, 300)])
@pytest.mark.parametrize("bias", [False, True])
def test_linear_of_few_rows_splits_the_weight_and_equals_reference(monkeypatch, dtype, x_shape,
                                                                   bias):
    rng = np.random.default_rng(len(x_shape))
    x = rng.standard_normal(x_shape).astype(dtype)
    w = rng.standard_normal((517, 300)).astype(dtype)  # 155k multiply-adds: worth the threads
    b = rng.standard_normal(517).astype(dtype) if bias else None
    calls = []
    real = MM.few_rows_par
    monkeypatch.setattr(MM, "few_rows_par", lambda *a: calls.append(1) or real(*a))
    y = FB.linear(x, w, b)
    assert y.shape == x_shape[:-1] + (517,) and y.dtype == dtype and y.flags.c_contiguous
    few = np.prod(x_shape[:-1]) <= MM.FEW_ROWS  # 17 rows: the general product
    assert len(calls) == (1 if runtime.parallel() and few else 0)
    np.testing.assert_allclose(y, R.linear(x, w, b), rtol=TOL[dtype]["rtol"] * 10,
                               atol=TOL[dtype]["atol"] * 100)


@pytest.mark.parametrize("case", ["strided x", "transposed w", "strided w", "float64 x",
                                  "float64 bias", "empty w", "no inputs", "small"])
def test_linear_of_few_rows_other_layouts_equal_reference(case):
    rng = np.random.default_rng(7)
    f32 = np.float32
    x = rng.standard_normal((1, 600)).astype(f32)[:, ::2]          # (1, 300), strided
    w = rng.standard_normal((517, 300)).astype(f32)
    b = rng.standard_normal(517).astype(f32)
    if case == "strided x":
        pass
    elif case == "transposed w":
        w = np.ascontiguousarray(w.T).T                             # F-contiguous
    elif case == "strided w":
        w = rng.standard_normal((517, 600)).astype(f32)[:, ::2]
    elif case == "float64 x":
        x = x.astype(np.float64)
    elif case == "float64 bias":
        b = b.astype(np.float64)
    elif case == "empty w":
        w, b = w[:0], b[:0]
    elif case == "no inputs":
        x, w = x[:, :0], w[:, :0]
    else:
        x, w, b = x[:, :3], w[:4, :3], b[:4]
    got, want = FB.linear(x, w, b), R.linear(x, w, b)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_numpy_blas_threads_can_be_set_and_restored():
    previous = set_openblas_threads("numpy", 1)
    if previous is None:
        pytest.skip("NumPy's own OpenBLAS is not found in this process (not Linux/OpenBLAS)")
    try:
        assert set_openblas_threads("numpy", 1) == 1
        a = np.ones((64, 64), np.float32)
        np.testing.assert_array_equal(a @ a, np.full((64, 64), 64, np.float32))
    finally:
        assert set_openblas_threads("numpy", previous) == 1
    assert set_openblas_threads("numpy", previous) == previous

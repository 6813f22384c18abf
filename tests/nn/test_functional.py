"""nn.functional: cross_entropy, softmax, log_softmax, linear, embedding,
layer_norm, relu, gelu, dropout: gradients, values and error paths."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minigrad as mg
from minigrad.nn import functional as F

sizes = st.integers(1, 5)


def leaf(a):
    return mg.tensor(np.asarray(a, dtype=np.float64), requires_grad=True)


def ce_reference(z: np.ndarray, t: np.ndarray, ignore_index: int = -100) -> float:
    """Mean over non-ignored rows of logsumexp(z) - z[t], in float64."""
    keep = t != ignore_index
    z = z[keep].astype(np.float64)
    t = t[keep]
    m = z.max(1, keepdims=True)
    lse = m[:, 0] + np.log(np.exp(z - m).sum(1))
    return float((lse - z[np.arange(len(t)), t]).mean())


# ---- cross-entropy ---------------------------------------------------------------------
@given(n=sizes, c=sizes, reduction=st.sampled_from(["mean", "sum", "none"]),
       seed=st.integers(0, 99))
def test_cross_entropy_gradcheck(n, c, reduction, seed):
    rng = np.random.default_rng(seed)
    z = leaf(rng.standard_normal((n, c)) * 2)
    t = rng.integers(0, c, n)
    t[rng.random(n) < 0.3] = -100  # some ignored rows
    t[0] = max(t[0], 0)  # at least one kept: every row ignored is 0/0, nan with no slope
    assert mg.gradcheck(lambda z: F.cross_entropy(z, t, reduction=reduction), [z])


def test_cross_entropy_value_matches_reference_and_log_softmax():
    rng = np.random.default_rng(0)
    z = rng.standard_normal((7, 5)).astype(np.float32)
    t = np.array([0, 4, 2, -100, 1, 1, 3])
    loss = F.cross_entropy(mg.tensor(z), t)
    assert loss.shape == () and loss.dtype == np.float32
    assert loss.item() == pytest.approx(ce_reference(z, t), rel=1e-6)
    keep = t != -100
    manual = -F.log_softmax(mg.tensor(z)).data[np.arange(7)[keep], t[keep]].mean()
    assert loss.item() == pytest.approx(float(manual), rel=1e-6)
    per_row = F.cross_entropy(mg.tensor(z), t, reduction="none").data
    assert per_row[3] == 0 and per_row.sum() == pytest.approx(
        F.cross_entropy(mg.tensor(z), t, reduction="sum").item(), rel=1e-6)


def test_cross_entropy_mean_gradient_counts_only_kept_rows():
    z = mg.tensor(np.zeros((4, 3), dtype=np.float32), requires_grad=True)
    t = np.array([0, -100, 2, -100])
    F.cross_entropy(z, t).backward()
    # uniform softmax 1/3; mean over the 2 kept rows
    np.testing.assert_allclose(z.grad[0], np.array([1 / 3 - 1, 1 / 3, 1 / 3]) / 2, rtol=1e-6)
    np.testing.assert_array_equal(z.grad[1], 0)
    z.grad = None
    (F.cross_entropy(z, t) * 3.0).backward()  # an upstream gradient other than 1
    np.testing.assert_allclose(z.grad[2], 3 * np.array([1 / 3, 1 / 3, 1 / 3 - 1]) / 2, rtol=1e-6)


def test_cross_entropy_is_stable_for_huge_logits():
    z = mg.tensor(np.array([[1e4, -1e4, 0.0], [-1e4, -1e4, -1e4]], dtype=np.float32),
                  requires_grad=True)
    t = np.array([1, 2])
    loss = F.cross_entropy(z, t)
    # row 0: lse = 1e4, loss 2e4; row 1: uniform, loss log(3)
    assert loss.item() == pytest.approx((2e4 + np.log(3)) / 2, rel=1e-6)
    loss.backward()
    assert np.all(np.isfinite(z.grad))
    np.testing.assert_allclose(z.grad[0], [0.5, -0.5, 0.0], atol=1e-7)


def test_cross_entropy_all_ignored_gives_nan_and_zero_grad():
    # PyTorch's answer: the mean over no targets is 0/0; its backward skips ignored rows
    z = mg.tensor(np.ones((3, 4), dtype=np.float32), requires_grad=True)
    loss = F.cross_entropy(z, np.full(3, -100))
    assert np.isnan(loss.item())
    loss.backward()
    np.testing.assert_array_equal(z.grad, 0)
    assert np.isnan(F.cross_entropy(z, np.full(3, 7), ignore_index=7).item())


def test_cross_entropy_accepts_batch_time_logits():
    rng = np.random.default_rng(1)
    z = rng.standard_normal((2, 3, 5))
    t = rng.integers(0, 5, (2, 3))
    loss = F.cross_entropy(mg.tensor(z), mg.tensor(t))
    assert loss.item() == pytest.approx(ce_reference(z.reshape(6, 5), t.ravel()), rel=1e-6)
    assert F.cross_entropy(mg.tensor(z), t, reduction="none").shape == (2, 3)
    zt = leaf(z)
    assert mg.gradcheck(lambda z: F.cross_entropy(z, t), [zt])


def test_cross_entropy_errors_before_any_kernel_runs():
    z = mg.randn(3, 4)
    with pytest.raises(IndexError, match="target 4"):
        F.cross_entropy(z, np.array([0, 4, 1]))
    with pytest.raises(IndexError, match="-1"):
        F.cross_entropy(z, np.array([0, -1, 1]))
    with pytest.raises(TypeError, match="integer"):
        F.cross_entropy(z, np.array([0.0, 1.0, 1.0]))
    with pytest.raises(ValueError, match=r"\(3,\)"):
        F.cross_entropy(z, np.array([0, 1]))
    with pytest.raises(ValueError, match="reduction"):
        F.cross_entropy(z, np.array([0, 1, 2]), reduction="avg")
    with pytest.raises(TypeError):
        F.cross_entropy(z.data, np.array([0, 1, 2]))


# ---- softmax / log_softmax ------------------------------------------------------------
@given(shape=st.lists(sizes, min_size=1, max_size=3), seed=st.integers(0, 99))
def test_softmax_and_log_softmax_gradcheck_every_dim(shape, seed):
    rng = np.random.default_rng(seed)
    x = leaf(rng.standard_normal(shape))
    for dim in range(-len(shape), len(shape)):
        assert mg.gradcheck(lambda x, d=dim: F.softmax(x, d), [x])
        assert mg.gradcheck(lambda x, d=dim: F.log_softmax(x, dim=d), [x])


def test_softmax_values():
    x = mg.tensor([[1.0, 2.0, 3.0], [1000.0, 1000.0, -np.inf]])
    p = F.softmax(x).data
    e = np.exp([1.0, 2.0, 3.0])
    np.testing.assert_allclose(p[0], e / e.sum(), rtol=1e-6)
    np.testing.assert_allclose(p[1], [0.5, 0.5, 0.0])
    np.testing.assert_allclose(F.softmax(x, dim=0).data.sum(0), 1, rtol=1e-6)
    np.testing.assert_allclose(F.log_softmax(x).data[0], np.log(e / e.sum()), rtol=1e-6)


# ---- the functional forms of the layers ---------------------------------------------------
@given(b=sizes, fin=sizes, fout=sizes, seed=st.integers(0, 99))
def test_linear_functional_gradcheck(b, fin, fout, seed):
    rng = np.random.default_rng(seed)
    x, w, bias = leaf(rng.standard_normal((b, fin))), leaf(rng.standard_normal((fout, fin))), \
        leaf(rng.standard_normal(fout))
    assert mg.gradcheck(F.linear, [x, w, bias])
    assert mg.gradcheck(lambda x, w: F.linear(x, w), [x, w])


@given(n=sizes, d=sizes, seed=st.integers(0, 99))
def test_embedding_functional_gradcheck(n, d, seed):
    rng = np.random.default_rng(seed)
    ids = rng.integers(0, n, (3, 2))
    w = leaf(rng.standard_normal((n, d)))
    assert mg.gradcheck(lambda w: F.embedding(ids, w), [w])
    with pytest.raises(IndexError):
        F.embedding(np.array([n]), w)


@given(rows=sizes, d=st.integers(2, 6), seed=st.integers(0, 99))
def test_layer_norm_functional_gradcheck(rows, d, seed):
    rng = np.random.default_rng(seed)
    x, w, b = leaf(rng.standard_normal((rows, d)) * 3), leaf(rng.standard_normal(d)), \
        leaf(rng.standard_normal(d))
    assert mg.gradcheck(lambda x, w, b: F.layer_norm(x, (d,), w, b, eps=1e-5), [x, w, b])


def test_relu_gelu_dropout_functional():
    x = mg.tensor([-1.0, 0.5, 2.0])
    np.testing.assert_array_equal(F.relu(x).data, [0, 0.5, 2])
    np.testing.assert_allclose(F.gelu(x).data, x.gelu().data)
    assert F.dropout(x, 0.5, training=False) is x
    with pytest.raises(ValueError):
        F.gelu(x, approximate="erf")
    with pytest.raises(ValueError):
        F.dropout(x, 2.0)


def test_float32_and_float64_dtypes_are_preserved():
    for dt in (np.float32, np.float64):
        x = mg.tensor(np.ones((2, 4), dtype=dt))
        w = mg.tensor(np.ones((3, 4), dtype=dt))
        assert F.linear(x, w).dtype == dt
        assert F.layer_norm(x, 4).dtype == dt
        assert F.cross_entropy(x, np.array([0, 1])).dtype == dt
        assert F.softmax(x).dtype == dt

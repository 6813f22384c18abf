"""Numerical edge cases: huge logits, fully masked rows, constant rows, log(0), long sums.

Each test checks values against a float64 reference computed a safe way and checks that
gradients stay finite. Warnings are turned into errors where the claim is "no warning".
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.special import log_softmax as ref_log_softmax
from scipy.special import softmax as ref_softmax

import minigrad as mg
from minigrad import nn
from minigrad.nn import functional as F

DTYPES = [np.float32, np.float64]
BIG_LOGITS = np.array([[1e4, -1e4, 0.0, 1e4 - 1.0],
                       [-1e4, -1e4, -1e4, -1e4],
                       [1e4, 1e4, 1e4, -1e4],
                       [0.0, 1.0, -1e4, 2.0]])


def _tol(dtype) -> dict:
    return {"rtol": 1e-5, "atol": 1e-6} if dtype == np.float32 else {"rtol": 1e-12, "atol": 1e-14}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("axis", [-1, 0])
def test_softmax_of_huge_logits(dtype, axis) -> None:
    x = mg.tensor(BIG_LOGITS.astype(dtype), requires_grad=True)
    with warnings.catch_warnings(), np.errstate(over="raise", divide="raise", invalid="raise"):
        warnings.simplefilter("error")
        y = mg.softmax(x, axis=axis)
        (y * mg.tensor(np.arange(16, dtype=dtype).reshape(4, 4))).sum().backward()
    assert y.dtype == dtype
    np.testing.assert_allclose(y.data, ref_softmax(BIG_LOGITS, axis=axis), **_tol(dtype))
    assert np.isfinite(x.grad).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_log_softmax_of_huge_logits(dtype) -> None:
    x = mg.tensor(BIG_LOGITS.astype(dtype), requires_grad=True)
    with warnings.catch_warnings(), np.errstate(over="raise", divide="raise", invalid="raise"):
        warnings.simplefilter("error")
        y = mg.log_softmax(x)
        y.sum().backward()
    expected = ref_log_softmax(BIG_LOGITS, axis=-1)
    assert np.isfinite(y.data).all()
    np.testing.assert_allclose(y.data, expected, rtol=1e-6, atol=1e-3 if dtype == np.float32
                               else 1e-9)
    # d(sum log_softmax)/dx = 1 - C * softmax(x)
    np.testing.assert_allclose(x.grad, 1 - 4 * ref_softmax(BIG_LOGITS, axis=-1), atol=1e-5)


@pytest.mark.parametrize("dtype", DTYPES)
def test_cross_entropy_of_huge_logits(dtype) -> None:
    targets = np.array([1, 0, 3, 2])  # mostly the least likely class: losses of ~1e4 and 2e4
    x = mg.tensor(BIG_LOGITS.astype(dtype), requires_grad=True)
    with warnings.catch_warnings(), np.errstate(over="raise", divide="raise", invalid="raise"):
        warnings.simplefilter("error")
        loss = F.cross_entropy(x, targets)
        loss.backward()
    per_row = -ref_log_softmax(BIG_LOGITS, axis=-1)[np.arange(4), targets]
    np.testing.assert_allclose(loss.item(), per_row.mean(), rtol=1e-6)
    expected_grad = ref_softmax(BIG_LOGITS, axis=-1)
    expected_grad[np.arange(4), targets] -= 1
    np.testing.assert_allclose(x.grad, expected_grad / 4, atol=1e-6)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("value", [0.0, 3.0, -1e4, 1e6])
def test_layer_norm_of_a_constant_row(dtype, value) -> None:
    ln = nn.LayerNorm(16, dtype=dtype)
    ln.bias.data[...] = np.linspace(-1, 1, 16, dtype=dtype)
    x = mg.tensor(np.full((3, 16), value, dtype=dtype), requires_grad=True)
    with warnings.catch_warnings(), np.errstate(over="raise", divide="raise", invalid="raise"):
        warnings.simplefilter("error")
        y = ln(x)
        (y * mg.tensor(np.arange(48, dtype=dtype).reshape(3, 16))).sum().backward()
    # (x - mean) = 0 exactly, so y = bias in every row
    np.testing.assert_allclose(y.data, np.broadcast_to(ln.bias.data, (3, 16)), atol=1e-6)
    for g in (x.grad, ln.weight.grad, ln.bias.grad):
        assert np.isfinite(g).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_log_of_zero_is_minus_inf_without_warning(dtype) -> None:
    x = mg.tensor(np.array([0.0, 1.0, 2.0], dtype=dtype), requires_grad=True)
    with warnings.catch_warnings(), np.errstate(over="raise", divide="raise", invalid="raise"):
        warnings.simplefilter("error")
        y = x.log()
        y.sum().backward()
    assert y.data[0] == -np.inf
    np.testing.assert_allclose(y.data[1:], np.log([1.0, 2.0]), rtol=1e-6)
    assert x.grad[0] == np.inf and x.grad[1] == 1.0
    # a loss built on it is non-finite, which is what a training loop's check looks for
    assert not np.isfinite(y.sum().item())


LONG = 100_000


def _long_row(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(LONG) + 0.5  # nonzero mean


def _rel(a: float, b: float) -> float:
    return abs(float(a) - float(b)) / abs(float(b))


def test_float32_sum_and_mean_of_a_long_row() -> None:
    x64 = _long_row(1)
    x32 = mg.tensor(x64.astype(np.float32))
    exact = x64.astype(np.float32).astype(np.float64)
    assert _rel(x32.sum().item(), exact.sum()) < 1e-4
    assert _rel(x32.mean().item(), exact.mean()) < 1e-4
    assert _rel(x32.var().item(), exact.var(ddof=1)) < 1e-4
    rows = mg.tensor(np.stack([x64, -x64 + 1.0]).astype(np.float32))
    sums = rows.sum(axis=1).data
    np.testing.assert_allclose(sums, np.stack([exact, -exact + 1.0]).sum(axis=1), rtol=1e-4)


def test_float32_matmul_of_long_rows() -> None:
    a64 = np.stack([_long_row(2), _long_row(3)])          # (2, 100k)
    b64 = np.stack([_long_row(4), _long_row(5), _long_row(6)]).T   # (100k, 3)
    a, b = (mg.tensor(m.astype(np.float32), requires_grad=True) for m in (a64, b64))
    out = a @ b
    exact = a.data.astype(np.float64) @ b.data.astype(np.float64)
    np.testing.assert_allclose(out.data, exact, rtol=1e-4)
    # the backward products reduce over the long axis too (dB = A^T G sums 2 rows, dA = G B^T 3)
    g = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    out.backward(g)
    np.testing.assert_allclose(a.grad, g.astype(np.float64) @ b.data.T.astype(np.float64),
                               rtol=1e-4, atol=1e-5)
    vec = mg.tensor(a64[0].astype(np.float32)) @ mg.tensor(a64[1].astype(np.float32))
    assert _rel(vec.item(), a.data[0].astype(np.float64) @ a.data[1].astype(np.float64)) < 1e-4


def test_float32_softmax_and_cross_entropy_over_a_long_row() -> None:
    z64 = _long_row(7)
    z = mg.tensor(z64.astype(np.float32)[None, :], requires_grad=True)
    p = mg.softmax(z)
    assert abs(p.data.sum(dtype=np.float64) - 1.0) < 1e-4
    np.testing.assert_allclose(p.data[0], ref_softmax(z.data[0].astype(np.float64)), rtol=1e-4)
    loss = F.cross_entropy(z, np.array([123]))
    exact = -ref_log_softmax(z.data[0].astype(np.float64))[123]
    assert _rel(loss.item(), exact) < 1e-4


def test_float32_layer_norm_of_a_long_row() -> None:
    x64 = _long_row(8) * 3.0 + 10.0
    y = F.layer_norm(mg.tensor(x64.astype(np.float32)[None, :]), LONG)
    x = x64.astype(np.float32).astype(np.float64)
    expected = (x - x.mean()) / np.sqrt(x.var() + 1e-5)
    np.testing.assert_allclose(y.data[0], expected, rtol=1e-3, atol=1e-4)

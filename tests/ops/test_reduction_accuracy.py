"""float32 reductions as accurate along any axis as along the contiguous one.
NumPy sums a non-contiguous axis (axis 0 of a tall array) row after row, so
its float32 error grows with the number of rows; PyTorch sums in a cascade. minigrad's
``reduce_sum`` primitive accumulates float32 in float64; every sum in the op layer goes
through it (Sum, Mean, Var, Norm, the broadcast gradient, Linear's bias gradient).

The oracle is the float64 sum of the same float32 values; the tolerance is one a cascade
meets and the naive row-by-row sum fails (checked below, so the test can fail).
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.nn import functional as F

try:
    import torch
except ImportError:  # the README's default set-up
    torch = None

ROWS = 10**6
RTOL = 1e-6  # a cascade's float32 error here is ~1e-7; the naive sum's is ~1e-2


@pytest.fixture(scope="module")
def tall():
    """(ROWS, 2) float32 of 0.1 and uniform noise; reducing axis 0 is the slow, strided way."""
    rng = np.random.default_rng(0)
    a = np.empty((ROWS, 2), np.float32)
    a[:, 0] = 0.1
    a[:, 1] = rng.uniform(0, 1, ROWS)
    return a


def test_the_naive_float32_sum_fails_the_tolerance(tall):
    naive = np.add.reduce(tall, axis=0)  # NumPy's row-by-row float32 sum
    exact = tall.astype(np.float64).sum(axis=0)
    assert not np.allclose(naive, exact, rtol=RTOL, atol=0)


@pytest.mark.parametrize("backend", ["reference", "fast"])
def test_sum_mean_var_along_a_long_strided_axis(tall, backend):
    exact = tall.astype(np.float64)
    with mg.use_backend(backend):
        t = mg.tensor(tall)
        np.testing.assert_allclose(t.sum(0).numpy(), exact.sum(0), rtol=RTOL, atol=0)
        np.testing.assert_allclose(t.mean(0).numpy(), exact.mean(0), rtol=RTOL, atol=0)
        np.testing.assert_allclose(t.var(0).numpy(), exact.var(0, ddof=1), rtol=1e-5, atol=1e-9)
        np.testing.assert_allclose(t.norm().numpy(), np.sqrt((exact**2).sum()), rtol=RTOL)
        assert t.sum(0).dtype == np.float32


@pytest.mark.parametrize("backend", ["reference", "fast"])
def test_broadcast_and_bias_gradients_over_many_rows(tall, backend):
    g = tall.astype(np.float64).sum(0)
    with mg.use_backend(backend):
        x = mg.tensor(tall)
        b = mg.zeros(2, requires_grad=True)
        ((x * 0 + 1) * 0 + b * mg.tensor(tall)).sum().backward()  # d/db = sum over rows of x
        np.testing.assert_allclose(b.grad.numpy(), g, rtol=RTOL)
        w = mg.zeros(1, 2, requires_grad=True)
        bias = mg.zeros(1, requires_grad=True)
        y = F.linear(x, w, bias)  # (ROWS, 1): d(sum y * x0)/d bias = sum of x[:, 0]
        (y * mg.tensor(tall[:, :1])).sum().backward()
        np.testing.assert_allclose(bias.grad.numpy(), g[:1], rtol=RTOL)


@pytest.mark.skipif(torch is None, reason="PyTorch not installed")
def test_as_accurate_as_torch(tall):
    exact = tall.astype(np.float64).sum(0)
    theirs = torch.from_numpy(tall).sum(0).numpy()
    mine = mg.tensor(tall).sum(0).numpy()
    assert np.all(np.abs(mine - exact) <= np.abs(theirs - exact) + 1e-3)

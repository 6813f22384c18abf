"""GELU's two ways of keeping what its backward needs (dy/da for a small input, the input
itself for a large one) give the same gradients, on both backends."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import function


@pytest.mark.parametrize("backend", ["reference", "fast"])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_recomputed_dydx_gives_the_same_gradient(monkeypatch, backend, dt):
    x = mg.tensor((np.random.default_rng(0).normal(size=(6, 50)) * 4).astype(dt),
                  requires_grad=True)
    g = np.random.default_rng(1).normal(size=(6, 50)).astype(dt)
    grads = []
    for limit in (1 << 40, 0):  # keep dy/da; keep only the input
        monkeypatch.setattr(function, "RECOMPUTE_ABOVE_BYTES", limit)
        with mg.use_backend(backend):
            y = x.gelu() if hasattr(x, "gelu") else mg.nn.functional.gelu(x)
            assert (y._ctx._saved[0] is x.data) == (limit == 0)  # what the graph keeps
            y.backward(mg.tensor(g))
        grads.append(x.grad.data.copy())
        x.grad = None
    np.testing.assert_array_equal(grads[0], grads[1])


def test_large_input_keeps_only_the_input_and_second_derivatives_hold(monkeypatch):
    monkeypatch.setattr(function, "RECOMPUTE_ABOVE_BYTES", 0)
    x = mg.tensor(np.linspace(-5, 5, 12).reshape(3, 4), requires_grad=True)
    assert mg.gradcheck(lambda a: mg.nn.functional.gelu(a), [x])
    assert mg.gradgradcheck(lambda a: mg.nn.functional.gelu(a), [x])

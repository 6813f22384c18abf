"""F.gelu_linear: linear(gelu(x)) as one op. Same values and gradients as the two ops, on both
backends and both approximations; what it keeps for backward (x alone above the recompute
limit, gelu(x) and its slope below); PyTorch's two ops as the oracle; GPT's MLP uses it."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad import Tensor, function, gradcheck, gradgradcheck, models
from minigrad.ops.gelu_linear import GELULinearFunction

APPROX = ["none", "tanh"]


def _inputs(shape, n_out=5, dt=np.float32, seed=0):
    rng = np.random.default_rng(seed)
    x = (rng.normal(size=shape) * 2).astype(dt)
    w = (rng.normal(size=(n_out, shape[-1])) * 0.3).astype(dt)
    b = rng.normal(size=n_out).astype(dt)
    g = rng.normal(size=shape[:-1] + (n_out,)).astype(dt)
    return x, w, b, g


def _run(fn, x, w, b, g):
    """(y, dx, dw, db) of fn(x, w, b) with upstream gradient g."""
    xs = [mg.tensor(a, requires_grad=True) for a in (x, w, b)]
    y = fn(*xs)
    y.backward(mg.tensor(g))
    return [y.data] + [t.grad.data for t in xs]


def _tol(dt):
    return {"rtol": 1e-5, "atol": 1e-5} if dt == np.float32 else {"rtol": 1e-12, "atol": 1e-12}


@pytest.mark.parametrize("backend", ["reference", "fast"])
@pytest.mark.parametrize("approximate", APPROX)
@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("recompute", [False, True])
def test_equals_linear_of_gelu(monkeypatch, backend, approximate, dt, recompute):
    monkeypatch.setattr(function, "RECOMPUTE_ABOVE_BYTES", 0 if recompute else 1 << 40)
    x, w, b, g = _inputs((3, 4, 6), dt=dt)
    with mg.use_backend(backend):
        fused = _run(lambda x, w, b: F.gelu_linear(x, w, b, approximate), x, w, b, g)
        plain = _run(lambda x, w, b: F.linear(F.gelu(x, approximate), w, b), x, w, b, g)
    for f, p in zip(fused, plain):
        assert f.dtype == p.dtype
        np.testing.assert_allclose(f, p, **_tol(dt))


@pytest.mark.parametrize("recompute", [False, True])
def test_what_the_graph_keeps(monkeypatch, recompute):
    monkeypatch.setattr(function, "RECOMPUTE_ABOVE_BYTES", 0 if recompute else 1 << 40)
    x, w, b, _ = _inputs((4, 6))
    xt, wt, bt = (mg.tensor(a, requires_grad=True) for a in (x, w, b))
    y = F.gelu_linear(xt, wt, bt)
    saved = y._ctx._saved
    if recompute:  # the input (held by the graph anyway) and the weight: nothing else
        assert len(saved) == 2 and saved[0] is xt.data and saved[1] is wt.data
    else:  # gelu(x) and its slope, as GELU and Linear would keep them
        assert len(saved) == 3 and saved[0].shape == x.shape and saved[2] is wt.data
        np.testing.assert_allclose(saved[0], F.gelu(mg.tensor(x)).data, rtol=1e-6)


def test_the_recompute_limit_decides_by_the_input_size():
    """Above 4 MB of input the op keeps the input only (GPT-2 124M's MLP: 12.6 MB a layer)."""
    big = mg.tensor(np.zeros((1025, 1024), np.float32), requires_grad=True)  # 4.2 MB
    small = mg.tensor(np.zeros((1023, 1024), np.float32), requires_grad=True)  # 4.19 MB
    w = mg.tensor(np.zeros((2, 1024), np.float32), requires_grad=True)
    assert len(F.gelu_linear(big, w)._ctx._saved) == 2
    assert len(F.gelu_linear(small, w)._ctx._saved) == 3


def test_without_bias_one_dimensional_input_and_no_grad():
    x, w, _, _ = _inputs((6,))
    xt, wt = mg.tensor(x, requires_grad=True), mg.tensor(w, requires_grad=True)
    y = F.gelu_linear(xt, wt)
    assert y.shape == (5,)
    np.testing.assert_allclose(y.data, F.linear(F.gelu(mg.tensor(x)), mg.tensor(w)).data,
                               rtol=1e-6, atol=1e-6)
    y.sum().backward()
    assert xt.grad.shape == (6,) and wt.grad.shape == (5, 6)
    with mg.no_grad():
        z = F.gelu_linear(mg.tensor(x), mg.tensor(w))
    assert z._ctx is None
    np.testing.assert_array_equal(z.data, y.data)


@pytest.mark.parametrize("approximate", APPROX)
@pytest.mark.parametrize("recompute", [False, True])
def test_gradcheck_and_gradgradcheck(monkeypatch, approximate, recompute):
    monkeypatch.setattr(function, "RECOMPUTE_ABOVE_BYTES", 0 if recompute else 1 << 40)
    x, w, b, _ = _inputs((2, 3), n_out=2, dt=np.float64)
    xs = [Tensor(a, requires_grad=True) for a in (x, w, b)]

    def f(x, w, b):
        return F.gelu_linear(x, w, b, approximate)

    assert gradcheck(f, xs)
    assert gradgradcheck(f, xs)


@pytest.mark.parametrize("bad, error, match", [
    ({"approximate": "erf"}, ValueError, "approximate must be 'none' or 'tanh'"),
    ({"x": np.zeros((2, 4), np.int64)}, TypeError, "must be floating-point"),
    ({"x": np.zeros((2, 3), np.float32)}, ValueError, "does not match weight"),
    ({"bias": np.zeros(3, np.float32)}, ValueError, "bias of shape"),
])
def test_clear_errors(bad, error, match):
    args = {"x": np.zeros((2, 4), np.float32), "weight": np.zeros((5, 4), np.float32),
            "bias": np.zeros(5, np.float32), "approximate": "none"}
    args.update(bad)
    with pytest.raises(error, match=match):
        F.gelu_linear(mg.tensor(args["x"]), mg.tensor(args["weight"]), mg.tensor(args["bias"]),
                      args["approximate"])


@pytest.mark.parametrize("approximate", APPROX)
@pytest.mark.parametrize("recompute", [False, True])
def test_matches_torch(monkeypatch, approximate, recompute):
    torch = pytest.importorskip("torch")
    monkeypatch.setattr(function, "RECOMPUTE_ABOVE_BYTES", 0 if recompute else 1 << 40)
    x, w, b, g = _inputs((4, 3, 8), n_out=6)
    ours = _run(lambda x, w, b: F.gelu_linear(x, w, b, approximate), x, w, b, g)
    tx, tw, tb = (torch.tensor(a, requires_grad=True) for a in (x, w, b))
    ty = torch.nn.functional.linear(torch.nn.functional.gelu(tx, approximate=approximate), tw, tb)
    ty.backward(torch.tensor(g))
    for a, t in zip(ours, (ty, tx.grad, tw.grad, tb.grad)):
        np.testing.assert_allclose(a, t.detach().numpy(), rtol=2e-5, atol=2e-5)


@pytest.mark.parametrize("activation, fused", [("gelu", True), ("gelu_tanh", True),
                                               ("relu", False)])
def test_gpt_mlp_uses_it_with_gelu(activation, fused):
    model = models.GPT(vocab_size=11, block_size=8, n_layer=1, n_head=2, n_embd=8,
                       activation=activation)
    mlp = model.blocks[0].mlp
    x = mg.tensor(np.random.default_rng(0).normal(size=(2, 3, 8)).astype(np.float32),
                  requires_grad=True)
    y = mlp(x)
    assert (y._ctx.fn is GELULinearFunction) == fused
    # the same values and gradients as the module's three layers called in turn
    y.sum().backward()
    dx, dw = x.grad.data.copy(), mlp.proj.weight.grad.data.copy()
    x.grad = None
    mlp.zero_grad()
    plain = mlp.proj(mlp.act(mlp.fc(x)))
    np.testing.assert_allclose(y.data, plain.data, rtol=1e-6, atol=1e-6)
    plain.sum().backward()
    np.testing.assert_allclose(dx, x.grad.data, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(dw, mlp.proj.weight.grad.data, rtol=1e-5, atol=1e-6)

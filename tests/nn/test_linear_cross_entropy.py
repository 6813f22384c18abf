"""F.linear_cross_entropy (PyTorch 2.13's signature; the plain case one op that keeps no
logits) against the composed pair and PyTorch, the in-place cross-entropy primitive it runs
on, and GPT.forward(return_logits=False)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad import Tensor, gradcheck, gradgradcheck, models
from minigrad.backends.fast import Fast
from minigrad.backends.reference import Reference

BACKENDS = ["reference", "fast"]


def _inputs(dt, bias: bool, seed: int = 0):
    rng = np.random.default_rng(seed)
    x = Tensor(rng.normal(size=(12, 8)).astype(dt), requires_grad=True)
    w = Tensor(rng.normal(size=(11, 8)).astype(dt), requires_grad=True)
    b = Tensor(rng.normal(size=(11,)).astype(dt), requires_grad=True) if bias else None
    t = rng.integers(0, 11, size=12)
    t[1] = t[11] = -100
    return x, w, b, t


def _grads(loss: Tensor, leaves: list) -> list:
    (loss * 3).backward()  # an upstream gradient other than 1 reaches the saved gradients
    out = [p.grad.data.copy() for p in leaves]
    for p in leaves:
        p.grad = None
    return out


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("reduction", ["mean", "sum"])
@pytest.mark.parametrize("bias", [True, False])
def test_equals_linear_then_cross_entropy(backend, dt, reduction, bias):
    x, w, b, t = _inputs(dt, bias)
    leaves = [p for p in (x, w, b) if p is not None]
    tol = 2e-5 if dt == np.float32 else 1e-12
    with mg.use_backend(backend):
        fused = F.linear_cross_entropy(x, w, t, linear_bias=b, reduction=reduction)
        g_fused = _grads(fused, leaves)
        pair = F.cross_entropy(F.linear(x, w, b), t, reduction=reduction)
        g_pair = _grads(pair, leaves)
    assert fused.dtype == dt and fused.shape == ()
    np.testing.assert_allclose(fused.item(), pair.item(), rtol=tol)
    for a, c in zip(g_fused, g_pair):
        np.testing.assert_allclose(a, c, rtol=tol, atol=tol)


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_target_ignored_gives_nan_loss_and_zero_gradient(backend):
    x, w, b, _ = _inputs(np.float64, True)
    with mg.use_backend(backend):
        loss = F.linear_cross_entropy(x, w, np.full(12, -100), linear_bias=b)
        loss.backward()
    assert np.isnan(loss.item())  # PyTorch's 0/0; its backward skips ignored rows
    assert not np.any(x.grad.data) and not np.any(w.grad.data) and not np.any(b.grad.data)


def test_gradcheck_and_gradgradcheck():
    x, w, b, t = _inputs(np.float64, True, seed=1)
    for reduction in ("mean", "sum"):
        def f(x, w, b, reduction=reduction):
            return F.linear_cross_entropy(x, w, t, linear_bias=b, reduction=reduction)

        assert gradcheck(f, (x, w, b))
        assert gradgradcheck(f, (x, w, b))  # through the composite: exact 2nd derivatives


def test_retained_graph_gives_the_same_gradients_twice():
    # backward hands out the arrays forward saved: an in-place change of .grad after the first
    # backward (clipping does that) must not reach the second
    x, w, b, t = _inputs(np.float32, True)
    loss = F.linear_cross_entropy(x, w, t, linear_bias=b)
    loss.backward(retain_graph=True)
    first = w.grad.data.copy()
    w.grad.data *= 0.5
    w.grad = None
    loss.backward()
    np.testing.assert_array_equal(w.grad.data, first)


def test_no_grad_gives_the_loss_and_records_nothing():
    x, w, b, t = _inputs(np.float32, True)
    with mg.no_grad():
        loss = F.linear_cross_entropy(x, w, t, linear_bias=b)
    assert not loss.requires_grad
    np.testing.assert_allclose(loss.item(), F.cross_entropy(F.linear(x, w, b), t).item(),
                               rtol=1e-6)


def test_refusals_name_what_is_wrong():
    x, w, b, t = _inputs(np.float32, True)
    bad = t.copy()
    bad[5] = 11
    with pytest.raises(IndexError, match="target 11 .row 5. is out of range for 11 classes"):
        F.linear_cross_entropy(x, w, bad, linear_bias=b)
    with pytest.raises(ValueError):
        F.linear_cross_entropy(x, w, t[:2], linear_bias=b)
    with pytest.raises(ValueError, match="does not match linear_weight"):
        F.linear_cross_entropy(x, w[:, :5], t)
    with pytest.raises(ValueError, match="linear_bias of shape"):
        F.linear_cross_entropy(x, w, t, linear_bias=b[:3])
    assert x.grad is None and w.grad is None  # nothing ran


@pytest.mark.parametrize("backend", [Reference(), Fast()], ids=["reference", "fast"])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_cross_entropy_in_place_writes_the_gradient_over_the_logits(backend, dt):
    rng = np.random.default_rng(2)
    z = (rng.normal(size=(6, 9)) * 5).astype(dt)
    t = rng.integers(0, 9, size=6)
    t[3] = -100
    losses, grad = backend.cross_entropy(z, t, -100, 0.25)
    buf = z.copy()
    losses2, grad2 = backend.cross_entropy(buf, t, -100, 0.25, in_place=True)
    assert grad2 is buf
    np.testing.assert_array_equal(losses2, losses)
    np.testing.assert_array_equal(grad2, grad)


def test_fast_in_place_refuses_a_copy():
    z = np.asfortranarray(np.ones((4, 3), np.float32))
    with pytest.raises(ValueError, match="C-contiguous, writeable"):
        Fast().cross_entropy(z, np.zeros(4, np.int64), -100, 1.0, in_place=True)


def test_gpt_return_logits_false_gives_the_same_loss_and_gradients():
    mg.manual_seed(0)
    model = models.GPT(vocab_size=19, block_size=8, n_layer=2, n_head=2, n_embd=16)
    rng = np.random.default_rng(3)
    idx, tgt = rng.integers(0, 19, (3, 8)), rng.integers(0, 19, (3, 8))
    logits, loss = model(idx, tgt)
    loss.backward()
    expected = [p.grad.data.copy() for p in model.parameters()]
    model.zero_grad()
    none, fused = model(idx, tgt, return_logits=False)
    fused.backward()
    assert none is None and logits.shape == (3, 8, 19)
    np.testing.assert_allclose(fused.item(), loss.item(), rtol=1e-6)
    for p, e in zip(model.parameters(), expected):
        np.testing.assert_allclose(p.grad.data, e, rtol=1e-4, atol=1e-6)
    with pytest.raises(ValueError, match="return_logits=False needs targets"):
        model(idx, return_logits=False)


def test_mixed_dtypes_are_refused_as_the_pair_refuses_them():
    # PyTorch: "expected m1 and m2 to have the same dtype" for the fused op and the pair alike
    x = Tensor(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3), requires_grad=True)
    w = Tensor(np.linspace(-2, 2, 12).reshape(4, 3), requires_grad=True)
    with pytest.raises(TypeError, match="one dtype"):
        F.linear_cross_entropy(x, w, np.array([0, 3]))
    with pytest.raises(TypeError, match="one dtype"):
        F.linear(x, w)
    assert x.grad is None and w.grad is None


@pytest.mark.parametrize("case", ["plain", "none", "weight", "smoothing", "probabilities",
                                  "k-dim", "unbatched", "ignore_index=None"])
def test_equals_pytorch(case):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(4)
    x = rng.normal(size=(6, 5))
    w = rng.normal(size=(4, 5)) if case != "k-dim" else rng.normal(size=(4, 3, 5))
    b = rng.normal(size=w.shape[:-1])
    t = rng.integers(0, 4, size=(6,) if case != "k-dim" else (6, 3))
    kw: dict = {}
    if case == "none":
        kw["reduction"] = "none"
    elif case == "weight":
        kw["weight"] = rng.uniform(0.5, 2, size=4)
    elif case == "smoothing":
        kw["label_smoothing"] = 0.2
    elif case == "probabilities":
        t = rng.dirichlet(np.ones(4), size=6)
    elif case == "unbatched":
        x, t = x[0], t[0]
    elif case == "ignore_index=None":
        t[2] = -100
        kw["ignore_index"] = None
    mx, mw, mb = (Tensor(a, requires_grad=True) for a in (x, w, b))
    ours = F.linear_cross_entropy(mx, mw, t, linear_bias=mb, **{
        k: (Tensor(v) if k == "weight" else v) for k, v in kw.items()})
    ours.sum().backward()
    tx, tw, tb = (torch.tensor(a, requires_grad=True) for a in (x, w, b))
    theirs = torch.nn.functional.linear_cross_entropy(tx, tw, torch.tensor(t), linear_bias=tb, **{
        k: (torch.tensor(v) if k == "weight" else v) for k, v in kw.items()})
    theirs.sum().backward()
    np.testing.assert_allclose(ours.data, theirs.detach().numpy(), rtol=1e-10)
    for m, th in ((mx, tx), (mw, tw), (mb, tb)):
        np.testing.assert_allclose(m.grad.data, th.grad.numpy(), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_chunks_of_rows_give_the_one_chunk_result(monkeypatch, backend, dt):
    # CHUNK_BYTES small: the logits are taken a few rows at a time and dW summed in place
    from minigrad.ops import linear_cross_entropy as lce

    x, w, b, t = _inputs(dt, True, seed=5)
    leaves = [x, w, b]
    results = []
    for limit in (1 << 40, 3 * 11 * np.dtype(dt).itemsize):  # one chunk; chunks of 3 rows
        monkeypatch.setattr(lce, "CHUNK_BYTES", limit)
        with mg.use_backend(backend):
            loss = F.linear_cross_entropy(x, w, t, linear_bias=b)
            results.append([loss.item()] + _grads(loss, leaves))
    tol = 1e-5 if dt == np.float32 else 1e-12
    for a, c in zip(results[0], results[1]):
        np.testing.assert_allclose(a, c, rtol=tol, atol=tol)


def test_no_rows_give_zero_loss_and_gradients():
    w = Tensor(np.ones((5, 3), np.float32), requires_grad=True)
    x = Tensor(np.ones((0, 3), np.float32), requires_grad=True)
    loss = F.linear_cross_entropy(x, w, np.zeros(0, np.int64), reduction="sum")
    loss.backward()
    assert loss.item() == 0 and x.grad.shape == (0, 3) and not np.any(w.grad.data)

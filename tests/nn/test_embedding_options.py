"""embedding's PyTorch options: scale_grad_by_freq, sparse, and nn.Embedding's constructor
arguments (padding_idx, max_norm, ...). PyTorch comparisons skip without torch."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.autograd import grad

IDS = np.array([[0, 2, 2], [3, 2, 0]])


def _table(dtype=np.float64):
    return mg.tensor(np.arange(20, dtype=dtype).reshape(5, 4) / 7, requires_grad=True)


def _expected_scaled_grad(ids, g, num):
    """dweight[r] = sum over positions i with ids[i] == r of g[i] / count(r)."""
    counts = np.bincount(ids.ravel(), minlength=num)
    want = np.zeros((num, g.shape[-1]))
    for i, r in enumerate(ids.ravel()):
        want[r] += g.reshape(-1, g.shape[-1])[i] / counts[r]
    return want


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_scale_grad_by_freq_divides_each_rows_gradient_by_its_count(dtype):
    w = _table(dtype)
    g = np.random.default_rng(0).standard_normal(IDS.shape + (4,)).astype(dtype)
    out = nn.functional.embedding(IDS, w, scale_grad_by_freq=True)
    np.testing.assert_array_equal(out.numpy(), w.numpy()[IDS])  # the values do not change
    out.backward(mg.tensor(g))
    np.testing.assert_allclose(w.grad.numpy(), _expected_scaled_grad(IDS, g, 5), rtol=1e-6)
    assert w.grad.numpy()[1].tolist() == [0, 0, 0, 0]  # row 1 is never looked up


def test_scale_grad_by_freq_with_padding_idx_and_under_create_graph():
    w = _table()
    v = mg.tensor(np.random.default_rng(1).standard_normal(IDS.shape + (4,)), requires_grad=True)
    out = nn.functional.embedding(IDS, w, padding_idx=0, scale_grad_by_freq=True)
    (gw,) = grad([out], [w], [v], create_graph=True)
    want = _expected_scaled_grad(IDS, v.numpy(), 5)
    want[0] = 0  # the padding row gets no gradient
    np.testing.assert_allclose(gw.numpy(), want, rtol=1e-12)
    # gw is linear in v: d(sum(gw * c))/dv[i] = c[ids[i]] / count(ids[i]) (0 on padding)
    c = np.random.default_rng(2).standard_normal((5, 4))
    (gv,) = grad([(gw * mg.tensor(c)).sum()], [v])
    counts = np.bincount(IDS.ravel(), minlength=5)
    want_v = c[IDS] / counts[IDS][..., None] * (IDS != 0)[..., None]
    np.testing.assert_allclose(gv.numpy(), want_v, rtol=1e-12)


def test_sparse_gives_the_same_dense_gradient():
    w1, w2 = _table(), _table()
    nn.functional.embedding(IDS, w1).sum().backward()
    nn.functional.embedding(IDS, w2, sparse=True).sum().backward()
    np.testing.assert_array_equal(w1.grad.numpy(), w2.grad.numpy())
    assert w2.grad.shape == (5, 4)


def test_embedding_module_takes_pytorchs_arguments():
    mg.manual_seed(0)
    emb = nn.Embedding(6, 3, padding_idx=-1, max_norm=1.0, scale_grad_by_freq=True)
    assert emb.padding_idx == 5
    assert emb.weight.numpy()[5].tolist() == [0, 0, 0]  # the padding row starts at zero
    out = emb(np.array([1, 1, 5, 2]))
    assert (np.linalg.norm(emb.weight.numpy()[[1, 2]], axis=1) <= 1.0 + 1e-6).all()  # renormed
    out.sum().backward()
    np.testing.assert_allclose(emb.weight.grad.numpy()[1], [1, 1, 1])  # 2 lookups / count 2
    assert emb.weight.grad.numpy()[5].tolist() == [0, 0, 0]
    assert "padding_idx=5" in repr(emb) and "scale_grad_by_freq=True" in repr(emb)
    with pytest.raises(ValueError, match="padding_idx"):
        nn.Embedding(6, 3, padding_idx=6)


def test_scale_grad_by_freq_and_module_match_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    table = rng.standard_normal((7, 5))
    ids = rng.integers(0, 7, (4, 6))
    g = rng.standard_normal((4, 6, 5))
    for kwargs in ({"scale_grad_by_freq": True}, {"scale_grad_by_freq": True, "padding_idx": 3},
                   {"sparse": True}):  # (PyTorch refuses sparse with scale_grad_by_freq)
        w = mg.tensor(table, requires_grad=True)
        nn.functional.embedding(ids, w, **kwargs).backward(mg.tensor(g))
        tw = torch.tensor(table, requires_grad=True)
        torch.nn.functional.embedding(torch.tensor(ids), tw, **kwargs).backward(torch.tensor(g))
        want = tw.grad.to_dense() if tw.grad.is_sparse else tw.grad
        np.testing.assert_allclose(w.grad.numpy(), want.numpy(), rtol=1e-12, atol=1e-15)

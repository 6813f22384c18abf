"""Issue 27: the class losses with PyTorch's meanings (weight=, ignore_index, K-dim inputs,
probability targets, label smoothing) and BCE's weight=/pos_weight=.

Reference values are written out in NumPy (no torch); gradients by gradcheck/gradgradcheck.
"""

from __future__ import annotations

import numpy as np
import pytest

from minigrad import Tensor
from minigrad.gradcheck import gradcheck, gradgradcheck
from minigrad.nn import functional as F
from minigrad.ops import cross_entropy

rng = np.random.default_rng(1)


def _log_softmax(x, axis):
    m = x.max(axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis, keepdims=True))


def _nll_ref(logp, t, w, ignore_index, reduction):
    """logp (N, C, d...) and t (N, d...), written with loops-free NumPy."""
    C = logp.shape[1]
    rows = np.moveaxis(logp, 1, -1).reshape(-1, C)
    tr = t.reshape(-1)
    keep = tr != ignore_index
    safe = np.where(keep, tr, 0)
    wr = (np.ones(C) if w is None else w)[safe] * keep
    losses = -rows[np.arange(len(tr)), safe] * wr
    if reduction == "none":
        return losses.reshape(t.shape)
    if reduction == "sum":
        return losses.sum()
    return losses.sum() / wr.sum()


@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
@pytest.mark.parametrize("shape", [(4, 3), (2, 3, 2, 2)])
@pytest.mark.parametrize("use_weight", [False, True])
def test_nll_loss_weight_ignore_index_and_k_dims(reduction, shape, use_weight):
    x = rng.standard_normal(shape)
    t = rng.integers(0, 3, (shape[0],) + shape[2:])
    t.reshape(-1)[0] = 1
    w = np.array([0.2, 1.5, 3.0]) if use_weight else None
    got = F.nll_loss(Tensor(x), t, w if w is None else Tensor(w), ignore_index=1,
                     reduction=reduction)
    np.testing.assert_allclose(got.numpy(), _nll_ref(x, t, w, 1, reduction), rtol=1e-12)
    f = lambda a: F.nll_loss(a, t, w, ignore_index=1, reduction=reduction)
    leaf = Tensor(x, requires_grad=True)
    assert gradcheck(f, [leaf]) and gradgradcheck(f, [leaf])


def test_nll_loss_unbatched_and_errors():
    x = rng.standard_normal(3)
    assert F.nll_loss(Tensor(x), np.array(2), reduction="none").item() == -x[2]
    assert np.isnan(F.nll_loss(Tensor(x), np.array(2), ignore_index=2).item())  # 0/0
    with pytest.raises(IndexError):
        F.nll_loss(Tensor(rng.standard_normal((2, 3))), np.array([0, 3]))
    with pytest.raises(ValueError, match="weight"):
        F.nll_loss(Tensor(rng.standard_normal((2, 3))), np.array([0, 1]), np.ones(2))
    with pytest.raises(ValueError, match="targets of shape"):
        F.nll_loss(Tensor(rng.standard_normal((2, 3))), np.array([0, 1, 2]))


@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
@pytest.mark.parametrize("smoothing", [0.0, 0.3])
def test_cross_entropy_weight_smoothing_k_dims(reduction, smoothing):
    x = rng.standard_normal((2, 4, 3))  # (N, C, d1): classes in dim 1, as PyTorch
    t = np.array([[0, 3, 2], [1, -100, 3]])
    w = np.array([1.0, 0.5, 2.0, 0.25])
    got = F.cross_entropy(Tensor(x), t, Tensor(w), reduction=reduction,
                          label_smoothing=smoothing)
    logp = _log_softmax(x, 1)
    nll = _nll_ref(logp, t, w, -100, reduction)
    keep = (t != -100)
    smooth = -(np.moveaxis(logp, 1, -1) * w).sum(-1) * keep
    if reduction == "sum":
        smooth = smooth.sum()
    elif reduction == "mean":
        smooth = smooth.sum() / (w[np.where(keep, t, 0)] * keep).sum()
    want = (1 - smoothing) * nll + smoothing / 4 * smooth
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    f = lambda a: F.cross_entropy(a, t, w, reduction=reduction,
                                  label_smoothing=smoothing)
    leaf = Tensor(x, requires_grad=True)
    assert gradcheck(f, [leaf]) and gradgradcheck(f, [leaf])


@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
def test_cross_entropy_probability_targets(reduction):
    x = rng.standard_normal((3, 4, 2))
    p = rng.random((3, 4, 2))
    p /= p.sum(1, keepdims=True)
    w = np.array([1.0, 2.0, 0.5, 1.0])
    got = F.cross_entropy(Tensor(x), Tensor(p), weight=w, reduction=reduction,
                          label_smoothing=0.1)
    ps = p * 0.9 + 0.1 / 4
    per = -(_log_softmax(x, 1) * ps * w[None, :, None]).sum(1)
    want = {"none": per, "sum": per.sum(), "mean": per.sum() / 6}[reduction]
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    xl, pl = Tensor(x, requires_grad=True), Tensor(p, requires_grad=True)
    f = lambda a, b: F.cross_entropy(a, b, reduction=reduction)
    assert gradcheck(f, [xl, pl]) and gradgradcheck(f, [xl, pl])


def test_cross_entropy_plain_case_runs_the_fused_op(monkeypatch):
    seen = []
    apply = cross_entropy.CrossEntropyFunction.apply
    monkeypatch.setattr(cross_entropy.CrossEntropyFunction, "apply",
                        lambda *a, **k: seen.append(a[0].shape) or apply(*a, **k))
    z = Tensor(rng.standard_normal((5, 7)))
    F.cross_entropy(z, np.arange(5) % 7)
    F.cross_entropy(Tensor(rng.standard_normal((2, 3, 7))), np.zeros((2, 3), np.int64))
    assert seen == [(5, 7), (6, 7)]
    F.cross_entropy(z, np.arange(5) % 7, np.ones(7))  # a weight: composed, not fused
    assert len(seen) == 2


def test_cross_entropy_unbatched_and_ambiguous_layout():
    x = rng.standard_normal(5)
    np.testing.assert_allclose(F.cross_entropy(Tensor(x), np.array(3)).item(),
                               -_log_softmax(x, 0)[3], rtol=1e-12)
    with pytest.raises(ValueError, match="ambiguous"):  # (N, C, C): classes in dim 1 or 2?
        F.cross_entropy(Tensor(rng.standard_normal((2, 3, 3))), np.zeros((2, 3), np.int64))
    with pytest.raises(TypeError):  # float targets of another shape are not probabilities
        F.cross_entropy(Tensor(rng.standard_normal((2, 3))), np.array([0.0, 1.0]))


@pytest.mark.parametrize("reduction", ["none", "sum", "mean"])
def test_binary_cross_entropy_weights(reduction):
    p = rng.uniform(0.05, 0.95, (4, 3))
    t = rng.random((4, 3))
    w = rng.random(3)
    per = -w * (t * np.log(p) + (1 - t) * np.log(1 - p))
    want = {"none": per, "sum": per.sum(), "mean": per.mean()}[reduction]
    got = F.binary_cross_entropy(Tensor(p), Tensor(t), Tensor(w), reduction=reduction)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    x = rng.standard_normal((4, 3))
    pw = rng.random(3) + 0.5
    s = 1 / (1 + np.exp(-x))
    per = -w * (pw * t * np.log(s) + (1 - t) * np.log(1 - s))
    want = {"none": per, "sum": per.sum(), "mean": per.mean()}[reduction]
    got = F.binary_cross_entropy_with_logits(Tensor(x), Tensor(t), w, reduction=reduction,
                                             pos_weight=Tensor(pw))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10)
    f = lambda a: F.binary_cross_entropy_with_logits(a, t, w, reduction=reduction,
                                                     pos_weight=pw)
    leaf = Tensor(x, requires_grad=True)
    assert gradcheck(f, [leaf]) and gradgradcheck(f, [leaf])
    with pytest.raises(ValueError, match="broadcast"):
        F.binary_cross_entropy(Tensor(p), Tensor(t), np.ones((2, 4, 3)))

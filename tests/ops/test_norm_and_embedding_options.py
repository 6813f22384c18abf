"""Issue 27: norm with p=0 and p=-inf, and embedding's padding_idx and max_norm (NumPy
references; gradients by gradcheck)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad
from minigrad import Tensor
from minigrad.gradcheck import gradcheck
from minigrad.nn import functional as F

rng = np.random.default_rng(4)


def test_norm_p0_counts_nonzeros_with_zero_gradient():
    a = rng.standard_normal((4, 5))
    a[a < 0.2] = 0.0
    np.testing.assert_array_equal(minigrad.norm(Tensor(a), 0, 1).numpy(),
                                  (a != 0).sum(1).astype(float))
    x = Tensor(a, requires_grad=True)
    x.norm(0).backward()
    np.testing.assert_array_equal(x.grad, np.zeros_like(a))
    np.testing.assert_allclose(F.normalize(Tensor(a), p=0.0, dim=-1).numpy(),
                               a / np.maximum((a != 0).sum(-1, keepdims=True), 1e-12))


def test_norm_minus_inf_is_the_smallest_magnitude():
    a = rng.standard_normal((4, 5))
    np.testing.assert_allclose(Tensor(a).norm(float("-inf")).item(), np.abs(a).min())
    np.testing.assert_allclose(Tensor(a).norm(-np.inf, 0).numpy(), np.abs(a).min(0))
    assert gradcheck(lambda t: t.norm(float("-inf"), 1), [Tensor(a, requires_grad=True)])
    with pytest.raises(ValueError, match="not supported"):  # "nuc" is: test_nuclear_norm.py
        Tensor(a).norm("spectral")


def test_embedding_padding_idx_gets_no_gradient():
    w = Tensor(rng.standard_normal((5, 3)), requires_grad=True)
    ids = np.array([[0, 2], [2, 4]])
    out = F.embedding(ids, w, padding_idx=2)
    np.testing.assert_array_equal(out.numpy(), w.numpy()[ids])
    out.sum().backward()
    want = np.zeros((5, 3))
    for i in ids.ravel():
        if i != 2:
            want[i] += 1
    np.testing.assert_array_equal(w.grad, want)
    w.grad = None
    F.embedding(ids, w, padding_idx=-1).sum().backward()  # -1 is row 4
    assert (w.grad[4] == 0).all() and (w.grad[2] == 2).all()
    with pytest.raises(ValueError, match="padding_idx"):
        F.embedding(ids, w, padding_idx=5)


@pytest.mark.parametrize("norm_type", [2.0, 1.0])
def test_embedding_max_norm_renormalises_the_picked_rows_in_place(norm_type):
    a = rng.standard_normal((5, 3)) * 3
    w = Tensor(a.copy())
    ids = np.array([1, 3, 1])
    out = F.embedding(ids, w, max_norm=1.0, norm_type=norm_type)
    want = a.copy()
    for r in (1, 3):
        n = np.linalg.norm(a[r], ord=norm_type)
        if n > 1.0:
            want[r] = a[r] / (n + 1e-7)
    np.testing.assert_allclose(w.numpy(), want, rtol=1e-12)  # the weight itself changed
    np.testing.assert_allclose(out.numpy(), want[ids], rtol=1e-12)
    np.testing.assert_array_equal(w.numpy()[[0, 2, 4]], a[[0, 2, 4]])  # rows not picked

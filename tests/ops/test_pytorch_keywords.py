"""Issue 27: keyword arguments and 0-d tensors of existing ops, as PyTorch spells them.

Values are checked against NumPy (no torch here), gradients with gradcheck/gradgradcheck.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad
from minigrad import Tensor
from minigrad.gradcheck import gradcheck, gradgradcheck
from minigrad.nn import functional as F

rng = np.random.default_rng(0)


def _leaf(shape, dtype=np.float64):
    return Tensor(rng.standard_normal(shape).astype(dtype), requires_grad=True)


@pytest.mark.parametrize("stable", [True, False])
def test_sort_argsort_accept_stable(stable):
    a = np.array([[3.0, 1.0, 3.0, 0.0], [2.0, 2.0, 1.0, 2.0]])
    v, i = minigrad.sort(Tensor(a), 1, descending=False, stable=stable)
    np.testing.assert_array_equal(i.numpy(), np.argsort(a, axis=1, kind="stable"))
    np.testing.assert_array_equal(v.numpy(), np.sort(a, axis=1))
    j = Tensor(a).argsort(dim=0, descending=True, stable=stable)
    np.testing.assert_array_equal(j.numpy(), [[0, 1, 0, 1], [1, 0, 1, 0]])


def test_nonzero_as_tuple():
    a = np.array([[1.0, 0.0], [0.0, 2.0]])
    rows, cols = minigrad.nonzero(Tensor(a), as_tuple=True)
    np.testing.assert_array_equal(rows.numpy(), np.nonzero(a)[0])
    np.testing.assert_array_equal(cols.numpy(), np.nonzero(a)[1])
    assert Tensor(a).nonzero(as_tuple=False).shape == (2, 2)
    (only,) = Tensor(np.array(5.0)).nonzero(as_tuple=True)  # a 0-d tensor: one 1-d tensor
    np.testing.assert_array_equal(only.numpy(), [0])
    (none,) = Tensor(np.array(0.0)).nonzero(as_tuple=True)
    assert none.shape == (0,)


def test_flip_dims_keyword_and_gradient():
    a = rng.standard_normal((2, 3, 4))
    np.testing.assert_array_equal(minigrad.flip(Tensor(a), dims=(0, 2)).numpy(),
                                  np.flip(a, (0, 2)))
    np.testing.assert_array_equal(Tensor(a).flip(dims=-1).numpy(), np.flip(a, -1))
    with pytest.raises(TypeError):
        Tensor(a).flip(0, dims=(1,))
    x = _leaf((2, 3))
    assert gradcheck(lambda t: t.flip(dims=(0, 1)), [x])


def test_dtype_of_softmax_log_softmax_prod_cumsum():
    a = rng.standard_normal((3, 4)).astype(np.float32)
    s = minigrad.softmax(Tensor(a), 1, dtype=np.float64)
    assert s.dtype == np.float64
    e = np.exp(a.astype(np.float64) - a.max(1, keepdims=True))
    np.testing.assert_allclose(s.numpy(), e / e.sum(1, keepdims=True), rtol=1e-12)
    ls = F.log_softmax(Tensor(a), 1, dtype=np.float64)
    np.testing.assert_allclose(ls.numpy(), np.log(e / e.sum(1, keepdims=True)), rtol=1e-10)
    p = Tensor(np.array([[1, 2], [3, 4]], np.int32)).prod(1, dtype=np.float64)
    assert p.dtype == np.float64 and p.tolist() == [2.0, 12.0]
    b = Tensor(np.array([[True, False], [True, True]])).prod(1, dtype=np.bool_)
    assert b.dtype == np.bool_ and b.tolist() == [False, True]
    c = minigrad.cumsum(Tensor(a), 0, dtype=np.float64)
    assert c.dtype == np.float64
    np.testing.assert_allclose(c.numpy(), np.cumsum(a.astype(np.float64), 0))
    x = _leaf((3, 4), np.float32)
    y = x.softmax(1, dtype=np.float64)
    y.sum().backward()
    assert x.grad.dtype == np.float32  # the gradient goes back through the cast
    assert gradcheck(lambda t: t.log_softmax(0, dtype=np.float64), [_leaf((3, 2))])


def test_round_decimals():
    a = np.array([1.23456, -2.5, 1234.5678, 0.125])
    for d in (0, 3, -3, 2):
        np.testing.assert_allclose(minigrad.round(Tensor(a), decimals=d).numpy(),
                                   np.round(a, d))
    x = _leaf((4,))
    x.round(decimals=2).sum().backward()
    np.testing.assert_array_equal(x.grad, np.zeros(4))  # a step function: gradient 0


def test_to_positional_non_blocking_and_copy():
    x = Tensor(np.arange(3.0, dtype=np.float32))
    y = x.to("cpu", np.float64, True, True)
    assert y.dtype == np.float64
    assert x.to("cpu", np.float32, False, False) is x
    z = x.to(np.float32, False, True)  # copy=True: a new tensor even when nothing changes
    assert z is not x and z.tolist() == x.tolist()
    assert x.to(np.float32, copy=True) is not x
    with pytest.raises(TypeError):
        x.to(np.float32, True, True, True)


def test_squeeze_tuple_of_dims():
    a = np.zeros((5, 1, 5, 1))
    assert Tensor(a).squeeze((1, 3)).shape == (5, 5)
    assert minigrad.squeeze(Tensor(a), (-1,)).shape == (5, 1, 5)
    assert Tensor(a).squeeze((0, 1)).shape == (5, 5, 1)  # dim 0 has size 5: kept
    assert Tensor(np.zeros((1, 1))).squeeze(()).shape == (1, 1)
    with pytest.raises(IndexError):
        Tensor(a).squeeze((4,))
    assert gradcheck(lambda t: t.squeeze((1, 3)), [_leaf((2, 1, 3, 1))])


def test_zero_d_tensors_are_one_element():
    s = Tensor(np.array(3.0), requires_grad=True)
    v, i = s.sort(0)
    assert v.shape == () and i.shape == () and i.item() == 0
    assert s.argsort(-1).shape == ()
    v, i = s.topk(1, 0)
    assert v.item() == 3.0 and i.shape == ()
    assert s.gather(0, np.array(0)).shape == ()
    assert s.gather(0, np.array([0])).shape == (1,)
    assert s.index_select(0, np.array([0])).shape == ()
    assert s.cumsum(0).shape == () and s.cumsum(0).item() == 3.0
    assert s.transpose(0, -1).shape == ()
    out = s.scatter_add(0, np.array(0), Tensor(np.array(2.0)))
    assert out.item() == 5.0
    for f in (lambda t: t.sort(0).values, lambda t: t.topk(1).values,
              lambda t: t.gather(0, np.array([0, 0])), lambda t: t.cumsum(0),
              lambda t: t.index_select(0, np.array([0]))):
        x = Tensor(np.array(1.5), requires_grad=True)
        assert gradcheck(f, [x]) and gradgradcheck(f, [x])
    for bad in (1, -2):
        with pytest.raises(IndexError):
            s.sort(bad)
        with pytest.raises(IndexError):
            s.cumsum(bad)


def test_gather_with_an_empty_index():
    x = _leaf((5,))
    out = x.gather(0, np.zeros((2, 0), np.int64))
    assert out.shape == (2, 0)
    out.sum().backward()
    np.testing.assert_array_equal(x.grad, np.zeros(5))

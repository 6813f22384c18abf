"""The gradient-buffer policy (minigrad/grad_buffers.py) case by case: when a sum is written
into the walk's array and when into a new one, when a leaf's first gradient becomes its .grad
uncopied, and that only a LazyGrad is taken for a lazy gradient."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import pytest

import minigrad as mg
from minigrad.function import Function
from minigrad.grad_buffers import ArraySums, GraphSums, LazyGrad, RowScatterGrad, SliceGrad

SUMS = ArraySums(mg.Tensor)


def _scatter():
    return RowScatterGrad(4, np.array([0, 2, 2]), np.ones((3, 3)),
                          mg.backends.active.embedding_backward)


def _ones():
    return np.ones((4, 3))


def _alone():
    return np.zeros((4, 3)), None


def _shared():
    a = np.zeros((4, 3))
    return a, a


def _read_only():
    a = np.zeros((4, 3))
    a.setflags(write=False)
    return a, None


# name: (make the total and whatever else holds it, the incoming gradient, written in place)
ACCUMULATE_CASES = {
    "only the walk holds it": (_alone, _ones, True),
    "someone else holds it too": (_shared, _ones, False),
    "a view": (lambda: (np.zeros((8, 3))[:4], None), _ones, False),
    "read-only": (_read_only, _ones, False),
    "a broadcast": (lambda: (np.broadcast_to(np.zeros(3), (4, 3)), None), _ones, False),
    "rows scattered into it": (_alone, _scatter, True),
    "rows scattered into a shared one": (_shared, _scatter, False),
}


@pytest.mark.parametrize("name", sorted(ACCUMULATE_CASES))
def test_accumulate_writes_in_place_only_into_an_array_nobody_else_holds(name):
    make, incoming, in_place = ACCUMULATE_CASES[name]
    total, other = make()
    before = np.array(total)
    g = incoming()
    want = before + np.asarray(g)
    address = total.__array_interface__["data"][0]
    out = SUMS.accumulate(total, g)  # total: the one name the walk would hold
    np.testing.assert_array_equal(out, want)
    assert (out.__array_interface__["data"][0] == address) is in_place
    if other is not None:  # what someone else holds keeps its value
        np.testing.assert_array_equal(other, before)


def test_two_slice_gradients_stay_lazy_and_finish_builds_them_once():
    a = SliceGrad((4, 3), (slice(0, 2),), np.ones((2, 3)))
    b = SliceGrad((4, 3), (slice(2, 4),), np.full((2, 3), 2.0))
    total = SUMS.accumulate(a, b)
    assert isinstance(total, SliceGrad)
    np.testing.assert_array_equal(SUMS.finish(total), [[1] * 3] * 2 + [[2] * 3] * 2)
    plain = np.ones(3)
    assert SUMS.finish(plain) is plain


@pytest.mark.parametrize("held, view, dtype, stolen", [
    (False, False, np.float32, True),    # a backward's fresh array: becomes .grad as it is
    (True, False, np.float32, False),    # also held elsewhere: copied
    (False, True, np.float32, False),    # a view of another array: copied
    (False, False, np.float64, False),   # another dtype: converted (a copy)
])
def test_store_takes_a_leaf_first_gradient_without_a_copy_only_when_it_is_the_walks(
        held, view, dtype, stolen):
    leaf = mg.zeros(4, requires_grad=True)
    total = (np.arange(8.0).astype(dtype)[::2] if view else np.arange(4.0).astype(dtype))
    keep = total if held else None
    address = total.__array_interface__["data"][0]
    SUMS.store(leaf, total)
    assert (leaf.grad.data.__array_interface__["data"][0] == address) is stolen
    assert leaf.grad.dtype == leaf.dtype
    np.testing.assert_array_equal(leaf.grad.numpy(), [0, 2, 4, 6] if view else [0, 1, 2, 3])
    del keep


def test_store_adds_into_the_grad_tensor_the_user_holds():
    leaf = mg.zeros(3, requires_grad=True)
    leaf.grad = mg.ones(3)
    held, version = leaf.grad, leaf.grad._version
    SUMS.store(leaf, np.full(3, 2.0, np.float32))
    assert leaf.grad is held and leaf.grad._version == version + 1
    np.testing.assert_array_equal(held.numpy(), [3, 3, 3])


def test_graph_sums_never_write_in_place():
    sums = GraphSums(mg.Tensor)
    a = mg.ones(3, requires_grad=True) * 1.0
    total = sums.accumulate(a, mg.ones(3))
    assert total is not a and np.array_equal(a.numpy(), [1, 1, 1])
    leaf = mg.zeros(3, requires_grad=True)
    sums.store(leaf, a)
    first = leaf.grad
    sums.store(leaf, a)
    assert leaf.grad is not first and np.array_equal(first.numpy(), [1, 1, 1])


class FreshTimesTwo(Function):
    """out = 2 a, whose backward returns a fresh array and notes where it lives."""

    addresses: ClassVar[list] = []

    @staticmethod
    def forward(ctx, a):
        return 2 * a

    @staticmethod
    def backward(ctx, grad):
        g = grad * 2.0
        FreshTimesTwo.addresses.append(g.__array_interface__["data"][0])
        return g


def test_a_leaf_used_three_times_sums_into_one_array_that_becomes_its_grad():
    FreshTimesTwo.addresses = []
    x = mg.tensor(np.arange(6.0), requires_grad=True)
    loss = sum(FreshTimesTwo.apply(x).sum() for _ in range(3))
    loss.backward()
    np.testing.assert_array_equal(x.grad.numpy(), np.full(6, 6.0))
    # the first gradient to arrive is the buffer the other two are added into, and .grad
    assert x.grad.data.__array_interface__["data"][0] == FreshTimesTwo.addresses[0]


class LooksLazy:
    """Not a LazyGrad, though it has the attributes one has."""

    shape, dtype = (3,), np.dtype(np.float64)

    def add_to(self, total):
        total += 1.0

    def materialize(self):
        return np.ones(3)


class ReturnsLookalike(Function):
    @staticmethod
    def forward(ctx, a):
        return a * 1.0

    @staticmethod
    def backward(ctx, grad):
        return LooksLazy()


def test_only_a_lazy_grad_is_taken_for_a_lazy_gradient():
    assert not isinstance(LooksLazy(), LazyGrad)
    x = mg.tensor(np.zeros(3), requires_grad=True)
    with pytest.raises(RuntimeError, match="invalid gradient at index 0 .*LooksLazy"):
        ReturnsLookalike.apply(x).sum().backward()
    assert x.grad is None

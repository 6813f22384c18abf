"""A leaf's first gradient becomes its .grad without a copy when nothing else holds the
array (PyTorch steals it too), and is copied whenever something does."""

from __future__ import annotations

import numpy as np

import minigrad as mg
from minigrad.function import Function

ADDRESSES: list = []


class Twice(Function):
    """out = 2 a, whose backward notes where its fresh gradient array lives."""

    @staticmethod
    def forward(ctx, a):
        return 2 * a

    @staticmethod
    def backward(ctx, grad):
        g = grad * 2.0  # a fresh array, held by nothing but the walk once returned
        ADDRESSES.append(g.__array_interface__["data"][0])
        return g


def test_a_fresh_gradient_becomes_grad_without_a_copy():
    ADDRESSES.clear()
    x = mg.tensor(np.arange(6.0), requires_grad=True)
    Twice.apply(x).sum().backward()
    np.testing.assert_array_equal(x.grad.data, np.full(6, 2.0))
    assert x.grad.data.__array_interface__["data"][0] == ADDRESSES[0]


def test_a_gradient_shared_by_two_leaves_is_copied_for_each():
    x = mg.tensor(np.ones(4), requires_grad=True)
    y = mg.tensor(np.ones(4), requires_grad=True)
    (x + y).sum().backward()  # Add hands the same array to both inputs
    assert not np.shares_memory(x.grad.data, y.grad.data)
    x.grad.data[0] = 5.0
    assert y.grad.data[0] == 1.0


def test_a_saved_gradient_under_retain_graph_is_copied():
    # F.linear_cross_entropy's backward hands out what its forward saved: with the graph
    # retained, .grad must not be that array (clipping writes .grad in place)
    x = mg.tensor(np.ones((2, 3)), requires_grad=True)
    w = mg.tensor(np.ones((4, 3)), requires_grad=True)
    loss = mg.nn.functional.linear_cross_entropy(x, w, np.array([0, 3]))
    loss.backward(retain_graph=True)
    first = w.grad.data.copy()
    w.grad.data *= 0
    w.grad = None
    loss.backward()
    np.testing.assert_array_equal(w.grad.data, first)

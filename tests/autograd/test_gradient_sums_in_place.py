"""A tensor that gets several gradients has them summed into an array nobody else can see:
the walk's own, or a backward's fresh array that only the walk still holds; an embedding's
rows are scattered straight into that sum (``RowScatterGrad``) instead of a (V, D) array of
their own. Whatever someone else holds (a captured gradient, a retained graph's saved array) is
never written."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import minigrad as mg
from minigrad import autograd
from minigrad.function import Function
from minigrad.grad_buffers import RowScatterGrad, SliceGrad
from minigrad.nn import functional as F


class Passthrough(Function):
    """out = a, whose backward hands its incoming gradient on unchanged (the same array)."""

    @staticmethod
    def forward(ctx, a):
        return a.copy()

    @staticmethod
    def backward(ctx, grad):
        return grad


def tied_loss(w: mg.Tensor, ids: np.ndarray, x: np.ndarray) -> mg.Tensor:
    """An embedding lookup of w and a head through the same w, as GPT ties them."""
    rows = F.embedding(mg.tensor(ids), w)              # (N, D)
    head = F.linear(mg.tensor(x) + rows, w)            # (N, V): w's dense gradient
    return (head * head).sum()


def numpy_tied_grad(w: np.ndarray, ids: np.ndarray, x: np.ndarray) -> np.ndarray:
    h = x + w[ids]
    z = h @ w.T
    dz = 2 * z
    dw = dz.T @ h                                      # the head's
    dh = dz @ w
    np.add.at(dw, ids, dh)                             # the lookup's, repeated ids add up
    return dw


@pytest.mark.parametrize("backend", ["reference", "fast"])
def test_a_tied_weight_gets_the_sum_of_both_gradients(backend):
    rng = np.random.default_rng(0)
    w0 = rng.standard_normal((7, 3))
    ids = np.array([1, 4, 1, 1, 6, 0])                 # repeated ids
    x = rng.standard_normal((6, 3))
    with mg.use_backend(backend):
        w = mg.tensor(w0, requires_grad=True)
        tied_loss(w, ids, x).backward()
    np.testing.assert_allclose(w.grad.data, numpy_tied_grad(w0, ids, x), rtol=1e-12)


@mg.use_backend("reference")
def test_a_tied_weight_backward_makes_no_extra_weight_sized_array():
    # V x D = 2 MB; before, the lookup's gradient was a zero-filled (V, D) array and the
    # sum a third one: the backward's peak rose by about two weights more than it does now.
    # On the reference backend, which compiles nothing: tracemalloc also counts what Numba
    # allocates while it compiles or loads a kernel (a cold cache in CI), which is no array
    V, D = 16384, 32
    rng = np.random.default_rng(1)
    w = mg.tensor(rng.standard_normal((V, D)).astype(np.float32), requires_grad=True)
    ids = rng.integers(0, V, 8)
    x = rng.standard_normal((8, D)).astype(np.float32)
    loss = tied_loss(w, ids, x)
    weight_bytes = w.data.nbytes
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        loss.backward()
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    # the head's (V, D) gradient, which becomes w.grad, and a little: not two more
    assert peak < 1.5 * weight_bytes, (peak, weight_bytes)
    np.testing.assert_allclose(w.grad.data, numpy_tied_grad(w.data.astype(np.float64), ids,
                                                            x.astype(np.float64)), rtol=2e-4,
                               atol=1e-3)


def test_a_captured_gradient_is_not_added_into():
    # b's gradient reaches a unchanged (Passthrough), then a's other gradient arrives: the
    # captured array must keep b's value, so the sum goes into a new array
    x = mg.tensor(np.arange(1.0, 5.0), requires_grad=True)
    a = x * 1.0
    b = Passthrough.apply(a)
    out = (b * 3.0).sum() + a.exp().sum()
    g_b, g_a = autograd.grad(out, [b, a])
    np.testing.assert_array_equal(g_b.data, np.full(4, 3.0))
    np.testing.assert_allclose(g_a.data, 3.0 + np.exp(np.arange(1.0, 5.0)))


def test_a_retained_graph_gives_the_same_gradients_twice():
    rng = np.random.default_rng(2)
    w0 = rng.standard_normal((5, 2))
    ids = np.array([0, 3, 3])
    x = rng.standard_normal((3, 2))
    w = mg.tensor(w0, requires_grad=True)
    loss = tied_loss(w, ids, x)
    loss.backward(retain_graph=True)
    first = w.grad.data.copy()
    w.grad = None
    loss.backward()
    np.testing.assert_array_equal(w.grad.data, first)


def test_slice_and_row_gradients_of_one_weight_add_up():
    # the two kinds of lazy gradient meet (SliceGrad.plus / RowScatterGrad.plus)
    w0 = np.arange(12.0).reshape(4, 3)
    w = mg.tensor(w0, requires_grad=True)
    ids = np.array([2, 2, 0])
    loss = (F.embedding(mg.tensor(ids), w) * 2.0).sum() + (w[1:3] * 5.0).sum()
    loss.backward()
    expect = np.zeros((4, 3))
    np.add.at(expect, ids, 2.0)
    expect[1:3] += 5.0
    np.testing.assert_array_equal(w.grad.data, expect)


def test_lazy_gradients_add_into_a_new_array_when_mixed():
    rows = RowScatterGrad(4, np.array([1, 1, 3]), np.ones((3, 2)),
                          mg.backends.active.embedding_backward)
    part = SliceGrad((4, 2), (slice(0, 2),), np.full((2, 2), 10.0))
    for total in (rows.plus(part), part.plus(rows)):
        np.testing.assert_array_equal(total, [[10, 10], [12, 12], [0, 0], [1, 1]])
    np.testing.assert_array_equal(np.asarray(rows), [[0, 0], [2, 2], [0, 0], [1, 1]])

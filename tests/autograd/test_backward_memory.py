"""Backward gives memory back as it goes: each op's saved arrays and its links to its inputs
are dropped once its gradients are passed on, so an activation that nothing else holds dies
during backward, not with the loss; and gradients are summed and stored without extra copies
wherever no one else can see the array (minigrad/engine.py)."""

from __future__ import annotations

import weakref

import numpy as np

import minigrad as mg
from minigrad import models


def test_activations_nobody_holds_die_during_backward():
    x = mg.randn(64, 64, requires_grad=True)
    a = (x * 2).exp()  # an activation the user does not hold once `a` is deleted
    dead_at_backward = []
    seen = weakref.ref(a)

    def check(leaf):  # x's gradient arrives last: a was used and passed on by then
        dead_at_backward.append(seen() is None)

    x.register_post_accumulate_grad_hook(check)
    loss = (a * 3).sum()
    del a
    assert seen() is not None  # the graph holds it until backward
    loss.backward()
    assert dead_at_backward == [True]
    assert loss._ctx._freed and loss._ctx.parents == ()


def test_retain_graph_keeps_the_activations():
    x = mg.randn(8, requires_grad=True)
    a = x.exp()
    seen = weakref.ref(a)
    loss = a.sum()
    del a
    loss.backward(retain_graph=True)
    assert seen() is not None and loss._ctx.parents[0] is seen()
    loss.backward()  # and the second backward gives the same gradient again
    assert np.allclose(x.grad.numpy(), 2 * np.exp(x.numpy()))


def test_a_gradient_shared_by_two_leaves_is_not_stolen_by_both():
    a = mg.randn(5, requires_grad=True)
    b = mg.randn(5, requires_grad=True)
    (a + b).sum().backward()  # Add hands one array to both inputs
    assert not np.shares_memory(a.grad.data, b.grad.data)
    a.grad.data += 1  # one leaf's gradient is its own
    assert np.array_equal(b.grad.numpy(), np.ones(5, np.float32))


def test_a_leaf_used_twice_sums_into_a_fresh_gradient():
    w = mg.randn(4, 3, requires_grad=True)
    g1 = np.arange(12, dtype=np.float32).reshape(4, 3)
    y = w * 2
    ((y * mg.tensor(g1)).sum() + (w * w).sum()).backward()
    assert np.allclose(w.grad.numpy(), 2 * g1 + 2 * w.numpy())
    assert np.allclose(y.numpy(), 2 * w.numpy())  # what the user holds is untouched


def test_tied_gpt_gradients_match_retained_graph_gradients():
    """The in-place sums and stolen arrays give the gradients a kept graph gives."""
    mg.manual_seed(0)
    model = models.GPT(vocab_size=13, block_size=8, n_layer=2, n_head=2, n_embd=16,
                       tie_weights=True)
    ids = np.arange(16).reshape(2, 8) % 13
    _, loss = model(ids, ids)
    loss.backward(retain_graph=True)  # nothing freed, nothing summed in place
    kept = {n: p.grad.numpy().copy() for n, p in model.named_parameters()}
    model.zero_grad()
    _, loss = model(ids, ids)
    loss.backward()
    for name, p in model.named_parameters():
        assert np.allclose(p.grad.numpy(), kept[name], rtol=1e-5, atol=1e-6), name

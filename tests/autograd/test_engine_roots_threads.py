"""The engine with several roots (roots that depend on each other, repeated roots) and
gradient accumulation under threads.

Every check has a hand-computed or single-root answer that runs without PyTorch; a few
are also compared with PyTorch when it is installed.
"""

from __future__ import annotations

import sys
import threading

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minigrad as mg
from minigrad import models
from minigrad.autograd import grad

try:
    import torch
except ImportError:  # the README's default set-up
    torch = None


# ---- several roots ---------------------------------------------------------------------


@pytest.mark.parametrize("order", ["zy", "yz"])
def test_grad_of_a_root_and_its_ancestor_does_not_depend_on_their_order(order):
    # y = x^2, z = 3y: d(sum z + sum y)/dx = 6x + 2x = 8x, whatever the order of the outputs
    x = mg.tensor([1.0, 2.0, -3.0], dtype="float64", requires_grad=True)
    y = (x * x).sum()
    z = y * 3
    outs = [z, y] if order == "zy" else [y, z]
    (g,) = grad(outs, x)
    np.testing.assert_array_equal(g.numpy(), 8 * x.numpy())


def test_repeated_root_counts_twice():
    x = mg.tensor([1.0, -2.0], dtype="float64", requires_grad=True)
    y = (x * x).sum()
    (g,) = grad([y, y], x)
    np.testing.assert_array_equal(g.numpy(), 4 * x.numpy())  # 2 * (2x)


def test_root_that_is_an_ancestor_with_grad_outputs_and_backward_of_a_non_scalar():
    x = mg.tensor([1.0, 2.0], dtype="float64", requires_grad=True)
    y = x * x                      # (2,)
    z = y.sum() * 2                # depends on y
    gy = np.array([10.0, 100.0])
    (g,) = grad([z, y], x, grad_outputs=[mg.tensor(1.0, dtype="float64"), mg.tensor(gy)])
    # dz/dx = 4x; y's seed gy gives gy * 2x
    np.testing.assert_array_equal(g.numpy(), 4 * x.numpy() + gy * 2 * x.numpy())
    x.grad = None
    (x * x).backward(mg.tensor(gy))
    np.testing.assert_array_equal(x.grad.numpy(), gy * 2 * x.numpy())


@pytest.mark.skipif(torch is None, reason="PyTorch not installed")
def test_several_dependent_roots_match_torch():
    xv = np.array([0.5, -1.5, 2.0])
    x = mg.tensor(xv, requires_grad=True)
    y = x.sin() * x
    z = (y * y).sum() + y.sum()
    w = z * z
    mine = grad([y.sum(), w, z, y.sum()], x)[0].numpy()
    xt = torch.tensor(xv, requires_grad=True)
    yt = xt.sin() * xt
    zt = (yt * yt).sum() + yt.sum()
    wt = zt * zt
    ref = torch.autograd.grad([yt.sum(), wt, zt, yt.sum()], xt)[0].numpy()
    np.testing.assert_allclose(mine, ref, rtol=1e-12)


@st.composite
def random_graphs(draw):
    """A small random DAG over one input: each node combines one or two earlier nodes."""
    n = draw(st.integers(2, 8))
    steps = []
    for i in range(n):
        op = draw(st.sampled_from(["mul", "add", "sin", "scale"]))
        a = draw(st.integers(0, i))
        b = draw(st.integers(0, i))
        steps.append((op, a, b))
    roots = draw(st.lists(st.integers(1, n), min_size=1, max_size=5))
    return steps, roots


def _build(x, steps):
    nodes = [x]
    for op, a, b in steps:
        u, v = nodes[a], nodes[b]
        nodes.append(u * v if op == "mul" else u + v if op == "add" else u.sin() if op == "sin"
                     else u * 0.5)
    return nodes


@given(random_graphs(), st.permutations(range(5)))
def test_several_roots_equal_the_gradient_of_their_sum(graph, perm):
    """grad(roots) = grad(sum of roots), in any order of the roots, with repeats."""
    steps, roots = graph
    roots = [roots[i] for i in perm if i < len(roots)]
    xv = np.array([0.3, -0.7])
    x1 = mg.tensor(xv, requires_grad=True)
    nodes = _build(x1, steps)
    (mine,) = grad([nodes[r].sum() for r in roots], x1, allow_unused=True)
    x2 = mg.tensor(xv, requires_grad=True)
    nodes = _build(x2, steps)
    total = nodes[roots[0]].sum()
    for r in roots[1:]:
        total = total + nodes[r].sum()
    (ref,) = grad(total, x2, allow_unused=True)
    if ref is None:
        assert mine is None
    else:
        np.testing.assert_allclose(mine.numpy(), ref.numpy(), rtol=1e-12, atol=1e-12)


# ---- threads ---------------------------------------------------------------------------


@pytest.fixture
def fast_thread_switching():
    """Switch threads as often as possible, so an unguarded read-add-write of .grad
    would interleave and lose contributions within a few repetitions."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def test_concurrent_backward_passes_sharing_a_leaf_lose_no_contribution(fast_thread_switching):
    w = mg.tensor(np.zeros(4), requires_grad=True)
    n_threads, reps = 8, 200
    start = threading.Barrier(n_threads)

    def worker(k):
        start.wait()
        for _ in range(reps):
            # d/dw sum(w * c) = c: exact small integers, so the total is exact
            (w * float(k + 1)).sum().backward()

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    expected = reps * sum(range(1, n_threads + 1))
    np.testing.assert_array_equal(w.grad.numpy(), np.full(4, float(expected)))


def test_concurrent_backward_with_inputs_loses_no_contribution(fast_thread_switching):
    w = mg.tensor(np.zeros(3), requires_grad=True)
    n_threads, reps = 6, 150
    start = threading.Barrier(n_threads)

    def worker():
        start.wait()
        for _ in range(reps):
            (w * 2.0).sum().backward(inputs=[w])

    threads = [threading.Thread(target=worker) for _ in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    np.testing.assert_array_equal(w.grad.numpy(), np.full(3, 2.0 * n_threads * reps))


def test_concurrent_generate_calls_restore_training_mode(fast_thread_switching):
    model = models.GPT(vocab_size=11, block_size=8, n_layer=1, n_head=2, n_embd=8, dropout=0.1)
    model.train()
    model.lm_head.eval()  # a sub-module in its own mode must get it back too
    n_threads = 6
    start = threading.Barrier(n_threads)

    def worker():
        start.wait()
        for _ in range(5):
            model.generate(np.zeros((1, 2), np.int64), 3)

    threads = [threading.Thread(target=worker) for _ in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert model.training
    assert not model.lm_head.training
    assert all(m.training for m in model.modules() if m is not model.lm_head)


def test_generate_keeps_eval_mode_of_a_model_in_eval():
    model = models.GPT(vocab_size=11, block_size=8, n_layer=1, n_head=2, n_embd=8)
    model.eval()
    model.generate(np.zeros((1, 2), np.int64), 2)
    assert not any(m.training for m in model.modules())

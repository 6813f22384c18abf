"""``.grad`` is the tensor the user holds: each backward adds into it in place, as PyTorch's
AccumulateGrad does (the first gradient becomes ``.grad``; ``create_graph=True`` replaces it by
``old + new``, a tensor with a graph). ``zero_grad(set_to_none=False)`` zeros that same tensor.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn

try:  # PyTorch, where installed, is checked to do the same
    import torch
except ImportError:
    torch = None


def _two_backwards(w):
    (w * 2.0).sum().backward()
    g = w.grad
    v0 = g._version
    (w * w).sum().backward()
    return g, v0


# ---- every way of holding .grad sees the sum -------------------------------------------
def test_second_backward_adds_into_the_tensor_the_user_holds():
    for lib in (mg, torch) if torch is not None else (mg,):
        w = lib.tensor([1.0, 3.0], requires_grad=True)
        g, v0 = _two_backwards(w)
        assert w.grad is g and g._version == v0 + 1, lib.__name__
        np.testing.assert_allclose(g.numpy(), [4.0, 8.0])


def test_hook_and_optimizer_state_hold_the_same_tensor():
    w = nn.Parameter(mg.tensor([1.0, 2.0]))
    captured = []
    w.register_post_accumulate_grad_hook(lambda p: captured.append(p.grad))
    (w * 2.0).sum().backward()
    kept = {"grad": w.grad}  # as an optimizer's state or a logger keeps it between steps
    (w * 3.0).sum().backward()
    assert captured[0] is captured[1] is w.grad is kept["grad"]
    np.testing.assert_allclose(captured[0].data, [5.0, 5.0])


def test_a_grad_the_user_assigned_is_added_into():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    mine = mg.tensor([10.0, 20.0])
    w.grad = mine
    (w * w).sum().backward()
    assert w.grad is mine and mine._version == 1
    np.testing.assert_allclose(mine.data, [12.0, 24.0])


def test_a_grad_that_views_another_array_writes_through_to_it():
    w = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    base = mg.zeros(2, 3)
    w.grad = base[1]
    (w * 2.0).sum().backward()
    np.testing.assert_allclose(base.data, [[0.0, 0.0, 0.0], [2.0, 2.0, 2.0]])
    assert base._version == 1
    if torch is None:
        return
    tw = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    tbase = torch.zeros(2, 3)
    tw.grad = tbase[1]
    (tw * 2.0).sum().backward()
    np.testing.assert_allclose(tbase.numpy(), base.data)


def test_a_read_only_grad_is_refused_when_assigned():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    frozen = np.ones(2, np.float32)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        w.grad = mg.Tensor(frozen)
    assert w.grad is None


def test_a_grad_made_read_only_later_is_refused_before_anything_is_written():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    (w * 1.0).sum().backward()
    w.grad.data.flags.writeable = False
    with pytest.raises(RuntimeError, match=r"cannot accumulate a gradient into \.grad .*read-only"):
        (w * 1.0).sum().backward()
    np.testing.assert_allclose(w.grad.data, [1.0, 1.0])


def test_backward_with_inputs_also_adds_in_place():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    x = mg.tensor([3.0, 4.0], requires_grad=True)
    (w * x).sum().backward(inputs=[w])
    g = w.grad
    (w * x).sum().backward(inputs=[w])
    assert w.grad is g and x.grad is None
    np.testing.assert_allclose(g.data, [6.0, 8.0])


def test_dtype_is_kept_in_place():
    w = mg.tensor(np.array([1.0, 2.0], np.float32), requires_grad=True)
    (w * w).sum().backward()
    g = w.grad
    (w.to(np.float64) * 3.0).sum().backward()  # a float64 gradient, cast back to w's dtype
    assert w.grad is g and g.dtype == np.float32
    np.testing.assert_allclose(g.data, [5.0, 7.0])


# ---- create_graph: out of place, as PyTorch ------------------------------------------------
@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph")
def test_create_graph_replaces_grad_with_a_new_tensor_and_leaves_the_old_one():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    (w * w).sum().backward()
    g = w.grad
    (w * w * w).sum().backward(create_graph=True)
    assert w.grad is not g and w.grad.requires_grad
    np.testing.assert_allclose(g.data, [2.0, 4.0])  # the old one unchanged
    np.testing.assert_allclose(w.grad.data, [5.0, 16.0])
    if torch is None:
        return
    tw = torch.tensor([1.0, 2.0], requires_grad=True)
    (tw * tw).sum().backward()
    tg = tw.grad
    (tw * tw * tw).sum().backward(create_graph=True)
    assert tw.grad is not tg and np.allclose(tg.numpy(), g.data)


def test_a_plain_backward_after_create_graph_adds_into_that_grad():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    (w * w).sum().backward(create_graph=True)
    g = w.grad
    (w * 3.0).sum().backward()
    assert w.grad is g
    np.testing.assert_allclose(g.data, [5.0, 7.0])


# ---- zero_grad ---------------------------------------------------------------------------
def _model_with_grads():
    mg.manual_seed(0)
    model = nn.Linear(3, 2)
    model(mg.ones(4, 3)).sum().backward()
    return model


@pytest.mark.parametrize("owner", ["module", "optimizer"])
def test_zero_grad_without_set_to_none_zeros_the_same_tensors(owner):
    model = _model_with_grads()
    opt = mg.optim.SGD(model.parameters(), lr=0.1)
    held = [p.grad for p in model.parameters()]
    (model if owner == "module" else opt).zero_grad(set_to_none=False)
    assert all(p.grad is g and not g.data.any() for p, g in zip(model.parameters(), held))
    model(mg.ones(4, 3)).sum().backward()
    assert all(p.grad is g and g.data.any() for p, g in zip(model.parameters(), held))
    (model if owner == "module" else opt).zero_grad()  # PyTorch's default: None
    assert all(p.grad is None for p in model.parameters())
    if torch is not None:
        lin = torch.nn.Linear(3, 2)
        lin(torch.ones(4, 3)).sum().backward()
        topt = torch.optim.SGD(lin.parameters(), lr=0.1)
        held = lin.weight.grad
        (lin if owner == "module" else topt).zero_grad(set_to_none=False)
        assert lin.weight.grad is held and not held.any()
        (lin if owner == "module" else topt).zero_grad()
        assert lin.weight.grad is None


def test_zero_grad_cuts_a_grad_with_a_graph_from_it():
    w = nn.Parameter(mg.tensor([1.0, 2.0]))
    (w * w).sum().backward(create_graph=True)
    g = w.grad
    assert not g.is_leaf
    w.zero_grad(set_to_none=False)
    assert w.grad is g and g.is_leaf and not g.requires_grad and not g.data.any()


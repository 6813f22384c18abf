"""Tensor.register_post_accumulate_grad_hook: called once per backward per leaf, after .grad
holds that backward's total (what data-parallel training waits for), as in PyTorch."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad
from minigrad import nn


def test_hook_sees_the_accumulated_total_once_per_backward():
    w = minigrad.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    w.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.numpy().copy()))
    (w * w + w).sum().backward()  # w used three times: one call, with the summed gradient
    assert len(seen) == 1
    np.testing.assert_allclose(seen[0], [3.0, 5.0])
    (w * 3.0).sum().backward()  # the second backward accumulates: the hook sees the sum
    assert len(seen) == 2
    np.testing.assert_allclose(seen[1], [6.0, 8.0])


def test_hooks_match_pytorch_order_and_totals():
    """Same calls, same totals as torch on a small MLP (hooks fire as leaves are reached)."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 3)).astype(np.float64)
    a = rng.standard_normal((3, 5)).astype(np.float64)
    b = rng.standard_normal((5, 2)).astype(np.float64)
    mg = [minigrad.tensor(v, requires_grad=True) for v in (a, b)]
    th = [torch.tensor(v, requires_grad=True) for v in (a, b)]
    got_mg, got_th = {}, {}

    def recorder(store: dict, i: int):
        def hook(p) -> None:  # torch requires hooks that return None
            store[i] = p.grad.detach().numpy().copy()
        return hook

    for i, (m, t) in enumerate(zip(mg, th)):
        m.register_post_accumulate_grad_hook(recorder(got_mg, i))
        t.register_post_accumulate_grad_hook(recorder(got_th, i))
    (minigrad.tensor(x) @ mg[0]).tanh().matmul(mg[1]).sum().backward()
    (torch.tensor(x) @ th[0]).tanh().matmul(th[1]).sum().backward()
    assert list(got_mg) == list(got_th) == [1, 0]  # reverse order: the last layer first
    for i in (0, 1):
        np.testing.assert_allclose(got_mg[i], got_th[i], rtol=1e-12)


def test_remove_and_inputs_path_and_create_graph():
    w = minigrad.tensor([2.0], requires_grad=True)
    calls = []
    h = w.register_post_accumulate_grad_hook(lambda t: calls.append(t.grad.item()))
    (w * w).sum().backward(inputs=[w])
    (w * w).sum().backward(create_graph=True)
    assert calls == [4.0, 8.0]
    h.remove()
    h.remove()  # twice is harmless
    (w * w).sum().backward()
    assert len(calls) == 2


def test_hook_only_on_leaves_that_require_grad():
    w = minigrad.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf"):
        (w * 2).register_post_accumulate_grad_hook(lambda t: None)
    with pytest.raises(RuntimeError, match="requires_grad=False"):
        minigrad.tensor([1.0]).register_post_accumulate_grad_hook(lambda t: None)
    with pytest.raises(TypeError, match="callable"):
        w.register_post_accumulate_grad_hook(3)


def test_parameters_of_a_module_take_hooks():
    lin = nn.Linear(3, 2)
    names = []
    for n, p in lin.named_parameters():
        p.register_post_accumulate_grad_hook(lambda t, n=n: names.append(n))
    lin(minigrad.randn(4, 3)).sum().backward()
    assert sorted(names) == ["bias", "weight"]

"""The names a PyTorch user types every day, each with PyTorch's meaning (checked as values
here, and against torch itself where it is installed)."""

import numpy as np
import pytest

import minigrad as mg


def _both(torch_test, fn):
    """Run ``fn`` on minigrad, and on torch too when installed: same answer."""
    got = fn(mg)
    if torch_test:
        torch = pytest.importorskip("torch")
        want = fn(torch)
        np.testing.assert_allclose(np.asarray(got, dtype=float), np.asarray(want, dtype=float))
    return got


def _hooked(lib):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    seen = []
    y.register_hook(lambda g: (seen.append(g.sum().item()), g * 10)[1])
    handle = x.register_hook(lambda g: g + 1)  # a leaf's hook runs before .grad is written
    (y * y).sum().backward()
    handle.remove()
    return x.grad.tolist() + y.grad.tolist() + seen


def test_register_hook_replaces_the_gradient_and_retain_grad_keeps_it():
    assert _both(False, _hooked) == [81.0, 161.0, 241.0, 40.0, 80.0, 120.0, 24.0]


def test_hooks_and_retain_grad_agree_with_torch():
    _both(True, _hooked)


def test_hooks_run_in_autograd_grad_and_retained_grads_accumulate():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    h.register_hook(lambda g: g * 0)
    (gx,) = mg.autograd.grad(h.sum(), x)
    assert gx.tolist() == [0.0, 0.0]
    y = x * 2
    y.retain_grad()
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    assert y.grad.tolist() == [2.0, 2.0] and y.retains_grad and not x.retains_grad


@pytest.mark.parametrize("make,error", [
    (lambda: mg.tensor([1.0]).register_hook(lambda g: g), "doesn't require gradient"),
    (lambda: mg.tensor([1.0]).retain_grad(), "requires_grad=False"),
])
def test_hooks_on_tensors_without_grad_are_refused(make, error):
    with pytest.raises(RuntimeError, match=error):
        make()


def test_a_hook_returning_the_wrong_shape_is_named():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: g.sum())
    with pytest.raises(RuntimeError, match="hook registered on a tensor of shape"):
        (x * 2).sum().backward()
    assert x.grad is None


def test_grad_fn_is_the_node_that_made_the_tensor():
    x = mg.tensor([1.0], requires_grad=True)
    assert x.grad_fn is None and (x * 2).grad_fn.fn.__name__ == "Mul"
    with mg.no_grad():
        assert (x * 2).grad_fn is None


def test_mT_and_new_factories():
    x = mg.randn(2, 3, 4, dtype="float64")
    assert x.mT.shape == (2, 4, 3)
    with pytest.raises(RuntimeError, match="matrices"):
        _ = mg.randn(3).mT
    for make in (x.new_zeros, x.new_ones, x.new_empty):
        t = make(2, 5)
        assert t.shape == (2, 5) and t.dtype == np.float64 and not t.requires_grad
    assert x.new_full((2,), 7).tolist() == [7.0, 7.0]
    assert x.new_tensor([1, 2]).dtype == np.float64
    assert x.new_zeros((3,), dtype=mg.int64).dtype == np.int64


def test_random_likes_and_randperm_follow_manual_seed():
    x = mg.zeros(3, 4, dtype="float64")
    mg.manual_seed(0)
    a = (mg.randn_like(x), mg.rand_like(x), mg.randint_like(x, 5), mg.randperm(6))
    mg.manual_seed(0)
    b = (mg.randn_like(x), mg.rand_like(x), mg.randint_like(x, 5), mg.randperm(6))
    for u, v in zip(a, b):
        np.testing.assert_array_equal(u.numpy(), v.numpy())
    assert a[0].dtype == np.float64 and a[2].dtype == np.float64 and a[3].dtype == np.int64
    assert sorted(a[3].tolist()) == list(range(6))
    assert 0 <= a[1].numpy().min() and a[1].numpy().max() < 1


def test_inference_mode_records_nothing_and_false_changes_nothing():
    x = mg.tensor([1.0], requires_grad=True)
    with mg.inference_mode():
        assert not (x * 2).requires_grad
        with mg.inference_mode(False):
            assert not (x * 2).requires_grad  # as PyTorch: it does not re-enable grad

    @mg.inference_mode()
    def f(t):
        return t * 2

    assert not f(x).requires_grad and (x * 2).requires_grad


def test_allclose_and_assert_close():
    assert mg.allclose(mg.tensor([1.0, 2.0]), mg.tensor([1.0, 2.0 + 1e-9]))
    assert not mg.allclose(mg.tensor([1.0]), mg.tensor([1.1]))
    mg.testing.assert_close(mg.tensor([1.0, 2.0]), mg.tensor([1.0, 2.000001]))
    with pytest.raises(AssertionError, match="Mismatched elements: 1 / 2"):
        mg.testing.assert_close(mg.tensor([1.0, 2.0]), mg.tensor([1.0, 2.1]))
    with pytest.raises(AssertionError, match="dtype"):
        mg.testing.assert_close(mg.tensor([1.0]), mg.tensor([1.0], dtype="float64"))
    with pytest.raises(AssertionError, match="shape"):
        mg.testing.assert_close(mg.tensor([1.0]), mg.tensor([1.0, 1.0]))


def test_std_mean_and_var_mean_take_numpy_spellings():
    a = np.random.default_rng(0).standard_normal((3, 4))
    s, m = mg.std_mean(mg.tensor(a), axis=1, keepdims=True)
    np.testing.assert_allclose(s.numpy(), a.std(axis=1, ddof=1, keepdims=True))
    np.testing.assert_allclose(m.numpy(), a.mean(axis=1, keepdims=True))
    v, _ = mg.var_mean(mg.tensor(a), dim=0)
    np.testing.assert_allclose(v.numpy(), a.var(axis=0, ddof=1))
    with pytest.raises(TypeError, match="both"):
        mg.var_mean(mg.tensor(a), dim=0, axis=0)

"""The backward engine: graph walking, accumulation, freeing, grad mode, errors."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import float_arrays, shapes

import minigrad as mg
from minigrad.engine import topological_order


def test_deep_chain_backward_has_no_recursion_limit():
    n = 10_000
    assert n > sys.getrecursionlimit()
    x = mg.tensor(np.array([1.0]), requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 1.0001
    y.sum().backward()
    np.testing.assert_allclose(x.grad, [1.0001**n], rtol=1e-9)


def test_topological_order_puts_inputs_before_users():
    a = mg.tensor([1.0], requires_grad=True)
    b = a * 2
    c = a + b
    d = c * b
    order = topological_order(d)
    pos = {id(t): i for i, t in enumerate(order)}
    assert pos[id(a)] < pos[id(b)] < pos[id(c)] < pos[id(d)]
    assert len(order) == 4


def test_reused_node_accumulates_gradient():
    x = mg.tensor(np.array([2.0, -1.0]), requires_grad=True)
    h = x * 3  # used three times below
    y = (h * h + h).sum()
    y.backward()
    # y = 9x^2 + 3x  ->  dy/dx = 18x + 3
    np.testing.assert_allclose(x.grad, 18 * x.data + 3)


def test_diamond_graph():
    x = mg.tensor(np.array([0.5]), requires_grad=True)
    a, b = x.exp(), x.tanh()
    (a * b).sum().backward()
    ex, th = np.exp(0.5), np.tanh(0.5)
    np.testing.assert_allclose(x.grad, [ex * th + ex * (1 - th**2)])


def test_no_grad_records_nothing():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with mg.no_grad():
        y = (x * 2).exp().sum()
        assert not mg.is_grad_enabled()
    assert mg.is_grad_enabled()
    assert not y.requires_grad and y.is_leaf and y._ctx is None
    with pytest.raises(RuntimeError, match="does not require grad"):
        y.backward()


def test_no_grad_as_decorator_and_nesting_restores_state():
    @mg.no_grad()
    def f(t):
        return t * 2

    x = mg.tensor([1.0], requires_grad=True)
    assert not f(x).requires_grad
    with mg.no_grad():
        with mg.no_grad():
            pass
        assert not mg.is_grad_enabled()
    assert mg.is_grad_enabled()


def test_no_grad_restored_after_exception():
    with pytest.raises(ValueError), mg.no_grad():
        raise ValueError("boom")
    assert mg.is_grad_enabled()


def test_detach_cuts_the_graph_and_shares_data():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    d = (x * 2).detach()
    assert not d.requires_grad and d.is_leaf
    y = (d * x).sum()
    y.backward()
    np.testing.assert_array_equal(x.grad, d.data)  # d treated as a constant
    x2 = mg.tensor([1.0], requires_grad=True)
    dd = x2.detach()
    assert np.shares_memory(dd.data, x2.data)


def test_retain_graph_allows_second_backward_and_accumulates():
    x = mg.tensor(np.array([1.0, 3.0]), requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    np.testing.assert_allclose(x.grad, [2.0, 6.0])
    y.backward()
    np.testing.assert_allclose(x.grad, [4.0, 12.0])


@pytest.mark.parametrize("make", [lambda x: (x * x).sum(), lambda x: (-x).sum(), lambda x: x.sum()])
def test_second_backward_without_retain_graph_raises(make):
    x = mg.tensor(np.array([1.0, 3.0]), requires_grad=True)
    y = make(x)
    y.backward()
    with pytest.raises(RuntimeError, match="second time.*retain_graph=True"):
        y.backward()


def test_saved_arrays_are_freed_after_backward():
    x = mg.tensor(np.ones(3), requires_grad=True)
    y = x * x
    z = y.sum()
    z.backward()
    assert y._ctx._saved == ()
    with pytest.raises(RuntimeError, match="second time"):
        _ = y._ctx.saved_tensors


def test_gradients_accumulate_across_backward_calls():
    x = mg.tensor(np.array([1.0, 2.0]), requires_grad=True)
    (x * 3).sum().backward()
    (x * x).sum().backward()
    np.testing.assert_allclose(x.grad, [3 + 2, 3 + 4])
    x.zero_grad()
    assert x.grad is None


def test_non_scalar_backward_needs_grad():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError, match=r"scalar outputs.*shape \(2,\)"):
        y.backward()
    y.backward(grad=np.array([1.0, -1.0], dtype=np.float32))
    np.testing.assert_allclose(x.grad, [2.0, -2.0])


def test_backward_with_tensor_grad():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).backward(mg.tensor([0.5, 1.0]))
    np.testing.assert_allclose(x.grad, [1.0, 2.0])


def test_backward_with_wrong_grad_shape_raises_before_any_change():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    with pytest.raises(ValueError, match=r"shape \(3,\).*shape \(2,\)"):
        y.backward(grad=np.ones(3))
    assert x.grad is None
    y.backward(grad=np.ones(2))  # the graph is intact
    np.testing.assert_allclose(x.grad, [2.0, 2.0])


def test_backward_on_leaf():
    x = mg.tensor(np.array([2.0]), requires_grad=True)
    x.backward()
    np.testing.assert_array_equal(x.grad, [1.0])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@given(data=st.data(), shape=shapes())
def test_grad_dtype_and_shape_equal_data(data, dtype, shape):
    x = mg.tensor(data.draw(float_arrays(shape, dtype)), requires_grad=True)
    b = mg.tensor(data.draw(float_arrays(shape[-1:], dtype)), requires_grad=True)
    ((x * b).exp() + x.sum()).mean().backward()
    for t in (x, b):
        assert t.grad.shape == t.shape and t.grad.dtype == t.dtype
        assert t.grad.data.flags.writeable and not np.shares_memory(t.grad.data, t.data)


def test_grad_is_a_private_writable_copy():
    """Add passes the same gradient to both inputs; each leaf gets its own array."""
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    b = mg.tensor([3.0, 4.0], requires_grad=True)
    (a + b).sum().backward()
    assert not np.shares_memory(a.grad, b.grad)
    a.grad[0] = 100.0
    assert b.grad[0] == 1.0


def test_only_inputs_requiring_grad_get_grad():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    b = mg.tensor([3.0, 4.0])
    (a * b).sum().backward()
    assert b.grad is None
    np.testing.assert_array_equal(a.grad, [3.0, 4.0])


def test_integer_tensors_cannot_require_grad():
    with pytest.raises(TypeError, match="int64"):
        mg.tensor([1, 2], requires_grad=True)
    t = mg.tensor([1, 2])
    with pytest.raises(TypeError, match="floating-point"):
        t.requires_grad = True
    with pytest.raises(TypeError):
        t.requires_grad_()
    assert not t.requires_grad
    with pytest.raises(TypeError):
        mg.tensor([True, False], requires_grad=True)


def test_integer_index_tensor_in_graph_gets_no_grad():
    w = mg.tensor(np.arange(6.0).reshape(3, 2), requires_grad=True)
    ids = mg.tensor([2, 0, 2])
    w[ids].sum().backward()
    np.testing.assert_array_equal(w.grad, [[1, 1], [0, 0], [2, 2]])
    assert ids.grad is None


@pytest.mark.parametrize(
    "op",
    [
        lambda x: x * 2.0, lambda x: 2.0 * x, lambda x: x + 1, lambda x: 1 - x,
        lambda x: x / 3, lambda x: 1.0 / x, lambda x: x**2, lambda x: x**0.5, lambda x: 2**x,
        lambda x: -x, lambda x: x.mean(), lambda x: x.var(), lambda x: x.gelu(),
        lambda x: x.gelu(approximate="tanh"), lambda x: x.sigmoid(), lambda x: x.softmax(0),
        lambda x: x.log_softmax(), lambda x: mg.where(x.data > 0, x, 0.0),
        lambda x: x.masked_fill(x.data > 1, -1.5), lambda x: mg.tril(x), lambda x: x.clamp(0.1, 1),
        lambda x: x @ x.T, lambda x: x.max(1).values, lambda x: np.float64(2.0) * x,
    ],
)
def test_float32_stays_float32_with_python_scalars(op):
    x = mg.tensor(np.abs(np.random.default_rng(0).standard_normal((3, 3))) + 0.1,
                  dtype=np.float32, requires_grad=True)
    y = op(x)
    assert y.dtype == np.float32
    y.sum().backward()
    assert x.grad.dtype == np.float32


def test_comparisons_return_bool_tensors_without_grad():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    for r in (x < 2, x <= 2, x > 2, x >= 2, x == 2, x != 2, x > mg.tensor([0.0, 5.0, 1.0])):
        assert isinstance(r, mg.Tensor) and r.dtype == np.bool_ and not r.requires_grad
    np.testing.assert_array_equal((x > 1.5).numpy(), [False, True, True])


def test_failed_op_leaves_no_state():
    x = mg.tensor(np.ones((2, 3)), requires_grad=True)
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(4,\)"):
        _ = x + mg.tensor(np.ones(4))
    with pytest.raises(ValueError, match="do not align"):
        _ = x @ mg.tensor(np.ones((2, 3)))
    (x * 1).sum().backward()
    np.testing.assert_array_equal(x.grad, np.ones((2, 3)))

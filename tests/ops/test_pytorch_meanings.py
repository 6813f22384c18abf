"""Issue 27: reflected operators that reach a Tensor operand, reflected bitwise operators,
var/std's PyTorch overloads, narrow with a tensor start, sign of bool (NumPy references)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad
from minigrad import Tensor
from minigrad.gradcheck import gradcheck, gradgradcheck

rng = np.random.default_rng(3)


@pytest.mark.parametrize("op", ["__rsub__", "__rtruediv__", "__rpow__", "__rmatmul__",
                                "__rmod__"])
def test_reflected_operator_sends_gradient_to_a_tensor_operand(op):
    shape = (3, 3)
    x = Tensor(rng.uniform(1.0, 2.0, shape), requires_grad=True)
    y = Tensor(rng.uniform(1.0, 2.0, shape), requires_grad=True)
    forward = {"__rsub__": np.subtract, "__rtruediv__": np.divide, "__rpow__": np.power,
               "__rmatmul__": np.matmul, "__rmod__": np.mod}[op]
    np.testing.assert_allclose(getattr(x, op)(y).numpy(), forward(y.numpy(), x.numpy()))
    f = lambda a, b: getattr(a, op)(b)
    assert gradcheck(f, [x, y])
    if op != "__rmod__":  # remainder's second derivative is 0 but steps at the jumps
        assert gradgradcheck(f, [x, y])


def test_reflected_bitwise_operators():
    a = np.array([1, 2, 7], np.int64)
    b = np.array([3, 4, 1], np.int64)
    x, y = Tensor(a), Tensor(b)
    assert x.__ror__(y).tolist() == (b | a).tolist()
    assert x.__rand__(y).tolist() == (b & a).tolist()
    assert x.__rxor__(y).tolist() == (b ^ a).tolist()
    assert (5 | x).tolist() == (5 | a).tolist()


def test_var_std_pytorch_overloads():
    a = rng.standard_normal((4, 5))
    t = Tensor(a)
    assert t.var(False).shape == ()  # var(x, unbiased): a bool is unbiased, not a dim
    np.testing.assert_allclose(t.var(False).item(), a.var(), rtol=1e-12)
    np.testing.assert_allclose(minigrad.std(t, True).item(), a.std(ddof=1), rtol=1e-12)
    np.testing.assert_allclose(t.var(1, correction=None).numpy(), a.var(1, ddof=1), rtol=1e-12)
    with pytest.raises(TypeError):
        t.var(True, unbiased=False)


def test_narrow_with_a_tensor_start():
    a = np.arange(10.0)
    assert Tensor(a).narrow(0, Tensor(np.array(3)), 4).tolist() == [3.0, 4.0, 5.0, 6.0]
    with pytest.raises(TypeError):
        Tensor(a).narrow(0, 1.5, 2)
    x = Tensor(rng.standard_normal(6), requires_grad=True)
    assert gradcheck(lambda t: t.narrow(0, Tensor(np.array(-3)), 2), [x])


def test_sign_of_bool_is_itself():
    b = np.array([True, False, True])
    out = Tensor(b).sign()
    assert out.dtype == np.bool_ and out.tolist() == b.tolist()


def test_clamp_sends_gradient_to_tensor_bounds():
    x = Tensor(rng.standard_normal((4, 5)), requires_grad=True)
    lo = Tensor(rng.standard_normal(5) - 0.5, requires_grad=True)
    hi = Tensor(rng.standard_normal((4, 1)) + 0.5, requires_grad=True)
    want = np.minimum(np.maximum(x.numpy(), lo.numpy()), hi.numpy())
    np.testing.assert_array_equal(x.clamp(lo, hi).numpy(), want)
    assert gradcheck(lambda a, b, c: a.clamp(b, c), [x, lo, hi])
    assert gradcheck(lambda a, b: a.clamp(min=b), [x, lo])
    assert gradcheck(lambda a, c: minigrad.clamp(a, max=c), [x, hi])


def test_masked_fill_broadcasts_and_differentiates_a_tensor_value():
    a = rng.standard_normal(5)
    m = rng.random((3, 5)) > 0.5
    out = minigrad.masked_fill(Tensor(a), m, 10.0)  # input and mask broadcast together
    np.testing.assert_array_equal(out.numpy(), np.where(m, 10.0, a))
    x = Tensor(rng.standard_normal((3, 5)), requires_grad=True)
    v = Tensor(np.array(2.0), requires_grad=True)
    np.testing.assert_array_equal(x.masked_fill(m, v).numpy(), np.where(m, 2.0, x.numpy()))
    assert gradcheck(lambda a, b: a.masked_fill(m, b), [x, v])
    assert gradgradcheck(lambda a, b: a.masked_fill(m, b), [x, v])
    with pytest.raises(ValueError, match="0-d"):
        x.masked_fill(m, Tensor(np.ones(5), requires_grad=True))
    with pytest.raises(ValueError, match="broadcast"):
        x.masked_fill(np.ones((2, 5), bool), 1.0)


def test_prod_of_an_empty_dim_has_an_empty_gradient():
    for shape, dim in (((0,), None), ((3, 0), 1), ((3, 0), 0)):
        x = Tensor(np.zeros(shape), requires_grad=True)
        out = x.prod() if dim is None else x.prod(dim)
        np.testing.assert_array_equal(out.numpy(), np.prod(np.zeros(shape), axis=dim))
        out.sum().backward()
        assert x.grad.shape == shape


def test_cat_skips_one_d_empty_tensors_as_pytorch():
    e = Tensor(np.zeros(0), requires_grad=True)
    m = Tensor(rng.standard_normal((2, 3)), requires_grad=True)
    out = minigrad.cat([e, m], dim=1)
    np.testing.assert_array_equal(out.numpy(), m.numpy())
    out.sum().backward()
    assert e.grad.shape == (0,)
    np.testing.assert_array_equal(m.grad, np.ones((2, 3)))
    assert gradgradcheck(lambda a: minigrad.cat([e, a], dim=1) ** 2, [m])


def test_zero_of_a_zero_d_clone_differentiates_twice():
    x = Tensor(np.array(1.5), requires_grad=True)
    assert gradgradcheck(lambda t: t * t.clone().zero_() + t * t, [x])


def test_integer_tensor_to_negative_integer_tensor_powers():
    a = np.array([2, 1, -1, -1, 0, 3, -2], np.int64)
    b = np.array([-1, -5, -3, -2, 2, 2, 3], np.int64)
    got = (Tensor(a) ** Tensor(b)).tolist()
    assert got == [0, 1, -1, 1, 0, 9, -8]  # 1/a**|b| truncated, as PyTorch
    assert Tensor(b).__rpow__(Tensor(a)).tolist() == got


def test_attention_batch_axes_broadcast():
    from minigrad.nn import functional as F

    q = Tensor(rng.standard_normal((4, 3, 8)), requires_grad=True)  # 3-D query
    k = Tensor(rng.standard_normal((2, 4, 6, 8)), requires_grad=True)  # 4-D key / value
    v = Tensor(rng.standard_normal((2, 4, 6, 5)), requires_grad=True)
    out = F.scaled_dot_product_attention(q, k, v)
    assert out.shape == (2, 4, 3, 5)
    s = np.einsum("bhld,bhsd->bhls", np.broadcast_to(q.numpy(), (2, 4, 3, 8)), k.numpy())
    s = s / np.sqrt(8)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    np.testing.assert_allclose(out.numpy(), p @ v.numpy(), rtol=1e-10)
    assert gradcheck(lambda a, b, c: F.scaled_dot_product_attention(a, b, c), [q, k, v])
    with pytest.raises(ValueError, match="do not fit"):
        F.scaled_dot_product_attention(q, k[:, :3], v)


def test_var_std_second_positional_is_unbiased_as_pytorch():
    # torch's var(dim, unbiased, keepdim): x.var(1, False) is the biased variance, not a
    # keepdim=False call (it used to be that, silently unbiased)
    a = np.arange(12.0).reshape(3, 4) ** 1.5
    t = minigrad.tensor(a)
    np.testing.assert_allclose(t.var(1, False).numpy(), a.var(1, ddof=0), rtol=1e-12)
    np.testing.assert_allclose(t.std(1, True).numpy(), a.std(1, ddof=1), rtol=1e-12)
    assert t.var(1, False, True).shape == (3, 1)
    np.testing.assert_allclose(minigrad.var(t, 0, False).numpy(), a.var(0), rtol=1e-12)
    np.testing.assert_allclose(minigrad.std(t, 0, False, True).numpy(),
                               a.std(0, keepdims=True), rtol=1e-12)
    v, m = minigrad.var_mean(t, 1, False, True)
    assert v.shape == m.shape == (3, 1)
    with pytest.raises(TypeError, match="not both"):
        t.var(1, True, correction=0)

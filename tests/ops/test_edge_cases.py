"""Edge cases of the ops, each compared with PyTorch: min of unsigned and bool tensors,
var/std with too few elements, gradients of powers at zero, dims of 0-d tensors,
clamp without bounds, empty tensors, clamp's gradient at a bound. (Decoding on NaN logits:
tests/models/test_decoding_on_nan_logits.py.)"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("dtype", [np.uint8, np.bool_, np.int64])
def test_min_and_max_of_unsigned_and_bool(dtype):
    a = np.array([[3, 0, 7], [1, 5, 2]]).astype(dtype)
    t = torch.tensor(a)
    x = mg.tensor(a)
    assert x.min().item() == t.min().item() and x.max().item() == t.max().item()
    v, i = x.min(1)
    tv, ti = t.min(1)
    np.testing.assert_array_equal(v.numpy(), tv.numpy())
    np.testing.assert_array_equal(i.numpy(), ti.numpy())
    assert v.dtype == a.dtype


@pytest.mark.parametrize("shape,dim,correction", [((1,), None, 1), ((2, 1), 1, 1), ((3,), 0, 3),
                                                  ((2,), 0, 5), ((3, 2), 0, 2)])
def test_var_and_std_with_too_few_elements_give_what_pytorch_gives(shape, dim, correction):
    a = np.arange(1.0, 1.0 + np.prod(shape)).reshape(shape)
    for name in ("var", "std"):
        x = mg.tensor(a, requires_grad=True)
        t = torch.tensor(a, requires_grad=True)
        y = getattr(x, name)(dim, correction=correction)
        ty = getattr(t, name)(dim, correction=correction)
        np.testing.assert_array_equal(y.numpy(), ty.detach().numpy())
        y.sum().backward()
        ty.sum().backward()
        np.testing.assert_array_equal(x.grad, t.grad.numpy())


@pytest.mark.parametrize("p", [2.0, 3.0, 1.0, 0.5, 0.0, -1.0, -0.5, 2.5])
def test_gradient_of_x_to_a_constant_power_at_zero(p):
    a = np.array([0.0, 1.0, 2.0])
    x, t = mg.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
    (x**p).sum().backward()
    (t**p).sum().backward()
    np.testing.assert_allclose(x.grad, t.grad.numpy(), rtol=1e-15)  # inf and 0 exactly


@pytest.mark.parametrize("base", [0.0, 2.0, 1.0])
def test_gradient_of_a_constant_to_the_x_at_zero(base):
    a = np.array([0.0, 1.0, 2.0, -1.0])
    x, t = mg.tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)
    (base**x).sum().backward()
    (base**t).sum().backward()
    np.testing.assert_allclose(x.grad, t.grad.numpy(), rtol=1e-15)


def test_tensor_power_gradients_at_zero_base_and_zero_exponent():
    a, b = np.array([0.0, 0.0, 2.0, 0.0]), np.array([0.0, 2.0, 0.0, 0.5])
    x, y = mg.tensor(a, requires_grad=True), mg.tensor(b, requires_grad=True)
    tx, ty = torch.tensor(a, requires_grad=True), torch.tensor(b, requires_grad=True)
    (x**y).sum().backward()
    (tx**ty).sum().backward()
    np.testing.assert_array_equal(x.grad, tx.grad.numpy())
    np.testing.assert_array_equal(y.grad, ty.grad.numpy())


@pytest.mark.parametrize("op", [lambda x: x.sum(0), lambda x: x.sum(-1), lambda x: x.squeeze(0),
                                lambda x: x.squeeze(-1), lambda x: x.mean(0), lambda x: x.amax(-1),
                                lambda x: x.sum((0,), keepdim=True), lambda x: x.squeeze()])
def test_dim_0_and_minus_1_on_a_0d_tensor(op):
    x, t = mg.tensor(2.5, dtype=np.float64, requires_grad=True), torch.tensor(2.5, requires_grad=True,
                                                                              dtype=torch.float64)
    y, ty = op(x), op(t)
    assert y.shape == tuple(ty.shape) and y.item() == ty.item()
    y.backward()
    ty.backward()
    assert x.grad == t.grad.item()


def test_dim_1_on_a_0d_tensor_raises_as_pytorch():
    with pytest.raises(IndexError):
        torch.tensor(2.0).sum(1)
    with pytest.raises(IndexError, match="out of range"):
        mg.tensor(2.0).sum(1)
    with pytest.raises(IndexError, match="out of range"):
        mg.tensor(2.0).squeeze(1)


def test_clamp_without_bounds_raises_as_pytorch():
    with pytest.raises(RuntimeError):
        torch.tensor([1.0]).clamp(None, None)
    with pytest.raises(ValueError, match="at least one of min and max"):
        mg.tensor([1.0]).clamp(None, None)


def test_empty_matmul_backward_gives_zero_gradients_of_the_right_shapes():
    a = mg.zeros(2, 3, 0, dtype=np.float64, requires_grad=True)
    b = mg.zeros(0, 4, dtype=np.float64, requires_grad=True)
    ta = torch.zeros(2, 3, 0, dtype=torch.float64, requires_grad=True)
    tb = torch.zeros(0, 4, dtype=torch.float64, requires_grad=True)
    out, tout = a @ b, ta @ tb
    np.testing.assert_array_equal(out.numpy(), tout.detach().numpy())
    out.sum().backward()
    tout.sum().backward()
    assert a.grad.shape == (2, 3, 0) and b.grad.shape == (0, 4)
    np.testing.assert_array_equal(b.grad, tb.grad.numpy())


def test_empty_reductions_as_pytorch():
    e, te = mg.zeros(0, 3, dtype=np.float64, requires_grad=True), torch.zeros(0, 3, dtype=torch.float64,
                                                                              requires_grad=True)
    np.testing.assert_array_equal(e.sum(0).numpy(), te.sum(0).detach().numpy())
    assert np.isnan(e.mean().item()) and np.isnan(te.mean().item())
    np.testing.assert_array_equal(e.mean(0).numpy(), te.mean(0).detach().numpy())  # nan per column
    e.sum().backward()
    assert e.grad.shape == (0, 3)
    with pytest.raises(RuntimeError):
        te.max()
    with pytest.raises(ValueError, match="empty"):
        e.max()
    with pytest.raises(ValueError, match="empty"):
        e.max(0)
    with pytest.raises(ValueError, match="empty"):
        e.min()


@pytest.mark.parametrize("inplace", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("bounds", [(-0.3, 0.3), (None, 0.3), (-0.3, None), (0.3, -0.3)])
def test_clamp_passes_the_gradient_at_a_bound_as_pytorch(inplace, dtype, bounds):
    values = np.array([0.3, -0.3, 0.2, 0.5, -0.7], dtype=dtype)
    grads = []
    for lib in (torch, mg):
        x = lib.tensor(values, requires_grad=True)
        y = x * 1.0  # a non-leaf, so that clamp_ may write into it
        z = y.clamp_(*bounds) if inplace else y.clamp(*bounds)
        (z * lib.tensor(np.arange(1.0, 6.0, dtype=dtype))).sum().backward()
        grads.append(np.asarray(x.grad.detach().numpy() if lib is torch else x.grad.numpy()))
    np.testing.assert_array_equal(grads[1], grads[0])

"""A Tensor given to an op as a bound or fill value gets its gradient, or the op refuses it:
clamp's tensor bounds and masked_fill's 0-d tensor value are differentiated (checked by
finite differences, and against PyTorch where installed); an op's constant option given a
Tensor that requires grad raises instead of dropping the gradient silently."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import gradcheck, gradgradcheck
from minigrad.ops.elementwise import Clamp

RNG = np.random.default_rng(0)


def t(a):
    return mg.tensor(np.asarray(a, dtype=np.float64), requires_grad=True)


def test_clamp_with_tensor_bounds_differentiates_all_three():
    # no value sits at a bound, where the derivative jumps
    x, lo, hi = t(RNG.normal(size=(3, 4))), t(RNG.normal(size=(3, 4)) - 1.0), t(RNG.normal(size=4) + 1.0)
    assert gradcheck(lambda a, b, c: a.clamp(b, c), (x, lo, hi))
    assert gradgradcheck(lambda a, b, c: a.clamp(b, c) ** 2, (x, lo, hi))
    assert gradcheck(lambda a, b: a.clamp(min=b), (x, lo))
    assert gradcheck(lambda a, c: a.clamp(max=c), (x, hi))


def test_clamp_tensor_bounds_at_ties_and_crossed():
    x = t([0.0, 1.0, -2.0, 3.0])
    lo, hi = t([0.0, 0.0, 0.0, 0.0]), t([1.0, 1.0, 1.0, 1.0])
    x.clamp(lo, hi).sum().backward()
    # at a tie x keeps the gradient (PyTorch's mask is lo <= x <= hi)
    assert x.grad.tolist() == [1.0, 1.0, 0.0, 0.0]
    assert lo.grad.tolist() == [0.0, 0.0, 1.0, 0.0] and hi.grad.tolist() == [0.0, 0.0, 0.0, 1.0]
    x2, lo2, hi2 = t([0.5]), t([2.0]), t([1.0])  # min > max: every value becomes max
    y = x2.clamp(lo2, hi2)
    y.sum().backward()
    assert y.tolist() == [1.0] and (x2.grad.item(), lo2.grad.item(), hi2.grad.item()) == (0, 0, 1)


def test_masked_fill_with_a_tensor_value():
    x, v = t(RNG.normal(size=(2, 3))), t(1.5)
    mask = np.array([[True, False, True], [False, False, True]])
    assert gradcheck(lambda a, b: a.masked_fill(mask, b), (x, v))
    x.grad = v.grad = None
    x.masked_fill(mask, v).sum().backward()
    assert v.grad.item() == 3.0 and x.grad.tolist() == (~mask).astype(float).tolist()
    f32 = mg.tensor(np.ones(3, np.float32))
    assert f32.masked_fill(np.array([True, False, False]), t(2.0)).dtype == np.float32
    with pytest.raises(ValueError, match="must be 0-d"):
        x.masked_fill(mask, t([1.0, 2.0]))


def test_a_tensor_option_that_requires_grad_is_refused():
    x, lo = t([1.0, 2.0]), t(1.5)
    with pytest.raises(TypeError, match="lo= is a Tensor that requires grad"):
        Clamp.apply(x, lo=lo)
    assert Clamp.apply(x, lo=lo.detach()).tolist() == [1.5, 2.0]


def test_against_torch():
    torch = pytest.importorskip("torch")
    xs = [RNG.normal(size=(5,)), RNG.normal(size=(5,)) - 0.5, RNG.normal(size=(5,)) + 0.5]
    ours = [t(a) for a in xs]
    theirs = [torch.tensor(a, requires_grad=True) for a in xs]
    ours[0].clamp(ours[1], ours[2]).sum().backward()
    theirs[0].clamp(theirs[1], theirs[2]).sum().backward()
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a.grad.numpy(), b.grad.numpy())


def test_reflected_operators_with_a_tensor_on_the_left_differentiate_it():
    x, y = t([1.0, 2.0, 3.0]), t([0.5, 1.5, 2.5])
    for op in ("__rsub__", "__rtruediv__", "__rpow__", "__radd__", "__rmul__"):
        assert gradcheck(lambda a, b, op=op: getattr(a, op)(b), (x, y)), op
    m, v = t(RNG.normal(size=(3, 3))), t(RNG.normal(size=(2, 3)))
    assert gradcheck(lambda a, b: a.__rmatmul__(b), (m, v))

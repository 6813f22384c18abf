"""gradcheck and gradgradcheck leave the inputs' ``.grad`` as the caller set it (PyTorch's
checkers use ``autograd.grad``), whether the check passes or fails."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import Function, GradcheckError


class HalfWrongSquare(Function):
    """y = x**2 with a wrong first derivative (x instead of 2x), written in shared ops."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        # wrong on purpose: d(x^2)/dx is 2x
        (x,) = ctx.saved_tensors
        return grad * x


def _inputs():
    rng = np.random.default_rng(0)
    a = mg.tensor(rng.standard_normal((2, 3)), requires_grad=True)
    b = mg.tensor(rng.standard_normal((3,)), requires_grad=True)
    return a, b


def _with_sentinels(tensors, sentinel):
    """Give each tensor a sentinel .grad (None or a tensor) and return what to compare with."""
    held = []
    for t in tensors:
        t.grad = None if sentinel is None else mg.tensor(np.full(t.shape, 7.0))
        held.append(t.grad)
    return held


CASES = [
    ("gradcheck passes", mg.gradcheck, lambda a, b: (a * b).tanh(), False),
    ("gradgradcheck passes", mg.gradgradcheck, lambda a, b: (a * b).tanh(), False),
    ("gradcheck fails", mg.gradcheck, lambda a, b: HalfWrongSquare.apply(a) + b, True),
    ("gradgradcheck fails", mg.gradgradcheck, lambda a, b: HalfWrongSquare.apply(a) * b, True),
]


@pytest.mark.parametrize("sentinel", [None, "tensor"])
@pytest.mark.parametrize("name,check,fn,fails", CASES, ids=[c[0] for c in CASES])
def test_checkers_leave_grad_alone(name, check, fn, fails, sentinel):
    a, b = _inputs()
    held = _with_sentinels((a, b), sentinel)
    if fails:
        with pytest.raises(GradcheckError):
            check(fn, [a, b])
    else:
        assert check(fn, [a, b])
    for t, before in zip((a, b), held):
        if before is None:
            assert t.grad is None
        else:
            assert t.grad is before
            np.testing.assert_array_equal(t.grad.data, 7.0)

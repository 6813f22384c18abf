"""gradcheck itself: passes correct gradients, pinpoints wrong ones."""

from __future__ import annotations

import re

import numpy as np
import pytest

import minigrad as mg
from minigrad import Function, GradcheckError, gradcheck


class WrongSquare(Function):
    """y = x**2 with a deliberately wrong backward (3x instead of 2x)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        # wrong on purpose: d(x^2)/dx is 2x, not 3x
        (x,) = ctx.saved_tensors
        return grad * 3 * x


class WrongOnOneElement(Function):
    """y = a * b, with the gradient of b wrong at one element only."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad):
        # d(ab)/da = b, d(ab)/db = a, except element (1, 2) of b is off by one
        a, b = ctx.saved_tensors
        gb = grad * a
        gb[1, 2] += 1.0
        return grad * b, gb


def test_returns_true_for_correct_gradients():
    x = mg.tensor(np.array([[0.5, -1.0], [2.0, 0.3]]), requires_grad=True)
    y = mg.tensor(np.array([1.5, -0.7]), requires_grad=True)
    assert gradcheck(lambda a, b: (a * b).tanh() @ b, [x, y]) is True


def test_raises_naming_input_element_and_values():
    x = mg.tensor(np.array([1.0, 2.0, 3.0]), requires_grad=True)
    with pytest.raises(GradcheckError) as err:
        gradcheck(WrongSquare.apply, [x])
    msg = str(err.value)
    assert "input 0 (shape (3,))" in msg and "element (0,)" in msg
    # gradcheck weights the output by a random w: analytic 3 x w vs numeric 2 x w
    m = re.search(r"analytic (\S+) vs numeric (\S+) ", msg)
    assert m, msg
    analytic, numeric = float(m.group(1)), float(m.group(2))
    assert analytic == pytest.approx(1.5 * numeric, rel=1e-5) and numeric != 0


def test_names_second_input_and_multi_dim_element():
    a = mg.tensor(np.arange(6.0).reshape(2, 3) / 7, requires_grad=True)
    b = mg.tensor(np.ones((2, 3)) * 0.5, requires_grad=True)
    with pytest.raises(GradcheckError, match=r"input 1 \(shape \(2, 3\)\) at element \(1, 2\)"):
        gradcheck(WrongOnOneElement.apply, [a, b])


def test_checks_only_inputs_that_require_grad():
    a = mg.tensor(np.ones((2, 3)), requires_grad=True)
    b = mg.tensor(np.ones((2, 3)))  # a constant: its (wrong) gradient is never checked
    assert gradcheck(WrongOnOneElement.apply, [a, b])


def test_non_contiguous_input_is_checked_in_place():
    base = np.arange(12.0).reshape(3, 4) / 10 + 0.1
    x = mg.tensor(base.T, requires_grad=True)  # a transposed view
    assert gradcheck(lambda t: (t * t).sum(0), [x])
    np.testing.assert_array_equal(x.data, base.T)  # restored after perturbing
    with pytest.raises(GradcheckError, match=r"element \(0, 0\)"):
        gradcheck(WrongSquare.apply, [x])


def test_tuple_outputs():
    x = mg.tensor(np.linspace(-1, 1, 6), requires_grad=True)
    assert gradcheck(lambda t: t.split(2), [x])


def test_float32_inputs_are_rejected():
    x = mg.tensor(np.ones(3, np.float32), requires_grad=True)
    with pytest.raises(TypeError, match="float64"):
        gradcheck(lambda t: t * 2, [x])


def test_no_input_requiring_grad_is_an_error():
    with pytest.raises(ValueError, match="no input requires grad"):
        gradcheck(lambda t: t * 2, [mg.tensor(np.ones(2))])


def test_output_independent_of_inputs_is_an_error():
    x = mg.tensor(np.ones(2), requires_grad=True)
    with pytest.raises(GradcheckError, match="does not depend"):
        gradcheck(lambda t: mg.tensor(np.ones(2)), [x])


def test_tolerances_are_respected():
    """A gradient off by 0.5% passes at rtol=1e-2 and fails at the default rtol=1e-3."""

    class SlightlyOff(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2.0

        @staticmethod
        def backward(ctx, grad):
            # d(2x)/dx = 2, reported as 2.01
            return grad * 2.01

    x = mg.tensor(np.array([1.0]), requires_grad=True)
    assert gradcheck(SlightlyOff.apply, [x], rtol=1e-2)
    with pytest.raises(GradcheckError):
        gradcheck(SlightlyOff.apply, [x])

"""A user-written Function, as the tour teaches it, gets PyTorch's answers: what backward
may return (count, shape, dtype, type), several outputs, keyword options, and a clear error
for a backward declared differentiable that loses its graph.

Each case of the table is one Function written once, in operations NumPy arrays and
torch tensors share, applied as ``minigrad.Function`` and as ``torch.autograd.Function``:
the expected gradients (or error) are in the table, so the suite checks them without torch,
and the torch test checks that PyTorch gives the same.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import minigrad as mg
from minigrad import Function

A = np.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.5]], dtype=np.float32)
B = np.array([[0.5, 1.5, -1.0], [2.0, -0.5, 1.0]], dtype=np.float32)
ROW = np.array([[1.5, -0.5, 2.0]], dtype=np.float32)


def _double(g):
    """g in float64, for NumPy arrays and torch tensors alike."""
    return g.double() if hasattr(g, "double") else g.astype(np.float64)


@dataclass
class Case:
    """A Function (``forward(ctx, *xs)`` / ``backward(ctx, *grads)``), its inputs (arrays and
    whether each requires grad), how its outputs become a loss, and what backward must
    give: the inputs' gradients (None: .grad stays None), or an error matching ``error``."""

    name: str
    forward: Callable
    backward: Callable
    inputs: tuple
    requires: tuple
    expect: Any = None  # a tuple of gradients (arrays or None)
    error: str | None = None
    loss: Callable = lambda out: out.sum()
    materialize: bool = True


def _mul_fwd(ctx, a, b):
    ctx.save_for_backward(a, b)
    return a * b


def _two_fwd(ctx, a):
    ctx.save_for_backward(a)
    return a * 2, a * a


def _two_bwd(ctx, g1, g2):
    (a,) = ctx.saved_tensors
    return g1 * 2 + g2 * 2 * a


def _unmaterialized_fwd(ctx, a):
    ctx.set_materialize_grads(False)
    return a * 2, a * 3


def _unmaterialized_bwd(ctx, g1, g2):
    assert g2 is None  # the loss used only the first output
    return g1 * 2


CASES = [
    Case("two inputs, two gradients", _mul_fwd,
         lambda ctx, g: (g * ctx.saved_tensors[1], g * ctx.saved_tensors[0]),
         (A, B), (True, True), expect=(B, A)),
    Case("two inputs, one gradient", _mul_fwd, lambda ctx, g: g * ctx.saved_tensors[1],
         (A, B), (True, True),
         error=r"incorrect number of gradients \(expected 2, got 1\)"),
    Case("one input, two gradients", lambda ctx, a: a * 2, lambda ctx, g: (g * 2, g),
         (A,), (True,), error=r"incorrect number of gradients \(expected 1, got 2\)"),
    Case("extra gradients that are None", lambda ctx, a: a * 2,
         lambda ctx, g: (g * 2, None, None), (A,), (True,), expect=(np.full_like(A, 2),)),
    Case("None for an input that requires grad", _mul_fwd,
         lambda ctx, g: (g * ctx.saved_tensors[1], None), (A, B), (True, True),
         expect=(B, None)),
    Case("a gradient for an input that needs none", _mul_fwd,
         lambda ctx, g: (g * ctx.saved_tensors[1], g * ctx.saved_tensors[0]),
         (A, B), (True, False), expect=(B, None)),
    Case("gradient summed over an axis", lambda ctx, a: a * 2, lambda ctx, g: g.sum(0),
         (A,), (True,),
         error=r"invalid gradient at index 0 - got \[3\] but expected shape compatible "
               r"with \[2, 3\]"),
    Case("gradient of one row", lambda ctx, a: a * 2, lambda ctx, g: g[:1], (A,), (True,),
         error=r"invalid gradient at index 0 - got \[1, 3\] but expected shape compatible "
               r"with \[2, 3\]"),
    Case("gradient of the wrong input", _mul_fwd,
         lambda ctx, g: (g * ctx.saved_tensors[1], g.sum(1)), (A, B), (True, True),
         error=r"invalid gradient at index 1 - got \[2\] but expected shape compatible "
               r"with \[2, 3\]"),
    Case("a scalar gradient", lambda ctx, a: a * 2, lambda ctx, g: g.sum(), (A,), (True,),
         error=r"invalid gradient at index 0 - got \[\] but expected shape compatible "
               r"with \[2, 3\]"),
    Case("gradient with a leading axis of 1", lambda ctx, a: a * 2, lambda ctx, g: g[None] * 2,
         (A,), (True,), expect=(np.full_like(A, 2),)),
    Case("gradient of the broadcast shape", lambda ctx, a, b: a + b, lambda ctx, g: (g, g),
         (ROW, A), (True, True), expect=(np.full_like(ROW, 2), np.ones_like(A))),
    Case("gradient in float64 for a float32 input", lambda ctx, a: a * 2,
         lambda ctx, g: _double(g) * 2, (A,), (True,), expect=(np.full_like(A, 2),)),
    Case("a Python number as gradient", lambda ctx, a: a * 2, lambda ctx, g: 2.0,
         (A,), (True,), error=r"\(got float\)"),
    Case("two outputs, both used", _two_fwd, _two_bwd, (A,), (True,),
         loss=lambda out: out[0].sum() + out[1].sum(), expect=(2 + 2 * A,)),
    Case("two outputs, the second unused", _two_fwd, _two_bwd, (A,), (True,),
         loss=lambda out: out[0].sum(), expect=(np.full_like(A, 2),)),
    Case("two outputs, the first unused", _two_fwd, _two_bwd, (A,), (True,),
         loss=lambda out: out[1].sum(), expect=(2 * A,)),
    Case("two outputs multiplied", _two_fwd, _two_bwd, (A,), (True,),
         loss=lambda out: (out[0] * out[1]).sum(), expect=(6 * A * A,)),
    Case("two outputs, unused one not materialized", _unmaterialized_fwd, _unmaterialized_bwd,
         (A,), (True,), loss=lambda out: out[0].sum(), expect=(np.full_like(A, 2),)),
]


def _run_minigrad(case: Case):
    fn = type(case.name.replace(" ", "_"), (Function,),
              {"forward": staticmethod(case.forward), "backward": staticmethod(case.backward)})
    xs = [mg.tensor(a.copy(), requires_grad=r) for a, r in zip(case.inputs, case.requires)]
    case.loss(fn.apply(*xs)).backward()
    return [None if x.grad is None else x.grad.data for x in xs]


def _run_torch(case: Case):
    torch = pytest.importorskip("torch")
    fn = type(case.name.replace(" ", "_"), (torch.autograd.Function,),
              {"forward": staticmethod(case.forward), "backward": staticmethod(case.backward)})
    xs = [torch.tensor(a.copy(), requires_grad=r) for a, r in zip(case.inputs, case.requires)]
    case.loss(fn.apply(*xs)).backward()
    return [None if x.grad is None else x.grad.numpy() for x in xs]


def _check(run, case: Case) -> None:
    if case.error is not None:
        with pytest.raises(RuntimeError, match=case.error):
            run(case)
        return
    got = run(case)
    assert len(got) == len(case.expect)
    for g, want, a in zip(got, case.expect, case.inputs):
        if want is None:
            assert g is None
        else:
            assert g.shape == a.shape and g.dtype == a.dtype
            np.testing.assert_allclose(g, want, rtol=1e-6)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_minigrad_function(case):
    _check(_run_minigrad, case)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_pytorch_gives_the_same(case):
    _check(_run_torch, case)


def test_errors_name_the_function():
    case = CASES[1]
    with pytest.raises(RuntimeError, match=r"^function two_inputs,_one_gradient\.backward"):
        _run_minigrad(case)


# ---- several outputs: what apply returns, and graphs through them --------------------------


class Split(Function):
    """(2a, a^2): two outputs recorded by one Context; backward written in shared ops."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a, scale=1.0):
        ctx.save_for_backward(a)
        ctx.scale = scale
        return a * (2 * scale), a * a

    @staticmethod
    def backward(ctx, g1, g2):
        # d(2 s a)/da = 2 s, d(a^2)/da = 2a
        (a,) = ctx.saved_tensors
        return g1 * (2 * ctx.scale) + g2 * 2 * a


def test_several_outputs_share_one_grad_fn_and_take_keyword_options():
    x = mg.tensor(A.copy(), requires_grad=True)
    p, q = Split.apply(x, scale=3.0)
    assert p._ctx is q._ctx is not None
    np.testing.assert_allclose(p.data, 6 * A)
    (p.sum() + q.sum()).backward()
    np.testing.assert_allclose(x.grad.data, 6 + 2 * A)
    with mg.no_grad():
        p, q = Split.apply(x, scale=3.0)
    assert p._ctx is None and q._ctx is None and not p.requires_grad


def test_several_outputs_second_derivative():
    # y = S1 S2 with S1 = sum(2a), S2 = sum(a^2): dy/da_i = 2 S2 + 2 S1 a_i, and the sum
    # of that over i, differentiated in a_j: 4 n a_j + 8 sum(a)
    x = mg.tensor(A.astype(np.float64), requires_grad=True)
    assert mg.gradgradcheck(lambda a: Split.apply(a)[0] * Split.apply(a)[1], [x])
    p, q = Split.apply(x)
    (gx,) = mg.autograd.grad(p.sum() * q.sum(), x, create_graph=True)
    (hx,) = mg.autograd.grad(gx.sum(), x)
    a = A.astype(np.float64)
    np.testing.assert_allclose(hx.data, 8 * a.sum() + 4 * a.size * a)


def test_several_outputs_under_the_profiler():
    x = mg.tensor(A.copy(), requires_grad=True)
    with mg.profile() as prof:
        p, q = Split.apply(x)
        (p.sum() + q.sum()).backward()
    np.testing.assert_allclose(x.grad.data, 2 + 2 * A)
    assert prof.stats()["Split"].backward_calls == 1


def test_an_output_of_several_written_in_place_is_refused_at_backward():
    # PyTorch rebases that output's history; minigrad cannot yet, and says so
    x = mg.tensor(A.copy(), requires_grad=True)
    p, q = Split.apply(x)
    p.mul_(2)
    with pytest.raises(RuntimeError, match="an output of Split, a Function with several "
                       "outputs, was written in place"):
        (p.sum() + q.sum()).backward()
    assert x.grad is None


def test_several_outputs_freed_after_backward():
    x = mg.tensor(A.copy(), requires_grad=True)
    p, q = Split.apply(x)
    (p.sum() + q.sum()).backward()
    with pytest.raises(RuntimeError, match="second time"):
        (p.sum() + q.sum()).backward()


# ---- a backward declared differentiable that loses its graph ------------------------------


class NumpyCube(Function):
    """a^3 whose backward multiplies with np.multiply: under create_graph the gradient it
    returns is a plain array, with no graph."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a**3

    @staticmethod
    def backward(ctx, grad):
        # d(a^3)/da = 3 a^2, multiplied by NumPy (loses the graph on purpose)
        (a,) = ctx.saved_tensors
        return np.multiply(grad, 3 * a * a)


def test_plain_backward_of_a_numpy_backward_is_fine():
    x = mg.tensor(A.astype(np.float64), requires_grad=True)
    NumpyCube.apply(x).sum().backward()
    np.testing.assert_allclose(x.grad.data, 3 * A.astype(np.float64) ** 2)


class DataCube(Function):
    """a^3 whose backward computes on ``.data``: under create_graph the gradient it returns is
    a plain array, with no graph, although NumPy never read a Tensor."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a**3

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return np.asarray(grad.data) * 3 * a.data * a.data


@pytest.mark.parametrize("fn, message", [
    (NumpyCube, (r"NumPy function read a Tensor that requires grad inside a backward recorded "
                r"with create_graph=True")),
    (DataCube, (r"DataCube\.backward returned a gradient with no graph at index 0 \(an input "
               r"of shape \[2, 3\] that requires grad\)")),
], ids=["numpy reads a tensor", "returns an array"])
@pytest.mark.parametrize("how", ["gradgradcheck", "grad_outputs that require grad",
                                 "an op before it"])
def test_numpy_in_a_differentiable_backward_is_refused(how, fn, message):
    x = mg.tensor(A.astype(np.float64), requires_grad=True)
    with pytest.raises(RuntimeError, match=message):
        if how == "gradgradcheck":
            mg.gradgradcheck(lambda a: fn.apply(a), [x])
        elif how == "grad_outputs that require grad":
            v = mg.tensor(np.ones(A.shape), requires_grad=True)
            mg.autograd.grad(fn.apply(x), x, grad_outputs=v, create_graph=True)
        else:  # the incoming gradient has a graph through x: d(x^2 ...)/dx
            mg.autograd.grad((fn.apply(x) * x).sum(), x, create_graph=True)

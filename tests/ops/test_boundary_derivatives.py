"""Derivatives at the boundary points of their formulas, first and second order, against
PyTorch's values recorded as literals (so the check runs without PyTorch).

Finite differences mean nothing at a kink (relu at 0, clamp at a bound) or where a formula
divides by zero (pow at a zero base, log and binary cross-entropy at probabilities 0 and 1,
a norm of zeros), and those are exactly the points where a one-line bug in a derivative
hides: each case here puts an op at such a point and compares the value, the first
derivatives (by the plain backward and through ``create_graph``) and the second
derivatives with PyTorch's (``tests/derivative_oracle.py`` says how each is computed).

``EXPECTED`` at the end of this file was produced by running this file with PyTorch
installed (``PYTHONPATH=tests .venv/bin/python tests/ops/test_boundary_derivatives.py``), which rewrites it
from ``CASES``; with PyTorch importable, ``test_live_pytorch`` also recomputes each case
in PyTorch. A case without a recorded entry fails ``test_every_case_is_recorded``.
"""

from __future__ import annotations

import pytest
from derivative_oracle import (
    C,
    I,
    X,
    assert_differs,
    assert_recorded,
    derivatives,
    minigrad_lib,
    regenerate,
    with_differences,
)

inf, nan = float("inf"), float("nan")

EXPONENTS = (0, 0.5, 1, 2, 3, -1, 1.5, -0.5)


def _cases() -> dict:
    cases: dict = {}

    def add(name, fn, *spec):
        cases[name] = (fn, list(spec))

    # pow: zero (and negative) bases against every kind of exponent
    n = len(EXPONENTS)
    add("pow: tensor ** tensor at a = 0", lambda L, a, b: a ** b,
        X([0.0] * n), X([float(b) for b in EXPONENTS]))
    add("pow: tensor ** constant tensor at a = 0", lambda L, a, b: a ** b,
        X([0.0] * n), C([float(b) for b in EXPONENTS]))
    add("pow: tensor ** int64 tensor at a = 0", lambda L, a, b: a ** b,
        X([0.0] * 5 + [-2.0] * 3), I([0, 1, 2, 3, -1, 2, 3, -1]))
    add("pow: negative and positive bases, integer-valued exponents", lambda L, a, b: a ** b,
        X([-2.0, -2.0, -1.0, 2.0, -0.5]), X([2.0, 3.0, 0.0, -1.0, -2.0]))
    for p in EXPONENTS:
        for exp in (p, float(p)) if float(p).is_integer() else (p,):
            add(f"pow: tensor ** {exp!r} at 0 and away", lambda L, a, e=exp: a ** e,
                X([0.0, 1.5, -1.5]))
    add("pow: scalar base ** tensor", lambda L, b: 2.0 ** b, X([0.0, -1.0, 0.5]))
    add("pow: 0.0 ** tensor (d/db at a zero base)", lambda L, b: 0.0 ** b,
        X([0.0, 0.5, 1.0, 2.0, -1.0]))
    add("pow: m.pow(tensor, 2) at 0", lambda L, a: L.m.pow(a, 2), X([0.0, -1.0]))
    # roots, logs and reciprocals at 0
    add("sqrt at 0", lambda L, a: a.sqrt(), X([0.0, 4.0]))
    add("rsqrt at 0", lambda L, a: a.rsqrt(), X([0.0, 4.0]))
    add("log at 0", lambda L, a: a.log(), X([0.0, 2.0]))
    add("log1p at -1", lambda L, a: a.log1p(), X([-1.0, 0.0]))
    add("reciprocal at 0", lambda L, a: a.reciprocal(), X([0.0, 2.0]))
    # corners: abs, relu and friends at 0, clamps at their bounds
    add("abs at 0 and -0.0", lambda L, a: a.abs() * a, X([0.0, -0.0, -2.0]))
    add("relu at 0", lambda L, a: a.relu(), X([0.0, -1.0, 1.0]))
    add("F.relu at 0", lambda L, a: L.F.relu(a) * a, X([0.0, -1.0, 1.0]))
    add("leaky_relu at 0", lambda L, a: L.F.leaky_relu(a, 0.2), X([0.0, -1.0, 1.0]))
    add("elu at 0", lambda L, a: L.F.elu(a, 1.5) * a, X([0.0, -1.0, 1.0]))
    add("celu at 0", lambda L, a: L.F.celu(a, 2.0) * a, X([0.0, -1.0, 1.0]))
    add("selu at 0", lambda L, a: L.F.selu(a) * a, X([0.0, -1.0, 1.0]))
    add("softplus at its threshold", lambda L, a: L.F.softplus(a, beta=2.0, threshold=3.0),
        X([1.5, 1.5000001, 1.4999999, -20.0]))
    add("clamp at both bounds", lambda L, a: a.clamp(-0.5, 0.75),
        X([-0.5, 0.75, -0.6, 0.8, 0.0]))
    add("clamp at min only", lambda L, a: a.clamp(min=-0.5), X([-0.5, -0.6, 3.0]))
    add("clamp at max only", lambda L, a: a.clamp(max=0.75), X([0.75, 0.8, -3.0]))
    add("clamp with min == max", lambda L, a: a.clamp(0.5, 0.5), X([0.5, 0.4, 0.6]))
    # an infinite gradient arriving where the mask is 0 gives 0 (PyTorch selects, not 0 * inf)
    add("relu with an infinite gradient at a zeroed input",
        lambda L, a, c: a.relu() * c, X([-1.0, 0.0, 2.0]), C([inf, inf, 1.0]))
    add("clamp with an infinite gradient outside the bounds",
        lambda L, a, c: a.clamp(-0.5, 0.75) * c, X([-1.0, 0.0, 2.0]), C([inf, 1.0, inf]))
    add("clamp squared at the bounds", lambda L, a: a.clamp(-0.5, 0.75) * a,
        X([-0.5, 0.75, 0.1]))
    add("hardtanh at its bounds", lambda L, a: L.F.hardtanh(a) * a, X([-1.0, 1.0, 0.5, 2.0]))
    add("hardtanh(-2, 3) at its bounds", lambda L, a: L.F.hardtanh(a, -2.0, 3.0),
        X([-2.0, 3.0, 0.5, -2.5]))
    add("relu6 at 0 and 6", lambda L, a: L.F.relu6(a) * a, X([0.0, 6.0, 3.0, 7.0]))
    add("hardsigmoid at -3 and 3", lambda L, a: L.F.hardsigmoid(a) * a,
        X([-3.0, 3.0, 0.0, 4.0]))
    add("hardswish at -3 and 3", lambda L, a: L.F.hardswish(a), X([-3.0, 3.0, 0.0, -4.0]))
    # ties
    add("maximum ties", lambda L, a, b: L.m.maximum(a, b) * a,
        X([1.0, 2.0, 0.0]), X([1.0, 1.0, 3.0]))
    add("minimum ties", lambda L, a, b: L.m.minimum(a, b) * b,
        X([1.0, 2.0, 0.0]), X([1.0, 1.0, 3.0]))
    add("amax ties over a dim", lambda L, a: a.amax(1) ** 2, X([[1.0, 1.0, 0.0], [2.0, 2.0, 2.0]]))
    add("amin ties over a dim", lambda L, a: a.amin(0) ** 2, X([[1.0, 0.0], [1.0, 0.0]]))
    add("max() ties over everything", lambda L, a: a.max() ** 2, X([[1.0, 1.0], [0.0, 1.0]]))
    add("min() ties over everything", lambda L, a: a.min() ** 2, X([[0.0, 1.0], [0.0, 0.5]]))
    add("max(dim).values ties", lambda L, a: a.max(1)[0] ** 2, X([[1.0, 1.0, 0.0]]))
    add("min(dim).values ties", lambda L, a: a.min(0)[0] ** 2, X([[0.0, 1.0], [0.0, 2.0]]))
    # norms at zero and at ties
    for p in (2, 1, 3, inf):
        add(f"norm p={p} of zeros", lambda L, a, p=p: a.norm(p, 1),
            X([[0.0, 0.0], [3.0, -4.0]]))
    add("norm p=inf ties", lambda L, a: a.norm(inf), X([1.0, -1.0, 0.5]))
    add("normalize a zero row", lambda L, a: L.F.normalize(a, dim=1),
        X([[0.0, 0.0], [3.0, 4.0]]))
    add("l1_loss at zero difference", lambda L, a, t: L.F.l1_loss(a, t, reduction="none"),
        X([0.5, 1.0]), C([0.5, 2.0]))
    # reductions whose formulas divide by the result or by a count
    add("std of a constant row", lambda L, a: a.std(1), X([[1.0, 1.0, 1.0], [0.0, 1.0, 2.0]]))
    add("prod with one and two zeros", lambda L, a: a.prod(1),
        X([[0.0, 2.0, 3.0], [0.0, 0.0, 3.0]]))
    add("cumprod with zeros", lambda L, a: a.cumprod(1), X([[2.0, 0.0, 3.0, 0.0]]))
    add("logsumexp with -inf entries", lambda L, a: a.logsumexp(1),
        X([[0.0, -inf], [1.0, 2.0]]))
    add("remainder at multiples of the divisor", lambda L, a, b: a % b,
        X([4.0, -4.0, 3.0]), X([2.0, 2.0, -1.5]))
    add("atan2 at the origin and on the axes", lambda L, a, b: L.m.atan2(a, b),
        X([0.0, 1.0, 0.0, -0.0]), X([0.0, 0.0, 2.0, -1.0]))
    add("copysign at 0 and -0.0", lambda L, a, b: L.m.copysign(a, b) * a,
        X([0.0, 2.0, -2.0, 0.0]), X([1.0, -0.0, -0.0, -1.0]))
    # probabilities 0 and 1
    add("binary_cross_entropy at p = 0 and 1",
        lambda L, p, t: L.F.binary_cross_entropy(p, t, reduction="none"),
        X([0.0, 0.0, 0.0, 1.0, 1.0, 1.0]), X([0.0, 0.5, 1.0, 0.0, 0.5, 1.0]))
    add("binary_cross_entropy at p = 0 and 1, constant target",
        lambda L, p, t: L.F.binary_cross_entropy(p, t),
        X([0.0, 1.0, 0.0, 1.0]), C([0.0, 1.0, 1.0, 0.0]))
    add("binary_cross_entropy_with_logits at 0 and far out",
        lambda L, x, t: L.F.binary_cross_entropy_with_logits(x, t, reduction="none"),
        X([-800.0, 800.0, 0.0]), X([1.0, 0.0, 0.5]))
    add("cross_entropy with probability 0 and 1 classes",
        lambda L, x, t: L.F.cross_entropy(x, t, reduction="none"),
        X([[0.0, -inf, 1.0], [0.0, -1000.0, -1000.0]]), I([0, 0]))
    add("nll_loss of log-probabilities 0 and -inf",
        lambda L, x, t: L.F.nll_loss(x, t, reduction="sum"),
        X([[0.0, -inf], [-inf, 0.0]]), I([0, 0]))
    add("log_softmax with -inf entries", lambda L, a: L.F.log_softmax(a, -1)[:, 0],
        X([[0.5, -inf, 1.0], [0.0, -inf, -inf]]))
    add("softmax with -inf entries", lambda L, a: L.F.softmax(a, -1) ** 2,
        X([[0.5, -inf, 1.0], [0.0, -inf, -inf]]))
    return cases


CASES = _cases()

# Second derivatives where minigrad deliberately differs from PyTorch, each with why, and
# minigrad's own numbers (so a change to them is still caught). First derivatives and
# values always equal PyTorch's.
SECOND_ORDER_DIFFERENCES = {
    "pow: negative and positive bases, integer-valued exponents": (
        ("at b = 0 PyTorch masks d(a**b)/da by where(b == 0, 0, ...), which also hides that "
        "term's derivative in b (its Hessian is not symmetric there, and the masked branch "
        "turns log(a < 0) = nan into a number); minigrad masks only a == b == 0"),
        [[nan, nan, nan, -0.31572178445854066, nan], [nan, nan, nan, -0.7415234799043294, nan]]),
    "softplus at its threshold": (
        ("at beta x == threshold exactly PyTorch's first derivative takes the smooth branch "
        "and its second derivative the linear one; minigrad differentiates the smooth "
        "branch both times"),
        [[0.06324732362327697, 0.0, 0.013553000372768291, -2.9738479787041117e-18]]),
    "norm p=2 of zeros": (
        ("the Hessian of ||x|| at 0 does not exist; PyTorch gives nan, minigrad divides by 1 "
        "where the norm is 0 so that no nan enters a higher derivative (Norm2.backward)"),
        [[0.7, 0.39999999999999997, -0.008, -0.0059999999999999915]]),
    "normalize a zero row": (
        "the norm's second derivative at 0 (see 'norm p=2 of zeros'), masked by the clamp",
        [[0.0, 0.0, -0.014959999999999998, 0.009719999999999996]]),
    "atan2 at the origin and on the axes": (
        ("atan2's Hessian at the origin does not exist; PyTorch's first derivative is 0 there "
        "and its second nan, minigrad divides by 1 there so that no nan enters a higher "
        "derivative (as Norm2)"),
        [[0.0, -1.0, 0.4125, 2.45], [0.0, 0.49999999999999994, -0.03749999999999999,
                                     0.3499999999999999]]),
    "copysign at 0 and -0.0": (
        ("a * copysign(a, b) has a corner at a = 0; PyTorch's double backward divides the "
        "result by a there (nan), minigrad gives 0, the derivative of its first derivative"),
        [[0.0, -0.9999999999999999, 0.29999999999999993, 0.0], [0.0, 0.0, 0.0, 0.0]]),
    "binary_cross_entropy at p = 0 and 1": (
        ("PyTorch's second-derivative formulas floor p (1 - p) differently from its first "
        "derivative ((p + eps)**2 (1 - p + eps)**2, and a float64 eps where the first uses "
        "float32's); minigrad differentiates its first derivative"),
        [[inf, inf, inf, inf, inf, inf],
         [-700000002797.0619, -500000001997.90137, -150000000599.3704, 350000001398.5309,
          1000000003995.8029, 1800000007192.4453]]),
    "binary_cross_entropy at p = 0 and 1, constant target": (
        "as 'binary_cross_entropy at p = 0 and 1'",
        [[175000000699.26547, 100000000399.58028, 25000000099.895065, -50000000199.79013]]),
}


def test_every_op_with_a_kink_has_a_case():
    """Every Function that tests/ops/test_gradgrad_every_op.py checks at a kink (its
    stated convention there) is in the graph of a case here, held to PyTorch's numbers."""
    import test_gradgrad_every_op as every_op

    from minigrad.engine import topological_order

    kinks = {op for op, cases in every_op.CASES.items() if any(c.expect is not None
                                                                for c in cases)}
    lib, seen = minigrad_lib(), set()
    for fn, spec in CASES.values():
        out = fn(lib, *[lib.make(s) for s in spec])
        outs = list(out) if isinstance(out, tuple) else [out]
        seen |= {t._ctx.fn.__name__ for t in topological_order(outs) if t._ctx is not None}
    assert not kinks - seen, f"ops with a kink but no boundary case: {sorted(kinks - seen)}"


def test_every_case_is_recorded():
    """A case without PyTorch's numbers (or numbers for a case that is gone) fails here:
    rerun this file with PyTorch installed to record them."""
    assert sorted(CASES) == sorted(EXPECTED)


@pytest.mark.parametrize("name", list(CASES))
def test_matches_recorded_pytorch(name):
    fn, spec = CASES[name]
    expected = with_differences(EXPECTED[name], SECOND_ORDER_DIFFERENCES.get(name))
    assert_recorded(derivatives(minigrad_lib(), fn, spec), expected)


@pytest.mark.parametrize("name", list(SECOND_ORDER_DIFFERENCES))
def test_each_difference_is_real(name):
    assert_differs(SECOND_ORDER_DIFFERENCES[name], EXPECTED[name])


@pytest.mark.parametrize("name", list(CASES))
def test_live_pytorch(name):
    """PyTorch still gives the recorded numbers (a newer PyTorch changing a convention
    shows up here, not as a minigrad failure)."""
    pytest.importorskip("torch")
    from derivative_oracle import torch_lib

    fn, spec = CASES[name]
    assert_recorded(derivatives(torch_lib(), fn, spec), EXPECTED[name])


if __name__ == "__main__":
    regenerate(__file__, CASES)

# recorded from PyTorch by running this file:
# torch 2.13.0+cpu
EXPECTED = {
    'pow: tensor ** tensor at a = 0': {
        'value': [1.0, 0.0, 0.0, 0.0, 0.0, inf, 0.0, inf],
        'grad': [[0.0, inf, 1.5, 0.0, 0.0, -inf, 0.0, -inf], [0.0, 0.0, 0.0, 0.0, 0.0, -inf, 0.0, -inf]],
        'gradgrad': [[nan, nan, nan, nan, nan, -inf, nan, -inf], [nan, nan, nan, nan, nan, -inf, nan, -inf]],
    },
    'pow: tensor ** constant tensor at a = 0': {
        'value': [1.0, 0.0, 0.0, 0.0, 0.0, inf, 0.0, inf],
        'grad': [[0.0, inf, 1.5, 0.0, 0.0, -inf, 0.0, -inf]],
        'gradgrad': [[nan, -inf, 0.0, -0.6999999999999998, -0.0, -inf, -inf, -inf]],
    },
    'pow: tensor ** int64 tensor at a = 0': {
        'value': [1.0, 0.0, 0.0, 0.0, inf, 4.0, -8.0, -0.5],
        'grad': [[0.0, 1.25, 0.0, 0.0, -inf, -9.0, 30.0, -0.6875]],
        'gradgrad': [[nan, 0.0, 0.29999999999999993, -0.0, -inf, -3.6, 32.99999999999999, 0.9625000000000001]],
    },
    'pow: negative and positive bases, integer-valued exponents': {
        'value': [4.0, -8.0, 1.0, 0.5, 4.0],
        'grad': [[-4.0, 15.0, 0.0, -0.4375, 32.0], [nan, nan, nan, 0.6065037829899521, nan]],
        'gradgrad': [[nan, nan, 2.1, -0.3157217844585407, nan], [nan, nan, nan, -0.7415234799043294, nan]],
    },
    'pow: tensor ** 0 at 0 and away': {
        'value': [1.0, 1.0, 1.0],
        'grad': [[0.0, 0.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.0]],
    },
    'pow: tensor ** 0.0 at 0 and away': {
        'value': [1.0, 1.0, 1.0],
        'grad': [[0.0, 0.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.0]],
    },
    'pow: tensor ** 0.5 at 0 and away': {
        'value': [0.0, 1.224744871391589, nan],
        'grad': [[inf, 0.5103103630798288, nan]],
        'gradgrad': [[-inf, -0.06804138174397716, nan]],
    },
    'pow: tensor ** 1 at 0 and away': {
        'value': [0.0, 1.5, -1.5],
        'grad': [[1.0, 1.25, 1.5]],
        'gradgrad': [[0.0, 0.0, 0.0]],
    },
    'pow: tensor ** 1.0 at 0 and away': {
        'value': [0.0, 1.5, -1.5],
        'grad': [[1.0, 1.25, 1.5]],
        'gradgrad': [[0.0, 0.0, 0.0]],
    },
    'pow: tensor ** 2 at 0 and away': {
        'value': [0.0, 2.25, 2.25],
        'grad': [[0.0, 3.75, -4.5]],
        'gradgrad': [[1.4, 0.9999999999999999, 0.29999999999999993]],
    },
    'pow: tensor ** 2.0 at 0 and away': {
        'value': [0.0, 2.25, 2.25],
        'grad': [[0.0, 3.75, -4.5]],
        'gradgrad': [[1.4, 0.9999999999999999, 0.29999999999999993]],
    },
    'pow: tensor ** 3 at 0 and away': {
        'value': [0.0, 3.375, -3.375],
        'grad': [[0.0, 8.4375, 10.125]],
        'gradgrad': [[0.0, 4.499999999999999, -1.3499999999999996]],
    },
    'pow: tensor ** 3.0 at 0 and away': {
        'value': [0.0, 3.375, -3.375],
        'grad': [[0.0, 8.4375, 10.125]],
        'gradgrad': [[0.0, 4.499999999999999, -1.3499999999999996]],
    },
    'pow: tensor ** -1 at 0 and away': {
        'value': [inf, 0.6666666666666666, -0.6666666666666666],
        'grad': [[-inf, -0.5555555555555556, -0.6666666666666666]],
        'gradgrad': [[inf, 0.2962962962962962, -0.08888888888888886]],
    },
    'pow: tensor ** -1.0 at 0 and away': {
        'value': [inf, 0.6666666666666666, -0.6666666666666666],
        'grad': [[-inf, -0.5555555555555556, -0.6666666666666666]],
        'gradgrad': [[inf, 0.2962962962962962, -0.08888888888888886]],
    },
    'pow: tensor ** 1.5 at 0 and away': {
        'value': [0.0, 1.8371173070873836, nan],
        'grad': [[0.0, 2.296396633859229, nan]],
        'gradgrad': [[inf, 0.30618621784789724, nan]],
    },
    'pow: tensor ** -0.5 at 0 and away': {
        'value': [inf, 0.8164965809277261, nan],
        'grad': [[-inf, -0.34020690871988585, nan]],
        'gradgrad': [[inf, 0.1360827634879543, nan]],
    },
    'pow: scalar base ** tensor': {
        'value': [1.0, 0.5, 1.4142135623730951],
        'grad': [[0.6931471805599453, 0.4332169878499658, 1.4703872152028208]],
        'gradgrad': [[0.3363171097427409, 0.12011325347955033, 0.10191947525492245]],
    },
    'pow: 0.0 ** tensor (d/db at a zero base)': {
        'value': [1.0, 0.0, 0.0, 0.0, inf],
        'grad': [[0.0, 0.0, 0.0, 0.0, -inf]],
        'gradgrad': [[nan, nan, nan, nan, -inf]],
    },
    'pow: m.pow(tensor, 2) at 0': {
        'value': [0.0, 1.0],
        'grad': [[0.0, -2.5]],
        'gradgrad': [[1.4, 0.9999999999999999]],
    },
    'sqrt at 0': {
        'value': [0.0, 2.0],
        'grad': [[inf, 0.3125]],
        'gradgrad': [[-inf, -0.015624999999999998]],
    },
    'rsqrt at 0': {
        'value': [inf, 0.5],
        'grad': [[-inf, -0.078125]],
        'gradgrad': [[inf, 0.011718749999999998]],
    },
    'log at 0': {
        'value': [-inf, 0.6931471805599453],
        'grad': [[inf, 0.625]],
        'gradgrad': [[-inf, -0.12499999999999999]],
    },
    'log1p at -1': {
        'value': [-inf, 0.0],
        'grad': [[inf, 1.25]],
        'gradgrad': [[-inf, -0.49999999999999994]],
    },
    'reciprocal at 0': {
        'value': [inf, 0.5],
        'grad': [[-inf, -0.3125]],
        'gradgrad': [[inf, 0.12499999999999999]],
    },
    'abs at 0 and -0.0': {
        'value': [0.0, -0.0, -4.0],
        'grad': [[0.0, 0.0, 6.0]],
        'gradgrad': [[0.0, 0.0, -0.29999999999999993]],
    },
    'relu at 0': {
        'value': [0.0, 0.0, 1.0],
        'grad': [[0.0, 0.0, 1.5]],
        'gradgrad': [[0.0, 0.0, 0.0]],
    },
    'F.relu at 0': {
        'value': [0.0, -0.0, 1.0],
        'grad': [[0.0, 0.0, 3.0]],
        'gradgrad': [[0.0, 0.0, 0.29999999999999993]],
    },
    'leaky_relu at 0': {
        'value': [0.0, -0.2, 1.0],
        'grad': [[0.2, 0.25, 1.5]],
        'gradgrad': [[0.0, 0.0, 0.0]],
    },
    'elu at 0': {
        'value': [0.0, 0.9481808382428365, 1.0],
        'grad': [[0.0, -1.875, 3.0]],
        'gradgrad': [[2.0999999999999996, 0.27590958087858175, 0.29999999999999993]],
    },
    'celu at 0': {
        'value': [0.0, 0.7869386805747332, 1.0],
        'grad': [[0.0, -1.7418366753592083, 3.0]],
        'gradgrad': [[1.4, 0.454897994784475, 0.29999999999999993]],
    },
    'selu at 0': {
        'value': [0.0, 1.1113307378125625, 1.0507009873554805],
        'grad': [[0.0, -2.197624176059221, 3.1521029620664414]],
        'gradgrad': [[2.4613390771863273, 0.323384301517407, 0.3152102962066441]],
    },
    'softplus at its threshold': {
        'value': [1.524293675786871, 1.5000001, 1.5242935805294588, 2.1241771276457944e-18],
        'grad': [[0.9525741268224333, 1.25, 1.4288611766806505, 7.434619946760281e-18]],
        'gradgrad': [[0.0, 0.0, 0.01355300037276829, -2.9738479787041117e-18]],
    },
    'clamp at both bounds': {
        'value': [-0.5, 0.75, -0.5, 0.75, 0.0],
        'grad': [[1.0, 1.25, 0.0, 0.0, 2.0]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'clamp at min only': {
        'value': [-0.5, -0.5, 3.0],
        'grad': [[1.0, 0.0, 1.5]],
        'gradgrad': [[0.0, 0.0, 0.0]],
    },
    'clamp at max only': {
        'value': [0.75, 0.75, -3.0],
        'grad': [[1.0, 0.0, 1.5]],
        'gradgrad': [[0.0, 0.0, 0.0]],
    },
    'clamp with min == max': {
        'value': [0.5, 0.5, 0.5],
        'grad': [[1.0, 0.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.0]],
    },
    'relu with an infinite gradient at a zeroed input': {
        'value': [nan, nan, 2.0],
        'grad': [[0.0, 0.0, 1.5]],
        'gradgrad': [[0.0, 0.0, 0.0]],
    },
    'clamp with an infinite gradient outside the bounds': {
        'value': [-inf, 0.0, inf],
        'grad': [[0.0, 1.25, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.0]],
    },
    'clamp squared at the bounds': {
        'value': [0.25, 0.5625, 0.010000000000000002],
        'grad': [[-1.0, 1.875, 0.30000000000000004]],
        'gradgrad': [[1.4, 0.9999999999999999, 0.29999999999999993]],
    },
    'hardtanh at its bounds': {
        'value': [1.0, 1.0, 0.25, 2.0],
        'grad': [[-1.0, 1.25, 1.5, 1.75]],
        'gradgrad': [[0.0, 0.0, 0.29999999999999993, 0.0]],
    },
    'hardtanh(-2, 3) at its bounds': {
        'value': [-2.0, 3.0, 0.5, -2.0],
        'grad': [[0.0, 0.0, 1.5, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0]],
    },
    'relu6 at 0 and 6': {
        'value': [0.0, 36.0, 9.0, 42.0],
        'grad': [[0.0, 7.5, 9.0, 10.5]],
        'gradgrad': [[0.0, 0.0, 0.29999999999999993, 0.0]],
    },
    'hardsigmoid at -3 and 3': {
        'value': [-0.0, 3.0, 0.0, 4.0],
        'grad': [[0.0, 1.25, 0.75, 1.75]],
        'gradgrad': None,
    },
    'hardswish at -3 and 3': {
        'value': [-0.0, 3.0, 0.0, -0.0],
        'grad': [[0.0, 1.25, 0.75, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.04999999999999999, 0.0]],
    },
    'maximum ties': {
        'value': [1.0, 4.0, 0.0],
        'grad': [[1.5, 5.0, 4.5], [0.5, 0.0, 0.0]],
        'gradgrad': [[0.6, 0.9999999999999999, -1.2000000000000002], [0.35, 0.0, 0.14999999999999997]],
    },
    'minimum ties': {
        'value': [1.0, 1.0, 0.0],
        'grad': [[0.5, 0.0, 4.5], [1.5, 2.5, 0.0]],
        'gradgrad': [[-0.09999999999999998, 0.0, -1.2000000000000002], [0.15000000000000002, -1.25, 0.14999999999999997]],
    },
    'amax ties over a dim': {
        'value': [1.0, 4.0],
        'grad': [[1.0, 1.0, 0.0, 1.6666666666666667, 1.6666666666666667, 1.6666666666666667]],
        'gradgrad': [[0.5499999999999999, 0.5499999999999999, 0.0, -0.4166666666666667, -0.4166666666666667, -0.4166666666666667]],
    },
    'amin ties over a dim': {
        'value': [1.0, 0.0],
        'grad': [[1.0, 0.0, 1.0, 0.0]],
        'gradgrad': [[0.39999999999999997, 0.125, 0.39999999999999997, 0.125]],
    },
    'max() ties over everything': {
        'value': [1.0],
        'grad': [[0.6666666666666666, 0.6666666666666666, 0.0, 0.6666666666666666]],
        'gradgrad': [[0.19999999999999998, 0.19999999999999998, 0.0, 0.19999999999999998]],
    },
    'min() ties over everything': {
        'value': [0.0],
        'grad': [[0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.39999999999999997, 0.0, 0.39999999999999997, 0.0]],
    },
    'max(dim).values ties': {
        'value': [1.0],
        'grad': [[2.0, 0.0, 0.0]],
        'gradgrad': [[1.4, 0.0, 0.0]],
    },
    'min(dim).values ties': {
        'value': [0.0, 1.0],
        'grad': [[0.0, 2.5, 0.0, 0.0]],
        'gradgrad': [[1.4, 0.9999999999999999, 0.0, 0.0]],
    },
    'norm p=2 of zeros': {
        'value': [0.0, 5.0],
        'grad': [[0.0, 0.0, 0.75, -1.0]],
        'gradgrad': [[nan, nan, -0.008, -0.0059999999999999915]],
    },
    'norm p=1 of zeros': {
        'value': [0.0, 7.0],
        'grad': [[0.0, 0.0, 1.25, -1.25]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0]],
    },
    'norm p=3 of zeros': {
        'value': [0.0, 4.497941445275415],
        'grad': [[0.0, 0.0, 0.5560641896631695, -0.9885585594011902]],
        'gradgrad': [[0.0, 0.0, -0.013035937047048668, -0.00977695278528648]],
    },
    'norm p=inf of zeros': {
        'value': [0.0, 4.0],
        'grad': [[0.0, 0.0, 0.0, -1.25]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0]],
    },
    'norm p=inf ties': {
        'value': [1.0],
        'grad': [[0.5, -0.5, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.0]],
    },
    'normalize a zero row': {
        'value': [0.0, 0.0, 0.6, 0.8],
        'grad': [[1000000000000.0, 1250000000000.0, 0.023999999999999966, -0.01800000000000007]],
        'gradgrad': [[nan, nan, -0.014959999999999998, 0.009719999999999996]],
    },
    'l1_loss at zero difference': {
        'value': [0.0, 1.0],
        'grad': [[0.0, -1.25]],
        'gradgrad': [[0.0, 0.0]],
    },
    'std of a constant row': {
        'value': [0.0, 1.0],
        'grad': [[0.0, 0.0, 0.0, -0.625, 0.0, 0.625]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 2.7755575615628914e-17]],
    },
    'prod with one and two zeros': {
        'value': [0.0, 0.0],
        'grad': [[6.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[1.4, 2.0999999999999996, 1.3999999999999997, -1.875, -0.7499999999999998, 0.0]],
    },
    'cumprod with zeros': {
        'value': [2.0, 0.0, 0.0, 0.0],
        'grad': [[1.0, 11.5, 0.0, 0.0]],
        'gradgrad': [[2.3, 2.2249999999999996, 1.2, 4.199999999999999]],
    },
    'logsumexp with -inf entries': {
        'value': [0.0, 2.313261687518223],
        'grad': [[1.0, 0.0, 0.3361767767124938, 0.913823223287506]],
        'gradgrad': [[0.0, 0.0, 0.07372947496555565, -0.07372947496555568]],
    },
    'remainder at multiples of the divisor': {
        'value': [0.0, -0.0, 0.0],
        'grad': [[1.0, 1.25, 1.5], [-2.0, 2.5, 3.0]],
        'gradgrad': [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
    },
    'atan2 at the origin and on the axes': {
        'value': [0.0, 1.5707963267948966, 0.0, -3.141592653589793],
        'grad': [[0.0, 0.0, 0.75, -1.75], [-0.0, -1.25, -0.0, 0.0]],
        'gradgrad': [[nan, -1.0, 0.4125, 2.45], [nan, 0.49999999999999994, -0.03749999999999999, 0.3499999999999999]],
    },
    'copysign at 0 and -0.0': {
        'value': [0.0, -4.0, 4.0, -0.0],
        'grad': [[0.0, -5.0, -6.0, 0.0], [0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[nan, -0.9999999999999999, 0.29999999999999993, nan], [0.0, 0.0, 0.0, 0.0]],
    },
    'binary_cross_entropy at p = 0 and 1': {
        'value': [0.0, 50.0, 100.0, 100.0, 50.0, -0.0],
        'grad': [[0.0, -625000002497.3767, -1500000005993.704, 1750000006992.655, 1000000003995.8029, 0.0], [inf, inf, inf, -inf, -inf, -inf]],
        'gradgrad': [[inf, inf, inf, inf, inf, inf], [-700000000000.0, -499999999999.99994, -149999999999.99997, 349999999999.99994, 1000000000000.0, 1800000000000.0]],
    },
    'binary_cross_entropy at p = 0 and 1, constant target': {
        'value': [50.0],
        'grad': [[0.0, 0.0, -250000000998.9507, 250000000998.9507]],
        'gradgrad': [[0.0, 0.0, 2.499999999994999e+22, -4.999999999989998e+22]],
    },
    'binary_cross_entropy_with_logits at 0 and far out': {
        'value': [800.0, 800.0, 0.6931471805599453],
        'grad': [[-1.0, 1.25, 0.0], [800.0, -1000.0, -0.0]],
        'gradgrad': [[0.19999999999999996, 0.625, 1.2375000000000003], [-0.7, -0.49999999999999994, -0.14999999999999997]],
    },
    'cross_entropy with probability 0 and 1 classes': {
        'value': [1.3132616875182228, -0.0],
        'grad': [[-0.7310585786300049, 0.0, 0.7310585786300049, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.1179671599448891, 0.0, -0.11796715994488913, 0.0, 0.0, 0.0]],
    },
    'nll_loss of log-probabilities 0 and -inf': {
        'value': [inf],
        'grad': [[-1.0, 0.0, -1.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0]],
    },
    'log_softmax with -inf entries': {
        'value': [-0.9740769841801067, 0.0],
        'grad': [[0.6224593312018546, 0.0, -0.6224593312018546, 0.0, 0.0, 0.0]],
        'gradgrad': [[-0.14100222732095669, 0.0, 0.14100222732095669, 0.0, 0.0, 0.0]],
    },
    'softmax with -inf entries': {
        'value': [0.14253695659655097, 0.0, 0.3874556190002601, 1.0, 0.0, 0.0],
        'grad': [[-0.26139384323159914, -0.0, 0.26139384323159914, 0.0, -0.0, -0.0]],
        'gradgrad': [[0.12726809597868072, 0.0, -0.12726809597868075, 0.0, 0.0, 0.0]],
    },
}

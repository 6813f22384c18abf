"""Every elementwise activation (``nn.functional`` and the Tensor methods) against PyTorch at
the non-finite corners: inputs in {-inf, -large, -1, -0.0, 0, 1, large, inf, nan} times
upstream gradients in {inf, -inf, nan, 0, 1}, values and gradients, by the plain backward
and through ``create_graph``.

An activation composed of several ops sends the upstream gradient down one path per use of
its input; where one path's factor is 0 and the gradient infinite, that path is NaN and the
sum is NaN, though PyTorch's one derivative is finite or infinite there (SiLU at 0 with an
infinite gradient: PyTorch inf). And a comparison that puts NaN on the other side of a
branch than PyTorch's does gives another value or gradient at NaN. Both show here.

PyTorch is the reference one element at a time: its vectorised kernels and its scalar code
disagree on some of these points (ELU at NaN with an infinite gradient is inf from the
scalar code, NaN from the vectorised one; float32 GELU of inf is inf, or NaN), and the
scalar code is PyTorch's formula as written. ``DIFFERENCES`` lists the deliberate
differences, each with its reason; the test checks they still differ.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.nn import functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional

inf, nan = float("inf"), float("nan")
LARGE = 1e4  # e**LARGE overflows in float32 and float64
INPUTS = [-inf, -LARGE, -1.0, -0.0, 0.0, 1.0, LARGE, inf, nan]
GRADS = [inf, -inf, nan, 0.0, 1.0]

def _slope(x, value: float):
    """A (1,) weight of x's library and dtype."""
    if isinstance(x, mg.Tensor):
        return mg.tensor(np.array([value], x.dtype))
    return torch.tensor([value], dtype=x.dtype)


# name -> f(F, x): F the library's functional module, x a 1-D tensor
ACTIVATIONS = {
    "F.relu": lambda F, x: F.relu(x),
    "F.gelu": lambda F, x: F.gelu(x),
    "F.gelu(tanh)": lambda F, x: F.gelu(x, approximate="tanh"),
    "F.sigmoid": lambda F, x: F.sigmoid(x),
    "F.tanh": lambda F, x: F.tanh(x),
    "F.silu": lambda F, x: F.silu(x),
    "F.mish": lambda F, x: F.mish(x),
    "F.hardswish": lambda F, x: F.hardswish(x),
    "F.leaky_relu": lambda F, x: F.leaky_relu(x, 0.2),
    "F.prelu": lambda F, x: F.prelu(x, _slope(x, 0.25)),
    "F.elu": lambda F, x: F.elu(x, 1.5),
    "F.celu": lambda F, x: F.celu(x, 2.0),
    "F.selu": lambda F, x: F.selu(x),
    "F.softplus": lambda F, x: F.softplus(x),
    "F.softplus(beta, threshold)": lambda F, x: F.softplus(x, beta=2.0, threshold=3.0),
    "F.hardtanh": lambda F, x: F.hardtanh(x, -0.5, 2.0),
    "F.relu6": lambda F, x: F.relu6(x),
    "F.hardsigmoid": lambda F, x: F.hardsigmoid(x),
    "F.softsign": lambda F, x: F.softsign(x),
    "F.logsigmoid": lambda F, x: F.logsigmoid(x),
    "F.hardshrink": lambda F, x: F.hardshrink(x, 0.5),
    "F.softshrink": lambda F, x: F.softshrink(x, 0.5),
    "F.tanhshrink": lambda F, x: F.tanhshrink(x),
    "F.threshold": lambda F, x: F.threshold(x, 0.5, -2.0),
    "Tensor.relu": lambda F, x: x.relu(),
    "Tensor.sigmoid": lambda F, x: x.sigmoid(),
    "Tensor.tanh": lambda F, x: x.tanh(),
    # torch.Tensor has no gelu method: PyTorch's is F.gelu
    "Tensor.gelu": lambda F, x: x.gelu() if isinstance(x, mg.Tensor) else TF.gelu(x),
}

_GELU_LIMITS = ("PyTorch's slope Phi(x) + x phi(x) is inf * 0 = NaN at x = +-inf; minigrad's "
                "backend slope gives its limits, 0 at -inf and 1 at inf")
# (name, mode) -> ({(gradient, input), ...}, reason); mode "plain" or "create_graph"
DIFFERENCES = {
    (name, mode): ({(g, x) for g in (inf, -inf, 0.0, 1.0) for x in (-inf, inf)}
                   - {(inf, -inf), (-inf, -inf)}, _GELU_LIMITS)
    for name in ("F.gelu", "Tensor.gelu") for mode in ("plain", "create_graph")
}


def _torch_one_at_a_time(fn, xs, gs, dtype):
    """PyTorch's values and gradients, each element on its own (PyTorch's scalar code)."""
    ys, grads = [], []
    for x, g in zip(xs, gs):
        t = torch.tensor([x], dtype=dtype, requires_grad=True)
        y = fn(TF, t)
        y.backward(torch.tensor([g], dtype=dtype))
        ys.append(y.item())
        grads.append(t.grad.item())
    return np.array(ys), np.array(grads)


def _minigrad(fn, xs, gs, dtype, create_graph):
    x = mg.tensor(np.array(xs, dtype), requires_grad=True)
    y = fn(F, x)
    y.backward(mg.tensor(np.array(gs, dtype)), create_graph=create_graph)
    return np.asarray(y.data, np.float64), np.asarray(x.grad.data, np.float64)


def _same(a: float, b: float) -> bool:
    """Equal as PyTorch's results are compared here: both NaN, the same infinity, or finite
    and close (the sign of a zero aside)."""
    if np.isnan(a) or np.isnan(b):
        return bool(np.isnan(a) and np.isnan(b))
    if np.isinf(a) or np.isinf(b):
        return a == b
    return bool(np.isclose(a, b, rtol=1e-5, atol=1e-30))


@pytest.mark.parametrize("mode", ["plain", "create_graph"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", list(ACTIVATIONS))
def test_values_and_gradients_at_non_finite_points_match_pytorch(name, dtype, mode):
    fn = ACTIVATIONS[name]
    xs = [x for g in GRADS for x in INPUTS]
    gs = [g for g in GRADS for x in INPUTS]
    ty, tg = _torch_one_at_a_time(fn, xs, gs, getattr(torch, np.dtype(dtype).name))
    with np.errstate(all="ignore"):
        my, mg_ = _minigrad(fn, xs, gs, dtype, mode == "create_graph")
    expected_differences, _reason = DIFFERENCES.get((name, mode), (set(), ""))
    wrong, stale = [], []
    for i, (x, g) in enumerate(zip(xs, gs)):
        if not _same(my[i], ty[i]):
            wrong.append(f"{name}({x}) = {my[i]}, PyTorch {ty[i]}")
        agrees = _same(mg_[i], tg[i])
        if (g, x) in expected_differences:
            if agrees:
                stale.append(f"gradient {g} at {x}: listed as a difference, but agrees")
        elif not agrees:
            wrong.append(f"gradient {g} at {x}: {mg_[i]}, PyTorch {tg[i]}")
    assert not wrong, "\n".join(wrong)
    assert not stale, "\n".join(stale)

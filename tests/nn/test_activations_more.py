"""Issue 27's activations (celu, selu, softsign, logsigmoid, hardsigmoid, hardswish, relu6,
hardtanh, mish, softmin, glu: functional forms and Modules) and ``nn.utils.clip_grad_norm_``.

Values against NumPy, derivatives at the corners as PyTorch defines them, first and second
derivatives against finite differences away from the corners, stability for large |x|, and
comparisons with PyTorch where it is installed (``needs_torch``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import minigrad as mg
from minigrad import gradcheck, gradgradcheck, nn
from minigrad.nn import functional as F

try:
    import torch
except ImportError:  # the README's default set-up
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")

SELU_ALPHA, SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _softmax(a, axis):
    e = np.exp(a - a.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


# name -> (minigrad function, NumPy reference, Module factory or None)
ACTIVATIONS = {
    "celu": (lambda x: F.celu(x, 1.5), lambda a: np.where(a > 0, a, 1.5 * np.expm1(a / 1.5)),
             lambda: nn.CELU(1.5)),
    "selu": (F.selu, lambda a: SELU_SCALE * np.where(a > 0, a, SELU_ALPHA * np.expm1(a)),
             nn.SELU),
    "softsign": (F.softsign, lambda a: a / (1 + np.abs(a)), nn.Softsign),
    "logsigmoid": (F.logsigmoid, lambda a: -np.logaddexp(0, -a), nn.LogSigmoid),
    "hardsigmoid": (F.hardsigmoid, lambda a: np.clip(a / 6 + 0.5, 0, 1), nn.Hardsigmoid),
    "hardswish": (F.hardswish, lambda a: a * np.clip(a + 3, 0, 6) / 6, nn.Hardswish),
    "relu6": (F.relu6, lambda a: np.clip(a, 0, 6), nn.ReLU6),
    "hardtanh": (lambda x: F.hardtanh(x, -0.5, 2.0), lambda a: np.clip(a, -0.5, 2.0),
                 lambda: nn.Hardtanh(-0.5, 2.0)),
    "mish": (F.mish, lambda a: a * np.tanh(np.logaddexp(0, a)), nn.Mish),
    "softmin": (lambda x: F.softmin(x, 1), lambda a: _softmax(-a, 1), lambda: nn.Softmin(1)),
    "glu": (lambda x: F.glu(x, 1), lambda a: a[:, :2] / (1 + np.exp(-a[:, 2:])),
            lambda: nn.GLU(1)),
}
NAMES = sorted(ACTIVATIONS)


def _x(lo=-5.0, hi=5.0, shape=(3, 4), seed=0):
    return np.random.default_rng(seed).uniform(lo, hi, shape)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", NAMES)
def test_values_match_numpy_and_the_module(name, dtype):
    fn, ref, module = ACTIVATIONS[name]
    a = _x().astype(dtype)
    a[0, :] = [-3.0, 3.0, 0.0, 6.0]  # the corners of the piecewise ones
    out = fn(mg.tensor(a))
    assert out.dtype == np.dtype(dtype)
    np.testing.assert_allclose(out.numpy(), ref(a.astype(np.float64)),
                               rtol=2e-6 if dtype == "float32" else 1e-13, atol=1e-7)
    np.testing.assert_array_equal(module()(mg.tensor(a)).numpy(), out.numpy())


@pytest.mark.parametrize("name", NAMES)
def test_first_and_second_derivatives_away_from_the_corners(name):
    fn = ACTIVATIONS[name][0]
    a = _x(seed=1)
    a[np.abs(np.abs(a) - 3) < 0.05] += 0.2  # away from +-3 (hardsigmoid, hardswish)
    a[np.abs(a - 6) < 0.05] -= 0.2
    x = mg.tensor(a, requires_grad=True)
    f = lambda t: fn(t) * t[:, :2].sum()
    assert gradcheck(f, [x])
    assert gradgradcheck(f, [x])


# PyTorch's derivative at each corner (the sum of the outputs differentiated)
CORNERS = {
    "hardtanh": (lambda x: F.hardtanh(x), [-1.0, 1.0, -2.0, 2.0, 0.0], [0, 0, 0, 0, 1]),
    "relu6": (F.relu6, [0.0, 6.0, -1.0, 7.0, 3.0], [0, 0, 0, 0, 1]),
    "hardsigmoid": (F.hardsigmoid, [-3.0, 3.0, -4.0, 4.0, 0.0], [0, 0, 0, 0, 1 / 6]),
    "hardswish": (F.hardswish, [-3.0, 3.0, -4.0, 4.0, 0.0], [0, 1, 0, 1, 0.5]),
    "celu": (lambda x: F.celu(x, 2.0), [0.0], [1.0]),
    "elu": (lambda x: F.elu(x, 2.0), [0.0], [2.0]),
    "selu": (F.selu, [0.0], [SELU_SCALE * SELU_ALPHA]),
    "softsign": (F.softsign, [0.0], [1.0]),
    "logsigmoid": (F.logsigmoid, [0.0, -1000.0, 1000.0], [0.5, 1.0, 0.0]),
    "mish": (F.mish, [0.0], [0.6]),
}


@pytest.mark.parametrize("name", sorted(CORNERS))
def test_derivatives_at_the_corners_are_pytorchs(name):
    fn, at, want = CORNERS[name]
    for create_graph in (False, True):  # the one backward, on arrays and recorded
        x = mg.tensor(at, dtype="float64", requires_grad=True)
        (g,) = mg.autograd.grad(fn(x).sum(), [x], create_graph=create_graph)
        np.testing.assert_allclose(g.numpy(), want, rtol=1e-12, atol=1e-15)


def test_logsigmoid_and_mish_are_stable_for_large_inputs():
    x = mg.tensor([-200.0, -50.0, 50.0, 200.0], requires_grad=True)  # float32
    out = F.logsigmoid(x)
    np.testing.assert_allclose(out.numpy(), [-200.0, -50.0, -np.exp(-50.0), -np.exp(-200.0)],
                               rtol=1e-6, atol=1e-30)
    out.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [1.0, 1.0, np.exp(-50.0), 0.0], rtol=1e-6)
    y = mg.tensor([-200.0, 200.0, 1e4], requires_grad=True)
    m = F.mish(y)
    m.sum().backward()
    assert np.isfinite(m.numpy()).all() and np.isfinite(y.grad.numpy()).all()
    np.testing.assert_allclose(m.numpy(), [0.0, 200.0, 1e4], atol=1e-30)


def test_elu_family_is_exact_near_zero():
    x = mg.tensor([-1e-10], dtype="float64")
    assert F.elu(x).item() == pytest.approx(-1e-10, rel=1e-9)
    assert F.celu(x, 0.5).item() == pytest.approx(-1e-10, rel=1e-9)
    with pytest.raises(ValueError, match="alpha"):
        F.celu(x, 0.0)


def test_0d_and_empty_inputs():
    for name in sorted(set(NAMES) - {"glu", "softmin"}):
        fn, ref, _ = ACTIVATIONS[name]
        assert fn(mg.zeros(0, 4)).shape == (0, 4)
        np.testing.assert_allclose(fn(mg.tensor(0.25, dtype="float64")).numpy(),
                                   ref(np.float64(0.25)), rtol=1e-13)
    assert F.glu(mg.zeros(3, 0), 1).shape == (3, 0)
    assert F.softmin(mg.zeros(0, 3), 1).shape == (0, 3)


def test_glu_halves_the_dim_and_refuses_odd_sizes_and_scalars():
    x = mg.tensor(_x(shape=(2, 6, 3)))
    assert F.glu(x, 1).shape == (2, 3, 3) and F.glu(x, -2).shape == (2, 3, 3)
    with pytest.raises(RuntimeError, match="even"):
        F.glu(x, -1)
    with pytest.raises(RuntimeError, match="0-d"):
        F.glu(mg.tensor(1.0))
    with pytest.raises(IndexError):
        F.glu(x, 3)


def test_softmin_dtype_argument_casts_first():
    x = mg.tensor([[1.0, 2.0, 3.0]])
    out = F.softmin(x, 1, dtype=mg.float64)
    assert out.dtype == np.float64
    np.testing.assert_allclose(out.numpy(), _softmax(-np.array([[1.0, 2.0, 3.0]]), 1))


def test_hardtanh_refuses_reversed_bounds_and_keeps_integers():
    with pytest.raises(ValueError, match="min_val"):
        F.hardtanh(mg.tensor([1.0]), 2.0, 1.0)
    with pytest.raises(ValueError, match="min_val"):
        nn.Hardtanh(2.0, 1.0)
    out = F.relu6(mg.tensor([-3, 2, 9]))
    assert out.tolist() == [0, 2, 6] and out.dtype == np.int64


def test_module_reprs():
    assert repr(nn.Hardtanh(-2.0, 2.0)) == "Hardtanh(min_val=-2.0, max_val=2.0)"
    assert repr(nn.CELU(0.5)) == "CELU(alpha=0.5)"
    assert repr(nn.GLU()) == "GLU(dim=-1)"
    assert repr(nn.Softmin(0)) == "Softmin(dim=0)"


# ---- nn.utils.clip_grad_norm_ ----------------------------------------------------------


def _params(*grads, dtype="float32"):
    ps = []
    for g in grads:
        p = nn.Parameter(mg.zeros(len(g), dtype=dtype))
        p.grad = mg.tensor(np.asarray(g, dtype=dtype))
        ps.append(p)
    return ps


def test_nn_utils_clip_grad_norm_returns_the_total_norm_as_a_tensor():
    ps = _params([3.0, 4.0], [12.0])
    total = nn.utils.clip_grad_norm_(ps, 1.0)
    assert isinstance(total, mg.Tensor) and total.shape == () and total.dtype == np.float32
    assert total.item() == pytest.approx(13.0)
    assert float(total) == pytest.approx(13.0)
    got = math.sqrt(sum(float((p.grad.numpy() ** 2).sum()) for p in ps))
    assert got == pytest.approx(1.0, rel=1e-5)
    ps = _params([3.0, -4.0], dtype="float64")
    total = nn.utils.clip_grad_norm_(iter(ps), 10.0, norm_type=math.inf, foreach=True)
    assert total.item() == 4.0 and total.dtype == np.float64
    assert ps[0].grad.tolist() == [3.0, -4.0]  # below max_norm: untouched
    assert nn.utils.clip_grad_norm_(ps[0], 10.0, norm_type=1).item() == 7.0
    assert nn.utils.clip_grad_norm_([nn.Parameter(mg.zeros(2))], 1.0).item() == 0.0


@pytest.mark.parametrize("bad", [np.inf, np.nan])
def test_non_finite_norms_raise_on_request_and_never_scale(bad):
    ps = _params([1.0, bad])
    with pytest.raises(RuntimeError, match="non-finite|cannot be clipped"):
        nn.utils.clip_grad_norm_(ps, 1.0, error_if_nonfinite=True)
    with pytest.raises(RuntimeError, match="cannot be clipped"):
        mg.optim.clip_grad_norm_(ps, 1.0, error_if_nonfinite=True)
    assert not math.isfinite(nn.utils.clip_grad_norm_(ps, 1.0).item())
    assert ps[0].grad.numpy()[0] == 1.0


# ---- against PyTorch -------------------------------------------------------------------


TORCH_FN = {
    "celu": lambda t: torch.nn.functional.celu(t, 1.5),
    "selu": torch.nn.functional.selu if torch else None,
    "softsign": torch.nn.functional.softsign if torch else None,
    "logsigmoid": torch.nn.functional.logsigmoid if torch else None,
    "hardsigmoid": torch.nn.functional.hardsigmoid if torch else None,
    "hardswish": torch.nn.functional.hardswish if torch else None,
    "relu6": torch.nn.functional.relu6 if torch else None,
    "hardtanh": lambda t: torch.nn.functional.hardtanh(t, -0.5, 2.0),
    "mish": torch.nn.functional.mish if torch else None,
    "softmin": lambda t: torch.nn.functional.softmin(t, 1),
    "glu": lambda t: torch.nn.functional.glu(t, 1),
}


@needs_torch
@pytest.mark.parametrize("name", NAMES)
def test_values_and_gradients_match_torch_corners_included(name):
    a = _x(seed=2)
    a[0, :] = [-3.0, 3.0, 0.0, 6.0]
    a[1, :] = [-0.5, 2.0, -40.0, 40.0]
    fn = ACTIVATIONS[name][0]
    x = mg.tensor(a, requires_grad=True)
    tx = torch.tensor(a, requires_grad=True)
    out, tout = fn(x), TORCH_FN[name](tx)
    np.testing.assert_allclose(out.numpy(), tout.detach().numpy(), rtol=1e-12, atol=1e-15)
    w = np.random.default_rng(3).standard_normal(out.shape)
    (g,) = mg.autograd.grad((out * mg.tensor(w)).sum(), [x], create_graph=True)
    (tg,) = torch.autograd.grad((tout * torch.tensor(w)).sum(), [tx], create_graph=True)
    # torch's float64 hardsigmoid multiplies by 1/6 rounded to float32 (3e-8 off)
    rtol = 1e-7 if name == "hardsigmoid" else 1e-10
    np.testing.assert_allclose(g.numpy(), tg.detach().numpy(), rtol=rtol, atol=1e-15)
    v = np.random.default_rng(4).standard_normal(a.shape)
    gg = tgg = None  # None: the first derivative does not depend on x (second derivative 0)
    if g.requires_grad:
        (gg,) = mg.autograd.grad((g * mg.tensor(v)).sum(), [x], allow_unused=True)
    if tg.requires_grad and name != "hardsigmoid":  # torch: no double backward of hardsigmoid
        (tgg,) = torch.autograd.grad((tg * torch.tensor(v)).sum(), [tx], allow_unused=True)
    gg = np.zeros(a.shape) if gg is None else gg.numpy()
    tgg = np.zeros(a.shape) if tgg is None else tgg.numpy()
    np.testing.assert_allclose(gg, tgg, rtol=1e-8, atol=1e-12)
    module = ACTIVATIONS[name][2]()
    assert type(module).__name__ in dir(torch.nn)


@needs_torch
def test_nn_utils_clip_grad_norm_matches_torch():
    rng = np.random.default_rng(6)
    grads = [rng.standard_normal((3, 2)) * 4, rng.standard_normal(5)]
    for norm_type in (2.0, 1.0, math.inf, 3.0):
        ours = _params(*[g.ravel() for g in grads])
        theirs = [torch.zeros(g.size, requires_grad=True) for g in grads]
        for t, g in zip(theirs, grads):
            t.grad = torch.tensor(g.ravel(), dtype=torch.float32)
        total = nn.utils.clip_grad_norm_(ours, 1.0, norm_type=norm_type)
        want = torch.nn.utils.clip_grad_norm_(theirs, 1.0, norm_type=norm_type)
        assert str(total.dtype) == str(want.dtype).replace("torch.", "")
        assert total.item() == pytest.approx(want.item(), rel=1e-5)
        for p, t in zip(ours, theirs):
            np.testing.assert_allclose(p.grad.numpy(), t.grad.numpy(), rtol=1e-5)

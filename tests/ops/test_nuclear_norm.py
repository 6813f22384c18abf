"""Issue 27: ``norm(p="nuc")``, the nuclear norm (sum of singular values).

Values against NumPy's singular values, the gradient ``U @ Vh``, first, second and third
derivatives by finite differences (no torch needed), the subgradient at rank-deficient
matrices, the errors; and values, gradients and second derivatives against PyTorch where
it is installed.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import autograd, gradcheck, gradgradcheck
from minigrad.ops.nuclear_norm import PolarFactor

# (input shape, dim, keepdim): square, tall, wide, batched, dims in any order
CASES = [
    ((4, 4), None, False),
    ((5, 3), None, False),
    ((2, 5), None, True),
    ((2, 3, 3), (1, 2), False),
    ((2, 3, 4), (2, 0), True),
    ((3, 2, 4), [-1, -3], False),
    ((2, 4, 3), (-1, -2), True),
]
IDS = [f"{s}-dim={d}-keepdim={k}" for s, d, k in CASES]


def arr(shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape)


def reference(a, dim, keepdim):
    """NumPy: the singular values of the matrices over ``dim``, summed."""
    d1, d2 = (0, 1) if dim is None else (d % a.ndim for d in dim)
    moved = np.moveaxis(a, (d1, d2), (-2, -1))
    out = np.linalg.svd(moved, compute_uv=False).sum(-1)
    return np.expand_dims(out, tuple(sorted((d1, d2)))) if keepdim else out


@pytest.mark.parametrize("shape, dim, keepdim", CASES, ids=IDS)
def test_values_as_numpy(shape, dim, keepdim):
    a = arr(shape)
    out = mg.tensor(a).norm("nuc", dim, keepdim)
    want = reference(a, dim, keepdim)
    assert out.shape == want.shape
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-12)
    np.testing.assert_allclose(mg.norm(mg.tensor(a), "nuc", dim, keepdim).numpy(), want,
                               rtol=1e-12)


def test_float32_stays_float32_and_integers_are_refused():
    a = arr((3, 3)).astype(np.float32)
    assert mg.tensor(a).norm("nuc").dtype == mg.float32
    with pytest.raises(RuntimeError, match="floating-point"):
        mg.tensor(np.eye(3, dtype=np.int64)).norm("nuc")


def test_the_gradient_is_the_polar_factor():
    a = arr((4, 3))
    x = mg.Tensor(a, requires_grad=True)
    x.norm("nuc").backward()
    u, _, vh = np.linalg.svd(a, full_matrices=False)
    np.testing.assert_allclose(x.grad, u @ vh, atol=1e-12)


@pytest.mark.parametrize("shape, dim, keepdim", CASES, ids=IDS)
def test_first_and_second_derivatives(shape, dim, keepdim):
    def f(x):  # squared: the gradient reaching the norm depends on the input
        return x.norm("nuc", dim, keepdim) ** 2

    assert gradcheck(f, [mg.Tensor(arr(shape, 1), requires_grad=True)])
    assert gradgradcheck(f, [mg.Tensor(arr(shape, 1), requires_grad=True)])


@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4)])
def test_third_derivative_through_the_polar_factor(shape):
    # gradgradcheck of the norm's gradient (the polar factor) is a third derivative
    def f(x):
        return PolarFactor.apply(x) ** 2

    assert gradgradcheck(f, [mg.Tensor(arr(shape, 2), requires_grad=True)])


def test_repeated_singular_values_have_an_exact_second_derivative():
    # 2 * an orthogonal matrix: every singular value is 2 (PyTorch's second derivative is NaN)
    q, _ = np.linalg.qr(arr((3, 3), 3))
    assert gradgradcheck(lambda x: x.norm("nuc") ** 2, [mg.Tensor(2 * q, requires_grad=True)])


@pytest.mark.parametrize("a", [np.diag([2.0, 1.0, 0.0]), np.zeros((3, 3)),
                               np.outer(arr(4, 4), arr(3, 5))], ids=["rank 2", "zero", "rank 1"])
def test_rank_deficient_gradient_is_a_subgradient(a):
    """G is a subgradient of ||.||_* at A iff ||G||_2 <= 1 and <G, A> = ||A||_*."""
    x = mg.Tensor(a, requires_grad=True)
    norm = x.norm("nuc")
    norm.backward()
    g = np.asarray(x.grad)
    assert np.all(np.isfinite(g))
    assert np.linalg.norm(g, 2) <= 1 + 1e-12
    np.testing.assert_allclose((g * a).sum(), norm.item(), atol=1e-12)


def test_second_derivative_at_the_zero_matrix_is_zero():
    x = mg.Tensor(np.zeros((2, 2)), requires_grad=True)
    (g,) = autograd.grad(x.norm("nuc"), x, create_graph=True)
    (gg,) = autograd.grad((g * mg.tensor(arr((2, 2)))).sum(), x)
    np.testing.assert_array_equal(gg.numpy(), np.zeros((2, 2)))


@pytest.mark.parametrize("shape, dim, match", [
    ((2, 3, 4), None, "must be a matrix"),
    ((3, 4), 1, "two different dims"),
    ((3, 4), (1, 1), "two different dims"),
    ((3, 4), (0, 1, 1), "two different dims"),
    ((3, 4), (0, 2), "out of range"),
])
def test_bad_dims_are_refused(shape, dim, match):
    with pytest.raises((ValueError, IndexError), match=match):
        mg.tensor(arr(shape)).norm("nuc", dim)


@pytest.mark.parametrize("shape, dim, keepdim", CASES, ids=IDS)
def test_values_gradients_and_second_derivatives_as_torch(shape, dim, keepdim):
    torch = pytest.importorskip("torch")
    a = arr(shape, 4)
    t = torch.tensor(a, requires_grad=True)
    m = mg.Tensor(a, requires_grad=True)
    t_out = torch.norm(t, "nuc", dim=dim, keepdim=keepdim)
    m_out = m.norm("nuc", dim, keepdim)
    np.testing.assert_allclose(m_out.numpy(), t_out.detach().numpy(), rtol=1e-12)
    rng = np.random.default_rng(5)
    w, v = rng.standard_normal(tuple(t_out.shape)), rng.standard_normal(shape)
    (t_g,) = torch.autograd.grad((t_out * torch.tensor(w)).sum(), t, create_graph=True)
    (m_g,) = autograd.grad((m_out * mg.tensor(w)).sum(), m, create_graph=True)
    np.testing.assert_allclose(m_g.numpy(), t_g.detach().numpy(), atol=1e-10)
    (t_gg,) = torch.autograd.grad((t_g * torch.tensor(v)).sum(), t)
    (m_gg,) = autograd.grad((m_g * mg.tensor(v)).sum(), m)
    np.testing.assert_allclose(m_gg.numpy(), t_gg.numpy(), atol=1e-9)

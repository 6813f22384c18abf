"""Issue 27: einsum with a letter repeated within one operand (diagonals, traces).

Values against ``np.einsum`` (which reads diagonals too), first and second derivatives by
finite differences (no torch needed), and values and gradients against PyTorch where it is
installed.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import gradcheck, gradgradcheck
from minigrad.ops.einsum import Einsum

# (equation, operand shapes): traces, diagonals, batches, ``...``, several operands
CASES = [
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("iij->j", [(3, 3, 2)]),
    ("bii->b", [(2, 3, 3)]),
    ("iji->j", [(2, 3, 2)]),
    ("iii->i", [(3, 3, 3)]),
    ("ijij->ij", [(2, 3, 2, 3)]),
    ("...ii->...i", [(2, 4, 3, 3)]),
    ("i...i", [(3, 2, 3)]),
    ("ii,ij->j", [(3, 3), (3, 2)]),
    ("jii,kjk->ik", [(2, 3, 3), (4, 2, 4)]),
    ("bii,bjj->bij", [(2, 3, 3), (2, 2, 2)]),
]
IDS = [eq for eq, _ in CASES]


def operands(shapes, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s) for s in shapes]


@pytest.mark.parametrize("eq, shapes", CASES, ids=IDS)
def test_values_as_numpy(eq, shapes):
    arrays = operands(shapes)
    out = mg.einsum(eq, *[mg.tensor(a) for a in arrays])
    want = np.einsum(eq, *arrays)
    assert out.shape == np.shape(want)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("eq, shapes", CASES, ids=IDS)
def test_first_and_second_derivatives(eq, shapes):
    def leaves():
        return [mg.Tensor(a, requires_grad=True) for a in operands(shapes, seed=1)]

    # squared: the gradient reaching the einsum depends on the inputs, so every second
    # derivative term is exercised
    def f(*xs):
        return mg.einsum(eq, *xs) ** 2

    assert gradcheck(f, leaves())
    assert gradgradcheck(f, leaves())


def test_the_gradient_of_a_trace_is_the_identity():
    a = mg.Tensor(np.arange(9.0).reshape(3, 3), requires_grad=True)
    mg.einsum("ii", a).backward()
    np.testing.assert_array_equal(a.grad, np.eye(3))


def test_float32_and_integers_keep_their_dtype():
    a = np.arange(9).reshape(3, 3)
    assert mg.einsum("ii->i", mg.tensor(a.astype(np.float32))).dtype == mg.float32
    out = mg.einsum("ii", mg.tensor(a))
    assert out.dtype == mg.int64 and out.item() == 12


def test_a_repeated_letter_over_different_sizes_is_refused():
    with pytest.raises(ValueError, match="different sizes"):
        mg.einsum("ii->i", mg.tensor(np.zeros((2, 3))))


def test_the_function_itself_refuses_a_repeated_letter():
    with pytest.raises(ValueError, match="minigrad.einsum"):
        Einsum.apply(mg.tensor(np.zeros((2, 2))), equation="ii->i")


@pytest.mark.parametrize("eq, shapes", CASES, ids=IDS)
def test_values_and_gradients_as_torch(eq, shapes):
    torch = pytest.importorskip("torch")
    arrays = operands(shapes, seed=2)
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    ms = [mg.Tensor(a, requires_grad=True) for a in arrays]
    t_out = torch.einsum(eq, *ts)
    m_out = mg.einsum(eq, *ms)
    np.testing.assert_allclose(m_out.numpy(), t_out.detach().numpy(), rtol=1e-12, atol=1e-12)
    w = np.random.default_rng(3).standard_normal(tuple(t_out.shape))
    (t_out * torch.tensor(w)).sum().backward()
    (m_out * mg.tensor(w)).sum().backward()
    for t, m in zip(ts, ms):
        np.testing.assert_allclose(m.grad, t.grad.numpy(), rtol=1e-12, atol=1e-12)

"""CTC loss: values against a brute-force sum over every alignment, gradients against finite
differences (float64), zero_infinity, PyTorch's errors, and (where installed) PyTorch."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.nn import functional as F


def _collapse(path: tuple, blank: int) -> tuple:
    """An alignment's labelling: repeats merged, then blanks removed."""
    merged = [k for i, k in enumerate(path) if i == 0 or k != path[i - 1]]
    return tuple(k for k in merged if k != blank)


def brute_force_nll(lp: np.ndarray, target: tuple, blank: int) -> float:
    """-log sum over every path of length T (lp (T, C)) whose labelling is ``target``."""
    t_len, c = lp.shape
    total = 0.0
    for path in itertools.product(range(c), repeat=t_len):
        if _collapse(path, blank) == tuple(target):
            total += math.exp(sum(lp[t, k] for t, k in enumerate(path)))
    return -math.log(total) if total > 0 else math.inf


def _log_probs(shape: tuple, seed: int) -> np.ndarray:
    x = np.random.default_rng(seed).standard_normal(shape)
    return x - np.log(np.exp(x).sum(-1, keepdims=True))


# (input lengths, targets, blank): repeats, an empty target, a target that needs every step,
# a target no alignment fits (too short an input), a non-zero blank
CASES = [
    ((4, 4), [[1, 2], [2, 2]], 0),
    ((4, 3), [[1, 1], [2, 0]], 0),
    ((4, 2), [[2, 1], [1, 0]], 0),
    ((4, 4), [[0, 0], [1, 0]], 2),
    ((3, 4), [[1, 1], [1, 1]], 0),   # 1, 1 needs a blank between: 3 steps, fits
    ((2, 4), [[1, 1], [2, 1]], 0),   # 2 steps cannot hold 1 _ 1: infinite
]
TARGET_LENGTHS = [(2, 2), (2, 1), (2, 1), (2, 2), (2, 2), (2, 2)]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_values_are_the_sum_over_alignments(case: int) -> None:
    ins, targets, blank = CASES[case]
    outs = TARGET_LENGTHS[case]
    lp = _log_probs((4, 2, 3), case)
    got = F.ctc_loss(mg.tensor(lp), np.array(targets), ins, outs, blank=blank,
                     reduction="none").data
    want = [brute_force_nll(lp[:ins[n], n], targets[n][:outs[n]], blank) for n in range(2)]
    np.testing.assert_allclose(got, want, rtol=1e-10)


def test_reductions_and_target_layouts() -> None:
    lp = _log_probs((5, 3, 4), 7)
    padded = np.array([[1, 2, 3], [3, 3, 0], [2, 0, 0]])
    lengths = (3, 2, 1)
    flat = np.array([1, 2, 3, 3, 3, 2])
    per = F.ctc_loss(mg.tensor(lp), padded, (5, 5, 4), lengths, reduction="none").data
    want = [brute_force_nll(lp[:t, n], padded[n][:k], 0)
            for n, (t, k) in enumerate(zip((5, 5, 4), lengths))]
    np.testing.assert_allclose(per, want, rtol=1e-10)
    for targets in (padded, flat, mg.tensor(flat.astype(np.int32))):
        for reduction, expected in (("sum", sum(want)),
                                    ("mean", np.mean(np.array(want) / np.array(lengths)))):
            got = F.ctc_loss(mg.tensor(lp), targets, mg.tensor(np.array([5, 5, 4])),
                             lengths, reduction=reduction)
            assert got.shape == () and got.item() == pytest.approx(expected, rel=1e-10)
    unbatched = F.ctc_loss(mg.tensor(lp[:, 0]), padded[0], 5, 3, reduction="none")
    assert unbatched.shape == () and unbatched.item() == pytest.approx(want[0], rel=1e-10)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("flat", [False, True])
def test_gradient_matches_finite_differences(reduction: str, flat: bool) -> None:
    rng = np.random.default_rng(3)
    # unnormalized log-probabilities: the gradient with respect to log_probs themselves
    lp = mg.tensor(rng.standard_normal((6, 2, 4)), requires_grad=True)
    targets = np.array([1, 3, 3, 2, 1]) if flat else np.array([[1, 3, 3], [2, 1, 0]])
    fn = lambda x: F.ctc_loss(x, targets, (6, 5), (3, 2), reduction=reduction)
    assert mg.gradcheck(fn, [lp])
    # and through log_softmax, the way the loss is used
    assert mg.gradcheck(lambda x: fn(F.log_softmax(x, -1)), [lp])


@pytest.mark.parametrize("reduction", ["mean", "none"])
def test_second_derivatives_match_finite_differences(reduction: str) -> None:
    """backward(create_graph=True) differentiates the recursion in ordinary ops: its first
    derivative is the plain backward's, its second the finite differences of the first."""
    rng = np.random.default_rng(5)
    lp = mg.tensor(rng.standard_normal((5, 2, 3)), requires_grad=True)
    fn = lambda x: F.ctc_loss(x, np.array([[1, 1], [2, 0]]), (5, 4), (2, 1),
                              reduction=reduction, zero_infinity=True)
    w = mg.tensor(rng.standard_normal(fn(lp).shape))
    plain, = mg.autograd.grad((fn(lp) * w).sum(), [lp])
    graph, = mg.autograd.grad((fn(lp) * w).sum(), [lp], create_graph=True)
    np.testing.assert_allclose(graph.data, plain.data, rtol=1e-12, atol=1e-14)
    assert mg.gradgradcheck(fn, [lp])


def test_zero_infinity() -> None:
    lp = mg.tensor(_log_probs((2, 2, 3), 1), requires_grad=True)
    targets, ins, outs = np.array([[1, 1], [1, 2]]), (2, 2), (2, 2)
    loss = F.ctc_loss(lp, targets, ins, outs, reduction="none")
    assert np.isinf(loss.data[0]) and np.isfinite(loss.data[1])
    loss.sum().backward()
    assert np.isnan(lp.grad.data[:, 0]).all() and np.isfinite(lp.grad.data[:, 1]).all()
    graph, = mg.autograd.grad(F.ctc_loss(lp, targets, ins, outs, reduction="none").sum(), [lp],
                              create_graph=True)
    np.testing.assert_allclose(graph.data, lp.grad.data, rtol=1e-12)  # nan where it is nan
    lp.grad = None
    loss = F.ctc_loss(lp, targets, ins, outs, reduction="none", zero_infinity=True)
    assert loss.data[0] == 0 and np.isfinite(loss.data[1])
    loss.sum().backward()
    assert (lp.grad.data[:, 0] == 0).all() and (lp.grad.data[:, 1] != 0).any()


def test_steps_past_an_input_length_get_no_gradient() -> None:
    lp = mg.tensor(_log_probs((6, 2, 3), 2), requires_grad=True)
    F.ctc_loss(lp, np.array([[1, 2], [2, 0]]), (4, 6), (2, 1)).backward()
    assert (lp.grad.data[4:, 0] == 0).all() and (lp.grad.data[:4, 0] != 0).any()


ERRORS = [
    ({"blank": 3}, RuntimeError, "blank must be in label range"),
    ({"input_lengths": (7, 6)}, RuntimeError, "input_lengths to have value at most 6"),
    ({"input_lengths": (6, -1)}, RuntimeError, "input_lengths to have value at least 0"),
    ({"target_lengths": (2, -1)}, RuntimeError, "target_lengths to have value at least 0"),
    ({"input_lengths": (6,)}, RuntimeError, "input_lengths must be of size batch_size"),
    ({"target_lengths": (2,)}, RuntimeError, "target_lengths must be of size batch_size"),
    ({"target_lengths": (3, 2)}, RuntimeError, "size at least 3 at dimension 1"),
    ({"targets": np.array([1, 2, 1])}, RuntimeError, "size 4 at dimension 0"),
    ({"targets": np.array([[1, 5], [1, 2]])}, IndexError, "target labels must be in"),
    ({"targets": np.array([[1, 0], [2, 1]])}, ValueError, "holds the blank index 0"),
    ({"reduction": "avg"}, ValueError, "avg is not a valid value for reduction"),
    ({"input_lengths": np.array([6.0, 6.0])}, TypeError, "input_lengths must be integers"),
]


@pytest.mark.parametrize("change, error, message", ERRORS)
def test_errors(change: dict, error: type, message: str) -> None:
    args = {"log_probs": mg.tensor(_log_probs((6, 2, 3), 0)), "targets": np.array([[1, 2],
                [2, 1]]), "input_lengths": (6, 6), "target_lengths": (2, 2)}
    args.update(change)
    with pytest.raises(error, match=message):
        F.ctc_loss(**args)


def test_module() -> None:
    lp = mg.tensor(_log_probs((5, 2, 4), 5))
    m = nn.CTCLoss(blank=3, reduction="sum", zero_infinity=True)
    assert m.state_dict() == {} and (m.blank, m.reduction, m.zero_infinity) == (3, "sum", True)
    targets = np.array([[0, 1], [2, 2]])
    got = m(lp, targets, (5, 5), (2, 2)).item()
    assert got == pytest.approx(F.ctc_loss(lp, targets, (5, 5), (2, 2), 3, "sum").item())


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_matches_pytorch(dtype: type) -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(11)
    logits = rng.standard_normal((20, 3, 6)).astype(dtype)
    targets = rng.integers(1, 6, (3, 8))
    ins, outs = (20, 18, 15), (8, 6, 5)
    for reduction in ("mean", "sum", "none"):
        t_x = torch.tensor(logits, requires_grad=True)
        t_lp = t_x.log_softmax(-1)
        t_lp.retain_grad()
        t_loss = torch.nn.functional.ctc_loss(t_lp, torch.tensor(targets), ins, outs,
                                              reduction=reduction)
        w = rng.standard_normal(t_loss.shape).astype(dtype)
        (t_loss * torch.tensor(w)).sum().backward()
        m_x = mg.tensor(logits, requires_grad=True)
        m_lp = F.log_softmax(m_x, -1)
        m_lp.retain_grad()
        m_loss = F.ctc_loss(m_lp, targets, ins, outs, reduction=reduction)
        (m_loss * mg.tensor(w)).sum().backward()
        tol = 1e-5 if dtype == np.float32 else 1e-10
        assert m_loss.dtype == dtype
        np.testing.assert_allclose(m_loss.data, t_loss.detach().numpy(), rtol=tol, atol=tol)
        # through log_softmax the two gradients are the same
        np.testing.assert_allclose(m_x.grad.data, t_x.grad.numpy(), rtol=10 * tol, atol=tol)
        # with respect to log_probs PyTorch's kernel adds exp(log_probs) per live step
        live = (np.arange(20)[:, None] < np.array(ins))[..., None]
        scale = w.reshape(1, -1, 1) if reduction == "none" else float(w)
        if reduction == "mean":
            scale = scale / (3 * np.array(outs).reshape(1, -1, 1))
        extra = np.where(live, np.exp(m_lp.data) * scale, 0)
        np.testing.assert_allclose(m_lp.grad.data + extra, t_lp.grad.numpy(), rtol=10 * tol,
                                   atol=tol)

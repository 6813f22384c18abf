"""PyTorch's deprecated size_average/reduce on every loss that takes them (mapped to
``reduction`` with PyTorch's warning), and mse_loss/l1_loss's ``weight``."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.nn import functional as F

rng = np.random.default_rng(0)
X = rng.standard_normal((4, 3))
Y = rng.standard_normal((4, 3))
P = 1 / (1 + np.exp(-X))
T01 = (rng.random((4, 3)) > 0.5).astype(float)
SIGN = np.where(T01 > 0, 1.0, -1.0)
CLS = np.array([0, 2, 1, 2])
LOGP = X - np.log(np.exp(X).sum(-1, keepdims=True))
ML_TARGET = np.array([[1, -1, 0], [0, 2, -1], [2, -1, 0], [1, 0, -1]])

# every loss functional that takes size_average/reduce, with arguments it accepts
CALLS = {
    "binary_cross_entropy": (P, T01),
    "binary_cross_entropy_with_logits": (X, T01),
    "cosine_embedding_loss": (X, Y, SIGN[:, 0]),
    "cross_entropy": (X, CLS),
    "hinge_embedding_loss": (X, SIGN),
    "kl_div": (LOGP, np.exp(LOGP)),
    "l1_loss": (X, Y),
    "margin_ranking_loss": (X[:, 0], Y[:, 0], SIGN[:, 0]),
    "mse_loss": (X, Y),
    "multi_margin_loss": (X, CLS),
    "multilabel_margin_loss": (X, ML_TARGET),
    "multilabel_soft_margin_loss": (X, T01),
    "nll_loss": (LOGP, CLS),
    "poisson_nll_loss": (X, np.abs(Y)),
    "smooth_l1_loss": (X, Y),
    "soft_margin_loss": (X, SIGN),
    "triplet_margin_loss": (X, Y, X[::-1].copy()),
}

# (size_average, reduce) -> PyTorch's reduction (None reads as True)
LEGACY = [((None, False), "none"), ((True, False), "none"), ((False, False), "none"),
          ((False, None), "sum"), ((False, True), "sum"), ((True, None), "mean"),
          ((None, True), "mean"), ((True, True), "mean")]


def test_the_table_names_every_loss_that_takes_them() -> None:
    takes = {n for n in dir(F) if inspect.isfunction(getattr(F, n))
             and "size_average" in inspect.signature(getattr(F, n)).parameters}
    assert takes == set(CALLS)


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("legacy, reduction", LEGACY)
def test_size_average_and_reduce_map_to_reduction(name: str, legacy: tuple,
                                                  reduction: str) -> None:
    fn = getattr(F, name)
    args = [mg.tensor(a) if a.dtype.kind == "f" else a for a in CALLS[name]]
    size_average, reduce = legacy
    with pytest.warns(UserWarning, match=f"please use reduction='{reduction}' instead"):
        got = fn(*args, size_average=size_average, reduce=reduce, reduction="sum"
                 if reduction != "sum" else "mean")
    np.testing.assert_allclose(got.data, fn(*args, reduction=reduction).data, rtol=1e-12)


@pytest.mark.parametrize("cls", [nn.MSELoss, nn.L1Loss, nn.NLLLoss, nn.CrossEntropyLoss,
                                 nn.BCELoss, nn.SmoothL1Loss])
def test_modules_warn_too(cls: type) -> None:
    with pytest.warns(UserWarning, match="reduction='sum'"):
        m = cls(size_average=False)
    assert m.reduction == "sum"


@pytest.mark.parametrize("name", ["mse_loss", "l1_loss"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_elementwise_weight(name: str, reduction: str) -> None:
    fn = getattr(F, name)
    w = rng.random((4, 3)) + 0.1
    per = (X - Y) ** 2 if name == "mse_loss" else np.abs(X - Y)
    want = {"none": per * w, "sum": (per * w).sum(), "mean": (per * w).sum() / w.sum()}
    got = fn(mg.tensor(X), mg.tensor(Y), reduction=reduction, weight=mg.tensor(w))
    np.testing.assert_allclose(got.data, want[reduction], rtol=1e-12)
    x = mg.tensor(X, requires_grad=True)
    wt = mg.tensor(w, requires_grad=True)
    assert mg.gradcheck(lambda a, b: fn(a, mg.tensor(Y), reduction=reduction, weight=b),
                        [x, wt])
    with pytest.raises(ValueError, match="Weights and input must have the same size."):
        fn(mg.tensor(X), mg.tensor(Y), weight=mg.tensor(w[0]))


@pytest.mark.parametrize("name", ["mse_loss", "l1_loss"])
def test_elementwise_weight_matches_pytorch(name: str) -> None:
    torch = pytest.importorskip("torch")
    w = rng.random((4, 3))
    for reduction in ("mean", "sum", "none"):
        theirs = getattr(torch.nn.functional, name)(
            torch.tensor(X), torch.tensor(Y), reduction=reduction, weight=torch.tensor(w))
        ours = getattr(F, name)(mg.tensor(X), mg.tensor(Y), reduction=reduction,
                                weight=mg.tensor(w))
        np.testing.assert_allclose(ours.data, theirs.numpy(), rtol=1e-12)

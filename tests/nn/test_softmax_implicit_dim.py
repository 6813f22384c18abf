"""softmax, log_softmax and softmin (functions and modules) without ``dim``: PyTorch's
implicit choice (dim 0 of a 0-, 1- or 3-D input, else dim 1) with its warning."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.nn import functional as F

FORMS = [
    ("softmax", lambda x: F.softmax(x), lambda x, d: F.softmax(x, d)),
    ("log_softmax", lambda x: F.log_softmax(x), lambda x, d: F.log_softmax(x, d)),
    ("softmin", lambda x: F.softmin(x), lambda x, d: F.softmin(x, d)),
    ("softmax", lambda x: nn.Softmax()(x), lambda x, d: nn.Softmax(d)(x)),
    ("log_softmax", lambda x: nn.LogSoftmax()(x), lambda x, d: nn.LogSoftmax(d)(x)),
    ("softmin", lambda x: nn.Softmin()(x), lambda x, d: nn.Softmin(d)(x)),
]
SHAPES = [(), (5,), (3, 4), (2, 3, 4), (2, 3, 4, 5), (2, 3, 2, 2, 2)]


@pytest.mark.parametrize("form", range(len(FORMS)),
                         ids=[f"{n}{'' if i < 3 else '-module'}" for i, (n, _, _)
                              in enumerate(FORMS)])
@pytest.mark.parametrize("shape", SHAPES, ids=[f"{len(s)}d" for s in SHAPES])
def test_implicit_dim(form: int, shape: tuple) -> None:
    name, implicit, explicit = FORMS[form]
    x = mg.tensor(np.random.default_rng(len(shape)).standard_normal(shape))
    dim = 0 if len(shape) in (0, 1, 3) else 1
    with pytest.warns(UserWarning, match=f"Implicit dimension choice for {name} has been "
                                         "deprecated"):
        got = implicit(x)
    np.testing.assert_array_equal(got.data, explicit(x, dim).data)


@pytest.mark.parametrize("shape", SHAPES[1:], ids=[f"{len(s)}d" for s in SHAPES[1:]])
def test_implicit_dim_matches_pytorch(shape: tuple) -> None:
    torch = pytest.importorskip("torch")
    x = np.random.default_rng(7).standard_normal(shape)
    for name in ("softmax", "log_softmax", "softmin"):
        with pytest.warns(UserWarning):
            theirs = getattr(torch.nn.functional, name)(torch.tensor(x))
        with pytest.warns(UserWarning):
            ours = getattr(F, name)(mg.tensor(x))
        np.testing.assert_allclose(ours.data, theirs.numpy(), rtol=1e-12)

"""LBFGS on the Rosenbrock function, where the strong-Wolfe line search brackets and zooms
(several evaluations per iteration) and the history fills and wraps: the iterates and the
evaluation counts must be PyTorch's. Skips without PyTorch."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import minigrad as mg


def _run(lib, options: dict, steps: int = 3):
    p = lib.tensor(np.array([-1.5, 2.0, 0.5, -0.7]), requires_grad=True)
    opt = lib.optim.LBFGS([p], **options)

    def closure():
        opt.zero_grad()
        x0, x1 = p[:-1], p[1:]
        loss = (100 * (x1 - x0**2) ** 2 + (1 - x0) ** 2).sum()
        loss.backward()
        return loss

    for _ in range(steps):
        opt.step(closure)
    state = opt.state_dict()["state"][0]
    values = p.detach().numpy() if lib is torch else p.data
    return np.array(values), state["func_evals"], state["n_iter"]


@pytest.mark.parametrize("options", [
    {"line_search_fn": "strong_wolfe"},
    {"line_search_fn": "strong_wolfe", "history_size": 2, "max_iter": 7},
    {"line_search_fn": "strong_wolfe", "lr": 3.0},
    {"lr": 0.5, "max_iter": 30},
])
def test_rosenbrock_iterates_and_evaluations_are_pytorchs(options):
    theirs, ours = _run(torch, options), _run(mg, options)
    assert ours[1:] == theirs[1:]
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-9, atol=1e-9)

"""The trainer's step through minigrad.capture equals its eager step, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad
from minigrad.models import GPT
from minigrad.train.loop import BatchSampler, micro_step, train_step


def _train(captured: bool, grad_accum: int, steps: int = 5) -> tuple:
    minigrad.manual_seed(0)
    model = GPT(30, 16, 2, 2, 16, dropout=0.1)
    opt = model.configure_optimizers(0.1, 1e-2, (0.9, 0.95))
    params = list(model.parameters())
    data = np.random.default_rng(0).integers(0, 30, 2000)
    sampler = BatchSampler(data, 3, 16, seed=1)
    step = micro_step(model, grad_accum) if captured else None
    losses = [train_step(model, opt, params, sampler, 1e-2, 1.0, it, grad_accum=grad_accum,
                         step=step) for it in range(steps)]
    return model, losses, step


@pytest.mark.parametrize("grad_accum", [1, 2])
def test_captured_trainer_step_equals_eager(grad_accum: int) -> None:
    eager, eager_losses, _ = _train(False, grad_accum)
    captured, losses, step = _train(True, grad_accum)
    assert step.replays == 5 * grad_accum - 2 and step.eager_reason is None
    assert losses == eager_losses
    for (name, p), (_, q) in zip(eager.named_parameters(), captured.named_parameters()):
        assert np.array_equal(p.data, q.data), name

"""The schedulers PyTorch 2.13 has beyond the first five, without PyTorch: 12 steps of each
(group 0's rate after building and after each step) must be the rates ``torch.optim.
lr_scheduler`` gave, computed once in float64; ``tests/optiminfo/test_lr_schedulers.py``
compares with PyTorch itself. ReduceLROnPlateau watches a fixed metric sequence."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.optim import SGD, lr_scheduler

METRICS = [3.0, 2.0, 2.0, 2.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]

CASES = [
    ("MultiplicativeLR", lambda L, o: L.MultiplicativeLR(o, lambda e: 0.9),
     [0.1, 0.09, 0.081, 0.0729, 0.06561, 0.059049, 0.0531441, 0.04782969, 0.043046721, 0.0387420489, 0.03486784401, 0.031381059609, 0.0282429536481]),
    ("MultiStepLR", lambda L, o: L.MultiStepLR(o, milestones=[2, 5, 5], gamma=0.5),
     [0.1, 0.1, 0.05, 0.05, 0.05, 0.0125, 0.0125, 0.0125, 0.0125, 0.0125, 0.0125, 0.0125, 0.0125]),
    ("ConstantLR", lambda L, o: L.ConstantLR(o, factor=0.25, total_iters=3),
     [0.025, 0.025, 0.025, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]),
    ("ExponentialLR", lambda L, o: L.ExponentialLR(o, gamma=0.8),
     [0.1, 0.08, 0.064, 0.0512, 0.04096, 0.032768, 0.0262144, 0.02097152, 0.016777216, 0.0134217728, 0.01073741824, 0.008589934592, 0.0068719476736]),
    ("PolynomialLR", lambda L, o: L.PolynomialLR(o, total_iters=6, power=2.0),
     [0.1, 0.069444444444444, 0.044444444444444, 0.025, 0.011111111111111, 0.002777777777778, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ("CosineAnnealingWarmRestarts", lambda L, o: L.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2, eta_min=0.01),
     [0.1, 0.055, 0.1, 0.086819805153395, 0.055, 0.023180194846605, 0.1, 0.096574578963008, 0.086819805153395, 0.072220754456429, 0.055, 0.037779245543571, 0.023180194846605]),
    ("CyclicLR", lambda L, o: L.CyclicLR(o, 0.01, 0.1, step_size_up=2, step_size_down=3, mode="triangular2"),
     [0.01, 0.055, 0.1, 0.07, 0.04, 0.01, 0.0325, 0.055, 0.04, 0.025, 0.01, 0.02125, 0.0325]),
    ("OneCycleLR", lambda L, o: L.OneCycleLR(o, max_lr=0.1, total_steps=12),
     [0.004, 0.034978965421958, 0.087928515912213, 0.099441543545091, 0.093301296984141, 0.081174565394976, 0.06473789976951, 0.046263710266698, 0.02830609982087, 0.013347753018883, 0.00345669874254, 4e-07, 0.00345669874254]),
    ("ChainedScheduler", lambda L, o: L.ChainedScheduler([L.ConstantLR(o, factor=0.5, total_iters=3), L.ExponentialLR(o, gamma=0.9)]),
     [0.05, 0.045, 0.0405, 0.0729, 0.06561, 0.059049, 0.0531441, 0.04782969, 0.043046721, 0.0387420489, 0.03486784401, 0.031381059609, 0.0282429536481]),
    ("SequentialLR", lambda L, o: L.SequentialLR(o, [L.ConstantLR(o, factor=0.5, total_iters=5), L.ExponentialLR(o, gamma=0.5)], milestones=[3]),
     [0.05, 0.05, 0.05, 0.1, 0.05, 0.025, 0.0125, 0.00625, 0.003125, 0.0015625, 0.00078125, 0.000390625, 0.0001953125]),
    ("ReduceLROnPlateau", lambda L, o: L.ReduceLROnPlateau(o, factor=0.5, patience=1, cooldown=1),
     [0.1, 0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.05, 0.025, 0.025, 0.025, 0.0125, 0.0125]),
]


@pytest.mark.parametrize("name, build, expected", CASES, ids=[c[0] for c in CASES])
def test_rates_are_pytorchs(name, build, expected):
    opt = SGD([mg.tensor(np.zeros(2), requires_grad=True)], lr=0.1, momentum=0.9)
    sched = build(lr_scheduler, opt)
    rates = [sched.get_last_lr()[0]]
    for t in range(12):
        opt.step()
        if name == "ReduceLROnPlateau":
            sched.step(METRICS[t])
        else:
            sched.step()
        rates.append(sched.get_last_lr()[0])
    np.testing.assert_allclose(rates, expected, rtol=1e-12)


def test_state_dict_round_trip_continues_the_same_rates():
    def build(opt):
        return lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=12)

    opt = SGD([mg.tensor(np.zeros(2), requires_grad=True)], lr=0.1, momentum=0.9)
    sched = build(opt)
    for _ in range(5):
        opt.step()
        sched.step()
    opt2 = SGD([mg.tensor(np.zeros(2), requires_grad=True)], lr=0.1, momentum=0.9)
    opt2.load_state_dict(opt.state_dict())
    sched2 = build(opt2)
    sched2.load_state_dict(sched.state_dict())
    for _ in range(5):
        opt.step()
        sched.step()
        opt2.step()
        sched2.step()
        assert sched2.get_last_lr() == sched.get_last_lr()
        assert opt2.param_groups[0]["momentum"] == opt.param_groups[0]["momentum"]


def test_combinators_refuse_reduce_on_plateau_and_another_optimizer():
    opt = SGD([mg.tensor(np.zeros(2), requires_grad=True)], lr=0.1)
    other = SGD([mg.tensor(np.zeros(2), requires_grad=True)], lr=0.1)
    with pytest.raises(ValueError, match="ReduceLROnPlateau"):
        lr_scheduler.ChainedScheduler([lr_scheduler.ReduceLROnPlateau(opt)])
    with pytest.raises(ValueError, match="another optimizer"):
        lr_scheduler.SequentialLR(opt, [lr_scheduler.ExponentialLR(other, 0.9)], milestones=[])

"""Every scheduler of ``torch.optim.lr_scheduler`` against PyTorch's: the rates (and the
cycled momenta) of each group at every step over a table of configs, combinators and
ReduceLROnPlateau with a metric sequence included; a state-dict round trip midway; and
``step(epoch)``'s closed forms. Skips without PyTorch."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import minigrad as mg

STEPS = 25
# ReduceLROnPlateau's metric: improves, stalls, improves a little, stalls (mode "min").
METRICS = [5.0, 4.0, 3.0, 3.0, 3.0, 3.0, 2.99999, 3.0, 3.1, 3.1, 2.0, 2.0, 2.0, 2.0, 2.0, 2.5,
           2.5, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]


class Halve:
    """A callable object (its ``__dict__`` is saved in state dicts, a function's is not)."""

    def __init__(self) -> None:
        self.base = 0.5

    def __call__(self, epoch: int) -> float:
        return self.base ** (epoch // 4)


CONFIGS = {
    "LambdaLR": lambda L, o: L.LambdaLR(o, lambda e: 0.9**e),
    "LambdaLR per group": lambda L, o: L.LambdaLR(o, [lambda e: 1 / (e + 1), Halve()]),
    "MultiplicativeLR": lambda L, o: L.MultiplicativeLR(o, lambda e: 0.95),
    "StepLR": lambda L, o: L.StepLR(o, step_size=4, gamma=0.5),
    "MultiStepLR": lambda L, o: L.MultiStepLR(o, milestones=[3, 7, 7, 12], gamma=0.3),
    "ConstantLR": lambda L, o: L.ConstantLR(o, factor=0.25, total_iters=6),
    "LinearLR": lambda L, o: L.LinearLR(o, start_factor=0.1, end_factor=0.9, total_iters=8),
    "ExponentialLR": lambda L, o: L.ExponentialLR(o, gamma=0.9),
    "PolynomialLR": lambda L, o: L.PolynomialLR(o, total_iters=10, power=2.0),
    "CosineAnnealingLR": lambda L, o: L.CosineAnnealingLR(o, T_max=7, eta_min=0.001),
    "CosineAnnealingWarmRestarts": lambda L, o: L.CosineAnnealingWarmRestarts(o, T_0=3),
    "CosineAnnealingWarmRestarts T_mult": lambda L, o: L.CosineAnnealingWarmRestarts(
        o, T_0=2, T_mult=2, eta_min=0.01),
    "CyclicLR triangular": lambda L, o: L.CyclicLR(o, 0.01, 0.1, step_size_up=3,
                                                   step_size_down=5),
    "CyclicLR triangular2": lambda L, o: L.CyclicLR(o, [0.01, 0.02], 0.1, step_size_up=4,
                                                    mode="triangular2"),
    "CyclicLR exp_range": lambda L, o: L.CyclicLR(o, 0.01, 0.1, step_size_up=2,
                                                  mode="exp_range", gamma=0.9),
    "OneCycleLR": lambda L, o: L.OneCycleLR(o, max_lr=0.1, total_steps=STEPS),
    "OneCycleLR linear three_phase": lambda L, o: L.OneCycleLR(
        o, max_lr=[0.1, 0.2], epochs=5, steps_per_epoch=5, anneal_strategy="linear",
        three_phase=True),
    "SequentialLR": lambda L, o: L.SequentialLR(
        o, [L.LinearLR(o, start_factor=0.1, total_iters=5), L.ExponentialLR(o, gamma=0.9)],
        milestones=[5]),
    "SequentialLR three": lambda L, o: L.SequentialLR(
        o, [L.ConstantLR(o, factor=0.5, total_iters=3), L.StepLR(o, 2, 0.5),
            L.CosineAnnealingLR(o, T_max=6)], milestones=[4, 10]),
    "ChainedScheduler": lambda L, o: L.ChainedScheduler(
        [L.ConstantLR(o, factor=0.1, total_iters=4), L.ExponentialLR(o, gamma=0.9)]),
    "ReduceLROnPlateau": lambda L, o: L.ReduceLROnPlateau(o, patience=2, cooldown=1,
                                                          min_lr=[0.0, 0.004]),
    "ReduceLROnPlateau max abs": lambda L, o: L.ReduceLROnPlateau(
        o, mode="max", factor=0.5, patience=1, threshold=0.5, threshold_mode="abs"),
}
ADAM_CONFIGS = {"CyclicLR triangular", "OneCycleLR"}  # also cycled through Adam's beta1


def _optimizer(lib, kind: str):
    ps = [lib.tensor(np.zeros(2), requires_grad=True), lib.tensor(np.zeros(3), requires_grad=True)]
    groups = [{"params": [ps[0]]}, {"params": [ps[1]], "lr": 0.05}]
    if kind == "adam":
        return lib.optim.Adam(groups, lr=0.1)
    return lib.optim.SGD(groups, lr=0.1, momentum=0.9)


def _trace(lib, name: str, kind: str, steps: int = STEPS, reload_at: int | None = None):
    opt = _optimizer(lib, kind)
    sched = CONFIGS[name](lib.optim.lr_scheduler, opt)
    rows = [_row(sched, opt)]
    for t in range(steps):
        opt.step()
        if "Plateau" in name:
            sched.step(METRICS[t])
        else:
            sched.step()
        rows.append(_row(sched, opt))
        if t == reload_at:  # a fresh optimizer and scheduler resumed from the state dicts
            opt2 = _optimizer(lib, kind)
            opt2.load_state_dict(opt.state_dict())
            sched2 = CONFIGS[name](lib.optim.lr_scheduler, opt2)
            sched2.load_state_dict(sched.state_dict())
            opt, sched = opt2, sched2
    return rows


def _row(sched, opt) -> list[float]:
    row = [float(x) for x in sched.get_last_lr()] + [float(g["lr"]) for g in opt.param_groups]
    for g in opt.param_groups:
        row.append(float(g["betas"][0] if "betas" in g else g["momentum"]))
    return row


@pytest.mark.parametrize("name, kind", [(n, "sgd") for n in sorted(CONFIGS)]
                         + [(n, "adam") for n in sorted(ADAM_CONFIGS)])
def test_rates_match_torch(name, kind):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = _trace(torch, name, kind)
        ours = _trace(mg, name, kind)
        # resuming rebuilds the scheduler (whose initial step may change the rates) before
        # loading: what that gives is PyTorch's too
        theirs_resumed = _trace(torch, name, kind, reload_at=11)
        ours_resumed = _trace(mg, name, kind, reload_at=11)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(ours_resumed, theirs_resumed, rtol=1e-12, atol=1e-15)


CLOSED_FORM = ["StepLR", "MultiStepLR", "ConstantLR", "LinearLR", "ExponentialLR", "PolynomialLR",
               "CosineAnnealingLR", "CosineAnnealingWarmRestarts",
               "CosineAnnealingWarmRestarts T_mult"]


@pytest.mark.parametrize("name", CLOSED_FORM)
def test_step_to_an_epoch_uses_the_closed_form_as_torch(name):
    epochs = [3, 9, 4, 4, 17, 0, 2.5] if "Restarts" in name else [3, 9, 4, 4, 17, 0]
    out = {}
    for lib in (torch, mg):
        opt = _optimizer(lib, "sgd")
        sched = CONFIGS[name](lib.optim.lr_scheduler, opt)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rows = []
            for e in epochs:
                opt.step()
                sched.step(e)
                rows.append(sched.get_last_lr())
        out[lib.__name__] = rows
    np.testing.assert_allclose(out["minigrad"], out["torch"], rtol=1e-12)


def test_every_torch_scheduler_exists_in_minigrad():
    names = {n for n, v in vars(torch.optim.lr_scheduler).items()
             if isinstance(v, type) and issubclass(v, torch.optim.lr_scheduler.LRScheduler)
             and not n.startswith("_")}
    missing = sorted(n for n in names if not hasattr(mg.optim.lr_scheduler, n))
    assert missing == [] and len(names) >= 15, (missing, names)
    tested = {n.split()[0] for n in CONFIGS}
    assert tested == names - {"LRScheduler"}, names - tested

"""Learning-rate schedulers with PyTorch's names, formulas and bookkeeping
(``torch.optim.lr_scheduler``, all fifteen).

As in PyTorch: building a scheduler records each group's ``initial_lr`` and
performs step 0 (``last_epoch`` becomes 0 and the groups' ``lr`` is set);
call ``scheduler.step()`` once per epoch (or iteration) *after*
``optimizer.step()`` (``ReduceLROnPlateau.step(metric)`` takes the metric it
watches). ``get_last_lr()`` is the list of the groups' current rates;
``state_dict()``/``load_state_dict()`` save and restore everything but the
optimizer (and plain functions, as PyTorch). The update rules are PyTorch's
recursive ("chainable") forms, and ``step(epoch)`` uses the closed forms, so the
rates match torch's to float rounding, including inside a SequentialLR (which
restarts the next scheduler at each milestone) or a ChainedScheduler.

==============================  ==================================================
``LambdaLR``                    lr = base_lr * f(epoch)
``MultiplicativeLR``            lr = lr * f(epoch) each step
``StepLR`` / ``MultiStepLR``    times gamma every step_size epochs / at milestones
``ConstantLR``                  base_lr * factor until total_iters, then base_lr
``LinearLR``                    factor linear from start_factor to end_factor
``ExponentialLR``               lr = base_lr * gamma^epoch
``PolynomialLR``                base_lr * (1 - min(epoch, T) / T)^power
``CosineAnnealingLR``           cosine from base_lr to eta_min over T_max
``CosineAnnealingWarmRestarts`` the cosine restarted after T_0, T_0 T_mult, ...
``CyclicLR``                    triangular cycles between base_lr and max_lr
``OneCycleLR``                  warm up to max_lr, anneal far below (Smith)
``SequentialLR``                one scheduler after another at milestones
``ChainedScheduler``            every scheduler's factor each step
``ReduceLROnPlateau``           lr * factor when a metric stops improving
==============================  ==================================================

Warmup then cosine decay (what ``optim.CosineWithWarmup`` computes in closed form)::

    warmup = LinearLR(opt, start_factor=1e-3, total_iters=W)
    decay = CosineAnnealingLR(opt, T_max=N - W, eta_min=min_lr)
    sched = SequentialLR(opt, [warmup, decay], milestones=[W])
"""

from .base import LRScheduler
from .combinators import ChainedScheduler, SequentialLR
from .cosine import CosineAnnealingLR, CosineAnnealingWarmRestarts
from .cyclic import CyclicLR, OneCycleLR
from .factors import (
    ConstantLR,
    ExponentialLR,
    LambdaLR,
    LinearLR,
    MultiplicativeLR,
    MultiStepLR,
    PolynomialLR,
    StepLR,
)
from .plateau import ReduceLROnPlateau

__all__ = ["ChainedScheduler", "ConstantLR", "CosineAnnealingLR", "CosineAnnealingWarmRestarts",
           "CyclicLR", "ExponentialLR", "LRScheduler", "LambdaLR", "LinearLR", "MultiStepLR",
           "MultiplicativeLR", "OneCycleLR", "PolynomialLR", "ReduceLROnPlateau", "SequentialLR",
           "StepLR"]

"""Learning rate: linear warmup, then cosine decay to a floor (nanoGPT's ``get_lr``).

For iteration ``it`` (counting from 0), base rate ``lr``, W warmup and M max iterations:

    it < W:        lr * (it + 1) / (W + 1)        linear ramp, never exactly 0
    W <= it < M:   min_lr + 0.5 * (1 + cos(pi * (it - W) / (M - W))) * (lr - min_lr)
    it >= M:       min_lr

The warmup avoids large, badly-aimed first steps while Adam's second-moment
estimates are still noisy; the cosine lowers the rate smoothly for fine
convergence at the end. (The ``it + 1`` and ``W + 1`` are nanoGPT's current
form: the first iteration already moves, and the ramp reaches lr at it = W.)

This is the trainer's closed form; PyTorch's stateful schedulers (``LinearLR``,
``CosineAnnealingLR``, ``SequentialLR``, ...) are in ``minigrad.optim.lr_scheduler``.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

from .optimizer import Optimizer, check_hyperparameter


def _check_iters(warmup_iters: Any, max_iters: Any) -> None:
    for name, v in (("warmup_iters", warmup_iters), ("max_iters", max_iters)):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 0:
            raise ValueError(f"{name} must be an int >= 0, got {v!r}")
    if max_iters < warmup_iters:
        raise ValueError(f"max_iters ({max_iters}) must be >= warmup_iters ({warmup_iters})")


def cosine_lr(it: int, base_lr: float, warmup_iters: int, max_iters: int, min_lr: float) -> float:
    """The learning rate at iteration ``it`` >= 0 (see the module docstring for the formula)."""
    _check_iters(warmup_iters, max_iters)
    if isinstance(it, bool) or not isinstance(it, numbers.Integral) or it < 0:
        raise ValueError(f"iteration must be an int >= 0, got {it!r}")
    if it < warmup_iters:
        return base_lr * (it + 1) / (warmup_iters + 1)
    if it >= max_iters:  # also covers max_iters == warmup_iters (no decay phase)
        return min_lr
    decay_ratio = (it - warmup_iters) / (max_iters - warmup_iters)
    coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio))  # 1 -> 0
    return min_lr + coeff * (base_lr - min_lr)


class CosineWithWarmup:
    """Set each group's ``lr`` to ``cosine_lr(it, base_lr, ...)``; call ``step()`` per iteration.

    Each group's base rate is its ``lr`` when the schedule is built. The
    constructor sets the rate of iteration 0; ``step()`` advances to the next
    iteration, so the loop is ``loss.backward(); opt.step(); sched.step()``.
    """

    def __init__(self, optimizer: Optimizer, warmup_iters: int, max_iters: int,
                 min_lr: float = 0.0) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"expected a minigrad Optimizer, got {type(optimizer).__name__}")
        _check_iters(warmup_iters, max_iters)
        self.min_lr = check_hyperparameter("min_lr", min_lr)
        self.optimizer = optimizer
        self.warmup_iters = int(warmup_iters)
        self.max_iters = int(max_iters)
        self.base_lrs = [float(g["lr"]) for g in optimizer.param_groups]
        self.last_iter = 0
        self._apply()

    def get_lr(self, it: int) -> float:
        """The rate at iteration ``it`` for the first group's base rate (nanoGPT's get_lr)."""
        return cosine_lr(it, self.base_lrs[0], self.warmup_iters, self.max_iters, self.min_lr)

    def get_last_lr(self) -> list[float]:
        """The rate currently set in each group."""
        return [g["lr"] for g in self.optimizer.param_groups]

    def step(self) -> None:
        """Advance one iteration and set the groups' rates for it."""
        self.last_iter += 1
        self._apply()

    def _apply(self) -> None:
        for group, base in zip(self.optimizer.param_groups, self.base_lrs):
            group["lr"] = cosine_lr(self.last_iter, base, self.warmup_iters, self.max_iters,
                                    self.min_lr)

    def state_dict(self) -> dict[str, Any]:
        """Plain ints and floats: the settings, the base rates and the current iteration."""
        return {"warmup_iters": self.warmup_iters, "max_iters": self.max_iters,
                "min_lr": self.min_lr, "base_lrs": list(self.base_lrs),
                "last_iter": self.last_iter}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore a :meth:`state_dict` and set the groups' rates; checks everything first."""
        expected = {"warmup_iters", "max_iters", "min_lr", "base_lrs", "last_iter"}
        if not isinstance(state_dict, dict) or set(state_dict) != expected:
            got = sorted(map(str, state_dict)) if isinstance(state_dict, dict) else state_dict
            raise ValueError(f"a schedule state dict has keys {sorted(expected)}, got {got!r}")
        _check_iters(state_dict["warmup_iters"], state_dict["max_iters"])
        min_lr = check_hyperparameter("min_lr", state_dict["min_lr"])
        base_lrs = state_dict["base_lrs"]
        n = len(self.optimizer.param_groups)
        if not isinstance(base_lrs, (list, tuple)) or len(base_lrs) != n:
            raise ValueError(f"base_lrs must list one rate per parameter group ({n}), "
                             f"got {base_lrs!r}")
        base_lrs = [check_hyperparameter("base_lrs entry", b) for b in base_lrs]
        it = state_dict["last_iter"]
        if isinstance(it, bool) or not isinstance(it, numbers.Integral) or it < 0:
            raise ValueError(f"last_iter must be an int >= 0, got {it!r}")
        self.warmup_iters = int(state_dict["warmup_iters"])
        self.max_iters = int(state_dict["max_iters"])
        self.min_lr = min_lr
        self.base_lrs = base_lrs
        self.last_iter = int(it)
        self._apply()

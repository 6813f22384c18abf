"""ASGD: stochastic gradient descent with a decaying step and a running average of the iterates
(Polyak & Juditsky 1992).

PyTorch's rule at step t, for a parameter p with gradient g (after ``maximize`` and
``g = g + wd * p`` when ``weight_decay != 0``)::

    p = p * (1 - lambd * eta) - eta * g
    ax = ax + mu * (p - ax)            (ax = p while mu == 1)
    eta = lr / (1 + lambd * lr * t)^alpha
    mu = 1 / max(1, t - t0)

``ax`` is the averaged parameter (averaging starts after ``t0`` steps); ``eta`` and
``mu`` are float32 scalars, as PyTorch's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .optimizer import (
    Optimizer,
    check_hyperparameter,
    check_nonnegative,
    l2_decay,
    to_float32,
    zeros_state,
)


class ASGD(Optimizer):
    """``ASGD(params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
    maximize=False, differentiable=False, capturable=False)``.

    State per parameter: ``step``, ``eta``, ``mu``, ``ax``. ``foreach`` is accepted and
    ignored (same arithmetic).
    """

    _array_state = ("ax",)
    _count_state = ("step",)
    _float32_state = ("eta", "mu")

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, lambd: float = 1e-4,
                 alpha: float = 0.75, t0: float = 1e6, weight_decay: float = 0,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False, capturable: bool = False) -> None:
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0,
                    "weight_decay": weight_decay, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def _check_group(self, group: dict[str, Any]) -> None:
        check_nonnegative(group, "lr", "weight_decay")
        for name in ("lambd", "alpha", "t0"):
            check_hyperparameter(name, group[name], low=-np.inf)

    def _update(self, p: Any, g: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        if not state:
            state.update(zeros_state(p.data, "ax"))
            state.update(eta=to_float32(group["lr"]), mu=1.0)
        state["step"] += 1
        lr, lambd, t = group["lr"], group["lambd"], state["step"]
        g = l2_decay(g, p.data, group["weight_decay"])
        eta = state["eta"]
        p.data *= 1 - lambd * eta
        p.data -= eta * g
        if state["mu"] != 1:
            state["ax"] += state["mu"] * (p.data - state["ax"])
        else:
            state["ax"][...] = p.data
        state["eta"] = to_float32(lr / ((1 + lambd * lr * t) ** group["alpha"]))
        state["mu"] = to_float32(1 / max(1, t - group["t0"]))

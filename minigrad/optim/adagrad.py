"""Adagrad (Duchi et al. 2011): each coordinate's step shrinks with its summed squared gradients.

PyTorch's rule at step t, for a parameter p with gradient g (after ``maximize`` and
``g = g + wd * p`` when ``weight_decay != 0``)::

    clr = lr / (1 + (t - 1) * lr_decay)
    s = s + g^2                                  sum (starts at initial_accumulator_value)
    p = p - clr * g / (sqrt(s) + eps)

As PyTorch, the state of every parameter exists from construction (``step`` 0 and
``sum`` filled with ``initial_accumulator_value``), so a fresh optimizer's state dict
already lists it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .optimizer import Optimizer, check_nonnegative, l2_decay


class Adagrad(Optimizer):
    """``Adagrad(params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
    eps=1e-10, foreach=None, *, maximize=False, differentiable=False, fused=None)``.

    State per parameter: ``step`` and ``sum``. ``foreach`` and ``fused`` choose PyTorch's
    kernels, not the arithmetic: accepted and ignored. Dense gradients only.
    """

    _array_state = ("sum",)
    _count_state = ("step",)

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, lr_decay: float = 0,
                 weight_decay: float = 0, initial_accumulator_value: float = 0,
                 eps: float = 1e-10, foreach: bool | None = None, *, maximize: bool = False,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        if fused and foreach:
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value,
                    "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        for i, p, group in self._indexed_params():
            self.state[i] = self._fresh_state(p.data, group)

    @staticmethod
    def _fresh_state(data: np.ndarray, group: dict[str, Any]) -> dict[str, Any]:
        return {"step": 0, "sum": np.full(data.shape, group["initial_accumulator_value"],
                                          dtype=data.dtype)}

    def _check_group(self, group: dict[str, Any]) -> None:
        check_nonnegative(group, "lr", "lr_decay", "weight_decay", "initial_accumulator_value",
                          "eps")

    def _update(self, p: Any, g: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        if not state:  # a parameter added by add_param_group
            state.update(self._fresh_state(p.data, group))
        state["step"] += 1
        g = l2_decay(g, p.data, group["weight_decay"])
        clr = group["lr"] / (1 + (state["step"] - 1) * group["lr_decay"])
        s = state["sum"]
        s += g * g
        p.data -= clr * (g / (np.sqrt(s) + group["eps"]))

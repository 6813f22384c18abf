"""RMSprop and Adadelta: steps scaled by a running average of the squared gradient.

PyTorch's rules, for a parameter p with gradient g (after ``maximize`` and
``g = g + wd * p`` when ``weight_decay != 0``):

RMSprop (Hinton's lecture 6e; ``centered`` is Graves 2013)::

    v = alpha * v + (1 - alpha) * g^2                   square_avg
    a = alpha * a + (1 - alpha) * g   (centered)         grad_avg
    d = sqrt(v - a^2) + eps  (centered)  or  sqrt(v) + eps
    b = momentum * b + g / d;  p = p - lr * b   (momentum > 0; momentum_buffer)
    p = p - lr * g / d                          (otherwise)

Adadelta (Zeiler 2012)::

    v = rho * v + (1 - rho) * g^2                        square_avg
    delta = sqrt(u + eps) / sqrt(v + eps) * g
    u = rho * u + (1 - rho) * delta^2                    acc_delta
    p = p - lr * delta
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .optimizer import Optimizer, check_hyperparameter, check_nonnegative, l2_decay, zeros_state


class RMSprop(Optimizer):
    """``RMSprop(params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
    centered=False, capturable=False, foreach=None, maximize=False, differentiable=False)``.

    State per parameter: ``step``, ``square_avg``, and ``momentum_buffer`` (momentum > 0)
    and ``grad_avg`` (centered). ``foreach`` is accepted and ignored (same arithmetic).
    """

    _array_state = ("square_avg",)
    _count_state = ("step",)

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, alpha: float = 0.99,
                 eps: float = 1e-8, weight_decay: float = 0, momentum: float = 0,
                 centered: bool = False, capturable: bool = False, foreach: bool | None = None,
                 maximize: bool = False, differentiable: bool = False) -> None:
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps,
                    "centered": centered, "weight_decay": weight_decay, "capturable": capturable,
                    "foreach": foreach, "maximize": maximize, "differentiable": differentiable}
        super().__init__(params, defaults)

    def _check_group(self, group: dict[str, Any]) -> None:
        check_nonnegative(group, "lr", "eps", "momentum", "weight_decay", "alpha")

    def _state_names(self, group: dict[str, Any]) -> dict[str, str]:
        names = super()._state_names(group)
        if group["momentum"] > 0:
            names["momentum_buffer"] = "array"
        if group["centered"]:
            names["grad_avg"] = "array"
        return names

    def _update(self, p: Any, g: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        if not state:
            extra = [k for k in self._state_names(group) if k not in ("step", "square_avg")]
            state.update(zeros_state(p.data, "square_avg", *extra))
        state["step"] += 1
        alpha, eps, lr, momentum = group["alpha"], group["eps"], group["lr"], group["momentum"]
        g = l2_decay(g, p.data, group["weight_decay"])
        v = state["square_avg"]
        v *= alpha
        v += (1 - alpha) * (g * g)
        if group["centered"]:
            a = state["grad_avg"]
            a += (1 - alpha) * (g - a)
            denom = np.sqrt(v - a * a)
        else:
            denom = np.sqrt(v)
        denom += eps
        if momentum > 0:
            b = state["momentum_buffer"]
            b *= momentum
            b += g / denom
            p.data -= lr * b
        else:
            p.data -= lr * (g / denom)


class Adadelta(Optimizer):
    """``Adadelta(params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *,
    capturable=False, maximize=False, differentiable=False)``.

    State per parameter: ``step``, ``square_avg``, ``acc_delta``. ``foreach`` is
    accepted and ignored (same arithmetic).
    """

    _array_state = ("square_avg", "acc_delta")
    _count_state = ("step",)

    def __init__(self, params: Iterable[Any], lr: float = 1.0, rho: float = 0.9,
                 eps: float = 1e-6, weight_decay: float = 0, foreach: bool | None = None, *,
                 capturable: bool = False, maximize: bool = False,
                 differentiable: bool = False) -> None:
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize, "capturable": capturable, "foreach": foreach,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _check_group(self, group: dict[str, Any]) -> None:
        check_nonnegative(group, "lr", "eps", "weight_decay")
        check_hyperparameter("rho", group["rho"], high=1.0, high_inclusive=True)

    def _update(self, p: Any, g: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        if not state:
            state.update(zeros_state(p.data, *self._array_state))
        state["step"] += 1
        rho, eps = group["rho"], group["eps"]
        g = l2_decay(g, p.data, group["weight_decay"])
        v, u = state["square_avg"], state["acc_delta"]
        v *= rho
        v += (1 - rho) * (g * g)
        delta = np.sqrt(u + eps) / np.sqrt(v + eps) * g
        u *= rho
        u += (1 - rho) * (delta * delta)
        p.data -= group["lr"] * delta

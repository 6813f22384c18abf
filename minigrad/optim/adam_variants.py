"""Adamax, NAdam and RAdam: Adam's moments with another denominator or step size.

PyTorch's rules at step t, for a parameter p with gradient g (after ``maximize``);
``m = beta1 * m + (1 - beta1) * g`` (exp_avg) in all three:

Adamax (Kingma & Ba 2015, the infinity norm), with ``g = g + wd * p``::

    u = max(beta2 * u, |g| + eps)                        exp_inf
    p = p - lr / (1 - beta1^t) * m / u

NAdam (Dozat 2016, Nesterov momentum), L2 ``g = g + wd * p`` or, with
``decoupled_weight_decay``, ``p = p * (1 - lr * wd)``::

    mu_t = beta1 * (1 - 0.5 * 0.96^(t * momentum_decay))
    mu_product = mu_product * mu_t                       (float32, as PyTorch's)
    v = beta2 * v + (1 - beta2) * g^2;  d = sqrt(v / (1 - beta2^t)) + eps
    p = p - lr * (1 - mu_t) / (1 - mu_product) * g / d
          - lr * mu_{t+1} / (1 - mu_product * mu_{t+1}) * m / d

RAdam (Liu et al. 2020, the rectified variance), weight decay as NAdam's::

    v = beta2 * v + (1 - beta2) * g^2
    rho_inf = 2 / (1 - beta2) - 1;  rho_t = rho_inf - 2 t beta2^t / (1 - beta2^t)
    m_hat = m / (1 - beta1^t)
    p = p - lr * m_hat * r * sqrt(1 - beta2^t) / (sqrt(v) + eps)    if rho_t > 5, with
        r = sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2) rho_t))
    p = p - lr * m_hat                                               otherwise
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from .adam import check_betas
from .optimizer import Optimizer, check_nonnegative, l2_decay, to_float32, zeros_state


class _AdamFamily(Optimizer):
    """The shared part: the checks of lr, betas, eps, weight_decay (and momentum_decay), the
    state (``step``, ``exp_avg`` and the class's second buffer), the weight decay (L2 or, with
    ``decoupled_weight_decay``, decoupled), and the first moment."""

    _count_state = ("step",)

    def _check_group(self, group: dict[str, Any]) -> None:
        check_nonnegative(group, "lr", "eps", "weight_decay",
                          *(["momentum_decay"] if "momentum_decay" in group else []))
        check_betas(group)

    def _first_moment(self, p: Any, g: np.ndarray, state: dict[str, Any],
                      group: dict[str, Any]) -> np.ndarray:
        """Start or advance the state, apply the weight decay, update ``exp_avg``; return the
        (decayed) gradient."""
        if not state:
            state.update(zeros_state(p.data, *self._array_state))
            state.update({k: 1.0 for k in self._float32_state})
        state["step"] += 1
        wd = group["weight_decay"]
        if group.get("decoupled_weight_decay") and wd != 0:
            p.data *= 1 - group["lr"] * wd
        else:
            g = l2_decay(g, p.data, wd)
        m = state["exp_avg"]
        m += (1 - group["betas"][0]) * (g - m)
        return g


class Adamax(_AdamFamily):
    """``Adamax(params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
    maximize=False, differentiable=False, capturable=False)``.

    State per parameter: ``step``, ``exp_avg``, ``exp_inf``. ``foreach`` is accepted and
    ignored (same arithmetic).
    """

    _array_state = ("exp_avg", "exp_inf")

    def __init__(self, params: Iterable[Any], lr: float = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, foreach: bool | None = None, *,
                 maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    def _update(self, p: Any, g: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        g = self._first_moment(p, g, state, group)
        beta1, beta2 = group["betas"]
        u = state["exp_inf"]
        np.maximum(u * beta2, np.abs(g) + group["eps"], out=u)
        clr = group["lr"] / (1 - beta1 ** state["step"])
        p.data -= clr * (state["exp_avg"] / u)


class NAdam(_AdamFamily):
    """``NAdam(params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
    momentum_decay=4e-3, decoupled_weight_decay=False, *, foreach=None, maximize=False,
    capturable=False, differentiable=False)``.

    State per parameter: ``step``, ``mu_product`` (a float32 scalar, as PyTorch's),
    ``exp_avg``, ``exp_avg_sq``. ``foreach`` is accepted and ignored (same arithmetic).
    """

    _array_state = ("exp_avg", "exp_avg_sq")
    _float32_state = ("mu_product",)

    def __init__(self, params: Iterable[Any], lr: float = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, momentum_decay: float = 4e-3,
                 decoupled_weight_decay: bool = False, *, foreach: bool | None = None,
                 maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay,
                    "decoupled_weight_decay": decoupled_weight_decay, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _update(self, p: Any, g: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        g = self._first_moment(p, g, state, group)
        beta1, beta2 = group["betas"]
        lr, t, psi = group["lr"], state["step"], group["momentum_decay"]
        mu = beta1 * (1.0 - 0.5 * 0.96 ** (t * psi))
        mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((t + 1) * psi))
        state["mu_product"] = to_float32(np.float32(state["mu_product"]) * np.float32(mu))
        mu_product = state["mu_product"]
        v = state["exp_avg_sq"]
        v *= beta2
        v += (1 - beta2) * (g * g)
        denom = np.sqrt(v / (1 - beta2**t)) + group["eps"]
        p.data += (-lr * (1.0 - mu) / (1.0 - mu_product)) * (g / denom)
        p.data += (-lr * mu_next / (1.0 - mu_product * mu_next)) * (state["exp_avg"] / denom)


class RAdam(_AdamFamily):
    """``RAdam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
    decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
    differentiable=False)``.

    State per parameter: ``step``, ``exp_avg``, ``exp_avg_sq``. ``foreach`` is accepted and
    ignored (same arithmetic).
    """

    _array_state = ("exp_avg", "exp_avg_sq")

    def __init__(self, params: Iterable[Any], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, decoupled_weight_decay: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "decoupled_weight_decay": decoupled_weight_decay,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def _update(self, p: Any, g: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        g = self._first_moment(p, g, state, group)
        beta1, beta2 = group["betas"]
        lr, t = group["lr"], state["step"]
        v = state["exp_avg_sq"]
        v *= beta2
        v += (1 - beta2) * (g * g)
        bc1, bc2 = 1 - beta1**t, 1 - beta2**t
        m_hat = state["exp_avg"] / bc1
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * t * (beta2**t) / bc2
        if rho_t > 5.0:
            rect = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf
                             / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
            adaptive = bc2**0.5 / (np.sqrt(v) + group["eps"])
            p.data -= m_hat * lr * adaptive * rect
        else:
            p.data -= m_hat * lr

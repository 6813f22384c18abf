"""Adam and AdamW: adaptive moments with bias correction.

Both keep, per parameter, the step count t and running averages of the
gradient (m, first moment) and of its square (v, second moment); see
``Reference.adam_update`` in ``minigrad/backends/reference.py`` for the update written
out. They differ only in weight decay:

- ``Adam``: L2 regularisation, ``g = g + wd * p`` before the moments
  (so the decay is rescaled by the adaptive denominator);
- ``AdamW``: decoupled decay, ``p = p * (1 - lr * wd)`` before the step
  (Loshchilov & Hutter), the optimizer nanoGPT trains with.

The rules and defaults are PyTorch's (``amsgrad=False``, ``maximize=False``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np

from .. import backends
from .optimizer import Optimizer, check_hyperparameter


class AdamCoefficients(NamedTuple):
    """The scalars of one Adam/AdamW step, in the parameter's dtype (the order of the
    fused kernel's arguments: ``kernels/adamw.py`` takes them as ``*coefficients``)."""

    decay: np.floating  # 1 - lr * wd (AdamW) or 1
    l2: np.floating  # wd (Adam) or 0
    beta1: np.floating
    one_minus_beta1: np.floating
    beta2: np.floating
    one_minus_beta2: np.floating
    step_size: np.floating  # lr / bc1
    bc2_sqrt: np.floating  # sqrt(bc2)
    eps: np.floating
    apply_decay: bool
    apply_l2: bool


def adam_coefficients(lr: float, beta1: float, beta2: float, eps: float, weight_decay: float,
                      step: int, decoupled: bool, dtype: np.dtype) -> AdamCoefficients:
    """The scalars of Adam (``decoupled=False``) or AdamW step ``step`` >= 1, with bias
    corrections bc1 = 1 - beta1^step, bc2 = 1 - beta2^step; computed in Python float64
    as PyTorch does, then cast to ``dtype``."""
    dt = np.dtype(dtype).type
    bc1 = 1.0 - beta1**step
    bc2 = 1.0 - beta2**step
    use_wd = weight_decay != 0.0
    return AdamCoefficients(
        decay=dt(1.0 - lr * weight_decay if decoupled else 1.0),
        l2=dt(0.0 if decoupled else weight_decay),
        beta1=dt(beta1), one_minus_beta1=dt(1.0 - beta1),
        beta2=dt(beta2), one_minus_beta2=dt(1.0 - beta2),
        step_size=dt(lr / bc1), bc2_sqrt=dt(math.sqrt(bc2)), eps=dt(eps),
        apply_decay=decoupled and use_wd, apply_l2=(not decoupled) and use_wd,
    )


class Adam(Optimizer):
    """``Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0)``.

    State per parameter: ``step`` (int), ``exp_avg`` and ``exp_avg_sq``
    (shaped like the parameter, in its dtype). Each step runs the active backend's
    ``adam_update``: with ``fused=True`` (default) one Numba pass on the fast backend
    where the arrays allow it; ``fused=False`` asks every backend for NumPy's update.
    """

    _array_state = ("exp_avg", "exp_avg_sq")
    _count_state = ("step",)
    _decoupled = False

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0.0,
        fused: bool = True,
    ) -> None:
        self.fused = bool(fused)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay}
        super().__init__(params, defaults)

    def _check_group(self, group: dict[str, Any]) -> None:
        check_hyperparameter("lr", group["lr"])
        betas = group["betas"]
        if not isinstance(betas, (tuple, list)) or len(betas) != 2:
            raise ValueError(f"betas must be a pair (beta1, beta2), got {betas!r}")
        check_hyperparameter("beta1 (betas[0])", betas[0], high=1.0)
        check_hyperparameter("beta2 (betas[1])", betas[1], high=1.0)
        group["betas"] = (float(betas[0]), float(betas[1]))
        check_hyperparameter("eps", group["eps"])
        check_hyperparameter("weight_decay", group["weight_decay"])

    def _update(self, p: Any, g: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        data = p.data
        if not state:
            state["step"] = 0
            state["exp_avg"] = np.zeros(data.shape, dtype=data.dtype)
            state["exp_avg_sq"] = np.zeros(data.shape, dtype=data.dtype)
        state["step"] += 1
        beta1, beta2 = group["betas"]
        key = (group["lr"], beta1, beta2, group["eps"], group["weight_decay"], state["step"],
               data.dtype)
        # consecutive parameters (a group's, at the same step) share their coefficients
        last = getattr(self, "_last_coefficients", None)
        if last is not None and last[0] == key:
            c = last[1]
        else:
            c = adam_coefficients(*key[:6], self._decoupled, data.dtype)
            self._last_coefficients = (key, c)
        m, v = state["exp_avg"], state["exp_avg_sq"]
        backends.active.adam_update(data, g, m, v, c, fused=self.fused)


class AdamW(Adam):
    """``AdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2)``.

    Adam with decoupled weight decay: ``p *= 1 - lr * wd`` before each step.
    """

    _decoupled = True

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        fused: bool = True,
    ) -> None:
        super().__init__(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                         fused=fused)

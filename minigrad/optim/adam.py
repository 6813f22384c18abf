"""Adam and AdamW: adaptive moments with bias correction.

Both keep, per parameter, the step count t and running averages of the
gradient (m, first moment) and of its square (v, second moment); see
``Reference.adam_update`` in ``minigrad/backends/reference.py`` for the update written
out. They differ only in weight decay:

- ``Adam``: L2 regularisation, ``g = g + wd * p`` before the moments
  (so the decay is rescaled by the adaptive denominator);
- ``AdamW``: decoupled decay, ``p = p * (1 - lr * wd)`` before the step
  (Loshchilov & Hutter), the optimizer nanoGPT trains with.

With ``amsgrad=True`` the denominator uses the running maximum of v
(``max_exp_avg_sq``), so the effective step never grows (Reddi et al.).
The rules, defaults, options and state names are PyTorch's; ``foreach`` is
accepted and ignored (same arithmetic), ``fused`` picks minigrad's one-pass
Numba kernel (``None`` or True; False asks for NumPy's update; amsgrad runs in
NumPy).
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
    """``Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
    foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
    decoupled_weight_decay=False)``.

    State per parameter: ``step`` (int), ``exp_avg`` and ``exp_avg_sq`` (and
    ``max_exp_avg_sq`` with amsgrad), shaped like the parameter, in its dtype. Each
    step runs the active backend's ``adam_update``: one Numba pass on the fast backend
    where the arrays allow it unless ``fused=False``.
    """

    _array_state = ("exp_avg", "exp_avg_sq")
    _count_state = ("step",)

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0.0,
        amsgrad: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
        decoupled_weight_decay: bool = False,
    ) -> None:
        if fused and foreach:
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach,
                    "capturable": capturable, "differentiable": differentiable, "fused": fused,
                    "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)

    def _check_group(self, group: dict[str, Any]) -> None:
        check_hyperparameter("lr", group["lr"])
        check_betas(group)
        check_hyperparameter("eps", group["eps"])
        check_hyperparameter("weight_decay", group["weight_decay"])

    def _state_names(self, group: dict[str, Any]) -> dict[str, str]:
        names = super()._state_names(group)
        if group["amsgrad"]:
            names["max_exp_avg_sq"] = "array"
        return names

    def _update(self, p: Any, g: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        data = p.data
        if not state:
            state["step"] = 0
            state["exp_avg"] = np.zeros(data.shape, dtype=data.dtype)
            state["exp_avg_sq"] = np.zeros(data.shape, dtype=data.dtype)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = np.zeros(data.shape, dtype=data.dtype)
        state["step"] += 1
        beta1, beta2 = group["betas"]
        key = (group["lr"], beta1, beta2, group["eps"], group["weight_decay"], state["step"],
               bool(group["decoupled_weight_decay"]), data.dtype)
        # consecutive parameters (a group's, at the same step) share their coefficients
        last = getattr(self, "_last_coefficients", None)
        if last is not None and last[0] == key:
            c = last[1]
        else:
            c = adam_coefficients(*key)
            self._last_coefficients = (key, c)
        m, v = state["exp_avg"], state["exp_avg_sq"]
        backends.active.adam_update(data, g, m, v, c, fused=group["fused"] is not False,
                                    v_max=state.get("max_exp_avg_sq"))



def check_betas(group: dict[str, Any]) -> None:
    """``group["betas"]`` is a pair in [0, 1); stored back as a tuple of floats."""
    betas = group["betas"]
    if not isinstance(betas, (tuple, list)) or len(betas) != 2:
        raise ValueError(f"betas must be a pair (beta1, beta2), got {betas!r}")
    check_hyperparameter("beta1 (betas[0])", betas[0], high=1.0)
    check_hyperparameter("beta2 (betas[1])", betas[1], high=1.0)
    group["betas"] = (float(betas[0]), float(betas[1]))


class AdamW(Adam):
    """``AdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
    amsgrad=False, *, maximize=False, foreach=None, capturable=False, differentiable=False,
    fused=None)``.

    Adam with decoupled weight decay: ``p *= 1 - lr * wd`` before each step (its groups
    hold ``decoupled_weight_decay=True``, as PyTorch's).
    """

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        super().__init__(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                         amsgrad=amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

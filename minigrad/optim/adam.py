"""Adam and AdamW: adaptive moments with bias correction.

Both keep, per parameter, the step count t and running averages of the
gradient (m, first moment) and of its square (v, second moment); see
``minigrad/backends/reference.py`` (``adam_update``) for the update written out. They differ only in
weight decay:

- ``Adam``: L2 regularisation, ``g = g + wd * p`` before the moments
  (so the decay is rescaled by the adaptive denominator);
- ``AdamW``: decoupled decay, ``p = p * (1 - lr * wd)`` before the step
  (Loshchilov & Hutter), the optimizer nanoGPT trains with.

The rules and defaults are PyTorch's (``amsgrad=False``, ``maximize=False``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .. import backends
from ..backends.reference import adam_coefficients
from .optimizer import Optimizer, check_hyperparameter


class Adam(Optimizer):
    """``Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0)``.

    State per parameter: ``step`` (int), ``exp_avg`` and ``exp_avg_sq``
    (shaped like the parameter, in its dtype). ``fused=True`` (default) runs
    the active backend's ``adam_update`` (one Numba pass on the fast backend);
    ``fused=False`` always the NumPy reference.
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
        contiguous = (data.flags.c_contiguous and g.flags.c_contiguous and m.flags.c_contiguous
                      and v.flags.c_contiguous)
        # the fused kernel walks flat arrays: a strided .data (a view) takes the NumPy update,
        # which writes through views
        fused = self.fused and contiguous
        (backends.active if fused else backends.reference).adam_update(data, g, m, v, c)


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

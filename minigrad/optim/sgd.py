"""Stochastic gradient descent with momentum, dampening, Nesterov and weight decay.

PyTorch's ``torch.optim.SGD`` rule, for a parameter p with gradient g:

    d = g + wd * p                            (if weight_decay != 0)
    b = d                                     first step with momentum
    b = momentum * b + (1 - dampening) * d    later steps
    d = d + momentum * b  (nesterov)  or  d = b
    p = p - lr * d

With momentum 0 it is plain gradient descent and keeps no state.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .optimizer import Optimizer, check_hyperparameter, l2_decay


class SGD(Optimizer):
    """``SGD(params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
    maximize=False, foreach=None, differentiable=False, fused=None)``.

    State per parameter (with momentum): ``momentum_buffer``, shaped like it.
    Nesterov needs momentum > 0 and dampening 0, as in PyTorch. ``foreach`` and
    ``fused`` choose PyTorch's kernels, not the arithmetic: accepted and ignored.
    """

    _array_state = ("momentum_buffer",)

    def __init__(
        self,
        params: Iterable[Any],
        lr: float = 1e-3,
        momentum: float = 0.0,
        dampening: float = 0.0,
        weight_decay: float = 0.0,
        nesterov: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        differentiable: bool = False,
        fused: bool | None = None,
    ) -> None:
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening,
                    "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
                    "foreach": foreach, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)

    def _check_group(self, group: dict[str, Any]) -> None:
        check_hyperparameter("lr", group["lr"])
        momentum = check_hyperparameter("momentum", group["momentum"])
        dampening = check_hyperparameter("dampening", group["dampening"], high=1.0,
                                         high_inclusive=True)
        check_hyperparameter("weight_decay", group["weight_decay"])
        if group["nesterov"] and (momentum <= 0 or dampening != 0):
            raise ValueError(
                "Nesterov momentum needs momentum > 0 and dampening == 0, got "
                f"momentum={group['momentum']!r}, dampening={group['dampening']!r}"
            )

    def _update(self, p: Any, g: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        lr, momentum, wd = group["lr"], group["momentum"], group["weight_decay"]
        d = l2_decay(g, p.data, wd)
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = np.array(d, dtype=p.data.dtype, order="C", copy=True)
                state["momentum_buffer"] = buf
            else:
                buf *= momentum
                buf += (1 - group["dampening"]) * d
            d = d + momentum * buf if group["nesterov"] else buf
        p.data -= lr * d

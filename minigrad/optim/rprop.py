"""Rprop (Riedmiller & Braun 1993): each coordinate moves by its own step size, in the
direction of the gradient's sign; only the sign of the gradient is used.

PyTorch's rule, for a parameter p with gradient g (after ``maximize``), the previous
gradient ``prev`` and the step sizes ``s`` (starting at ``lr``)::

    f = etaplus where g * prev > 0, etaminus where < 0, 1 where == 0
    s = clip(s * f, step_size_min, step_size_max)
    g = 0 where f == etaminus            (a sign change: skip this coordinate once)
    p = p - sign(g) * s;  prev = g
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .optimizer import Optimizer, check_nonnegative, check_pair


class Rprop(Optimizer):
    """``Rprop(params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable=False,
    foreach=None, maximize=False, differentiable=False)``.

    State per parameter: ``step``, ``prev``, ``step_size``. Needs 0 < etaminus < 1 <
    etaplus. ``foreach`` is accepted and ignored (same arithmetic).
    """

    _array_state = ("prev", "step_size")
    _count_state = ("step",)

    def __init__(self, params: Iterable[Any], lr: float = 1e-2,
                 etas: tuple[float, float] = (0.5, 1.2),
                 step_sizes: tuple[float, float] = (1e-6, 50), *, capturable: bool = False,
                 foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable,
                    "capturable": capturable}
        super().__init__(params, defaults)

    def _check_group(self, group: dict[str, Any]) -> None:
        check_nonnegative(group, "lr")
        etaminus, etaplus = check_pair(group, "etas")
        if not 0.0 < etaminus < 1.0 < etaplus:
            raise ValueError(f"Invalid eta values: {etaminus}, {etaplus}")
        check_pair(group, "step_sizes")

    def _update(self, p: Any, g: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        if not state:
            state.update(step=0, prev=np.zeros(p.data.shape, dtype=p.data.dtype),
                         step_size=np.full(p.data.shape, group["lr"], dtype=p.data.dtype))
        state["step"] += 1
        etaminus, etaplus = group["etas"]
        lo, hi = group["step_sizes"]
        sign = np.sign(g * state["prev"])
        factor = np.where(sign > 0, etaplus, np.where(sign < 0, etaminus, 1.0))
        s = state["step_size"]
        s *= factor
        np.clip(s, lo, hi, out=s)
        g = np.where(factor == etaminus, 0.0, g).astype(p.data.dtype, copy=False)
        p.data -= np.sign(g) * s
        state["prev"][...] = g

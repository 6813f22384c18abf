"""Gradient clipping by the global norm of all gradients together.

    total = (sum over every element of every grad |g|**p) ** (1/p)      (p = 2 by default)
    if total > max_norm:  every g *= max_norm / (total + 1e-6)

Scaling all gradients by one factor keeps the update's direction and bounds
its size, which tames the occasional loss spike in transformer training.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from .. import backends
from .optimizer import check_hyperparameter


def clip_grad_norm_(parameters: Iterable[Any] | Any, max_norm: float,
                    norm_type: float = 2.0, error_if_nonfinite: bool = False,
                    foreach: bool | None = None) -> float:
    """Scale the gradients of ``parameters`` in place so their global norm is <= ``max_norm``.

    Returns the total norm before clipping, as a Python float
    (``minigrad.nn.utils.clip_grad_norm_`` returns it as a 0-d tensor, as PyTorch's).
    Parameters whose ``.grad`` is None are skipped. The norm is accumulated in
    float64. A non-finite total (an inf or NaN gradient) raises RuntimeError with
    ``error_if_nonfinite=True``; otherwise it is returned without touching the
    gradients, so the training loop can detect it and skip the step (PyTorch
    instead multiplies the grads by NaN). ``norm_type`` may be any p >= 1 or
    ``math.inf`` (largest |g|). ``foreach`` (PyTorch's choice of a multi-tensor
    kernel) is accepted and ignored: the result is the same.
    """
    max_norm = check_hyperparameter("max_norm", max_norm, allow_inf=True)
    norm_type = check_hyperparameter("norm_type", norm_type, low=1.0, high=math.inf,
                                     high_inclusive=True, allow_inf=True)
    if isinstance(getattr(parameters, "data", None), np.ndarray):
        parameters = [parameters]
    owners = [g for p in parameters if (g := getattr(p, "grad", None)) is not None]
    grads = [g.data for g in owners]
    if not grads:
        return 0.0
    with np.errstate(over="ignore", invalid="ignore"):
        if norm_type == math.inf:
            total = max(float(np.max(np.abs(g), initial=0.0)) for g in grads)
        elif norm_type == 2.0:
            # one fused pass per gradient, float64 sums, no float64 copy of the grads
            sum_of_squares = backends.active.sum_of_squares
            total = math.sqrt(sum(sum_of_squares(g) for g in grads))
        else:
            s = sum(float(np.sum(np.abs(g.astype(np.float64)) ** norm_type)) for g in grads)
            total = s ** (1.0 / norm_type)
    if not math.isfinite(total):
        if error_if_nonfinite:
            raise RuntimeError(
                f"clip_grad_norm_: the total norm of order {norm_type} of the gradients is "
                f"{total}, so they cannot be clipped (they are left unchanged). Pass "
                "error_if_nonfinite=False to get the norm back instead and skip the step.")
        return total
    coef = max_norm / (total + 1e-6)
    if coef < 1.0:
        for owner, g in zip(owners, grads):
            g *= np.asarray(coef, dtype=g.dtype)
            owner._bump_version()
    return total

"""The base classes of the loss modules, as PyTorch's ``_Loss`` and ``_WeightedLoss``.

A loss module holds its functional form's options; ``reduction`` is 'mean', 'sum' or
'none'. PyTorch's legacy ``size_average`` and ``reduce`` arguments are accepted with their
meaning (``reduce=False`` -> 'none'; else ``size_average=False`` -> 'sum'; else 'mean') and
override ``reduction`` when given, with PyTorch's deprecation warning. A weighted loss keeps its class ``weight``
(and ``BCEWithLogitsLoss`` its ``pos_weight``) as a buffer, so it is in ``state_dict`` under
PyTorch's name and moves with ``to``.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from minigrad.constructors import tensor
from minigrad.tensor import Tensor

from .module import Module


def legacy_reduction(size_average: bool | None, reduce: bool | None) -> str:
    """PyTorch's reading of the deprecated ``size_average``/``reduce`` pair (None = True),
    with its deprecation warning naming the ``reduction`` to use instead."""
    if reduce is not None and not reduce:
        reduction = "none"
    else:
        reduction = "sum" if size_average is not None and not size_average else "mean"
    warnings.warn("size_average and reduce args will be deprecated, please use "
                  f"reduction='{reduction}' instead.", UserWarning, stacklevel=3)
    return reduction


def resolve_reduction(size_average: bool | None, reduce: bool | None, reduction: str) -> str:
    """``reduction``, or PyTorch's reading of the legacy pair when either is given."""
    if size_average is None and reduce is None:
        return reduction
    return legacy_reduction(size_average, reduce)


def as_buffer(value: Any) -> Tensor | None:
    """A buffer's value: a Tensor (an array is converted), or None."""
    if value is None or isinstance(value, Tensor):
        return value
    return tensor(value)


class Loss(Module):
    """A loss module: ``reduction``, or PyTorch's legacy ``size_average``/``reduce``."""

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = legacy_reduction(size_average, reduce)
        self.reduction = reduction

    def extra_repr(self) -> str:
        return f"reduction={self.reduction!r}"


class WeightedLoss(Loss):
    """A loss with a class ``weight`` buffer (None: every class weighs 1)."""

    def __init__(self, weight: Any = None, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", as_buffer(weight))


# ---- shared by the loss functions ----------------------------------------------------
def _reduce(loss: Tensor, reduction: str, name: str) -> Tensor:
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    if reduction == "none":
        return loss
    raise ValueError(f"{name}: reduction must be 'mean', 'sum' or 'none', got {reduction!r}")


def _check_same_shape(input: Tensor, target: Any, name: str) -> None:
    if tuple(np.shape(getattr(target, "data", target))) != input.shape:
        raise ValueError(f"{name}: target shape {np.shape(getattr(target, 'data', target))} "
                         f"differs from input shape {input.shape}")


def _as_tensor(x: Any, like: Tensor) -> Tensor:
    return x if isinstance(x, Tensor) else tensor(x, dtype=like.dtype)


def _weighted(loss: Tensor, weight: Any, name: str) -> Tensor:
    """``loss * weight`` (weight broadcasts to the loss's shape, never enlarges it)."""
    if weight is None:
        return loss
    w = _as_tensor(weight, loss)
    if np.broadcast_shapes(w.shape, loss.shape) != loss.shape:
        raise ValueError(f"{name}: weight of shape {w.shape} does not broadcast to the loss's "
                         f"shape {loss.shape}")
    return loss * w

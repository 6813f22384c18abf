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

from minigrad.tensor import Tensor, tensor

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

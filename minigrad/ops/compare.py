"""Comparisons, logical ops and value tests: boolean tensors, never differentiable.

As in PyTorch, their results carry no graph (a comparison has no useful
derivative). Each takes Tensors, arrays or Python numbers.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _arr(x: Any) -> Any:
    from ..tensor import Tensor

    return x.data if isinstance(x, Tensor) else x


def boolean(np_fn, *args: Any):
    """``Tensor(np_fn(*arrays))``: the one wrapper behind every function of this file."""
    from ..tensor import Tensor

    return Tensor(np.asarray(np_fn(*[_arr(a) for a in args])))


def logical_and(a: Any, b: Any):
    """a and b elementwise (nonzero counts as True)."""
    return boolean(np.logical_and, a, b)


def logical_or(a: Any, b: Any):
    """a or b elementwise."""
    return boolean(np.logical_or, a, b)


def logical_xor(a: Any, b: Any):
    """a xor b elementwise."""
    return boolean(np.logical_xor, a, b)


def logical_not(a: Any):
    """not a elementwise."""
    return boolean(np.logical_not, a)


def isnan(a: Any):
    """True where a is NaN."""
    return boolean(np.isnan, a)


def isinf(a: Any):
    """True where a is +inf or -inf."""
    return boolean(np.isinf, a)


def isfinite(a: Any):
    """True where a is neither NaN nor infinite."""
    return boolean(np.isfinite, a)

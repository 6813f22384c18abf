"""Module-level forms of Tensor methods and the extra constructors, as in PyTorch:
``minigrad.max(x, 1)`` is ``x.max(1)``, ``minigrad.einsum("ij,jk->ik", a, b)``,
``minigrad.eye(3)``. Each function forwards to the one implementation (a Tensor
method or an op in ``minigrad/ops/``), so there is one way to compute each thing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .ops.einsum import Einsum
from .tensor import Tensor, _float_dtype, _shape_args, tensor


def _as_tensor(x: Any) -> Tensor:
    return x if isinstance(x, Tensor) else tensor(x)


def _method(name: str):
    def fn(input: Any, *args: Any, **kwargs: Any) -> Any:
        return getattr(_as_tensor(input), name)(*args, **kwargs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"``minigrad.{name}(x, ...)`` is ``x.{name}(...)``: see :meth:`Tensor.{name}`."
    return fn


# Each name becomes a module-level function that calls the Tensor method of the same name.
_METHODS = [
    "sum", "mean", "max", "min", "amax", "amin", "var", "std", "prod", "logsumexp", "cumsum",
    "norm", "argmax", "argmin", "any", "all", "exp", "log", "sqrt", "tanh", "sigmoid", "relu",
    "abs", "clamp", "sin", "cos", "erf", "sign", "floor", "ceil", "round", "trunc", "maximum",
    "minimum", "remainder", "floor_divide", "logical_and", "logical_or", "logical_xor",
    "logical_not", "isnan", "isinf", "isfinite", "add", "sub", "mul", "div", "pow", "neg", "eq",
    "ne", "lt", "le", "gt", "ge", "reshape", "transpose", "permute", "flatten", "unflatten",
    "squeeze", "unsqueeze", "clone", "expand", "repeat", "flip", "chunk", "gather", "scatter_add",
    "masked_select", "masked_fill", "sort", "argsort", "topk", "softmax",
    "log_softmax", "index_select", "narrow", "nonzero", "bmm", "outer", "split",
]


globals().update({name: _method(name) for name in _METHODS})


def einsum(equation: str, *operands: Any) -> Tensor:
    """Einstein summation, e.g. ``einsum("bij,bjk->bik", a, b)`` (see ``ops/einsum.py``);
    operands may also be given as one list."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return Einsum.apply(*[_as_tensor(o) for o in operands], equation=equation)


def full_like(t: Tensor, fill_value: float, dtype: Any = None) -> Tensor:
    """``fill_value`` with the shape (and dtype) of ``t``."""
    return Tensor(np.full(t.shape, fill_value, t.dtype if dtype is None else dtype))


def empty(*shape: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """An uninitialised tensor in PyTorch; zeros here (never-read garbage helps no learner)."""
    return Tensor(np.zeros(_shape_args(shape), _float_dtype(dtype)), requires_grad=requires_grad)


def empty_like(t: Tensor, dtype: Any = None) -> Tensor:
    """Zeros with the shape (and dtype) of ``t`` (see :func:`empty`)."""
    return Tensor(np.zeros(t.shape, t.dtype if dtype is None else dtype))


def eye(n: int, m: int | None = None, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """The (n, m) identity matrix (m defaults to n)."""
    return Tensor(np.eye(n, m, dtype=_float_dtype(dtype)), requires_grad=requires_grad)


def linspace(start: float, end: float, steps: int, dtype: Any = None,
             requires_grad: bool = False) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive."""
    arr = np.linspace(start, end, steps).astype(_float_dtype(dtype))
    return Tensor(arr, requires_grad=requires_grad)


def from_numpy(arr: np.ndarray) -> Tensor:
    """A tensor sharing memory with ``arr`` (its dtype kept), as ``torch.from_numpy``."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"from_numpy: expected an ndarray, got {type(arr).__name__}")
    return Tensor(arr)


def is_tensor(x: Any) -> bool:
    """True for a minigrad Tensor."""
    return isinstance(x, Tensor)


def numel(t: Tensor) -> int:
    """Number of elements of ``t``."""
    return t.numel()

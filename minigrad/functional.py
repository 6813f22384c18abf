"""Module-level forms, as PyTorch's: ``minigrad.max(x, 1)`` is ``x.max(1)``.

Each Tensor method marked ``@module_form`` in ``tensor.py`` is also ``minigrad.<name>``: its
form here is derived from the method (the same parameters with ``self`` named ``input``, the
method's docstring), so an op's signature and documentation are written once, at its method,
and ``minigrad.__all__`` is derived from this module's. Below the derivation: the module
functions that differ from their method, as PyTorch's do (``tile(input, dims)`` beside
``x.tile(*dims)``; ``masked_fill`` broadcasting its input), and those without a method
(``einsum``, ``meshgrid``, ...).

``sum``, ``max``, ``min``, ``abs``, ``all``, ``any``, ``pow`` and ``round`` shadow Python's
builtins inside this module, as ``torch.sum`` does in ``torch``: nothing here needs the
builtins once they are bound.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from .constructors import tensor
from .ops import rearrange
from .ops.einsum import einsum as _einsum
from .ops.masking import masked_fill as masked_fill_op
from .tensor import Tensor, _reduce_args


def _as_tensor(x: Any) -> Tensor:
    return x if isinstance(x, Tensor) else tensor(x)


def _derived_form(name: str, method: Any) -> Any:
    """``minigrad.<name>(input, *args, **kwargs)``: ``input`` (made a Tensor) calls its method,
    under the method's signature and docstring."""

    def form(input: Any, *args: Any, **kwargs: Any) -> Any:
        return getattr(_as_tensor(input), name)(*args, **kwargs)

    sig = inspect.signature(method)
    first, *rest = sig.parameters.values()
    form.__signature__ = sig.replace(parameters=[first.replace(name="input", annotation="Any"),
                                                 *rest])
    form.__name__ = form.__qualname__ = name
    form.__module__ = __name__
    form.__doc__ = (f"``minigrad.{name}(input, ...)`` is ``input.{name}(...)``: "
                    f"{inspect.getdoc(method) or ''}")
    return form


def _derived_forms() -> dict[str, Any]:
    """A form for every public Tensor method marked ``@module_form``, under each name the
    method has (``remainder`` is ``__mod__``)."""
    return {name: _derived_form(name, fn) for name, fn in vars(Tensor).items()
            if not name.startswith("_") and getattr(fn, "module_form", False)}


# The one generated part of minigrad's namespace (tools/check_layout.py allows it here only):
# each derived name has its ``def`` in tensor.py, under ``@module_form``.
globals().update(_derived_forms())


# ---- forms that differ from their method (arguments or meaning, as PyTorch's) -------------
def masked_fill(input: Any, mask: Any, value: float) -> Tensor:
    """``minigrad.masked_fill(x, mask, value)``: a copy of x with ``value`` where ``mask`` is
    True; x and the mask broadcast together, as torch.masked_fill (the method
    ``x.masked_fill`` keeps x's shape)."""
    return masked_fill_op(_as_tensor(input), mask, value, broadcast_input=True)


def tile(input: Any, dims: Any) -> Tensor:
    """``minigrad.tile(x, ...)`` is ``x.tile(...)``: repeat along each dim."""
    return _as_tensor(input).tile(dims)


def broadcast_to(input: Any, size: Any) -> Tensor:
    """``minigrad.broadcast_to(x, ...)`` is ``x.broadcast_to(...)``: a broadcast view."""
    return _as_tensor(input).broadcast_to(size)


def mm(input: Any, mat2: Any) -> Tensor:
    """``minigrad.mm(x, ...)`` is ``x.mm(...)``: (n, m) @ (m, p), 2-d only."""
    return _as_tensor(input).mm(mat2)


def numel(t: Tensor) -> int:
    """Number of elements of ``t``."""
    return t.numel()


# ---- functions without a Tensor method ---------------------------------------------------
def var_mean(input: Any, dim: Any = None, unbiased: bool | None = None,
             keepdim: bool | None = None, *, correction: Any = None, axis: Any = None,
             keepdims: bool | None = None) -> tuple:
    """``(var, mean)`` over ``dim`` in one call, with PyTorch's arguments (those of
    :meth:`Tensor.var`: the third positional is ``unbiased``, as ``torch.var_mean(x, 1,
    True)``; ``correction`` defaults to 1; NumPy's ``axis``/``keepdims`` spellings too)."""
    return _stat_and_mean("var", input, dim, unbiased, keepdim, correction, axis, keepdims)


def std_mean(input: Any, dim: Any = None, unbiased: bool | None = None,
             keepdim: bool | None = None, *, correction: Any = None, axis: Any = None,
             keepdims: bool | None = None) -> tuple:
    """``(std, mean)`` over ``dim`` (the arguments of :func:`var_mean`)."""
    return _stat_and_mean("std", input, dim, unbiased, keepdim, correction, axis, keepdims)


def _stat_and_mean(stat: str, input: Any, dim: Any, unbiased: Any, keepdim: Any,
                   correction: Any, axis: Any, keepdims: Any) -> tuple:
    x = _as_tensor(input)
    d, k = _reduce_args(f"{stat}_mean", dim, keepdim, axis, keepdims)
    mean_dim = None if isinstance(d, (bool, np.bool_)) else d  # var_mean(x, False)
    return getattr(x, stat)(d, unbiased, k, correction=correction), x.mean(mean_dim, k)


def einsum(equation: str, *operands: Any) -> Tensor:
    """Einstein summation, e.g. ``einsum("bij,bjk->bik", a, b)``, diagonals included
    (``einsum("ii->i", a)``; see ``ops/einsum.py``); operands may also be given as one list."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return _einsum(equation, *[_as_tensor(o) for o in operands])


def hstack(tensors: Any) -> Tensor:
    """Join along dim 1, or dim 0 for 1-d tensors (NumPy's and PyTorch's hstack)."""
    return rearrange.hstack([_as_tensor(t) for t in tensors])


def vstack(tensors: Any) -> Tensor:
    """Join along dim 0, 1-d tensors first made rows (NumPy's and PyTorch's vstack)."""
    return rearrange.vstack([_as_tensor(t) for t in tensors])


def meshgrid(*tensors: Any, indexing: str | None = None) -> tuple:
    """Coordinate grids of 0-d/1-d tensors (given one by one or as one list): ``indexing="ij"``
    (the default, as PyTorch's) puts tensor k's values along dim k, ``"xy"`` swaps the first
    two dims. Each output is a broadcast view."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    return rearrange.meshgrid([_as_tensor(t) for t in tensors],
                              "ij" if indexing is None else indexing)


def allclose(input: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: bool = False) -> bool:
    """True when every element has |x - y| <= atol + rtol * |y| (``isclose`` everywhere),
    as ``torch.allclose``."""
    return bool(_as_tensor(input).isclose(other, rtol, atol, equal_nan).data.all())


def is_tensor(x: Any) -> bool:
    """True for a minigrad Tensor."""
    return isinstance(x, Tensor)


__all__ = [name for name, value in sorted(globals().items())
           if not name.startswith("_") and inspect.isfunction(value)
           and value.__module__ == __name__]

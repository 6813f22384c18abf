"""Every constructor of minigrad: tensors from data (``tensor``, ``as_tensor``,
``from_numpy``), fills (``zeros``, ``ones``, ``full``, ``empty``, ``eye``, ``arange``,
``linspace``, the ``*_like`` forms) and random draws (``randn``, ``rand``, ``randint``,
``randperm`` and their ``*_like`` forms), as PyTorch's factories.

Every one takes ``device=`` (None or the CPU: :func:`minigrad.device.check_device`); shapes
come as separate numbers or one tuple. Floats default to float32; random draws come from
:func:`minigrad.random.generator` (or a ``generator=``), so ``manual_seed`` repeats them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import numpy as np

from .device import check_device
from .dtypes import check_dtype, check_generated_dtype
from .random import generator as _global_generator
from .random import numpy_generator
from .tensor import DEFAULT_FLOAT, Tensor, _copied, _fill_value, _shape_args, _to_array

# ---- from data and fills -------------------------------------------------------------


def tensor(data: Any, dtype: Any = None, requires_grad: bool = False, *,
           device: Any = None) -> Tensor:
    """Build a Tensor from a number, nested list, ndarray or Tensor (see dtype rules).

    The data is always copied, as ``torch.tensor``: writing to the caller's array later
    does not change the tensor, nor the other way round (:func:`as_tensor` and
    ``from_numpy`` share memory instead). ``device`` is None or the CPU (every factory:
    see :func:`check_device`)."""
    check_device(device)
    return Tensor._from_op(_copied(data, dtype), None).requires_grad_(requires_grad)


def as_tensor(data: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """A Tensor sharing memory with ``data`` when it can, as ``torch.as_tensor``: an ndarray
    (or a Tensor) already of ``dtype`` is used as it is, so writes through either show in
    the other; anything else (lists, numbers, a dtype change) is converted, as in
    :func:`tensor`. A Tensor argument of the right dtype is returned itself."""
    check_device(device)
    if isinstance(data, Tensor) and (dtype is None or np.dtype(dtype) == data.dtype):
        return data
    return Tensor(data, dtype=dtype)


def _float_dtype(dtype: Any) -> np.dtype:
    return np.dtype(DEFAULT_FLOAT if dtype is None else dtype)


def zeros(*shape: Any, dtype: Any = None, requires_grad: bool = False,
          device: Any = None) -> Tensor:
    """A tensor of zeros; ``zeros(2, 3)`` or ``zeros((2, 3))``."""
    check_device(device)
    return Tensor(np.zeros(_shape_args(shape), _float_dtype(dtype)), requires_grad=requires_grad)


def ones(*shape: Any, dtype: Any = None, requires_grad: bool = False,
         device: Any = None) -> Tensor:
    """A tensor of ones."""
    check_device(device)
    return Tensor(np.ones(_shape_args(shape), _float_dtype(dtype)), requires_grad=requires_grad)


def full(shape: Iterable, value: float, dtype: Any = None, requires_grad: bool = False, *,
         device: Any = None) -> Tensor:
    """A tensor filled with ``value``; without ``dtype`` it follows the value as PyTorch:
    bool for True/False, int64 for an int, float32 for a float."""
    check_device(device)
    if dtype is None:
        dtype = _to_array(value).dtype if isinstance(value, (bool, int, float)) else DEFAULT_FLOAT
    arr = np.full(_shape_args((tuple(shape),)), _fill_value(value, dtype))
    return Tensor(arr, requires_grad=requires_grad)


def zeros_like(t: Tensor, dtype: Any = None, requires_grad: bool = False, *,
               device: Any = None) -> Tensor:
    """Zeros with the shape (and dtype) of ``t``."""
    check_device(device)
    dt = t.dtype if dtype is None else dtype
    return Tensor(np.zeros(t.shape, dt), requires_grad=requires_grad)


def ones_like(t: Tensor, dtype: Any = None, requires_grad: bool = False, *,
              device: Any = None) -> Tensor:
    """Ones with the shape (and dtype) of ``t``."""
    check_device(device)
    dt = t.dtype if dtype is None else dtype
    return Tensor(np.ones(t.shape, dt), requires_grad=requires_grad)


_SMALL_INTS = frozenset(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.uint8))


def arange(start: float, end: float | None = None, step: float = 1, dtype: Any = None, *,
           device: Any = None, requires_grad: bool = False) -> Tensor:
    """Evenly spaced values in [start, end); int64 for integer arguments, as PyTorch. With an
    integer ``dtype`` the arguments are truncated to integers, as PyTorch's: for int64 (and
    the unsigned types PyTorch's arange lacks) all three first; for int8, int16, int32 and
    uint8, PyTorch counts ceil((end - start) / step) values from the arguments as given, then
    steps from int(start) by int(step) (``arange(0.5, 3.7, 1.5, dtype=int16)`` is [0, 1, 2])."""
    check_device(device)
    if end is None:
        start, end = 0, start
    if step == 0:
        raise ValueError(f"arange: step must be nonzero, got {step!r}")
    dt = None if dtype is None else check_generated_dtype(check_dtype(dtype), "arange", "iuf")
    if dt in _SMALL_INTS:
        arr = int(start) + np.arange(max(0, math.ceil((end - start) / step))) * int(step)
    else:
        if dt is not None and dt.kind in "iu":
            if int(step) == 0:
                raise ValueError(f"arange: step must be nonzero, got {step!r} (truncated to 0 "
                                 "for an integer dtype)")
            start, end, step = int(start), int(end), int(step)
        arr = np.arange(start, end, step)
    if dt is not None:  # computed in float64 (or int64), rounded once to dtype
        arr = arr.astype(dt)
    elif arr.dtype == np.float64:
        arr = arr.astype(DEFAULT_FLOAT)
    return Tensor(arr, requires_grad=requires_grad)


def full_like(t: Tensor, fill_value: float, dtype: Any = None, *, device: Any = None,
              requires_grad: bool = False) -> Tensor:
    """``fill_value`` with the shape (and dtype) of ``t``, converted as :func:`full`'s."""
    check_device(device)
    return Tensor(np.full(t.shape, _fill_value(fill_value, t.dtype if dtype is None else dtype)),
                  requires_grad=requires_grad)


def empty(*shape: Any, dtype: Any = None, requires_grad: bool = False,
          device: Any = None) -> Tensor:
    """An uninitialised tensor in PyTorch; zeros here (never-read garbage helps no learner)."""
    check_device(device)
    return Tensor(np.zeros(_shape_args(shape), _float_dtype(dtype)), requires_grad=requires_grad)


def empty_like(t: Tensor, dtype: Any = None, *, device: Any = None,
               requires_grad: bool = False) -> Tensor:
    """Zeros with the shape (and dtype) of ``t`` (see :func:`empty`)."""
    check_device(device)
    return Tensor(np.zeros(t.shape, t.dtype if dtype is None else dtype),
                  requires_grad=requires_grad)


def eye(n: int, m: int | None = None, dtype: Any = None, requires_grad: bool = False, *,
        device: Any = None) -> Tensor:
    """The (n, m) identity matrix (m defaults to n)."""
    check_device(device)
    return Tensor(np.eye(n, m, dtype=_float_dtype(dtype)), requires_grad=requires_grad)


def linspace(start: float, end: float, steps: int, dtype: Any = None,
             requires_grad: bool = False, *, device: Any = None) -> Tensor:
    """``steps`` evenly spaced values from ``start`` to ``end`` inclusive, computed in float64
    (0-d tensors as start/end too) and rounded once to ``dtype``; an integer ``dtype``
    truncates start and end to integers first, as PyTorch."""
    check_device(device)
    dt = check_generated_dtype(_float_dtype(dtype), "linspace", "iuf")
    start, end = float(np.asarray(getattr(start, "data", start))), float(
        np.asarray(getattr(end, "data", end)))
    if dt.kind in "iu":
        start, end = float(int(start)), float(int(end))
    arr = np.linspace(start, end, steps).astype(dt)
    return Tensor(arr, requires_grad=requires_grad)


def from_numpy(arr: np.ndarray) -> Tensor:
    """A tensor sharing memory with ``arr`` (its dtype kept), as ``torch.from_numpy``."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"from_numpy: expected an ndarray, got {type(arr).__name__}")
    return Tensor(arr)


# ---- random draws ---------------------------------------------------------------
def randperm(n: int, *, generator: Any = None, dtype: Any = None, device: Any = None,
             requires_grad: bool = False) -> Tensor:
    """A random permutation of 0..n-1 (int64 unless ``dtype`` says otherwise), as
    ``torch.randperm``; drawn from ``generator`` (see :func:`numpy_generator`)."""
    check_device(device)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"randperm: n must be a non-negative integer, got {n!r}")
    dt = check_generated_dtype(check_dtype("int64" if dtype is None else dtype), "randperm", "iuf")
    return Tensor(numpy_generator(generator).permutation(int(n)).astype(dt),
                  requires_grad=requires_grad)


def _float_draws(name: str, draw: str, shape: tuple, dtype: Any, requires_grad: bool,
                 device: Any) -> Tensor:
    """The global generator's ``draw`` method (float64 samples) of ``shape``, rounded once to
    the float ``dtype``."""
    check_device(device)
    dt = check_generated_dtype(_float_dtype(dtype), name, "f")
    arr = getattr(_global_generator(), draw)(_shape_args(shape), dtype=np.float64).astype(dt)
    return Tensor(arr, requires_grad=requires_grad)


def randn(*shape: Any, dtype: Any = None, requires_grad: bool = False,
          device: Any = None) -> Tensor:
    """Samples from N(0, 1)."""
    return _float_draws("randn", "standard_normal", shape, dtype, requires_grad, device)


def rand(*shape: Any, dtype: Any = None, requires_grad: bool = False,
         device: Any = None) -> Tensor:
    """Samples from U[0, 1)."""
    return _float_draws("rand", "random", shape, dtype, requires_grad, device)


def randint(low: int, high: int | None = None, size: tuple | None = None, *,
            dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """Integers in [low, high) (int64 unless ``dtype`` says otherwise); ``randint(high,
    size)`` draws from [0, high), as PyTorch."""
    check_device(device)
    if size is None:  # randint(high, size): PyTorch's two-argument form
        if high is None:
            raise TypeError("randint: needs a size, as randint(low, high, size) or "
                            "randint(high, size)")
        low, high, size = 0, low, high
    elif high is None:
        raise TypeError("randint: needs high, as randint(low, high, size)")
    dt = check_generated_dtype(check_dtype("int64" if dtype is None else dtype), "randint", "iuf")
    arr = _global_generator().integers(low, high, size=_shape_args((tuple(size),)), dtype=np.int64)
    return Tensor(arr.astype(dt, copy=False),
                  requires_grad=requires_grad)


def randn_like(t: Tensor, dtype: Any = None, requires_grad: bool = False, *,
               device: Any = None) -> Tensor:
    """Samples from N(0, 1) with the shape (and dtype) of ``t``."""
    return randn(t.shape, dtype=t.dtype if dtype is None else dtype,
                 requires_grad=requires_grad, device=device)


def rand_like(t: Tensor, dtype: Any = None, requires_grad: bool = False, *,
              device: Any = None) -> Tensor:
    """Samples from U[0, 1) with the shape (and dtype) of ``t``."""
    return rand(t.shape, dtype=t.dtype if dtype is None else dtype,
                requires_grad=requires_grad, device=device)


def randint_like(t: Tensor, low: int, high: int | None = None, *, dtype: Any = None,
                 device: Any = None) -> Tensor:
    """Integers in [low, high) with the shape (and dtype) of ``t``; ``randint_like(t, high)``
    draws from [0, high), as PyTorch."""
    if high is None:
        low, high = 0, low
    return randint(low, high, t.shape, dtype=t.dtype if dtype is None else dtype, device=device)


__all__ = [name for name, value in sorted(globals().items())
           if not name.startswith("_") and callable(value)
           and getattr(value, "__module__", None) == __name__]

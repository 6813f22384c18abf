"""minigrad's dtype policy, written down once and enforced at the boundary.

Supported dtypes:

- ``float32`` (the default: Python floats and lists of floats become float32)
  and ``float64`` (gradchecks use it): the only dtypes that can require grad;
- integer types (``int8`` ... ``int64``, ``uint8`` ... ``uint64``): token ids,
  targets, indices; Python ints become int64;
- ``bool``: masks and conditions.

Anything else (float16, bfloat16-like types, longdouble/float128, complex,
object, str/bytes, datetime/timedelta, structured) raises TypeError naming the
dtype, both when a tensor is created (``minigrad.tensor``, ``Tensor(...)``,
NumPy arrays passed in) and when an op receives a raw array or number
(``Function.apply`` wraps constants through the same check), so a kernel never
sees a dtype it was not compiled for.

Type promotion follows PyTorch's ``torch.result_type``:

- categories rank bool < integer < float; within one category the usual
  promotion applies (int32 + int64 -> int64, float32 + float64 -> float64);
- an operand with dimensions outranks a 0-d tensor, which outranks a Python
  number, *within* a category: ``float32 tensor * 2.5`` stays float32,
  ``float32 (3,) + float64 0-d`` is float32; a lower-ranked operand decides
  the dtype only when its category is higher (``int64 tensor * 1.5`` ->
  float32, the default float; ``int64 (3,) + float64 0-d`` -> float64);
- integer tensor + integer tensor stays an integer tensor; int64 + float32
  tensors give float32 (NumPy would say float64);
- true division of integers, ``atan2`` and ``copysign`` of integers, ``exp log sqrt tanh
  sigmoid gelu sin cos erf logsumexp`` (and the smooth unary functions of
  ``ops/unary_math.py``) of an integer tensor and an integer tensor to a float power are
  computed in float32;
- ``sum prod cumsum`` of bool and integer tensors give int64 (no wrap-around), and so
  does an ``einsum`` that sums an integer operand's own axis away (PyTorch's einsum sums
  such an axis with ``sum`` first); ``mean var std norm`` of them raise, as PyTorch;
- Python numbers given a dtype (``tensor(v, dtype=)``, ``full``, ``full_like``) are
  converted as PyTorch's checked conversion: a value outside an integer dtype's range
  raises OverflowError, except that a negative int down to -max wraps around in an
  unsigned dtype (``-9`` as uint8 is 247); a float truncates toward zero.

Each op names its rule once, as the class attribute ``promote`` of its Function
(``promote_options`` names the options, such as clamp's bounds, that join the
promotion), and ``Function.apply`` applies it before ``forward`` runs: no op
converts dtypes itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np

DEFAULT_FLOAT = np.dtype(np.float32)
_SUPPORTED = frozenset(np.dtype(t) for t in (
    np.float32, np.float64, np.bool_, np.int8, np.int16, np.int32, np.int64,
    np.uint8, np.uint16, np.uint32, np.uint64,
))


def check_dtype(dtype: Any, where: str = "tensor") -> np.dtype:
    """Return ``dtype`` as a NumPy dtype if minigrad supports it; raise TypeError otherwise."""
    dt = dtype if isinstance(dtype, np.dtype) else np.dtype(dtype)
    if dt in _SUPPORTED or (not dt.isnative and dt.newbyteorder("=") in _SUPPORTED):
        return dt
    hint = " (use float32 or float64)" if dt.kind in "fc" else ""
    raise TypeError(
        f"{where}: unsupported dtype {dt}{hint}; minigrad supports float32, float64, integer "
        "types (ids) and bool (masks)"
    )


def check_generated_dtype(dt: np.dtype, name: str, kinds: str) -> np.dtype:
    """``dt`` if the factory ``name`` can generate values of it (``kinds``: NumPy kind letters,
    "f" floats, "iu" integers), else NotImplementedError, as PyTorch's "not implemented for
    'Bool'": an evenly spaced or random bool (or a normal integer) has no meaning, and casting
    would hide that."""
    if dt.kind not in kinds:
        raise NotImplementedError(f"{name}: not implemented for dtype {dt} (it makes values of "
                                  f"{_KIND_NAMES[kinds]} only)")
    return dt


_KIND_NAMES = {"f": "float32 and float64", "iuf": "integer and floating-point dtypes"}


def _category(dt: np.dtype) -> int:
    return 2 if dt.kind == "f" else 0 if dt.kind == "b" else 1


def _promote_group(dtypes: list) -> np.dtype | None:
    """Promote dtypes of one rank: the highest category wins, then usual promotion within it."""
    out = None
    for dt in dtypes:
        if out is None or _category(dt) > _category(out):
            out = dt
        elif _category(dt) == _category(out):
            out = np.promote_types(out, dt)
    return out


def result_type(*arrays: np.ndarray, numbers: tuple = ()) -> np.dtype:
    """PyTorch's ``torch.result_type``: operands with dimensions, then 0-d arrays, then
    Python ``numbers``, each tier deciding only when its category is higher than the
    tiers above it (an int8 tensor, 0-d or not, times the number 2 stays int8)."""
    out = None
    for tier in ([a.dtype for a in arrays if a.ndim > 0], [a.dtype for a in arrays if a.ndim == 0],
                 [number_dtype(v) for v in numbers]):
        found = _promote_group(tier)
        if found is not None and (out is None or _category(found) > _category(out)):
            out = found
    return out


def number_dtype(value: Any) -> np.dtype:
    """The dtype a Python number promotes as (PyTorch's "wrapped number" rule): bool ->
    bool, int -> int64, float -> the default float; anything else its NumPy dtype."""
    if isinstance(value, (bool, np.bool_)):
        return np.dtype(np.bool_)
    if isinstance(value, int):
        return np.dtype(np.int64)
    if isinstance(value, float):
        return DEFAULT_FLOAT
    return np.asarray(value).dtype


def python_scalar(value: Any) -> np.ndarray:
    """A Python number as the 0-d array of :func:`number_dtype` an op promotes with."""
    return np.asarray(value, dtype=number_dtype(value))


def wrapped_number(value: float, dtype: np.dtype) -> np.ndarray:
    """A Python number as the 0-d operand of an op with a tensor of ``dtype``: PyTorch's
    "wrapped number", which never changes the tensor's dtype within its category. A number
    of the same or a lower category takes ``dtype`` (``int8 tensor * 2`` stays int8, 0-d or
    not, and wraps around as PyTorch's does: ``int8 [1] + 300`` is 45); a higher one keeps
    its own (:func:`python_scalar`: ``int8 tensor * 1.5`` is float32)."""
    target = result_type(np.empty(0, dtype), numbers=(value,))
    with np.errstate(over="ignore"):  # a float too large for float32 is inf, as PyTorch's
        return np.asarray(value).astype(target)


def cast_numbers(arr: np.ndarray, dtype: Any) -> np.ndarray:
    """``arr``, built from Python numbers (bool, int64, uint64 or float64), cast to ``dtype``
    as PyTorch converts a number: into an integer dtype only values in its range (a float
    truncated toward zero; NaN and inf refused), and, in an unsigned dtype, a negative int
    down to -max wrapping around (two's complement, as ``a - b`` in uint8). Anything else
    raises OverflowError naming the value, before anything is built."""
    dt = check_dtype(dtype)
    if dt.kind in "iu" and arr.dtype.kind in "iuf" and arr.size:
        info = np.iinfo(dt)
        low = -int(info.max) if dt.kind == "u" and arr.dtype.kind == "i" else int(info.min)
        finite = arr.dtype.kind != "f" or bool(np.isfinite(arr).all())
        lo, hi = (arr.min(), arr.max()) if finite else (np.nan, np.nan)
        if not finite or lo < low or hi > info.max:
            bad = lo if finite and lo < low else hi
            raise OverflowError(f"value {bad} cannot be converted to {dt} without overflow "
                                f"(its range is {info.min}..{info.max})")
    return arr.astype(dt, copy=False)


def check_same_float(arrays: list, name: str) -> list:
    """The products' rule: every operand floating-point and of one dtype, or TypeError naming
    them (float64 data fed to a float32 model is a mistake PyTorch reports, not promotes)."""
    first = arrays[0].dtype
    if first.kind == "f" and all(a.dtype == first for a in arrays):
        return arrays
    # the message only when it is raised: str(dtype) costs microseconds, and products run
    # this check on every call
    found = ", ".join(str(a.dtype) for a in arrays)
    if any(a.dtype.kind != "f" for a in arrays):
        raise TypeError(f"{name}: needs floating-point tensors, got {found} (BLAS has no "
                        "integer kernels)")
    raise TypeError(f"{name}: expects operands of one dtype, got {found} (as PyTorch: "
                    "convert one, e.g. x.float() or x.double())")


def promote(kind: str, arrays: list, name: str = "op", scalars: tuple = ()) -> list:
    """Cast an op's input arrays to its result dtype (``Function.promote`` names the rule).

    ``"float"``: integer or bool inputs are computed in float32 (exp, log, sin, erf, ...).
    ``"float_only"``: integer or bool inputs are refused with RuntimeError (mean, var,
    norm: PyTorch cannot infer their output dtype either).
    ``"sum"``: bool and integer inputs are summed in int64, never wrapping around (sum,
    prod, cumsum); floats keep their dtype.
    ``"binary"``: the arrays meet at :func:`result_type` (add, mul, maximum, where, ...);
    ``scalars`` are option values (clamp's bounds, a scalar exponent) that take part in
    the promotion without being inputs.
    ``"divide"``: as binary, but a non-float result becomes float32 (true division).
    ``"same"``: floating-point inputs of one dtype, else TypeError (products: matmul,
    linear; PyTorch refuses float32 @ float64 rather than compute in float64).
    """
    first = arrays[0].dtype
    if kind == "same":
        return check_same_float(arrays, name)
    if kind == "float":
        return arrays if first.kind == "f" else [a.astype(DEFAULT_FLOAT) for a in arrays]
    if kind == "float_only":
        if first.kind != "f":
            raise RuntimeError(
                f"{name}: could not infer the output dtype: the input must be a floating-point "
                f"tensor, got {first} (as PyTorch; convert first, e.g. x.float())")
        return arrays
    if kind == "sum":
        if first.kind in "bi" or (first.kind == "u" and first.itemsize < 8):
            return [np.asarray(arrays[0], dtype=np.int64)] + list(arrays[1:])
        return arrays
    if first.kind == "f" and all(a.dtype == first for a in arrays) \
            and all(isinstance(v, (int, float)) for v in scalars):
        return arrays  # a Python number never changes a float tensor's dtype
    is_number = [isinstance(v, (bool, int, float, np.bool_)) for v in scalars]
    numbers = tuple(v for v, n in zip(scalars, is_number) if n)
    operands = list(arrays) + [np.asarray(v) for v, n in zip(scalars, is_number) if not n]
    if (first.kind == "f" or kind == "binary") and all(a.dtype == first for a in operands) \
            and all(_category(number_dtype(v)) <= _category(first) for v in numbers):
        return arrays  # the common case: nothing to do
    target = result_type(*operands, numbers=numbers)
    if kind == "divide" and target.kind != "f":
        target = DEFAULT_FLOAT
    return [a if a.dtype == target else a.astype(target) for a in arrays]

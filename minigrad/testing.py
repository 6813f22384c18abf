"""``minigrad.testing.assert_close``: PyTorch's comparison for tests, with its default
tolerances per dtype.

|actual - expected| <= atol + rtol * |expected| elementwise, where (rtol, atol) default to
(1.3e-6, 1e-5) for float32, (1e-7, 1e-7) for float64 and (0, 0) for integers and bool.
Shapes must match, and dtypes too unless ``check_dtype=False``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

_TOLERANCES = {np.dtype("float32"): (1.3e-6, 1e-5), np.dtype("float64"): (1e-7, 1e-7)}


def _array(x: Any) -> np.ndarray:
    return np.asarray(getattr(x, "data", x))


def assert_close(actual: Any, expected: Any, *, rtol: float | None = None,
                 atol: float | None = None, equal_nan: bool = False,
                 check_dtype: bool = True, msg: str | None = None) -> None:
    """Raise AssertionError naming the mismatch (shape, dtype, or the count of elements out
    of tolerance with the greatest absolute and relative differences and where); pass both
    ``rtol`` and ``atol`` or neither."""
    if (rtol is None) != (atol is None):
        raise ValueError("assert_close: pass both rtol and atol, or neither")
    a, e = _array(actual), _array(expected)
    if a.shape != e.shape:
        raise AssertionError(msg or f"The values for attribute 'shape' do not match: "
                                    f"{a.shape} != {e.shape}.")
    if check_dtype and a.dtype != e.dtype:
        raise AssertionError(msg or f"The values for attribute 'dtype' do not match: "
                                    f"{a.dtype} != {e.dtype}.")
    if rtol is None:
        rtol, atol = max(_TOLERANCES.get(d, (0.0, 0.0)) for d in (a.dtype, e.dtype))
    a64, e64 = a.astype(np.float64), e.astype(np.float64)
    close = np.isclose(a64, e64, rtol=rtol, atol=atol, equal_nan=equal_nan)
    if close.all():
        return
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = np.abs(a64 - e64)
        rel = diff / np.abs(e64)
    bad = int((~close).sum())
    worst = np.unravel_index(int(np.nanargmax(np.where(close, -1, diff))), a.shape) \
        if a.ndim else ()
    raise AssertionError(msg or (
        f"Tensor-likes are not close!\n\nMismatched elements: {bad} / {a.size} "
        f"({100 * bad / a.size:.1f}%)\nGreatest absolute difference: {np.nanmax(diff)} at index "
        f"{tuple(int(i) for i in worst)} (up to {atol} allowed)\nGreatest relative difference: "
        f"{np.nanmax(rel)} (up to {rtol} allowed)"))

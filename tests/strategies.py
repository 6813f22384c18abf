"""Shared Hypothesis strategies for minigrad's tests.

Import what you need, e.g. ``from strategies import shapes, float_arrays``
from any subject folder (pytest puts ``tests/``, the folder of the top
``conftest.py``, on the import path). Shapes are small on purpose: gradcheck
evaluates the function twice per input element.

- shapes: ``shapes``, ``broadcastable_shapes``, ``matmul_shapes``
- values: ``float_arrays`` (any values in a range), ``positive_arrays`` (for
  log, sqrt, pow), ``away_from_zero_arrays`` (for abs, relu, division),
  ``distinct_arrays`` (no ties, for max), ``float32_arrays``
- memory layout: ``with_layout`` / ``layouts`` turn a C-contiguous array into
  the same values stored transposed or strided (non-contiguous views);
  ``leaf`` wraps an array as a Tensor that requires grad.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad as mg

# ---- shapes -----------------------------------------------------------------


def shapes(min_dims: int = 0, max_dims: int = 3, min_side: int = 1, max_side: int = 4):
    """Array shapes (tuples), e.g. (), (3,), (2, 1, 4)."""
    return hnp.array_shapes(
        min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side
    )


def broadcastable_shapes(
    num_shapes: int = 2, min_dims: int = 0, max_dims: int = 3, min_side: int = 1, max_side: int = 4
):
    """Tuples of ``num_shapes`` shapes that broadcast together under NumPy rules.

    They include size-1 axes and different numbers of dimensions, e.g.
    ((3, 1), (4,)) or ((2, 1, 4), (1, 3, 1)).
    """
    return hnp.mutually_broadcastable_shapes(
        num_shapes=num_shapes, min_dims=min_dims, max_dims=max_dims,
        min_side=min_side, max_side=max_side,
    ).map(lambda bs: bs.input_shapes)


@st.composite
def matmul_shapes(draw, max_batch_dims: int = 2, max_side: int = 4, vectors: bool = True):
    """(shape_a, shape_b) valid for ``a @ b``: batch dims that broadcast
    (including size-1 and missing ones), and with ``vectors`` sometimes a 1-D
    operand on either side (torch.matmul's vector rules)."""
    m, k, n = (draw(st.integers(1, max_side)) for _ in range(3))
    batch_a, batch_b = draw(broadcastable_shapes(2, 0, max_batch_dims, 1, 3))
    sa, sb = batch_a + (m, k), batch_b + (k, n)
    if vectors and draw(st.booleans()):
        side = draw(st.sampled_from(["a", "b", "both"]))
        if side in ("a", "both"):
            sa = (k,)
        if side in ("b", "both"):
            sb = (k,)
    return sa, sb


# ---- values -----------------------------------------------------------------


def float_arrays(shape, dtype=np.float64, min_value: float = -2.0, max_value: float = 2.0):
    """Arrays of ``shape`` and ``dtype`` with finite values in [min_value, max_value]."""
    width = 32 if np.dtype(dtype) == np.float32 else 64
    elements = st.floats(min_value, max_value, width=width, allow_nan=False, allow_infinity=False)
    return hnp.arrays(dtype, shape, elements=elements)


def float32_arrays(shape, min_value: float = -2.0, max_value: float = 2.0):
    """float32 arrays of ``shape`` with values in [min_value, max_value]."""
    return float_arrays(shape, np.float32, min_value, max_value)


def positive_arrays(shape, dtype=np.float64, min_value: float = 0.2, max_value: float = 3.0):
    """Arrays with values in [min_value, max_value] > 0: the domain of log, sqrt, x**p."""
    return float_arrays(shape, dtype, min_value, max_value)


@st.composite
def away_from_zero_arrays(
    draw, shape, dtype=np.float64, min_abs: float = 0.1, max_abs: float = 2.0
):
    """Arrays with min_abs <= |x| <= max_abs: away from the kink of abs/relu at 0
    (finite differences there are meaningless) and safe as divisors."""
    mags = draw(float_arrays(shape, dtype, min_abs, max_abs))
    signs = draw(hnp.arrays(np.bool_, shape))
    return np.where(signs, -mags, mags).astype(dtype)


@st.composite
def distinct_arrays(draw, shape, dtype=np.float64, gap: float = 0.1):
    """Arrays whose values all differ by at least ``gap``: no ties, so the
    maximum is unique and max() is differentiable at the point drawn."""
    n = int(np.prod(shape))
    order = draw(st.permutations(range(n)))
    offset = draw(st.floats(-1.0, 1.0))
    values = np.asarray(order, dtype=np.float64) * gap * 2 + offset
    return values.reshape(shape).astype(dtype)


@st.composite
def away_from_arrays(
    draw, shape, points: tuple, margin: float = 0.1, lo: float = -2.0, hi: float = 2.0
):
    """float64 arrays in [lo, hi] with every value at least ``margin`` from each of
    ``points`` (e.g. the bounds of clamp, where the gradient jumps)."""
    x = draw(float_arrays(shape, np.float64, lo, hi))
    for p in points:
        near = np.abs(x - p) < margin
        x = np.where(near, p + np.where(x >= p, margin, -margin), x)
    return x


# ---- memory layouts -----------------------------------------------------------

LAYOUTS = ("contiguous", "transposed", "strided", "reversed")


def with_layout(x: np.ndarray, layout: str) -> np.ndarray:
    """The same values as ``x`` stored with another memory layout.

    ``contiguous``: a C-contiguous copy. ``transposed``: a view whose axes are
    stored in reverse order (like ``a.T`` of a contiguous array). ``strided``:
    every other element of a larger buffer (``buf[..., ::2]``). ``reversed``:
    a view with a negative stride on the last axis. 0-d arrays stay contiguous.
    """
    x = np.asarray(x)
    if layout == "contiguous" or x.ndim == 0:
        return np.array(x, copy=True)
    if layout == "transposed":
        return np.ascontiguousarray(x.T).T
    if layout == "strided":
        buf = np.zeros(x.shape[:-1] + (2 * x.shape[-1],), dtype=x.dtype)
        buf[..., ::2] = x
        return buf[..., ::2]
    if layout == "reversed":
        return np.ascontiguousarray(x[..., ::-1])[..., ::-1]
    raise ValueError(f"unknown layout {layout!r}; choose from {LAYOUTS}")


def layouts():
    """One of LAYOUTS, to pass to :func:`with_layout`."""
    return st.sampled_from(LAYOUTS)


def leaf(x: np.ndarray, layout: str = "contiguous") -> mg.Tensor:
    """A Tensor that requires grad, holding ``x``'s values in the given layout."""
    return mg.Tensor(with_layout(x, layout), requires_grad=True)

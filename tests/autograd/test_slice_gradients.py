"""Gradients of slices (ops/array_ops.SliceGrad): the engine keeps the gradients of slices
of one tensor lazy and builds the whole once, into an uninitialised array when the slices
tile it (q|k|v of a packed c_attn), into zeros otherwise; either way the same values as
adding each zero-padded slice gradient."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.ops.array_ops import SliceGrad, _tiles

SHAPE = (2, 3, 6)
CASES = {  # name: (indices, whether they tile SHAPE)
    "q|k|v": ([(Ellipsis, slice(0, 2)), (Ellipsis, slice(2, 4)), (Ellipsis, slice(4, 6))], True),
    "two, out of order": ([(slice(None), slice(None), slice(2, 6)), (Ellipsis, slice(0, 2))],
                          True),
    "rows": ([(slice(0, 1),), (slice(1, 2),)], True),
    "overlap": ([(Ellipsis, slice(0, 2)), (Ellipsis, slice(1, 6))], False),
    "gap": ([(Ellipsis, slice(0, 2)), (Ellipsis, slice(4, 6))], False),
    "integer index": ([(0,), (1,)], True),  # an integer is a block of one
    "integers, packed q|k|v": ([(slice(None), slice(None), i) for i in (2, 0, 1, 3, 4, 5)], True),
    "integers with a gap": ([(slice(None), slice(None), i) for i in (0, 1, 3, 4, 5)], False),
    "negative integer": ([(-1,), (0,)], True),
    "an integer and a slice": ([(Ellipsis, 0), (Ellipsis, slice(1, 6))], True),
    "two axes": ([(Ellipsis, slice(0, 2)), (slice(0, 1),)], False),
    "strided": ([(Ellipsis, slice(None, None, 2)), (Ellipsis, slice(1, None, 2))], False),
    "whole and a part": ([(slice(None),), (Ellipsis, slice(0, 3))], False),
    "the same slice twice": ([(Ellipsis, slice(0, 3)), (Ellipsis, slice(0, 3))], False),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_lazy_slice_gradients_sum_as_zero_padded_arrays(name):
    indices, tiles = CASES[name]
    rng = np.random.default_rng(0)
    parts = [rng.standard_normal(np.zeros(SHAPE)[i].shape).astype(np.float32) for i in indices]
    want = np.zeros(SHAPE, np.float32)
    for i, g in zip(indices, parts):
        want[i] += g
    lazy = SliceGrad(SHAPE, indices[0], parts[0])
    for i, g in zip(indices[1:], parts[1:]):
        lazy = lazy.plus(SliceGrad(SHAPE, i, g))
    assert _tiles(SHAPE, indices) is tiles
    np.testing.assert_array_equal(lazy.materialize(), want)
    into = np.ones(SHAPE, np.float32)
    lazy.add_to(into)
    np.testing.assert_allclose(into, want + 1, rtol=1e-6)  # (1 + a) + b rounds as it may


def test_packed_qkv_gradient_through_the_engine():
    # the slices of one (B, T, 3C) tensor used as q, k, v; their sum is the slices' sum
    rng = np.random.default_rng(1)
    x = mg.tensor(rng.standard_normal((2, 3, 6)), requires_grad=True)
    w = [rng.standard_normal((2, 3, 2)) for _ in range(3)]
    q, k, v = x[..., 0:2], x[..., 2:4], x[..., 4:6]
    ((q * mg.tensor(w[0])).sum() + (k * mg.tensor(w[1])).sum()
     + (v * mg.tensor(w[2])).sum() + (x[..., 1:3] ** 2).sum()).backward()
    want = np.concatenate(w, axis=-1)
    want[..., 1:3] += 2 * x.numpy()[..., 1:3]
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-12)

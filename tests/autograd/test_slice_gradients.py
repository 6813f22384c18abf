"""Gradients of slices (grad_buffers.SliceGrad): the engine keeps the gradients of slices
of one tensor lazy and builds the whole once, into an uninitialised array when the slices
tile it (q|k|v of a packed c_attn), into zeros otherwise, or not at all when the parts already
lie in one array at their places; each way the same values as adding each zero-padded slice
gradient."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.grad_buffers import SliceGrad, _tiles

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


def test_parts_already_in_place_are_the_whole_without_a_copy():
    """Gradients written into views of one packed array (backends.interface.empty_like_packed)
    at their own indices: materialize returns that array; any part elsewhere, and it copies."""
    from minigrad.grad_buffers import empty_like_packed

    packed_from = np.zeros((2, 3, 3, 4), np.float32)  # a (B, T, 3, C) projection, sliced
    indices = [(slice(None), slice(None), i) for i in range(3)]
    grads = empty_like_packed(tuple(packed_from[i] for i in indices))
    for n, g in enumerate(grads):
        g[...] = n + 1
    lazy = SliceGrad(packed_from.shape, indices[0], grads[0])
    for i, g in zip(indices[1:], grads[1:]):
        lazy = lazy.plus(SliceGrad(packed_from.shape, i, g))
    whole = lazy.materialize()
    assert whole.base is grads[0].base  # no copy: the parts' own array
    np.testing.assert_array_equal(whole[:, :, 1], 2)
    # the same parts named at other places: not in place, so copied where they are named
    swapped = SliceGrad(packed_from.shape, indices[1], grads[0]).plus(
        SliceGrad(packed_from.shape, indices[0], grads[1])).plus(
        SliceGrad(packed_from.shape, indices[2], grads[2]))
    out = swapped.materialize()
    assert out.base is not grads[0].base
    np.testing.assert_array_equal(out[:, :, 1], 1)
    np.testing.assert_array_equal(out[:, :, 0], 2)


@pytest.mark.parametrize("views, packed", [
    ("q|k|v", True), ("q|k only", False), ("overlapping", False), ("expanded", False),
    ("separate arrays", False)])
def test_empty_like_packed_only_for_views_that_tile_one_array(views, packed):
    from minigrad.grad_buffers import empty_like_packed

    base = np.zeros((2, 5, 3, 4), np.float32)
    row = np.zeros((1, 5, 4), np.float32)
    arrays = {
        "q|k|v": (base[:, :, 0], base[:, :, 1], base[:, :, 2]),
        "q|k only": (base[:, :, 0], base[:, :, 1]),
        "overlapping": (base.reshape(2, 5, 12)[..., 0:8], base.reshape(2, 5, 12)[..., 4:12],
                        base.reshape(2, 5, 12)[..., 0:8]),
        "expanded": (np.broadcast_to(row, (2, 5, 4)),) * 3,
        "separate arrays": tuple(np.zeros((2, 5, 4), np.float32) for _ in range(3)),
    }[views]
    grads = empty_like_packed(arrays)
    assert [g.shape for g in grads] == [a.shape for a in arrays]
    shared = grads[0].base is not None and all(g.base is grads[0].base for g in grads)
    assert shared is packed
    if not packed:  # each its own C-ordered array: no element written twice
        assert all(g.flags.c_contiguous and g.base is None for g in grads)


def test_gpt_attention_gradient_is_packed_in_place_and_equals_the_reference(monkeypatch):
    """GPT's attention: q, k, v are slices of one (B, T, 3, H, hs) projection. The fast backend
    writes their gradients into one packed array, which becomes the projection's gradient
    uncopied (every layer's); the gradients are the reference backend's."""
    from minigrad import grad_buffers

    found = []
    in_place = grad_buffers.SliceGrad._in_place

    def recording(self):
        whole = in_place(self)
        found.append(whole is not None)
        return whole

    monkeypatch.setattr(grad_buffers.SliceGrad, "_in_place", recording)
    idx = np.random.default_rng(3).integers(0, 11, (2, 8))
    grads = {}
    for name in ("reference", "fast"):
        mg.manual_seed(0)
        model = mg.models.GPT(vocab_size=11, block_size=8, n_layer=2, n_head=2, n_embd=8)
        found.clear()
        with mg.use_backend(name):
            model(idx, idx)[1].backward()
        grads[name] = [p.grad.numpy() for p in model.parameters()]
        if name == "fast":
            assert found == [True, True]  # both layers' q|k|v gradient: no copy
    for f, r in zip(grads["fast"], grads["reference"]):
        np.testing.assert_allclose(f, r, rtol=2e-4, atol=2e-6)


def test_a_packed_whole_is_not_written_over_a_captured_part():
    """q's gradient is a view of the packed whole; when the projection has another consumer,
    its total gradient is a new array, so q's captured gradient keeps its value."""
    from minigrad.ops.attention import AttentionFunction

    rng = np.random.default_rng(4)
    qkv = mg.tensor(rng.standard_normal((2, 6, 3, 2, 4)).astype(np.float32), requires_grad=True)
    got = {}
    for name in ("fast", "reference"):
        with mg.use_backend(name):
            q, k, v = (qkv[:, :, i] for i in range(3))  # (B, T, H, hs) views, GPT's layout
            y = AttentionFunction.apply(q, k, v, causal=True, scale=0.5)
            # the attention's part reaches qkv first (lazy), the product's second
            loss = (qkv * 3.0).sum() + (y * y).sum()
            got[name] = [g.numpy().copy() for g in mg.autograd.grad(loss, [q, qkv])]
    for f, r in zip(got["fast"], got["reference"]):
        np.testing.assert_allclose(f, r, rtol=1e-4, atol=1e-5)

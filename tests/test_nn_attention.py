"""scaled_dot_product_attention and MultiHeadAttention: gradients, masks
(True blocks), causal masking, cross-attention, padding, fully-masked rows,
the attention-weights hook, and error paths."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minigrad as mg
from minigrad import nn
from minigrad.nn import functional as F

sizes = st.integers(1, 3)


def leaf(rng, *shape):
    return mg.tensor(rng.standard_normal(shape), requires_grad=True)


def sdpa_reference(q, k, v, mask=None, scale=None):
    """Plain NumPy attention with blocked rows giving zeros."""
    scale = 1 / math.sqrt(q.shape[-1]) if scale is None else scale
    s = q @ np.swapaxes(k, -1, -2) * scale
    blocked = np.zeros(s.shape, bool) if mask is None else np.broadcast_to(mask, s.shape)
    s = np.where(blocked, -np.inf, s)
    m = s.max(-1, keepdims=True)
    e = np.where(blocked, 0.0, np.exp(s - np.where(np.isfinite(m), m, 0)))
    tot = e.sum(-1, keepdims=True)
    p = np.divide(e, tot, out=np.zeros_like(e), where=tot > 0)
    return p @ v


# ---- scaled dot-product attention -------------------------------------------------------
@given(b=sizes, h=sizes, tq=st.integers(1, 4), tk=st.integers(1, 4), hs=sizes,
       causal=st.booleans(), use_mask=st.booleans(), seed=st.integers(0, 99))
def test_sdpa_gradcheck(b, h, tq, tk, hs, causal, use_mask, seed):
    rng = np.random.default_rng(seed)
    q, k, v = leaf(rng, b, h, tq, hs), leaf(rng, b, h, tk, hs), leaf(rng, b, h, tk, hs + 1)
    mask = rng.random((b, 1, tq, tk)) < 0.3 if use_mask else None
    out = F.scaled_dot_product_attention(q, k, v, mask=mask, is_causal=causal)
    assert out.shape == (b, h, tq, hs + 1) and np.all(np.isfinite(out.data))
    assert mg.gradcheck(
        lambda q, k, v: F.scaled_dot_product_attention(q, k, v, mask=mask, is_causal=causal),
        [q, k, v])


def test_sdpa_matches_reference_and_scale():
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((2, 3, 4, 5)) for _ in range(3))
    mask = rng.random((2, 3, 4, 4)) < 0.4
    for m in (None, mask):
        got = F.scaled_dot_product_attention(mg.tensor(q), mg.tensor(k), mg.tensor(v), mask=m)
        np.testing.assert_allclose(got.data, sdpa_reference(q, k, v, m), rtol=1e-10, atol=1e-12)
    got = F.scaled_dot_product_attention(mg.tensor(q), mg.tensor(k), mg.tensor(v), scale=0.3)
    np.testing.assert_allclose(got.data, sdpa_reference(q, k, v, scale=0.3), rtol=1e-10)


def test_mask_true_blocks_and_causal_equals_explicit_mask():
    rng = np.random.default_rng(1)
    q, k, v = (mg.tensor(rng.standard_normal((1, 2, 4, 3))) for _ in range(3))
    causal = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    explicit = F.scaled_dot_product_attention(q, k, v, mask=np.triu(np.ones((4, 4), bool), 1))
    np.testing.assert_allclose(causal.data, explicit.data, rtol=1e-6)
    # the first query may only see key 0: its output is exactly v[0]
    np.testing.assert_allclose(causal.data[0, :, 0], v.data[0, :, 0], rtol=1e-6)
    # blocking all but key 2 (True = blocked) gives v[2] for every query
    only2 = np.array([True, True, False, True])
    out = F.scaled_dot_product_attention(q, k, v, mask=mg.tensor(only2))
    np.testing.assert_allclose(out.data, np.broadcast_to(v.data[:, :, 2:3], out.shape), rtol=1e-6)


def test_causal_with_more_keys_than_queries_uses_the_last_positions():
    rng = np.random.default_rng(2)
    q = rng.standard_normal((1, 1, 2, 4))
    k, v = rng.standard_normal((1, 1, 5, 4)), rng.standard_normal((1, 1, 5, 4))
    out = F.scaled_dot_product_attention(mg.tensor(q), mg.tensor(k), mg.tensor(v), is_causal=True)
    expect = sdpa_reference(q, k, v, mask=mg.causal_mask(2, 5))
    np.testing.assert_allclose(out.data, expect, rtol=1e-10)
    # query 0 sits at position 3: keys 0..3 visible, key 4 not
    assert mg.causal_mask(2, 5)[0].tolist() == [False, False, False, False, True]


def test_fully_masked_rows_give_zeros_and_zero_gradients():
    rng = np.random.default_rng(3)
    q, k, v = leaf(rng, 1, 1, 3, 2), leaf(rng, 1, 1, 3, 2), leaf(rng, 1, 1, 3, 2)
    mask = np.array([[True, True, True], [False, True, False], [True, True, True]])
    out = F.scaled_dot_product_attention(q, k, v, mask=mask)
    assert np.all(out.data[0, 0, [0, 2]] == 0) and np.all(np.isfinite(out.data))
    out.sum().backward()
    assert np.all(q.grad[0, 0, [0, 2]] == 0)
    assert np.all(np.isfinite(k.grad)) and np.all(np.isfinite(v.grad))
    assert mg.gradcheck(lambda q, k, v: F.scaled_dot_product_attention(q, k, v, mask=mask),
                        [q, k, v])


def test_sdpa_float32_matches_float64():
    rng = np.random.default_rng(4)
    q, k, v = (rng.standard_normal((2, 2, 6, 4)) for _ in range(3))
    out32 = F.scaled_dot_product_attention(*(mg.tensor(a.astype(np.float32)) for a in (q, k, v)),
                                           is_causal=True)
    assert out32.dtype == np.float32
    np.testing.assert_allclose(out32.data, sdpa_reference(q, k, v, mg.causal_mask(6)), atol=1e-5)


def test_sdpa_dropout_is_applied_to_weights():
    rng = np.random.default_rng(5)
    q, k, v = (mg.tensor(rng.standard_normal((1, 1, 4, 3))) for _ in range(3))
    plain = F.scaled_dot_product_attention(q, k, v)
    mg.manual_seed(0)
    dropped = F.scaled_dot_product_attention(q, k, v, dropout_p=0.5)
    assert not np.allclose(plain.data, dropped.data)
    x = mg.tensor(rng.standard_normal((1, 1, 3, 2)), requires_grad=True)

    def f(x):
        mg.manual_seed(1)
        return F.scaled_dot_product_attention(x, x, x, dropout_p=0.4)

    assert mg.gradcheck(f, [x])


def test_sdpa_errors():
    q = mg.randn(1, 2, 3, 4)
    with pytest.raises(TypeError, match="boolean"):
        F.scaled_dot_product_attention(q, q, q, mask=np.zeros((3, 3)))
    with pytest.raises(ValueError, match="broadcast"):
        F.scaled_dot_product_attention(q, q, q, mask=np.zeros((2, 2), bool))
    with pytest.raises(ValueError, match="shapes"):
        F.scaled_dot_product_attention(q, mg.randn(1, 2, 3, 5), q)
    with pytest.raises(TypeError):
        F.scaled_dot_product_attention(q.data, q, q)


# ---- MultiHeadAttention --------------------------------------------------------------------
def to_float64(m):
    params = list(m.parameters())
    for p in params:
        p.data = p.data.astype(np.float64)
    return params


@given(b=sizes, tq=st.integers(1, 3), tk=st.integers(1, 3), heads=st.sampled_from([1, 2]),
       causal=st.booleans(), seed=st.integers(0, 99))
def test_mha_gradcheck_self_and_cross(b, tq, tk, heads, causal, seed):
    rng = np.random.default_rng(seed)
    mg.manual_seed(seed)
    mha = nn.MultiHeadAttention(4, heads)
    params = to_float64(mha)
    x, mem = leaf(rng, b, tq, 4), leaf(rng, b, tk, 4)
    assert mg.gradcheck(lambda x, *_: mha(x, is_causal=causal), [x] + params)
    assert mg.gradcheck(lambda x, mem, *_: mha(x, mem, mem), [x, mem] + params)


def test_mha_matches_manual_head_split():
    rng = np.random.default_rng(6)
    mha = nn.MultiHeadAttention(6, 3)
    to_float64(mha)
    x = rng.standard_normal((2, 5, 6))
    out = mha(mg.tensor(x), is_causal=True).data

    def proj(lin, a):
        return a @ lin.weight.data.T + lin.bias.data

    q, k, v = (proj(lin, x) for lin in (mha.q_proj, mha.k_proj, mha.v_proj))
    heads = []
    for h in range(3):  # the slow, obvious way: one head at a time
        sl = slice(2 * h, 2 * h + 2)
        heads.append(sdpa_reference(q[..., sl], k[..., sl], v[..., sl], mg.causal_mask(5)))
    expect = proj(mha.out_proj, np.concatenate(heads, -1))
    np.testing.assert_allclose(out, expect, rtol=1e-10, atol=1e-12)


def test_mha_cross_attention_shapes_and_padding_mask():
    mg.manual_seed(0)
    rng = np.random.default_rng(7)
    mha = nn.MultiHeadAttention(8, 2)
    x, mem = mg.tensor(rng.standard_normal((2, 3, 8))), mg.tensor(rng.standard_normal((2, 5, 8)))
    assert mha(x, mem, mem).shape == (2, 3, 8)
    # key padding: batch 0 keeps all 5 keys, batch 1 only the first 2 (True = padding)
    pad = np.array([[False] * 5, [False, False, True, True, True]])[:, None, None, :]
    out = mha(x, mem, mem, mask=pad)
    trimmed = mha(x[1:2], mem[1:2, :2], mem[1:2, :2])
    np.testing.assert_allclose(out.data[1:2], trimmed.data, rtol=1e-5, atol=1e-6)
    # changing a padded key changes nothing
    mem2 = mem.data.copy()
    mem2[1, 4] += 10
    np.testing.assert_allclose(mha(x, mg.tensor(mem2), mg.tensor(mem2), mask=pad).data,
                               out.data, rtol=1e-6)


def test_mha_fully_masked_query_gives_zeros_never_nan():
    mha = nn.MultiHeadAttention(4, 2)
    x = mg.randn(2, 3, 4, requires_grad=True)
    mask = np.zeros((2, 1, 3, 3), bool)
    mask[1, :, 2, :] = True  # query 2 of batch 1 may attend nothing
    out = mha(x, mask=mask)
    assert np.all(out.data[1, 2] == 0) and np.all(np.isfinite(out.data))
    assert np.any(out.data[0, 2] != 0)
    out.sum().backward()
    assert all(np.all(np.isfinite(p.grad)) for p in mha.parameters())


def test_mha_record_weights_hook():
    mha = nn.MultiHeadAttention(4, 2)
    x = mg.randn(3, 5, 4)
    mha(x)
    assert mha.record_weights is False and mha.last_attn_weights is None
    mha.record_weights = True
    with mg.no_grad():
        mha(x, is_causal=True)
    w = mha.last_attn_weights
    assert isinstance(w, np.ndarray) and w.shape == (3, 2, 5, 5)
    np.testing.assert_allclose(w.sum(-1), 1, rtol=1e-5)
    assert np.all(w[..., 0, 1:] == 0)  # causal: position 0 sees only itself
    mha(x, mg.randn(3, 2, 4))
    assert mha.last_attn_weights.shape == (3, 2, 5, 2)


def test_mha_dropout_only_in_training():
    mg.manual_seed(0)
    mha = nn.MultiHeadAttention(4, 2, dropout=0.5)
    x = mg.randn(1, 6, 4)
    mha.eval()
    np.testing.assert_array_equal(mha(x).data, mha(x).data)
    mha.train()
    assert not np.allclose(mha(x).data, mha(x).data)


def test_mha_structure_and_errors():
    mha = nn.MultiHeadAttention(8, 4, bias=False)
    assert [n for n, _ in mha.named_parameters()] == [
        "q_proj.weight", "k_proj.weight", "v_proj.weight", "out_proj.weight"]
    assert all(isinstance(getattr(mha, n), nn.Linear)
               for n in ("q_proj", "k_proj", "v_proj", "out_proj"))
    with pytest.raises(ValueError, match="10.*3"):
        nn.MultiHeadAttention(10, 3)
    with pytest.raises(ValueError, match="8"):
        mha(mg.randn(2, 3, 6))
    with pytest.raises(ValueError):
        mha(mg.randn(3, 8))
    with pytest.raises(ValueError):
        mha(mg.randn(2, 3, 8), mg.randn(3, 3, 8), mg.randn(3, 3, 8))
    with pytest.raises(TypeError, match="boolean"):
        mha(mg.randn(2, 3, 8), mask=np.zeros((3, 3), np.int64))
    with pytest.raises(ValueError, match="broadcast"):
        mha(mg.randn(2, 3, 8), mask=np.zeros((2, 1, 3, 4), bool))

"""The fused float32 attention kernels equal attention computed in float64 with
NumPy, forward and backward, on the serial and the threaded path, and
``nn`` routes to them only where they apply."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minigrad
from minigrad import nn
from minigrad.backends.reference import Reference
from minigrad.kernels import attention as KA

R = Reference()  # the reference backend: every primitive in NumPy, the oracle


def reference(q, k, v, g, scale, causal):
    """The reference backend's attention in float64 on (B, T, H, d) operands:
    (out, P, dq, dk, dv), each in the layout the kernels use (P as (B*H, Tq, Tk))."""
    q, k, v, g = (a.astype(np.float64).transpose(0, 2, 1, 3) for a in (q, k, v, g))
    out, p, _ = R.attention(q, k, v, None, causal, scale, None)
    dq, dk, dv = R.attention_backward(g, q, k, v, p, p, scale, None, (True, True, True))
    back = (lambda a: a.transpose(0, 2, 1, 3))
    return back(out), p.reshape(-1, *p.shape[2:]), back(dq), back(dk), back(dv)


def random_operands(batch, heads, t_q, t_k, hs, hv, seed, spread=1.0):
    """q, k, v, g as (B, T, H, d) views into wider arrays (strided, as in a packed qkv)."""
    rng = np.random.default_rng(seed)
    shapes = ((t_q, hs), (t_k, hs), (t_k, hv), (t_q, hv))
    return [(rng.standard_normal((batch, t, heads, d + 3)) * spread).astype(np.float32)[..., 1:d + 1]
            for t, d in shapes]


def run_fused(q, k, v, g, scale, causal):
    out, p, tiles = KA.fused_attention(q, k, v, scale, causal)
    for tile, x in zip(tiles, (q, k, v)):  # each head's operands, gathered contiguous
        np.testing.assert_array_equal(tile, x.transpose(0, 2, 1, 3).reshape(tile.shape))
    grads = [np.full(x.shape, np.nan, np.float32) for x in (q, k, v)]
    KA.fused_attention_backward(g, tiles, p, scale, *grads)
    return out, p, *grads


def check_against_reference(batch, heads, t_q, t_k, hs, hv, causal, seed, spread=1.0,
                            scale=None):
    q, k, v, g = random_operands(batch, heads, t_q, t_k, hs, hv, seed, spread)
    scale = 1.0 / np.sqrt(hs) if scale is None else scale
    got_all = run_fused(q, k, v, g, scale, causal)
    want = reference(q, k, v, g, scale, causal)
    for got, ref, name in zip(got_all, want, ("out", "P", "dq", "dk", "dv")):
        assert got.dtype == np.float32, name
        assert got.shape == ref.shape, name
        np.testing.assert_allclose(got, ref, rtol=1e-4, atol=2e-5 * max(1.0, np.abs(ref).max()),
                                   err_msg=name)
    return got_all[1]


@given(batch=st.integers(1, 3), heads=st.integers(1, 3), t_q=st.integers(1, 9),
       t_k=st.integers(1, 9), hs=st.integers(1, 6), hv=st.integers(1, 6), causal=st.booleans(),
       seed=st.integers(0, 99))
def test_fused_attention_equals_float64_reference(batch, heads, t_q, t_k, hs, hv, causal, seed):
    check_against_reference(batch, heads, t_q, t_k, hs, hv, causal, seed)


@pytest.mark.parametrize("causal", [True, False])
def test_threaded_path_on_gpt_sized_heads(causal):
    # 12 x 4 heads of (64, 64) tiles: big enough for the threaded kernels
    assert KA._use_threads(48, 64, 64, 32) == KA.parallel()
    check_against_reference(12, 4, 64, 64, 32, 32, causal, seed=0)


def test_causal_rows_see_only_earlier_keys_and_blind_rows_are_zero():
    # Tq > Tk: the first Tq - Tk queries see no key at all (their rows are all zero)
    p = check_against_reference(2, 1, 5, 3, 4, 4, causal=True, seed=1)
    assert np.all(p[:, :2] == 0)
    assert np.all(np.triu(p[:, 2:], k=1) == 0)
    np.testing.assert_allclose(p[:, 2:].sum(-1), 1.0, rtol=1e-6)


@pytest.mark.parametrize("scale", [-0.7, 0.0, 3.0])
def test_any_scale_including_negative_and_zero(scale):
    check_against_reference(2, 2, 5, 5, 3, 3, causal=True, seed=4, scale=scale)


def test_huge_scores_stay_finite_and_nan_propagates():
    # scores of ~1e4 / sqrt(hs): the row max is subtracted before the exp
    check_against_reference(3, 2, 6, 6, 4, 4, causal=True, seed=2, spread=100.0)
    q, k, v, _ = random_operands(1, 1, 3, 3, 2, 2, seed=3)
    q[0, 1, 0, 0] = np.nan
    out, p, _ = KA.fused_attention(q, k, v, 1.0, False)
    assert np.isnan(p[0, 1]).all() and np.isnan(out[0, 1]).all()
    assert np.isfinite(p[0, [0, 2]]).all()


def test_nn_uses_the_fused_kernels_only_where_they_apply(monkeypatch):
    calls = []
    real = KA.fused_attention
    monkeypatch.setattr(KA, "fused_attention", lambda *a: calls.append(1) or real(*a))
    rng = np.random.default_rng(0)
    q, k, v = (minigrad.Tensor(rng.standard_normal((2, 2, 4, 3)).astype(np.float32),
                               requires_grad=True) for _ in range(3))
    F = nn.functional
    fused = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    assert calls == [1]
    mask = np.triu(np.ones((4, 4), dtype=bool), k=1)  # the causal mask, given as a mask
    general = F.scaled_dot_product_attention(q, k, v, mask=mask)
    assert calls == [1]  # a user mask takes the general path ...
    np.testing.assert_allclose(fused.data, general.data, rtol=1e-5, atol=1e-6)  # ... same result
    (fused * fused).sum().backward()
    g_fused = [t.grad.data.copy() for t in (q, k, v)]
    for t in (q, k, v):
        t.grad = None
    (general * general).sum().backward()
    for got, t in zip(g_fused, (q, k, v)):
        np.testing.assert_allclose(got, t.grad, rtol=1e-4, atol=1e-5)
    q64 = minigrad.Tensor(q.data.astype(np.float64))
    F.scaled_dot_product_attention(q64, q64, q64, is_causal=True)
    assert calls == [1]  # float64 (gradchecks) takes the general path


@pytest.mark.parametrize("is_causal", [True, False])
def test_fused_self_attention_matches_the_float64_module(is_causal):
    # float32 self-attention takes the fused kernels straight on the packed q|k|v
    # projection; a float64 copy of the module takes the general path
    minigrad.manual_seed(0)
    mha32 = nn.MultiHeadAttention(12, 3)
    mha64 = nn.MultiHeadAttention(12, 3).double()
    mha64.load_state_dict({k: v.data.astype(np.float64) for k, v in mha32.state_dict().items()})
    x = np.random.default_rng(1).standard_normal((2, 5, 12))
    results = []
    for mha, dt in ((mha32, np.float32), (mha64, np.float64)):
        mha.record_weights = True
        xt = minigrad.Tensor(x.astype(dt), requires_grad=True)
        out = mha(xt, is_causal=is_causal)
        (out * out).sum().backward()
        results.append([out.data, mha.last_attn_weights, xt.grad,
                        *(p.grad for p in mha.parameters())])
    for got, want in zip(*results, strict=True):
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-5 * max(1, np.abs(want).max()))

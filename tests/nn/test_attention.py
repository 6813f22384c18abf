"""Attention, every layer of it, in one file:

- ``F.scaled_dot_product_attention`` against PyTorch's (bool and float masks,
  ``is_causal`` with L != S, ``scale``, dropout, ``enable_gqa``), fully masked
  rows (0, never NaN, finite gradients), gradchecks in float64, errors;
- the backends' ``attention`` primitive: fast == reference, and the fused
  float32 kernels against float64 NumPy, and where they are used;
- ``nn.MultiHeadAttention`` against ``torch.nn.MultiheadAttention`` with the same
  weights (self- and cross-attention, key-padding masks), its packed q|k|v
  parameter, old unpacked state dicts, the weights hook, dropout, errors;
- the key/value cache: cached decoding equals the full forward, through the
  same module code.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad import models, nn
from minigrad.backends import Fast, Reference
from minigrad.backends.interface import causal_mask
from minigrad.kernels import attention as KA
from minigrad.nn import functional as F
from minigrad.nn.attention import KVCache
from minigrad.ops.attention import AttentionFunction

try:
    import torch
except ImportError:  # the README's set-up has no PyTorch: the comparisons with it skip
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")
TF = None if torch is None else torch.nn.functional
R, FB = Reference(), Fast()  # the two backends' primitives, side by side
backends = pytest.mark.parametrize("backend", ["fast", "reference"])
dtypes = pytest.mark.parametrize("dtype", [np.float32, np.float64])
sizes = st.integers(1, 3)


def tol(dtype):
    return {"rtol": 1e-4, "atol": 1e-5} if dtype == np.float32 else {"rtol": 1e-9, "atol": 1e-11}


def leaf(rng, *shape, dtype=np.float64):
    return mg.tensor(rng.standard_normal(shape).astype(dtype), requires_grad=True)


def against_torch(ours, theirs, arrays, dtype, grad=True, rows=None):
    """Run ``ours`` on minigrad leaves and ``theirs`` on torch leaves made of the same
    ``arrays``; compare outputs (and the gradients of sum(out * w)), optionally only where
    the boolean ``rows`` (broadcast over the output's last axis) is True."""
    m = [mg.tensor(a, requires_grad=True) for a in arrays]
    t = [torch.tensor(a, requires_grad=True) for a in arrays]
    out_m, out_t = ours(*m), theirs(*t)
    keep = np.ones(out_m.shape[:-1] + (1,), bool) if rows is None else rows[..., None]
    np.testing.assert_allclose(np.where(keep, out_m.data, 0),
                               np.where(keep, out_t.detach().numpy(), 0), **tol(dtype))
    if grad:
        w = np.random.default_rng(99).standard_normal(out_m.shape).astype(dtype) * keep
        (out_m * mg.tensor(w)).sum().backward()
        (out_t * torch.tensor(w)).sum().backward()
        for a, b in zip(m, t):
            np.testing.assert_allclose(a.grad.data if hasattr(a.grad, "data") else a.grad,
                                       b.grad.numpy(), **tol(dtype))


def sdpa(*a, **k):
    return F.scaled_dot_product_attention(*a, **k)


# ---- F.scaled_dot_product_attention against PyTorch -------------------------------------
@needs_torch
@backends
@dtypes
@pytest.mark.parametrize("kw", [{}, {"scale": 0.3}, {"is_causal": True},
                                {"is_causal": True, "scale": -0.7}])
@pytest.mark.parametrize("t_q,t_k", [(4, 4), (3, 6), (6, 3), (1, 5)])
def test_sdpa_matches_torch(backend, dtype, kw, t_q, t_k):
    rng = np.random.default_rng(t_q * 10 + t_k)
    arrays = [rng.standard_normal(s).astype(dtype)
              for s in ((2, 3, t_q, 4), (2, 3, t_k, 4), (2, 3, t_k, 5))]
    # is_causal with L > S: PyTorch's top-left mask leaves no key for nothing: rows i
    # with tril(ones(L, S)) empty do not exist (j = 0 is always visible), so all compare
    with mg.use_backend(backend):
        against_torch(lambda q, k, v: sdpa(q, k, v, **kw),
                      lambda q, k, v: TF.scaled_dot_product_attention(q, k, v, **kw),
                      arrays, dtype)


def test_is_causal_is_top_left_aligned_as_torch():
    # PyTorch's is_causal is tril(ones(L, S)): query i sees keys 0..i, whatever S is
    rng = np.random.default_rng(1)
    q, k, v = rng.standard_normal((1, 2, 4)), rng.standard_normal((1, 6, 4)), \
        rng.standard_normal((1, 6, 3))
    allowed = np.tril(np.ones((2, 6), bool))
    a = sdpa(mg.tensor(q), mg.tensor(k), mg.tensor(v), is_causal=True)
    b = sdpa(mg.tensor(q), mg.tensor(k), mg.tensor(v), attn_mask=allowed)
    np.testing.assert_allclose(a.data, b.data, rtol=1e-12)
    np.testing.assert_allclose(a.data[0, 0], v[0, 0], rtol=1e-12)  # query 0: key 0 only


@needs_torch
@backends
@dtypes
@pytest.mark.parametrize("mask_shape", [(4, 6), (2, 1, 4, 6), (2, 3, 1, 6), (1, 6)])
def test_sdpa_bool_and_float_masks_match_torch(backend, dtype, mask_shape):
    rng = np.random.default_rng(len(mask_shape))
    arrays = [rng.standard_normal(s).astype(dtype) for s in ((2, 3, 4, 5), (2, 3, 6, 5),
                                                              (2, 3, 6, 2))]
    allowed = rng.random(mask_shape) > 0.4
    rows = np.broadcast_to(allowed, (2, 3, 4, 6)).any(-1)  # PyTorch gives NaN elsewhere
    additive = np.where(allowed, rng.standard_normal(mask_shape), -np.inf).astype(dtype)
    with mg.use_backend(backend):
        for m in (allowed, additive):
            against_torch(lambda q, k, v, m=m: sdpa(q, k, v, attn_mask=m),
                          lambda q, k, v, m=m: TF.scaled_dot_product_attention(
                              q, k, v, attn_mask=torch.tensor(m)),
                          arrays, dtype, rows=rows)
            # a Tensor mask is taken as well
            out = sdpa(*(mg.tensor(a) for a in arrays), attn_mask=mg.tensor(m))
            assert np.isfinite(out.data).all()


@needs_torch
@backends
@pytest.mark.parametrize("shape", [(5, 4), (3, 5, 4), (2, 2, 2, 5, 4)])
def test_sdpa_any_leading_axes(backend, shape):
    rng = np.random.default_rng(2)
    arrays = [rng.standard_normal(shape) for _ in range(3)]
    allowed = rng.random(shape[:-3] + (1, 5, 5)) > 0.5 if len(shape) > 2 else \
        rng.random((5, 5)) > 0.5
    allowed[..., 0] = True  # every query may attend somewhere (PyTorch gives NaN otherwise)
    with mg.use_backend(backend):
        against_torch(lambda q, k, v: sdpa(q, k, v, is_causal=True),
                      lambda q, k, v: TF.scaled_dot_product_attention(q, k, v, is_causal=True),
                      arrays, np.float64)
        against_torch(lambda q, k, v: sdpa(q, k, v, attn_mask=allowed),
                      lambda q, k, v: TF.scaled_dot_product_attention(
                          q, k, v, attn_mask=torch.tensor(allowed)), arrays, np.float64)


@needs_torch
@backends
@dtypes
def test_sdpa_enable_gqa_matches_torch(backend, dtype):
    rng = np.random.default_rng(3)
    arrays = [rng.standard_normal(s).astype(dtype) for s in ((2, 6, 4, 5), (2, 2, 7, 5),
                                                              (2, 2, 7, 3))]
    with mg.use_backend(backend):
        against_torch(lambda q, k, v: sdpa(q, k, v, enable_gqa=True),
                      lambda q, k, v: TF.scaled_dot_product_attention(q, k, v, enable_gqa=True),
                      arrays, dtype)
    q, k, v = (mg.tensor(a) for a in arrays)
    k4, v4 = (mg.tensor(rng.standard_normal((2, 4, 7, d)).astype(dtype)) for d in (5, 3))
    with pytest.raises(ValueError, match="enable_gqa"):
        sdpa(q, k4, v4, enable_gqa=True)  # 6 query heads, 4 key/value heads
    with pytest.raises(ValueError, match="shapes"):
        sdpa(q, k, v)  # fewer key heads without enable_gqa


@backends
@dtypes
def test_fully_masked_rows_give_zeros_and_finite_gradients(backend, dtype):
    rng = np.random.default_rng(0)
    q, k, v = (leaf(rng, 2, 3, 4, 8, dtype=dtype) for _ in range(3))
    allowed = np.ones((2, 1, 4, 4), dtype=bool)
    allowed[0, :, 1, :] = False        # query 1 of batch 0 may attend to nothing
    allowed[1] = False                 # batch 1: every query fully masked
    additive = np.where(allowed, 0.0, -np.inf)
    with mg.use_backend(backend):
        for m in (allowed, additive):
            for t in (q, k, v):
                t.grad = None
            with warnings.catch_warnings(), np.errstate(all="raise"):
                warnings.simplefilter("error")
                out = sdpa(q, k, v, attn_mask=m)
                (out * out).sum().backward()
            assert np.isfinite(out.data).all()
            np.testing.assert_array_equal(out.data[0, :, 1], 0.0)
            np.testing.assert_array_equal(out.data[1], 0.0)
            for t in (q, k, v):
                assert np.isfinite(t.grad.data).all()
            np.testing.assert_array_equal(q.grad.data[1], 0.0)


@needs_torch
@backends
@pytest.mark.parametrize("t_q,t_k", [(0, 3), (3, 0), (0, 0)])
def test_attention_with_no_queries_or_no_keys(backend, t_q, t_k):
    q = mg.randn(2, 2, t_q, 4, requires_grad=True)
    k = mg.randn(2, 2, t_k, 4, requires_grad=True)
    v = mg.randn(2, 2, t_k, 5, requires_grad=True)
    with mg.use_backend(backend):
        out = sdpa(q, k, v, is_causal=t_q == t_k)
        assert out.shape == (2, 2, t_q, 5)
        np.testing.assert_array_equal(out.numpy(), 0)
        (out * 2).sum().backward()
    for t in (q, k, v):
        assert t.grad.shape == t.shape and not t.grad.data.any()
    theirs = TF.scaled_dot_product_attention(*(torch.zeros(a.shape) for a in (q, k, v)))
    np.testing.assert_array_equal(out.numpy(), np.nan_to_num(theirs.numpy()))  # torch: NaN


@settings(deadline=None, max_examples=30)
@given(b=sizes, h=sizes, tq=st.integers(1, 4), tk=st.integers(1, 4), hs=sizes,
       kind=st.sampled_from(["none", "causal", "bool", "float"]), seed=st.integers(0, 99))
def test_sdpa_gradcheck(b, h, tq, tk, hs, kind, seed):
    rng = np.random.default_rng(seed)
    q, k, v = leaf(rng, b, h, tq, hs), leaf(rng, b, h, tk, hs), leaf(rng, b, h, tk, hs + 1)
    m = rng.random((b, 1, tq, tk)) > 0.3
    mask = {"bool": m, "float": np.where(m, rng.standard_normal(m.shape), -np.inf)}.get(kind)
    fn = (lambda q, k, v: sdpa(q, k, v, attn_mask=mask, is_causal=kind == "causal"))
    assert np.isfinite(fn(q, k, v).data).all()
    assert mg.gradcheck(fn, [q, k, v])


def test_sdpa_dropout():
    rng = np.random.default_rng(5)
    q, k, v = (mg.tensor(rng.standard_normal((1, 1, 4, 3))) for _ in range(3))
    plain = sdpa(q, k, v)
    np.testing.assert_array_equal(sdpa(q, k, v, dropout_p=0.0).data, plain.data)
    mg.manual_seed(0)
    assert not np.allclose(sdpa(q, k, v, dropout_p=0.5).data, plain.data)
    x = mg.tensor(rng.standard_normal((1, 1, 3, 2)), requires_grad=True)

    def f(x):
        mg.manual_seed(1)
        return sdpa(x, x, x, dropout_p=0.4)

    assert mg.gradcheck(f, [x])


def test_sdpa_is_one_function_with_pytorchs_signature():
    import inspect

    from minigrad.nn import attention

    assert F.scaled_dot_product_attention is attention.scaled_dot_product_attention
    assert list(inspect.signature(F.scaled_dot_product_attention).parameters) == [
        "query", "key", "value", "attn_mask", "dropout_p", "is_causal", "scale", "enable_gqa"]


def test_sdpa_errors():
    q = mg.randn(1, 2, 3, 4)
    with pytest.raises(TypeError, match="bool or float"):
        sdpa(q, q, q, attn_mask=np.zeros((3, 3), np.int64))
    with pytest.raises(ValueError, match="broadcast"):
        sdpa(q, q, q, attn_mask=np.zeros((2, 2), bool))
    with pytest.raises(ValueError, match="broadcast"):
        sdpa(q, q, q, attn_mask=np.zeros((2, 2)))
    with pytest.raises(ValueError, match="is_causal"):
        sdpa(q, q, q, attn_mask=np.ones((3, 3), bool), is_causal=True)
    with pytest.raises(ValueError, match="shapes"):
        sdpa(q, mg.randn(1, 2, 3, 5), q)
    with pytest.raises(ValueError, match="shapes"):
        sdpa(q, q, mg.randn(1, 2, 2, 4))
    with pytest.raises(TypeError, match="dtype"):
        sdpa(q, q, mg.randn(1, 2, 3, 4).double())
    with pytest.raises(TypeError):
        sdpa(q.data, q, q)
    with pytest.raises(TypeError):
        sdpa(q, q, q, mask=np.ones((3, 3), bool))  # no second mask convention


# ---- the backends' attention primitive ----------------------------------------------------
@settings(deadline=None, max_examples=40)
@given(st.sampled_from([np.float32, np.float64]), st.integers(1, 2), st.integers(0, 5),
       st.integers(0, 5), st.integers(1, 4), st.booleans(),
       st.sampled_from(["none", "mask", "dropout"]), st.booleans(), st.integers(0, 2**32 - 1))
def test_fast_equals_reference(dtype, heads, t_q, t_k, hs, causal, extra, strided, seed):
    rng = np.random.default_rng(seed)

    def operand(t, d):  # (B, T, H, d); strided: a view into a wider array (a packed qkv)
        a = rng.standard_normal((2, t, heads, d + 2 * strided)).astype(dtype)
        return a[..., 1:d + 1] if strided else a

    q, k, v, g = operand(t_q, hs), operand(t_k, hs), operand(t_k, hs + 1), operand(t_q, hs + 1)
    mask = np.where(rng.random((2, 1, t_q, t_k)) < 0.4, -np.inf, 0.0).astype(dtype) \
        if extra == "mask" else None
    drop = ((rng.random((2, heads, t_q, t_k)) > 0.3) / 0.7).astype(dtype) \
        if extra == "dropout" else None
    scale = 1 / np.sqrt(hs)
    of, pf, sf = FB.attention(q, k, v, mask, causal, scale, drop)
    o_r, pr, sr = R.attention(q, k, v, mask, causal, scale, drop)
    t = {"rtol": 2e-4, "atol": 2e-5} if dtype == np.float32 else {"rtol": 1e-9, "atol": 1e-11}
    assert of.shape == o_r.shape == (2, t_q, heads, hs + 1) and of.dtype == dtype
    np.testing.assert_allclose(of, o_r, **t)
    np.testing.assert_allclose(pf, pr, **t)
    assert np.all(np.isfinite(o_r))  # fully masked rows (and no keys) give zeros, not NaN
    needs = (True, True, True)
    for f, r in zip(FB.attention_backward(g, sf, scale, drop, needs),
                    R.attention_backward(g, sr, scale, drop, needs)):
        assert f.shape == r.shape
        np.testing.assert_allclose(f, r, **t)


# ---- the fused float32 kernels ---------------------------------------------------------
def kernel_reference(q, k, v, g, scale, causal):
    """The reference backend in float64 on (B, T, H, d) operands: (out, P as (B*H, Tq, Tk),
    dq, dk, dv)."""
    q, k, v, g = (a.astype(np.float64) for a in (q, k, v, g))
    out, p, saved = R.attention(q, k, v, None, causal, scale, None)
    dq, dk, dv = R.attention_backward(g, saved, scale, None, (True, True, True))
    return out, p.reshape(-1, *p.shape[2:]), dq, dk, dv


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
    heads = [t.reshape(x.shape[0], x.shape[2], x.shape[1], x.shape[3]).transpose(0, 2, 1, 3)
             for t, x in zip(tiles, (q, k, v))]  # the kept tiles as (B, T, H, d) views
    KA.fused_attention_backward(g, *heads, p, scale, causal, *grads)
    # without keep the forward gives the same out, and the backward gathers the heads from
    # q, k, v and recomputes P: the same bits
    out2, none, no_tiles = KA.fused_attention(q, k, v, scale, causal, keep=False)
    assert none is None and no_tiles is None
    np.testing.assert_array_equal(out2, out)
    again = [np.full(x.shape, np.nan, np.float32) for x in (q, k, v)]
    KA.fused_attention_backward(g, q, k, v, None, scale, causal, *again)
    for a, b in zip(again, grads):
        np.testing.assert_array_equal(a, b)
    return out, p, *grads


def check_kernels(batch, heads, t_q, t_k, hs, hv, causal, seed, spread=1.0, scale=None):
    q, k, v, g = random_operands(batch, heads, t_q, t_k, hs, hv, seed, spread)
    scale = 1.0 / np.sqrt(hs) if scale is None else scale
    got_all = run_fused(q, k, v, g, scale, causal)
    want = kernel_reference(q, k, v, g, scale, causal)
    for got, ref, name in zip(got_all, want, ("out", "P", "dq", "dk", "dv")):
        assert got.dtype == np.float32 and got.shape == ref.shape, name
        np.testing.assert_allclose(got, ref, rtol=1e-4, atol=2e-5 * max(1.0, np.abs(ref).max()),
                                   err_msg=name)
    return got_all[1]


@settings(deadline=None)
@given(batch=st.integers(1, 3), heads=st.integers(1, 3), t_q=st.integers(1, 9),
       t_k=st.integers(1, 9), hs=st.integers(1, 6), hv=st.integers(1, 6), causal=st.booleans(),
       seed=st.integers(0, 2**16))
def test_fused_kernels_equal_float64_reference(batch, heads, t_q, t_k, hs, hv, causal, seed):
    check_kernels(batch, heads, t_q, t_k, hs, hv, causal, seed)


@pytest.mark.parametrize("causal", [True, False])
def test_fused_kernels_threaded_path_on_gpt_sized_heads(causal):
    assert KA._use_threads(4 * 6, 64, 64, 64) or not KA.parallel()
    check_kernels(4, 6, 64, 64, 64, 64, causal, seed=1)


def test_fused_causal_rows_see_only_earlier_keys_and_blind_rows_are_zero():
    p = check_kernels(2, 2, 6, 4, 3, 3, True, seed=2)  # 6 queries, 4 keys: rows 0, 1 see nothing
    assert np.all(p[:, :2] == 0)
    for i in range(2, 6):
        assert np.all(p[:, i, i - 1:] == 0) and np.all(p[:, i, :i - 1] > 0)


@pytest.mark.parametrize("scale", [-0.7, 0.0, 3.0])
def test_fused_any_scale_including_negative_and_zero(scale):
    check_kernels(2, 2, 5, 5, 4, 4, True, seed=3, scale=scale)


def test_fused_huge_scores_stay_finite_and_nan_propagates():
    # scores of ~1e4 / sqrt(hs): the row max is subtracted before the exp
    check_kernels(3, 2, 6, 6, 4, 4, causal=True, seed=2, spread=100.0)
    q, k, v, _ = random_operands(1, 1, 3, 3, 2, 2, seed=3)
    q[0, 1, 0, 0] = np.nan
    out, p, _ = KA.fused_attention(q, k, v, 1.0, False)
    assert np.isnan(p[0, 1]).all() and np.isnan(out[0, 1]).all()
    assert np.isfinite(p[0, [0, 2]]).all()


def test_the_fused_kernels_run_only_where_they_apply(monkeypatch):
    calls = []
    real = KA.fused_attention
    monkeypatch.setattr(KA, "fused_attention", lambda *a: calls.append(1) or real(*a))
    rng = np.random.default_rng(0)
    q, k, v = (mg.Tensor(rng.standard_normal((2, 2, 4, 3)).astype(np.float32),
                         requires_grad=True) for _ in range(3))
    with mg.use_backend("fast"):
        fused = sdpa(q, k, v, is_causal=True)
        assert calls == [1]
        general = sdpa(q, k, v, attn_mask=np.tril(np.ones((4, 4), bool)))  # the same, as a mask
        assert calls == [1]  # a user mask takes the general path ...
        np.testing.assert_allclose(fused.data, general.data, rtol=1e-5, atol=1e-6)  # ... same
        (fused * fused).sum().backward()
        g_fused = [t.grad.data.copy() for t in (q, k, v)]
        for t in (q, k, v):
            t.grad = None
        (general * general).sum().backward()
        for got, t in zip(g_fused, (q, k, v)):
            np.testing.assert_allclose(got, t.grad.data, rtol=1e-4, atol=1e-5)
        q64 = mg.Tensor(q.data.astype(np.float64))
        sdpa(q64, q64, q64, is_causal=True)
        assert calls == [1]  # float64 (gradchecks) takes the general path


@pytest.mark.parametrize("is_causal", [True, False])
def test_fused_self_attention_matches_the_float64_module(is_causal):
    # float32 self-attention takes the fused kernels straight on views of the packed q|k|v
    # projection; a float64 copy of the module takes the general path
    mg.manual_seed(0)
    mha32 = nn.MultiHeadAttention(12, 3)
    mha64 = nn.MultiHeadAttention(12, 3).double()
    mha64.load_state_dict({k: v.data.astype(np.float64) for k, v in mha32.state_dict().items()})
    x = np.random.default_rng(1).standard_normal((2, 5, 12))
    results = []
    with mg.use_backend("fast"):
        for mha, dt in ((mha32, np.float32), (mha64, np.float64)):
            mha.record_weights = True
            xt = mg.Tensor(x.astype(dt), requires_grad=True)
            out = mha(xt, is_causal=is_causal)
            (out * out).sum().backward()
            results.append([out.data, mha.last_attn_weights, xt.grad.data,
                            *(p.grad.data for p in mha.parameters())])
    for got, want in zip(*results, strict=True):
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=2e-4, atol=2e-5 * max(1, np.abs(want).max()))


# ---- nn.MultiHeadAttention against torch.nn.MultiheadAttention ----------------------------
def torch_twin(mha: nn.MultiHeadAttention, dtype) -> torch.nn.MultiheadAttention:
    """torch.nn.MultiheadAttention holding ``mha``'s weights: the packed q|k|v is a plain copy."""
    tmha = torch.nn.MultiheadAttention(mha.embed_dim, mha.num_heads, batch_first=True,
                                       bias=mha.in_proj_bias is not None,
                                       dtype=torch.float64 if dtype == np.float64 else torch.float32)
    theirs = tmha.state_dict()
    for name, t in mha.state_dict().items():
        assert theirs[name].shape == t.shape, name  # same names and shapes as PyTorch's
        theirs[name] = torch.tensor(t.data.astype(dtype))
    tmha.load_state_dict(theirs)
    return tmha


@needs_torch
@backends
@dtypes
@pytest.mark.parametrize("case", ["self", "causal", "cross", "padding", "separate kv"])
def test_mha_matches_torch(backend, dtype, case):
    mg.manual_seed(1)
    mha = nn.MultiHeadAttention(8, 2)
    if dtype == np.float64:
        mha.double()
    tmha = torch_twin(mha, dtype)
    rng = np.random.default_rng(2)
    x, mem, mem2 = (rng.standard_normal((2, t, 8)).astype(dtype) for t in (5, 6, 6))
    pad = np.zeros((2, 6), bool)
    pad[1, 3:] = True  # batch 1: keys 3.. are padding (True = may not attend)
    causal = np.triu(np.ones((5, 5), bool), 1)

    def ours(*a):
        kw = {"causal": {"is_causal": True}, "padding": {"mask": pad[:, None, None, :]}}
        return mha(*a, **kw.get(case, {}))

    def theirs(*a):
        a = a + (a[-1],) if case in ("cross", "padding") else a if case == "separate kv" \
            else (a[0], a[0], a[0])
        kw = {"causal": {"attn_mask": torch.tensor(causal), "is_causal": True},
              "padding": {"key_padding_mask": torch.tensor(pad)}}.get(case, {})
        return tmha(*a, need_weights=False, **kw)[0]

    if case in ("cross", "padding"):
        arrays = [x, mem]
        fn = (lambda a, b: ours(a, b, b))
    elif case == "separate kv":
        arrays, fn = [x, mem, mem2], ours
    else:
        arrays, fn = [x], ours
    with mg.use_backend(backend):
        against_torch(fn, theirs, arrays, dtype)


@settings(deadline=None, max_examples=20)
@given(b=sizes, tq=st.integers(1, 3), tk=st.integers(1, 3), heads=st.sampled_from([1, 2]),
       causal=st.booleans(), seed=st.integers(0, 99))
def test_mha_gradcheck_self_and_cross(b, tq, tk, heads, causal, seed):
    rng = np.random.default_rng(seed)
    mg.manual_seed(seed)
    mha = nn.MultiHeadAttention(4, heads).double()
    params = list(mha.parameters())
    x, mem = leaf(rng, b, tq, 4), leaf(rng, b, tk, 4)
    assert mg.gradcheck(lambda x, *_: mha(x, is_causal=causal), [x] + params)
    assert mg.gradcheck(lambda x, mem, *_: mha(x, mem, mem), [x, mem] + params)


def test_mha_fully_masked_query_gives_the_output_bias_never_nan():
    mg.manual_seed(0)
    mha = nn.MultiHeadAttention(8, 2)
    x = mg.randn(2, 5, 8, requires_grad=True)
    pad = np.zeros((2, 1, 1, 5), dtype=bool)
    pad[1] = True  # every key of sequence 1 is padding
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = mha(x, mask=pad)
        out.sum().backward()
    # the attention output is 0 there, so the layer gives out_proj's bias
    np.testing.assert_allclose(out.data[1], np.broadcast_to(mha.out_proj.bias.data, (5, 8)))
    assert np.isfinite(out.data).all() and np.isfinite(x.grad.data).all()
    assert all(np.isfinite(p.grad.data).all() for p in mha.parameters())
    none = mha(mg.randn(2, 3, 8), mg.randn(2, 0, 8))  # no keys at all: the same
    np.testing.assert_allclose(none.data, np.broadcast_to(mha.out_proj.bias.data, (2, 3, 8)))
    empty = mha(mg.randn(2, 0, 8, requires_grad=True))
    assert empty.shape == (2, 0, 8)
    empty.sum().backward()


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
    assert [n for n, _ in mha.named_parameters()] == ["in_proj_weight", "out_proj.weight"]
    assert mha.in_proj_weight.shape == (24, 8) and mha.in_proj_bias is None
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


def test_self_attention_grad_reaches_the_packed_weight_without_splitting_it():
    mg.manual_seed(0)
    mha = nn.MultiHeadAttention(6, 2).double()
    x = mg.tensor(np.random.default_rng(4).standard_normal((2, 4, 6)), requires_grad=True)
    assert mg.gradcheck(lambda x, w, b: mha(x, is_causal=True),
                        [x, mha.in_proj_weight, mha.in_proj_bias])


def old_layout(state: dict, prefix: str = "") -> dict:
    """A state dict as minigrad saved it before q|k|v were packed."""
    old = {k: v.data.copy() for k, v in state.items()}
    w, b = old.pop(f"{prefix}in_proj_weight"), old.pop(f"{prefix}in_proj_bias")
    for i, n in enumerate("qkv"):
        c = w.shape[1]
        old[f"{prefix}{n}_proj.weight"] = w[i * c:(i + 1) * c]
        old[f"{prefix}{n}_proj.bias"] = b[i * c:(i + 1) * c]
    return old


def test_old_unpacked_state_dicts_load_with_a_warning(tmp_path):
    mg.manual_seed(0)
    model = models.GPT(vocab_size=11, block_size=8, n_layer=2, n_head=2, n_embd=8)
    ids = np.random.default_rng(0).integers(0, 11, (2, 8))
    want = model(ids)[0].data
    old = {}
    for i in range(2):
        prefix = f"blocks.{i}.attn."
        sub = {k: v for k, v in model.state_dict().items() if k.startswith(prefix)}
        old.update(old_layout(sub, prefix))
    old.update({k: v.data for k, v in model.state_dict().items() if ".attn.in_proj" not in k})
    mg.save(old, tmp_path / "old.npz")
    mg.manual_seed(1)
    fresh = models.GPT(vocab_size=11, block_size=8, n_layer=2, n_head=2, n_embd=8)
    with pytest.warns(UserWarning, match="old unpacked"):
        fresh.load_state_dict(mg.load(tmp_path / "old.npz"))
    np.testing.assert_array_equal(fresh(ids)[0].data, want)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the new layout loads silently
        fresh.load_state_dict(model.state_dict())


# ---- the key/value cache: decoding runs the same module code ---------------------------
BLOCK = 8


@pytest.mark.parametrize("pos", ["learned", "sinusoidal"])
@pytest.mark.parametrize("chunks", [(3, 1, 1, 1, 2), (1,) * BLOCK, (BLOCK,)])
def test_cached_forward_matches_full_forward_logits(pos, chunks):
    mg.manual_seed(6)
    model = models.GPT(vocab_size=13, block_size=BLOCK, n_layer=3, n_head=2, n_embd=8,
                       pos_encoding=pos)
    for p in model.parameters():  # larger weights: attention far from uniform
        p.data *= 20 if p.ndim == 2 else 1
    model.eval()
    ids = np.random.default_rng(8).integers(0, 13, (2, BLOCK))
    full, _ = model(ids)
    caches = [KVCache() for _ in range(3)]
    start = 0
    with mg.no_grad():
        for n in chunks:
            part = model._forward_cached(ids[:, start:start + n], caches)
            np.testing.assert_allclose(part.data, full.data[:, start:start + n],
                                       rtol=1e-4, atol=1e-4)
            start += n
    assert all(len(c) == BLOCK for c in caches)


def test_mha_with_a_cache_equals_one_call_over_the_whole_sequence():
    mg.manual_seed(3)
    mha = nn.MultiHeadAttention(8, 2).double()
    x = mg.tensor(np.random.default_rng(3).standard_normal((2, 6, 8)))
    whole = mha(x, is_causal=True).data
    cache = KVCache()
    parts = [mha(x[:, a:b], is_causal=True, cache=cache).data for a, b in ((0, 2), (2, 3), (3, 6))]
    np.testing.assert_allclose(np.concatenate(parts, axis=1), whole, rtol=1e-12, atol=1e-12)
    assert len(cache) == 6 and cache.keys.shape == (2, 6, 2, 4)


def test_generate_goes_through_the_attention_module(monkeypatch):
    mg.manual_seed(0)
    model = models.GPT(vocab_size=13, block_size=BLOCK, n_layer=2, n_head=2, n_embd=8)
    seen = []
    real = nn.MultiHeadAttention.forward

    def spy(self, query, *a, cache=None, **k):
        seen.append((query.shape[1], cache is not None))
        return real(self, query, *a, cache=cache, **k)

    monkeypatch.setattr(nn.MultiHeadAttention, "forward", spy)
    model.generate(np.zeros((1, 3), np.int64), 3)
    assert seen == [(3, True)] * 2 + [(1, True)] * 4


# ---- the Function itself -------------------------------------------------------------------
def test_attention_function_layout_and_double_backward():
    # one signature, the kernels' (B, T, H, hs) layout; second derivatives by composition
    rng = np.random.default_rng(7)
    q, k, v = leaf(rng, 1, 3, 2, 2), leaf(rng, 1, 4, 2, 2), leaf(rng, 1, 4, 2, 3)
    out = AttentionFunction.apply(q, k, v, causal=True, scale=0.6)
    assert out.shape == (1, 3, 2, 3)
    want = sdpa(*(t.transpose(1, 2) for t in (q, k, v)), attn_mask=~causal_mask(3, 4),
                scale=0.6).transpose(1, 2)
    np.testing.assert_allclose(out.data, want.data, rtol=1e-12)
    assert mg.gradgradcheck(lambda q, k, v: AttentionFunction.apply(q, k, v, causal=True,
                                                                    scale=0.6), [q, k, v])
    g, = mg.autograd.grad((out * out).sum(), [q], create_graph=True)
    g.sum().backward()
    assert np.isfinite(q.grad.data).all()


def test_scale_default_is_one_over_sqrt_head_size():
    rng = np.random.default_rng(8)
    q, k, v = (mg.tensor(rng.standard_normal((1, 1, 3, 9))) for _ in range(3))
    np.testing.assert_allclose(sdpa(q, k, v).data, sdpa(q, k, v, scale=1 / math.sqrt(9)).data,
                               rtol=1e-15)


@pytest.mark.parametrize("backward_on", ["fast", "reference"])
def test_a_large_p_is_recomputed_not_kept_and_gives_the_same_gradients(monkeypatch, backward_on):
    # above function.RECOMPUTE_ABOVE_BYTES the fused route keeps neither P nor the head tiles:
    # the backward (fast, or the reference after a switch) recomputes P from the inputs
    from minigrad import function

    rng = np.random.default_rng(7)
    qkv = rng.standard_normal((2, 5, 3, 2, 4)).astype(np.float32)
    grads = []
    for limit in (1 << 40, 0):
        monkeypatch.setattr(function, "RECOMPUTE_ABOVE_BYTES", limit)
        x = mg.tensor(qkv, requires_grad=True)
        q, k, v = (x[:, :, i] for i in range(3))
        with mg.use_backend("fast"):
            out = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2),
                                                 v.transpose(1, 2), is_causal=True)
        attn = next(t for t in mg.engine.topological_order(out)
                    if t._ctx is not None and t._ctx.fn.__name__ == "AttentionFunction")
        assert (attn._ctx._saved[3] is None) == (limit == 0)  # P kept only below the limit
        with mg.use_backend(backward_on):
            (out * out).sum().backward()
        grads.append(x.grad.data.copy())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-5, atol=1e-6)

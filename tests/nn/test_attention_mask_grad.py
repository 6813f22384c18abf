"""The gradient of a float ``attn_mask`` that requires grad in ``F.scaled_dot_product_attention``.

S = q k^T * scale + mask, so d mask = dS = P * (dP - rowsum(dP * P)), summed over the
axes along which the mask was broadcast to (B, H, L, S). Checked: finite differences of
the first and second derivatives (float64) with respect to q, k, v and the mask, for
broadcast masks, -inf entries, fully masked rows and dropout; float32 on the fast backend
against the float64 reference; PyTorch's gradients (skipped without PyTorch); and that a
mask which does not require grad still takes the constant route (no fourth input).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad.backends import Fast
from minigrad.nn import functional as F

try:
    import torch
except ImportError:  # the README's set-up has no PyTorch: the comparisons with it skip
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")
backends = pytest.mark.parametrize("backend", ["fast", "reference"])
B, H, L, S = 2, 3, 4, 5
# the query/key/value lead shape -> the mask shapes tried with it (each broadcasts to
# lead + (L, S)); the 5-D lead reaches the Function through a reshape of the mask
MASK_SHAPES = [((B, H), (L, S)), ((B, H), (B, 1, L, S)), ((B, H), (1, H, L, S)),
               ((B, H), (B, H, L, S)), ((B, H), (S,)), ((H,), (1, L, S)), ((), (L, S)),
               ((2, B, H), (B, 1, L, S))]
shapes = pytest.mark.parametrize("lead,mask_shape", MASK_SHAPES)


def operands(lead, mask_shape, dtype=np.float64, seed=0, blocked=True):
    """q, k, v and a float mask as arrays; with ``blocked``, some -inf entries and (in
    the first of the broadcast rows) one query whose keys are all blocked."""
    rng = np.random.default_rng(seed)
    q, k = rng.standard_normal(lead + (L, 6)), rng.standard_normal(lead + (S, 6))
    v = rng.standard_normal(lead + (S, 7))
    mask = rng.standard_normal(mask_shape)
    if blocked and len(mask_shape) == 1:
        mask[1] = -np.inf
    elif blocked:
        mask[..., 0, 1] = -np.inf
        mask[(0,) * (len(mask_shape) - 2) + (2,)] = -np.inf  # query 2 sees no key
    return [a.astype(dtype) for a in (q, k, v, mask)]


def sdpa(q, k, v, m, **kw):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=m, **kw)


def grads(backend, arrays, **kw):
    """(out, the gradients of sum(out * w) w.r.t. q, k, v, mask) on ``backend``."""
    leaves = [mg.tensor(a, requires_grad=True) for a in arrays]
    with mg.use_backend(backend):
        out = sdpa(*leaves, **kw)
        w = np.random.default_rng(9).standard_normal(out.shape).astype(out.dtype)
        (out * mg.tensor(w)).sum().backward()
    return out.data, [t.grad.data for t in leaves]


@backends
@shapes
def test_gradcheck_q_k_v_and_mask(backend, lead, mask_shape):
    leaves = [mg.tensor(a, requires_grad=True) for a in operands(lead, mask_shape)]
    with mg.use_backend(backend):
        assert mg.gradcheck(sdpa, leaves)


@backends
@pytest.mark.parametrize("lead,mask_shape", [((B, H), (L, S)), ((B, H), (B, 1, L, S)),
                                             ((B, H), (1, H, L, S)), ((2, B, H), (H, L, S))])
def test_gradgradcheck_q_k_v_and_mask(backend, lead, mask_shape):
    leaves = [mg.tensor(a, requires_grad=True) for a in operands(lead, mask_shape)]
    with mg.use_backend(backend):
        assert mg.gradgradcheck(sdpa, leaves)


@backends
def test_gradcheck_with_dropout(backend):
    leaves = [mg.tensor(a, requires_grad=True) for a in operands((B, H), (B, 1, L, S))]

    def f(q, k, v, m):
        mg.manual_seed(3)  # the same dropout mask at every evaluation
        return sdpa(q, k, v, m, dropout_p=0.3)

    with mg.use_backend(backend):
        assert mg.gradcheck(f, leaves)
        assert mg.gradgradcheck(f, leaves)


@backends
def test_mask_gradient_is_the_score_gradient_summed_over_broadcast_axes(backend):
    # the formula itself, in float64 NumPy: dS = P (dP - rowsum(dP P)), summed to (L, S)
    q, k, v, m = operands((B, H), (L, S))
    _, (_, _, _, dm) = grads(backend, (q, k, v, m))
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]) + m
    top = np.max(s, -1, keepdims=True)
    e = np.exp(s - np.where(np.isfinite(top), top, 0))
    tot = e.sum(-1, keepdims=True)
    p = np.divide(e, tot, out=np.zeros_like(e), where=tot > 0)
    w = np.random.default_rng(9).standard_normal((B, H, L, v.shape[-1]))
    dp = w @ np.swapaxes(v, -1, -2)
    ds = p * (dp - (dp * p).sum(-1, keepdims=True))
    np.testing.assert_allclose(dm, ds.sum((0, 1)), rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(dm[2], 0.0)  # the fully masked row: zero, not NaN
    assert dm[0, 1] == 0.0                     # a blocked key


@shapes
def test_float32_fast_matches_the_float64_reference(lead, mask_shape):
    arrays = operands(lead, mask_shape)
    out64, want = grads("reference", arrays)
    with warnings.catch_warnings(), np.errstate(all="raise"):
        warnings.simplefilter("error")
        out32, got = grads("fast", [a.astype(np.float32) for a in arrays])
    np.testing.assert_allclose(out32, out64, rtol=1e-4, atol=1e-5)
    for g, w in zip(got, want):
        assert g.dtype == np.float32 and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fast_equals_reference(dtype):
    arrays = operands((B, H), (B, 1, L, S), dtype)
    (out_f, got), (out_r, want) = grads("fast", arrays), grads("reference", arrays)
    tol = {"rtol": 1e-5, "atol": 1e-6} if dtype == np.float32 else {"rtol": 1e-12, "atol": 0}
    np.testing.assert_allclose(out_f, out_r, **tol)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, **tol)


@needs_torch
@backends
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@shapes
def test_mask_gradient_matches_torch(backend, dtype, lead, mask_shape):
    arrays = operands(lead, mask_shape, dtype)
    out, got = grads(backend, arrays)
    leaves = [torch.tensor(a, requires_grad=True) for a in arrays]
    theirs = torch.nn.functional.scaled_dot_product_attention(*leaves[:3], attn_mask=leaves[3])
    w = np.random.default_rng(9).standard_normal(out.shape).astype(dtype)
    (theirs * torch.tensor(w)).sum().backward()
    tol = {"rtol": 1e-4, "atol": 1e-5} if dtype == np.float32 else {"rtol": 1e-9, "atol": 1e-11}
    np.testing.assert_allclose(out, theirs.detach().numpy(), **tol)  # fully masked: 0 both
    for g, t in zip(got, leaves):
        np.testing.assert_allclose(g, t.grad.numpy(), **tol)


@needs_torch
def test_mask_gradient_with_grouped_query_attention_matches_torch():
    rng = np.random.default_rng(4)
    q, k, v = (rng.standard_normal((B, h, t, 4)) for h, t in ((H * 2, L), (H, S), (H, S)))
    arrays = (q, k, v, rng.standard_normal((1, H * 2, L, S)))
    _, got = grads("fast", arrays, enable_gqa=True)
    leaves = [torch.tensor(a, requires_grad=True) for a in arrays]
    theirs = torch.nn.functional.scaled_dot_product_attention(
        *leaves[:3], attn_mask=leaves[3], enable_gqa=True)
    w = np.random.default_rng(9).standard_normal(theirs.shape)
    (theirs * torch.tensor(w)).sum().backward()
    for g, t in zip(got, leaves):
        np.testing.assert_allclose(g, t.grad.numpy(), rtol=1e-9, atol=1e-11)


def test_a_mask_of_another_float_dtype_gets_its_gradient_in_its_dtype():
    q, k, v, m = (mg.tensor(a) for a in operands((B, H), (L, S)))  # float64 q, k, v
    mask32 = mg.tensor(m.data.astype(np.float32), requires_grad=True)
    mask64 = mg.tensor(mask32.data.astype(np.float64), requires_grad=True)  # same values
    sdpa(q, k, v, mask32).sum().backward()
    sdpa(q, k, v, mask64).sum().backward()
    assert mask32.grad.dtype == np.float32 and mask32.grad.shape == (L, S)
    np.testing.assert_allclose(mask32.grad.data, mask64.grad.data, rtol=1e-6, atol=1e-7)


def test_only_a_mask_that_requires_grad_is_an_input(monkeypatch):
    # the constant route (bool mask, float mask without grad) is unchanged: three inputs,
    # and the fast backend's own backward runs; a mask that requires grad is a fourth input
    seen = []
    real = Fast.attention_backward

    def spy(self, g, saved, scale, drop, needs, causal=False, like=None):
        seen.append(tuple(needs))
        return real(self, g, saved, scale, drop, needs, causal, like)

    monkeypatch.setattr(Fast, "attention_backward", spy)
    q, k, v, m = (mg.tensor(a, requires_grad=True) for a in operands((B, H), (L, S)))
    with mg.use_backend("fast"):
        for mask in (m.data > 0, m.data, m.detach(), m):
            sdpa(q, k, v, mask).sum().backward()
    assert seen == [(True,) * 3] * 3 + [(True,) * 4]
    with mg.no_grad():  # no graph: the mask that requires grad is only read
        np.testing.assert_array_equal(sdpa(q, k, v, m).data, sdpa(q, k, v, m.data).data)

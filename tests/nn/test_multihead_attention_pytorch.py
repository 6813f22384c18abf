"""nn.MultiheadAttention as PyTorch's: parameter names and init, state dicts loading strictly,
forward values and weights in float32/float64, train (dropout 0) and eval, float64 gradients
of inputs and parameters, over every constructor option and forward argument (PyTorch
comparisons skip without torch); masks' meaning, fully masked rows (zeros, never NaN),
shapes, errors and gradchecks without torch; the readable nn.MultiHeadAttention and this
module are one attention."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from torch_module_compare import compare_with_torch

import minigrad as mg
from minigrad import nn

E, H, L, S, N = 8, 2, 3, 4, 2

CONFIGS = [  # constructor options (besides batch_first, looped separately)
    {},
    {"bias": False},
    {"add_bias_kv": True},
    {"add_zero_attn": True},
    {"kdim": 5, "vdim": 6},
    {"add_bias_kv": True, "add_zero_attn": True, "kdim": 3, "vdim": 7},
    {"bias": False, "add_bias_kv": True},
]

KEYS = {  # PyTorch 2.13's state_dict keys for each config, written out
    0: ["in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"],
    1: ["in_proj_weight", "out_proj.weight"],
    2: ["in_proj_weight", "in_proj_bias", "bias_k", "bias_v", "out_proj.weight",
        "out_proj.bias"],
    3: ["in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"],
    4: ["q_proj_weight", "k_proj_weight", "v_proj_weight", "in_proj_bias", "out_proj.weight",
        "out_proj.bias"],
    5: ["q_proj_weight", "k_proj_weight", "v_proj_weight", "in_proj_bias", "bias_k", "bias_v",
        "out_proj.weight", "out_proj.bias"],
    6: ["in_proj_weight", "bias_k", "bias_v", "out_proj.weight"],
}


def _masks(rng: np.random.Generator) -> dict:
    """Forward-argument sets; key 0 is never masked, so no row is fully masked (PyTorch: NaN)."""
    blocked2 = rng.random((L, S)) > 0.5
    blocked2[:, 0] = False
    blocked3 = rng.random((N * H, L, S)) > 0.5
    blocked3[..., 0] = False
    kpm = np.array([[False, True, False, True], [False, False, False, True]])
    causal = ~np.tri(L, S, dtype=bool)
    return {
        "none": {},
        "bool2d": {"attn_mask": blocked2},
        "float2d": {"attn_mask": rng.standard_normal((L, S))},
        "bool3d": {"attn_mask": blocked3},
        "float3d": {"attn_mask": np.where(blocked3, -np.inf, rng.standard_normal(blocked3.shape))},
        "kpm_bool": {"key_padding_mask": kpm},
        "kpm_float": {"key_padding_mask": np.where(kpm, -1e9, 0.5)},
        "both": {"attn_mask": blocked2, "key_padding_mask": kpm},
        "both_float": {"attn_mask": rng.standard_normal((L, S)),
                       "key_padding_mask": np.where(kpm, -np.inf, 0.0)},
        "heads": {"average_attn_weights": False, "key_padding_mask": kpm},
        "no_weights": {"need_weights": False, "attn_mask": blocked3},
        "causal": {"attn_mask": causal, "is_causal": True, "need_weights": False},
        "causal_kpm": {"attn_mask": causal, "is_causal": True, "key_padding_mask": kpm},
    }


def _inputs(rng, kw, batched, batch_first, dtype):
    kd, vd = kw.get("kdim", E), kw.get("vdim", E)

    def shape(t, d):
        if not batched:
            return (t, d)
        return (N, t, d) if batch_first else (t, N, d)
    return [rng.standard_normal(shape(t, d)).astype(dtype) for t, d in ((L, E), (S, kd), (S, vd))]


def _unbatch(fkw: dict) -> dict:
    """Masks for an unbatched call: key_padding_mask (S,), a 3-D attn_mask (H, L, S)."""
    out = dict(fkw)
    if "key_padding_mask" in out:
        out["key_padding_mask"] = out["key_padding_mask"][0]
    if "attn_mask" in out and np.ndim(out["attn_mask"]) == 3:
        out["attn_mask"] = out["attn_mask"][:H]
    return out


@pytest.mark.parametrize("config", range(len(CONFIGS)))
@pytest.mark.parametrize("layout", ["seq_first", "batch_first", "unbatched"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("train", [False, True])
def test_values_weights_and_gradients_match_torch(config, layout, dtype, train):
    torch = pytest.importorskip("torch")
    kw = CONFIGS[config]
    batch_first, batched = layout == "batch_first", layout != "unbatched"
    torch.manual_seed(config)
    theirs = torch.nn.MultiheadAttention(E, H, batch_first=batch_first, **kw)
    theirs.to(torch.float64 if dtype == np.float64 else torch.float32).train(train)
    mine = nn.MultiheadAttention(E, H, batch_first=batch_first, **kw).to(dtype).train(train)
    assert list(mine.state_dict()) == list(theirs.state_dict()) == KEYS[config]
    mine.load_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()}, strict=True)
    rng = np.random.default_rng(config)
    tol = {"rtol": 1e-4, "atol": 1e-5} if dtype == np.float32 else {"rtol": 1e-10, "atol": 1e-12}
    for name, fkw in _masks(rng).items():
        fkw = fkw if batched else _unbatch(fkw)
        fkw = {k: v.astype(dtype) if isinstance(v, np.ndarray) and v.dtype.kind == "f" else v
               for k, v in fkw.items()}
        arrays = _inputs(rng, kw, batched, batch_first, dtype)
        (_, m_w), (_, t_w) = compare_with_torch(theirs, mine, arrays, fkw, tol, rng, name)
        assert (m_w is None) == (t_w is None), name
        if t_w is not None:
            assert m_w.shape == tuple(t_w.shape)
            np.testing.assert_allclose(m_w.numpy(), t_w.detach().numpy(), **tol, err_msg=name)


def test_init_matches_pytorchs_distributions():
    torch = pytest.importorskip("torch")
    mg.manual_seed(3)  # seeded: a 64-sample std of two independent draws varies by ~12%
    torch.manual_seed(0)
    mine = nn.MultiheadAttention(64, 4, add_bias_kv=True, kdim=32, vdim=48)
    theirs = torch.nn.MultiheadAttention(64, 4, add_bias_kv=True, kdim=32, vdim=48)
    for name, p in theirs.named_parameters():
        a, b = dict(mine.named_parameters())[name].numpy(), p.detach().numpy()
        assert a.dtype == np.float32 and a.shape == b.shape
        if not b.any():  # zero-initialised biases
            assert not a.any(), name
        else:
            np.testing.assert_allclose(a.std(), b.std(), rtol=0.25, err_msg=name)
            np.testing.assert_allclose(np.abs(a).max(), np.abs(b).max(), rtol=0.35, err_msg=name)


def test_pytorch_2_13_module_gives_nan_for_fully_masked_rows_minigrad_zeros():
    """The documented difference, pinned on both sides."""
    torch = pytest.importorskip("torch")
    theirs = torch.nn.MultiheadAttention(E, H, batch_first=True)
    mine = nn.MultiheadAttention(E, H, batch_first=True)
    mine.load_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()})
    x = np.random.default_rng(0).standard_normal((1, L, E)).astype(np.float32)
    mask = np.zeros((L, L), bool)
    mask[0] = True
    t_out, t_w = theirs(*[torch.tensor(x)] * 3, attn_mask=torch.tensor(mask))
    assert torch.isnan(t_out[0, 0]).all() and torch.isnan(t_w[0, 0]).all()
    m_out, m_w = mine(*[mg.Tensor(x)] * 3, attn_mask=mask)
    np.testing.assert_allclose(m_out.numpy()[0, 0], mine.out_proj.bias.numpy())
    assert not m_w.numpy()[0, 0].any()
    np.testing.assert_allclose(m_out.numpy()[0, 1:], t_out.detach().numpy()[0, 1:], rtol=1e-5,
                               atol=1e-6)


# ---- without torch ---------------------------------------------------------------------

@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_state_dict_keys_and_shapes_are_pytorchs(config):
    kw = CONFIGS[config]
    m = nn.MultiheadAttention(E, H, **kw)
    assert list(m.state_dict()) == KEYS[config]
    kd, vd = kw.get("kdim", E), kw.get("vdim", E)
    shapes = {"in_proj_weight": (3 * E, E), "in_proj_bias": (3 * E,), "q_proj_weight": (E, E),
              "k_proj_weight": (E, kd), "v_proj_weight": (E, vd), "bias_k": (1, 1, E),
              "bias_v": (1, 1, E), "out_proj.weight": (E, E), "out_proj.bias": (E,)}
    for k, v in m.state_dict().items():
        assert v.shape == shapes[k] and v.dtype == np.float32
    assert not m.state_dict().get("in_proj_bias", mg.zeros(1)).numpy().any()
    assert not m.state_dict().get("out_proj.bias", mg.zeros(1)).numpy().any()


@pytest.mark.parametrize("layout", ["seq_first", "batch_first", "unbatched"])
@pytest.mark.parametrize("average", [True, False])
def test_output_and_weight_shapes(layout, average):
    m = nn.MultiheadAttention(E, H, kdim=5, vdim=6, add_bias_kv=True, add_zero_attn=True,
                              batch_first=layout == "batch_first")
    rng = np.random.default_rng(0)
    q, k, v = (mg.Tensor(a) for a in _inputs(rng, {"kdim": 5, "vdim": 6},
                                             layout != "unbatched", layout == "batch_first",
                                             np.float32))
    out, w = m(q, k, v, average_attn_weights=average)
    assert out.shape == q.shape
    s = S + 2  # bias_k and the zero-attention slot
    want = {("seq_first", True): (N, L, s), ("batch_first", True): (N, L, s),
            ("unbatched", True): (L, s), ("seq_first", False): (N, H, L, s),
            ("batch_first", False): (N, H, L, s), ("unbatched", False): (H, L, s)}
    assert w.shape == want[(layout, average)]
    np.testing.assert_allclose(w.numpy().sum(-1), 1.0, rtol=1e-5)
    assert m(q, k, v, need_weights=False)[1] is None


def _module_and_inputs(seed=0, dtype=np.float64, **kw):
    m = nn.MultiheadAttention(E, H, batch_first=True, **kw).to(dtype)
    rng = np.random.default_rng(seed)
    q, k, v = (mg.Tensor(rng.standard_normal((N, t, E)).astype(dtype)) for t in (L, S, S))
    return m, q, k, v


def test_bool_masks_mean_true_is_blocked_and_equal_minus_inf_floats():
    m, q, k, v = _module_and_inputs()
    blocked = np.array([[False, True, True, False]] * L)
    kpm = np.array([[False, False, True, False], [False, True, False, False]])
    for kw_b, kw_f in [({"attn_mask": blocked}, {"attn_mask": np.where(blocked, -np.inf, 0.)}),
                       ({"key_padding_mask": kpm},
                        {"key_padding_mask": np.where(kpm, -np.inf, 0.)})]:
        a, wa = m(q, k, v, **kw_b)
        b, wb = m(q, k, v, **kw_f)
        np.testing.assert_array_equal(a.numpy(), b.numpy())
        np.testing.assert_array_equal(wa.numpy(), wb.numpy())
    # a blocked key's value never reaches the output
    _, w = m(q, k, v, attn_mask=blocked, key_padding_mask=kpm)
    both = blocked[None] | kpm[:, None, :]
    assert not w.numpy()[both].any() and (w.numpy()[~both] > 0).all()
    v2 = v.numpy().copy()
    v2[:, 1:3] += 100.0
    a = m(q, k, v, attn_mask=blocked)[0].numpy()
    b = m(q, k, mg.Tensor(v2), attn_mask=blocked)[0].numpy()
    np.testing.assert_allclose(a, b)


def test_3d_mask_is_per_batch_and_head_in_pytorchs_order():
    m, q, k, v = _module_and_inputs()
    mask = np.zeros((N * H, L, S), bool)
    mask[1 * H + 1, :, 2] = True  # batch 1, head 1 may not see key 2
    _, w = m(q, k, v, attn_mask=mask, average_attn_weights=False)
    w = w.numpy()
    assert not w[1, 1, :, 2].any()
    assert (np.delete(w.reshape(N * H, L, S), 1 * H + 1, axis=0)[..., 2] > 0).all()


def test_float_masks_add_to_the_scores():
    m, q, k, v = _module_and_inputs()
    bias = np.random.default_rng(1).standard_normal((L, S))
    _, w0 = m(q, k, v, average_attn_weights=False)
    _, w1 = m(q, k, v, attn_mask=bias, average_attn_weights=False)
    expect = w0.numpy() * np.exp(bias)
    np.testing.assert_allclose(w1.numpy(), expect / expect.sum(-1, keepdims=True), rtol=1e-10)


@pytest.mark.parametrize("kw", [{}, {"add_bias_kv": True}, {"add_zero_attn": True}])
@pytest.mark.parametrize("need_weights", [True, False])
def test_fully_masked_rows_give_zeros_not_nan(kw, need_weights):
    m, q, k, v = _module_and_inputs(**kw)
    for p in m.parameters():
        p.requires_grad = True
    q = mg.Tensor(q.numpy(), requires_grad=True)
    mask = np.zeros((L, S), bool)
    mask[0] = True
    kpm = np.array([[True] * S, [False] * S])
    out, w = m(q, k, v, attn_mask=mask, key_padding_mask=kpm, need_weights=need_weights)
    o = out.numpy()
    extra = "add_bias_kv" in kw or "add_zero_attn" in kw  # the appended slot is never masked
    assert np.isfinite(o).all()
    if not extra:
        np.testing.assert_allclose(o[0], np.broadcast_to(m.out_proj.bias.numpy(), (L, E)))
        np.testing.assert_allclose(o[1, 0], m.out_proj.bias.numpy())
        if need_weights:
            assert not w.numpy()[0].any() and not w.numpy()[1, 0].any()
    out.sum().backward()
    assert np.isfinite(q.grad).all()
    assert all(np.isfinite(p.grad).all() for p in m.parameters() if p.grad is not None)


def test_is_causal_hint_needs_a_mask_and_uses_the_causal_mask():
    m, q, _, _ = _module_and_inputs()
    with pytest.raises(RuntimeError, match="Need attn_mask"):
        m(q, q, q, is_causal=True)
    causal = ~np.tri(L, L, dtype=bool)
    a = m(q, q, q, attn_mask=causal, need_weights=False)[0].numpy()
    # as PyTorch: with need_weights=False and no key_padding_mask the hint replaces the mask
    b = m(q, q, q, attn_mask=np.zeros((L, L)), is_causal=True, need_weights=False)[0].numpy()
    np.testing.assert_allclose(a, b)


def test_dropout_drops_weights_in_training_only():
    m, q, k, v = _module_and_inputs(dropout=0.5)
    m.eval()
    a, wa = m(q, k, v, average_attn_weights=False)
    b, wb = m(q, k, v, average_attn_weights=False)
    np.testing.assert_array_equal(wa.numpy(), wb.numpy())
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    m.train()
    mg.manual_seed(0)
    _, wc = m(q, k, v, average_attn_weights=False)
    dropped = wc.numpy() == 0
    assert dropped.any() and (~dropped).any()
    np.testing.assert_allclose(wc.numpy()[~dropped], 2 * wa.numpy()[~dropped], rtol=1e-10)
    # the returned weights are the ones the values were averaged with
    m.out_proj.weight.data[...] = np.eye(E)
    m.out_proj.bias.data[...] = 0
    mg.manual_seed(1)
    out, w = m(q, k, v, average_attn_weights=False)
    e, hd = m.embed_dim, m.head_dim
    vp = v.numpy() @ m.in_proj_weight.numpy()[2 * e:].T + m.in_proj_bias.numpy()[2 * e:]
    vp = vp.reshape(N, S, H, hd).transpose(0, 2, 1, 3)
    expect = (w.numpy() @ vp).transpose(0, 2, 1, 3).reshape(N, L, E)
    np.testing.assert_allclose(out.numpy(), expect, rtol=1e-10)


@pytest.mark.parametrize("kw", [{}, {"add_bias_kv": True, "add_zero_attn": True,
                                     "kdim": 3, "vdim": 5}, {"bias": False}])
def test_gradcheck_inputs_and_parameters(kw):
    m = nn.MultiheadAttention(4, 2, **kw).double()
    rng = np.random.default_rng(0)
    kd, vd = kw.get("kdim", 4), kw.get("vdim", 4)
    q, k, v = (mg.Tensor(rng.standard_normal(s), requires_grad=True)
               for s in ((2, 2, 4), (3, 2, kd), (3, 2, vd)))
    kpm = np.array([[False, False, True], [False, False, False]])
    mask = np.array([[0.0, -1.0, 0.5]] * 2)
    params = list(m.parameters())

    def fn(q, k, v, *_):
        return m(q, k, v, key_padding_mask=kpm, attn_mask=mask)[0]
    assert mg.gradcheck(fn, [q, k, v, *params])


def test_errors_name_what_is_wrong():
    with pytest.raises(ValueError, match="divisible"):
        nn.MultiheadAttention(6, 4)
    with pytest.raises(ValueError, match="greater than 0"):
        nn.MultiheadAttention(0, 1)
    m, q, k, v = _module_and_inputs()
    with pytest.raises(ValueError, match="2D attn_mask"):
        m(q, k, v, attn_mask=np.zeros((L, L), bool))
    with pytest.raises(ValueError, match="3D attn_mask"):
        m(q, k, v, attn_mask=np.zeros((N, L, S), bool))
    with pytest.raises(ValueError, match="key_padding_mask shape"):
        m(q, k, v, key_padding_mask=np.zeros((N, L), bool))
    with pytest.raises(TypeError, match="bool and floating"):
        m(q, k, v, attn_mask=np.zeros((L, S), np.int64))
    with pytest.raises(ValueError, match="unbatched 2D or batched 3D"):
        m(q[0, 0], k[0, 0], v[0, 0])
    with pytest.raises(ValueError, match="embedding dimension"):
        m(q[..., :4], k, v)


def test_readable_module_and_pytorch_shaped_module_are_one_attention():
    """nn.MultiHeadAttention (mask True = blocked, batch first) with the same weights gives the
    same output as nn.MultiheadAttention."""
    lean = nn.MultiHeadAttention(E, H).double()
    full = nn.MultiheadAttention(E, H, batch_first=True).double()
    full.load_state_dict(lean.state_dict(), strict=True)
    rng = np.random.default_rng(0)
    x, mem = mg.Tensor(rng.standard_normal((N, L, E))), mg.Tensor(rng.standard_normal((N, S, E)))
    for (qq, kk), blocked in itertools.product([(x, x), (x, mem)], [False, True]):
        t_k = kk.shape[1]
        mask = (rng.random((L, t_k)) > 0.5) & (np.arange(t_k) > 0) if blocked else None
        a = lean(qq, kk, kk, mask=mask).numpy()
        b = full(qq, kk, kk, attn_mask=mask, need_weights=False)[0].numpy()
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("which", ["none", "kpm", "2d", "3d", "2d_kpm", "3d_kpm"])
def test_merge_masks_matches_torch(which):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    kpm = rng.standard_normal((N, L)) if "kpm" in which else None
    attn = {"2d": rng.standard_normal((L, L)), "3d": rng.standard_normal((N * H, L, L))}.get(
        which[:2])
    q = rng.standard_normal((N, L, E))
    theirs = torch.nn.MultiheadAttention(E, H, batch_first=True)
    t_mask, t_type = theirs.merge_masks(*(None if a is None else torch.tensor(a)
                                         for a in (attn, kpm)), torch.tensor(q))
    m_mask, m_type = nn.MultiheadAttention(E, H, batch_first=True).merge_masks(
        attn, kpm, mg.Tensor(q))
    assert m_type == t_type
    if t_mask is None:
        assert m_mask is None
    else:
        np.testing.assert_allclose(np.asarray(getattr(m_mask, "data", m_mask)), t_mask.numpy())

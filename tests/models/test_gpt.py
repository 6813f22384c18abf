"""Tests of models.GPT: gradients, causality, initialisation, generation, learning."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from param_gradcheck import check_param_grads

import minigrad
from minigrad import models
from minigrad.models.decoding import sample_next_token
from minigrad.models.gpt import GPTConfig

V, BLOCK = 11, 8


def make_gpt(seed: int = 0, **overrides) -> models.GPT:
    kw = {"vocab_size": V, "block_size": BLOCK, "n_layer": 2, "n_head": 2, "n_embd": 16}
    kw.update(overrides)
    minigrad.manual_seed(seed)
    return models.GPT(**kw)


def random_ids(shape, seed: int = 0, vocab: int = V) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, vocab, size=shape)


def to_float64(model) -> None:
    for p in model.parameters():
        p.data = p.data.astype(np.float64)


# ---- gradients ---------------------------------------------------------------------

@pytest.mark.parametrize("options", [
    {},
    {"pos_encoding": "sinusoidal", "activation": "relu", "tie_weights": False, "bias": False},
    {"activation": "gelu_tanh", "layer_norm_eps": 1e-3},  # GPT-2's settings (docs/weights.md)
])
def test_gradients_match_finite_differences(options):
    model = make_gpt(**options)
    to_float64(model)
    idx = random_ids((2, 6), seed=1)
    targets = random_ids((2, 6), seed=2)
    targets[0, 2] = targets[1, 5] = -100  # ignored positions
    n = check_param_grads(model, lambda: model(idx, targets)[1])
    assert n >= 3 * len(list(model.parameters())) - 3


def test_ignored_targets_do_not_change_the_loss():
    model = make_gpt()
    idx = random_ids((2, 6), seed=1)
    t1, t2 = random_ids((2, 6), seed=2), random_ids((2, 6), seed=3)
    t1[:, 3:] = -100
    t2[:, 3:] = -100
    t2[:, :3] = t1[:, :3]
    assert model(idx, t1)[1].item() == model(idx, t2)[1].item()


# ---- shapes, causality, errors ----------------------------------------------------------

_CAUSAL_MODEL = {}


def causal_model(pos: str) -> models.GPT:
    if pos not in _CAUSAL_MODEL:
        _CAUSAL_MODEL[pos] = make_gpt(pos_encoding=pos)
    return _CAUSAL_MODEL[pos]


@settings(max_examples=15, deadline=None)
@given(b=st.integers(1, 3), t=st.integers(2, BLOCK), data=st.data(),
       pos=st.sampled_from(["learned", "sinusoidal"]))
def test_future_tokens_do_not_change_earlier_logits(b, t, data, pos):
    model = causal_model(pos)
    cut = data.draw(st.integers(1, t - 1))
    seed = data.draw(st.integers(0, 10**6))
    idx = random_ids((b, t), seed)
    changed = idx.copy()
    changed[:, cut:] = (changed[:, cut:] + 1 + random_ids((b, t - cut), seed + 1, V - 1)) % V
    a, _ = model(idx)
    c, _ = model(changed)
    assert a.shape == (b, t, V)
    np.testing.assert_allclose(a.data[:, :cut], c.data[:, :cut], rtol=1e-5, atol=1e-6)
    # and the future positions do see their own (changed) tokens
    assert not np.allclose(a.data[:, cut:], c.data[:, cut:])


@pytest.mark.parametrize("pos", ["learned", "sinusoidal"])
def test_forward_follows_the_pre_layernorm_formulas(pos):
    model = make_gpt(pos_encoding=pos, seed=3)
    model.eval()
    idx = random_ids((2, 5), seed=4)
    table = model.wpe.weight.data if pos == "learned" else model.wpe.pe.data
    x = minigrad.tensor(model.wte.weight.data[idx] + table[:5])
    for block in model.blocks:
        x = x + block.attn(block.ln_1(x), is_causal=True)
        h = block.mlp.fc(block.ln_2(x))
        x = x + block.mlp.proj(h.gelu())
    expected = model.ln_f(x).data @ model.wte.weight.data.T  # the tied head
    np.testing.assert_allclose(model(idx)[0].data, expected, rtol=1e-5, atol=1e-6)


def test_too_long_input_raises_naming_both_lengths():
    model = make_gpt()
    with pytest.raises(ValueError, match=rf"{BLOCK + 1}.*block_size is {BLOCK}"):
        model(random_ids((1, BLOCK + 1)))


def test_bad_inputs_raise_clear_errors():
    model = make_gpt()
    with pytest.raises(IndexError, match="11"):
        model(np.array([[1, 2, V]]))
    with pytest.raises(IndexError, match="-1"):
        model(np.array([[1, -1]]))
    with pytest.raises(TypeError, match="integer"):
        model(np.array([[1.0, 2.0]]))
    with pytest.raises(ValueError, match="shape"):
        model(np.array([1, 2, 3]))
    with pytest.raises(ValueError, match="targets"):
        model(random_ids((2, 4)), random_ids((2, 3)))


def test_config_construction_and_validation():
    cfg = GPTConfig(vocab_size=V, block_size=BLOCK, n_layer=1, n_head=2, n_embd=8)
    minigrad.manual_seed(5)
    a = models.GPT(config=cfg)
    minigrad.manual_seed(5)
    b = models.GPT.from_config(cfg)
    minigrad.manual_seed(5)
    c = models.GPT(V, BLOCK, 1, 2, 8)
    for (ka, va), (kb, vb), (kc, vc) in zip(a.state_dict().items(), b.state_dict().items(),
                                            c.state_dict().items()):
        assert ka == kb == kc
        np.testing.assert_array_equal(va.data, vb.data)
        np.testing.assert_array_equal(va.data, vc.data)
    with pytest.raises(TypeError, match="either"):
        models.GPT(vocab_size=V, config=cfg)
    with pytest.raises(ValueError, match="divisible"):
        models.GPT(V, BLOCK, 1, 3, 8)
    with pytest.raises(ValueError, match="pos_encoding"):
        models.GPT(V, BLOCK, 1, 2, 8, pos_encoding="rotary")
    with pytest.raises(ValueError, match="activation"):
        models.GPT(V, BLOCK, 1, 2, 8, activation="tanh")
    with pytest.raises(ValueError, match="n_layer"):
        models.GPT(V, BLOCK, 0, 2, 8)


# ---- weights: tying, counting, initialisation, state dicts ----------------------------

def test_tied_head_is_the_embedding_parameter_and_counted_once():
    model = make_gpt()
    assert model.lm_head.weight is model.wte.weight
    params = list(model.parameters())
    assert sum(p is model.wte.weight for p in params) == 1
    c, L = 16, 2
    per_block = 4 * (c * c + c) + 2 * (c * 4 * c) + 4 * c + c + 2 * 2 * c  # attn, mlp, 2 LNs
    expected = V * c + BLOCK * c + L * per_block + 2 * c
    assert model.num_parameters(non_embedding=False) == expected
    assert model.num_parameters() == expected - BLOCK * c  # positions left out

    untied = make_gpt(tie_weights=False)
    assert untied.lm_head.weight is not untied.wte.weight
    assert untied.num_parameters(non_embedding=False) == expected + V * c
    # the tied gradient collects both uses (embedding lookup and output head)
    _, loss = model(random_ids((2, 5)), random_ids((2, 5), 1))
    loss.backward()
    assert np.abs(model.wte.weight.grad).sum() > 0


def test_nanogpt_initialisation_statistics():
    n_layer, c = 4, 128
    model = make_gpt(vocab_size=256, block_size=64, n_layer=n_layer, n_head=4, n_embd=c)
    resid = 0.02 / math.sqrt(2 * n_layer)
    for w in (model.wte.weight, model.wpe.weight, model.blocks[0].attn.in_proj_weight,
              model.blocks[1].mlp.fc.weight):
        assert abs(w.data.std() - 0.02) < 0.02 * 0.05
        assert abs(w.data.mean()) < 0.002
    for block in model.blocks:
        for w in (block.attn.out_proj.weight, block.mlp.proj.weight):
            assert abs(w.data.std() - resid) < resid * 0.05
        for bias in (block.attn.in_proj_bias, block.attn.out_proj.bias, block.mlp.fc.bias,
                     block.mlp.proj.bias):
            assert not bias.data.any()
        np.testing.assert_array_equal(block.ln_1.weight.data, 1.0)
        np.testing.assert_array_equal(block.ln_2.bias.data, 0.0)


def test_seeded_construction_is_deterministic_and_state_dict_round_trips():
    a, b, other = make_gpt(seed=3), make_gpt(seed=3), make_gpt(seed=4)
    idx = random_ids((2, 7))
    np.testing.assert_array_equal(a(idx)[0].data, b(idx)[0].data)
    assert not np.allclose(a(idx)[0].data, other(idx)[0].data)
    state = {k: v.data.copy() for k, v in a.state_dict().items()}
    assert "wte.weight" in state and "lm_head.weight" in state  # tied: both names loadable
    other.load_state_dict(state)
    np.testing.assert_array_equal(a(idx)[0].data, other(idx)[0].data)
    assert other.lm_head.weight is other.wte.weight


def test_configure_optimizers_splits_decay_and_no_decay():
    model = make_gpt()
    opt = model.configure_optimizers(weight_decay=0.1, learning_rate=1e-3, betas=(0.9, 0.95))
    assert isinstance(opt, minigrad.optim.AdamW)
    decay, no_decay = opt.param_groups
    assert decay["weight_decay"] == 0.1 and no_decay["weight_decay"] == 0.0
    assert all(p.ndim == 2 for p in decay["params"])
    assert all(p.ndim == 1 for p in no_decay["params"])
    ids = {id(p) for p in decay["params"]} | {id(p) for p in no_decay["params"]}
    assert ids == {id(p) for p in model.parameters()}
    assert len(decay["params"]) + len(no_decay["params"]) == len(ids)
    assert decay["lr"] == 1e-3 and tuple(decay["betas"]) == (0.9, 0.95)


def test_flops_estimate_is_nanogpt_formula():
    model = make_gpt()
    n = model.num_parameters()
    assert model.estimate_flops_per_token() == 6 * n + 12 * 2 * 2 * 8 * BLOCK
    assert model.estimate_flops_per_token(seq_len=4) == 6 * n + 12 * 2 * 2 * 8 * 4


def test_dropout_is_active_in_training_only():
    model = make_gpt(dropout=0.5)
    idx = random_ids((2, 6))
    minigrad.manual_seed(1)
    a = model(idx)[0].data
    minigrad.manual_seed(2)
    b = model(idx)[0].data
    assert not np.allclose(a, b)
    model.eval()
    np.testing.assert_array_equal(model(idx)[0].data, model(idx)[0].data)


# ---- generation ------------------------------------------------------------------------------

def test_generate_shapes_prefix_and_seeded_determinism():
    model = make_gpt()
    prompt = random_ids((3, 4))
    minigrad.manual_seed(7)
    out = model.generate(prompt, 6).data
    assert out.shape == (3, 10) and out.dtype == np.int64
    np.testing.assert_array_equal(out[:, :4], prompt)
    assert out.min() >= 0 and out.max() < V
    minigrad.manual_seed(7)
    np.testing.assert_array_equal(model.generate(prompt, 6).data, out)
    minigrad.manual_seed(8)
    assert not np.array_equal(model.generate(prompt, 6).data, out)
    assert model.generate(prompt, 0).data.shape == (3, 4)


@pytest.mark.parametrize("options,temperature,top_k", [
    ({}, 1.0, None),
    ({}, 0.7, 3),
    ({"pos_encoding": "sinusoidal", "tie_weights": False}, 1.3, None),
    ({"n_layer": 3, "n_head": 4, "dropout": 0.1}, 1.0, 5),
])
def test_cached_and_uncached_generation_agree_past_block_size(options, temperature, top_k):
    model = make_gpt(**options)
    prompt = random_ids((2, 3), seed=4)
    runs = []
    for use_cache in (True, False):
        minigrad.manual_seed(11)
        runs.append(model.generate(prompt, 3 * BLOCK, temperature=temperature, top_k=top_k,
                                   use_cache=use_cache).data)
    np.testing.assert_array_equal(runs[0], runs[1])
    # a prompt already longer than the block is cropped, not rejected
    long_prompt = random_ids((1, BLOCK + 3), seed=5)
    assert model.generate(long_prompt, 2).shape == (1, BLOCK + 5)


def test_kv_cache_costs_one_position_per_new_token():
    model = make_gpt()
    prompt = random_ids((2, 3), seed=4)
    seen = []
    original = model._forward_cached

    def spy(ids, cache):
        seen.append(ids.shape)
        return original(ids, cache)

    model._forward_cached = spy
    model.generate(prompt, 4)
    assert seen == [(2, 3), (2, 1), (2, 1), (2, 1)]


def greedy_reference(model, prompt, steps):
    ids = prompt
    for _ in range(steps):
        logits, _ = model(ids[:, -BLOCK:])
        ids = np.concatenate([ids, logits.data[:, -1].argmax(-1)[:, None]], axis=1)
    return ids


def test_top_k_one_and_tiny_temperature_are_greedy():
    model = make_gpt(seed=2)
    model.eval()
    prompt = random_ids((2, 2), seed=9)
    expected = greedy_reference(model, prompt, 12)
    np.testing.assert_array_equal(model.generate(prompt, 12, top_k=1).data, expected)
    np.testing.assert_array_equal(model.generate(prompt, 12, temperature=1e-9).data, expected)


def test_generate_restores_mode_and_records_no_graph():
    model = make_gpt(dropout=0.2)
    assert model.training
    out = model.generate(random_ids((1, 2)), 3)
    assert model.training and out._ctx is None
    assert all(p.grad is None for p in model.parameters())
    model.eval()
    model.generate(random_ids((1, 2)), 3)
    assert not model.training


def test_generate_validates_options_before_sampling():
    model = make_gpt()
    prompt = random_ids((1, 2))
    state = minigrad.get_rng_state()
    for kwargs in ({"temperature": 0.0}, {"temperature": -1.0}, {"top_k": 0},
                   {"top_k": 2.5}):
        with pytest.raises(ValueError):
            model.generate(prompt, 3, **kwargs)
    with pytest.raises(ValueError, match="max_new_tokens"):
        model.generate(prompt, -1)
    np.testing.assert_array_equal(minigrad.get_rng_state(), state)
    assert model.training
    # top_k above the vocabulary means "no restriction"
    minigrad.manual_seed(0)
    a = model.generate(prompt, 5, top_k=100).data
    minigrad.manual_seed(0)
    np.testing.assert_array_equal(a, model.generate(prompt, 5).data)


def test_sample_next_token_follows_softmax_and_respects_top_k():
    logits = np.log(np.array([[0.1, 0.2, 0.3, 0.4]] * 20000))
    rng = np.random.default_rng(0)
    counts = np.bincount(sample_next_token(logits, 1.0, None, rng), minlength=4) / 20000
    np.testing.assert_allclose(counts, [0.1, 0.2, 0.3, 0.4], atol=0.015)
    top2 = np.bincount(sample_next_token(logits, 1.0, 2, rng), minlength=4) / 20000
    assert top2[:2].sum() == 0
    np.testing.assert_allclose(top2[2:], [3 / 7, 4 / 7], atol=0.015)
    hot = np.bincount(sample_next_token(logits, 2.0, None, rng), minlength=4) / 20000
    p = np.sqrt([0.1, 0.2, 0.3, 0.4])
    np.testing.assert_allclose(hot, p / p.sum(), atol=0.015)


def _whole_row_top_k(logits, temperature, top_k, rng):
    # sample_next_token's draw as first written: cut logits set to -inf, exp over the row
    from minigrad.sampling import draw_rows

    z = np.asarray(logits, dtype=np.float64)
    kth = np.partition(z, -top_k, axis=-1)[:, -top_k][:, None]
    z = np.where(z < kth, -np.inf, z)
    z = (z - z.max(axis=-1, keepdims=True)) / temperature
    return draw_rows(np.exp(z), rng)


@settings(max_examples=60, deadline=None)
@given(rows=st.integers(1, 4), vocab=st.integers(2, 40), top_k=st.integers(1, 41),
       temperature=st.sampled_from([1e-9, 0.3, 1.0, 7.0]), levels=st.integers(1, 6),
       seed=st.integers(0, 2**32 - 1), neg_inf=st.booleans(), dtype=st.sampled_from(
           [np.float32, np.float64]))
def test_top_k_draw_on_the_kept_logits_equals_the_whole_row_draw(rows, vocab, top_k, temperature,
                                                                 levels, seed, neg_inf, dtype):
    # few distinct levels: many ties at the k-th largest; -inf logits; each row its own uniform
    data = np.random.default_rng(seed)
    logits = data.integers(0, levels, (rows, vocab)).astype(dtype) * dtype(0.37)
    if neg_inf:
        logits[:, ::3] = -np.inf
        logits[:, 1] = 0.5  # every row keeps a finite logit
    if top_k >= vocab:
        return  # no cut: the whole-row path itself
    got = sample_next_token(logits, temperature, top_k, np.random.default_rng(seed))
    want = _whole_row_top_k(logits, temperature, top_k, np.random.default_rng(seed))
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, want)


def test_top_k_draw_keeps_the_guard_for_a_uniform_at_the_total_mass():
    class Edge:  # a generator whose uniform times the total mass rounds up to the total
        def random(self, shape):
            return np.full(shape, 1.0)

    logits = np.array([[0.0, 5.0, 1.0, -2.0, 4.0]])
    for top_k in (1, 2, 3):
        got = sample_next_token(logits, 1.0, top_k, Edge())
        np.testing.assert_array_equal(got, _whole_row_top_k(logits, 1.0, top_k, Edge()))
        assert got[0] == 4  # the last id, as the whole-row draw gives


# ---- learning ----------------------------------------------------------------------------------

def test_tiny_gpt_overfits_a_fixed_batch():
    model = make_gpt(vocab_size=16, block_size=16, n_layer=2, n_head=2, n_embd=32, seed=1)
    data = random_ids((4, 17), seed=3, vocab=16)
    x, y = data[:, :-1], data[:, 1:]
    opt = model.configure_optimizers(weight_decay=0.0, learning_rate=1e-2, betas=(0.9, 0.99))
    first = None
    for _ in range(150):
        _, loss = model(x, y)
        first = loss.item() if first is None else first
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert first > 2.5  # about ln(16) = 2.77 at the start
    assert loss.item() < 0.05, loss.item()

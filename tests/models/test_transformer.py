"""Tests of models.Transformer: gradients, masks, initialisation, decoding, learning."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from param_gradcheck import check_param_grads

import minigrad
from minigrad import models
from minigrad.models.decoding import length_penalty
from minigrad.models.transformer import TransformerConfig
from minigrad.nn import functional as F

PAD, BOS, EOS = 0, 1, 2
V = 13  # PAD, BOS, EOS and the ten "digits" 3..12


def make_model(seed: int = 0, **overrides) -> models.Transformer:
    kw = {"src_vocab_size": V, "tgt_vocab_size": V, "d_model": 16, "num_heads": 2,
          "num_encoder_layers": 2, "num_decoder_layers": 2, "d_ff": 32, "max_len": 16}
    kw.update(overrides)
    minigrad.manual_seed(seed)
    return models.Transformer(**kw)


def digits(shape, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(3, V, size=shape)


# ---- gradients ----------------------------------------------------------------------------

@pytest.mark.parametrize("options", [
    {},
    {"norm_first": True, "share_tgt_embeddings": True, "pad_id": PAD},
])
def test_gradients_match_finite_differences(options):
    model = make_model(d_model=8, d_ff=16, num_encoder_layers=1, num_decoder_layers=2,
                       **options)
    for p in model.parameters():
        p.data = p.data.astype(np.float64)
    src = digits((2, 5), seed=1)
    src[0, 3:] = PAD
    tgt_in = np.concatenate([np.full((2, 1), BOS), digits((2, 3), seed=2)], axis=1)
    targets = digits((2, 4), seed=3)
    targets[1, 3] = -100

    def loss():
        logits = model(src, tgt_in)
        return F.cross_entropy(logits.reshape(-1, V), targets.reshape(-1))

    n = check_param_grads(model, loss)
    assert n >= 3 * len(list(model.parameters())) - 3


# ---- masks: padding, causality, cross-attention ----------------------------------------------

_MODELS = {}


def shared_model(norm_first: bool) -> models.Transformer:
    if norm_first not in _MODELS:
        _MODELS[norm_first] = make_model(seed=1, pad_id=PAD, norm_first=norm_first)
    return _MODELS[norm_first]


@settings(max_examples=12, deadline=None)
@given(norm_first=st.booleans(), length=st.integers(1, 5), extra=st.integers(1, 4),
       seed=st.integers(0, 10**6))
def test_padding_does_not_change_the_output(norm_first, length, extra, seed):
    model = shared_model(norm_first)
    real = digits((1, length), seed)
    tgt_in = np.concatenate([[[BOS]], digits((1, 3), seed + 1)], axis=1)
    short = np.concatenate([real, np.full((1, 1), PAD)], axis=1)
    long = np.concatenate([real, np.full((1, 1 + extra), PAD)], axis=1)
    a, b = model(short, tgt_in), model(long, tgt_in)
    np.testing.assert_allclose(a.data, b.data, rtol=1e-5, atol=1e-5)
    # without pad_id, an explicit key mask hides whatever tokens sit in the padding
    plain = _MODELS.setdefault(("plain", norm_first), make_model(seed=2, norm_first=norm_first))
    noise = long.copy()
    noise[:, length:] = digits((1, 1 + extra), seed + 2)
    mask = (long == PAD)[:, None, None, :]
    np.testing.assert_allclose(plain(long, tgt_in, src_mask=mask).data,
                               plain(noise, tgt_in, src_mask=mask).data, rtol=1e-5, atol=1e-5)


def test_rows_of_a_padded_batch_match_their_unpadded_selves():
    model = shared_model(False)
    rows = [digits((1, n), seed=n) for n in (2, 5, 3)]
    src = np.full((3, 5), PAD)
    for i, r in enumerate(rows):
        src[i, :r.shape[1]] = r
    tgt_in = np.concatenate([np.full((3, 1), BOS), digits((3, 4), 9)], axis=1)
    batched = model(src, tgt_in).data
    for i, r in enumerate(rows):
        np.testing.assert_allclose(batched[i], model(r, tgt_in[i:i + 1]).data[0],
                                   rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("norm_first", [False, True])
def test_decoder_is_causal_and_reads_the_source(norm_first):
    model = shared_model(norm_first)
    src = digits((2, 6), 1)
    tgt_in = np.concatenate([np.full((2, 1), BOS), digits((2, 5), 2)], axis=1)
    base = model(src, tgt_in).data
    for cut in (1, 3, 5):
        changed = tgt_in.copy()
        changed[:, cut:] = 3 + (changed[:, cut:] - 3 + 1) % 10
        out = model(src, changed).data
        np.testing.assert_allclose(out[:, :cut], base[:, :cut], rtol=1e-5, atol=1e-6)
        assert not np.allclose(out[:, cut:], base[:, cut:])
    # an extra (all False) tgt_mask keeps the causal mask
    free = np.zeros((6, 6), dtype=bool)
    np.testing.assert_allclose(model(src, tgt_in, tgt_mask=free).data, base, rtol=1e-6)
    # cross-attention is used: every target position changes with the source
    other = src.copy()
    other[:, 2] = 3 + (other[:, 2] - 3 + 1) % 10
    diff = np.abs(model(other, tgt_in).data - base).max(axis=-1)
    assert (diff > 1e-4).all()


@pytest.mark.parametrize("norm_first", [False, True])
def test_layers_follow_the_post_or_pre_layernorm_formulas(norm_first):
    model = make_model(seed=5, num_encoder_layers=1, num_decoder_layers=1, norm_first=norm_first)
    model.eval()
    src, tgt = digits((2, 5), 1), digits((2, 4), 2)
    enc, dec = model.encoder_layers[0], model.decoder_layers[0]
    d = 16
    # embeddings: table row * sqrt(d_model) + the sinusoidal position
    x = model.src_embed.weight.data[src] * math.sqrt(d) + model.pos.pe.data[:5]
    np.testing.assert_allclose(model._embed(model.src_embed, src).data, x, rtol=1e-6)
    x = minigrad.tensor(x)
    y = minigrad.tensor(model.tgt_embed.weight.data[tgt] * math.sqrt(d) + model.pos.pe.data[:4])
    causal = minigrad.causal_mask(4)

    def sub(h, f, norm):  # one residual sub-layer
        return h + f(norm(h)) if norm_first else norm(h + f(h))

    x = sub(x, enc.self_attn, enc.norm1)
    x = sub(x, enc.ff, enc.norm2)
    memory = model.encoder_norm(x) if norm_first else x
    y = sub(y, lambda h: dec.self_attn(h, mask=causal), dec.norm1)
    y = sub(y, lambda h: dec.cross_attn(h, memory, memory), dec.norm2)
    y = sub(y, dec.ff, dec.norm3)
    if norm_first:
        y = model.decoder_norm(y)
    np.testing.assert_allclose(model.encode(src).data, memory.data, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(model(src, tgt).data, model.output_proj(y).data,
                               rtol=1e-5, atol=1e-6)
    assert (model.encoder_norm is None) == (not norm_first)


def test_encode_then_decode_equals_forward():
    model = shared_model(False)
    src = digits((2, 6), 3)
    src[1, 4:] = PAD
    tgt_in = np.concatenate([np.full((2, 1), BOS), digits((2, 3), 4)], axis=1)
    memory = model.encode(src)
    assert memory.shape == (2, 6, 16)
    mask = (src == PAD)[:, None, None, :]
    np.testing.assert_allclose(model.decode(tgt_in, memory, src_mask=mask).data,
                               model(src, tgt_in).data, rtol=1e-6, atol=1e-6)
    # without the mask the decoder sees the padded memory positions
    assert not np.allclose(model.decode(tgt_in, memory).data, model(src, tgt_in).data)


def test_bad_inputs_raise_clear_errors():
    model = make_model()
    src, tgt = digits((2, 4)), digits((2, 3))
    with pytest.raises(ValueError, match="batch"):
        model(src, tgt[:1])
    with pytest.raises(ValueError, match="17.*max_len is 16"):
        model(digits((1, 17)), tgt[:1])
    with pytest.raises(IndexError, match="13"):
        model(src, np.array([[1, 13, 2], [1, 2, 3]]))
    with pytest.raises(TypeError, match="boolean"):
        model(src, tgt, src_mask=np.zeros((2, 1, 1, 4), dtype=np.int64))
    with pytest.raises(ValueError, match="broadcast"):
        model(src, tgt, src_mask=np.zeros((2, 1, 4, 4), dtype=bool))
    with pytest.raises(ValueError, match="tgt_mask"):
        model(src, tgt, tgt_mask=np.zeros((4, 4), dtype=bool))
    with pytest.raises(ValueError, match="memory"):
        model.decode(tgt, model.encode(src)[:1])
    with pytest.raises(ValueError, match="divisible"):
        make_model(num_heads=3)
    with pytest.raises(ValueError, match="pad_id"):
        make_model(pad_id=V)
    with pytest.raises(TypeError, match="either"):
        models.Transformer(d_model=8, config=make_model().config)
    with pytest.raises(ValueError, match="max_len"):
        model.greedy_decode(src, BOS, EOS, 17)
    with pytest.raises(ValueError, match="end_id"):
        model.greedy_decode(src, BOS, V, 5)
    with pytest.raises(ValueError, match="beam_size"):
        model.beam_search(src, BOS, EOS, 5, beam_size=0)
    with pytest.raises(ValueError, match="length_penalty"):
        model.beam_search(src, BOS, EOS, 5, length_penalty=-1.0)


# ---- weights ------------------------------------------------------------------------------------

def test_xavier_initialisation_and_zero_biases():
    model = make_model(d_model=64, d_ff=128, num_heads=4)
    for name, p in model.named_parameters():
        if p.ndim == 2:
            rows = p.shape[0] // 3 if name.endswith("in_proj_weight") else p.shape[0]  # q|k|v
            bound = math.sqrt(6.0 / (rows + p.shape[1]))
            assert np.abs(p.data).max() <= bound, name
            assert abs(p.data.std() - bound / math.sqrt(3)) < 0.1 * bound / math.sqrt(3), name
        elif name.endswith("bias"):
            assert not p.data.any(), name
        else:  # LayerNorm gains
            np.testing.assert_array_equal(p.data, 1.0)


def test_shared_target_embedding_and_parameter_counts():
    plain, shared = make_model(), make_model(share_tgt_embeddings=True)
    assert shared.output_proj.weight is shared.tgt_embed.weight
    assert plain.output_proj.weight is not plain.tgt_embed.weight
    assert plain.num_parameters() - shared.num_parameters() == V * 16
    assert plain.num_parameters(non_embedding=True) == plain.num_parameters() - 2 * V * 16
    assert shared.num_parameters(non_embedding=True) == shared.num_parameters() - V * 16
    d, ff = 16, 32
    attn, ffn, ln = 4 * (d * d + d), d * ff + ff + ff * d + d, 2 * d
    expected = 2 * V * d + 2 * (attn + ffn + 2 * ln) + 2 * (2 * attn + ffn + 3 * ln) + d * V + V
    assert plain.num_parameters() == expected
    n_enc, n_dec = 2 * (attn + ffn + 2 * ln), 2 * (2 * attn + ffn + 3 * ln) + d * V + V
    s, t = 10, 6
    flops = (6 * (n_enc * s + n_dec * t) + 12 * d * (2 * s * s + 2 * (t * t + t * s))) / t
    assert plain.estimate_flops_per_token(src_len=s, tgt_len=t) == pytest.approx(flops)


def test_state_dict_round_trip_and_config_construction():
    a = make_model(seed=3, pad_id=PAD, share_tgt_embeddings=True)
    cfg = TransformerConfig(V, V, 16, 2, 2, 2, 32, 16, pad_id=PAD, share_tgt_embeddings=True)
    minigrad.manual_seed(9)
    b = models.Transformer.from_config(cfg)
    src, tgt = digits((2, 5), 1), digits((2, 4), 2)
    assert not np.allclose(a(src, tgt).data, b(src, tgt).data)
    b.load_state_dict({k: v.data.copy() for k, v in a.state_dict().items()})
    np.testing.assert_array_equal(a(src, tgt).data, b(src, tgt).data)
    assert b.output_proj.weight is b.tgt_embed.weight


def test_dropout_only_in_training():
    model = make_model(dropout=0.3)
    src, tgt = digits((2, 5), 1), digits((2, 4), 2)
    minigrad.manual_seed(1)
    a = model(src, tgt).data
    minigrad.manual_seed(2)
    assert not np.allclose(a, model(src, tgt).data)
    model.eval()
    np.testing.assert_array_equal(model(src, tgt).data, model(src, tgt).data)


# ---- decoding --------------------------------------------------------------------------------

def greedy_reference(model, src_row, max_len):
    """One row, the plain loop: feed back the argmax of the full forward pass."""
    ys = np.array([[BOS]])
    while ys.shape[1] < max_len:
        nxt = model(src_row, ys).data[0, -1].argmax()
        ys = np.concatenate([ys, [[nxt]]], axis=1)
        if nxt == EOS:
            break
    return ys[0]


def peaky_model(seed: int) -> models.Transformer:
    """A random model whose outputs often pick EOS, so rows end at different steps."""
    model = make_model(seed=seed, pad_id=PAD)
    model.output_proj.bias.data[EOS] = 1.5
    return model


def test_greedy_decode_matches_the_reference_loop_and_pads_finished_rows():
    model = peaky_model(4)
    src = digits((6, 5), 5)
    src[2, 3:] = PAD
    out = model.greedy_decode(src, BOS, EOS, 9)
    assert out.dtype == np.int64 and out.shape[0] == 6 and out.shape[1] <= 9
    assert (out[:, 0] == BOS).all()
    lengths = []
    for i in range(6):
        ref = greedy_reference(model, src[i:i + 1, :5 if i != 2 else 3], 9)
        lengths.append(len(ref))
        np.testing.assert_array_equal(out[i, :len(ref)], ref)
        assert (out[i, len(ref):] == PAD).all()
    assert out.shape[1] == max(lengths)
    assert len(set(lengths)) > 1  # the test does exercise rows finishing early
    # without pad_id, finished rows are filled with the end token
    plain = make_model(seed=4)
    plain.output_proj.bias.data[EOS] = 1.5
    out = plain.greedy_decode(src[:, :2], BOS, EOS, 9)
    for row in out:
        ends = np.flatnonzero(row == EOS)
        if ends.size:
            assert (row[ends[0]:] == EOS).all()


def test_decoding_restores_training_mode():
    model = make_model(dropout=0.1)
    model.greedy_decode(digits((1, 3)), BOS, EOS, 4)
    model.beam_search(digits((1, 3)), BOS, EOS, 4, beam_size=2)
    assert model.training
    model.eval()
    model.greedy_decode(digits((1, 3)), BOS, EOS, 4)
    assert not model.training
    assert all(p.grad is None for p in model.parameters())


@pytest.mark.parametrize("seed", [4, 6])
def test_beam_size_one_is_greedy(seed):
    model = peaky_model(seed)
    src = digits((4, 5), seed)
    np.testing.assert_array_equal(model.beam_search(src, BOS, EOS, 8, beam_size=1),
                                  model.greedy_decode(src, BOS, EOS, 8))


def sequence_log_prob(model, src_row, seq):
    logp = model(src_row, seq[None, :-1]).data[0].astype(np.float64)
    logp = logp - logp.max(-1, keepdims=True)
    logp = logp - np.log(np.exp(logp).sum(-1, keepdims=True))
    return logp[np.arange(len(seq) - 1), seq[1:]].sum()


@pytest.mark.parametrize("alpha", [0.0, 0.6])
def test_beam_hypotheses_are_valid_scored_and_sorted(alpha):
    model = peaky_model(5)
    model.eval()
    src = digits((2, 4), 7)
    hyps = model.beam_search_hypotheses(src, BOS, EOS, 7, beam_size=3, length_penalty=alpha)
    best = model.beam_search(src, BOS, EOS, 7, beam_size=3, length_penalty=alpha)
    for row, row_hyps in enumerate(hyps):
        assert len(row_hyps) == 3
        scores = [score for _, score in row_hyps]
        assert scores == sorted(scores, reverse=True)
        for seq, score in row_hyps:
            assert seq[0] == BOS and len(seq) <= 7
            assert seq[-1] == EOS or len(seq) == 7
            assert EOS not in seq[1:-1]
            expected = sequence_log_prob(model, src[row:row + 1], seq)
            assert score == pytest.approx(expected / length_penalty(len(seq) - 1, alpha),
                                          rel=1e-4, abs=1e-5)
        seq = row_hyps[0][0]
        np.testing.assert_array_equal(best[row, :len(seq)], seq)
    assert length_penalty(5, 0.6) == pytest.approx((10 / 6) ** 0.6)


# ---- learning -----------------------------------------------------------------------------------

def reverse_batch(rng, n, lo=3, hi=6):
    """Source: lo..hi digits, padded; target: the digits reversed, then EOS."""
    src = np.full((n, hi), PAD)
    tgt_in = np.full((n, hi + 1), PAD)
    tgt_out = np.full((n, hi + 1), -100)
    for i, length in enumerate(rng.integers(lo, hi + 1, size=n)):
        s = rng.integers(3, V, size=length)
        src[i, :length] = s
        tgt_in[i, 0], tgt_in[i, 1:length + 1] = BOS, s[::-1]
        tgt_out[i, :length], tgt_out[i, length] = s[::-1], EOS
    return src, tgt_in, tgt_out


@pytest.fixture(scope="module")
def reverser():
    """A tiny Transformer trained for 250 steps to reverse digit strings (seconds)."""
    model = make_model(seed=1, d_model=32, num_heads=4, d_ff=64, pad_id=PAD)
    steps, lr = 250, 5e-3
    opt = minigrad.optim.Adam(model.parameters(), lr=lr, betas=(0.9, 0.98))
    rng = np.random.default_rng(1)
    for step in range(steps):
        for group in opt.param_groups:
            group["lr"] = minigrad.optim.cosine_lr(step, lr, 20, steps, lr / 10)
        src, tgt_in, tgt_out = reverse_batch(rng, 64)
        loss = F.cross_entropy(model(src, tgt_in).reshape(-1, V), tgt_out.reshape(-1))
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model


def exact_match(out, tgt_out):
    hits = 0
    for row, target in zip(out, tgt_out):
        target = target[target != -100]
        hits += np.array_equal(row[1:len(target) + 1], target)
    return hits / len(out)


def test_tiny_transformer_learns_to_reverse(reverser):
    src, _, tgt_out = reverse_batch(np.random.default_rng(123), 200)
    out = reverser.greedy_decode(src, BOS, EOS, 8)
    assert exact_match(out, tgt_out) >= 0.9


def test_beam_search_on_the_trained_model(reverser):
    src, _, tgt_out = reverse_batch(np.random.default_rng(7), 40)
    out = reverser.beam_search(src, BOS, EOS, 8, beam_size=3)
    assert exact_match(out, tgt_out) >= 0.9

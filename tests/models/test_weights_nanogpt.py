"""nanoGPT weights in and out: GPT.from_nanogpt / GPT.to_nanogpt against a nanoGPT-shaped
PyTorch model (tests/nanogpt_reference.py), ckpt.pt files, inferred configs, errors."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import minigrad
from minigrad import models

torch = pytest.importorskip("torch")
from nanogpt_reference import NanoGPT  # after importorskip: it imports torch

ARGS = {"n_layer": 2, "n_head": 4, "n_embd": 32, "block_size": 16, "vocab_size": 37,
        "bias": True, "dropout": 0.0}


def make_nanogpt(seed: int = 0, **overrides) -> NanoGPT:
    torch.manual_seed(seed)
    return NanoGPT(**{**ARGS, **overrides}).eval()


def ids(b: int = 2, t: int = 16, vocab: int = ARGS["vocab_size"], seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, vocab, size=(b, t))


def torch_logits(model: NanoGPT, idx: np.ndarray) -> np.ndarray:
    with torch.no_grad():
        return model(torch.from_numpy(idx)).numpy()


def minigrad_logits(model: models.GPT, idx: np.ndarray) -> np.ndarray:
    with minigrad.no_grad():
        return model(idx)[0].data


@pytest.mark.parametrize("bias", [True, False])
def test_from_nanogpt_state_dict_gives_equal_logits(bias):
    ref = make_nanogpt(bias=bias)
    gpt = models.GPT.from_nanogpt(ref.state_dict(), n_head=ARGS["n_head"])
    cfg = gpt.config
    assert (cfg.n_layer, cfg.n_embd, cfg.block_size, cfg.vocab_size, cfg.bias) == \
        (2, 32, 16, 37, bias)
    assert cfg.tie_weights and gpt.lm_head.weight is gpt.wte.weight
    x = ids()
    np.testing.assert_allclose(minigrad_logits(gpt, x), torch_logits(ref, x), atol=1e-5, rtol=0)


@pytest.mark.parametrize("bias", [True, False])
def test_to_nanogpt_loads_strictly_into_nanogpt_with_equal_logits(bias):
    minigrad.manual_seed(3)
    gpt = models.GPT(vocab_size=37, block_size=16, n_layer=2, n_head=4, n_embd=32, bias=bias)
    state = gpt.to_nanogpt()
    assert all(isinstance(v, np.ndarray) for v in state.values())
    assert state["transformer.h.0.attn.c_attn.weight"].shape == (96, 32)
    ref = make_nanogpt(seed=9, bias=bias)
    ref.load_state_dict({k: torch.from_numpy(v) for k, v in state.items()}, strict=True)
    x = ids(seed=1)
    np.testing.assert_allclose(torch_logits(ref, x), minigrad_logits(gpt, x), atol=1e-5, rtol=0)


def test_round_trip_is_exact_and_packs_q_k_v_in_order():
    ref = make_nanogpt()
    gpt = models.GPT.from_nanogpt(ref.state_dict(), n_head=4)
    packed = ref.state_dict()["transformer.h.1.attn.c_attn.weight"].numpy()
    np.testing.assert_array_equal(gpt.blocks[1].attn.in_proj_weight.data, packed)  # a plain copy
    back = gpt.to_nanogpt()
    for k, v in ref.state_dict().items():
        np.testing.assert_array_equal(back[k], v.numpy(), err_msg=k)


def test_ckpt_pt_with_model_args_and_compiled_prefix(tmp_path):
    ref = make_nanogpt(seed=2)
    ckpt = {"model": {"_orig_mod." + k: v for k, v in ref.state_dict().items()},
            "model_args": dict(ARGS), "optimizer": {}, "iter_num": 5, "best_val_loss": 1.5,
            "config": {"batch_size": 4}}
    torch.save(ckpt, tmp_path / "ckpt.pt")
    gpt = models.GPT.from_nanogpt(tmp_path / "ckpt.pt")  # n_head from model_args
    assert gpt.config.n_head == 4
    x = ids(seed=4)
    np.testing.assert_allclose(minigrad_logits(gpt, x), torch_logits(ref, x), atol=1e-5, rtol=0)
    # and the checkpoint dict itself, without the file
    assert models.GPT.from_nanogpt(ckpt).config.n_layer == 2


def test_equal_greedy_generations():
    ref = make_nanogpt(seed=5)
    gpt = models.GPT.from_nanogpt(ref.state_dict(), n_head=4)
    prompt = ids(b=1, t=3, seed=7)
    out = gpt.generate(prompt, max_new_tokens=10, top_k=1).data
    seq = torch.from_numpy(prompt)
    for _ in range(10):
        with torch.no_grad():
            nxt = ref(seq[:, -16:])[:, -1].argmax(-1, keepdim=True)
        seq = torch.cat([seq, nxt], dim=1)
    np.testing.assert_array_equal(out, seq.numpy())


def test_causal_mask_buffers_are_skipped():
    ref = make_nanogpt()
    state = dict(ref.state_dict())
    for i in range(2):  # nanoGPT without flash attention saves its mask as attn.bias
        state[f"transformer.h.{i}.attn.bias"] = torch.tril(torch.ones(16, 16)).view(1, 1, 16, 16)
    gpt = models.GPT.from_nanogpt(state, n_head=4)
    np.testing.assert_allclose(minigrad_logits(gpt, ids()), torch_logits(ref, ids()), atol=1e-5)


def test_n_head_must_be_given_when_model_args_are_absent():
    with pytest.raises(ValueError, match="n_head"):
        models.GPT.from_nanogpt(make_nanogpt().state_dict())


def test_untied_head_gives_an_untied_model_and_to_nanogpt_refuses_it():
    state = {k: v.numpy().copy() for k, v in make_nanogpt().state_dict().items()}
    state["lm_head.weight"] = state["lm_head.weight"] + 1.0
    gpt = models.GPT.from_nanogpt(state, n_head=4)
    assert not gpt.config.tie_weights
    np.testing.assert_array_equal(gpt.lm_head.weight.data, state["lm_head.weight"])
    with pytest.raises(ValueError, match="lm_head.weight"):
        gpt.to_nanogpt()


@pytest.mark.parametrize("options", [{"pos_encoding": "sinusoidal"}, {"activation": "relu"},
                                     {"activation": "gelu_tanh"}])
def test_to_nanogpt_refuses_what_nanogpt_cannot_compute(options):
    gpt = models.GPT(vocab_size=11, block_size=8, n_layer=1, n_head=2, n_embd=8, **options)
    with pytest.raises(ValueError, match="nanoGPT"):
        gpt.to_nanogpt()


def test_wrong_shape_names_the_key():
    state = {k: v.numpy() for k, v in make_nanogpt().state_dict().items()}
    state["transformer.h.1.mlp.c_fc.weight"] = np.zeros((10, 32), np.float32)
    with pytest.raises(ValueError, match=r"transformer\.h\.1\.mlp\.c_fc\.weight"):
        models.GPT.from_nanogpt(state, n_head=4)


def test_unknown_and_missing_keys_are_named():
    state = {k: v.numpy() for k, v in make_nanogpt().state_dict().items()}
    state["transformer.h.0.attn.rotary"] = np.zeros(3, np.float32)
    with pytest.raises(KeyError, match=r"transformer\.h\.0\.attn\.rotary"):
        models.GPT.from_nanogpt(state, n_head=4)
    del state["transformer.h.0.attn.rotary"]
    del state["transformer.ln_f.bias"]
    with pytest.raises(KeyError, match=r"transformer\.h\.0\.ln_1\.bias"):  # inferred bias=False
        models.GPT.from_nanogpt(state, n_head=4)


def test_model_args_that_do_not_fit_the_arrays_are_refused():
    ckpt = {"model": make_nanogpt().state_dict(), "model_args": {**ARGS, "n_layer": 3}}
    with pytest.raises(KeyError, match=r"transformer\.h\.2\."):
        models.GPT.from_nanogpt(ckpt)
    with pytest.raises(ValueError, match="divisible"):
        models.GPT.from_nanogpt({**ckpt, "model_args": {**ARGS, "n_head": 5}})


def test_pt_path_reads_without_torch(tmp_path, monkeypatch):
    ref = make_nanogpt()
    path = tmp_path / "ckpt.pt"
    torch.save({"model": ref.state_dict(), "model_args": ARGS}, path)
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch now fails
    gpt = models.GPT.from_nanogpt(path)  # minigrad/pytorch_file.py: plain NumPy
    monkeypatch.undo()
    np.testing.assert_allclose(minigrad_logits(gpt, ids()), torch_logits(ref, ids()),
                               atol=1e-5, rtol=0)


def test_nanogpt_state_dict_into_minigrad_load_state_dict_fails_loudly():
    # strict=False must not load lm_head.weight alone into the tied matrix
    gpt = models.GPT(vocab_size=37, block_size=16, n_layer=2, n_head=4, n_embd=32)
    before = gpt.wte.weight.data.copy()
    state = {k: v.numpy() for k, v in make_nanogpt().state_dict().items()}
    with pytest.raises(KeyError):
        gpt.load_state_dict(state)
    with pytest.raises(ValueError, match=r"lm_head\.weight.*wte\.weight"):
        gpt.load_state_dict(state, strict=False)
    np.testing.assert_array_equal(gpt.wte.weight.data, before)

"""GPT-2 in Hugging Face's layout: GPT.from_pretrained / save_pretrained against
transformers' real GPT2LMHeadModel, with tiny random configurations (no downloads)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import minigrad
from minigrad import models
from minigrad.safetensors_io import load_safetensors, save_safetensors

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

SMALL = {"n_layer": 2, "n_head": 2, "n_embd": 32, "vocab_size": 97, "n_positions": 64}


def hf_model(tmp_path, seed: int = 0, **overrides):
    """A random GPT2LMHeadModel saved to tmp_path/hf; returns (model, directory)."""
    torch.manual_seed(seed)
    model = transformers.GPT2LMHeadModel(transformers.GPT2Config(**{**SMALL, **overrides}))
    with torch.no_grad():  # LayerNorms away from the identity, so a wrong eps or swap shows
        for name, p in model.named_parameters():
            if ".ln_" in name:
                p.normal_(1.0 if name.endswith("weight") else 0.0, 0.2)
    model.eval()
    path = tmp_path / "hf"
    model.save_pretrained(path)
    return model, path


def ids(t: int = 20, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, SMALL["vocab_size"], size=(2, t))


def hf_logits(model, x: np.ndarray) -> np.ndarray:
    with torch.no_grad():
        return model(torch.from_numpy(x)).logits.numpy()


def our_logits(model: models.GPT, x: np.ndarray) -> np.ndarray:
    with minigrad.no_grad():
        return model(x)[0].data


@pytest.mark.parametrize("overrides", [
    {},
    {"activation_function": "gelu", "layer_norm_epsilon": 1e-3},
    {"tie_word_embeddings": False},
])
def test_from_pretrained_matches_transformers(tmp_path, overrides):
    ref, path = hf_model(tmp_path, **overrides)
    gpt = models.GPT.from_pretrained(path)
    cfg = gpt.config
    assert (cfg.n_layer, cfg.n_head, cfg.n_embd, cfg.block_size, cfg.vocab_size) == \
        (2, 2, 32, 64, 97)
    assert cfg.activation == ("gelu" if overrides.get("activation_function") else "gelu_tanh")
    assert cfg.tie_weights == overrides.get("tie_word_embeddings", True)
    assert not gpt.training  # eval mode, as transformers returns it
    x = ids()
    np.testing.assert_allclose(our_logits(gpt, x), hf_logits(ref, x), atol=1e-5, rtol=0)


@pytest.mark.parametrize("options", [{}, {"tie_weights": False, "activation": "gelu"}])
def test_save_pretrained_loads_in_transformers(tmp_path, options):
    minigrad.manual_seed(1)
    gpt = models.GPT(**{"vocab_size": 97, "block_size": 64, "n_layer": 2, "n_head": 2,
                        "n_embd": 32, "activation": "gelu_tanh", **options})
    gpt.save_pretrained(tmp_path / "out")
    ref = transformers.GPT2LMHeadModel.from_pretrained(tmp_path / "out").eval()
    x = ids(seed=3)
    np.testing.assert_allclose(hf_logits(ref, x), our_logits(gpt, x), atol=1e-5, rtol=0)
    stored = load_safetensors(tmp_path / "out" / "model.safetensors")
    assert ("lm_head.weight" in stored) == (not gpt.config.tie_weights)
    # and back again, exactly
    again = models.GPT.from_pretrained(tmp_path / "out")
    for k, v in gpt.state_dict().items():
        np.testing.assert_array_equal(again.state_dict()[k].data, v.data, err_msg=k)


def test_equal_greedy_generations(tmp_path):
    ref, path = hf_model(tmp_path, seed=4)
    gpt = models.GPT.from_pretrained(path)
    prompt = ids(t=4, seed=5)[:1]
    ours = gpt.generate(prompt, max_new_tokens=12, top_k=1).data
    theirs = ref.generate(torch.from_numpy(prompt), max_new_tokens=12, min_new_tokens=12,
                          do_sample=False, pad_token_id=0).numpy()
    np.testing.assert_array_equal(ours, theirs)


def test_original_release_names_and_mask_buffers_are_accepted(tmp_path):
    # the GPT-2 files converted from OpenAI's release have no "transformer." prefix and
    # carry each layer's causal mask as h.{i}.attn.bias
    ref, path = hf_model(tmp_path)
    state = load_safetensors(path / "model.safetensors")
    state = {k.removeprefix("transformer."): v for k, v in state.items()}
    for i in range(2):
        state[f"h.{i}.attn.bias"] = np.tril(np.ones((64, 64), np.float32))[None, None]
    save_safetensors(state, path / "model.safetensors", {"format": "pt"})
    x = ids(seed=2)
    np.testing.assert_allclose(our_logits(models.GPT.from_pretrained(path), x),
                               hf_logits(ref, x), atol=1e-5, rtol=0)


def test_sharded_checkpoint(tmp_path):
    ref, path = hf_model(tmp_path)
    state = load_safetensors(path / "model.safetensors")
    names = sorted(state)
    halves = {"model-00001-of-00002.safetensors": names[:5],
              "model-00002-of-00002.safetensors": names[5:]}
    for shard, keys in halves.items():
        save_safetensors({k: state[k] for k in keys}, path / shard, {"format": "pt"})
    (path / "model.safetensors").unlink()
    index = {"weight_map": {k: shard for shard, keys in halves.items() for k in keys}}
    (path / "model.safetensors.index.json").write_text(json.dumps(index))
    x = ids()
    np.testing.assert_allclose(our_logits(models.GPT.from_pretrained(path), x),
                               hf_logits(ref, x), atol=1e-5, rtol=0)


def test_missing_directory_parts_are_explained(tmp_path):
    with pytest.raises(FileNotFoundError, match="config.json"):
        models.GPT.from_pretrained(tmp_path)
    _, path = hf_model(tmp_path)
    (path / "model.safetensors").rename(path / "pytorch_model.bin")
    with pytest.raises(FileNotFoundError, match="pytorch_model.bin"):
        models.GPT.from_pretrained(path)


@pytest.mark.parametrize("change, fragment", [
    ({"scale_attn_by_inverse_layer_idx": True}, "scale_attn_by_inverse_layer_idx"),
    ({"activation_function": "silu"}, "silu"),
    ({"n_inner": 100}, "n_inner"),
    ({"model_type": "llama"}, "llama"),
    ({"n_head": 3}, "divisible"),
])
def test_unsupported_configs_are_refused(tmp_path, change, fragment):
    _, path = hf_model(tmp_path)
    cfg = json.loads((path / "config.json").read_text())
    (path / "config.json").write_text(json.dumps({**cfg, **change}))
    with pytest.raises(ValueError, match=fragment):
        models.GPT.from_pretrained(path)


def test_wrong_shape_and_unknown_key_are_named(tmp_path):
    _, path = hf_model(tmp_path)
    good = load_safetensors(path / "model.safetensors")
    bad = {**good, "transformer.h.1.mlp.c_fc.bias": np.zeros(7, np.float32)}
    save_safetensors(bad, path / "model.safetensors")
    with pytest.raises(ValueError, match=r"transformer\.h\.1\.mlp\.c_fc\.bias"):
        models.GPT.from_pretrained(path)
    save_safetensors({**good, "transformer.h.0.extra": np.zeros(1, np.float32)},
                     path / "model.safetensors")
    with pytest.raises(KeyError, match=r"transformer\.h\.0\.extra"):
        models.GPT.from_pretrained(path)


def test_save_pretrained_refuses_what_gpt2_cannot_hold(tmp_path):
    gpt = models.GPT(vocab_size=11, block_size=8, n_layer=1, n_head=2, n_embd=8, bias=False)
    with pytest.raises(ValueError, match="bias"):
        gpt.save_pretrained(tmp_path / "x")
    assert not (tmp_path / "x").exists()


def test_a_name_given_with_and_without_the_prefix_is_refused(tmp_path):
    _, path = hf_model(tmp_path)
    state = load_safetensors(path / "model.safetensors")
    state["wte.weight"] = state["transformer.wte.weight"] + 1
    save_safetensors(state, path / "model.safetensors")
    with pytest.raises(KeyError, match=r"'transformer\.wte\.weight' and 'wte\.weight'"):
        models.GPT.from_pretrained(path)

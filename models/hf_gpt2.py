"""GPT-2 in Hugging Face's layout: a local directory in, a directory out.

``transformers.GPT2LMHeadModel.save_pretrained(dir)`` writes::

    dir/config.json         n_layer, n_head, n_embd, n_positions, vocab_size,
                            activation_function ("gelu_new" = tanh GELU), layer_norm_epsilon, ...
    dir/model.safetensors   the weights (or model.safetensors.index.json + shards)
    dir/tokenizer.json      the tokenizer (its own save_pretrained; here save_tokenizer_files)

The weight names are nanoGPT's (``models/nanogpt.py``: nanoGPT copied GPT-2's),
with two differences: GPT-2's projections are ``Conv1D`` layers whose weight is
stored (in, out), the transpose of a Linear's (out, in); and the tied
``lm_head.weight`` is not stored (``tie_word_embeddings``). Files converted
from the original release also drop the ``transformer.`` prefix and carry the
causal mask as ``h.{i}.attn.bias``; both are accepted.

Nothing here touches the network: the user brings the directory (docs/weights.md).
"""

from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

import numpy as np

from minigrad.safetensors_io import load_safetensors, save_safetensors

from .gpt_config import GPTConfig
from .nanogpt import (
    check_state,
    nanogpt_shapes,
    nanogpt_to_minigrad,
    read_nanogpt_source,
    rename_to_nanogpt,
)

if TYPE_CHECKING:  # gpt.py imports this module (GPT.from_pretrained); never the reverse
    from .gpt import GPT

PREFIX = "transformer."
CONV1D = (".attn.c_attn.weight", ".attn.c_proj.weight", ".mlp.c_fc.weight", ".mlp.c_proj.weight")
# config.json activation_function -> GPTConfig.activation, and back
ACTIVATIONS = {"gelu_new": "gelu_tanh", "gelu_pytorch_tanh": "gelu_tanh", "gelu": "gelu",
               "relu": "relu"}
_TO_HF = {"gelu_tanh": "gelu_new", "gelu": "gelu", "relu": "relu"}
# config.json flags whose non-default value changes the function minigrad would compute
_UNSUPPORTED = {"scale_attn_weights": True, "scale_attn_by_inverse_layer_idx": False,
                "add_cross_attention": False}


def _transposed(name: str, arr: np.ndarray) -> np.ndarray:
    """Conv1D (in, out) <-> Linear (out, in) for the four projection weights; else as is."""
    return np.ascontiguousarray(arr.T) if name.endswith(CONV1D) else arr


def config_from_hf(hf: dict[str, Any], where: str) -> GPTConfig:
    """A :class:`GPTConfig` from a GPT-2 ``config.json`` dict; unsupported settings raise."""
    if hf.get("model_type", "gpt2") != "gpt2":
        raise ValueError(f"{where}: model_type {hf.get('model_type')!r} is not 'gpt2'")
    for key, ok in _UNSUPPORTED.items():
        if hf.get(key, ok) != ok:
            raise ValueError(f"{where}: {key}={hf[key]!r} is not supported (minigrad's GPT "
                             f"computes GPT-2 with {key}={ok})")
    act = hf.get("activation_function", "gelu_new")
    if act not in ACTIVATIONS:
        raise ValueError(f"{where}: activation_function {act!r} is not supported "
                         f"(one of {sorted(ACTIVATIONS)})")
    n_embd = hf.get("n_embd", 768)
    if hf.get("n_inner") not in (None, 4 * n_embd):
        raise ValueError(f"{where}: n_inner={hf['n_inner']} is not 4 * n_embd = {4 * n_embd}")
    try:
        return GPTConfig(vocab_size=hf.get("vocab_size", 50257),
                         block_size=hf.get("n_positions", 1024), n_layer=hf.get("n_layer", 12),
                         n_head=hf.get("n_head", 12), n_embd=n_embd,
                         dropout=float(hf.get("resid_pdrop", 0.0)), bias=True,
                         tie_weights=bool(hf.get("tie_word_embeddings", True)),
                         activation=ACTIVATIONS[act],
                         layer_norm_eps=float(hf.get("layer_norm_epsilon", 1e-5)))
    except (TypeError, ValueError) as e:
        raise ValueError(f"{where}: {e}") from None


def config_to_hf(config: GPTConfig) -> dict[str, Any]:
    """The ``config.json`` of :func:`save_pretrained` (GPT2Config's names)."""
    if config.pos_encoding != "learned" or not config.bias:
        raise ValueError("save_pretrained: GPT-2 has learned positions and biases; this model "
                         f"has pos_encoding={config.pos_encoding!r}, bias={config.bias}")
    return {"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2",
            "vocab_size": config.vocab_size, "n_positions": config.block_size,
            "n_embd": config.n_embd, "n_layer": config.n_layer, "n_head": config.n_head,
            "n_inner": None, "activation_function": _TO_HF[config.activation],
            "layer_norm_epsilon": config.layer_norm_eps, "resid_pdrop": config.dropout,
            "embd_pdrop": config.dropout, "attn_pdrop": config.dropout,
            "tie_word_embeddings": config.tie_weights, "initializer_range": 0.02}


def _read_weights(path: str) -> dict[str, np.ndarray]:
    """name -> array from model.safetensors, or from the shards its index lists."""
    single = os.path.join(path, "model.safetensors")
    index = single + ".index.json"
    if os.path.isfile(single):
        return load_safetensors(single)
    if os.path.isfile(index):
        with open(index, encoding="utf-8") as f:
            weight_map = json.load(f).get("weight_map", {})
        state: dict[str, np.ndarray] = {}
        for shard in sorted(set(weight_map.values())):
            state.update(load_safetensors(os.path.join(path, os.path.basename(shard))))
        return state
    found = sorted(os.listdir(path))
    hint = (" (a PyTorch .bin: convert it once with transformers, "
            "GPT2LMHeadModel.from_pretrained(dir).save_pretrained(dir))"
            if "pytorch_model.bin" in found else "")
    raise FileNotFoundError(f"no model.safetensors in {path!r}; found {found}{hint}")


def _with_prefix(key: str) -> str:
    """GPT2LMHeadModel's name for ``key`` (the original release's files lack "transformer.")."""
    return key if key.startswith(PREFIX) or key == "lm_head.weight" else PREFIX + key


def load_pretrained(path: str | os.PathLike) -> tuple[GPTConfig, dict]:
    """The config and the state dict (minigrad's names) of a local GPT-2 directory, for
    :meth:`GPT.from_pretrained <minigrad.models.GPT.from_pretrained>` (see the module
    docstring).

    Every key and shape is checked (errors name the key) before any weight is set.
    """
    path = os.fspath(path)
    config_path = os.path.join(path, "config.json")
    if not os.path.isfile(config_path):
        raise FileNotFoundError(
            f"no config.json in {path!r}: from_pretrained reads a local directory only "
            "(see docs/weights.md for how to get GPT-2 onto this machine)")
    with open(config_path, encoding="utf-8") as f:
        config = config_from_hf(json.load(f), config_path)
    where = f"from_pretrained({path!r})"
    state, _ = read_nanogpt_source(_read_weights(path), where, _with_prefix)
    state = {k: _transposed(k, v) for k, v in state.items()}
    expected = nanogpt_shapes(config)
    if config.tie_weights and "lm_head.weight" not in state:
        expected.pop("lm_head.weight")
    check_state(state, expected, where)
    return config, nanogpt_to_minigrad(state, config)


def save_pretrained(model: GPT, path: str | os.PathLike) -> None:
    """Write ``model`` to the directory ``path`` (created if needed) as ``config.json`` +
    ``model.safetensors``, so that ``GPT2LMHeadModel.from_pretrained(path)`` loads it."""
    path = os.fspath(path)
    hf_config = config_to_hf(model.config)
    weights = rename_to_nanogpt(model)
    if model.config.tie_weights:
        del weights["lm_head.weight"]  # stored once, as transformers does
    state = {k: _transposed(k, v) for k, v in weights.items()}
    os.makedirs(path, exist_ok=True)
    # transformers reads the "format" metadata to know the tensors are PyTorch-shaped
    save_safetensors(state, os.path.join(path, "model.safetensors"), {"format": "pt"})
    with open(os.path.join(path, "config.json"), "w", encoding="utf-8") as f:
        json.dump(hf_config, f, indent=2)


END_OF_TEXT = "<|endoftext|>"


def save_tokenizer_files(tokenizer_json: str, path: str | os.PathLike,
                         model_max_length: int) -> None:
    """Write a tokenizer beside a saved model: ``tokenizer.json`` (the ``tokenizers``
    library's format, given as its text) and ``tokenizer_config.json``, which makes
    ``transformers.AutoTokenizer.from_pretrained(path)`` build a ``PreTrainedTokenizerFast``
    over it (GPT-2's own class would add its special token to a vocabulary that may lack it).
    ``<|endoftext|>``, when the vocabulary has it, is the begin, end and unknown token, as
    GPT-2's."""
    path = os.fspath(path)
    vocab = json.loads(tokenizer_json).get("model", {}).get("vocab", {})
    config: dict[str, Any] = {"tokenizer_class": "PreTrainedTokenizerFast",
                              "model_max_length": model_max_length,
                              "clean_up_tokenization_spaces": False}
    if END_OF_TEXT in vocab:
        config.update(bos_token=END_OF_TEXT, eos_token=END_OF_TEXT, unk_token=END_OF_TEXT)
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "tokenizer.json"), "w", encoding="utf-8") as f:
        f.write(tokenizer_json)
    with open(os.path.join(path, "tokenizer_config.json"), "w", encoding="utf-8") as f:
        json.dump(config, f, indent=2)

"""nanoGPT's weights in and out of minigrad's :class:`~minigrad.models.GPT`.

nanoGPT (Karpathy's GPT-2 reimplementation in PyTorch) and minigrad's GPT
compute the same function; only the names and one layout differ::

    nanoGPT                                   minigrad
    transformer.wte.weight      (V, C)        wte.weight
    transformer.wpe.weight      (T, C)        wpe.weight
    transformer.h.{i}.ln_1.*                  blocks.{i}.ln_1.*
    transformer.h.{i}.attn.c_attn.weight      blocks.{i}.attn.in_proj_weight  (3C, C)
    transformer.h.{i}.attn.c_attn.bias        blocks.{i}.attn.in_proj_bias    (3C,)
    transformer.h.{i}.attn.c_proj.*           blocks.{i}.attn.out_proj.*
    transformer.h.{i}.ln_2.*                  blocks.{i}.ln_2.*
    transformer.h.{i}.mlp.c_fc.*              blocks.{i}.mlp.fc.*
    transformer.h.{i}.mlp.c_proj.*            blocks.{i}.mlp.proj.*
    transformer.ln_f.*                        ln_f.*
    lm_head.weight (tied to wte)              lm_head.weight (tied to wte)

nanoGPT packs the three attention projections into one Linear whose output
rows are q | k | v (rows 0..C-1 give q, and so on); minigrad's
``MultiHeadAttention`` packs them the same way (PyTorch's ``in_proj_weight``),
so the arrays are copied as they are. Both split a projection into heads the
same way (C -> (n_head, C / n_head)).
``*`` is ``weight`` and, when the model has biases, ``bias``.

This layout is also GPT-2's (Hugging Face's ``GPT2LMHeadModel`` uses the same
names, with its Conv1D weights transposed): ``models/hf_gpt2.py`` reuses it.
"""

from __future__ import annotations

import os
import re
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from minigrad.pytorch_file import load_pytorch_file

from .gpt_config import GPTConfig

if TYPE_CHECKING:  # gpt.py imports this module (GPT.from_nanogpt); the converters never
    from .gpt import GPT  # import gpt.py back

COMPILED_PREFIX = "_orig_mod."  # torch.compile wraps the model; its state_dict keys gain this
_BLOCK_KEY = re.compile(r"transformer\.h\.(\d+)\.")

# (nanoGPT name inside a block, minigrad name inside a block) for the unpacked layers
_BLOCK_LAYERS = (("ln_1", "ln_1"), ("attn.c_proj", "attn.out_proj"), ("ln_2", "ln_2"),
                 ("mlp.c_fc", "mlp.fc"), ("mlp.c_proj", "mlp.proj"))
_QKV = {"weight": "attn.in_proj_weight", "bias": "attn.in_proj_bias"}  # c_attn.* packed


def _suffixes(bias: bool) -> tuple[str, ...]:
    return ("weight", "bias") if bias else ("weight",)


def nanogpt_shapes(config: GPTConfig) -> OrderedDict[str, tuple[int, ...]]:
    """nanoGPT's state_dict names -> shapes for a model of ``config`` (lm_head included)."""
    c, v, t = config.n_embd, config.vocab_size, config.block_size
    sizes = {"ln_1": (c,), "ln_2": (c,), "attn.c_attn": (3 * c, c), "attn.c_proj": (c, c),
             "mlp.c_fc": (4 * c, c), "mlp.c_proj": (c, 4 * c)}
    shapes: OrderedDict[str, tuple[int, ...]] = OrderedDict()
    shapes["transformer.wte.weight"] = (v, c)
    shapes["transformer.wpe.weight"] = (t, c)
    for i in range(config.n_layer):
        for layer, w_shape in sizes.items():
            for s in _suffixes(config.bias):
                shapes[f"transformer.h.{i}.{layer}.{s}"] = w_shape if s == "weight" \
                    else (w_shape[0],)
    for s in _suffixes(config.bias):
        shapes[f"transformer.ln_f.{s}"] = (c,)
    shapes["lm_head.weight"] = (v, c)
    return shapes


def to_numpy(value: Any, key: str) -> np.ndarray:
    """A state-dict entry as an ndarray: NumPy arrays, minigrad Tensors, or anything with
    ``.numpy()`` (a torch tensor; float16/bfloat16 widened to float32)."""
    if hasattr(value, "detach") and hasattr(value, "cpu"):  # a torch tensor
        value = value.detach().cpu()
        if str(value.dtype) in ("torch.float16", "torch.bfloat16"):
            value = value.float()
    arr = value.numpy() if hasattr(value, "numpy") else np.asarray(value)
    if arr.dtype.kind != "f":
        raise TypeError(f"{key!r} has dtype {arr.dtype}; weights must be floating-point")
    return arr


def _is_causal_mask_buffer(key: str, arr: Any) -> bool:
    """nanoGPT without flash attention (and old GPT-2 files) save the causal mask
    ``...attn.bias`` (1, 1, T, T) as a buffer: it holds no weights and is skipped."""
    return key.endswith((".attn.bias", ".attn.masked_bias")) and len(np.shape(arr)) != 1


def _uncompiled(key: str) -> str:
    return key.removeprefix(COMPILED_PREFIX)


def read_nanogpt_source(source: Any, where: str = "from_nanogpt",
                        rename: Callable[[str], str] = _uncompiled,
                        ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """(state dict in nanoGPT names as ndarrays, model_args or {}) from a state dict, a
    nanoGPT checkpoint dict (``{"model": ..., "model_args": ...}``) or a ``ckpt.pt`` path.

    Each key becomes ``rename(key)`` (by default without torch.compile's prefix); causal-mask
    buffers are dropped; two keys that become one name raise KeyError naming both.
    ``where`` starts the error messages.
    """
    if isinstance(source, (str, os.PathLike)):
        source = load_pytorch_file(source)  # no torch needed (minigrad/pytorch_file.py)
    if not isinstance(source, Mapping):
        raise TypeError(f"{where}: expected a state dict, a nanoGPT checkpoint dict or a "
                        f"path to ckpt.pt, got {type(source).__name__}")
    model_args: dict[str, Any] = {}
    if "model" in source and isinstance(source["model"], Mapping):
        model_args = dict(source.get("model_args") or {})
        source = source["model"]
    state, origin = {}, {}
    for key, value in source.items():
        name = rename(key)
        if _is_causal_mask_buffer(name, value):
            continue
        if name in state:
            raise KeyError(f"{where}: {origin[name]!r} and {key!r} both name {name!r}")
        state[name], origin[name] = to_numpy(value, key), key
    return state, model_args


def infer_config(state: Mapping[str, np.ndarray], **known: Any) -> GPTConfig:
    """A :class:`GPTConfig` from a nanoGPT-named state dict's shapes, with ``known``
    values (model_args, caller's keywords) taking precedence.

    n_head cannot be read from any shape (heads only reshape the projections), so
    it must be known. bias: whether ``ln_f.bias`` exists; tie_weights: whether
    ``lm_head.weight`` equals ``wte.weight`` (nanoGPT always ties).
    """
    for key in ("transformer.wte.weight", "transformer.wpe.weight"):
        if key not in state:
            raise KeyError(f"from_nanogpt: {key!r} is missing: not a nanoGPT state dict "
                           f"(first keys: {list(state)[:4]})")
    if known.get("n_head") is None:
        raise ValueError("from_nanogpt: n_head is not in the checkpoint's model_args and "
                         "cannot be inferred from shapes; pass n_head=")
    vocab, n_embd = state["transformer.wte.weight"].shape
    layers = {int(m.group(1)) for k in state if (m := _BLOCK_KEY.match(k))}
    head = state.get("lm_head.weight")
    tied = head is None or (head.shape == (vocab, n_embd)
                            and np.array_equal(head, state["transformer.wte.weight"]))
    inferred = {"vocab_size": vocab, "block_size": state["transformer.wpe.weight"].shape[0],
                "n_layer": max(layers) + 1 if layers else 0, "n_embd": n_embd,
                "bias": "transformer.ln_f.bias" in state, "tie_weights": tied, "dropout": 0.0}
    inferred.update({k: v for k, v in known.items() if v is not None})
    return GPTConfig(vocab_size=int(inferred["vocab_size"]),
                     block_size=int(inferred["block_size"]), n_layer=int(inferred["n_layer"]),
                     n_head=int(inferred["n_head"]), n_embd=int(inferred["n_embd"]),
                     dropout=float(inferred["dropout"]), bias=bool(inferred["bias"]),
                     tie_weights=bool(inferred["tie_weights"]))


def check_state(state: Mapping[str, Any], expected: Mapping[str, tuple], where: str) -> None:
    """Raise KeyError/ValueError naming every missing, unexpected or wrongly shaped key."""
    missing = [k for k in expected if k not in state]
    unexpected = [k for k in state if k not in expected]
    if missing or unexpected:
        raise KeyError(f"{where}: missing keys {missing}, unexpected keys {unexpected} "
                       "(nothing was loaded)")
    bad = [f"{k!r}: {tuple(np.shape(state[k]))} vs expected {shape}"
           for k, shape in expected.items() if tuple(np.shape(state[k])) != tuple(shape)]
    if bad:
        raise ValueError(f"{where}: shape mismatch for " + "; ".join(bad)
                         + " (nothing was loaded)")


def nanogpt_to_minigrad(state: Mapping[str, np.ndarray], config: GPTConfig) -> dict:
    """Rename a checked nanoGPT state dict into minigrad's names."""
    out = {"wte.weight": state["transformer.wte.weight"],
           "wpe.weight": state["transformer.wpe.weight"],
           "lm_head.weight": state.get("lm_head.weight", state["transformer.wte.weight"])}
    for s in _suffixes(config.bias):
        out[f"ln_f.{s}"] = state[f"transformer.ln_f.{s}"]
        for i in range(config.n_layer):
            src, dst = f"transformer.h.{i}.", f"blocks.{i}."
            for theirs, ours in _BLOCK_LAYERS:
                out[f"{dst}{ours}.{s}"] = state[f"{src}{theirs}.{s}"]
            out[f"{dst}{_QKV[s]}"] = state[f"{src}attn.c_attn.{s}"]  # rows: q | k | v
    return out


def rename_to_nanogpt(model: GPT) -> OrderedDict[str, np.ndarray]:
    """``model``'s weights under nanoGPT's names and shapes (fresh arrays),
    in nanoGPT's key order, without checking that nanoGPT could run them."""
    cfg = model.config
    sd = {k: v.data for k, v in model.state_dict().items()}
    out = {"transformer.wte.weight": sd["wte.weight"].copy(),
           "transformer.wpe.weight": sd["wpe.weight"].copy()}
    # a tied head stays one array, as in nanoGPT
    out["lm_head.weight"] = out["transformer.wte.weight"] if cfg.tie_weights \
        else sd["lm_head.weight"].copy()
    for s in _suffixes(cfg.bias):
        out[f"transformer.ln_f.{s}"] = sd[f"ln_f.{s}"].copy()
        for i in range(cfg.n_layer):
            src, dst = f"blocks.{i}.", f"transformer.h.{i}."
            for theirs, ours in _BLOCK_LAYERS:
                out[f"{dst}{theirs}.{s}"] = sd[f"{src}{ours}.{s}"].copy()
            out[f"{dst}attn.c_attn.{s}"] = sd[f"{src}{_QKV[s]}"].copy()
    return OrderedDict((k, out[k]) for k in nanogpt_shapes(cfg))


def minigrad_to_nanogpt(model: GPT) -> OrderedDict[str, np.ndarray]:
    """``model``'s weights for nanoGPT's ``load_state_dict``; ValueError if nanoGPT's
    architecture cannot hold them (other positions, activation, eps, an untied head)."""
    cfg = model.config
    if cfg.pos_encoding != "learned" or cfg.activation != "gelu" or cfg.layer_norm_eps != 1e-5:
        raise ValueError(
            "to_nanogpt: nanoGPT has learned positions, exact GELU and LayerNorm eps 1e-5; this "
            f"model has pos_encoding={cfg.pos_encoding!r}, activation={cfg.activation!r}, "
            f"layer_norm_eps={cfg.layer_norm_eps}")
    if not np.array_equal(model.lm_head.weight.data, model.wte.weight.data):
        raise ValueError("to_nanogpt: nanoGPT ties lm_head.weight to transformer.wte.weight, but "
                         "this untied model has different arrays for them")
    return rename_to_nanogpt(model)


def load_nanogpt(source: Any, **overrides: Any) -> tuple[GPTConfig, dict]:
    """The config and the state dict (minigrad's names) of a nanoGPT model, for
    :meth:`GPT.from_nanogpt <minigrad.models.GPT.from_nanogpt>` (see the module docstring).

    ``source``: a state dict (names -> ndarrays or torch tensors), a nanoGPT checkpoint
    dict, or the path of nanoGPT's ``ckpt.pt``. The config comes from the checkpoint's
    ``model_args`` where present, else from the shapes; ``overrides`` (e.g. n_head=,
    dropout=) win over both. Every key and shape is checked before any weight is set.
    """
    state, model_args = read_nanogpt_source(source)
    known = {k: model_args.get(k) for k in ("vocab_size", "block_size", "n_layer", "n_head",
                                            "n_embd", "bias", "dropout")}
    known.update(overrides)
    config = infer_config(state, **known)
    expected = nanogpt_shapes(config)
    if "lm_head.weight" not in state:  # a tied head is often stored once
        expected.pop("lm_head.weight")
    check_state(state, expected, "from_nanogpt")
    return config, nanogpt_to_minigrad(state, config)


__all__ = ["load_nanogpt", "minigrad_to_nanogpt", "nanogpt_shapes", "read_nanogpt_source",
           "rename_to_nanogpt"]

"""Models that exist already: ``--init-from`` (nanoGPT's ``init_from``) and what
``minigrad-sample`` reads.

:func:`load_model` reads any of

- a Hugging Face GPT-2 directory (``config.json`` + ``model.safetensors``;
  ``GPT.from_pretrained``), with its tokenizer when the directory holds ``tokenizer.json`` or
  ``vocab.json`` + ``merges.txt``;
- a nanoGPT ``ckpt.pt`` (``GPT.from_nanogpt``, read without torch; no tokenizer: pass one);
- a checkpoint of this trainer (``.npz``), or a run directory (its ``ckpt_best.npz``, else ``ckpt_last.npz``), with the
  tokenizer it stores;

and returns the model with its tokenizer. :func:`reconfigured` then gives a fine-tuning copy:
the position table cropped to a shorter context (nanoGPT's ``crop_block_size``: the first
``block_size`` rows, which are what the model used for those positions) and the dropout of the
new run.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from minigrad import models

from .checkpoint import load_checkpoint, model_arrays, model_from_checkpoint
from .data import DataError
from .tokens import has_tokenizer_files, load_bpe, tokenizer_from_checkpoint

# GPTConfig fields a run's config stores (checkpoint.build_model reads them back)
CONFIG_FIELDS = ("vocab_size", "block_size", "n_layer", "n_head", "n_embd", "dropout", "bias",
                 "tie_weights", "activation", "layer_norm_eps")


#: what ``minigrad-sample`` and ``minigrad-export`` accept as SOURCE (:func:`load_model`)
SOURCE_HELP = ("a minigrad-train checkpoint (.npz) or run directory, a Hugging Face GPT-2 "
               "directory, or a nanoGPT ckpt.pt")


def load_model(path: str) -> tuple[models.GPT, object | None, str]:
    """(model, its tokenizer or None, what it was) from ``path`` (see the module docstring);
    DataError with one line when it is none of those or cannot be read."""
    p = Path(path)
    try:
        if p.is_dir() and (p / "config.json").is_file():
            model = models.GPT.from_pretrained(p)
            tok = load_bpe(p) if has_tokenizer_files(p) else None
            return model, tok, "GPT-2 directory"
        if p.is_dir():  # a run directory: its best checkpoint, else its last
            p = next((p / n for n in ("ckpt_best.npz", "ckpt_last.npz") if (p / n).is_file()),
                     p)
        if p.suffix == ".npz":
            ckpt = load_checkpoint(p)
            return (model_from_checkpoint(ckpt, p), tokenizer_from_checkpoint(ckpt),
                    f"minigrad checkpoint {p}")
        if p.is_file():
            return models.GPT.from_nanogpt(str(p)), None, "nanoGPT checkpoint"
    except (OSError, KeyError, ValueError, TypeError, IndexError) as e:
        raise DataError(f"cannot load {path}: {e}") from None
    raise DataError(f"{path} is not a model: expected a GPT-2 directory (config.json), a "
                    f"trainer checkpoint (.npz) or run directory, or a nanoGPT ckpt.pt")


def reconfigured(model: models.GPT, block_size: int, dropout: float) -> models.GPT:
    """A copy of ``model`` with context ``block_size`` (at most the model's: the position
    table keeps its first rows) and dropout probability ``dropout``, in training mode."""
    cfg = model.config
    if block_size > cfg.block_size:
        raise DataError(f"--block-size {block_size} is longer than the pretrained model's "
                        f"context ({cfg.block_size} positions): it has no position vectors "
                        f"beyond that")
    state = model_arrays(model)
    if "wpe.weight" in state:  # learned positions (sinusoidal tables are rebuilt)
        state["wpe.weight"] = state["wpe.weight"][:block_size]
    new = models.GPT(config=dataclasses.replace(cfg, block_size=block_size, dropout=dropout))
    new.load_state_dict(state)
    return new.train()


def config_entries(model: models.GPT) -> dict:
    """The model's configuration as a run's config stores it."""
    c = dataclasses.asdict(model.config)
    return {k: c[k] for k in CONFIG_FIELDS}

"""The trainer's checkpoints: what a run saves, and the model and state it restores from them.

A checkpoint is one plain ``.npz`` written atomically by ``minigrad.save`` (no pickle). It
holds the model, the optimizer state, the iteration, the config, the tokenizer (the
characters as ``vocab``, or a BPE tokenizer's JSON: ``tokens.tokenizer_entries``), the
SHA-256 of the text, both random generators and the :class:`RunState`, so that ``--resume``
reproduces the uninterrupted run exactly.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

import minigrad
from minigrad import models

from .data import DataError
from .tokens import tokenizer_entries

if TYPE_CHECKING:  # the annotation only: the loop imports this file (through safety.py)
    from .loop import BatchSampler

# What --sample needs, and what --resume needs besides.
SAMPLE_KEYS = {"model", "config", "vocab"}
RESUME_KEYS = SAMPLE_KEYS | {"optimizer", "iteration", "text_sha256", "rng", "best_val_loss",
                             "last_eval_iter", "history", "train_losses", "step_ms",
                             "wall_seconds"}
# The config keys that build the model (activation and layer_norm_eps are optional: runs
# from before --init-from have GPT's defaults).
MODEL_KEYS = ("vocab_size", "block_size", "n_layer", "n_head", "n_embd", "dropout", "bias",
              "tie_weights")


def build_model(cfg: dict) -> models.GPT:
    """A float32 GPT of the configuration ``cfg`` (weights from minigrad's global generator)."""
    return models.GPT(
        vocab_size=int(cfg["vocab_size"]), block_size=int(cfg["block_size"]),
        n_layer=int(cfg["n_layer"]), n_head=int(cfg["n_head"]), n_embd=int(cfg["n_embd"]),
        dropout=float(cfg["dropout"]), bias=bool(cfg["bias"]),
        tie_weights=bool(cfg["tie_weights"]), activation=str(cfg.get("activation", "gelu")),
        layer_norm_eps=float(cfg.get("layer_norm_eps", 1e-5)),
    )


def model_arrays(model) -> dict[str, np.ndarray]:
    """The model's state_dict as plain ndarrays (what a checkpoint stores)."""
    return {k: np.array(getattr(v, "data", v)) for k, v in model.state_dict().items()}


class RunState:
    """Everything besides model and optimizer that a resumed run needs to continue exactly."""

    def __init__(self) -> None:
        self.iteration = 0              # optimizer steps done
        self.best_val = math.inf        # lowest val-loss estimate so far
        self.last_eval_iter = -1        # iteration of the newest estimate (not redone on resume)
        self.history: dict[str, list] = {"iter": [], "train": [], "val": [], "lr": []}
        self.train_losses: list[float] = []   # loss of every step
        self.step_ms: list[float] = []        # wall time of every step (eval excluded)
        self.wall_seconds = 0.0               # wall time of earlier sessions of this run


def save_checkpoint(path: Path, model, opt, state: RunState, cfg: dict, tokenizer,
                    sampler: BatchSampler, text_sha: str, weights_only: bool = False) -> None:
    """Write a complete, resumable checkpoint atomically (minigrad.save, plain .npz); with
    ``weights_only`` just what sampling, export and --init-from read (model, config,
    tokenizer, iteration, text hash), marked ``weights_only``."""
    if weights_only:
        minigrad.save({"model": model_arrays(model), "config": cfg, "weights_only": True,
                       "iteration": state.iteration, "text_sha256": text_sha,
                       **tokenizer_entries(tokenizer)}, str(path))
        return
    minigrad.save({
        "model": model_arrays(model),
        "optimizer": opt.state_dict(),
        "iteration": state.iteration,
        "config": cfg,
        **tokenizer_entries(tokenizer),
        "text_sha256": text_sha,
        "rng": {"minigrad": minigrad.get_rng_state(), "batches": sampler.get_state()},
        "best_val_loss": state.best_val,
        "last_eval_iter": state.last_eval_iter,
        "history": {k: np.asarray(v, dtype=np.float64) for k, v in state.history.items()},
        "train_losses": np.asarray(state.train_losses, dtype=np.float32),
        "step_ms": np.asarray(state.step_ms, dtype=np.float32),
        "wall_seconds": state.wall_seconds,
    }, str(path))


def load_checkpoint(path: Path, keys: set[str] = SAMPLE_KEYS) -> dict:
    """minigrad.load with a clear error when the file is missing, not a checkpoint, or lacks
    one of ``keys`` (or a model setting in its config)."""
    if not path.is_file():
        raise DataError(f"no checkpoint at {path}")
    try:
        ckpt = minigrad.load(str(path))
    except (OSError, ValueError, KeyError, TypeError) as e:  # truncated or foreign file
        raise DataError(f"cannot read checkpoint {path}: {e}") from None
    if not isinstance(ckpt, dict):
        raise DataError(f"{path} is not a train_chars.py checkpoint (not a dict)")
    if "optimizer" in keys and bool(_py(ckpt.get("weights_only", False))):
        raise DataError(f"{path} holds weights only (--save-weights-only), no optimizer "
                        f"state: it cannot continue its run; start a new run from it with "
                        f"--init-from {path}")
    missing = sorted(keys - set(ckpt))
    if not missing and isinstance(ckpt["config"], dict):
        missing = [f"config.{k}" for k in MODEL_KEYS if k not in ckpt["config"]]
    elif not missing:
        missing = ["config (not a dict)"]
    if missing:
        raise DataError(f"{path} is not a complete train_chars.py checkpoint "
                        f"(missing {', '.join(missing)})")
    return ckpt


def model_from_checkpoint(ckpt: dict, path: Path) -> models.GPT:
    """The GPT the checkpoint's config describes, holding its weights; DataError when the
    config cannot build a model or does not fit the stored arrays."""
    cfg = {k: _py(v) for k, v in ckpt["config"].items()}
    try:
        model = build_model(cfg)
        model.load_state_dict(ckpt["model"])
    except (ValueError, KeyError, TypeError) as e:
        raise DataError(f"{path}: its config does not fit its weights: {e}") from None
    return model


def _py(v: Any) -> Any:
    """A loaded scalar (0-d array or Python value) as a plain Python value."""
    if isinstance(v, np.ndarray) and v.ndim == 0:
        return v.item()
    if isinstance(v, np.generic):
        return v.item()
    return v


def restore_state(ckpt: dict) -> RunState:
    """The RunState stored in a checkpoint."""
    s = RunState()
    s.iteration = int(_py(ckpt["iteration"]))
    s.best_val = float(_py(ckpt["best_val_loss"]))
    s.last_eval_iter = int(_py(ckpt["last_eval_iter"]))
    s.history = {k: np.asarray(v).tolist() for k, v in ckpt["history"].items()}
    s.history["iter"] = [int(i) for i in s.history["iter"]]
    s.train_losses = np.asarray(ckpt["train_losses"]).tolist()
    s.step_ms = np.asarray(ckpt["step_ms"]).tolist()
    s.wall_seconds = float(_py(ckpt["wall_seconds"]))
    return s

"""A training run as the loop sees it: what it holds, and what the loop does besides a step.

:class:`Run` is built by ``prepare.prepare_run`` (configuration, data, model, optimizer,
sampler, restored state) and driven by ``loop.train_loop``. Its methods are what the loop
calls outside its steps: the evaluation with its checkpoints, and the two early ends (a
signal, a non-finite loss).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .checkpoint import RunState, save_checkpoint
from .cli import resume_command
from .distributed_run import World
from .evaluate import estimate_loss
from .loop import BatchSampler, learning_rate
from .progress import Progress
from .safety import NonFiniteLoss, check_finite, writing

# Test hook: when this environment variable holds an iteration number, the run sends itself
# SIGINT after that many steps, exercising the real Ctrl-C path at a known place.
INTERRUPT_ENV = "TRAIN_CHARS_INTERRUPT_AT"


@dataclass
class Run:
    """One training run: its configuration, data, model and optimizer, and its progress."""

    args: argparse.Namespace
    explicit: set[str]
    parser: argparse.ArgumentParser
    cfg: dict
    world: World
    threads: int | None
    out_dir: Path
    tokenizer: Any                    # data.CharVocab or tokens.BPETokenizer
    unit: str                         # what one id is: "characters" or "tokens"
    text_sha: str
    n_ids: int                        # ids in the whole text
    train_ids: np.ndarray
    val_ids: np.ndarray
    val_seq: np.ndarray               # the validation split and the last training id before it
    prompt: str
    model: Any
    net: Any                          # the model, or its data-parallel wrapper
    opt: Any
    sampler: BatchSampler
    state: RunState
    saved_at: int | None              # iteration of ckpt_last.npz on disk (None: none yet)
    progress: Progress | None = None
    session_start: float = field(default_factory=time.perf_counter)
    interrupt_at: int = field(default_factory=lambda: int(os.environ.get(INTERRUPT_ENV, "-1")))

    @property
    def max_iters(self) -> int:
        return int(self.cfg["max_iters"])

    @property
    def params(self) -> list:
        return [p for g in self.opt.param_groups for p in g["params"]]

    @property
    def last_path(self) -> Path:
        return self.out_dir / "ckpt_last.npz"

    @property
    def best_path(self) -> Path:
        return self.out_dir / "ckpt_best.npz"

    @property
    def checkpoint_path(self) -> Path:
        """The checkpoint an early stop leaves: ckpt_last.npz, or with --keep-checkpoints
        best, ckpt_best.npz."""
        return self.best_path if self.args.keep_checkpoints == "best" else self.last_path

    @property
    def tokens_per_iter(self) -> int:
        c = self.cfg
        return int(c["batch_size"]) * int(c["block_size"]) * int(c.get("grad_accum", 1))

    def evaluate(self, it: int) -> None:
        """Estimate both losses, log them (metrics.jsonl, a message), checkpoint."""
        est = estimate_loss(self.model, {"train": self.train_ids, "val": self.val_ids},
                            self.cfg, it, self.world)
        check_finite(self.model, est, it)
        row = {"iter": it, "train": est["train"], "val": est["val"], "lr": learning_rate(it, self.cfg)}
        for key, value in row.items():
            self.state.history[key].append(value)
        self.state.last_eval_iter = it
        with writing(self.out_dir / "metrics.jsonl"), \
                open(self.out_dir / "metrics.jsonl" if self.world.is_main else os.devnull,
                     "a") as f:
            f.write(json.dumps(row) + "\n")
        self.progress.message(f"step {it}: train loss {est['train']:.4f}, "
                              f"val loss {est['val']:.4f}")
        keep = self.args.keep_checkpoints
        if est["val"] < self.state.best_val:
            self.state.best_val = est["val"]
            if keep != "last":
                self.checkpoint(self.best_path, est)
                self.saved_at = it if keep == "best" else self.saved_at
        if keep != "best":
            self.checkpoint(self.last_path, est)
            self.saved_at = it

    def checkpoint(self, path: Path, losses: dict[str, float]) -> None:
        """Save the run (rank 0), never with a non-finite loss or weight; this session's
        wall time so far goes into the saved state."""
        check_finite(self.model, losses, self.state.iteration)
        now = time.perf_counter()
        self.state.wall_seconds += now - self.session_start
        self.session_start = now
        if self.world.is_main:
            with writing(path):
                save_checkpoint(path, self.model, self.opt, self.state, self.cfg,
                                self.tokenizer, self.sampler, self.text_sha,
                                weights_only=self.args.save_weights_only)

    def interrupted(self, signum: int) -> int:
        """Save ckpt_last.npz, say how to continue; the exit code 128 + signum. (With
        --keep-checkpoints best nothing is saved: ckpt_best.npz keeps the best so far.)"""
        name = signal.Signals(signum).name
        if self.args.keep_checkpoints == "best":
            self.progress.message(f"interrupted ({name}) at iteration {self.state.iteration}: "
                                  f"nothing saved (--keep-checkpoints best); the best model "
                                  f"so far is in {self.best_path}")
            return 128 + signum
        self.checkpoint(self.last_path, {})
        if self.args.save_weights_only:
            how = f"start a new run from it with --init-from {self.last_path}"
        else:
            how = f"continue with: {resume_command(self.args, self.explicit, self.parser)}"
        self.progress.message(f"interrupted ({name}): saved {self.last_path} at iteration "
                              f"{self.state.iteration}; {how}")
        return 128 + signum

    def failed(self, error: NonFiniteLoss) -> int:
        """Say what became non-finite and which checkpoint is kept; exit code 1."""
        kept = (f"the last good checkpoint {self.checkpoint_path} (iteration {self.saved_at}) "
                f"is kept"
                if self.saved_at is not None else "no checkpoint was written")
        self.progress.message(f"error: {error}; stopping, {kept}. Try a lower --lr or "
                              f"--grad-clip.")
        return 1

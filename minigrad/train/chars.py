"""Train a character-level GPT on Tiny Shakespeare (or any UTF-8 text) with minigrad.

Installed as the console command ``minigrad-train``; ``examples/train_chars.py`` runs the
same ``main``::

    minigrad-train                          # nanoGPT's CPU config, 2000 iterations
    minigrad-train --resume                 # continue the run in out-chars/ exactly
    minigrad-train --sample --prompt "ROMEO:"   # generate, no training
    minigrad-train --text my.txt --max-iters 500 --out-dir out-mine
    minigrad-train --config run.toml        # any flag from a TOML file

The default configuration is nanoGPT's "shakespeare_char on a CPU" one: 4 layers, 4 heads,
128-wide embeddings, 64-character context, batches of 12, no dropout, no biases (nanoGPT's
``bias = False``), output layer tied to the token embedding; AdamW (lr 1e-3,
betas (0.9, 0.99), weight decay 0.1 on matrices only), 100 warmup iterations then a cosine
decay to 1e-4 at iteration 2000, gradients clipped to norm 1.0. nanoGPT (PyTorch) reaches a
validation loss of 1.898 on the full validation split with it.

Each iteration: draw a batch, ``logits, loss = model(x, y)``, ``loss.backward()``, clip the
gradient norm, set the learning rate of every parameter group from the schedule,
``opt.step()``, ``opt.zero_grad()``.

What the losses mean:

- "train loss" / "val loss" in the eval lines are estimates, as nanoGPT's: the mean loss of
  ``--eval-iters`` random batches from each split. Eval batches come from a generator seeded
  by (seed, iteration), not from the training sampler, so evaluating (or not, or more often)
  never changes which batches the training steps see.
- "full val loss" scores every character of the validation split exactly once: the split is
  cut into non-overlapping ``block_size`` windows that start with the last training character
  as context, so inside each window the first target is predicted from 1 character of context,
  the second from 2, ..., the last from ``block_size``; the mean cross-entropy over all
  validation characters (in nats) is reported (shorter contexts make it a little higher than
  the estimates, which always see up to ``block_size`` characters).

Files in ``--out-dir``: ``ckpt_last.npz`` (after every evaluation, at the end and on Ctrl-C
or SIGTERM), ``ckpt_best.npz`` (lowest val-loss estimate so far), ``metrics.jsonl`` (one line
per evaluation, written as the run goes), ``metrics.json`` (at the end) and, with ``--plot``,
``loss_curve.png``. A checkpoint is never written with non-finite weights or losses, and a
new run refuses an ``--out-dir`` that already holds one (``--resume`` or ``--overwrite``). Checkpoints are plain ``.npz`` (no pickle) written atomically by
``minigrad.save``; they hold the model, the optimizer state, the iteration, the config, the
vocabulary and both random generators, so ``--resume`` reproduces the uninterrupted run's
losses exactly.

Exit codes: 0 done, 1 the loss became non-finite, 2 bad arguments, unusable text or
checkpoint (one line, no traceback, before any training), 130 interrupted (Ctrl-C),
143 terminated (SIGTERM).

Helpers beside this file: ``cli.py`` (the flags), ``data.py`` (vocabulary, split, batches,
full-split windows), ``progress.py`` (the progress line).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import math
import os
import shlex
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

import minigrad
from minigrad import models
from minigrad.optim import clip_grad_norm_, cosine_lr

from .cli import (
    FLAG_TO_KEY,
    RESUMABLE_OVERRIDES,
    config_from_args,
    parse_args,
    program_command,
    resume_command,
)
from .data import (
    BatchSampler,
    CharVocab,
    DataError,
    check_split_lengths,
    eval_windows,
    read_text,
    split_ids,
)
from .distributed_run import SINGLE, World, connect
from .progress import Counter, Progress
from .warmup import start_fast_kernels, switch_to_fast

FULL_EVAL_ROWS = 64  # windows per batch when scoring the whole validation split
PLOT_HINT = "--plot needs matplotlib, which is not installed; get it with: pip install matplotlib"
# Files a run writes into --out-dir (--overwrite replaces exactly these).
RUN_FILES = ("ckpt_last.npz", "ckpt_best.npz", "metrics.json", "metrics.jsonl",
             "loss_curve.png")
# What --resume needs besides what --sample needs.
SAMPLE_KEYS = {"model", "config", "vocab"}
RESUME_KEYS = SAMPLE_KEYS | {"optimizer", "iteration", "text_sha256", "rng", "best_val_loss",
                             "last_eval_iter", "history", "train_losses", "step_ms",
                             "wall_seconds"}
MODEL_KEYS = ("vocab_size", "block_size", "n_layer", "n_head", "n_embd", "dropout", "bias",
              "tie_weights")
# Test hook: when this environment variable holds an iteration number, the run sends itself
# SIGINT after that many steps, exercising the real Ctrl-C path at a known place.
INTERRUPT_ENV = "TRAIN_CHARS_INTERRUPT_AT"


# ------------------------------------------------------- resumed config and prompt ------
def resumed_config(saved: dict, args: argparse.Namespace, explicit: set[str],
                   parser: argparse.ArgumentParser) -> dict:
    """The checkpoint's config, with the flags in RESUMABLE_OVERRIDES applied.

    Any other flag given explicitly must agree with the checkpoint: a resumed run continues
    the same experiment, so silently ignoring (or applying) a changed value would mislead.
    """
    cfg = {k: _py(v) for k, v in saved.items()}
    given = config_from_args(args)
    for flag in sorted(explicit):
        key = FLAG_TO_KEY.get(flag, flag)
        if key in cfg and key not in RESUMABLE_OVERRIDES and given[key] != cfg[key]:
            parser.error(
                f"--{flag.replace('_', '-')} {getattr(args, flag)} differs from the "
                f"checkpoint's {key}={cfg[key]}; a resumed run keeps its configuration "
                f"(start a new run in another --out-dir to change it)")
    for key in RESUMABLE_OVERRIDES & explicit:
        cfg[key] = given[key]
    return cfg


def resolve_prompt(prompt: str, vocab: CharVocab, explicit: set[str],
                   parser: argparse.ArgumentParser) -> str:
    """The prompt to sample from: unknown characters are an error, except that the default
    prompt (a newline) falls back to the first vocabulary character for texts without one."""
    missing = vocab.unknown(prompt)
    if missing and "prompt" not in explicit:
        return vocab.chars[0]
    if missing:
        shown = ", ".join(repr(c) for c in missing[:10])
        parser.error(f"--prompt has characters not in the vocabulary: {shown} "
                     f"(the vocabulary is {vocab.chars!r})")
    return prompt


# ------------------------------------------------------------------ model ---------------
def build_model(cfg: dict) -> models.GPT:
    """A float32 GPT of the configuration ``cfg`` (weights from minigrad's global generator)."""
    return models.GPT(
        vocab_size=int(cfg["vocab_size"]), block_size=int(cfg["block_size"]),
        n_layer=int(cfg["n_layer"]), n_head=int(cfg["n_head"]), n_embd=int(cfg["n_embd"]),
        dropout=float(cfg["dropout"]), bias=bool(cfg["bias"]),
        tie_weights=bool(cfg["tie_weights"]),
    )


def model_arrays(model) -> dict[str, np.ndarray]:
    """The model's state_dict as plain ndarrays (what a checkpoint stores)."""
    return {k: np.array(getattr(v, "data", v)) for k, v in model.state_dict().items()}


def estimate_loss(model, splits: dict[str, np.ndarray], cfg: dict, it: int,
                  world: World = SINGLE) -> dict[str, float]:
    """Mean loss over ``eval_iters`` random batches of each split, in eval mode (each rank
    of a data-parallel run scores its rows of each batch; the means are averaged).

    The batches come from a generator seeded by (seed, it): the same iteration always gets
    the same eval batches, and the training sampler is left untouched.
    """
    model.eval()
    out = {}
    with minigrad.no_grad():
        for k, (name, data) in enumerate(splits.items()):
            sampler = BatchSampler(data, int(cfg["batch_size"]), int(cfg["block_size"]),
                                   seed=hash_seed(int(cfg["seed"]), it, k))
            losses = [model(*world.split(sampler.sample()))[1].item()
                      for _ in range(int(cfg["eval_iters"]))]
            out[name] = world.mean(float(np.mean(losses)))
    model.train()
    return out


def hash_seed(*parts: int) -> int:
    """A 63-bit seed derived from integers (stable across processes, unlike hash())."""
    digest = hashlib.sha256(",".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


def full_split_loss(model, seq: np.ndarray, block_size: int) -> tuple[float, int]:
    """(mean loss over every target of ``seq[1:]``, number of targets); see eval_windows."""
    model.eval()
    total, count = 0.0, 0
    with minigrad.no_grad():
        for x, y in eval_windows(seq, block_size, FULL_EVAL_ROWS):
            loss = model(x, y)[1].item()  # mean over the x.size targets of this batch
            total += loss * y.size
            count += y.size
    model.train()
    return total / count, count


# -------------------------------------------------------------- checkpoints -------------
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


def save_checkpoint(path: Path, model, opt, state: RunState, cfg: dict, vocab: CharVocab,
                    sampler: BatchSampler, text_sha: str) -> None:
    """Write a complete, resumable checkpoint atomically (minigrad.save, plain .npz)."""
    minigrad.save({
        "model": model_arrays(model),
        "optimizer": opt.state_dict(),
        "iteration": state.iteration,
        "config": cfg,
        "vocab": vocab.chars,
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


# ---------------------------------------------------------------- training --------------
class NonFiniteLoss(RuntimeError):
    """The loss or the gradient norm became NaN or infinite."""


class StopFlag:
    """SIGINT/SIGTERM handler: the first signal asks the loop to stop at the next safe point
    (after a whole step, so the saved state is consistent) and records which signal it was;
    a second one interrupts at once. SIGTERM is what job schedulers and ``docker stop``
    send, so it saves exactly as Ctrl-C does."""

    def __init__(self) -> None:
        self.signum: int | None = None

    def __call__(self, signum, frame) -> None:
        if self.signum is not None:
            raise KeyboardInterrupt
        self.signum = signum


def train_step(model, opt, params: list, sampler: BatchSampler, lr: float, grad_clip: float,
               it: int, world: World = SINGLE) -> float:
    """One optimizer step on a fresh batch: forward, backward, clip, AdamW; returns the loss
    (in a data-parallel run: this rank's rows, gradients and loss averaged over the ranks).

    Raises NonFiniteLoss (before any parameter changes) if the loss or the gradient norm
    is not finite.
    """
    x, y = world.split(sampler.sample())
    _, loss = model(minigrad.tensor(x), minigrad.tensor(y))
    loss_value = world.mean(loss.item())
    if not math.isfinite(loss_value):
        raise NonFiniteLoss(f"the loss became {loss_value} at iteration {it + 1}")
    loss.backward()
    world.finish_gradients(model)
    if grad_clip > 0:
        norm = float(clip_grad_norm_(params, grad_clip))
        if not math.isfinite(norm):
            raise NonFiniteLoss(f"the gradient norm became {norm} at iteration {it + 1}")
    for group in opt.param_groups:
        group["lr"] = lr
    opt.step()
    opt.zero_grad()
    return loss_value


def profile_steps(model, opt, params: list, sampler: BatchSampler, cfg: dict, n: int) -> None:
    """Run one warm-up step (Numba loads its kernels), then profile ``n`` training steps
    and print the per-op table (minigrad.profile). Nothing is saved."""
    grad_clip = float(cfg["grad_clip"])
    train_step(model, opt, params, sampler, float(cfg["lr"]), grad_clip, 0)
    with minigrad.profile() as prof:
        for it in range(1, n + 1):
            train_step(model, opt, params, sampler, float(cfg["lr"]), grad_clip, it)
    per_step = prof.wall_s / n * 1000.0
    print(f"profiled {n} training steps after 1 warm-up step: {per_step:.1f} ms/step")
    print(prof.table())


def check_out_dir(out_dir: Path, args: argparse.Namespace,
                  parser: argparse.ArgumentParser) -> None:
    """Usage errors about --out-dir, before anything is written: it must be (or become) a
    directory, and a new run must not silently replace a run already saved there."""
    if out_dir.exists() and not out_dir.is_dir():
        parser.error(f"--out-dir {out_dir} is a file, not a directory")
    if args.resume or args.profile:
        return
    found = [name for name in RUN_FILES[:2] if (out_dir / name).exists()]
    if found and not args.overwrite:
        parser.error(f"--out-dir {out_dir} already holds a run ({', '.join(found)}): continue "
                     f"it with --resume, choose another --out-dir, or pass --overwrite")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        parser.error(f"--out-dir {out_dir}: cannot create it: {e.strerror or e}")
    if args.overwrite:
        for name in RUN_FILES:
            (out_dir / name).unlink(missing_ok=True)


def run_is_finished(out_dir: Path, done: int, max_iters: int, last_eval_iter: int) -> bool:
    """Whether the run in ``out_dir`` has nothing left to do: all ``max_iters`` steps done,
    the last one evaluated, and metrics.json written for it (the full-split score, which
    comes just before the sample). A run stopped between its last step and metrics.json
    still has its report to finish, which --resume does."""
    if done < max_iters or last_eval_iter != done:
        return False
    try:
        with open(out_dir / "metrics.json") as f:
            return json.load(f).get("iterations") == done
    except (OSError, ValueError, AttributeError):
        return False


def check_plot_available(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """--plot needs matplotlib: say so before training, not after it."""
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            parser.error(PLOT_HINT)


def check_finite(model, losses: dict[str, float], it: int) -> None:
    """Raise NonFiniteLoss when a loss or any weight is NaN or infinite, so that no such
    state is ever written as a checkpoint."""
    for name, value in losses.items():
        if not math.isfinite(value):
            raise NonFiniteLoss(f"the {name} loss estimate became {value} at iteration {it}")
    for name, arr in model_arrays(model).items():
        if not np.isfinite(arr).all():
            raise NonFiniteLoss(f"the weights {name} became non-finite by iteration {it}")


def train(args: argparse.Namespace, explicit: set[str], parser: argparse.ArgumentParser) -> int:
    """Train (or resume) a run; returns the exit code."""
    out_dir = Path(args.out_dir)
    last_path, best_path = out_dir / "ckpt_last.npz", out_dir / "ckpt_best.npz"

    # --- configuration and data: every problem here is a usage error (exit code 2) -------
    check_plot_available(args, parser)
    ckpt = None
    if args.resume:
        try:
            ckpt = load_checkpoint(last_path, RESUME_KEYS)
        except DataError as e:
            parser.error(f"--resume: {e}")
        cfg = resumed_config(ckpt["config"], args, explicit, parser)
        done = int(_py(ckpt["iteration"]))
        if cfg["max_iters"] < done:
            parser.error(f"--max-iters {cfg['max_iters']} is below the {done} iterations the "
                         f"checkpoint has already done")
        if run_is_finished(out_dir, done, cfg["max_iters"], int(_py(ckpt["last_eval_iter"]))):
            parser.error(f"--resume: the run in {out_dir} is finished ({done} of --max-iters "
                         f"{cfg['max_iters']} iterations done and scored): nothing left to "
                         f"train. To train it further, give a larger --max-iters: "
                         f"{resume_command(args, explicit, parser, '--max-iters', str(2 * done))}")
    else:
        cfg = config_from_args(args)
    try:
        world, threads = connect(int(cfg["batch_size"]), args.threads)
    except ValueError as e:
        parser.error(f"--batch-size: {e}")
    if world.size > 1:  # every rank must run the same kernels: no reference-backend start
        args.compile = "wait"
    try:
        text = read_text(cfg["text"])
        check_split_lengths(len(text), float(cfg["val_fraction"]), int(cfg["block_size"]))
    except DataError as e:
        parser.error(str(e))
    text_sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    vocab = CharVocab.from_text(text)
    if ckpt is None:
        cfg["vocab_size"] = len(vocab)
    elif str(_py(ckpt["text_sha256"])) != text_sha:
        parser.error(f"--resume: {cfg['text']} changed since the checkpoint was written; "
                     f"an exact resume needs the same text")
    prompt = resolve_prompt(args.prompt, vocab, explicit, parser)

    ids = vocab.encode(text)
    train_ids, val_ids = split_ids(ids, float(cfg["val_fraction"]))
    # The full-split evaluation starts one character early so that the first validation
    # character is scored too (predicted from the last training character).
    val_seq = ids[len(train_ids) - 1:]

    # --- model, optimizer, sampler: fresh from the seed, or restored ----------------------
    minigrad.manual_seed(int(cfg["seed"]))
    if ckpt is not None:
        try:
            model = model_from_checkpoint(ckpt, last_path)
        except DataError as e:
            parser.error(f"--resume: {e}")
    else:
        model = build_model(cfg)
    opt = model.configure_optimizers(
        weight_decay=float(cfg["weight_decay"]), learning_rate=float(cfg["lr"]),
        betas=(float(cfg["beta1"]), float(cfg["beta2"])),
    )
    sampler = BatchSampler(train_ids, int(cfg["batch_size"]), int(cfg["block_size"]),
                           seed=hash_seed(int(cfg["seed"]), -1))
    state = RunState()
    if ckpt is not None:
        try:
            opt.load_state_dict(ckpt["optimizer"])
            minigrad.set_rng_state(ckpt["rng"]["minigrad"])
            sampler.set_state(ckpt["rng"]["batches"])
            state = restore_state(ckpt)
        except (ValueError, KeyError, TypeError, IndexError) as e:
            parser.error(f"--resume: {last_path} holds an unusable training state: {e}")
        del ckpt
    saved_at = state.iteration if args.resume else None  # iteration of ckpt_last on disk
    check_out_dir(out_dir, args, parser)
    net = world.wrap(model)  # a collective: no rank writes before every rank has checked

    max_iters = int(cfg["max_iters"])
    tokens_per_iter = int(cfg["batch_size"]) * int(cfg["block_size"])
    params = [p for g in opt.param_groups for p in g["params"]]
    n_params = model.num_parameters()
    print(f"text: {cfg['text']} ({len(text):,} characters, vocabulary of {len(vocab)})")
    if len(vocab) == 1:
        print(f"warning: the text has a single distinct character ({vocab.chars!r}): the "
              f"model can only learn to repeat it", file=sys.stderr)
    print(f"train/val: {len(train_ids):,}/{len(val_ids):,} characters")
    print(f"model: {n_params:,} parameters | n_layer {cfg['n_layer']} n_head {cfg['n_head']} "
          f"n_embd {cfg['n_embd']} block_size {cfg['block_size']} | "
          f"batch {cfg['batch_size']} ({tokens_per_iter} tokens/step)")
    if world.size > 1:
        print(f"data parallel: {world.size} ranks, {int(cfg['batch_size']) // world.size} rows "
              f"each, {threads} threads per rank")
    if args.resume:
        print(f"resuming from {last_path} at iteration {state.iteration}")
    compiling = None
    if minigrad.get_backend() == "fast":
        compiling = start_fast_kernels(cfg, "wait" if args.profile else args.compile)
    if args.profile:
        profile_steps(model, opt, params, sampler, cfg, args.profile)
        return 0

    progress = Progress(max_iters, plain_every=cfg["log_interval"])
    splits = {"train": train_ids, "val": val_ids}
    interrupt_at = int(os.environ.get(INTERRUPT_ENV, "-1"))
    jsonl_path = out_dir / "metrics.jsonl"
    # The eval history so far (none for a new run): the file always matches the checkpoint.
    with open(jsonl_path if world.is_main else os.devnull, "w") as f:
        f.writelines(json.dumps(dict(zip(state.history, row))) + "\n"
                     for row in zip(*state.history.values()))

    def lr_at(it: int) -> float:
        return cosine_lr(it, float(cfg["lr"]), int(cfg["warmup_iters"]),
                         int(cfg["lr_decay_iters"]), float(cfg["min_lr"]))

    session_start = time.perf_counter()

    def checkpoint(path: Path, losses: dict[str, float]) -> None:
        nonlocal session_start
        check_finite(model, losses, state.iteration)
        now = time.perf_counter()  # bank this session's wall time into the saved state
        state.wall_seconds += now - session_start
        session_start = now
        if world.is_main:
            save_checkpoint(path, model, opt, state, cfg, vocab, sampler, text_sha)

    # --- the loop --------------------------------------------------------------------------
    stop = StopFlag()
    reference_iters = 0  # iterations run on the reference backend while kernels compiled
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        while True:
            it = state.iteration
            if compiling is not None and (compiling.finished() or it >= max_iters):
                switch_to_fast(compiling, cfg, progress.message)  # waits if the run is done
                compiling = None
            signum = world.agreed_signal(stop.signum)  # every rank stops at the same step
            if signum is not None:
                checkpoint(last_path, {})
                name = signal.Signals(signum).name
                progress.message(f"interrupted ({name}): saved {last_path} at iteration {it}; "
                                 f"continue with: {resume_command(args, explicit, parser)}")
                return 128 + signum
            due = it % int(cfg["eval_interval"]) == 0 or it == max_iters
            if due and it != state.last_eval_iter:
                est = estimate_loss(model, splits, cfg, it, world)
                check_finite(model, est, it)
                row = {"iter": it, "train": est["train"], "val": est["val"], "lr": lr_at(it)}
                for key, value in row.items():
                    state.history[key].append(value)
                state.last_eval_iter = it
                with open(jsonl_path if world.is_main else os.devnull, "a") as f:
                    f.write(json.dumps(row) + "\n")
                progress.message(f"step {it}: train loss {est['train']:.4f}, "
                                 f"val loss {est['val']:.4f}")
                if est["val"] < state.best_val:
                    state.best_val = est["val"]
                    checkpoint(best_path, est)
                checkpoint(last_path, est)
                saved_at = it
            if it >= max_iters:
                break

            t0 = time.perf_counter()
            lr = lr_at(it)
            loss_value = train_step(net, opt, params, sampler, lr, float(cfg["grad_clip"]), it,
                                    world)
            step_seconds = time.perf_counter() - t0
            reference_iters += compiling is not None

            state.iteration = it + 1
            state.train_losses.append(loss_value)
            state.step_ms.append(step_seconds * 1000.0)
            progress.record_time(step_seconds)
            progress.update(state.iteration, loss_value, lr)
            if state.iteration == interrupt_at:
                os.kill(os.getpid(), signal.SIGINT)
    except NonFiniteLoss as e:
        kept = (f"the last good checkpoint {last_path} (iteration {saved_at}) is kept"
                if saved_at is not None else "no checkpoint was written")
        progress.message(f"error: {e}; stopping, {kept}. Try a lower --lr or --grad-clip.")
        return 1
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if compiling is not None:  # the run stopped early
            compiling.stop()

    # --- report ------------------------------------------------------------------------------
    progress.clear()
    if not world.is_main:
        return 0
    print(f"scoring the full validation split ({len(val_seq) - 1:,} characters)...", flush=True)
    full_val, n_scored = full_split_loss(model, val_seq, int(cfg["block_size"]))
    print(f"full val loss: {full_val:.4f} ({n_scored:,} characters, each scored once)")
    metrics = write_metrics(out_dir, cfg, state, full_val, n_scored, n_params, tokens_per_iter,
                            reference_iters, world.describe(int(cfg["batch_size"]), threads))
    print(f"{metrics['iterations']} iterations in {metrics['wall_seconds']:.1f} s "
          f"({metrics['median_ms_per_iter']:.1f} ms/iter median, "
          f"{metrics['tokens_per_s']:,.0f} tokens/s); metrics in {out_dir / 'metrics.json'}")
    best_iter = state.history["iter"][state.history["val"].index(state.best_val)]
    print(f"checkpoints: {last_path} (iteration {state.iteration}), {best_path} "
          f"(iteration {best_iter}, val loss {state.best_val:.4f})")
    sample_words = ["--sample"] + (["--out-dir", args.out_dir]
                                   if args.out_dir != parser.get_default("out_dir") else [])
    print(f"train further with: "
          f"{resume_command(args, explicit, parser, '--max-iters', str(2 * state.iteration))}")
    print(f"sample with: {program_command()} {' '.join(map(shlex.quote, sample_words))}")
    if args.plot:
        plot_losses(out_dir, metrics)
    counter = Counter(f"sampling {args.max_new_tokens} characters", args.max_new_tokens)
    text = generate_text(model, vocab, prompt, args.max_new_tokens, args.temperature,
                         args.top_k, report=counter.update)
    counter.done()
    print(text)
    return 0


def write_metrics(out_dir: Path, cfg: dict, state: RunState, full_val: float, n_scored: int,
                  n_params: int, tokens_per_iter: int, reference_iters: int,
                  ran_on: dict | None = None) -> dict:
    """Write metrics.json (config, final losses, speed, eval history) and return it.
    ``ran_on``: how the run ran (world size, rows per rank, threads: distributed_run.py)
    ``reference_iters``: iterations of this session that ran on the reference backend while
    the fast kernels compiled in the background."""
    step_ms = np.asarray(state.step_ms, dtype=np.float64)
    train_seconds = float(step_ms.sum() / 1000.0)
    last = {k: v[-1] for k, v in state.history.items()} if state.history["iter"] else {}
    metrics = {
        "config": cfg,
        "num_parameters": int(n_params),
        "iterations": state.iteration,
        "final_train_loss": last.get("train"),
        "final_val_loss": last.get("val"),
        "best_val_loss": state.best_val,
        "full_val_loss": full_val,
        "full_val_characters": n_scored,
        "wall_seconds": state.wall_seconds,
        "train_seconds": train_seconds,
        "median_ms_per_iter": float(np.median(step_ms)) if step_ms.size else None,
        "reference_backend_iters": reference_iters,
        **(ran_on or SINGLE.describe(int(cfg["batch_size"]), None)),
        # steady-state speed: from the median step, so one-time costs (kernel compilation
        # in the first step of a session) do not distort it
        "tokens_per_s": (tokens_per_iter * 1000.0 / float(np.median(step_ms))
                         if step_ms.size else None),
        "history": state.history,
        "train_loss_per_iter": [round(v, 5) for v in state.train_losses],
    }
    with open(out_dir / "metrics.json", "w") as f:
        json.dump(metrics, f, indent=1)
    return metrics


def plot_losses(out_dir: Path, metrics: dict) -> None:
    """loss_curve.png: per-step training loss (faint), train/val estimates (markers)."""
    import matplotlib  # present: checked before training (check_plot_available)

    matplotlib.use("Agg")  # files only, no display needed
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    steps = np.arange(1, len(metrics["train_loss_per_iter"]) + 1)
    ax.plot(steps, metrics["train_loss_per_iter"], color="0.8", lw=0.8, label="train (step)")
    h = metrics["history"]
    ax.plot(h["iter"], h["train"], "o-", label="train (estimate)")
    ax.plot(h["iter"], h["val"], "s-", label="val (estimate)")
    ax.set_xlabel("iteration")
    ax.set_ylabel("cross-entropy (nats/char)")
    ax.set_title(f"full val loss {metrics['full_val_loss']:.4f}")
    ax.legend()
    fig.tight_layout()
    path = out_dir / "loss_curve.png"
    fig.savefig(path, dpi=120)
    plt.close(fig)
    print(f"loss curve: {path}")


# ---------------------------------------------------------------- sampling --------------
# Characters per model.generate call when sampling: the step of the progress count.
SAMPLE_CHUNK = 25


@contextlib.contextmanager
def one_thread() -> Iterator[None]:
    """Run the fast backend's kernels on the calling thread alone, restoring the thread
    count afterwards (numba.set_num_threads is per Python thread; nothing changes on the
    reference backend, which has no kernel threads).

    Why sampling wants it: decoding one sequence is tens of thousands of tiny kernel calls
    (about sixty per character), each a few microseconds of work. Sharing such a call over
    two threads gains little on an idle machine, but when other processes hold the cores
    every call waits until its second thread is scheduled again. Measured on this 2-core
    machine while other jobs ran (2026-11-25, 50 characters past the context window, a
    full-block forward each): 23.4 s on two threads, 0.6 s on one.
    """
    if minigrad.get_backend() != "fast":
        yield
        return
    import numba  # loaded already: the fast backend's kernels are Numba's

    before = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(before)


def generate_text(model, vocab: CharVocab, prompt: str, max_new_tokens: int,
                  temperature: float, top_k: int | None,
                  report: Callable[[int], None] | None = None) -> str:
    """``prompt`` followed by ``max_new_tokens`` sampled characters.

    ``model.generate`` (a key/value cache while the text fits the context window, a full
    window's forward per character after it) runs in chunks of SAMPLE_CHUNK characters, each
    continuing everything drawn so far, on one thread (:func:`one_thread`); ``report(n)``
    is called after each chunk with the number of characters drawn so far.
    """
    ids = vocab.encode(prompt)[None, :]
    if top_k is not None:
        top_k = min(top_k, len(vocab))
    model.eval()
    with minigrad.no_grad(), one_thread():
        for done in range(0, max_new_tokens, SAMPLE_CHUNK):
            new = min(SAMPLE_CHUNK, max_new_tokens - done)
            out = model.generate(ids, new, temperature=temperature, top_k=top_k)
            ids = np.asarray(getattr(out, "data", out))
            if report is not None:
                report(done + new)
    return vocab.decode(ids[0])


def sample(args: argparse.Namespace, explicit: set[str],
           parser: argparse.ArgumentParser) -> int:
    """--sample: generate from a checkpoint without training."""
    if args.checkpoint in ("best", "last"):
        path = Path(args.out_dir) / f"ckpt_{args.checkpoint}.npz"
    else:
        path = Path(args.checkpoint)
    try:
        ckpt = load_checkpoint(path)
    except DataError as e:
        parser.error(f"--sample: {e} (train first, or pass --checkpoint PATH)")
    vocab = CharVocab(str(_py(ckpt["vocab"])))
    prompt = resolve_prompt(args.prompt, vocab, explicit, parser)
    minigrad.manual_seed(args.seed)
    try:
        model = model_from_checkpoint(ckpt, path)
    except DataError as e:
        parser.error(f"--sample: {e}")
    print(f"sampling from {path} (iteration {_py(ckpt.get('iteration', '?'))})")
    for i in range(args.num_samples):
        if i:
            print("-" * 40)
        # a count on a terminal only: in a log the samples follow the header line directly
        counter = (Counter(f"sample {i + 1}/{args.num_samples}", args.max_new_tokens)
                   if sys.stdout.isatty() else None)
        text = generate_text(model, vocab, prompt, args.max_new_tokens, args.temperature,
                             args.top_k, report=counter and counter.update)
        if counter is not None:
            counter.done()
        print(text)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args, explicit, parser = parse_args(argv)
    if args.backend is not None:
        minigrad.set_backend(args.backend)
    try:
        if args.sample:
            return sample(args, explicit, parser)
        return train(args, explicit, parser)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

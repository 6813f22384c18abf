"""Train a GPT with minigrad: characters of Tiny Shakespeare by default, or BPE text, from
scratch or fine-tuning a pretrained GPT-2.

Installed as the console command ``minigrad-train``; ``examples/train_chars.py`` runs the
same ``main``::

    minigrad-train                          # nanoGPT's CPU config, 2000 iterations
    minigrad-train --resume                 # continue the run in out-chars/ exactly
    minigrad-train --sample --prompt "ROMEO:"   # generate, no training
    minigrad-train --text my.txt --max-iters 500 --out-dir out-mine
    minigrad-train --config run.toml        # any flag from a TOML file
    minigrad-train --init-from gpt2 --block-size 256 --batch-size 4 --grad-accum 8 \\
        --out-dir out-gpt2                  # fine-tune GPT-2 on Tiny Shakespeare (docs/finetune.md)

The default configuration is nanoGPT's "shakespeare_char on a CPU" one: 4 layers, 4 heads,
128-wide embeddings, 64-character context, batches of 12, no dropout, no biases (nanoGPT's
``bias = False``), output layer tied to the token embedding; AdamW (lr 1e-3,
betas (0.9, 0.99), weight decay 0.1 on matrices only), 100 warmup iterations then a cosine
decay to 1e-4 at iteration 2000, gradients clipped to norm 1.0. nanoGPT (PyTorch) reaches a
validation loss of 1.898 on the full validation split with it.

Each iteration (``loop.py``, the one file to read for it): evaluate and checkpoint when
due, then one step: ``--grad-accum`` micro-batches, each ``_, loss = model(x, y,
return_logits=False)`` and ``loss.backward()``, clip the gradient norm, set the learning
rate from the schedule, ``opt.step()``, ``opt.zero_grad()``.

What the losses mean:

- "train loss" / "val loss" in the eval lines are estimates, as nanoGPT's: the mean loss of
  ``--eval-iters`` random batches from each split. Eval batches come from a generator seeded
  by (seed, iteration), not from the training sampler, so evaluating (or not, or more often)
  never changes which batches the training steps see.
- "full val loss" scores every character (token) of the validation split exactly once: the
  split is cut into non-overlapping ``block_size`` windows that start with the last training
  id as context, so inside each window the first target is predicted from 1 id of context,
  the second from 2, ..., the last from ``block_size``; the mean cross-entropy over all
  validation ids (in nats) is reported (shorter contexts make it a little higher than the
  estimates, which always see up to ``block_size`` ids).

Files in ``--out-dir``: ``ckpt_last.npz`` (after every evaluation, at the end and on Ctrl-C
or SIGTERM), ``ckpt_best.npz`` (lowest val-loss estimate so far), ``metrics.jsonl`` (one line
per evaluation, written as the run goes), ``metrics.json`` (at the end), with ``--plot``
``loss_curve.png``, and for BPE text ``tokens.bin`` + ``tokens.json`` (the text encoded once,
re-used while it is unchanged and checks out). A checkpoint is never written with
non-finite weights or losses. Every usage check runs before the first file is written or
deleted. A new run refuses an ``--out-dir`` given explicitly that already holds one
(``--resume`` or ``--overwrite``); in the default ``out-chars/`` the run found there moves
into ``out-chars/previous-N/`` and a new one starts, so the first command can be run again.
``--keep-checkpoints last|best``, ``--save-weights-only`` and ``--no-final-eval`` save disk
and time (docs/finetune.md). Checkpoints are plain ``.npz`` (no pickle) written atomically by
``minigrad.save``; they hold the model, the optimizer state, the iteration, the config, the
tokenizer and both random generators, so ``--resume`` reproduces the uninterrupted run's
losses exactly. ``minigrad-sample`` samples from them, ``minigrad-export`` writes them as a
Hugging Face GPT-2 directory.

Exit codes: 0 done, 1 the loss became non-finite, 2 bad arguments, unusable text or
checkpoint (one line, no traceback, before any training), or a file that cannot be written
(full disk, read-only directory) or memory that runs out during the run (one line naming
it and the checkpoint kept), 130 interrupted (Ctrl-C), 143 terminated (SIGTERM).

On a cold Numba cache the fast kernels compile in a background process while the reference
code answers for each (``minigrad.cold_start``, the library's one mechanism);
``--compile wait`` compiles them in this process instead, so that a run is bit-for-bit
repeatable from the first one.

This file is the command: :func:`main` parses the flags and trains (or samples). The pieces,
each in a file named for what it holds: ``cli.py`` (the flags), ``prepare.py`` (setting a
run up), ``loop.py`` (the training loop and everything it calls each iteration: batches,
the step, the schedule), ``run.py`` (the :class:`Run` the loop drives: evaluation,
checkpoints, early ends), ``evaluate.py`` (loss estimates, full-split score),
``checkpoint.py``, ``safety.py`` (refused out-dirs, signals, non-finite values),
``report.py`` (metrics.json, plot, summary), ``generation.py`` (sampling), ``data.py``
(characters, split), ``tokens.py`` (BPE and token files), ``pretrained.py``
(``--init-from``), ``distributed_run.py`` (``mpiexec``), ``progress.py``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import minigrad

from .checkpoint import (
    RESUME_KEYS,
    RunState,
    _py,
    build_model,
    load_checkpoint,
    model_arrays,
    model_from_checkpoint,
)
from .cli import config_from_args, parse_args
from .distributed_run import join_launched_ranks
from .evaluate import estimate_loss, full_split_loss, hash_seed
from .generation import SAMPLE_CHUNK, generate_text, one_thread
from .loop import profile_steps, train_loop, train_step
from .prepare import prepare_run, resumed_config
from .report import finish_run, write_metrics
from .run import INTERRUPT_ENV, Run
from .safety import DiskError, NonFiniteLoss, check_finite
from .sample import sample_run

# The trainer's pieces a script or a test reaches for, importable from the command's module.
__all__ = ["INTERRUPT_ENV", "RESUME_KEYS", "SAMPLE_CHUNK", "NonFiniteLoss", "Run", "RunState",
           "_py", "build_model", "check_finite", "config_from_args", "estimate_loss",
           "full_split_loss", "generate_text", "hash_seed", "load_checkpoint", "main",
           "model_arrays", "model_from_checkpoint", "one_thread", "parse_args",
           "resumed_config", "train", "train_loop", "train_step", "write_metrics"]


def train(args: argparse.Namespace, explicit: set[str], parser: argparse.ArgumentParser) -> int:
    """Train (or resume, or --profile) a run; returns the exit code."""
    run = None
    try:
        run = prepare_run(args, explicit, parser)  # every usage error is raised in here
        if args.profile:
            profile_steps(run.model, run.opt, run.params, run.sampler, run.cfg, args.profile)
            return 0
        stopped = train_loop(run)
        return finish_run(run) if stopped is None else stopped
    except DiskError as e:  # a full disk, a read-only directory: nothing saved is lost
        parser.error(f"{e}{kept_checkpoint(run)}")
    except MemoryError:
        if run is None:
            parser.error("out of memory while setting the run up: try a smaller --block-size, "
                         "--batch-size or model")
        cfg = run.cfg
        parser.error(f"out of memory with --block-size {cfg['block_size']}, --batch-size "
                     f"{cfg['batch_size']} and {cfg['n_layer']} layers of width "
                     f"{cfg['n_embd']}: try a smaller one{kept_checkpoint(run)}")


def kept_checkpoint(run: Run | None) -> str:
    """What an early stop leaves on disk: '' before training, else which checkpoint is kept."""
    if run is None or run.progress is None:
        return ""
    if run.saved_at is None:
        return f"; stopped at iteration {run.state.iteration}, no checkpoint was written"
    return (f"; stopped at iteration {run.state.iteration}, the last checkpoint "
            f"{run.checkpoint_path} (iteration {run.saved_at}) is kept")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    join_launched_ranks()  # under mpiexec: before any check, so that any rank's exit stops all
    args, explicit, parser = parse_args(argv)
    if args.backend is not None:
        minigrad.set_backend(args.backend)
    try:
        if args.sample:
            return sample_run(args, explicit, parser)
        return train(args, explicit, parser)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

"""The end of a run: the full validation score, metrics.json, the summary lines, the loss
curve (``--plot``) and a sample."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import numpy as np

from minigrad import cold_start

from .checkpoint import RunState
from .cli import program_command, resume_command
from .distributed_run import SINGLE
from .evaluate import full_split_loss
from .generation import generate_text
from .progress import Counter
from .run import Run
from .safety import writing


def finish_run(run: Run) -> int:
    """Score the full validation split, write metrics.json, print the summary, the commands
    to go on, the plot and a sample (rank 0 only); returns the exit code 0."""
    run.progress.clear()
    wait_for_background_compile()  # the score below runs on the fast kernels
    if not run.world.is_main:
        return 0
    cfg, state, args = run.cfg, run.state, run.args
    if args.final_eval:
        print(f"scoring the full validation split ({len(run.val_seq) - 1:,} {run.unit})...",
              flush=True)
        full_val, n_scored = full_split_loss(run.model, run.val_seq, int(cfg["block_size"]))
        print(f"full val loss: {full_val:.4f} ({n_scored:,} {run.unit}, each scored once)")
    else:
        full_val, n_scored = None, 0
        print("full validation split not scored (--no-final-eval)")
    metrics = write_metrics(run.out_dir, cfg, state, full_val, n_scored,
                            run.model.num_parameters(), run.tokens_per_iter,
                            cold_start.reference_answers(),
                            run.world.describe(int(cfg["batch_size"]), run.threads))
    print(f"{metrics['iterations']} iterations in {metrics['wall_seconds']:.1f} s "
          f"({metrics['median_ms_per_iter']:.1f} ms/iter median, "
          f"{metrics['tokens_per_s']:,.0f} tokens/s); metrics in {run.out_dir / 'metrics.json'}")
    best_iter = state.history["iter"][state.history["val"].index(state.best_val)]
    saved = {"last": f"{run.last_path} (iteration {state.iteration})",
             "best": f"{run.best_path} (iteration {best_iter}, val loss {state.best_val:.4f})"}
    print("checkpoints: " + ", ".join(v for k, v in saved.items()
                                      if args.keep_checkpoints in ("both", k))
          + (" (weights only)" if args.save_weights_only else ""))
    sample_words = ["--sample"] + (["--out-dir", args.out_dir]
                                   if args.out_dir != run.parser.get_default("out_dir") else [])
    if args.keep_checkpoints == "best" or args.save_weights_only:  # nothing to --resume
        print(f"train further from it with: {program_command()} --init-from "
              f"{shlex.quote(str(run.checkpoint_path))} --out-dir NEW_DIR")
    else:
        more = resume_command(args, run.explicit, run.parser, "--max-iters",
                              str(2 * state.iteration))
        print(f"train further with: {more}")
    print(f"sample with: {program_command()} {' '.join(map(shlex.quote, sample_words))}")
    if args.plot:
        plot_losses(run.out_dir, metrics)
    counter = Counter(f"sampling {args.max_new_tokens} {run.unit}", args.max_new_tokens)
    text = generate_text(run.model, run.tokenizer, run.prompt, args.max_new_tokens,
                         args.temperature, args.top_k, report=counter.update)
    counter.done()
    print(text)
    wait_for_background_compile()  # sampling's own kernels (batch 1, the key/value cache)
    return 0


def wait_for_background_compile() -> None:
    """Let the kernels still compiling in the background finish, saying so, so that what
    follows and the next runs find them cached (nothing happens on a warm cache)."""
    if cold_start.compiling():
        print("waiting for the fast kernels compiling in the background (first run with this "
              "Numba cache; the next runs find them cached)...", flush=True)
        cold_start.wait_for_kernels()


def write_metrics(out_dir: Path, cfg: dict, state: RunState, full_val: float | None,
                  n_scored: int,
                  n_params: int, tokens_per_iter: int, reference_answers: int,
                  ran_on: dict | None = None) -> dict:
    """Write metrics.json (config, final losses, speed, eval history) and return it.
    ``ran_on``: how the run ran (world size, rows per rank, threads: distributed_run.py)
    ``reference_answers``: fast-backend primitive calls of this session answered by the
    reference code while their kernels compiled in the background
    (``minigrad.cold_start.reference_answers``; 0 on a warm cache). ``full_val_characters`` counts the scored
    ids (characters, or tokens of a BPE run)."""
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
        "reference_answers": reference_answers,
        **(ran_on or SINGLE.describe(int(cfg["batch_size"]), None)),
        # steady-state speed: from the median step, so one-time costs (kernel compilation
        # in the first step of a session) do not distort it
        "tokens_per_s": (tokens_per_iter * 1000.0 / float(np.median(step_ms))
                         if step_ms.size else None),
        "history": state.history,
        "train_loss_per_iter": [round(v, 5) for v in state.train_losses],
    }
    with writing(out_dir / "metrics.json"), open(out_dir / "metrics.json", "w") as f:
        json.dump(metrics, f, indent=1)
    return metrics


def plot_losses(out_dir: Path, metrics: dict) -> None:
    """loss_curve.png: per-step training loss (faint), train/val estimates (markers)."""
    import matplotlib  # present: checked before training (safety.check_plot_available)

    matplotlib.use("Agg")  # files only, no display needed
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    steps = np.arange(1, len(metrics["train_loss_per_iter"]) + 1)
    ax.plot(steps, metrics["train_loss_per_iter"], color="0.8", lw=0.8, label="train (step)")
    h = metrics["history"]
    ax.plot(h["iter"], h["train"], "o-", label="train (estimate)")
    ax.plot(h["iter"], h["val"], "s-", label="val (estimate)")
    ax.set_xlabel("iteration")
    ax.set_ylabel("cross-entropy (nats/token)")
    if metrics["full_val_loss"] is not None:
        ax.set_title(f"full val loss {metrics['full_val_loss']:.4f}")
    ax.legend()
    fig.tight_layout()
    path = out_dir / "loss_curve.png"
    with writing(path):
        fig.savefig(path, dpi=120)
    plt.close(fig)
    print(f"loss curve: {path}")

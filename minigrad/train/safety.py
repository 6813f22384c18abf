"""Run safety: no run is lost, and no broken state is ever saved.

- :func:`check_out_dir`: a new run refuses an ``--out-dir`` that already holds one (unless
  ``--resume`` or ``--overwrite``); :func:`run_is_finished`: ``--resume`` of a finished run
  says there is nothing left to train.
- :func:`check_finite` / :class:`NonFiniteLoss`: a checkpoint is never written with
  non-finite weights or losses.
- :class:`StopFlag`: Ctrl-C and SIGTERM stop the loop after a whole step, so that the state
  it saves is consistent.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import signal
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from .checkpoint import model_arrays

PLOT_HINT = "--plot needs matplotlib, which is not installed; get it with: pip install matplotlib"
# Files a run writes into --out-dir (--overwrite replaces exactly these; a token file is
# re-used while its text and tokenizer are unchanged).
RUN_FILES = ("ckpt_last.npz", "ckpt_best.npz", "metrics.json", "metrics.jsonl",
             "loss_curve.png")


class NonFiniteLoss(RuntimeError):
    """The loss or the gradient norm became NaN or infinite."""


def check_finite(model, losses: dict[str, float], it: int) -> None:
    """Raise NonFiniteLoss when a loss or any weight is NaN or infinite, so that no such
    state is ever written as a checkpoint."""
    for name, value in losses.items():
        if not math.isfinite(value):
            raise NonFiniteLoss(f"the {name} loss estimate became {value} at iteration {it}")
    for name, arr in model_arrays(model).items():
        if not np.isfinite(arr).all():
            raise NonFiniteLoss(f"the weights {name} became non-finite by iteration {it}")


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

    @contextlib.contextmanager
    def installed(self) -> Iterator[StopFlag]:
        """This flag as the SIGINT and SIGTERM handler for the block (restored after)."""
        previous = {sig: signal.signal(sig, self) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield self
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


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

"""Run safety: no run is lost, and no broken state is ever saved.

- :func:`check_out_dir` (reads only) then :func:`check_writable` and :func:`make_room` (the
  run's first writes, once every usage check passed): a new run given an ``--out-dir`` that already holds one refuses
  it (unless ``--resume`` or ``--overwrite``); in the default ``--out-dir`` the run found
  there moves into ``previous-N/``. :func:`run_is_finished`: ``--resume`` of a finished run
  says there is nothing left to train.
- :class:`DiskError` / :func:`writing`: a file that cannot be written (full disk, read-only
  directory) is a one-line usage error naming it; the last checkpoint stays as it was.
- :func:`check_finite` / :class:`NonFiniteLoss`: a checkpoint is never written with
  non-finite weights or losses.
- :class:`StopFlag`: Ctrl-C and SIGTERM stop the loop after a whole step, so that the state
  it saves is consistent.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import math
import os
import signal
import tempfile
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


class DiskError(OSError):
    """A file of the run could not be written (a full disk, a read-only directory): the
    trainer reports it as a usage error, one line naming the path."""


@contextlib.contextmanager
def writing(path: Path | str) -> Iterator[None]:
    """Turn any OSError raised while writing ``path`` into a DiskError naming it."""
    try:
        yield
    except DiskError:
        raise
    except OSError as e:
        raise DiskError(f"cannot write {path}: {e.strerror or e}") from None


def uses_default_out_dir(explicit: set[str]) -> bool:
    """Whether --out-dir was left at its default (neither on the command line nor in
    --config): such a run backs up a run it finds there instead of refusing to start."""
    return "out_dir" not in explicit


def check_out_dir(out_dir: Path, args: argparse.Namespace, explicit: set[str],
                  parser: argparse.ArgumentParser) -> None:
    """Usage errors about --out-dir; reads only (:func:`check_writable` and :func:`make_room` write). It must be
    (or become) a directory, and a new run given an --out-dir must not silently replace a
    run already saved there."""
    if out_dir.exists() and not out_dir.is_dir():
        parser.error(f"--out-dir {out_dir} is a file, not a directory")
    blocker = next((a for a in out_dir.parents if a.exists()), None)
    if blocker is not None and not blocker.is_dir():
        parser.error(f"--out-dir {out_dir}: {blocker} is a file, not a directory")
    if args.resume or args.profile:
        return
    found = [name for name in RUN_FILES[:2] if (out_dir / name).exists()]
    if found and not args.overwrite and not uses_default_out_dir(explicit):
        parser.error(f"--out-dir {out_dir} already holds a run ({', '.join(found)}): continue "
                     f"it with --resume, choose another --out-dir, or pass --overwrite")


def check_writable(out_dir: Path, parser: argparse.ArgumentParser) -> None:
    """The run's first writes, once every usage check has passed (each process of a
    data-parallel run does them): create --out-dir and prove it writable with a probe file,
    before :func:`make_room` deletes or moves anything."""
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        parser.error(f"--out-dir {out_dir}: cannot create it: {e.strerror or e}")
    try:
        fd, probe = tempfile.mkstemp(dir=out_dir, prefix=".write-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as e:
        parser.error(f"--out-dir {out_dir} is not writable: {e.strerror or e}")


def make_room(out_dir: Path, args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Room for a new run in a writable --out-dir (one process does this): with --overwrite
    the files of the run found there are deleted; in the default --out-dir (the only other
    way :func:`check_out_dir` lets a new run in beside one) they are moved into
    ``previous-N/`` (the first free N). A --resume keeps everything."""
    found = [name for name in RUN_FILES if (out_dir / name).exists()]
    if args.resume or not found:
        return
    try:
        if args.overwrite:
            for name in found:
                (out_dir / name).unlink()
            return
        backup = next(out_dir / f"previous-{n}" for n in itertools.count(1)
                      if not (out_dir / f"previous-{n}").exists())
        backup.mkdir()
        for name in found:
            os.replace(out_dir / name, backup / name)
    except OSError as e:
        parser.error(f"--out-dir {out_dir}: cannot make room for a new run: "
                     f"{e.strerror or e}")
    print(f"{out_dir} held a run: moved it to {backup} (continue it with --out-dir "
          f"{backup} --resume); starting a new run")


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

"""No lost work in training: ``examples/train_chars.py`` killed with SIGKILL mid-run resumes
(``--resume``) from the last checkpoint it wrote and ends with exactly the losses of a run
that was never interrupted; two runs with the same seed, in separate processes, give
identical loss curves. (That a killed save leaves the previous checkpoint whole is
tests/io/test_checkpoint_files.py.)
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import minigrad as mg
from minigrad.train.data import TINY_SHAKESPEARE

TRAIN_CHARS = Path(__file__).resolve().parents[2] / "examples" / "train_chars.py"


TINY = ["--n-layer", "1", "--n-head", "2", "--n-embd", "16", "--block-size", "16",
        "--batch-size", "4", "--max-iters", "60", "--eval-interval", "10", "--eval-iters", "2",
        "--warmup-iters", "5", "--dropout", "0.1", "--log-interval", "1",
        "--max-new-tokens", "20", "--seed", "7",
        # compile any missing kernel first: on a cold Numba cache the background compile runs
        # the first steps on the reference backend, and the curves would differ in float32
        "--compile", "wait"]


@pytest.fixture(scope="module")
def text_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("text") / "text.txt"
    path.write_text(TINY_SHAKESPEARE.read_text(encoding="utf-8")[:6000], encoding="utf-8")
    return path


def _cmd(text: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, str(TRAIN_CHARS), *TINY, "--text", str(text), "--out-dir", str(out),
            *extra]


def _env() -> dict:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.pop("TRAIN_CHARS_INTERRUPT_AT", None)
    return env


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess:
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=cwd, env=_env(),
                          check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


def _curves(out: Path) -> dict:
    m = json.loads((out / "metrics.json").read_text())
    return {"history": m["history"], "train_loss_per_iter": m["train_loss_per_iter"],
            "full_val_loss": m["full_val_loss"], "best_val_loss": m["best_val_loss"],
            "iterations": m["iterations"]}


def _iteration_of_progress_line(line: str) -> int | None:
    """The step number of a plain progress line like 'iter 25/60 ...' (None otherwise)."""
    for word in line.replace("|", " ").split():
        head, sep, tail = word.partition("/")
        if sep and head.isdigit() and tail == "60":
            return int(head)
    return None


@pytest.fixture(scope="module")
def reference_run(text_file, tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("reference")
    _run(_cmd(text_file, out / "run"), cwd=out)
    return _curves(out / "run")


def test_two_runs_with_the_same_seed_have_identical_loss_curves(text_file, reference_run,
                                                                tmp_path) -> None:
    _run(_cmd(text_file, tmp_path / "again"), cwd=tmp_path)
    again = _curves(tmp_path / "again")
    assert again == reference_run
    assert len(again["train_loss_per_iter"]) == 60 and again["history"]["iter"][-1] == 60


def test_sigkill_mid_run_then_resume_matches_the_uninterrupted_run(text_file, reference_run,
                                                                   tmp_path) -> None:
    out = tmp_path / "killed"
    child = subprocess.Popen(_cmd(text_file, out), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=_env())
    seen = []
    try:
        for line in child.stdout:
            seen.append(line)
            it = _iteration_of_progress_line(line)
            if it is not None and it >= 25:   # the checkpoint of iteration 20 is complete
                child.send_signal(signal.SIGKILL)
                break
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stdout.close()
        child.stderr.close()
    assert child.returncode == -signal.SIGKILL, "".join(seen[-5:])
    assert not (out / "metrics.json").exists()            # the run really was cut short
    saved = int(mg.load(out / "ckpt_last.npz")["iteration"])
    assert saved >= 20 and saved % 10 == 0

    proc = _run(_cmd(text_file, out, "--resume"), cwd=tmp_path)
    assert f"at iteration {saved}" in proc.stdout
    assert _curves(out) == reference_run


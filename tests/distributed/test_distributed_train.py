"""``mpiexec -n 2 minigrad-train`` (on a tiny model): the same losses and
weights as one process with the same global batch, metrics.json says how it ran, a 2-rank
run stopped mid-way resumes (on 2 ranks or on 1) to the uninterrupted result, and a bad
batch split is refused. Skips without mpi4py or a working mpiexec."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import mpi_launch as launch  # this folder is on the import path (see conftest.py)
import numpy as np
import pytest

from minigrad.train import command as chars
from minigrad.train.data import TINY_SHAKESPEARE
from minigrad.train.distributed_run import World, default_threads, launched_world_size

TRAINER = [sys.executable, "-m", "minigrad.train.command"]
TINY = ["--n-layer", "1", "--n-head", "2", "--n-embd", "16", "--block-size", "16",
        "--batch-size", "12", "--warmup-iters", "2", "--eval-iters", "2", "--eval-interval",
        "10", "--max-new-tokens", "5", "--compile", "wait"]


@pytest.fixture(scope="module")
def text(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("text") / "t.txt"
    path.write_text(Path(TINY_SHAKESPEARE).read_text(encoding="utf-8")[:20000], encoding="utf-8")
    return path


def train(out: Path, text: Path, ranks: int, mpiexec: str | None, *extra: str,
          env: dict | None = None) -> subprocess.CompletedProcess:
    cmd = [*TRAINER, *TINY, "--text", str(text), "--out-dir", str(out), *extra]
    if ranks > 1:
        cmd = [mpiexec, "-n", str(ranks), *cmd]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                          env=launch.mpi_env(**(env or {})), check=False)


def weights(path: Path) -> dict[str, np.ndarray]:
    return chars.model_arrays(chars.model_from_checkpoint(chars.load_checkpoint(path), path))


def assert_same_run(a: Path, b: Path, tol: float = 1e-4) -> None:
    ma, mb = (json.loads((d / "metrics.json").read_text()) for d in (a, b))
    assert len(ma["train_loss_per_iter"]) == len(mb["train_loss_per_iter"])
    np.testing.assert_allclose(mb["train_loss_per_iter"], ma["train_loss_per_iter"], atol=tol)
    np.testing.assert_allclose(mb["history"]["val"], ma["history"]["val"], atol=tol)
    wa, wb = weights(a / "ckpt_last.npz"), weights(b / "ckpt_last.npz")
    for k in wa:
        np.testing.assert_allclose(wb[k], wa[k], atol=tol, err_msg=k)


def test_world_of_one_and_thread_default(monkeypatch):
    for name in ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS"):
        monkeypatch.delenv(name, raising=False)
    assert launched_world_size() == 1
    monkeypatch.setenv("PMI_SIZE", "3")
    assert launched_world_size() == 3
    one = World()
    batch = (np.arange(6), np.arange(6))
    assert one.split(batch) is batch and one.mean(2.5) == 2.5
    assert World(2, 1).split(batch)[0].tolist() == [3, 4, 5]
    assert default_threads(1) >= default_threads(64) == 1


def test_two_ranks_train_as_one_process_and_resume(mpiexec, text, tmp_path):
    one = tmp_path / "one"
    done = train(one, text, 1, None, "--max-iters", "50")
    assert done.returncode == 0, done.stderr[-3000:]
    two = tmp_path / "two"
    done = train(two, text, 2, mpiexec, "--max-iters", "50")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "data parallel: 2 ranks, 6 rows each" in done.stdout
    assert done.stdout.count("step 0: train loss") == 1  # rank 0 alone prints
    m = json.loads((two / "metrics.json").read_text())
    assert (m["world_size"], m["batch_per_rank"], m["threads_per_rank"]) == (2, 6, 1)
    assert json.loads((one / "metrics.json").read_text())["world_size"] == 1
    assert_same_run(one, two)

    # stopped at iteration 23 (Ctrl-C on every rank), resumed on 2 ranks and on 1
    for resume_ranks in (2, 1):
        part = tmp_path / f"part{resume_ranks}"
        done = train(part, text, 2, mpiexec, "--max-iters", "50",
                     env={chars.INTERRUPT_ENV: "23"})
        assert done.returncode != 0 and "continue with: " in done.stdout and "--resume" in done.stdout
        done = train(part, text, resume_ranks, mpiexec, "--max-iters", "50", "--resume")
        assert done.returncode == 0, done.stderr[-3000:]
        assert_same_run(one, part)


def test_a_batch_that_does_not_split_is_refused(mpiexec, text, tmp_path):
    done = train(tmp_path / "odd", text, 2, mpiexec, "--max-iters", "2", "--batch-size", "5")
    assert done.returncode != 0
    assert "--batch-size: global batch 5 is not divisible by the world size 2" in done.stderr


def test_killing_a_rank_stops_the_run_and_the_checkpoint_loads(mpiexec, text, tmp_path):
    out = tmp_path / "killed"
    cmd = [mpiexec, "-n", "2", *TRAINER, *TINY, "--text", str(text), "--out-dir", str(out),
           "--max-iters", "100000", "--eval-interval", "5"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=launch.mpi_env())
    try:
        line = proc.stderr.readline()  # rank 0's first line: which process is which rank
        pids = dict(re.findall(r"rank (\d+) = pid (\d+)", line))
        assert set(pids) == {"0", "1"}, line
        deadline = time.monotonic() + 300
        while not (out / "ckpt_last.npz").exists():  # a checkpoint is on disk
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
            time.sleep(0.2)
        time.sleep(1.0)
        os.kill(int(pids["1"]), signal.SIGKILL)
        killed_at = time.monotonic()
        stdout, stderr = proc.communicate(timeout=120)
        assert time.monotonic() - killed_at < 60
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode != 0
    said = stdout + stderr  # mpiexec names the killed process (on its stdout, for MPICH)
    assert re.search(rf"PID {pids['1']} RUNNING AT", said), said[-3000:]
    ckpt = chars.load_checkpoint(out / "ckpt_last.npz", chars.RESUME_KEYS)
    assert int(chars._py(ckpt["iteration"])) >= 0
    chars.model_from_checkpoint(ckpt, out / "ckpt_last.npz")


def train_mpmd(mpiexec: str, rank_flags: tuple[list[str], list[str]], timeout: float = 120
               ) -> tuple[subprocess.CompletedProcess, float]:
    """Two ranks started with different command lines (mpiexec's ``A : B`` form)."""
    cmd = [mpiexec]
    for i, flags in enumerate(rank_flags):
        cmd += [*([":"] if i else []), "-n", "1", *TRAINER, *TINY, *flags]
    start = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                          env=launch.mpi_env(), check=False)
    return done, time.monotonic() - start


@pytest.mark.parametrize("bad,said", [
    # read by argparse, before the ranks compare their flags
    (["--lr", "-1"], "argument --lr: must be > 0.0, got -1"),
    # checked on every rank but compared on none (only rank 0 samples): rank 1 alone fails
    # after the agreement, while rank 0 goes on to the model's broadcast
    (["--prompt", "\u20ac"], "--prompt has characters not in the vocabulary"),
])
def test_a_usage_error_on_one_rank_stops_both_within_seconds(mpiexec, text, tmp_path, bad,
                                                              said):
    common = ["--text", str(text), "--out-dir", str(tmp_path / "o"), "--max-iters", "2"]
    done, seconds = train_mpmd(mpiexec, (common, [*common, *bad]))
    assert done.returncode == 2, done.stderr[-3000:]
    assert seconds < 60  # start-up included; without the abort rank 0 waits 600 s
    assert done.stderr.count(said) == 1 and "rank 1 of 2" in done.stderr, done.stderr[-3000:]
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("flag,value,shown", [
    ("--seed", "1", "--seed is 1 on rank 1 but 1337 on rank 0"),
    ("--lr", "0.002", "--lr is 0.002 on rank 1 but 0.001 on rank 0"),
])
def test_ranks_started_with_different_flags_stop_together(mpiexec, text, tmp_path, flag,
                                                          value, shown):
    common = ["--text", str(text), "--out-dir", str(tmp_path / "o"), "--max-iters", "2"]
    done, seconds = train_mpmd(mpiexec, (common, [*common, flag, value]))
    assert done.returncode == 2 and seconds < 60, done.stderr[-3000:]
    assert done.stderr.count("the ranks disagree on the run's flags") == 1, done.stderr[-3000:]
    assert shown in done.stderr
    assert not (tmp_path / "o").exists()  # nothing was prepared


def test_bpe_run_prepares_the_shared_files_on_rank_zero(mpiexec, text, tmp_path):
    pytest.importorskip("tokenizers")
    out = tmp_path / "bpe"
    done = train(out, text, 2, mpiexec, "--max-iters", "2", "--tokenizer", "bpe",
                 "--bpe-vocab-size", "300")
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.count("encoding ") == 1  # rank 0 encoded the text; rank 1 re-used it
    assert sorted(p.name for p in out.iterdir() if p.name.startswith("tokens")) == [
        "tokens.bin", "tokens.json"]
    # --overwrite of that run: rank 0 alone removes the old files and writes the new ones
    done = train(out, text, 2, mpiexec, "--max-iters", "2", "--tokenizer", "bpe",
                 "--bpe-vocab-size", "300", "--overwrite")
    assert done.returncode == 0, done.stderr[-3000:]

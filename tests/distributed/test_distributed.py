"""minigrad.distributed: 2 ranks on split batches train exactly as 1 process on the global
batch; no_sync accumulation; rank 0's weights broadcast at start; mismatched models refused;
a rank that raises, dies or hangs stops every rank with a message naming it.

The multi-rank runs are subprocesses ``mpiexec -n 2 python tests/distributed/ddp_worker.py ...``
(with timeouts); they skip when mpi4py or a working mpiexec is missing
(``pip install 'minigrad-autodiff[mpi]'`` brings both).
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import ddp_worker as worker  # this folder is on the import path (see conftest.py)
import mpi_launch as launch
import numpy as np
import pytest

import minigrad
from minigrad import distributed as dist

WORKER = Path(worker.__file__).resolve()


def run_ranks(mpiexec: str, *args: str, flags: tuple = (), timeout: float = 300,
              backend: str = "fast") -> tuple[subprocess.CompletedProcess, float]:
    """Run the worker on 2 ranks; returns the finished process and its wall time."""
    start = time.monotonic()
    done = subprocess.run([mpiexec, *flags, "-n", "2", sys.executable, str(WORKER), *args],
                          capture_output=True, text=True, timeout=timeout,
                          env=launch.mpi_env(MINIGRAD_BACKEND=backend), check=False)
    return done, time.monotonic() - start


# ---- single process: no MPI needed --------------------------------------------------
def test_import_does_not_import_mpi4py():
    code = ("import sys, minigrad, minigrad.distributed, minigrad.train.command; "
            "print('mpi4py' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.strip() == "False"


def test_missing_mpi4py_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "mpi4py", None)  # makes `import mpi4py` fail
    monkeypatch.setitem(sys.modules, "mpi4py.MPI", None)
    monkeypatch.setattr(dist.process_group, "_world", dist.process_group.ProcessGroup())
    with pytest.raises(ImportError, match=r"minigrad-autodiff\[mpi\]"):
        dist.init_process_group()
    with pytest.raises(RuntimeError, match="init_process_group"):
        dist.get_rank()


def test_split_batch_slices_concatenate_to_the_global_batch():
    x = np.arange(12).reshape(6, 2)
    y = minigrad.tensor(np.arange(6))
    parts = [dist.split_batch((x, y), r, 3) for r in range(3)]
    np.testing.assert_array_equal(np.concatenate([p[0] for p in parts]), x)
    np.testing.assert_array_equal(np.concatenate([p[1].numpy() for p in parts]), y.numpy())
    assert dist.split_sizes(7, 3, allow_uneven=True) == [3, 2, 2]
    with pytest.raises(ValueError, match="not divisible by the world size 4"):
        dist.split_batch(x, 0, 4)
    with pytest.raises(ValueError, match="at least one row"):
        dist.split_sizes(2, 3)
    with pytest.raises(ValueError, match="rank 3 is outside"):
        dist.split_batch(x, 3, 3)


def test_buckets_hold_parameters_in_reverse_order_within_the_cap():
    from minigrad.distributed.data_parallel import _make_buckets
    model = worker.make_model(1, "float32")
    params = list(model.parameters())
    buckets = _make_buckets(params, cap_bytes=4096)
    assert [p for b in buckets for p in b.params] == params[::-1]
    for b in buckets:
        assert b.flat.nbytes <= 4096 or len(b.params) == 1


# ---- 2 ranks -------------------------------------------------------------------------
@pytest.mark.parametrize("dtype,backend,accumulate,tol", [
    ("float32", "fast", "0", 1e-6),
    ("float64", "reference", "0", 1e-12),
    ("float32", "reference", "1", 1e-6),
    ("float64", "fast", "1", 1e-12),
])
def test_two_ranks_equal_one_process(mpiexec, tmp_path, dtype, backend, accumulate, tol):
    """Ranks seeded differently (broadcast at start), each on half of every global batch,
    take the same AdamW steps as one process on the whole batch; accumulate: two micro-batches
    per step, the first under no_sync()."""
    steps = 4
    out = tmp_path / "run"
    done, _ = run_ranks(mpiexec, "train", str(out), dtype, str(steps), accumulate,
                        backend=backend)
    assert done.returncode == 0, done.stderr[-3000:]
    minigrad.set_backend(backend)
    try:
        ref = worker.reference(dtype, steps)
    finally:
        minigrad.set_backend("fast")
    for rank in (0, 1):
        got = np.load(f"{out}.rank{rank}.npz")
        assert int(got["n_buckets"]) > 1  # the cap made several buckets
        for key, want in ref.items():
            np.testing.assert_allclose(got[key], want, rtol=0, atol=tol, err_msg=key)
        if accumulate == "1":
            assert all(bool(got[f"nosync_differs/{s}"]) for s in range(steps))


def test_a_parameter_no_rank_used_keeps_grad_none(mpiexec, tmp_path):
    """Rank 0 uses branches a and b, rank 1 only a: a and b get the mean over both ranks
    (b: half of rank 0's gradient), c (used by nobody) keeps .grad None on every rank."""
    done, _ = run_ranks(mpiexec, "unused", str(tmp_path / "g"), timeout=180,
                        backend="reference")
    assert done.returncode == 0, done.stderr[-3000:]
    minigrad.set_backend("reference")
    try:
        local = []
        for rank, use in enumerate(worker.USES):
            model = worker.Branches(1)
            model(minigrad.tensor(worker.branch_rows(rank)), use).backward()
            local.append({n: p.grad for n, p in model.named_parameters()})
    finally:
        minigrad.set_backend("fast")
    for rank in (0, 1):
        got = np.load(f"{tmp_path / 'g'}.rank{rank}.npz")
        assert sorted(got.files) == ["a.bias", "a.weight", "b.bias", "b.weight"]
        for name in got.files:
            want = sum(g[name].numpy() for g in local if g[name] is not None) / 2
            np.testing.assert_allclose(got[name], want, rtol=1e-12, err_msg=name)


def test_mismatched_models_are_refused_on_every_rank(mpiexec, tmp_path):
    done, _ = run_ranks(mpiexec, "mismatch", str(tmp_path / "said"), timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    for rank in (0, 1):
        line = (tmp_path / f"said.rank{rank}.txt").read_text().strip()
        assert line.startswith(f"rank {rank} refused")
        assert "parameter wte.weight is ((16, 24), 'float32', True) on rank 1" in line
        assert "((16, 16), 'float32', True) on rank 0" in line


def test_a_rank_that_raises_stops_every_rank(mpiexec):
    done, _ = run_ranks(mpiexec, "raise", timeout=180)
    assert done.returncode != 0
    assert "rank 1 of 2 failed with ValueError: a deliberate failure on rank 1" in done.stderr
    assert "finished although" not in done.stdout


def test_a_killed_rank_stops_the_others_within_60_seconds(mpiexec):
    done, seconds = run_ranks(mpiexec, "kill", "120", timeout=180)
    assert done.returncode != 0 and seconds < 60  # start-up and two steps included
    assert "finished although" not in done.stdout
    out = done.stdout + done.stderr
    # rank 0 printed which process is which rank; mpiexec names the killed process's PID
    ranks = {pid: int(r) for r, pid in
             re.findall(r"rank (\d+) = pid (\d+) on", out)}
    killed = re.search(r"PID (\d+) RUNNING AT", out)
    assert killed is not None, out[-3000:]
    assert ranks[killed.group(1)] == 1, out[-3000:]


def test_a_rank_that_stops_communicating_hits_the_deadline(mpiexec):
    done, _ = run_ranks(mpiexec, "hang", "5", timeout=180)
    assert done.returncode != 0
    assert re.search(r"rank 0 of 2: the gradient all-reduce did not complete within 5 s",
                     done.stderr), done.stderr[-3000:]
    assert "aborting all ranks" in done.stderr

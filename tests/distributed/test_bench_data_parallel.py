"""Smoke test of bench/data_parallel.py (as tests/packaging/test_bench_smoke.py): it runs both
contenders and prints well-formed figures; no speed is asserted. Skips without MPI."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_data_parallel_prints_both_contenders_and_the_wait_share(mpiexec):
    done = subprocess.run([sys.executable, str(BENCH / "data_parallel.py"), "--config", "small",
                           "--steps", "2", "--warmup", "1"],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    assert re.search(r"^single \(2 threads\)\s+[\d.]+\s+\d+\s+-\s+-$", out, re.MULTILINE), out
    row = re.search(r"^2 ranks \(1 thread\)\s+([\d.]+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)%$", out,
                    re.MULTILINE)
    assert row is not None, out
    ms, _, wait_ms, share = map(float, row.groups())
    assert wait_ms <= ms + 0.1 and 0 <= share <= 100.1  # the wait is part of the step
    assert re.search(r"^efficiency \(single ms / 2-rank ms\): [\d.]+$", out, re.MULTILINE), out


def test_data_parallel_refuses_bad_arguments():
    done = subprocess.run([sys.executable, str(BENCH / "data_parallel.py"), "--steps", "0"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2 and "--steps must be >= 1" in done.stderr

"""Finding a working ``mpiexec`` for the multi-rank tests (they skip without one)."""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path


def find_mpiexec() -> str | None:
    """mpiexec next to this Python (the mpich wheel puts it in the venv's bin), else on PATH."""
    beside = Path(sys.executable).parent / "mpiexec"
    return str(beside) if beside.exists() else shutil.which("mpiexec")


def mpi_env(**extra: str) -> dict:
    """The environment of a 2-rank test run: one thread per rank (two ranks share the cores,
    and the test machine is shared too)."""
    return {**os.environ, "OMP_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1", **extra}


@functools.cache
def working_mpiexec() -> str | None:
    """The mpiexec to use, or None when mpi4py is missing or mpiexec cannot start 2 ranks."""
    if importlib.util.find_spec("mpi4py") is None:
        return None
    exe = find_mpiexec()
    if exe is None:
        return None
    try:
        done = subprocess.run(
            [exe, "-n", "2", sys.executable, "-c",
             "from mpi4py import MPI; c = MPI.COMM_WORLD; c.Get_rank() or print(c.Get_size())"],
            capture_output=True, text=True, timeout=120, env=mpi_env(), check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return exe if done.returncode == 0 and done.stdout.split() == ["2"] else None


SKIP_REASON = "needs mpi4py and a working mpiexec: pip install 'minigrad-autodiff[mpi]'"

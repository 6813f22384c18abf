"""Set-up of the multi-rank tests: the ``mpiexec`` fixture, which skips a test (with the
reason and the install command) when mpi4py or an mpiexec that starts 2 ranks is missing.

pytest puts this folder on the import path, so the tests here import the helpers
``mpi_launch`` and ``ddp_worker`` by name."""

from __future__ import annotations

import mpi_launch as launch
import pytest


@pytest.fixture(scope="module")
def mpiexec() -> str:
    """The path of a working ``mpiexec`` (see :func:`mpi_launch.working_mpiexec`)."""
    exe = launch.working_mpiexec()
    if exe is None:
        pytest.skip(launch.SKIP_REASON)
    return exe

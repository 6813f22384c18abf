"""Test-suite set-up: Hypothesis profiles and a writable Numba cache.

Hypothesis profiles (choose with the HYPOTHESIS_PROFILE environment variable):

- ``ci`` (the default): 25 examples per property, no deadline. Numba compiles
  a kernel on its first call (0.3-0.8 s), which would trip Hypothesis' default
  200 ms deadline, and the shared CI machine is slow, so the too_slow health
  check is off too.
- ``thorough``: 300 examples per property, for a longer run before a release::

      HYPOTHESIS_PROFILE=thorough python -m pytest tests
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# Numba writes its ``cache=True`` files next to the kernels' sources. When that
# directory is read-only (an installed wheel, a read-only checkout), point the
# cache at a temporary directory instead of failing. Must run before numba loads.
_KERNELS = Path(__file__).resolve().parent.parent / "minigrad" / "kernels"
if "NUMBA_CACHE_DIR" not in os.environ and not os.access(_KERNELS, os.W_OK):
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(tempfile.gettempdir(), "minigrad-numba-cache")

# Tests of the fast backend must run its kernels: on a cold cache they compile here, at
# their first call, instead of in a background process while the reference code answers
# (minigrad/kernels/runtime/background_compile.py, which tests/kernels/test_background_compile.py
# tests in subprocesses of its own).
os.environ.setdefault("MINIGRAD_COMPILE", "wait")

settings.register_profile(
    "ci",
    deadline=None,
    max_examples=25,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "thorough",
    deadline=None,
    max_examples=300,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def small_text(tmp_path_factory) -> Path:
    """The first 20,000 characters of Tiny Shakespeare (val split: 2,000 characters)."""
    from minigrad.train.data import TINY_SHAKESPEARE  # imported late: see NUMBA_CACHE_DIR above

    path = tmp_path_factory.mktemp("text") / "small.txt"
    text = TINY_SHAKESPEARE.read_text(encoding="utf-8")[:20_000]
    path.write_text(text, encoding="utf-8")
    return path

"""``minigrad.cold_start``: the public door to the fast backend's cold-start mechanism (the
worker process itself is tested in test_background_compile.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import minigrad
from minigrad import cold_start


@pytest.mark.parametrize("mode", ["background", "wait"])
def test_set_compile_mode_sets_what_the_machinery_reads(monkeypatch, mode):
    monkeypatch.delenv("MINIGRAD_COMPILE", raising=False)
    cold_start.set_compile_mode(mode)
    assert cold_start.compile_mode() == mode == os.environ["MINIGRAD_COMPILE"]
    from minigrad.kernels.runtime import background_compile

    assert background_compile.compile_mode() == mode


@pytest.mark.parametrize("bad", ["later", "", "WAIT", None, 1])
def test_an_unknown_mode_raises_and_changes_nothing(monkeypatch, bad):
    monkeypatch.setenv("MINIGRAD_COMPILE", "wait")
    with pytest.raises(ValueError, match="compile mode must be 'background' or 'wait'"):
        cold_start.set_compile_mode(bad)
    assert os.environ["MINIGRAD_COMPILE"] == "wait"


@pytest.mark.parametrize(("value", "mode"), [("", "background"), ("background", "background"),
                                             ("later", "background"), (" Wait ", "wait")])
def test_the_environment_gives_the_mode(monkeypatch, value, mode):
    monkeypatch.setenv("MINIGRAD_COMPILE", value)
    assert cold_start.compile_mode() == mode


def test_before_any_kernel_nothing_compiles_and_numba_stays_unloaded():
    code = textwrap.dedent("""
        import sys, minigrad
        from minigrad import cold_start
        cold_start.wait_for_kernels()
        print(cold_start.compiling(), cold_start.reference_answers(), "numba" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    assert out == ["False", "0", "False"]


def test_the_door_reports_the_machinerys_counts(monkeypatch):
    from minigrad.kernels.runtime import background_compile

    monkeypatch.setattr(background_compile, "reference_answers", 7)
    assert cold_start.reference_answers() == 7
    waited = []
    monkeypatch.setattr(background_compile, "wait_for_kernels", lambda: waited.append(1))
    cold_start.wait_for_kernels()
    assert waited == [1]


def test_the_door_is_exported():
    assert minigrad.cold_start is cold_start
    assert {"cold_start", "set_num_threads", "get_num_threads"} <= set(minigrad.__all__)

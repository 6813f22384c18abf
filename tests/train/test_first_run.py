"""The first run on a cold Numba cache: the trainer uses the library's one cold-start
mechanism (``minigrad.cold_start``): each kernel compiles in a background process while the
reference code answers for it, or, with ``--compile wait``, in this process, so that every
run is repeatable from the first.

The cold-cache tests run in subprocesses with a new, empty ``NUMBA_CACHE_DIR``, so they do
compile (a tiny model needs the serial kernels only: seconds, not the default run's ~15 s).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from numba import njit
from test_train_chars import TINY

import minigrad
from minigrad.kernels.runtime.disk_cache import KernelNotCached, announce_compiles, cached_only
from minigrad.train import command, report


def trainer(args: list[str], cache: Path) -> subprocess.CompletedProcess:
    """``python -m minigrad.train.command ARGS`` with NUMBA_CACHE_DIR=cache."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env.pop("MINIGRAD_COMPILE", None)
    env.pop("MINIGRAD_BACKEND", None)
    return subprocess.run([sys.executable, "-m", "minigrad.train.command", *args], env=env,
                          capture_output=True, text=True, timeout=600, check=False)


def metrics(out: Path) -> dict:
    return json.loads((out / "metrics.json").read_text())


def test_cached_only_refuses_to_compile_and_names_the_kernel():
    @njit(cache=False)
    def never_compiled(x):
        return x + 1

    refused = r"never_compiled\(int64\) is not in Numba's cache"
    with pytest.raises(KernelNotCached, match=refused), cached_only():
        never_compiled(1)
    assert not never_compiled.signatures  # refused before compiling
    assert never_compiled(1) == 2  # outside the block it compiles as usual
    with cached_only():  # and once compiled, calls go through
        assert never_compiled(2) == 3


def test_announce_compiles_names_each_kernel_on_a_cold_cache(tmp_path):
    code = textwrap.dedent("""
        import sys, numpy as np
        from minigrad.kernels.runtime.disk_cache import announce_compiles
        from minigrad.kernels import gelu
        with announce_compiles(sys.stdout) as a:
            gelu.gelu(np.ones(10, np.float32), True)
        print("count", a.count)
    """)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba"))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=300, check=True).stdout
    assert "  compiling kernels.gelu.gelu_grad_f32 (" in out and "count 1" in out
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=300, check=True).stdout
    assert "compiling" not in out and "count 0" in out  # loaded from the cache: nothing said


def test_first_run_compiles_in_the_background_and_the_next_run_compiles_nothing(small_text,
                                                                                 tmp_path):
    cache = tmp_path / "numba"
    runs, files = [], []
    for name in "ab":
        done = trainer([*TINY, "--text", str(small_text), "--max-iters", "4",
                        "--out-dir", str(tmp_path / name)], cache)
        assert done.returncode == 0, done.stderr
        runs.append(metrics(tmp_path / name)["reference_answers"])
        files.append(sorted(p.name for p in cache.rglob("*") if p.is_file()))
    # The first steps did not wait for a compile: the reference code answered meanwhile. The
    # run waited at its end for every kernel its calls need (reference answers have the
    # kernels' forms, and the kernels a primitive runs after a missing one were asked for
    # too), so the next run is fast from its first step and adds nothing to the cache.
    assert runs[0] > 0 and runs[1] == 0, runs
    assert files[1] == files[0]


def test_compile_wait_is_reproducible_from_the_first_run(small_text, tmp_path):
    args = [*TINY, "--text", str(small_text), "--max-iters", "3", "--compile", "wait"]
    cold = trainer([*args, "--out-dir", str(tmp_path / "a")], tmp_path / "numba")
    assert cold.returncode == 0, cold.stderr
    warm = trainer([*args, "--out-dir", str(tmp_path / "b")], tmp_path / "numba")
    assert warm.returncode == 0, warm.stderr
    runs = [metrics(tmp_path / d) for d in "ab"]
    assert [m["reference_answers"] for m in runs] == [0, 0]
    assert runs[0]["train_loss_per_iter"] == runs[1]["train_loss_per_iter"]


def test_a_run_that_ends_while_kernels_compile_waits_for_them(small_text, tmp_path, capsys,
                                                               monkeypatch):
    """The next run then finds every kernel cached; the wait is said, once."""
    compiling, waited = iter([True]), []
    monkeypatch.setattr(report.cold_start, "compiling", lambda: next(compiling, False))
    monkeypatch.setattr(report.cold_start, "wait_for_kernels", lambda: waited.append(1))
    assert command.main([*TINY, "--text", str(small_text), "--max-iters", "2",
                         "--out-dir", str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out
    assert waited == [1] and out.count("waiting for the fast kernels compiling") == 1
    assert out.index("waiting for the fast kernels") < out.index("full val loss")


@pytest.mark.parametrize(("flags", "mode"), [
    ([], "background"), (["--compile", "wait"], "wait"), (["--profile", "1"], "wait")])
def test_the_trainer_sets_the_librarys_compile_mode(small_text, tmp_path, monkeypatch, flags,
                                                    mode):
    """--compile chooses the one mechanism's mode; a profile measures kernels, not their
    compilation, so it always compiles here."""
    monkeypatch.delenv("MINIGRAD_COMPILE", raising=False)
    monkeypatch.setattr(command, "train_loop", lambda run: None)
    monkeypatch.setattr(command, "finish_run", lambda run: 0)
    monkeypatch.setattr(command, "profile_steps", lambda *a: None)
    assert command.main([*TINY, "--text", str(small_text), "--max-iters", "1",
                         "--out-dir", str(tmp_path / "o"), *flags]) == 0
    assert minigrad.cold_start.compile_mode() == mode == os.environ["MINIGRAD_COMPILE"]


def test_bad_compile_mode_from_the_environment_exits_2(monkeypatch, capsys):
    monkeypatch.setenv("MINIGRAD_COMPILE", "later")
    with pytest.raises(SystemExit) as e:
        command.main(["--max-iters", "1"])
    assert e.value.code == 2
    assert "MINIGRAD_COMPILE='later' must be 'background' or 'wait'" in capsys.readouterr().err


def test_announce_compiles_counts_only_minigrad_kernels():
    @njit(cache=False)
    def not_minigrad(x):
        return x * 2

    with announce_compiles(sys.stderr) as a:
        not_minigrad(3)
    assert a.count == 0


class Terminal:
    """A stream that says it is a terminal and keeps what is written."""

    def __init__(self, tty: bool = True) -> None:
        self.lines: list[str] = []
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> None:
        self.lines.append(text)

    def flush(self) -> None:
        pass


def test_the_first_compile_on_a_terminal_says_why_once(monkeypatch):
    from numba.core import event

    from minigrad.kernels.runtime import disk_cache

    terminal = Terminal()
    monkeypatch.setattr(disk_cache, "_notice", None)
    disk_cache.notice_first_compile(terminal)
    listener = disk_cache._notice
    try:
        class Kernel:  # what the event carries: a dispatcher with py_func
            py_func = disk_cache.cached_only  # any function of a minigrad module

        ev = event.Event("numba:compile", event.EventStatus.START,
                         {"dispatcher": Kernel, "args": ()})
        listener.on_start(ev)
        listener.on_start(ev)
        assert "".join(terminal.lines).count("minigrad: compiling fast kernels") == 1
        disk_cache.notice_first_compile(terminal)  # once per process: no second listener
        assert disk_cache._notice is listener
    finally:
        event.unregister("numba:compile", listener)
    monkeypatch.setattr(disk_cache, "_notice", None)
    disk_cache.notice_first_compile(Terminal(tty=False))  # logs and pipes: nothing registered
    assert disk_cache._notice is None

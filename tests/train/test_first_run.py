"""The first run on a cold Numba cache: kernels compile in the background (or, with
``--compile wait``, first, named one by one), and nothing is lost when that goes wrong.

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

import numpy as np
import pytest
from numba import njit
from test_train_chars import TINY

import minigrad
from minigrad.kernels.runtime.disk_cache import KernelNotCached, announce_compiles, cached_only
from minigrad.train import chars as train_chars
from minigrad.train import warmup


def trainer(args: list[str], cache: Path) -> subprocess.CompletedProcess:
    """``python -m minigrad.train.chars ARGS`` with NUMBA_CACHE_DIR=cache."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env.pop("MINIGRAD_COMPILE", None)
    env.pop("MINIGRAD_BACKEND", None)
    return subprocess.run([sys.executable, "-m", "minigrad.train.chars", *args], env=env,
                          capture_output=True, text=True, timeout=600, check=False)


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


def test_first_run_compiles_in_the_background_and_the_next_run_is_warm(small_text, tmp_path):
    cache = tmp_path / "numba"
    first = trainer([*TINY, "--text", str(small_text), "--max-iters", "4",
                     "--out-dir", str(tmp_path / "a")], cache)
    assert first.returncode == 0, first.stderr
    said = first.stdout
    assert "compiling minigrad's fast kernels in a background process" in said
    assert "fast kernels ready (compiled in" in said
    # the switch comes before the final evaluation at the latest
    assert said.index("fast kernels ready") < said.index("step 4:")
    assert 0 <= json.loads((tmp_path / "a" / "metrics.json").read_text())[
        "reference_backend_iters"] <= 4

    second = trainer([*TINY, "--text", str(small_text), "--max-iters", "4",
                      "--out-dir", str(tmp_path / "b")], cache)
    assert second.returncode == 0, second.stderr
    assert "compiling" not in second.stdout  # every kernel came from the cache
    assert json.loads((tmp_path / "b" / "metrics.json").read_text())[
        "reference_backend_iters"] == 0


def test_compile_wait_names_the_kernels_and_is_reproducible(small_text, tmp_path):
    args = [*TINY, "--text", str(small_text), "--max-iters", "3", "--compile", "wait"]
    cold = trainer([*args, "--out-dir", str(tmp_path / "a")], tmp_path / "numba")
    assert cold.returncode == 0, cold.stderr
    assert "compiling minigrad's fast kernels (first run with this Numba cache" in cold.stdout
    assert "  compiling kernels." in cold.stdout and "background" not in cold.stdout
    warm = trainer([*args, "--out-dir", str(tmp_path / "b")], tmp_path / "numba")
    assert warm.returncode == 0 and "compiling" not in warm.stdout
    losses = [json.loads((tmp_path / d / "metrics.json").read_text())["train_loss_per_iter"]
              for d in "ab"]
    assert losses[0] == losses[1]


class FakeCompile:
    """Stands in for BackgroundCompile: 'finishes' after ``polls`` calls of finished()."""

    def __init__(self, polls: int, failure: str | None) -> None:
        self.polls, self._failure, self.seconds, self.killed = polls, failure, 0.5, False

    def finished(self) -> bool:
        self.polls -= 1
        return self.polls < 0

    def wait(self) -> None:
        self.polls = -1

    def failure(self) -> str | None:
        return self._failure

    def stop(self) -> None:
        self.killed = True


@pytest.fixture
def cold_then_warm(monkeypatch):
    """The first fast_kernels_loaded() answers False (a cold cache), later ones True;
    restores the backend the trainer switches."""
    answers = iter([False])
    monkeypatch.setattr(warmup, "fast_kernels_loaded", lambda cfg: next(answers, True))
    monkeypatch.setattr(minigrad.backends, "active", minigrad.backends.active)
    monkeypatch.delenv("MINIGRAD_COMPILE", raising=False)


def fake_background(monkeypatch, polls: int, failure: str | None) -> list[FakeCompile]:
    made: list[FakeCompile] = []

    def make(cfg):
        made.append(FakeCompile(polls, failure))
        return made[-1]

    monkeypatch.setattr(warmup, "BackgroundCompile", make)
    return made


def test_steps_run_on_the_reference_backend_until_the_kernels_are_ready(
        small_text, tmp_path, capsys, monkeypatch, cold_then_warm):
    seen = []
    step = train_chars.train_step
    monkeypatch.setattr(train_chars, "train_step",
                        lambda *a: seen.append(minigrad.get_backend()) or step(*a))
    fake_background(monkeypatch, polls=2, failure=None)
    assert train_chars.main([*TINY, "--text", str(small_text), "--max-iters", "5",
                             "--out-dir", str(tmp_path / "o")]) == 0
    assert seen == ["reference", "reference", "fast", "fast", "fast"]
    assert "fast kernels ready (compiled in 0.5 s in the background)" in capsys.readouterr().out
    m = json.loads((tmp_path / "o" / "metrics.json").read_text())
    assert m["reference_backend_iters"] == 2 and np.isfinite(m["full_val_loss"])


def test_a_failed_background_compile_falls_back_to_compiling_here(
        small_text, tmp_path, capsys, monkeypatch, cold_then_warm):
    compiled = []
    monkeypatch.setattr(warmup, "compile_in_this_process", lambda cfg: compiled.append(1))
    fake_background(monkeypatch, polls=1, failure="exit code 1: MemoryError")
    assert train_chars.main([*TINY, "--text", str(small_text), "--max-iters", "3",
                             "--out-dir", str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out
    assert ("warning: the background compile failed (exit code 1: MemoryError); compiling "
            "them in this process") in out
    assert compiled == [1] and minigrad.get_backend() == "fast"


def test_a_run_that_ends_first_waits_for_the_compile(small_text, tmp_path, capsys, monkeypatch,
                                                     cold_then_warm):
    made = fake_background(monkeypatch, polls=10**6, failure=None)
    assert train_chars.main([*TINY, "--text", str(small_text), "--max-iters", "2",
                             "--out-dir", str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out
    assert "waiting for the background compile" in out
    assert out.index("fast kernels ready") < out.index("step 2:")
    assert not made[0].killed


def test_an_interrupted_run_stops_the_background_compile(small_text, tmp_path, monkeypatch,
                                                         cold_then_warm):
    made = fake_background(monkeypatch, polls=10**6, failure=None)
    monkeypatch.setenv(train_chars.INTERRUPT_ENV, "2")
    assert train_chars.main([*TINY, "--text", str(small_text), "--max-iters", "5",
                             "--out-dir", str(tmp_path / "o")]) == 130
    assert made[0].killed


def test_bad_compile_mode_from_the_environment_exits_2(monkeypatch, capsys):
    monkeypatch.setenv("MINIGRAD_COMPILE", "later")
    with pytest.raises(SystemExit) as e:
        train_chars.main(["--max-iters", "1"])
    assert e.value.code == 2
    assert "MINIGRAD_COMPILE='later' must be 'background' or 'wait'" in capsys.readouterr().err


def test_exercise_leaves_the_random_state_alone():
    minigrad.manual_seed(7)
    before = minigrad.rand(3).numpy()
    minigrad.manual_seed(7)
    warmup.exercise({"vocab_size": 11, "block_size": 8, "n_layer": 1, "n_head": 2, "n_embd": 8,
                     "dropout": 0.1, "bias": True, "tie_weights": True, "batch_size": 2,
                     "grad_clip": 1.0})
    assert np.array_equal(minigrad.rand(3).numpy(), before)


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


def test_the_cache_probe_announces_no_compile(monkeypatch):
    """fast_kernels_loaded refuses to compile, so the first-compile notice must not say
    "compiling fast kernels" before the trainer says where they compile (one story)."""
    from numba.core import event

    from minigrad.kernels.runtime import disk_cache

    terminal = Terminal()
    monkeypatch.setattr(disk_cache, "_notice", None)
    disk_cache.notice_first_compile(terminal)
    listener = disk_cache._notice

    def plus_one(x):
        return x + 1

    plus_one.__module__ = "minigrad.kernels.probe_test"  # counts as one of minigrad's kernels
    kernel = njit(cache=False)(plus_one)
    monkeypatch.setattr(warmup, "exercise", lambda cfg: kernel(1))
    try:
        assert warmup.fast_kernels_loaded({}) is False
        assert terminal.lines == []
        assert kernel(1) == 2  # a real compile, outside the probe, still gets its notice
        assert "minigrad: compiling fast kernels" in "".join(terminal.lines)
    finally:
        event.unregister("numba:compile", listener)

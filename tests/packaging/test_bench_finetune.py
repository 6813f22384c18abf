"""Smoke test of bench/finetune.py (the GPT-2 124M fine-tuning step's memory and time): in
its --tiny mode it runs and prints well-formed figures. No figure is checked for size (speed
and memory are measured by the benchmark, on a quiet machine, never by tests)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "finetune.py"
ROW = r"^\s+{}\s+([\d.]+)\s+([\d.]+)\s+(-?[\d.]+)\s+([\d.]+)$"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=600, check=False)


def test_tiny_mode_prints_minigrad_figures_without_torch():
    done = run("--tiny", "--steps", "1", "--no-torch")
    assert done.returncode == 0, done.stderr
    assert "gpt2-tiny: n_layer=2 n_head=2 n_embd=32 block_size=32 batch_size=2 " \
           "vocab_size=50257" in done.stdout
    assert "PyTorch: not measured (--no-torch)" in done.stdout
    row = re.search(ROW.format("minigrad"), done.stdout, re.MULTILINE)
    assert row is not None, done.stdout
    built, peak, _, ms = map(float, row.groups())
    assert peak >= built > 0 and ms >= 0


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="PyTorch is not installed")
def test_tiny_mode_prints_both_frameworks_and_their_ratio():
    done = run("--tiny", "--steps", "1")
    assert done.returncode == 0, done.stderr
    for framework in ("minigrad", "torch"):
        assert re.search(ROW.format(framework), done.stdout, re.MULTILINE), done.stdout
    assert re.search(r"minigrad/torch: peak [\d.]+x, step [\d.]+x", done.stdout), done.stdout


def test_the_full_size_is_gpt2_124m_at_block_256_batch_4():
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import finetune
    finally:
        sys.path.remove(str(SCRIPT.parent))
    cfg = finetune.GPT2_FINETUNE
    assert (cfg.n_layer, cfg.n_head, cfg.n_embd, cfg.vocab_size, cfg.block_size,
            cfg.batch_size) == (12, 12, 768, 50257, 256, 4)
    assert run("--steps", "0").returncode == 2

"""Smoke tests of the benchmark scripts: they run and print their figures.

No timing is asserted (speed is measured by the benchmarks, never by tests);
these only check that the scripts still work against the current library,
that their bookkeeping (FLOP and parameter counts) agrees with the model, and
that bad arguments are refused with a message naming them.
"""

from __future__ import annotations

import importlib.util
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

import common
import gemm


def run_script(name: str, *args: str) -> subprocess.CompletedProcess:
    """Run bench/<name> with this interpreter; returns the finished process."""
    # a generous limit: vs_nanogpt's two short runs took 279 s on a machine with load 10-14
    return subprocess.run([sys.executable, str(BENCH / name), *args], capture_output=True,
                          text=True, timeout=900, check=False)


def test_train_step_prints_minigrad_figures_without_torch():
    done = run_script("train_step.py", "--config", "small", "--steps", "2", "--warmup", "1",
                      "--pause", "0", "--no-torch", "--run-length", "1")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "PyTorch: not timed (--no-torch)" in out
    row = re.search(r"^\s+minigrad\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+([\d.]+)%$", out,
                    re.MULTILINE)
    assert row is not None, out
    ms, _, tokens_per_s, mfu = map(float, row.groups())
    # figures are printed rounded and a loaded machine may print 0.0: the smoke tests check
    # that each figure is there and well-formed, never how fast anything ran
    assert min(ms, tokens_per_s, mfu) >= 0
    assert re.search(r"numpy\.matmul peak [\d.]+ GFLOP/s", out), out
    assert not re.search(r"^\s+torch", out, re.MULTILINE), out  # no PyTorch rows


def test_generate_prints_both_paths_and_same_tokens():
    done = run_script("generate.py", "--config", "small", "--new-tokens", "6", "--repeats", "1")
    assert done.returncode == 0, done.stderr
    rows = re.findall(r"^small .*?([\d.]+)\s+([\d.]+)\s+([\d.]+)x\s+(yes|NO)$", done.stdout,
                      re.MULTILINE)
    assert len(rows) == 1, done.stdout  # block_size 32 already holds 1 + 6 tokens: one row
    assert rows[0][3] == "yes", done.stdout


def test_generate_gpt2_comparison_runs_on_a_tiny_model_without_transformers():
    done = run_script("generate.py", "--gpt2", "--tiny", "--new-tokens", "3", "--repeats", "2",
                      "--no-transformers")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    row = re.search(r"^minigrad\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+yes$", out, re.MULTILINE)
    assert row is not None, out
    tokens_per_s, ms_per_token, gb_s = map(float, row.groups())
    assert min(tokens_per_s, ms_per_token, gb_s) >= 0  # well-formed, never a speed (above)
    if tokens_per_s >= 10:  # both figures printed with enough digits to agree
        assert ms_per_token == pytest.approx(1e3 / tokens_per_s, rel=0.02)
    assert re.search(r"numpy GEMV of the \(1000, 64\) head: [\d.]+ GB/s", out), out
    assert "transformers: not timed (--no-transformers)" in out
    assert "ratio" not in out


def test_context_length_prints_a_row_per_block_size_without_torch():
    done = run_script("context_length.py", "--tiny", "--steps", "1", "--blocks", "24,40",
                      "--new-tokens", "4", "--no-torch")
    assert done.returncode == 0, done.stderr
    training, _, decoding = done.stdout.partition("greedy decoding")
    for table in (training, decoding):
        rows = re.findall(r"^\s+(\d+) minigrad\s+([\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)$", table,
                          re.MULTILINE)
        assert [row[0] for row in rows] == ["24", "40"], done.stdout
    assert "torch" not in training and "transformers" not in decoding, done.stdout


@pytest.mark.parametrize("script, args, message", [
    ("context_length.py", ["--blocks", "8,x"], "--blocks: comma-separated integers"),
    ("context_length.py", ["--blocks", "16", "--new-tokens", "16"], "every block size > --new-tokens"),
    ("train_step.py", ["--steps", "0"], "--steps must be >= 1, got 0"),
    ("train_step.py", ["--config", "huge"], "invalid choice: 'huge'"),
    ("generate.py", ["--new-tokens", "0"], "--new-tokens must be >= 1, got 0"),
    ("generate.py", ["--tiny"], "--tiny goes with --gpt2 and no DIR"),
    ("generate.py", ["--gpt2", "/nonexistent/dir"], "is not a directory"),
    ("startup.py", ["--warm-runs", "0"], "--warm-runs must be >= 1, got 0"),
    ("memory.py", ["--steps", "-1"], "--steps must be >= 1, got -1"),
])
def test_scripts_refuse_bad_arguments(script, args, message):
    done = run_script(script, *args)
    assert done.returncode == 2
    assert message in done.stderr


@pytest.mark.parametrize("name", list(common.CONFIGS))
def test_flop_and_parameter_counts_match_the_model(name):
    from minigrad import models

    cfg = common.CONFIGS[name]
    model = models.GPT(cfg.vocab_size, cfg.block_size, cfg.n_layer, cfg.n_head, cfg.n_embd)
    assert common.non_embedding_params(cfg) == model.num_parameters(non_embedding=True)
    per_token = model.estimate_flops_per_token(cfg.block_size)
    assert common.flops_per_step(cfg) == per_token * cfg.tokens_per_step


def test_step_matmul_shapes_add_up_to_the_flop_estimate():
    # every matmul weight (projections and the tied head, not biases or LayerNorms) does
    # 6 FLOPs per token, and attention adds nanoGPT's 12 L H Q T per token
    cfg = common.CONFIGS["baby"]
    flops = sum(2 * math.prod(sa) * sb[-1] * n for sa, sb, n in common.step_matmul_shapes(cfg))
    c, n_layer = cfg.n_embd, cfg.n_layer
    weights = n_layer * 12 * c * c + cfg.vocab_size * c
    q = c // cfg.n_head
    expected = (6 * weights + 12 * n_layer * cfg.n_head * q * cfg.block_size) \
        * cfg.tokens_per_step
    assert flops == expected


def test_median_and_interleaving_helpers():
    assert common.median([3.0, 1.0, 2.0]) == 2.0
    with pytest.raises(ValueError, match="empty"):
        common.median([])
    calls = []
    times = common.interleaved_times({"a": lambda: calls.append("a"),
                                      "b": lambda: calls.append("b")},
                                     rounds=2, warmup=1, between=lambda: calls.append("|"))
    assert calls == ["a", "b", "a", "b", "|", "a", "b", "|"]
    assert [len(v) for v in times.values()] == [2, 2]
    with pytest.raises(ValueError, match="rounds must be >= 1"):
        common.interleaved_times({"a": lambda: None}, rounds=0)
    with pytest.raises(ValueError, match="unknown config 'huge'"):
        common.get_config("huge")


def test_train_step_one_process_mode_still_runs():
    done = run_script("train_step.py", "--config", "small", "--steps", "2", "--warmup", "0",
                      "--pause", "0", "--no-torch", "--one-process")
    assert done.returncode == 0, done.stderr
    assert "one step each in turn in this process" in done.stdout


def test_worker_runs_methods_in_another_process_and_reports_their_errors():
    import os

    from worker import Worker, WorkerError

    with Worker(dict, {"a": 1}) as w:  # a dict built in the child
        assert w.call("get", "a") == 1
        assert w.call("__len__") == 1
        with pytest.raises(WorkerError, match="KeyError: 'b'"):
            w.call("__getitem__", "b")
        assert w.call("get", "a") == 1  # the worker survives an error
    with pytest.raises(WorkerError, match="building"):
        Worker(os.stat, "/definitely/not/here")


def test_generate_cache_bound_counts_the_steps_that_fit_in_the_block():
    from generate import cache_bound

    assert cache_bound(1, 256, 64) == (256, 64)   # baby: 256 / 192 = 1.33x at most
    assert cache_bound(1, 256, 257) == (256, 256)  # everything fits: no bound
    assert cache_bound(10, 5, 12) == (5, 3)        # sequences of 10, 11, 12 fit; 13, 14 do not


def test_reference_loss_runs_with_torch_or_says_how_to_get_it():
    import importlib.util

    done = run_script("reference_loss.py", "--seeds", "3", "--max-iters", "3")
    if importlib.util.find_spec("torch") is None:
        assert done.returncode == 2
        assert "PyTorch is not installed" in done.stderr
        return
    assert done.returncode == 0, done.stderr
    row = re.search(r"^\s+3\s+([\d.]+)\s+([\d.]+)\s+[\d.]+$", done.stdout, re.MULTILINE)
    assert row is not None, done.stdout
    assert 3.0 < float(row.group(2)) < 4.5  # 3 steps from ln(65) = 4.17: barely trained


def test_vs_nanogpt_times_both_runs_and_prints_the_ratio():
    pytest.importorskip("torch")
    done = run_script("vs_nanogpt.py", "--max-iters", "2")
    assert done.returncode == 0, done.stderr
    assert re.search(r"^\s+minigrad\s+[\d.]+\s+[\d.]+\s+[\d.]+$", done.stdout, re.MULTILINE)
    assert re.search(r"^\s+nanoGPT \(PyTorch\)\s+[\d.]+\s+[\d.]+\s+[\d.]+$", done.stdout,
                     re.MULTILINE)
    assert "ratio minigrad/nanoGPT wall time:" in done.stdout
    assert re.search(r"round 1: minigrad [\d.]+ s \([\d.]+ s in its training steps\)", done.stdout)
    assert re.search(r"numpy.matmul's speed: [\d.]+ ms", done.stdout)  # the floor, sampled


def test_vs_nanogpt_says_which_step_the_goal_needs():
    import vs_nanogpt

    # 0.7 * 160 s = 112 s; 12 s outside the steps leaves 100 s for 2000 steps: 50 ms each
    runs = [{"seconds": 140.0, "step_seconds": 128.0, "iters": 2000},
            {"seconds": 150.0, "step_seconds": 138.0, "iters": 2000}]
    below = vs_nanogpt.what_the_goal_needs(runs, 160.0, floor_ms=58.5)
    assert "outside its 2000 training steps" in below and "12.0 s" in below
    assert "mean step of 50.0 ms" in below
    assert "minigrad's mean step: 66.5 ms" in below  # median of 64.0 and 69.0
    assert "below the floor" in below
    above = vs_nanogpt.what_the_goal_needs(runs, 160.0, floor_ms=42.0)
    assert "above the floor: 8.0 ms a step" in above
    hopeless = vs_nanogpt.what_the_goal_needs(runs, 10.0, floor_ms=42.0)
    assert "no step can be fast enough" in hopeless


def test_matmul_floor_prints_each_librarys_floor():
    done = run_script("matmul_floor.py", "--config", "small", "--rounds", "2", "--pause", "0")
    assert done.returncode == 0, done.stderr
    assert re.search(r"^\s+numpy\.matmul\s+floor\s+[\d.]+ ms", done.stdout, re.MULTILINE)
    if "torch is not installed" not in done.stdout:  # bench/gemm.py names the library
        assert re.search(r"^\s+torch\.matmul\s+floor\s+[\d.]+ ms", done.stdout, re.MULTILINE)
        assert "ratio torch/numpy floor:" in done.stdout
    assert len(re.findall(r"^\s+round \d: numpy [\d.]+ ms", done.stdout, re.MULTILINE)) == 2


def test_matmul_peak_floor_adds_up_every_product_of_a_step():
    peak = common.MatmulPeak(common.CONFIGS["small"], min_seconds=1e-4)
    peak.sample()
    last = peak.last_floor_seconds()
    assert last > 0 and math.isclose(peak.floor_seconds(), last)  # one sample: its own median
    with pytest.raises(ValueError, match="library must be one of 'numpy', 'torch'"):
        common.MatmulPeak(common.CONFIGS["small"], library="cupy")


def test_matmul_floor_compares_each_thread_count_and_skips_what_it_cannot_run():
    done = run_script("matmul_floor.py", "--config", "small", "--rounds", "1", "--pause", "0",
                      "--libraries", "numpy", "blis", "--threads", "1", "2")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.search(r"^1 thread:$", out, re.MULTILINE) and re.search(r"^2 threads:$", out,
                                                                      re.MULTILINE), out
    assert len(re.findall(r"^\s+numpy\.matmul\s+floor\s+[\d.]+ ms", out, re.MULTILINE)) == 2
    if "blis is not installed: skipped (pip install blis)" not in out:
        assert len(re.findall(r"^\s+blis\.sgemm\s+floor\s+[\d.]+ ms", out, re.MULTILINE)) == 1
        assert "blis: skipped at 2 threads (the package is built without threading)" in out


def test_check_product_refuses_a_wrong_product_and_allows_float32_rounding():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((40, 300), dtype=np.float32)
    b = rng.standard_normal((300, 20), dtype=np.float32)
    want = a @ b
    exact = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
    common.check_product(exact, want, "a summed in another order")  # rounding only: passes
    with pytest.raises(ValueError, match=r"mkl's \(40, 300\)@\(300, 20\) differs"):
        common.check_product(a[:, :299] @ b[:299], want, "mkl's (40, 300)@(300, 20)")
    with pytest.raises(ValueError, match="differs"):
        common.check_product(np.full_like(want, np.nan), want, "a NaN product")
    with pytest.raises(ValueError, match=r"shape \(20, 40\)"):
        common.check_product(want.T, want, "a transposed product")


def test_thread_env_sets_every_librarys_variable_and_restores_the_old_values(monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "7")
    monkeypatch.delenv("MKL_NUM_THREADS", raising=False)
    with gemm.thread_env(1):
        assert all(os.environ[k] == "1" for k in gemm.THREAD_VARIABLES)
    assert os.environ["OMP_NUM_THREADS"] == "7" and "MKL_NUM_THREADS" not in os.environ
    with pytest.raises(ValueError, match="threads must be >= 1, got 0"), gemm.thread_env(0):
        pass


@pytest.mark.parametrize("library", ["openblas", "mkl", "blis"])
def test_each_installed_gemm_library_gives_numpys_products(library):
    if gemm.missing(library) is not None:
        pytest.skip(gemm.missing(library))
    matmul, as_operand, description = gemm.library_matmul(library, 1)
    assert description
    rng = np.random.default_rng(1)
    for sa, sb in [((33, 17), (17, 9)), ((5, 7, 3), (5, 3, 11))]:  # a matrix, a batch
        a = rng.standard_normal(sa, dtype=np.float32)
        b = rng.standard_normal(sb, dtype=np.float32)
        common.check_product(np.asarray(matmul(as_operand(a), as_operand(b))), a @ b,
                             f"{library}'s {sa}@{sb}")
    if library != "blis":  # the ctypes binding refuses what it would read wrongly
        w = rng.standard_normal((17, 9), dtype=np.float32)
        with pytest.raises(ValueError, match=r"C-contiguous float32.*got float32\(9, 17\)"):
            matmul(w.T, w)  # a transposed view: its rows are not where CBLAS would read


def test_layers_prints_each_case_with_equal_losses():
    # two cases once, minigrad and (when installed) PyTorch from the same weights: the first
    # losses must agree, which checks that the PyTorch twins load minigrad's weights
    torch = importlib.util.find_spec("torch") is not None
    cases = ["mnist1d-gru", "digits-cnn"]  # a recurrence; convolution, BatchNorm, pooling
    for case in cases:
        done = run_script("layers.py", "--case", case, "--steps", "1", "--warmup", "0",
                          "--run-length", "1", "--pause", "0", *([] if torch else ["--no-torch"]))
        assert done.returncode == 0, done.stderr
        rows = re.findall(rf"^{case}\s+(\w+)\s+([\d.]+)\s+([\d.]+)\s.*?([\d.]+) -> ([\d.]+)$",
                          done.stdout, re.MULTILINE)
        assert [r[0] for r in rows] == (["minigrad", "torch"] if torch else ["minigrad"]), \
            done.stdout
        assert len({r[3] for r in rows}) == 1, done.stdout  # the same first loss

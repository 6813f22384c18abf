"""The trainer's default run beside nanoGPT's, on the same machine, one after the other.

    python bench/vs_nanogpt.py                  # one round: minigrad, then PyTorch (~3.5 min)
    python bench/vs_nanogpt.py --rounds 3       # medians of three rounds
    python bench/vs_nanogpt.py --cold           # minigrad's first run: an empty Numba cache
    python bench/vs_nanogpt.py --max-iters 200  # a quick look (the losses are then far apart)

Two contenders, each a process of its own, timed by this script from its start to its exit:

- ``minigrad``: ``python -m minigrad.train.command --out-dir DIR`` (``minigrad-train`` with
  no flags): nanoGPT's CPU config of shakespeare_char, 2000 iterations, loss estimates every
  250 (20 batches per split), checkpoints; then the full-validation score (which the
  reference computes too) and a 500-character sample, which nanoGPT's ``train.py`` does
  not do (it counts against minigrad here). Before the timed rounds one untimed 1-iteration run fills Numba's cache
  (``--cold``: each timed run gets an empty ``NUMBA_CACHE_DIR`` instead).
- ``nanoGPT (PyTorch)``: ``bench/reference_loss.py --seeds 1337 --eval-interval 250``:
  nanoGPT's model, initialisation and training loop for the same config (``bias=False``,
  AdamW with its decay groups, warm-up + cosine schedule, clipping, the same loss estimates
  every 250 iterations), PyTorch on 2 threads, the same data and batches.

Prints each run's wall seconds, the ratio minigrad / nanoGPT (goal <= 0.7) and each run's
final losses: the 20-batch validation estimate and the full validation loss, which must
land in the same band (a single run's full-val loss moves by ~+-0.01 with the seed alone:
README, "Measured: the default run against nanoGPT").

Then what the goal asks of minigrad's training step in this session: 0.7 x nanoGPT's time,
minus what minigrad's run spent outside its training steps (start-up, loss estimates,
checkpoints, full-validation score, sample; from the run's ``metrics.json``), shared by the
2000 steps, is the mean step 0.7x needs. Beside it: minigrad's mean step, and the step's
matmul floor (``common.MatmulPeak``: every matrix product of one step of this config timed
alone with ``numpy.matmul``, sampled in a process of its own before and after each round).
The machine's speed moves from day to day and minute to minute; comparing the needed step
with the floor measured in the same minutes says whether a faster step *outside* the matrix
products could reach the goal at all on this machine today.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH_DIR)

from common import CONFIGS, MatmulPeak, load_line, machine_line, median
from worker import Worker

CONFIG = CONFIGS["baby"]  # the trainer's default run: nanoGPT's CPU config of shakespeare_char
GOAL = 0.7


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, str]:
    """(wall seconds from start to exit, stdout) of a process; raises if it fails."""
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed (exit {done.returncode}):\n{done.stderr}")
    return seconds, done.stdout


def run_minigrad(work: str, name: str, max_iters: int, cold: bool) -> dict[str, float]:
    """One default run of the trainer in a process of its own; its seconds and losses."""
    env = dict(os.environ)
    env.pop("MINIGRAD_BACKEND", None)
    if cold:
        env["NUMBA_CACHE_DIR"] = os.path.join(work, f"numba-{name}")
    out = os.path.join(work, name)
    seconds, _ = timed([sys.executable, "-m", "minigrad.train.command", "--out-dir", out,
                        "--max-iters", str(max_iters)], env)
    with open(os.path.join(out, "metrics.json")) as f:
        m = json.load(f)
    return {"seconds": seconds, "val20": m["final_val_loss"], "full_val": m["full_val_loss"],
            "reference_answers": m["reference_answers"], "iters": m["iterations"],
            "step_seconds": m["train_seconds"]}


def run_nanogpt(max_iters: int) -> dict[str, float]:
    """One run of the PyTorch nanoGPT reference in a process of its own."""
    seconds, out = timed([sys.executable, os.path.join(BENCH_DIR, "reference_loss.py"),
                          "--seeds", "1337", "--eval-interval", "250",
                          "--max-iters", str(max_iters)], dict(os.environ))
    _seed, val20, full_val, _ = out.strip().splitlines()[-1].split()
    return {"seconds": seconds, "val20": float(val20), "full_val": float(full_val)}


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, run the rounds, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=1, help="minigrad then nanoGPT, N times")
    parser.add_argument("--max-iters", type=int, default=2000, help="iterations (2000)")
    parser.add_argument("--cold", action="store_true",
                        help="minigrad on an empty Numba cache in every run (its first run)")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.max_iters < 1:
        parser.error("--rounds and --max-iters must be >= 1")
    try:
        import torch
    except ImportError:
        parser.error("the nanoGPT contender needs PyTorch: pip install -e '.[bench]'")

    print(f"The default training run, minigrad beside nanoGPT (PyTorch {torch.__version__}, "
          f"2 threads), {args.max_iters} iterations, {args.rounds} round(s), "
          f"{'cold' if args.cold else 'warm'} Numba cache for minigrad")
    print(f"machine: {machine_line()}; {load_line()}")
    runs: dict[str, list[dict[str, float]]] = {"minigrad": [], "nanoGPT (PyTorch)": []}
    floor = Worker(MatmulPeak, CONFIG)  # numpy.matmul in a process of its own
    try:
        with tempfile.TemporaryDirectory(prefix="minigrad-vs-nanogpt-") as work:
            if not args.cold:
                timed([sys.executable, "-m", "minigrad.train.command", "--max-iters", "1",
                       "--max-new-tokens", "1", "--out-dir", os.path.join(work, "warm-up")],
                      dict(os.environ))
            for r in range(args.rounds):
                sample_floor(floor)
                runs["minigrad"].append(run_minigrad(work, f"run{r}", args.max_iters, args.cold))
                runs["nanoGPT (PyTorch)"].append(run_nanogpt(args.max_iters))
                sample_floor(floor)
                mg = runs["minigrad"][-1]
                print(f"  round {r + 1}: minigrad {mg['seconds']:.1f} s ({mg['step_seconds']:.1f} s "
                      f"in its training steps), nanoGPT "
                      f"{runs['nanoGPT (PyTorch)'][-1]['seconds']:.1f} s", flush=True)
        floor_ms = floor.call("floor_seconds") * 1e3
    finally:
        floor.close()

    print(f"  {'contender':20s} {'wall s (median)':>16s} {'val (20 batches)':>17s} "
          f"{'full val':>9s}")
    for name, rs in runs.items():
        val20 = " / ".join(f"{r['val20']:.4f}" for r in rs)
        full = " / ".join(f"{r['full_val']:.4f}" for r in rs)
        print(f"  {name:20s} {median([r['seconds'] for r in rs]):16.1f} {val20:>17s} {full:>9s}")
    mg_seconds = median([r["seconds"] for r in runs["minigrad"]])
    ref_seconds = median([r["seconds"] for r in runs["nanoGPT (PyTorch)"]])
    print(f"  ratio minigrad/nanoGPT wall time: {mg_seconds / ref_seconds:.2f}x (goal <= {GOAL}; "
          f"< 1 means minigrad is faster)")
    print(what_the_goal_needs(runs["minigrad"], ref_seconds, floor_ms))
    if args.cold:
        print(f"  minigrad's primitive calls answered by NumPy while its kernels compiled: "
              f"{[r['reference_answers'] for r in runs['minigrad']]}")


def sample_floor(floor: Worker) -> None:
    """Time the step's matrix products once more, then let NumPy's BLAS threads go idle
    before the next contender starts (they spin for a while after a call)."""
    floor.call("sample")
    time.sleep(0.5)


def what_the_goal_needs(minigrad_runs: list[dict[str, float]], ref_seconds: float,
                        floor_ms: float) -> str:
    """The mean training step minigrad's run needs for GOAL x nanoGPT's wall time, with its
    time outside the steps as measured, beside its actual mean step and the matmul floor.

    needed step = (GOAL * nanoGPT seconds - minigrad's seconds outside its steps) / iterations
    """
    iters = minigrad_runs[0]["iters"]
    outside = median([r["seconds"] - r["step_seconds"] for r in minigrad_runs])
    mean_step_ms = median([r["step_seconds"] / r["iters"] for r in minigrad_runs]) * 1e3
    needed_ms = (GOAL * ref_seconds - outside) / iters * 1e3
    if needed_ms <= 0:
        verdict = "no step can be fast enough: the time outside the steps alone is over the goal"
    elif needed_ms > floor_ms:
        verdict = (f"the needed step is above the floor: {needed_ms - floor_ms:.1f} ms a step "
                   "left for everything besides the matrix products")
    else:
        verdict = ("the needed step is below the floor: even a step doing nothing but its "
                   "matrix products,\n    at numpy.matmul's speed, would miss the goal on this "
                   "machine in this session")
    return (f"  what {GOAL}x needs: {GOAL} x {ref_seconds:.1f} s = {GOAL * ref_seconds:.1f} s for "
            f"minigrad's run\n"
            f"    minigrad's time outside its {iters} training steps (start-up, loss estimates, "
            f"checkpoints,\n    full-val score, sample): {outside:.1f} s, which leaves a mean "
            f"step of {needed_ms:.1f} ms\n"
            f"    minigrad's mean step: {mean_step_ms:.1f} ms; the step's matrix products alone at "
            f"numpy.matmul's speed: {floor_ms:.1f} ms\n"
            f"    -> {verdict}")


if __name__ == "__main__":
    main()

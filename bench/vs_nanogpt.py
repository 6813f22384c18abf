"""The trainer's default run beside nanoGPT's, on the same machine, one after the other.

    python bench/vs_nanogpt.py                  # one round: minigrad, then PyTorch (~3.5 min)
    python bench/vs_nanogpt.py --rounds 3       # medians of three rounds
    python bench/vs_nanogpt.py --cold           # minigrad's first run: an empty Numba cache
    python bench/vs_nanogpt.py --max-iters 200  # a quick look (the losses are then far apart)

Two contenders, each a process of its own, timed by this script from its start to its exit:

- ``minigrad``: ``python -m minigrad.train.chars --out-dir DIR`` (``minigrad-train`` with
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

from common import load_line, machine_line, median


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
    seconds, _ = timed([sys.executable, "-m", "minigrad.train.chars", "--out-dir", out,
                        "--max-iters", str(max_iters)], env)
    with open(os.path.join(out, "metrics.json")) as f:
        m = json.load(f)
    return {"seconds": seconds, "val20": m["final_val_loss"], "full_val": m["full_val_loss"],
            "reference_iters": m["reference_backend_iters"]}


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
    with tempfile.TemporaryDirectory(prefix="minigrad-vs-nanogpt-") as work:
        if not args.cold:
            timed([sys.executable, "-m", "minigrad.train.chars", "--max-iters", "1",
                   "--max-new-tokens", "1", "--out-dir", os.path.join(work, "warm-up")],
                  dict(os.environ))
        for r in range(args.rounds):
            runs["minigrad"].append(run_minigrad(work, f"run{r}", args.max_iters, args.cold))
            runs["nanoGPT (PyTorch)"].append(run_nanogpt(args.max_iters))
            print(f"  round {r + 1}: minigrad {runs['minigrad'][-1]['seconds']:.1f} s, "
                  f"nanoGPT {runs['nanoGPT (PyTorch)'][-1]['seconds']:.1f} s", flush=True)

    print(f"  {'contender':20s} {'wall s (median)':>16s} {'val (20 batches)':>17s} "
          f"{'full val':>9s}")
    for name, rs in runs.items():
        val20 = " / ".join(f"{r['val20']:.4f}" for r in rs)
        full = " / ".join(f"{r['full_val']:.4f}" for r in rs)
        print(f"  {name:20s} {median([r['seconds'] for r in rs]):16.1f} {val20:>17s} {full:>9s}")
    ratio = (median([r["seconds"] for r in runs["minigrad"]])
             / median([r["seconds"] for r in runs["nanoGPT (PyTorch)"]]))
    print(f"  ratio minigrad/nanoGPT wall time: {ratio:.2f}x (goal <= 0.7; < 1 means minigrad "
          f"is faster)")
    if args.cold:
        print(f"  iterations minigrad ran on the reference backend while its kernels compiled: "
              f"{[r['reference_iters'] for r in runs['minigrad']]}")


if __name__ == "__main__":
    main()

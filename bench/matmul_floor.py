"""The training step's matmul floor with each installed GEMM library, on 1 and 2 threads.

    python bench/matmul_floor.py                  # baby, every installed library, 2 threads
    python bench/matmul_floor.py --config gpt2 --libraries numpy mkl --threads 1 2 --rounds 3

The floor (``common.MatmulPeak``) is every matrix product of one training step of a config,
each timed alone at its median speed and added up: what a step that did nothing else would
take. ``bench/train_step.py`` and ``bench/vs_nanogpt.py`` measure it with ``numpy.matmul``
(NumPy's OpenBLAS, 2 threads). This script asks whether another GEMM would lower it: the
same products with each library of ``gemm.py`` (PyTorch, the newest OpenBLAS, oneMKL,
BLIS), each in a process of its own started with the thread count in its environment,
every library's products checked against ``numpy.matmul``'s first. For each thread count,
the libraries take turns round by round (a pause between turns lets the other's threads go
idle); it prints each library's floor per round, their medians, and each floor's ratio to
NumPy's.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import CONFIGS, MatmulPeak, get_config, load_line, machine_line
from gemm import LIBRARIES, SINGLE_THREADED, missing, thread_env
from worker import Worker

LABELS = {"numpy": "numpy.matmul", "torch": "torch.matmul", "openblas": "openblas.sgemm",
          "mkl": "mkl.sgemm", "blis": "blis.sgemm"}


def compare(cfg: object, libraries: list[str], threads: int, rounds: int, pause: float
            ) -> None:
    """One thread count: a worker per library, ``rounds`` turns each, then the medians."""
    print(f"{threads} thread{'s' if threads > 1 else ''}:")
    workers: dict[str, Worker] = {}
    try:
        with thread_env(threads):  # the workers' environment, read as their libraries load
            for lib in libraries:
                # by position: seed 0 and min_seconds 2e-3 are MatmulPeak's defaults
                workers[lib] = Worker(MatmulPeak, cfg, 0, 2e-3, lib, threads)
        for lib, w in workers.items():
            print(f"  {lib}: {w.call('describe')}")
        for r in range(rounds):
            for w in workers.values():
                time.sleep(pause)
                w.call("sample")
            print(f"  round {r + 1}: " + ", ".join(
                f"{lib} {w.call('last_floor_seconds') * 1e3:.2f} ms" for lib, w in workers.items()),
                flush=True)
        floors = {lib: w.call("floor_seconds") * 1e3 for lib, w in workers.items()}
        for lib, w in workers.items():
            peak, shape = w.call("peak_gflops")
            print(f"  {LABELS[lib]:14s} floor {floors[lib]:8.2f} ms (each product at its "
                  f"median), best projection {peak:.1f} GFLOP/s on {shape}")
    finally:
        for w in workers.values():
            w.close()
    if "numpy" in floors:
        for lib, floor in floors.items():
            if lib != "numpy":
                print(f"  ratio {lib}/numpy floor: {floor / floors['numpy']:.2f}x "
                      f"(< 1: {lib}'s products are faster)")


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, sample every library's floor in turns, print them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", default="baby", choices=list(CONFIGS))
    parser.add_argument("--libraries", nargs="+", default=list(LIBRARIES), choices=LIBRARIES,
                        help="contenders (default: all; one not installed is skipped)")
    parser.add_argument("--threads", nargs="+", type=int, default=[2],
                        help="thread counts, each compared on its own (default: 2)")
    parser.add_argument("--rounds", type=int, default=5, help="turns per library (5)")
    parser.add_argument("--pause", type=float, default=0.5, help="seconds between turns")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be >= 1")
    if min(args.threads) < 1:
        parser.error(f"--threads must be >= 1, got {min(args.threads)}")
    libraries = []
    for lib in dict.fromkeys(args.libraries):  # in order, once each
        message = missing(lib)
        if message is None:
            libraries.append(lib)
        else:
            print(message)
    cfg = get_config(args.config)
    print(f"The matmul floor of one {cfg.name} training step ({cfg.describe()})")
    print(f"machine: {machine_line()}; {load_line()}")
    for threads in dict.fromkeys(args.threads):
        here = [lib for lib in libraries if threads == 1 or lib not in SINGLE_THREADED]
        for lib in libraries:
            if lib not in here:
                print(f"{lib}: skipped at {threads} threads (the package is built without "
                      f"threading)")
        compare(cfg, here, threads, args.rounds, args.pause)


if __name__ == "__main__":
    main()

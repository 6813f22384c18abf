"""The training step's matmul floor with NumPy's and with PyTorch's matrix product.

    python bench/matmul_floor.py                  # baby, 5 rounds
    python bench/matmul_floor.py --config medium --rounds 3

The floor (``common.MatmulPeak``) is every matrix product of one training step of a config,
each timed alone at its median speed and added up: what a step that did nothing else would
take. ``bench/train_step.py`` and ``bench/vs_nanogpt.py`` measure it with ``numpy.matmul``
(NumPy's OpenBLAS, 2 threads). This script asks whether a different BLAS would lower it: the
same products with ``torch.matmul`` (PyTorch's own CPU GEMM, 2 threads), each library in a
process of its own, taking turns round by round (a pause between turns lets the other's
threads go idle). Prints each library's floor per round, their medians and the ratio.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import CONFIGS, MatmulPeak, get_config, load_line, machine_line
from worker import Worker


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, sample both floors in turns, print them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", default="baby", choices=list(CONFIGS))
    parser.add_argument("--rounds", type=int, default=5, help="turns per library (5)")
    parser.add_argument("--pause", type=float, default=0.5, help="seconds between turns")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be >= 1")
    libraries = ["numpy"]
    try:
        import torch  # noqa: F401  (only checked here; the worker imports it)

        libraries.append("torch")
    except ImportError:
        print("PyTorch is not installed: numpy.matmul only (pip install -e '.[bench]')")
    cfg = get_config(args.config)
    print(f"The matmul floor of one {cfg.name} training step ({cfg.describe()})")
    print(f"machine: {machine_line()}; {load_line()}")
    # Worker passes arguments by position: seed 0 and min_seconds 2e-3 are MatmulPeak's defaults
    workers = {lib: Worker(MatmulPeak, cfg, 0, 2e-3, lib) for lib in libraries}
    try:
        for r in range(args.rounds):
            for w in workers.values():
                time.sleep(args.pause)
                w.call("sample")
            print(f"  round {r + 1}: " + ", ".join(
                f"{lib} {w.call('last_floor_seconds') * 1e3:.2f} ms" for lib, w in workers.items()),
                flush=True)
        floors = {lib: w.call("floor_seconds") * 1e3 for lib, w in workers.items()}
        for lib, w in workers.items():
            peak, shape = w.call("peak_gflops")
            print(f"  {lib + '.matmul':14s} floor {floors[lib]:8.2f} ms (each product at its "
                  f"median), best projection {peak:.1f} GFLOP/s on {shape}")
    finally:
        for w in workers.values():
            w.close()
    if "torch" in floors:
        print(f"  ratio torch/numpy floor: {floors['torch'] / floors['numpy']:.2f}x "
              f"(< 1: PyTorch's products are faster)")


if __name__ == "__main__":
    main()

"""Data-parallel efficiency: 2 ranks with 1 thread each vs 1 process with 2 threads.

    python bench/data_parallel.py                     # config baby (nanoGPT's CPU run), ~1 min
    python bench/data_parallel.py --config small --steps 5 --warmup 1

Both contenders train the same GPT (``common.CONFIGS``) on the same global batch with
AdamW (``configure_optimizers``): ``single`` is one process whose BLAS and Numba kernels use
2 threads; ``2 ranks`` is ``mpiexec -n 2`` with 1 thread per rank, each rank computing half
of every batch, gradients averaged by ``minigrad.distributed.DistributedDataParallel``. Each
contender runs in processes of its own (thread counts are fixed when the libraries load),
one after the other: ``--warmup`` untimed steps, then ``--steps`` timed ones.

Printed per contender: median ms per step, tokens/s, and for the ranks the median time per
step spent waiting for the gradient all-reduce (inside ``process_group.wait``: the part of
the communication that backward did not hide) and its share of the step; then the
efficiency, single-process ms / 2-rank ms (1.0: as fast as one process with both cores).
The step includes the gradient-norm clip and the optimizer, as the trainer's does.
Needs the mpi extra (``pip install -e '.[mpi]'``) and a working ``mpiexec`` next to this
Python or on PATH.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import common
import numpy as np

import minigrad
from minigrad import distributed as dist
from minigrad import models
from minigrad.distributed import process_group
from minigrad.optim import clip_grad_norm_

HERE = Path(__file__).resolve().parent


def find_mpiexec() -> str | None:
    """mpiexec beside this Python (the mpich wheel's), else on PATH."""
    beside = Path(sys.executable).parent / "mpiexec"
    return str(beside) if beside.exists() else shutil.which("mpiexec")


def worker(args: argparse.Namespace) -> None:
    """Time training steps in this process (one rank of a run, or the single process)."""
    cfg = common.get_config(args.config)
    world, rank = 1, 0
    waited = [0.0]
    if args.ranks > 1:
        original_wait = process_group.wait

        def timed_wait(requests: list, what: str, *group) -> None:
            t0 = time.perf_counter()
            original_wait(requests, what, *group)
            waited[0] += time.perf_counter() - t0

        process_group.wait = timed_wait  # the data-parallel wrapper calls it through the module
        dist.init_process_group()
        world, rank = dist.get_world_size(), dist.get_rank()
    minigrad.manual_seed(0)
    model = models.GPT(vocab_size=cfg.vocab_size, block_size=cfg.block_size,
                       n_layer=cfg.n_layer, n_head=cfg.n_head, n_embd=cfg.n_embd)
    net = dist.DistributedDataParallel(model) if world > 1 else model
    opt = model.configure_optimizers(weight_decay=0.1, learning_rate=1e-3, betas=(0.9, 0.99))
    params = list(model.parameters())
    rng = np.random.default_rng(0)
    step_ms, wait_ms = [], []
    for step in range(args.warmup + args.steps):
        x = rng.integers(0, cfg.vocab_size, (cfg.batch_size, cfg.block_size))
        y = rng.integers(0, cfg.vocab_size, (cfg.batch_size, cfg.block_size))
        if world > 1:
            x, y = dist.split_batch((x, y), rank, world)
        waited[0] = 0.0
        t0 = time.perf_counter()
        loss = net(minigrad.tensor(x), minigrad.tensor(y))[1]
        loss.backward()
        if world > 1:
            net.finish_gradient_sync()
        clip_grad_norm_(params, 1.0)
        opt.step()
        opt.zero_grad()
        if step >= args.warmup:
            step_ms.append((time.perf_counter() - t0) * 1000.0)
            wait_ms.append(waited[0] * 1000.0)
    if rank == 0:
        print(json.dumps({"step_ms": common.median(step_ms), "wait_ms": common.median(wait_ms),
                          "world": world}), flush=True)


def run(cmd: list[str], threads: int) -> dict:
    """Run a worker command with ``threads`` threads per process; its rank 0's figures."""
    env = {**os.environ, "OMP_NUM_THREADS": str(threads), "NUMBA_NUM_THREADS": str(threads),
           "OPENBLAS_NUM_THREADS": str(threads)}
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600,
                          check=False)
    if done.returncode != 0:
        sys.exit(f"worker failed ({' '.join(cmd)}):\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--config", default="baby", choices=sorted(common.CONFIGS))
    p.add_argument("--steps", type=int, default=20, help="timed steps per contender")
    p.add_argument("--warmup", type=int, default=3, help="untimed steps first")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--ranks", type=int, default=1, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.steps < 1 or args.warmup < 0:
        p.error(f"--steps must be >= 1 and --warmup >= 0, got {args.steps} and {args.warmup}")
    if args.worker:
        worker(args)
        return 0
    mpiexec = find_mpiexec()
    if mpiexec is None:
        p.error("no mpiexec next to this Python or on PATH: pip install -e '.[mpi]'")
    cfg = common.get_config(args.config)
    if cfg.batch_size % 2:
        p.error(f"config {args.config}'s batch {cfg.batch_size} does not split over 2 ranks")
    base = [sys.executable, str(Path(__file__).resolve()), "--worker", "--config", args.config,
            "--steps", str(args.steps), "--warmup", str(args.warmup)]
    print(f"data-parallel efficiency, config {args.config}: {cfg.describe()}")
    print(common.machine_line())
    print(common.load_line())
    single = run(base, threads=2)
    ranks = run([mpiexec, "-n", "2", *base, "--ranks", "2"], threads=1)
    tokens = cfg.tokens_per_step
    print(f"{'contender':<22}{'ms/step':>10}{'tokens/s':>10}{'wait ms':>9}{'wait %':>8}")
    print(f"{'single (2 threads)':<22}{single['step_ms']:>10.1f}"
          f"{tokens * 1000 / single['step_ms']:>10.0f}{'-':>9}{'-':>8}")
    share = 100.0 * ranks["wait_ms"] / ranks["step_ms"]
    print(f"{'2 ranks (1 thread)':<22}{ranks['step_ms']:>10.1f}"
          f"{tokens * 1000 / ranks['step_ms']:>10.0f}{ranks['wait_ms']:>9.1f}{share:>7.1f}%")
    print(f"efficiency (single ms / 2-rank ms): {single['step_ms'] / ranks['step_ms']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

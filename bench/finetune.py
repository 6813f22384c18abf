"""Peak memory and step time of a GPT-2 124M fine-tuning step: minigrad beside PyTorch.

    .venv/bin/python bench/finetune.py                 # GPT-2 124M, block 256, batch 4
    .venv/bin/python bench/finetune.py --steps 5 --no-torch
    .venv/bin/python bench/finetune.py --tiny --steps 1   # a small model of the kind: smoke test

The step of ``minigrad-train --init-from gpt2 --block-size 256 --batch-size 4``: GPT-2
124M's shapes (12 layers, 12 heads, 768 wide, the 50,257-id vocabulary, tied head, biases),
context 256, 4 sequences; forward, loss, backward, clipping, AdamW. The weights are random
(neither memory nor time depends on their values). Each framework runs in a fresh process
of its own (this script with ``--child``, as ``bench/memory.py``): it builds the model and
its optimizer (``train_step.MinigradTrainer`` / ``train_step.TorchTrainer``, nanoGPT's
model), notes its resident set size, runs one untimed warm-up step and ``--steps`` timed
ones on random batches, and reports the peak resident set size of its whole life
(``ru_maxrss``) and the median step time. The PyTorch child never imports minigrad.

Printed per framework: RSS after the build, the peak, their difference (what training
needs beyond the weights: gradients, AdamW's two moments, activations, temporaries) and
the median ms/step.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH_DIR)

from common import CONFIGS, BenchConfig, load_line, machine_line, median, time_the_fast_kernels
from memory import current_rss_mb, peak_rss_mb, torch_installed

GPT2_FINETUNE = CONFIGS["gpt2"]  # the fine-tune step's sizes: the config bench/memory.py has
# the same kind of model, small enough for a smoke test
TINY = BenchConfig("gpt2-tiny", n_layer=2, n_head=2, n_embd=32, block_size=32, batch_size=2,
                   vocab_size=50257)
FRAMEWORKS = ("minigrad", "torch")


def train_figures(framework: str, cfg: BenchConfig, steps: int, sdpa: bool = False) -> dict:
    """Build ``cfg``'s model and optimizer in this process, run one untimed step and
    ``steps`` timed ones: RSS after the build, the process's peak, the median ms/step."""
    from train_step import MinigradTrainer, TorchTrainer, make_batches

    trainer = MinigradTrainer(cfg) if framework == "minigrad" else TorchTrainer(cfg, sdpa=sdpa)
    batches = make_batches(cfg, steps + 1)
    built = current_rss_mb()
    trainer.step(*batches[0])  # warm-up: kernels loaded, memory faulted in
    times = []
    for x, y in batches[1:]:
        t0 = time.perf_counter()
        trainer.step(x, y)
        times.append(time.perf_counter() - t0)
    return {"built": built, "peak": peak_rss_mb(), "ms": median(times) * 1000.0}


def child(framework: str, tiny: bool, steps: int) -> None:
    """Build and train one model in this process; print its figures as JSON."""
    print(json.dumps(train_figures(framework, TINY if tiny else GPT2_FINETUNE, steps)))


def measure(framework: str, tiny: bool, steps: int) -> dict[str, float]:
    """Run :func:`child` in a new process and return its figures."""
    cmd = [sys.executable, os.path.abspath(__file__), "--child", framework, str(int(tiny)),
           str(steps)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{framework} child failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    """Parse the command line; measure each framework in its own process."""
    time_the_fast_kernels()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=3, help="timed steps per process")
    parser.add_argument("--tiny", action="store_true",
                        help="a 2-layer, 32-wide model of the same kind (a smoke test)")
    parser.add_argument("--no-torch", action="store_true", help="measure minigrad only")
    parser.add_argument("--child", nargs=3, metavar=("FRAMEWORK", "TINY", "STEPS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        framework, tiny, steps = args.child
        if framework not in FRAMEWORKS:
            parser.error(f"--child: unknown framework {framework!r}")
        child(framework, tiny == "1", int(steps))
        return
    if args.steps < 1:
        parser.error(f"--steps must be >= 1, got {args.steps}")
    cfg = TINY if args.tiny else GPT2_FINETUNE
    frameworks = ["minigrad"]
    if not args.no_torch and torch_installed():
        frameworks.append("torch")
    print(f"GPT-2 fine-tuning step, {cfg.name}: {cfg.describe()}; {args.steps} timed steps "
          f"after 1 warm-up, each framework in its own process")
    print(f"machine: {machine_line()}; {load_line()}")
    if "torch" not in frameworks:
        print("PyTorch: not measured (" + ("--no-torch" if args.no_torch else "not installed")
              + ")")
    print(f"  {'framework':10s} {'after build MB':>15s} {'peak MB':>9s} {'training MB':>12s} "
          f"{'ms/step':>9s}")
    results = {}
    for framework in frameworks:
        r = results[framework] = measure(framework, args.tiny, args.steps)
        print(f"  {framework:10s} {r['built']:15.1f} {r['peak']:9.1f} "
              f"{r['peak'] - r['built']:12.1f} {r['ms']:9.1f}")
    if "torch" in results:
        m, t = results["minigrad"], results["torch"]
        print(f"  minigrad/torch: peak {m['peak'] / t['peak']:.2f}x, "
              f"step {m['ms'] / t['ms']:.2f}x")


if __name__ == "__main__":
    main()

"""Peak resident memory of a training loop: minigrad beside PyTorch.

    python bench/memory.py [--config baby medium] [--steps 3] [--no-torch]

Each (framework, config) runs in its own fresh process (this script with
``--child``), so one framework's libraries and allocations never count for
the other. The child imports its framework, builds the GPT and optimizer
(``train_step.MinigradTrainer`` / ``train_step.TorchTrainer``), notes its
resident set size (VmRSS from /proc/self/status), then runs ``--steps``
training steps and reports the peak resident set size of its whole life
(``ru_maxrss``). The PyTorch child never imports minigrad and vice versa.

Printed per row: RSS after imports + model build, the peak, and their
difference (what the training steps themselves needed: activations saved for
backward, gradients, AdamW's two moments, temporaries). The model's weights
are tiny next to that: baby has 0.8 M parameters (3.2 MB in float32),
medium 10.7 M (43 MB).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH_DIR)

from common import CONFIGS, load_line, machine_line, time_the_fast_kernels

FRAMEWORKS = ("minigrad", "torch")


def current_rss_mb() -> float:
    """Resident set size of this process now (MB), from /proc; the peak where /proc is absent."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return peak_rss_mb()


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far (MB; ru_maxrss is in KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(framework: str, config: str, steps: int) -> None:
    """Build and train one model in this process; print {"built": MB, "peak": MB} as JSON."""
    from train_step import MinigradTrainer, TorchTrainer, make_batches

    cfg = CONFIGS[config]
    trainer = MinigradTrainer(cfg) if framework == "minigrad" else TorchTrainer(cfg)
    batches = make_batches(cfg, steps)
    built = current_rss_mb()
    for x, y in batches:
        trainer.step(x, y)
    print(json.dumps({"built": built, "peak": peak_rss_mb()}))


def measure(framework: str, config: str, steps: int) -> dict[str, float]:
    """Run :func:`child` in a new process and return its figures."""
    cmd = [sys.executable, os.path.abspath(__file__), "--child", framework, config, str(steps)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{framework} {config} child failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def torch_installed() -> bool:
    """Whether PyTorch can be imported (checked without importing it here)."""
    import importlib.util

    return importlib.util.find_spec("torch") is not None


def main(argv: list[str] | None = None) -> None:
    """Parse the command line; measure each framework on each config in its own process."""
    time_the_fast_kernels()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", nargs="+", choices=list(CONFIGS), default=["baby", "medium"])
    parser.add_argument("--steps", type=int, default=3, help="training steps per process")
    parser.add_argument("--no-torch", action="store_true", help="measure minigrad only")
    parser.add_argument("--child", nargs=3, metavar=("FRAMEWORK", "CONFIG", "STEPS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        framework, config, steps = args.child
        if framework not in FRAMEWORKS or config not in CONFIGS:
            parser.error(f"--child: unknown framework {framework!r} or config {config!r}")
        child(framework, config, int(steps))
        return
    if args.steps < 1:
        parser.error(f"--steps must be >= 1, got {args.steps}")

    frameworks = ["minigrad"]
    if not args.no_torch and torch_installed():
        frameworks.append("torch")
    print(f"Peak resident memory of {args.steps} training steps (each row its own process)")
    print(f"machine: {machine_line()}; {load_line()}")
    if "torch" not in frameworks:
        print("PyTorch: not measured (" + ("--no-torch" if args.no_torch else "not installed")
              + ")")
    print(f"  {'config':8s} {'framework':10s} {'after build MB':>15s} {'peak MB':>9s} "
          f"{'training MB':>12s}")
    for config in args.config:
        peaks = {}
        for framework in frameworks:
            r = measure(framework, config, args.steps)
            peaks[framework] = r["peak"]
            print(f"  {config:8s} {framework:10s} {r['built']:15.1f} {r['peak']:9.1f} "
                  f"{r['peak'] - r['built']:12.1f}")
        if "torch" in peaks:
            print(f"  {config:8s} peak minigrad/torch: {peaks['minigrad'] / peaks['torch']:.2f}x")


if __name__ == "__main__":
    main()

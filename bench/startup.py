"""Start-up cost: process start to the first finished training step, and recompilation.

    python bench/startup.py [--config baby] [--warm-runs 2] [--no-trainer]

1. The trainer's default run (``minigrad-train`` with no flags but a 3-iteration length):
   a fresh ``python -c`` process runs ``minigrad.train.command.main`` and notes the time its
   first training step returns (the evaluation at iteration 0 comes before it, as in every
   run). First with a cold Numba cache (``NUMBA_CACHE_DIR`` a new empty directory), then
   ``--warm-runs`` times with the same directory. On the cold cache each kernel compiles
   in a background process while its reference primitive answers (``minigrad.cold_start``,
   the same mechanism as in 2.). Goal: first step finished <= 5 s after process start,
   cold.

2. Library use: a fresh process imports minigrad, builds the GPT and its AdamW
   (``train_step.MinigradTrainer``) and runs training steps directly. On the cold cache
   each kernel the step needs is sent to a background process to compile while its
   reference primitive answers (``minigrad/kernels/runtime/background_compile.py``); warm,
   the kernels load from the cache. The parent notes the wall-clock time before starting
   each process and the child the time after each phase; Python's own ``.pyc`` files are
   warm in both. Goals: <= 5 s cold, <= 3 s warm.

3. Recompilation. 2. Recompilation. In one more (warm) process, after a first step at the
   config's (batch, block) shape, training steps run on other shapes (batch
   and sequence length changed), twice over the same list. Numba compiles
   one machine-code version per *type* signature of the arguments (dtype,
   number of dimensions, memory layout), never per shape; the report lists
   every signature a kernel gained and flags real recompilation: a second
   pass over shapes already seen that still adds signatures, or a signature
   that bakes in a value (a Numba ``Literal`` type).
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

from common import CONFIGS, load_line, machine_line, median

# The child's phases: each appends (label, wall-clock time) when it finishes.
FIRST_STEP_CHILD = """
import time
marks = [("interpreter up", time.time())]
import sys, json
sys.path.insert(0, {bench_dir!r})
import numpy
marks.append(("import numpy", time.time()))
import numba
marks.append(("import numba", time.time()))
import minigrad, minigrad.nn, minigrad.models
marks.append(("import minigrad, nn, models", time.time()))
from common import CONFIGS
from train_step import MinigradTrainer, make_batches
cfg = CONFIGS[{config!r}]
trainer = MinigradTrainer(cfg)
(x, y), (x2, y2) = make_batches(cfg, 2)
marks.append(("build GPT + AdamW", time.time()))
trainer.step(x, y)
marks.append(("first training step", time.time()))
trainer.step(x2, y2)
marks.append(("second training step", time.time()))
# a cold run's background compile finishes before the warm runs start (untimed)
import minigrad.cold_start
minigrad.cold_start.wait_for_kernels()
print(json.dumps(marks))
"""

# The default run of the trainer (``minigrad-train``: nanoGPT's CPU config on Tiny
# Shakespeare, evaluation at iteration 0 included), cut to a few iterations; the child wraps
# the trainer's train_step to note when the first one returns.
TRAINER_CHILD = """
import time
marks = [("interpreter up", time.time())]
import sys, json
import minigrad.train.command as command
import minigrad.train.loop as loop
marks.append(("import minigrad + trainer", time.time()))
step = loop.train_step
def first_step_noted(*args, **kwargs):
    loss = step(*args, **kwargs)
    if len(marks) == 2:
        marks.append(("first training step", time.time()))
    return loss
loop.train_step = first_step_noted
code = command.main(["--max-iters", "3", "--max-new-tokens", "1", "--out-dir", {out_dir!r}])
marks.append(("run exited", time.time()))
print(json.dumps(marks))
"""

RECOMPILE_CHILD = """
import sys, json
sys.path.insert(0, {bench_dir!r})
import numpy as np
from numba.core.dispatcher import Dispatcher
from dataclasses import replace
from common import CONFIGS
from train_step import MinigradTrainer

def kernels():
    found = {{}}
    for mod_name, mod in list(sys.modules.items()):
        if mod is None or not mod_name.split(".")[0] in ("minigrad", "nn", "models"):
            continue
        for attr, obj in vars(mod).items():
            if isinstance(obj, Dispatcher):
                found[obj.py_func.__module__ + "." + obj.py_func.__qualname__] = obj
    return found

def signatures():
    return {{name: [str(s) for s in d.signatures] for name, d in kernels().items()}}

cfg = CONFIGS[{config!r}]
trainer = MinigradTrainer(cfg)
rng = np.random.default_rng(0)
def step(b, t):
    x = rng.integers(0, cfg.vocab_size, (b, t)); y = rng.integers(0, cfg.vocab_size, (b, t))
    trainer.step(x, y)
step(cfg.batch_size, cfg.block_size)
report = {{"after_first_step": signatures(), "passes": []}}
shapes = {shapes!r}
for _ in range(2):
    seen = []
    for b, t in shapes:
        before = signatures()
        step(b, t)
        after = signatures()
        new = {{k: [s for s in after[k] if s not in before.get(k, [])] for k in after}}
        seen.append([b, t, {{k: v for k, v in new.items() if v}}])
    report["passes"].append(seen)
print(json.dumps(report))
"""


def run_child(code: str, cache_dir: str) -> tuple[float, str]:
    """Run ``python -c code`` with NUMBA_CACHE_DIR=cache_dir; (start time, its stdout)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    start = time.time()
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise RuntimeError(f"benchmark child failed (exit {done.returncode}):\n{done.stderr}")
    return start, done.stdout.strip().splitlines()[-1]


def time_phases(code: str, cache_dir: str) -> list[tuple[str, float]]:
    """[(phase, seconds since the parent started the process)] of one child run."""
    start, out = run_child(code, cache_dir)
    return [(label, t - start) for label, t in json.loads(out)]


def print_runs(runs: list[tuple[str, list[tuple[str, float]]]], goal: str) -> None:
    """The phase table of a cold run and its warm repeats, and the time to the first step."""
    phases = [label for label, _ in runs[0][1]]
    print("seconds since process start, at the end of each phase:")
    print(f"  {'phase':30s}" + "".join(f"{name:>9s}" for name, _ in runs))
    for i, phase in enumerate(phases):
        print(f"  {phase:30s}" + "".join(f"{marks[i][1]:9.2f}" for _, marks in runs))
    first = phases.index("first training step")
    warm = median([marks[first][1] for _, marks in runs[1:]])
    print(f"time to first finished step: cold {runs[0][1][first][1]:.2f} s, warm {warm:.2f} s "
          f"(median of {len(runs) - 1}; {goal})")


def main(argv: list[str] | None = None) -> None:
    """Parse the command line; print cold and warm start-up and the recompilation check."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", choices=list(CONFIGS), default="baby")
    parser.add_argument("--warm-runs", type=int, default=2, help="runs with the warm cache")
    parser.add_argument("--no-recompile-check", action="store_true")
    parser.add_argument("--no-trainer", action="store_true",
                        help="skip the trainer's default run (part 1)")
    args = parser.parse_args(argv)
    if args.warm_runs < 1:
        parser.error(f"--warm-runs must be >= 1, got {args.warm_runs}")

    cfg = CONFIGS[args.config]
    print(f"Start-up of a minigrad training run, config {cfg.name}: {cfg.describe()}")
    print(f"machine: {machine_line()}; {load_line()}")
    with tempfile.TemporaryDirectory(prefix="minigrad-numba-cache-") as cache_dir:
        if not args.no_trainer:
            print("\n1. The default run of the trainer (minigrad-train, 3 iterations; a new "
                  "NUMBA_CACHE_DIR for the cold run; kernels compile in the background):")
            runs = []
            for name in ["cold"] + [f"warm {i + 1}" for i in range(args.warm_runs)]:
                code = TRAINER_CHILD.format(out_dir=os.path.join(cache_dir, f"run-{len(runs)}"))
                runs.append((name, time_phases(code, cache_dir + "/trainer")))
            print_runs(runs, "goal <= 5 s cold")
        print(f"\n2. Library use: GPT + AdamW of config {cfg.name} built and stepped directly "
              f"(cold: kernels compile in a background process, NumPy answers meanwhile):")
        code = FIRST_STEP_CHILD.format(bench_dir=BENCH_DIR, config=cfg.name)
        runs = [("cold", time_phases(code, cache_dir))]
        runs += [(f"warm {i + 1}", time_phases(code, cache_dir)) for i in range(args.warm_runs)]
        print_runs(runs, "goals <= 5 s cold, <= 3 s warm")

        if not args.no_recompile_check:
            b, t = cfg.batch_size, cfg.block_size
            shapes = [(max(1, b // 3), t), (b, max(1, t // 2)), (b + 1, t - 3), (1, 1),
                      (3, max(1, t // 4) + 1), (b, t)]
            code = RECOMPILE_CHILD.format(bench_dir=BENCH_DIR, config=cfg.name, shapes=shapes)
            report = json.loads(run_child(code, cache_dir)[1])
            print_recompile_report(report, (b, t))


def print_recompile_report(report: dict, first_shape: tuple[int, int]) -> None:
    """Print the signatures each kernel has after the first step and what later shapes added."""
    sigs = report["after_first_step"]
    print(f"\nNumba kernels after the first step at (batch, seq) = {first_shape}: {len(sigs)} "
          f"kernels loaded, {sum(map(len, sigs.values()))} compiled signatures")
    literal = []
    for number, seen in enumerate(report["passes"], start=1):
        added = sum(len(v) for _, _, new in seen for v in new.values())
        print(f"pass {number} over (batch, seq) shapes {[(b, t) for b, t, _ in seen]}: "
              f"{added} new signatures")
        for b, t, new in seen:
            for kernel, signatures in new.items():
                for s in signatures:
                    print(f"    ({b}, {t}) {kernel}{s}")
                    if "Literal" in s:
                        literal.append(kernel)
    second = sum(len(v) for _, _, new in report["passes"][-1] for v in new.values())
    verdict = "no" if second == 0 and not literal else "YES"
    print(f"recompilation per call or per shape: {verdict} (second pass added {second} "
          f"signatures; value-specialised Literal signatures: {sorted(set(literal)) or 'none'})")


if __name__ == "__main__":
    main()

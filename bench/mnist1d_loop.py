"""A whole training run of MNIST-1D's MLP: minigrad beside PyTorch eager, loop and all.

    python bench/mnist1d_loop.py                       # 8,000 steps each, 2 rounds
    python bench/mnist1d_loop.py --steps 500 --rounds 1 --eager-too

The learner-scale case: the paper's MLP (40-100-100-10, the second hidden layer residual;
``examples/mnist1d_table.py``), batch 100, Adam lr 1e-2, 8,000 steps over a 4,000-example
training set, its batches in order from a ``DataLoader`` (minigrad's and PyTorch's; the
paper's loop does not shuffle either). What is
timed is the whole loop a user writes: fetch a batch, forward, cross-entropy, backward,
Adam step, zero the gradients, read the loss. At this size the arithmetic is next to
nothing and the loop is interpreter work, in both frameworks.

Contenders, each in a process of its own (``worker.py``), one after the other per round,
with the same starting weights (minigrad's, loaded into PyTorch's twin) and data (random,
the shape of MNIST-1D's: the time does not depend on the values):

- ``minigrad``: ``examples/classify.fit``, whose step is captured (``minigrad.capture``);
- ``minigrad-eager`` (``--eager-too``): the same loop with the step run eagerly;
- ``torch``: the same loop in PyTorch eager (``torch.set_num_threads(--torch-threads)``).

Printed: seconds per run (the median over rounds), the ratio to PyTorch, and each run's
last loss (close, not equal: over thousands of steps two libraries' float32 sums drift
apart; the two minigrad runs are equal, since replay is the eager arithmetic).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "examples"))

from common import load_line, machine_line, median, time_the_fast_kernels
from worker import Worker

TRAIN, LENGTH, CLASSES, BATCH, LR = 4000, 40, 10, 100, 1e-2


def make_data(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(x (4000, 40) float32, y (4000,) int64), random."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((TRAIN, LENGTH)).astype(np.float32),
            rng.integers(0, CLASSES, TRAIN).astype(np.int64))


class MinigradRun:
    """``examples/classify.fit`` on the MLP, captured or eager."""

    def __init__(self, captured: bool) -> None:
        from mnist1d_table import MLP

        import minigrad

        minigrad.manual_seed(0)
        self.mg, self.captured = minigrad, captured
        self.model = MLP()
        self.start = {k: np.array(v.data) for k, v in self.model.state_dict().items()}

    def weights(self) -> dict[str, np.ndarray]:
        return self.start

    def run(self, steps: int) -> tuple[float, float]:
        """(seconds, last loss) of a run of ``steps`` from the starting weights."""
        from classify import fit

        from minigrad.utils.data import DataLoader, TensorDataset

        self.model.load_state_dict({k: self.mg.tensor(v) for k, v in self.start.items()})
        x, y = make_data()
        loader = DataLoader(TensorDataset(self.mg.tensor(x), self.mg.tensor(y)),
                            batch_size=BATCH)
        t0 = time.perf_counter()
        loss = fit(self.model, loader, steps, LR, captured=self.captured)
        return time.perf_counter() - t0, loss


class TorchRun:
    """The same loop in PyTorch eager."""

    def __init__(self, weights: dict[str, np.ndarray], threads: int) -> None:
        import torch

        torch.set_num_threads(threads)
        self.torch = torch
        nn = torch.nn

        class MLP(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.linear1 = nn.Linear(LENGTH, 100)
                self.linear2 = nn.Linear(100, 100)
                self.linear3 = nn.Linear(100, CLASSES)

            def forward(self, x: Any) -> Any:
                h = self.linear1(x).relu()
                h = h + self.linear2(h).relu()
                return self.linear3(h)

        self.model = MLP()
        self.start = {k: torch.tensor(v) for k, v in weights.items()}

    def run(self, steps: int) -> tuple[float, float]:
        torch = self.torch
        from torch.utils.data import DataLoader, TensorDataset

        self.model.load_state_dict(self.start)
        x, y = make_data()
        loader = DataLoader(TensorDataset(torch.from_numpy(x), torch.from_numpy(y)),
                            batch_size=BATCH)
        opt = torch.optim.Adam(self.model.parameters(), lr=LR)
        self.model.train()
        t0 = time.perf_counter()
        done, loss_value = 0, float("nan")
        while done < steps:
            for xb, yb in loader:
                loss = torch.nn.functional.cross_entropy(self.model(xb), yb)
                loss.backward()
                opt.step()
                opt.zero_grad()
                loss_value, done = loss.item(), done + 1
                if done == steps:
                    break
        return time.perf_counter() - t0, loss_value


def main(argv: list[str] | None = None) -> None:
    time_the_fast_kernels()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=8000, help="steps per run (default 8000)")
    parser.add_argument("--rounds", type=int, default=2, help="runs per contender (default 2)")
    parser.add_argument("--torch-threads", type=int, default=2)
    parser.add_argument("--eager-too", action="store_true",
                        help="also run minigrad's loop with the step eager (minigrad-eager)")
    parser.add_argument("--no-torch", action="store_true", help="time minigrad only")
    args = parser.parse_args(argv)
    if args.steps < 1 or args.rounds < 1:
        parser.error("--steps and --rounds must be >= 1")
    names = ["minigrad"] + (["minigrad-eager"] if args.eager_too else [])
    workers = {"minigrad": Worker(MinigradRun, True)}
    try:
        if args.eager_too:
            workers["minigrad-eager"] = Worker(MinigradRun, False)
        if not args.no_torch:
            try:
                import torch  # noqa: F401
                names.append("torch")
                weights = workers["minigrad"].call("weights")
                workers["torch"] = Worker(TorchRun, weights, args.torch_threads)
            except ImportError:
                print("PyTorch: not installed, minigrad alone")
        print(f"machine: {machine_line()}; {load_line()}")
        print(f"MNIST-1D MLP 40-100-100-10, batch {BATCH}, Adam lr {LR:g}, {args.steps} steps "
              f"per run, {args.rounds} round(s), one contender at a time")
        for w in workers.values():
            w.call("run", 20)  # untimed: imports, first kernels
        results: dict[str, list[tuple[float, float]]] = {n: [] for n in names}
        for _ in range(args.rounds):
            for name in names:
                time.sleep(0.2)
                results[name].append(workers[name].call("run", args.steps))
        base = median([s for s, _ in results["torch"]]) if "torch" in results else None
        print(f"{'contender':<15} {'s/run':>8} {'fastest':>8} {'ratio':>7}   last loss")
        for name in names:
            secs = [s for s, _ in results[name]]
            ratio = f"{median(secs) / base:.2f}x" if base else ""
            print(f"{name:<15} {median(secs):8.2f} {min(secs):8.2f} {ratio:>7}   "
                  f"{results[name][-1][1]:.4f}")
    finally:
        for w in workers.values():
            w.close()


if __name__ == "__main__":
    main()

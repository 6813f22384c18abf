"""Training steps of convolutional and recurrent networks: minigrad beside PyTorch.

    python bench/layers.py                          # every case, 20 timed steps each
    python bench/layers.py --case conv --steps 10   # one case
    python bench/layers.py --no-torch --steps 2     # minigrad alone (a smoke run)

Cases (float32; the models of ``examples/``, and two layers at their usual sizes):

- ``conv``: ``Conv2d(64, 64, 3, padding=1)`` on x (32, 64, 56, 56) (a ResNet stage's
  shape), forward and backward with x requiring its gradient (a layer inside a network):
  loss = sum(conv(x) * r), r fixed; no optimizer step;
- ``mnist1d-cnn``: the MNIST-1D CNN of ``examples/mnist1d_table.py`` (three strided Conv1d
  of 25 channels and a Linear), batch 100 of (40,) signals, Adam lr 1e-2;
- ``mnist1d-gru``: its bidirectional GRU of hidden size 6 over the 40 points and a Linear,
  batch 100, Adam lr 1e-2;
- ``digits-cnn``: the digits CNN of ``examples/digits_cnn.py`` (two Conv2d-BatchNorm2d-ReLU-
  MaxPool2d stages and a Linear), batch 64 of (1, 8, 8) images, Adam lr 1e-3, weight decay
  1e-4;
- ``lstm``: ``LSTM(128, 128, batch_first=True)`` over batch 32 of 64 steps and a Linear on the
  last step's h, Adam lr 1e-3.

A training step is the examples' (``examples/classify.py``'s ``fit``): forward,
cross-entropy, backward, Adam step, zero the gradients; minigrad's forward and backward are
a captured step (``minigrad.capture``), as ``fit`` runs them, and ``--eager-too`` also times
them run eagerly (``minigrad-eager``). Each framework runs in a process of
its own (``worker.py``), with the same starting weights (minigrad's, loaded into the PyTorch
twin) and the same batches (random: the speed does not depend on the values), so the first
and last losses printed must agree to about four decimals. They take turns, ``--run-length``
back-to-back steps each after a ``--pause`` and one untimed step, after ``--warmup`` untimed
steps; printed per case: the median ms per step (fastest beside it) and, on torch's row,
the ratio minigrad/torch (below 1: minigrad is faster; on minigrad-eager's row, its own
ratio to torch).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "examples"))

from common import load_line, machine_line, median, time_call, time_the_fast_kernels
from worker import Worker

CASES = ("conv", "mnist1d-cnn", "mnist1d-gru", "digits-cnn", "lstm")


def make_data(case: str, count: int, seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """``count`` batches (x, y) of the case: float32 inputs, int64 labels (or, for ``conv``,
    the fixed upstream gradient r in place of labels)."""
    rng = np.random.default_rng(seed)
    shape, labels = {"conv": ((32, 64, 56, 56), None), "mnist1d-cnn": ((100, 40), 10),
                     "mnist1d-gru": ((100, 40), 10), "digits-cnn": ((64, 1, 8, 8), 10),
                     "lstm": ((32, 64, 128), 10)}[case]
    batches = []
    for _ in range(count):
        x = rng.standard_normal(shape).astype(np.float32)
        if labels is None:
            y = rng.standard_normal((32, 64, 56, 56)).astype(np.float32)
        else:
            y = rng.integers(0, labels, shape[0]).astype(np.int64)
        batches.append((x, y))
    return batches


def minigrad_model(case: str) -> tuple[Any, float, float]:
    """(model, learning rate, weight decay) of the case, built with minigrad (seed 0)."""
    import minigrad
    from minigrad import nn

    minigrad.manual_seed(0)
    if case == "conv":
        return nn.Conv2d(64, 64, 3, padding=1), 0.0, 0.0
    if case == "mnist1d-cnn":
        from mnist1d_table import CNN
        return CNN(), 1e-2, 0.0
    if case == "mnist1d-gru":
        from mnist1d_table import GRUClassifier
        return GRUClassifier(), 1e-2, 0.0
    if case == "digits-cnn":
        from digits_cnn import digits_cnn
        return digits_cnn(), 1e-3, 1e-4

    class LSTMClassifier(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lstm = nn.LSTM(128, 128, batch_first=True)
            self.linear = nn.Linear(128, 10)

        def forward(self, x: Any) -> Any:
            out, _ = self.lstm(x)
            return self.linear(out[:, -1])

    return LSTMClassifier(), 1e-3, 0.0


def torch_model(case: str) -> Any:
    """The case's model in PyTorch, parameter names as minigrad's (its weights load)."""
    import torch
    from torch import nn

    if case == "conv":
        return nn.Conv2d(64, 64, 3, padding=1)
    if case == "mnist1d-cnn":
        class CNN(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.features = nn.Sequential(
                    nn.Conv1d(1, 25, 5, stride=2, padding=1), nn.ReLU(),
                    nn.Conv1d(25, 25, 3, stride=2, padding=1), nn.ReLU(),
                    nn.Conv1d(25, 25, 3, stride=2, padding=1), nn.ReLU(), nn.Flatten())
                self.linear = nn.Linear(125, 10)

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return self.linear(self.features(x.reshape(x.shape[0], 1, 40)))
        return CNN()
    if case == "mnist1d-gru":
        class GRUClassifier(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.gru = nn.GRU(1, 6, batch_first=True, bidirectional=True)
                self.linear = nn.Linear(2 * 6 * 40, 10)

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                out, _ = self.gru(x.reshape(x.shape[0], 40, 1))
                return self.linear(out.reshape(x.shape[0], -1))
        return GRUClassifier()
    if case == "digits-cnn":
        return nn.Sequential(
            nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
            nn.Flatten(), nn.Linear(64 * 2 * 2, 10))

    class LSTMClassifier(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lstm = nn.LSTM(128, 128, batch_first=True)
            self.linear = nn.Linear(128, 10)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            out, _ = self.lstm(x)
            return self.linear(out[:, -1])

    return LSTMClassifier()


class MinigradStep:
    """One training step of the case in minigrad (see the module docstring)."""

    def __init__(self, case: str, captured: bool = True) -> None:
        import minigrad
        from minigrad.nn import functional as F

        self.case, self.F, self.mg = case, F, minigrad
        self.model, lr, decay = minigrad_model(case)
        self.model.train()
        self.opt = (None if case == "conv" else
                    minigrad.optim.Adam(self.model.parameters(), lr=lr, weight_decay=decay))

        def forward_backward(x: Any, y: Any) -> Any:
            if case == "conv":
                loss = (self.model(x) * y).sum()
            else:
                loss = F.cross_entropy(self.model(x), y)
            loss.backward()
            return loss

        self.forward_backward = minigrad.capture(forward_backward) if captured \
            else forward_backward

    def weights(self) -> dict[str, np.ndarray]:
        """The starting weights and buffers, by name (copies)."""
        return {k: np.array(v.data) for k, v in self.model.state_dict().items()}

    def __call__(self, x: np.ndarray, y: np.ndarray) -> float:
        if self.case == "conv":
            xt = self.mg.tensor(x, requires_grad=True)
            loss = self.forward_backward(xt, self.mg.tensor(y))
            self.model.zero_grad()
            return loss.item()
        loss = self.forward_backward(self.mg.tensor(x), self.mg.tensor(y))
        self.opt.step()
        self.opt.zero_grad()
        return loss.item()


class TorchStep:
    """The same step in PyTorch, from minigrad's starting weights."""

    def __init__(self, case: str, weights: dict[str, np.ndarray], threads: int) -> None:
        import torch

        torch.set_num_threads(threads)
        self.case, self.torch = case, torch
        self.model = torch_model(case)
        self.model.load_state_dict({k: torch.tensor(v) for k, v in weights.items()})
        self.model.train()
        _, lr, decay = {"mnist1d-cnn": (0, 1e-2, 0.0), "mnist1d-gru": (0, 1e-2, 0.0),
                        "digits-cnn": (0, 1e-3, 1e-4), "lstm": (0, 1e-3, 0.0),
                        "conv": (0, 0.0, 0.0)}[case]
        self.opt = (None if case == "conv" else
                    torch.optim.Adam(self.model.parameters(), lr=lr, weight_decay=decay))

    def __call__(self, x: np.ndarray, y: np.ndarray) -> float:
        torch = self.torch
        if self.case == "conv":
            xt = torch.from_numpy(x).requires_grad_()
            loss = (self.model(xt) * torch.from_numpy(y)).sum()
            loss.backward()
            self.model.zero_grad()
            return loss.item()
        loss = torch.nn.functional.cross_entropy(self.model(torch.from_numpy(x)),
                                                 torch.from_numpy(y))
        loss.backward()
        self.opt.step()
        self.opt.zero_grad()
        return loss.item()


class Contender:
    """One framework's step and its batches; :meth:`run` times consecutive steps."""

    def __init__(self, name: str, case: str, batches: int,
                 weights: dict[str, np.ndarray] | None = None, threads: int = 2) -> None:
        self.step: Callable[[np.ndarray, np.ndarray], float] = (
            MinigradStep(case, captured=name == "minigrad") if name.startswith("minigrad")
            else TorchStep(case, weights, threads))
        self.batches = make_data(case, batches)
        self.losses: list[float] = []

    def run(self, count: int) -> list[float]:
        """Seconds of each of ``count`` back-to-back steps."""
        times = []
        for _ in range(count):
            x, y = self.batches[len(self.losses) % len(self.batches)]
            times.append(time_call(lambda: self.losses.append(self.step(x, y))))  # noqa: B023
        return times

    def weights(self) -> dict[str, np.ndarray]:
        return self.step.weights()

    def loss_history(self) -> list[float]:
        return self.losses


def time_case(case: str, names: list[str], steps: int, run_length: int, warmup: int,
              pause: float, threads: int) -> tuple[dict[str, list[float]], dict[str, list]]:
    """(step seconds, losses) per contender, each in a process of its own, taking turns."""
    batches = 4
    workers = {"minigrad": Worker(Contender, "minigrad", case, batches)}
    if "minigrad-eager" in names:
        workers["minigrad-eager"] = Worker(Contender, "minigrad-eager", case, batches)
    try:
        if "torch" in names:
            weights = workers["minigrad"].call("weights")
            workers["torch"] = Worker(Contender, "torch", case, batches, weights, threads)
        for w in workers.values():
            if warmup:
                w.call("run", warmup)
        times: dict[str, list[float]] = {name: [] for name in workers}
        while len(times["minigrad"]) < steps:
            count = min(run_length, steps - len(times["minigrad"]))
            for name, w in workers.items():
                time.sleep(pause)
                times[name] += w.call("run", 1 + count)[1:]
        return times, {name: w.call("loss_history") for name, w in workers.items()}
    finally:
        for w in workers.values():
            w.close()


def torch_available() -> bool:
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


def main(argv: list[str] | None = None) -> None:
    time_the_fast_kernels()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--case", choices=[*CASES, "all"], default="all")
    parser.add_argument("--steps", type=int, default=20, help="timed steps (default 20)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed steps first (default 3)")
    parser.add_argument("--run-length", type=int, default=5,
                        help="back-to-back steps per turn (default 5)")
    parser.add_argument("--pause", type=float, default=0.15,
                        help="seconds of sleep before each turn (default 0.15)")
    parser.add_argument("--torch-threads", type=int, default=2, help="torch.set_num_threads")
    parser.add_argument("--no-torch", action="store_true", help="time minigrad only")
    parser.add_argument("--eager-too", action="store_true",
                        help="also time minigrad's step run eagerly (minigrad-eager)")
    args = parser.parse_args(argv)
    for name in ("steps", "run_length"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be >= 1, got {getattr(args, name)}")
    if args.warmup < 0 or args.pause < 0:
        parser.error("--warmup and --pause must be >= 0")
    names = ["minigrad"] + (["minigrad-eager"] if args.eager_too else [])
    if args.no_torch:
        print("PyTorch: not timed (--no-torch)")
    elif torch_available():
        names.append("torch")
    else:
        print("PyTorch: not installed, minigrad alone")
    print(f"machine: {machine_line()}; {load_line()}")
    print(f"{args.steps} timed steps, runs of {args.run_length} in turn, {args.warmup} warm-up")
    print(f"{'case':<12} {'contender':<14} {'ms/step':>9} {'fastest':>9} {'ratio':>7}   "
          "loss first -> last")
    for case in (CASES if args.case == "all" else (args.case,)):
        times, losses = time_case(case, names, args.steps, args.run_length, args.warmup,
                                  args.pause, args.torch_threads)
        mine = median(times["minigrad"])
        for name in names:
            ms = median(times[name])
            ratio = f"{mine / ms:.2f}x" if name == "torch" else ""
            if name == "minigrad-eager" and "torch" in times:
                ratio = f"{ms / median(times['torch']):.2f}x"
            print(f"{case:<12} {name:<14} {1e3 * ms:9.2f} {1e3 * min(times[name]):9.2f} "
                  f"{ratio:>7}   {losses[name][0]:.4f} -> {losses[name][-1]:.4f}")


if __name__ == "__main__":
    main()

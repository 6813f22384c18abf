"""MNIST-1D's table of model families, trained with minigrad beside the paper's numbers.

    .venv/bin/python examples/mnist1d_table.py                       # the paper's run, seed 0
    .venv/bin/python examples/mnist1d_table.py --seeds 0 1 2         # three seeds
    .venv/bin/python examples/mnist1d_table.py --models mlp --steps 2000   # a shorter look

MNIST-1D (Greydanus, "Scaling down deep learning", 2020) draws each of the ten digits as a
1-D template of 12 points, then pads, shears, scales, shifts and adds correlated noise to
reach 40 points per sample. The `mnist1d` package (the `examples` extra) generates it
locally with the paper's defaults (`get_dataset_args()`, seed 42), no download: 4,000
training and 1,000 test samples, used as generated (the signals already have mean ~0 and
standard deviation ~1; the paper scales nothing). The generated set equals, to 1e-15, the
`mnist1d_data.pkl` the paper's notebooks load. The script is not named `mnist1d.py`: that
name would shadow the package it imports.

The four model families, as the paper's `models.py` defines them:

    logistic   Linear(40, 10)                                               (B, 40) -> (B, 10)
    mlp        h = relu(Linear(40, 100) x); h = h + relu(Linear(100, 100) h); Linear(100, 10) h
    cnn        (B, 1, 40) -> Conv1d(1, 25, 5, stride 2, pad 1) -> (B, 25, 19)
                          -> Conv1d(25, 25, 3, stride 2, pad 1) -> (B, 25, 10)
                          -> Conv1d(25, 25, 3, stride 2, pad 1) -> (B, 25, 5), ReLU after each
                          -> Flatten -> Linear(125, 10)
    gru        (B, 40, 1) -> bidirectional GRU, hidden 6, zero initial state -> (B, 40, 12)
                          -> Flatten -> Linear(480, 10)

The training follows the paper's `train_model` (its `train.py`) as its benchmark notebooks
call it: Adam, learning rate 1e-2, no weight decay, cross-entropy, batches of 100 taken in
order through the training set (no shuffling), `total_steps` = 6,000 (the notebooks set it;
`get_model_args` says 8,000), and the loop runs steps 0..total_steps, so 6,001 updates. The
test accuracy is measured every 250 steps; the number reported is the last one, the final
model's, as the notebooks print it. The best of those evaluations is shown beside it: it is
chosen on the test set, so it is not a test accuracy, but it shows how far a curve in the
paper's figure rises. A seed sets the initial weights (the paper uses 42 for every model).

The paper states no seed spread. Its own notebooks, run once each at seed 42, end at
logistic 31.7 / 31.5%, MLP 64.6 / 65.1%, CNN 92.5 / 92.3%, GRU 91.1 / 89.1% (the 2020
quickstart and the 2024 classification notebook). The table's 68% for the MLP is not what
that code gives: `get_model_args` carries a hidden size of 256 that the notebooks never pass
to the MLP, which keeps `models.py`'s 100 (15,210 parameters, as they print). Trained the
same way at width 256, PyTorch's MLP ends at 66.3-69.7% (seeds 0, 1, 2, 42), around the
table's 68%; this script keeps the code's 100.
"""

from __future__ import annotations

import argparse
import sys
import time
from types import ModuleType

import numpy as np
from classify import accuracy, fit, require

import minigrad
from minigrad import Tensor, nn
from minigrad.utils.data import DataLoader, TensorDataset

# The paper's test accuracies (its README and Figure 2), in percent.
PAPER = {"logistic": 32.0, "mlp": 68.0, "cnn": 94.0, "gru": 91.0}
# The final test accuracies the paper's notebooks print for its code at seed 42, in percent:
# the 2020 quickstart and the 2024 classification notebook.
PAPER_RUNS = {"logistic": (31.7, 31.5), "mlp": (64.6, 65.1), "cnn": (92.5, 92.3),
              "gru": (91.1, 89.1)}
LENGTH, CLASSES = 40, 10
LR, BATCH = 1e-2, 100
STEPS, EVAL_EVERY = 6000, 250


class MLP(nn.Module):
    """The paper's MLP: two hidden layers of 100 ReLUs, the second one residual."""

    def __init__(self, hidden: int = 100) -> None:
        super().__init__()
        self.linear1 = nn.Linear(LENGTH, hidden)
        self.linear2 = nn.Linear(hidden, hidden)
        self.linear3 = nn.Linear(hidden, CLASSES)

    def forward(self, x: Tensor) -> Tensor:
        """x (B, 40) -> logits (B, 10)."""
        h = self.linear1(x).relu()
        h = h + self.linear2(h).relu()
        return self.linear3(h)


class GRUClassifier(nn.Module):
    """A bidirectional GRU reads the signal one point at a time; a linear layer reads every
    time step's hidden state."""

    def __init__(self, hidden: int = 6) -> None:
        super().__init__()
        self.gru = nn.GRU(1, hidden, batch_first=True, bidirectional=True)
        self.linear = nn.Linear(2 * hidden * LENGTH, CLASSES)

    def forward(self, x: Tensor) -> Tensor:
        """x (B, 40) -> (B, 40, 1) -> GRU outputs (B, 40, 2 hidden) -> logits (B, 10)."""
        out, _ = self.gru(x.reshape(x.shape[0], LENGTH, 1))
        return self.linear(out.reshape(x.shape[0], -1))


class CNN(nn.Module):
    """Three strided 1-D convolutions of 25 channels, then a linear layer."""

    def __init__(self, channels: int = 25) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, channels, 5, stride=2, padding=1), nn.ReLU(),         # (B, 25, 19)
            nn.Conv1d(channels, channels, 3, stride=2, padding=1), nn.ReLU(),  # (B, 25, 10)
            nn.Conv1d(channels, channels, 3, stride=2, padding=1), nn.ReLU(),  # (B, 25, 5)
            nn.Flatten())
        self.linear = nn.Linear(channels * 5, CLASSES)

    def forward(self, x: Tensor) -> Tensor:
        """x (B, 40) -> (B, 1, 40) -> features (B, 125) -> logits (B, 10)."""
        return self.linear(self.features(x.reshape(x.shape[0], 1, LENGTH)))


MODELS = {"logistic": lambda: nn.Linear(LENGTH, CLASSES), "mlp": MLP, "cnn": CNN,
          "gru": GRUClassifier}


def load_mnist1d(generator: ModuleType) -> dict[str, np.ndarray]:
    """The default MNIST-1D from `mnist1d.data` (seed 42, the package's defaults): x (4000, 40),
    y (4000,), x_test (1000, 40), y_test (1000,)."""
    data = generator.make_dataset(generator.get_dataset_args())
    return {"x": data["x"].astype(np.float32), "y": data["y"].astype(np.int64),
            "x_test": data["x_test"].astype(np.float32),
            "y_test": data["y_test"].astype(np.int64)}


def train_one(name: str, data: dict[str, np.ndarray], steps: int,
              seed: int) -> tuple[float, float]:
    """Train model family `name` from seed `seed` for the paper's steps 0..`steps`; its final
    test accuracy and the best of the evaluations every 250 steps, both in [0, 1]."""
    minigrad.manual_seed(seed)
    model = MODELS[name]()
    train = TensorDataset(minigrad.tensor(data["x"]), minigrad.tensor(data["y"]))
    curve: list[float] = []

    def evaluate(updates: int) -> None:
        # the paper's step index is updates - 1; the last step is always measured
        if (updates - 1) % EVAL_EVERY == 0 or updates == steps + 1:
            curve.append(accuracy(model, data["x_test"], data["y_test"]))

    fit(model, DataLoader(train, batch_size=BATCH, shuffle=False), steps + 1, LR,
        after_step=evaluate)
    return curve[-1], max(curve)


def table(results: dict[str, list[tuple[float, float]]], seeds: list[int]) -> str:
    """Rows: model, the paper's table, the range of the paper's own runs, minigrad's final
    accuracy (mean, spread = max - min), the mean of the best evaluations, each seed's final
    accuracy."""
    header = (f"{'model':<9} {'paper':>6} {'its runs':>10} {'minigrad':>9} {'spread':>7} "
              f"{'best':>6}   per seed")
    lines = [f"{header} ({', '.join(map(str, seeds))})"]
    for name, runs in results.items():
        final = [100 * f for f, _ in runs]
        best = [100 * b for _, b in runs]
        theirs = f"{min(PAPER_RUNS[name]):.1f}-{max(PAPER_RUNS[name]):.1f}"
        lines.append(f"{name:<9} {PAPER[name]:>5.0f}% {theirs:>10} {np.mean(final):>8.1f}% "
                     f"{max(final) - min(final):>6.1f} {np.mean(best):>5.1f}%   "
                     + ", ".join(f"{p:.1f}" for p in final))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Train the chosen models for each seed and print the table; the exit status."""
    p = argparse.ArgumentParser(description="MNIST-1D's four model families with minigrad.")
    p.add_argument("--models", nargs="+", choices=list(MODELS), default=list(MODELS),
                   help="model families to train (default: all four)")
    p.add_argument("--steps", type=int, default=STEPS,
                   help="the paper's total_steps: steps 0..N, N + 1 Adam updates of batch 100 "
                        f"(default {STEPS}, the paper's notebooks)")
    p.add_argument("--seeds", type=int, nargs="+", default=[0],
                   help="seeds for the initial weights, one run each (the table: 0 1 2)")
    args = p.parse_args(argv)
    if args.steps < 0:
        p.error("--steps must be >= 0")
    generator = require("mnist1d.data", "mnist1d", "examples/mnist1d_table.py")
    if generator is None:
        return 2
    run(load_mnist1d(generator), args.models, args.steps, args.seeds)
    return 0


def run(data: dict[str, np.ndarray], models: list[str], steps: int,
        seeds: list[int]) -> dict[str, list[tuple[float, float]]]:
    """Train each model once per seed, print the table; per model, each seed's final and best
    test accuracy."""
    print(f"MNIST-1D: {len(data['y'])} train, {len(data['y_test'])} test, length {LENGTH}; "
          f"Adam lr {LR}, batch {BATCH} in order, steps 0..{steps}, test every {EVAL_EVERY}, "
          f"seeds {seeds}")
    results: dict[str, list[tuple[float, float]]] = {}
    for name in models:
        results[name] = []
        for seed in seeds:
            start = time.perf_counter()
            final, best = train_one(name, data, steps, seed)
            results[name].append((final, best))
            print(f"  {name}, seed {seed}: {100 * final:.1f}% (best {100 * best:.1f}%, "
                  f"{time.perf_counter() - start:.1f} s)", flush=True)
    print("\ntest accuracy of the final model; its runs: the paper's notebooks at seed 42; "
          "best: the mean of each run's best evaluation")
    print(table(results, seeds))
    return results


if __name__ == "__main__":
    sys.exit(main())

"""A small 2-D CNN on scikit-learn's 8x8 handwritten digits, with BatchNorm and pooling.

    .venv/bin/python examples/digits_cnn.py
    .venv/bin/python examples/digits_cnn.py --steps 300 --seed 1

The data is scikit-learn's bundled copy of the UCI digits (1,797 images of 8x8 pixels,
values 0..16; no download, the `examples` extra). Pixels are scaled to [0, 1]; a stratified
split (scikit-learn's `train_test_split`, 25% test, `random_state` = the seed) keeps 450
images aside for the test.

    (B, 1, 8, 8) -> Conv2d(1, 32, 3, pad 1) -> BatchNorm2d(32) -> ReLU -> MaxPool2d(2) -> (B, 32, 4, 4)
                 -> Conv2d(32, 64, 3, pad 1) -> BatchNorm2d(64) -> ReLU -> MaxPool2d(2) -> (B, 64, 2, 2)
                 -> Flatten -> Linear(256, 10)

trained with Adam (learning rate 1e-3, weight decay 1e-4) on cross-entropy, batches of 64
shuffled by a `minigrad.Generator` seeded with the seed; BatchNorm uses batch statistics in
training and its running averages for the test.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from classify import accuracy, fit, require

import minigrad
from minigrad import nn
from minigrad.utils.data import DataLoader, TensorDataset

LR, WEIGHT_DECAY, BATCH = 1e-3, 1e-4, 64


def digits_cnn() -> nn.Sequential:
    """Two conv-BatchNorm-ReLU-pool stages and a linear classifier: (B, 1, 8, 8) -> (B, 10)."""
    return nn.Sequential(
        nn.Conv2d(1, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(64 * 2 * 2, 10))


def load_digits(sklearn_datasets, model_selection, seed: int) -> dict[str, np.ndarray]:
    """Images (N, 1, 8, 8) in [0, 1] and labels (N,), split 75/25 stratified by `seed`."""
    digits = sklearn_datasets.load_digits()
    x = (digits.images / 16.0).astype(np.float32)[:, None]
    x, x_test, y, y_test = model_selection.train_test_split(
        x, digits.target.astype(np.int64), test_size=0.25, stratify=digits.target,
        random_state=seed)
    return {"x": x, "y": y, "x_test": x_test, "y_test": y_test}


def run(data: dict[str, np.ndarray], steps: int, seed: int) -> float:
    """Train the CNN from `seed` for `steps` Adam updates; print and return the test accuracy."""
    minigrad.manual_seed(seed)
    model = digits_cnn()
    train = TensorDataset(minigrad.tensor(data["x"]), minigrad.tensor(data["y"]))
    loader = DataLoader(train, batch_size=BATCH, shuffle=True,
                        generator=minigrad.Generator().manual_seed(seed))
    print(f"digits: {len(data['y'])} train, {len(data['y_test'])} test images of 8x8; "
          f"Adam lr {LR}, weight decay {WEIGHT_DECAY}, batch {BATCH}, {steps} steps, seed {seed}")
    start = time.perf_counter()
    loss = fit(model, loader, steps, LR, WEIGHT_DECAY)
    acc = accuracy(model, data["x_test"], data["y_test"])
    print(f"final training loss {loss:.4f}, {time.perf_counter() - start:.1f} s")
    print(f"test accuracy: {100 * acc:.2f}%")
    return acc


def main(argv: list[str] | None = None) -> int:
    """Parse the flags, train, print the test accuracy; the exit status."""
    p = argparse.ArgumentParser(description="A 2-D CNN on scikit-learn's 8x8 digits.")
    p.add_argument("--steps", type=int, default=400, help="Adam steps of batch 64")
    p.add_argument("--seed", type=int, default=0, help="seed for the split, weights and order")
    args = p.parse_args(argv)
    if args.steps < 1:
        p.error("--steps must be >= 1")
    datasets = require("sklearn.datasets", "scikit-learn", "examples/digits_cnn.py")
    if datasets is None:
        return 2
    model_selection = require("sklearn.model_selection", "scikit-learn",
                              "examples/digits_cnn.py")
    run(load_digits(datasets, model_selection, args.seed), args.steps, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What the two classification examples share: the optional-extra check, the training loop
and the test accuracy.

    fit:       for each batch (x, y) of the loader, cycled until `steps` updates are made:
               loss = cross_entropy(model(x), y); loss.backward(); Adam step; zero the grads;
               then the optional hook sees the number of updates made so far
    accuracy:  mean over the test set of [argmax_k model(x)_k == y], in eval mode, no graph
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from types import ModuleType

import numpy as np

import minigrad
from minigrad import nn
from minigrad.nn import functional as F
from minigrad.utils.data import DataLoader

INSTALL_HINT = '.venv/bin/pip install -e ".[examples]"'


def require(module: str, distribution: str, script: str) -> ModuleType | None:
    """Import `module` of the optional `distribution`, or print one line naming the extra
    that installs it and return None."""
    try:
        return importlib.import_module(module)
    except ImportError:
        print(f"{script} needs {distribution} (the 'examples' extra): {INSTALL_HINT}",
              file=sys.stderr)
        return None


def fit(model: nn.Module, loader: DataLoader, steps: int, lr: float,
        weight_decay: float = 0.0, after_step: Callable[[int], None] | None = None,
        captured: bool = True) -> float:
    """`steps` Adam updates on cross-entropy, walking `loader` epoch after epoch.

    `after_step(n)`, if given, runs after the n-th update (n = 1..steps), e.g. to evaluate the
    model on the way; the model is put back in training mode after it. The forward and
    backward are a captured step (`minigrad.capture`: recorded on two batches, then replayed,
    the same arithmetic with less Python per op; a smaller last batch gets its own);
    `captured=False` runs them eagerly. Returns the last batch's loss."""
    opt = minigrad.optim.Adam(model.parameters(), lr=lr, weight_decay=weight_decay)

    def forward_backward(x: minigrad.Tensor, y: minigrad.Tensor) -> minigrad.Tensor:
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        return loss

    step = minigrad.capture(forward_backward) if captured else forward_backward
    model.train()
    loss_value, done = float("nan"), 0
    while done < steps:
        for x, y in loader:
            loss = step(x, y)
            opt.step()
            opt.zero_grad()
            loss_value, done = loss.item(), done + 1
            if after_step is not None:
                after_step(done)
                model.train()
            if done == steps:
                break
    return loss_value


def accuracy(model: nn.Module, x: np.ndarray, y: np.ndarray) -> float:
    """Fraction of rows of x (N, ...) whose highest logit is the label y (N,)."""
    model.eval()
    with minigrad.no_grad():
        pred = model(minigrad.tensor(x)).data.argmax(-1)
    return float((pred == y).mean())

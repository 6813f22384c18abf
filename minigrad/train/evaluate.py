"""The trainer's loss measurements: the estimates of each evaluation, and the full split.

- :func:`estimate_loss`: "train loss" / "val loss", nanoGPT's estimates: the mean loss of
  ``eval_iters`` random batches of each split, from a generator seeded by (seed, iteration),
  so evaluating (or not, or more often) never changes the training batches.
- :func:`full_split_loss`: every target of the validation split scored exactly once, in
  non-overlapping ``block_size`` windows (``data.eval_windows``).
"""

from __future__ import annotations

import hashlib

import numpy as np

import minigrad

from .data import eval_windows
from .distributed_run import SINGLE, World
from .loop import BatchSampler

FULL_EVAL_ROWS = 64  # most windows per batch when scoring the whole validation split
# At most this many logits (rows * block_size * vocab_size) per full-split batch: 64 rows of
# a character model, one or two of GPT-2's 50,257-wide vocabulary.
FULL_EVAL_LOGITS = 1 << 25


def hash_seed(*parts: int) -> int:
    """A 63-bit seed derived from integers (stable across processes, unlike hash())."""
    digest = hashlib.sha256(",".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "little") >> 1


def estimate_loss(model, splits: dict[str, np.ndarray], cfg: dict, it: int,
                  world: World = SINGLE) -> dict[str, float]:
    """Mean loss over ``eval_iters`` random batches of each split, in eval mode (each rank
    of a data-parallel run scores its rows of each batch; the means are averaged).

    The batches come from a generator seeded by (seed, it): the same iteration always gets
    the same eval batches, and the training sampler is left untouched.
    """
    model.eval()
    out = {}
    with minigrad.no_grad():
        for k, (name, data) in enumerate(splits.items()):
            sampler = BatchSampler(data, int(cfg["batch_size"]), int(cfg["block_size"]),
                                   seed=hash_seed(int(cfg["seed"]), it, k))
            losses = [model(*world.split(sampler.sample()))[1].item()
                      for _ in range(int(cfg["eval_iters"]))]
            out[name] = world.mean(float(np.mean(losses)))
    model.train()
    return out


def full_split_loss(model, seq: np.ndarray, block_size: int) -> tuple[float, int]:
    """(mean loss over every target of ``seq[1:]``, number of targets); see eval_windows."""
    rows = max(1, min(FULL_EVAL_ROWS,
                      FULL_EVAL_LOGITS // (block_size * model.config.vocab_size)))
    model.eval()
    total, count = 0.0, 0
    with minigrad.no_grad():
        for x, y in eval_windows(seq, block_size, rows):
            loss = model(x, y)[1].item()  # mean over the x.size targets of this batch
            total += loss * y.size
            count += y.size
    model.train()
    return total / count, count

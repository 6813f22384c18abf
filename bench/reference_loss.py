"""The loss the PyTorch reference reaches on train_chars.py's default run, seed by seed.

    python bench/reference_loss.py                      # seeds 1337 1 2 3, ~2 min each
    python bench/reference_loss.py --seeds 1337 --max-iters 200

``examples/train_chars.py`` must end its default run "as good as nanoGPT".
This script trains nanoGPT's CPU config of shakespeare_char in PyTorch the way
train_chars.py trains it in minigrad, so the two can be compared seed by seed:
the same text, vocabulary and 90/10 split (``minigrad/train/data.py``), the
same model (the nanoGPT-equivalent GPT of ``train_step.py`` with nanoGPT's
``bias=False``: n_layer 4, n_head 4, n_embd 128, block_size 64, dropout 0,
tied head, nanoGPT's initialisation), batch 12 drawn as train_chars draws it,
AdamW (betas 0.9, 0.99; weight decay 0.1 on 2-D weights only), learning rate
1e-3 with 100 warm-up iterations and a cosine decay to 1e-4 at 2000, gradient
norm clipped to 1.0. Each seed seeds PyTorch (initialisation) and the batch
sampler. ``--eval-interval 250`` adds nanoGPT's periodic loss estimates (20 batches
of each split every 250 iterations and at the end) to the timed loop, as its
train.py runs them (``bench/vs_nanogpt.py`` uses that). Printed per seed: the
20-batch validation estimate (nanoGPT's
``estimate_loss`` with ``eval_iters=20``), the full validation loss (every
character scored once, as train_chars.py's final line) and the wall time.

Requires PyTorch (``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np
from common import BenchConfig, load_line, machine_line
from train_step import BETAS, GRAD_CLIP, WEIGHT_DECAY, define_torch_gpt

from minigrad.optim import cosine_lr
from minigrad.train.data import (
    TINY_SHAKESPEARE,
    CharVocab,
    eval_windows,
    read_text,
    split_ids,
)
from minigrad.train.loop import BatchSampler

TEXT = TINY_SHAKESPEARE
LR, MIN_LR, WARMUP = 1e-3, 1e-4, 100
EVAL_ITERS, FULL_EVAL_ROWS = 20, 64


def train_one(seed: int, ids: np.ndarray, vocab_size: int, max_iters: int,
              threads: int, eval_interval: int = 0) -> dict[str, float]:
    """Train the reference from ``seed``; return its 20-batch and full val losses, seconds.
    With ``eval_interval`` the loop also estimates the losses every that many iterations
    and at the end, as nanoGPT's train.py and train_chars do (in the seconds)."""
    import torch

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    cfg = BenchConfig("baby", n_layer=4, n_head=4, n_embd=128, block_size=64, batch_size=12,
                      vocab_size=vocab_size)
    model = define_torch_gpt()(cfg, sdpa=True, bias=False)
    params = list(model.parameters())
    opt = torch.optim.AdamW(
        [{"params": [p for p in params if p.dim() >= 2], "weight_decay": WEIGHT_DECAY},
         {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0}], lr=LR, betas=BETAS)
    train, val = split_ids(ids, 0.1)
    sampler = BatchSampler(train, cfg.batch_size, cfg.block_size, seed)

    def loss_of(x: np.ndarray, y: np.ndarray) -> torch.Tensor:
        return model(torch.from_numpy(np.ascontiguousarray(x)),
                     torch.from_numpy(np.ascontiguousarray(y)))

    def estimate(it: int) -> None:
        # nanoGPT's estimate_loss: eval_iters batches of each split in eval mode, no grad;
        # counted in the wall time, as in its train.py (the numbers themselves are not used)
        model.eval()
        with torch.no_grad():
            for k, split in enumerate((train, val)):
                s = BatchSampler(split, cfg.batch_size, cfg.block_size, seed + 1000 * it + k)
                for _ in range(EVAL_ITERS):
                    loss_of(*s.sample()).item()
        model.train()

    warmup = min(WARMUP, max_iters)  # short test runs
    start = time.perf_counter()
    for it in range(max_iters):
        if eval_interval and it % eval_interval == 0:
            estimate(it)
        for group in opt.param_groups:
            group["lr"] = cosine_lr(it, LR, warmup, max_iters, MIN_LR)
        loss = loss_of(*sampler.sample())
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), GRAD_CLIP)
        opt.step()
        opt.zero_grad(set_to_none=True)
    if eval_interval:
        estimate(max_iters)
    seconds = time.perf_counter() - start

    model.eval()
    with torch.no_grad():
        val_sampler = BatchSampler(val, cfg.batch_size, cfg.block_size, seed + 1)
        val20 = statistics.mean(loss_of(*val_sampler.sample()).item() for _ in range(EVAL_ITERS))
        # as train_chars.py: start one character early, so the first val character is scored
        seq = ids[len(train) - 1:]
        total = count = 0
        for x, y in eval_windows(seq, cfg.block_size, FULL_EVAL_ROWS):
            total += loss_of(x, y).item() * y.size
            count += y.size
    return {"val20": val20, "full_val": total / count, "scored": count, "seconds": seconds}


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and train the reference once per seed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1337, 1, 2, 3],
                        help="one run per seed (default: 1337 1 2 3; 1337 is train_chars' default)")
    parser.add_argument("--max-iters", type=int, default=2000, help="iterations per run (2000)")
    parser.add_argument("--threads", type=int, default=2, help="torch.set_num_threads (2)")
    parser.add_argument("--eval-interval", type=int, default=0,
                        help="also estimate the losses (20 batches per split) every N "
                             "iterations, as nanoGPT's train.py with eval_interval=N (0: never)")
    args = parser.parse_args(argv)
    if args.max_iters < 1:
        parser.error(f"--max-iters must be >= 1, got {args.max_iters}")
    try:
        import torch
    except ImportError:
        parser.error("PyTorch is not installed; get it with: pip install -e '.[bench]'")

    text = read_text(str(TEXT))
    vocab = CharVocab.from_text(text)
    ids = vocab.encode(text)
    print(f"PyTorch {torch.__version__} reference of train_chars.py's default run, "
          f"{args.max_iters} iterations")
    print(f"machine: {machine_line()}; {load_line()}")
    print(f"{'seed':>6s} {'val (20 batches)':>17s} {'full val':>9s} {'wall s':>7s}")
    fulls = []
    for seed in args.seeds:
        r = train_one(seed, ids, len(vocab), args.max_iters, args.threads, args.eval_interval)
        fulls.append(r["full_val"])
        print(f"{seed:6d} {r['val20']:17.4f} {r['full_val']:9.4f} {r['seconds']:7.1f}", flush=True)
    if len(fulls) > 1:
        print(f"full val over {len(fulls)} seeds: mean {statistics.mean(fulls):.4f}, "
              f"min {min(fulls):.4f}, max {max(fulls):.4f} ({r['scored']:,} characters "
              f"scored in each)")


if __name__ == "__main__":
    main()

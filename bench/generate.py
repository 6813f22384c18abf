"""Sampling speed of ``GPT.generate`` with the key/value cache and without it.

    python bench/generate.py                          # baby, 256 new tokens
    python bench/generate.py --config small --new-tokens 8 --repeats 1

For each model (randomly initialised: speed does not depend on the weights)
one prompt token is extended by ``--new-tokens`` sampled tokens, batch 1,
with ``use_cache=True`` and ``use_cache=False``, timed alternately, after an
untimed warm-up that compiles the kernels. Printed: tokens/s of each (median
of ``--repeats``), the speed-up of the cache (goal >= 5x on baby), and
whether both produced the same tokens from the same seed (they must).

Two rows per config: the config as it is, and the same model with
``block_size`` raised to hold prompt + new tokens. With learned positions the
cache can only be used while the sequence fits in ``block_size``; after that
the window slides, every kept token moves to a new position and each step
recomputes the window (see ``GPT.generate``). baby's block_size of 64 with
256 new tokens therefore uses the cache for its first 64 steps only, and the
script prints the most any cache could then gain: the other 192 steps each
run a 64-token window with or without it, so the speed-up is at most 256/192.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np
from common import CONFIGS, BenchConfig, interleaved_times, load_line, machine_line, median

import minigrad
from minigrad import models


def build_gpt(cfg: BenchConfig, seed: int = 0) -> models.GPT:
    """minigrad's GPT of ``cfg``, nanoGPT initialisation from ``seed``."""
    minigrad.manual_seed(seed)
    return models.GPT(cfg.vocab_size, cfg.block_size, cfg.n_layer, cfg.n_head, cfg.n_embd)


def measure(cfg: BenchConfig, new_tokens: int, repeats: int) -> tuple[float, float, bool]:
    """(tokens/s with the cache, tokens/s without it, same tokens?) for ``cfg``."""
    model = build_gpt(cfg)
    prompt = np.zeros((1, 1), dtype=np.int64)
    outputs: dict[bool, np.ndarray] = {}

    def run(use_cache: bool) -> None:
        minigrad.manual_seed(1234)  # the same random draws for both paths
        outputs[use_cache] = model.generate(prompt, new_tokens, use_cache=use_cache).numpy()

    model.generate(prompt, 2, use_cache=True)   # warm-up: compile / load the kernels
    model.generate(prompt, 2, use_cache=False)
    times = interleaved_times({"cache": lambda: run(True), "no cache": lambda: run(False)},
                              rounds=repeats, warmup=0)
    same = bool(np.array_equal(outputs[True], outputs[False]))
    return new_tokens / median(times["cache"]), new_tokens / median(times["no cache"]), same


def cache_bound(prompt_len: int, new_tokens: int, block_size: int) -> tuple[int, int]:
    """(sampling steps, steps that can use the cache): a step can while the sequence it
    reads (prompt_len + tokens so far) fits in block_size (see ``GPT.generate``)."""
    cached = sum(1 for i in range(new_tokens) if prompt_len + i <= block_size)
    return new_tokens, cached


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, time both paths for the config and its long-block twin."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", choices=list(CONFIGS), default="baby")
    parser.add_argument("--new-tokens", type=int, default=256, help="tokens to sample (256)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per path (median)")
    args = parser.parse_args(argv)
    if args.new_tokens < 1:
        parser.error(f"--new-tokens must be >= 1, got {args.new_tokens}")
    if args.repeats < 1:
        parser.error(f"--repeats must be >= 1, got {args.repeats}")

    base = CONFIGS[args.config]
    print(f"GPT.generate, batch 1, 1 prompt token + {args.new_tokens} new tokens, float32")
    print(f"machine: {machine_line()}; {load_line()}")
    print(f"{'model':42s} {'cache tok/s':>12s} {'no-cache tok/s':>15s} {'speed-up':>9s} "
          f"{'same tokens':>12s}")
    long_block = replace(base, block_size=max(base.block_size, args.new_tokens + 1))
    for cfg in dict.fromkeys([base, long_block]):  # one row if block_size already fits
        with_cache, without, same = measure(cfg, args.new_tokens, args.repeats)
        label = f"{cfg.name} (n_layer={cfg.n_layer} n_embd={cfg.n_embd} block={cfg.block_size})"
        print(f"{label:42s} {with_cache:12.1f} {without:15.1f} {with_cache / without:8.2f}x "
              f"{'yes' if same else 'NO':>12s}")
    print("goal: >= 5x speed-up from the cache on baby")
    steps, cached = cache_bound(1, args.new_tokens, base.block_size)
    if cached < steps:
        print(f"with block_size {base.block_size}, {cached} of the {steps} steps can use the "
              f"cache; the others run a full {base.block_size}-token window either way, and no "
              f"window costs less than a shorter one, so even a free cached step gives at most "
              f"{steps}/{steps - cached} = {steps / (steps - cached):.2f}x")


if __name__ == "__main__":
    main()

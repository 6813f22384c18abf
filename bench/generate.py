"""Sampling speed of ``GPT.generate``: with the key/value cache and without it, or
GPT-2 124M's greedy decoding beside transformers'.

    python bench/generate.py                          # baby, 256 new tokens
    python bench/generate.py --config small --new-tokens 8 --repeats 1
    python bench/generate.py --gpt2                   # GPT-2 124M, random weights, vs transformers
    python bench/generate.py --gpt2 DIR --new-tokens 64 --repeats 7

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

With ``--gpt2 [DIR]`` it compares greedy decoding of a local Hugging Face GPT-2
directory (default: GPT-2 124M's shapes with random weights, written to a temporary
directory by ``make_random_gpt2.py``'s code; nothing is downloaded) in minigrad
(``GPT.generate(top_k=1)``) and in transformers (``generate(do_sample=False)``, 2 torch
threads), both with the KV cache, the same 7-token prompt and ``--new-tokens`` new
tokens, the time including the prompt. Each framework runs in a process of its own
(``worker.py``); they take turns for ``--repeats`` rounds, a third process timing
NumPy's matrix-vector product of the (V, C) head in each round, and the medians are
printed: tokens/s, ms/token, the ratio of tokens/s (goal >= 1.2), and the weight-read
bandwidth, the bytes of weights one token reads (every parameter once, the head
tied to the token embedding; not the position table, of which one row is read)
over the time per token, beside NumPy's GEMV bandwidth.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import time
from dataclasses import replace

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np
from common import CONFIGS, BenchConfig, interleaved_times, load_line, machine_line, median
from make_random_gpt2 import write_random_gpt2
from worker import Worker

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


# ---- GPT-2: minigrad beside transformers ------------------------------------------------
GPT2_PROMPT = [10, 20, 30, 40, 50, 60, 70]
TINY_GPT2 = {"vocab_size": 1000, "block_size": 128, "n_layer": 2, "n_head": 2, "n_embd": 64}


class GreedyDecoder:
    """One framework's greedy decoder of a GPT-2 directory (built in a worker process)."""

    def __init__(self, framework: str, model_dir: str, torch_threads: int = 2) -> None:
        self.framework = framework
        if framework == "minigrad":
            self.model = models.GPT.from_pretrained(model_dir)
        else:
            import torch
            from transformers import GPT2LMHeadModel

            torch.set_num_threads(torch_threads)
            self.torch = torch
            self.model = GPT2LMHeadModel.from_pretrained(model_dir).eval()
        self.run(2)  # warm-up: compile / load the kernels, fault the weights in

    def run(self, new_tokens: int) -> tuple[float, list[int]]:
        """(seconds, the new tokens) of one greedy generation after GPT2_PROMPT."""
        if self.framework == "minigrad":
            start = time.perf_counter()
            out = self.model.generate([GPT2_PROMPT], new_tokens, top_k=1).numpy()
            seconds = time.perf_counter() - start
        else:
            ids = self.torch.tensor([GPT2_PROMPT])
            with self.torch.no_grad():
                start = time.perf_counter()
                out = self.model.generate(ids, max_new_tokens=new_tokens,
                                          min_new_tokens=new_tokens, do_sample=False,
                                          use_cache=True, pad_token_id=0).numpy()
                seconds = time.perf_counter() - start
        return seconds, out[0, len(GPT2_PROMPT):].tolist()

    def weight_bytes(self) -> int:
        """Bytes of weights one decoding step reads: every parameter once (the tied head
        counted once), without the position table, of which it reads one row."""
        m = self.model
        return sum(p.data.nbytes for p in m.parameters()) - m.wpe.weight.data.nbytes


class NumpyGemv:
    """NumPy's own matrix-vector product of a float32 (V, C) matrix, in a process of its
    own: the bandwidth a plain NumPy program reads weights with on this machine."""

    def __init__(self, rows: int, cols: int) -> None:
        rng = np.random.default_rng(0)
        self.w = rng.standard_normal((rows, cols), dtype=np.float32)
        self.x = rng.standard_normal(cols, dtype=np.float32)
        self.sample()

    def sample(self, calls: int = 5) -> float:
        """GB/s of the median of ``calls`` products w @ x."""
        times = []
        for _ in range(calls):
            start = time.perf_counter()
            np.dot(self.w, self.x)
            times.append(time.perf_counter() - start)
        return self.w.nbytes / median(times) / 1e9


def compare_gpt2(model_dir: str, new_tokens: int, rounds: int, with_transformers: bool,
                 pause: float = 0.15) -> dict[str, dict[str, float]]:
    """Median figures per contender (``tokens/s``, ``ms/token``, ``GB/s``, ``same tokens``)
    and NumPy's GEMV (``GB/s``), each in a process of its own, taking turns."""
    names = ["minigrad"] + (["transformers"] if with_transformers else [])
    workers: dict[str, Worker] = {}
    try:
        for name in names:
            workers[name] = Worker(GreedyDecoder, name, model_dir)
        weight_bytes = workers["minigrad"].call("weight_bytes")
        cfg = models.GPT.from_pretrained(model_dir).config  # the head's shape for the GEMV
        workers["gemv"] = Worker(NumpyGemv, cfg.vocab_size, cfg.n_embd)
        seconds: dict[str, list[float]] = {name: [] for name in names}
        tokens: dict[str, list[int]] = {}
        gemv: list[float] = []
        for _ in range(rounds):
            for name in names:
                time.sleep(pause)  # the previous process's threads stop spinning
                dt, tokens[name] = workers[name].call("run", new_tokens)
                seconds[name].append(dt)
            time.sleep(pause)
            gemv.append(workers["gemv"].call("sample"))
    finally:
        for w in workers.values():
            w.close()
    result = {}
    for name in names:
        per_token = median(seconds[name]) / new_tokens
        result[name] = {"tokens/s": 1 / per_token, "ms/token": per_token * 1e3,
                        "GB/s": weight_bytes / per_token / 1e9,
                        "same tokens": float(tokens[name] == tokens["minigrad"])}
    result["numpy gemv"] = {"GB/s": median(gemv)}
    return result


def gpt2_main(args: argparse.Namespace) -> None:
    """``--gpt2``: print the comparison (in a temporary directory unless DIR is given)."""
    with_transformers = not args.no_transformers and all(
        importlib.util.find_spec(m) is not None for m in ("torch", "transformers"))
    with tempfile.TemporaryDirectory() as tmp:
        model_dir = args.gpt2
        if not model_dir:
            model_dir = os.path.join(tmp, "gpt2")
            write_random_gpt2(model_dir, **(TINY_GPT2 if args.tiny else {}))
        cfg = models.GPT.from_pretrained(model_dir).config
        print(f"greedy decoding, KV cache, batch 1, {len(GPT2_PROMPT)}-token prompt + "
              f"{args.new_tokens} new tokens (time includes the prompt), float32, "
              f"medians of {args.repeats} rounds")
        print(f"model: {args.gpt2 or 'random weights'} (n_layer={cfg.n_layer} n_head={cfg.n_head} "
              f"n_embd={cfg.n_embd} vocab={cfg.vocab_size})")
        print(f"machine: {machine_line()}; {load_line()}")
        figures = compare_gpt2(model_dir, args.new_tokens, args.repeats, with_transformers)
    print(f"{'contender':14s} {'tokens/s':>9s} {'ms/token':>9s} {'weights GB/s':>13s} "
          f"{'same tokens':>12s}")
    for name, f in figures.items():
        if name == "numpy gemv":
            continue
        print(f"{name:14s} {f['tokens/s']:9.1f} {f['ms/token']:9.2f} {f['GB/s']:13.1f} "
              f"{'yes' if f['same tokens'] else 'NO':>12s}")
    print(f"numpy GEMV of the ({cfg.vocab_size}, {cfg.n_embd}) head: "
          f"{figures['numpy gemv']['GB/s']:.1f} GB/s")
    if "transformers" in figures:
        ratio = figures["minigrad"]["tokens/s"] / figures["transformers"]["tokens/s"]
        print(f"ratio minigrad/transformers tokens/s: {ratio:.2f}x (goal >= 1.2)")
    else:
        print("transformers: not timed (" + ("--no-transformers" if args.no_transformers
                                             else "torch or transformers not installed") + ")")
    print(f"{load_line()} (at the end)")


def main(argv: list[str] | None = None) -> None:
    """Parse the command line, time both paths for the config and its long-block twin
    (or, with ``--gpt2``, minigrad beside transformers)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", choices=list(CONFIGS), default="baby")
    parser.add_argument("--new-tokens", type=int, default=None,
                        help="tokens to sample (256; 64 with --gpt2)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="timed runs per path (median; 3, or 5 with --gpt2)")
    parser.add_argument("--gpt2", nargs="?", const="", default=None, metavar="DIR",
                        help="greedy decoding of a GPT-2 directory (default: GPT-2 124M with "
                        "random weights in a temporary directory), minigrad vs transformers")
    parser.add_argument("--tiny", action="store_true", help="with --gpt2 and no DIR: a tiny "
                        "random GPT-2 (2 layers, 64 channels) instead of 124M, for smoke tests")
    parser.add_argument("--no-transformers", action="store_true",
                        help="with --gpt2: time minigrad (and NumPy's GEMV) only")
    args = parser.parse_args(argv)
    gpt2 = args.gpt2 is not None
    if args.new_tokens is None:
        args.new_tokens = 64 if gpt2 else 256
    if args.repeats is None:
        args.repeats = 5 if gpt2 else 3
    if args.new_tokens < 1:
        parser.error(f"--new-tokens must be >= 1, got {args.new_tokens}")
    if args.repeats < 1:
        parser.error(f"--repeats must be >= 1, got {args.repeats}")
    if gpt2 and args.gpt2 and not os.path.isdir(args.gpt2):
        parser.error(f"--gpt2 {args.gpt2!r} is not a directory")
    if args.tiny and (not gpt2 or args.gpt2):
        parser.error("--tiny goes with --gpt2 and no DIR")
    if gpt2:
        gpt2_main(args)
        return

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

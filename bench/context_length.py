"""Cost as the context grows: training-step time and peak memory, and decoding speed, at
block sizes 256 to 2048, minigrad beside PyTorch (``scaled_dot_product_attention``) and
transformers.

    .venv/bin/python bench/context_length.py                      # gpt2 and baby, 256..2048
    .venv/bin/python bench/context_length.py --model baby --blocks 256,512 --steps 3
    .venv/bin/python bench/context_length.py --decode-only --blocks 1024
    .venv/bin/python bench/context_length.py --tiny --steps 1     # smoke test

Training (``--model gpt2``: GPT-2 124M's shapes, batch 1; ``--model baby``: nanoGPT's baby
GPT, batch 12): for each block size ``T`` each framework runs in a fresh process of its own
(this script with ``--child``): it builds the model of context ``T`` and its AdamW
(``train_step.MinigradTrainer`` / ``train_step.TorchTrainer`` with PyTorch's SDPA, nanoGPT's
model), notes its resident set size, runs one untimed warm-up step and ``--steps`` timed
ones on random batches, and reports the median step time and its peak resident set size
(``ru_maxrss``). Printed per ``T``: ms/step and the peak beyond the build (what training
needs besides the weights) of each, and the ratios. Attention's saved (T x T) matrices per
head grow as T^2; everything else as T.

Decoding (GPT-2 124M's shapes, random weights, ``n_positions`` = the largest ``T``): a
prompt of ``T - --new-tokens`` random ids, then ``--new-tokens`` greedy tokens with the key/value
cache, in minigrad (``GPT.generate(top_k=1)``) and in transformers (``generate``,
``do_sample=False``, 2 torch threads), each in its own process; printed: the seconds of the
prompt plus the new tokens, ms per new token after the prompt, and minigrad's speed-up.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import replace

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH_DIR)

from common import CONFIGS, BenchConfig, load_line, machine_line, median, time_the_fast_kernels
from finetune import train_figures
from memory import peak_rss_mb, torch_installed

BLOCKS = (256, 512, 1024, 2048)
TRAIN_MODELS = {"gpt2": replace(CONFIGS["gpt2"], batch_size=1), "baby": CONFIGS["baby"]}
TINY = BenchConfig("tiny", n_layer=2, n_head=2, n_embd=32, block_size=32, batch_size=1,
                   vocab_size=1000)


def train_config(model: str, block: int, tiny: bool) -> BenchConfig:
    """The training config of ``model`` at context ``block``."""
    return replace(TINY if tiny else TRAIN_MODELS[model], block_size=block)


def train_child(framework: str, cfg: BenchConfig, steps: int) -> dict:
    """Build and train one model in this process (PyTorch with SDPA): its figures."""
    return train_figures(framework, cfg, steps, sdpa=True)


def decode_child(framework: str, model_dir: str, prompt_len: int, new_tokens: int) -> dict:
    """Greedy decoding after a random prompt in this process: its figures."""
    import numpy as np

    prompt = np.random.default_rng(0).integers(0, 50257, prompt_len).tolist()
    if framework == "minigrad":
        from minigrad import models

        model = models.GPT.from_pretrained(model_dir)

        def run(n: int) -> float:
            t0 = time.perf_counter()
            model.generate([prompt], n, top_k=1)
            return time.perf_counter() - t0
    else:
        import torch
        from transformers import GPT2LMHeadModel

        torch.set_num_threads(2)
        model = GPT2LMHeadModel.from_pretrained(model_dir).eval()
        ids = torch.tensor([prompt])

        def run(n: int) -> float:
            with torch.no_grad():
                t0 = time.perf_counter()
                model.generate(ids, max_new_tokens=n, min_new_tokens=n, do_sample=False,
                               use_cache=True, pad_token_id=0)
                return time.perf_counter() - t0
    run(1)  # warm-up: kernels, weights faulted in
    prefill = median([run(1) for _ in range(2)])  # the prompt and one token
    total = median([run(new_tokens) for _ in range(2)])
    return {"total": total, "ms_per_token": (total - prefill) / (new_tokens - 1) * 1000.0,
            "peak": peak_rss_mb()}


def in_child(*args: str) -> dict:
    """Run this script with ``--child args`` in a new process: its JSON figures."""
    cmd = [sys.executable, os.path.abspath(__file__), "--child", *args]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"child {' '.join(args)} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def train_curve(model: str, blocks: list[int], steps: int, tiny: bool,
                frameworks: list[str]) -> None:
    """Print the training table of ``model`` over ``blocks``."""
    print(f"\ntraining step, {model if not tiny else 'tiny'} "
          f"({train_config(model, blocks[0], tiny).describe()}, block_size varied); "
          f"{steps} timed steps after 1 warm-up, each framework and size in its own process")
    print(f"  {'T':>5s} {'framework':10s} {'ms/step':>9s} {'peak MB':>9s} {'training MB':>12s}")
    for block in blocks:
        rows = {}
        for framework in frameworks:
            r = rows[framework] = in_child("train", framework, model, str(block), str(steps),
                                           str(int(tiny)))
            print(f"  {block:5d} {framework:10s} {r['ms']:9.1f} {r['peak']:9.1f} "
                  f"{r['peak'] - r['built']:12.1f}", flush=True)
        if "torch" in rows:
            m, t = rows["minigrad"], rows["torch"]
            print(f"  {block:5d} minigrad/torch: step {m['ms'] / t['ms']:.2f}x, "
                  f"peak {m['peak'] / t['peak']:.2f}x, "
                  f"training memory {(m['peak'] - m['built']) / (t['peak'] - t['built']):.2f}x")


def decode_curve(blocks: list[int], new_tokens: int, tiny: bool, frameworks: list[str]) -> None:
    """Print the decoding table over ``blocks``."""
    from make_random_gpt2 import write_random_gpt2

    sizes = {"vocab_size": 50257, "block_size": max(blocks)}
    if tiny:
        sizes.update(n_layer=2, n_head=2, n_embd=32)
    with tempfile.TemporaryDirectory() as model_dir:
        write_random_gpt2(model_dir, **sizes)
        print(f"\ngreedy decoding, GPT-2 {'124M' if not tiny else 'tiny'} shapes, random "
              f"weights: a prompt of T - {new_tokens} ids, then {new_tokens} tokens with the "
              "cache, each framework and size in its own process")
        print(f"  {'T':>5s} {'framework':13s} {'seconds':>8s} {'ms/token':>9s} {'peak MB':>9s}")
        for block in blocks:
            rows = {}
            for framework in frameworks:
                r = rows[framework] = in_child("decode", framework, model_dir,
                                               str(block - new_tokens), str(new_tokens))
                print(f"  {block:5d} {framework:13s} {r['total']:8.2f} "
                      f"{r['ms_per_token']:9.1f} {r['peak']:9.1f}", flush=True)
            if "transformers" in rows:
                m, t = rows["minigrad"], rows["transformers"]
                print(f"  {block:5d} minigrad speed-up: {t['total'] / m['total']:.2f}x whole, "
                      f"{t['ms_per_token'] / m['ms_per_token']:.2f}x per token after the prompt")


def child_main(args: list[str]) -> None:
    """``--child train FRAMEWORK MODEL T STEPS TINY`` or ``--child decode FRAMEWORK DIR P N``."""
    if args[0] == "train":
        framework, model, block, steps, tiny = args[1:]
        result = train_child(framework, train_config(model, int(block), tiny == "1"),
                             int(steps))
    else:
        framework, model_dir, prompt_len, new_tokens = args[1:]
        result = decode_child(framework, model_dir, int(prompt_len), int(new_tokens))
    print(json.dumps(result))


def main(argv: list[str] | None = None) -> None:
    """Parse the command line; print the training and decoding curves."""
    time_the_fast_kernels()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", choices=[*TRAIN_MODELS, "all"], default="all",
                        help="the training curve's model (default: both)")
    parser.add_argument("--blocks", default=",".join(map(str, BLOCKS)),
                        help="comma-separated block sizes (default 256,512,1024,2048)")
    parser.add_argument("--steps", type=int, default=2, help="timed training steps per process")
    parser.add_argument("--new-tokens", type=int, default=16, help="decoded tokens per run")
    parser.add_argument("--train-only", action="store_true", help="skip decoding")
    parser.add_argument("--decode-only", action="store_true", help="skip training")
    parser.add_argument("--tiny", action="store_true", help="tiny models (a smoke test)")
    parser.add_argument("--no-torch", action="store_true",
                        help="minigrad only (no PyTorch, no transformers)")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child_main(args.child)
        return
    try:
        blocks = [int(b) for b in args.blocks.split(",")]
    except ValueError:
        parser.error(f"--blocks: comma-separated integers, got {args.blocks!r}")
    if args.steps < 1 or args.new_tokens < 2 or any(b <= args.new_tokens for b in blocks):
        parser.error("--steps >= 1, --new-tokens >= 2, every block size > --new-tokens")
    with_torch = not args.no_torch and torch_installed()
    print(f"machine: {machine_line()}; {load_line()}")
    if not args.decode_only:
        for model in TRAIN_MODELS if args.model == "all" else [args.model]:
            train_curve(model, blocks, args.steps, args.tiny,
                        ["minigrad", "torch"] if with_torch else ["minigrad"])
            if args.tiny:
                break
    if not args.train_only:
        decode_curve(blocks, args.new_tokens, args.tiny,
                     ["minigrad", "transformers"] if with_torch else ["minigrad"])


if __name__ == "__main__":
    main()

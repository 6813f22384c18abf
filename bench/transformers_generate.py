"""transformers' greedy decoding of a local GPT-2 directory, for comparison with minigrad's.

    .venv/bin/python bench/transformers_generate.py /tmp/gpt2rand [--new-tokens 64]

Loads ``GPT2LMHeadModel.from_pretrained(DIR)`` (no network), 2 torch threads, KV cache on,
and times two greedy generations of ``--new-tokens`` tokens after a 7-token prompt (after one
short untimed warm-up). Run it beside
``examples/generate_gpt2.py --model-dir DIR --top-k 1 --max-new-tokens 64`` (minigrad, its
own process).
"""

from __future__ import annotations

import argparse
import time

import torch
from transformers import GPT2LMHeadModel


def main() -> None:
    """Time the generations and print tokens/s."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model_dir")
    parser.add_argument("--new-tokens", type=int, default=64)
    args = parser.parse_args()
    torch.set_num_threads(2)
    model = GPT2LMHeadModel.from_pretrained(args.model_dir).eval()
    ids = torch.tensor([[10, 20, 30, 40, 50, 60, 70]])
    n = args.new_tokens
    with torch.no_grad():
        model.generate(ids, max_new_tokens=4, do_sample=False, pad_token_id=0)
        for _ in range(2):
            start = time.perf_counter()
            model.generate(ids, max_new_tokens=n, min_new_tokens=n, do_sample=False,
                           use_cache=True, pad_token_id=0)
            dt = time.perf_counter() - start
            print(f"transformers: {n} tokens in {dt:.2f} s: {n / dt:.1f} tokens/s")


if __name__ == "__main__":
    main()

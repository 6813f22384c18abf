#!/usr/bin/env python
"""Sample text from a GPT-2 checkpoint in a local Hugging Face directory, with minigrad.

    python examples/generate_gpt2.py --model-dir gpt2 --prompt "The meaning of life is"
    python examples/generate_gpt2.py --model-dir gpt2 --prompt "Hello" \\
        --max-new-tokens 50 --temperature 0.8 --top-k 40 --seed 1

The directory holds what ``transformers``' ``save_pretrained`` writes (docs/weights.md says
how to get GPT-2 124M onto a machine): ``config.json`` and ``model.safetensors`` for the
model (``GPT.from_pretrained``), and the tokenizer as ``tokenizer.json`` (read with the
``tokenizers`` package) or as ``vocab.json`` + ``merges.txt``; without either, tiktoken's
"gpt2" encoding is used when tiktoken is installed and has its files cached. Sampling uses
``GPT.generate`` (its key/value cache: each new token costs one position's work) and the
script prints the text and the sampling speed in tokens/s. Nothing is downloaded.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

import minigrad
from minigrad import models


class Tokenizer:
    """encode(text) -> ids and decode(ids) -> text over whichever tokenizer the directory has."""

    def __init__(self, encode: Any, decode: Any, source: str) -> None:
        self.encode, self.decode, self.source = encode, decode, source


def load_tokenizer(model_dir: str) -> Tokenizer:
    """The directory's tokenizer (see the module docstring); SystemExit with one line if none."""
    tok_json = os.path.join(model_dir, "tokenizer.json")
    vocab, merges = os.path.join(model_dir, "vocab.json"), os.path.join(model_dir, "merges.txt")
    has_json = os.path.isfile(tok_json)
    has_bpe = os.path.isfile(vocab) and os.path.isfile(merges)
    if has_json or has_bpe:
        try:
            import tokenizers
        except ImportError:
            raise SystemExit("error: reading the tokenizer needs the tokenizers package: "
                             "pip install 'minigrad-autodiff[hf]'") from None
        if has_json:
            tok = tokenizers.Tokenizer.from_file(tok_json)
            source = tok_json
        else:
            tok = tokenizers.ByteLevelBPETokenizer(vocab, merges)
            source = f"{vocab} + merges.txt"
        return Tokenizer(lambda s: tok.encode(s).ids, tok.decode, source)
    try:
        import tiktoken

        enc = tiktoken.get_encoding("gpt2")  # needs its files cached: no network here
    except Exception as e:  # noqa: BLE001  (ImportError, or any failure to fetch its files)
        raise SystemExit(
            f"error: no tokenizer.json (or vocab.json + merges.txt) in {model_dir!r}, and "
            f"tiktoken's gpt2 encoding is not available ({type(e).__name__}); save the "
            "tokenizer into the directory (docs/weights.md)") from None
    return Tokenizer(enc.encode, enc.decode, "tiktoken gpt2")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model-dir", required=True, help="local GPT-2 directory (config.json, "
                   "model.safetensors, tokenizer.json)")
    p.add_argument("--prompt", required=True, help="text to continue")
    p.add_argument("--max-new-tokens", type=int, default=64)
    p.add_argument("--temperature", type=float, default=1.0)
    p.add_argument("--top-k", type=int, default=None, help="sample among the k likeliest "
                   "tokens only (1 = greedy)")
    p.add_argument("--seed", type=int, default=1337)
    args = p.parse_args(argv)
    if not os.path.isdir(args.model_dir):
        p.error(f"--model-dir {args.model_dir!r} is not a directory")
    if not args.prompt:
        p.error("--prompt must not be empty")
    if args.max_new_tokens < 1:
        p.error(f"--max-new-tokens must be >= 1, got {args.max_new_tokens}")
    if not args.temperature > 0:
        p.error(f"--temperature must be > 0, got {args.temperature}")
    if args.top_k is not None and args.top_k < 1:
        p.error(f"--top-k must be >= 1, got {args.top_k}")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    tokenizer = load_tokenizer(args.model_dir)
    try:
        model = models.GPT.from_pretrained(args.model_dir)
    except (OSError, KeyError, ValueError) as e:
        raise SystemExit(f"error: cannot load {args.model_dir!r}: {e}") from None
    prompt_ids = tokenizer.encode(args.prompt)
    cfg = model.config
    if not prompt_ids:
        raise SystemExit("error: the prompt encodes to no tokens")
    if max(prompt_ids) >= cfg.vocab_size:
        raise SystemExit(f"error: the tokenizer ({tokenizer.source}) gives id {max(prompt_ids)} "
                         f"but the model's vocabulary has {cfg.vocab_size} ids")
    print(f"{cfg.n_layer} layers, {cfg.n_head} heads, {cfg.n_embd} channels, "
          f"{model.num_parameters() / 1e6:.1f}M parameters; tokenizer: {tokenizer.source}",
          file=sys.stderr)

    minigrad.manual_seed(args.seed)
    t0 = time.perf_counter()
    out = model.generate([prompt_ids], args.max_new_tokens, temperature=args.temperature,
                         top_k=args.top_k)
    seconds = time.perf_counter() - t0
    new = out.data[0, len(prompt_ids):].tolist()
    print(args.prompt + tokenizer.decode(new))
    print(f"{len(new)} tokens in {seconds:.2f} s: {len(new) / seconds:.1f} tokens/s "
          "(prompt included in the time)", file=sys.stderr)


if __name__ == "__main__":
    main()

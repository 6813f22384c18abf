"""``minigrad-sample``: text from any model the trainer writes or reads.

    minigrad-sample out-chars                          # a run directory: its ckpt_best.npz
    minigrad-sample out-gpt2/ckpt_last.npz --prompt "ROMEO:" --num-samples 2
    minigrad-sample gpt2 --prompt-file prompt.txt --max-new-tokens 100 --top-k 40 --seed 1
    minigrad-sample out/ckpt.pt --tokenizer gpt2       # nanoGPT's checkpoint, GPT-2's BPE

SOURCE is a checkpoint of ``minigrad-train`` (``.npz``) or its run directory, a Hugging Face
GPT-2 directory, or a nanoGPT ``ckpt.pt`` (``pretrained.load_model``); the tokenizer is the
one it carries, or ``--tokenizer``. ``minigrad-train --sample`` is the same sampling
(``generation.print_samples``) for the trainer's own run directory.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import minigrad

from .checkpoint import _py, load_checkpoint, model_from_checkpoint
from .cli import _OneLineErrors, positive_float, positive_int
from .data import DataError
from .generation import print_samples, resolve_prompt
from .pretrained import SOURCE_HELP, load_model
from .tokens import load_bpe, tokenizer_from_checkpoint


def sample_run(args: argparse.Namespace, explicit: set[str],
               parser: argparse.ArgumentParser) -> int:
    """``minigrad-train --sample``: generate from a checkpoint of the run in --out-dir."""
    if args.checkpoint in ("best", "last"):
        path = Path(args.out_dir) / f"ckpt_{args.checkpoint}.npz"
        if "checkpoint" not in explicit and not path.exists():  # --keep-checkpoints last
            path = Path(args.out_dir) / "ckpt_last.npz"
    else:
        path = Path(args.checkpoint)
    try:
        ckpt = load_checkpoint(path)
    except DataError as e:
        parser.error(f"--sample: {e} (train first, or pass --checkpoint PATH)")
    try:
        vocab = tokenizer_from_checkpoint(ckpt)
        prompt = resolve_prompt(args.prompt, vocab, explicit, parser)
        minigrad.manual_seed(args.seed)  # before the model: its init draws from the generator
        model = model_from_checkpoint(ckpt, path)
    except DataError as e:
        parser.error(f"--sample: {e}")
    print(f"sampling from {path} (iteration {_py(ckpt.get('iteration', '?'))})")
    print_samples(model, vocab, prompt, args.num_samples, args.max_new_tokens,
                  args.temperature, args.top_k)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """minigrad-sample's flags (the sampling ones spelled as minigrad-train's)."""
    p = _OneLineErrors(
        prog="minigrad-sample",
        description="Sample text from a minigrad-train checkpoint, a GPT-2 directory or a "
                    "nanoGPT ckpt.pt.")
    p.add_argument("source", help=SOURCE_HELP)
    p.add_argument("--prompt", default=None, help="text the samples continue (default: a "
                   "newline)")
    p.add_argument("--prompt-file", default=None, metavar="PATH",
                   help="read the prompt from this UTF-8 file instead")
    p.add_argument("--num-samples", type=positive_int, default=3, help="samples to draw")
    p.add_argument("--max-new-tokens", type=positive_int, default=200,
                   help="tokens (or characters) generated per sample")
    p.add_argument("--temperature", type=positive_float, default=0.8,
                   help="divide logits by this before sampling (<1: more conservative)")
    p.add_argument("--top-k", type=positive_int, default=None,
                   help="sample only among the k likeliest tokens")
    p.add_argument("--seed", type=int, default=1337, help="same seed, same samples")
    p.add_argument("--tokenizer", default=None, metavar="PATH",
                   help="a tokenizer.json, or a directory with it or vocab.json + merges.txt "
                        "(default: the one SOURCE carries)")
    p.add_argument("--backend", choices=("reference", "fast"), default=None,
                   help="minigrad backend (default: $MINIGRAD_BACKEND, else fast)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``minigrad-sample``; returns the exit code (2: a usage error)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.prompt is not None and args.prompt_file is not None:
        parser.error("--prompt and --prompt-file exclude each other")
    prompt, explicit = args.prompt, {"prompt"}
    if args.prompt_file is not None:
        try:
            prompt = Path(args.prompt_file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            parser.error(f"--prompt-file {args.prompt_file}: {e}")
    elif prompt is None:
        prompt, explicit = "\n", set()
    if prompt == "":
        parser.error("the prompt is empty: the model needs at least one token to continue")
    if args.backend is not None:
        minigrad.set_backend(args.backend)
    try:
        model, tokenizer, what = load_model(args.source)
        if args.tokenizer is not None:
            tokenizer = load_bpe(args.tokenizer)
    except DataError as e:
        parser.error(str(e))
    if tokenizer is None:
        parser.error(f"{args.source} ({what}) carries no tokenizer: pass --tokenizer PATH "
                     f"(a tokenizer.json, or a directory with vocab.json + merges.txt)")
    if len(tokenizer) > model.config.vocab_size:
        parser.error(f"the tokenizer has {len(tokenizer)} ids but the model's vocabulary "
                     f"only {model.config.vocab_size}")
    prompt = resolve_prompt(prompt, tokenizer, explicit, parser)
    minigrad.manual_seed(args.seed)
    print(f"sampling from {args.source} ({what})")
    print_samples(model, tokenizer, prompt, args.num_samples, args.max_new_tokens,
                  args.temperature, args.top_k)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``minigrad-export``: a model as a Hugging Face GPT-2 directory that ``transformers`` loads.

    minigrad-export out-gpt2 my-gpt2            # the run's ckpt_best.npz
    minigrad-export out-gpt2/ckpt_last.npz my-gpt2

SOURCE is anything ``minigrad-sample`` reads (a trainer checkpoint or run directory, a GPT-2
directory, a nanoGPT ``ckpt.pt``). The directory gets ``config.json`` and
``model.safetensors`` (``GPT.save_pretrained``) and, for a BPE model, ``tokenizer.json`` and
``tokenizer_config.json`` (``models.hf_gpt2.save_tokenizer_files``), so that::

    model = transformers.GPT2LMHeadModel.from_pretrained("my-gpt2")
    tokenizer = transformers.AutoTokenizer.from_pretrained("my-gpt2")

give the model's logits and the run's token ids. GPT-2 has biases and learned positions: a
model without biases (the character trainer's default, nanoGPT's ``bias = False``) cannot
be written in its layout, and the command says so.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from minigrad.models.hf_gpt2 import save_tokenizer_files

from .cli import _OneLineErrors
from .data import DataError
from .pretrained import SOURCE_HELP, load_model
from .tokens import BPETokenizer, load_bpe


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``minigrad-export``; returns the exit code (2: a usage error)."""
    p = _OneLineErrors(
        prog="minigrad-export",
        description="Write a model as a Hugging Face GPT-2 directory (weights, config, "
                    "tokenizer) that transformers loads.")
    p.add_argument("source", help=SOURCE_HELP)
    p.add_argument("out_dir", help="the directory to write (created if needed)")
    p.add_argument("--tokenizer", default=None, metavar="PATH",
                   help="the tokenizer to write beside the model (default: the one SOURCE "
                        "carries)")
    args = p.parse_args(argv)
    try:
        model, tokenizer, what = load_model(args.source)
        if args.tokenizer is not None:
            tokenizer = load_bpe(args.tokenizer)
    except DataError as e:
        p.error(str(e))
    try:
        model.save_pretrained(args.out_dir)
    except ValueError as e:
        p.error(f"{args.source} cannot be written as GPT-2: {e}")
    written = ["config.json", "model.safetensors"]
    if isinstance(tokenizer, BPETokenizer):
        save_tokenizer_files(tokenizer.to_json(), args.out_dir, model.config.block_size)
        written += ["tokenizer.json", "tokenizer_config.json"]
    print(f"wrote {args.out_dir} ({', '.join(written)}) from {args.source} ({what})")
    if not isinstance(tokenizer, BPETokenizer):
        print("note: no tokenizer written (" + ("a character vocabulary: transformers has no "
              "tokenizer for it" if tokenizer is not None else "none given: --tokenizer")
              + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())

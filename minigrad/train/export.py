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

The export is written into a temporary directory beside the target first; only once it is
complete do its files move in, after every file of :data:`MODEL_FILES` that the new export
lacks is removed from the target (so an earlier BPE export's ``tokenizer.json`` never sits
beside a character model's weights). Other files in the target are kept. A target that is a
file is a usage error.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from minigrad.models.hf_gpt2 import save_tokenizer_files

from .cli import _OneLineErrors
from .data import DataError
from .pretrained import SOURCE_HELP, load_model
from .tokens import BPETokenizer, load_bpe

#: the files of a Hugging Face model directory (weights, config, tokenizer) that an export
#: replaces: any of them left from an earlier model would be read as part of the new one
MODEL_FILES = ("config.json", "generation_config.json", "model.safetensors",
               "model.safetensors.index.json", "pytorch_model.bin",
               "pytorch_model.bin.index.json", "tf_model.h5", "flax_model.msgpack",
               "tokenizer.json", "tokenizer_config.json", "vocab.json", "merges.txt",
               "special_tokens_map.json", "added_tokens.json")


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``minigrad-export``; returns the exit code (2: a usage error)."""
    p = _OneLineErrors(
        prog="minigrad-export",
        description="Write a model as a Hugging Face GPT-2 directory (weights, config, "
                    "tokenizer) that transformers loads.")
    p.add_argument("source", help=SOURCE_HELP)
    p.add_argument("out_dir", help="the directory to write (created if needed; the model "
                                   "files of an earlier export there are replaced, other "
                                   "files kept)")
    p.add_argument("--tokenizer", default=None, metavar="PATH",
                   help="the tokenizer to write beside the model (default: the one SOURCE "
                        "carries)")
    args = p.parse_args(argv)
    target = Path(args.out_dir).resolve()
    blocker = next((a for a in (target, *target.parents) if a.exists()), None)
    if blocker is not None and not blocker.is_dir():
        p.error(f"{args.out_dir}: {blocker} is a file, not a directory")
    try:
        model, tokenizer, what = load_model(args.source)
        if args.tokenizer is not None:
            tokenizer = load_bpe(args.tokenizer)
    except DataError as e:
        p.error(str(e))
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent,
                                         prefix=f".{target.name}.export-") as staging:
            try:
                model.save_pretrained(staging)
            except ValueError as e:
                p.error(f"{args.source} cannot be written as GPT-2: {e}")
            if isinstance(tokenizer, BPETokenizer):
                save_tokenizer_files(tokenizer.to_json(), staging, model.config.block_size)
            written = sorted(os.listdir(staging))
            replace_model_files(Path(staging), target)
    except OSError as e:
        p.error(f"cannot write {args.out_dir}: {e.strerror or e}")
    print(f"wrote {args.out_dir} ({', '.join(written)}) from {args.source} ({what})")
    if not isinstance(tokenizer, BPETokenizer):
        print("note: no tokenizer written (" + ("a character vocabulary: transformers has no "
              "tokenizer for it" if tokenizer is not None else "none given: --tokenizer")
              + ")")
    return 0


def replace_model_files(staging: Path, target: Path) -> None:
    """Move the files of a finished export from ``staging`` into ``target``, after removing
    every MODEL_FILES entry of ``target`` that the new export does not have (an earlier BPE
    model's tokenizer beside character-model weights would load as this model's). Files
    that are not a model's (a README, notes) stay."""
    target.mkdir(exist_ok=True)
    new = set(os.listdir(staging))
    for name in sorted(set(MODEL_FILES) - new):
        (target / name).unlink(missing_ok=True)
    for name in sorted(new):
        os.replace(staging / name, target / name)


if __name__ == "__main__":
    sys.exit(main())

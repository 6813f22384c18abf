"""Write a random-weight GPT-2 124M directory (config.json, model.safetensors, tokenizer.json).

    .venv/bin/python bench/make_random_gpt2.py /tmp/gpt2rand

Same shapes as OpenAI's GPT-2 124M (12 layers, 12 heads, 768 wide, 1024 positions, vocab
50257, tanh GELU, tied head), random weights, saved with ``GPT.save_pretrained``; the
tokenizer is a small byte-level BPE trained on Tiny Shakespeare (needs ``tokenizers``), enough
for ``examples/generate_gpt2.py`` to run. Speed does not depend on the weights' values, so
this measures what a real GPT-2 would do without downloading one. ``bench/generate.py --gpt2``
calls :func:`write_random_gpt2` for its model (no tokenizer needed there).
"""

from __future__ import annotations

import argparse

import minigrad
from minigrad import models
from minigrad.train.data import TINY_SHAKESPEARE

GPT2_124M = {"vocab_size": 50257, "block_size": 1024, "n_layer": 12, "n_head": 12,
             "n_embd": 768}


def write_random_gpt2(out_dir: str, seed: int = 0, **sizes: int) -> models.GPT:
    """A GPT-2 shaped model (tanh GELU, tied head; GPT-2 124M's sizes unless ``sizes``
    overrides some), random weights from ``seed``, saved as a Hugging Face directory."""
    minigrad.manual_seed(seed)
    gpt = models.GPT(**{**GPT2_124M, **sizes}, activation="gelu_tanh")
    gpt.save_pretrained(out_dir)
    return gpt


def main() -> None:
    """Build the model and the tokenizer and save both into the directory given."""
    from tokenizers import Tokenizer, decoders, pre_tokenizers, trainers
    from tokenizers import models as tokenizer_models

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir")
    args = parser.parse_args()
    gpt = write_random_gpt2(args.out_dir)
    tok = Tokenizer(tokenizer_models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train([str(TINY_SHAKESPEARE)], trainers.BpeTrainer(
        vocab_size=2000, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tok.save(f"{args.out_dir}/tokenizer.json")
    print(f"{gpt.num_parameters():,} parameters written to {args.out_dir}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python
"""Train a character-level GPT on Tiny Shakespeare (or any UTF-8 text) with minigrad.

The main job. The trainer ships inside the package, so this script and the installed console
command ``minigrad-train`` are the same program with the same flags::

    .venv/bin/python examples/train_chars.py                 # nanoGPT's CPU config
    .venv/bin/python examples/train_chars.py --max-iters 50  # a short trial run
    .venv/bin/python examples/train_chars.py --help          # every flag, explained

Read the code in ``minigrad/train/``: ``chars.py`` (the loop: batch, forward, backward, clip,
AdamW step; evaluation, checkpoints, resume, sampling), ``cli.py`` (the flags),
``data.py`` (vocabulary, split, batches) and ``progress.py`` (the progress line).
"""

import sys

from minigrad.train.chars import main

if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python
"""Train a character-level GPT on Tiny Shakespeare (or any UTF-8 text) with minigrad.

The main job. The trainer ships inside the package, so this script and the installed console
command ``minigrad-train`` are the same program with the same flags::

    .venv/bin/python examples/train_chars.py                 # nanoGPT's CPU config
    .venv/bin/python examples/train_chars.py --max-iters 50  # a short trial run
    .venv/bin/python examples/train_chars.py --help          # every flag, explained

Read the code in ``minigrad/train/``: ``loop.py`` (the training loop and everything one
iteration calls, as nanoGPT's ``train.py``: batches, forward, backward, clipping, the
learning-rate schedule, the AdamW step), ``command.py`` (the program: train or sample),
``cli.py`` (the flags), ``prepare.py`` (the set-up), ``data.py`` (vocabulary, split); the
other files there are named for what they hold.
"""

import sys

from minigrad.train.command import main

if __name__ == "__main__":
    sys.exit(main())

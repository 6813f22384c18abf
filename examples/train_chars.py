#!/usr/bin/env python
"""Train a character-level GPT on Tiny Shakespeare (or any UTF-8 text) with minigrad.

The main job. The trainer ships inside the package, so this script and the installed console
command ``minigrad-train`` are the same program with the same flags::

    .venv/bin/python examples/train_chars.py                 # nanoGPT's CPU config
    .venv/bin/python examples/train_chars.py --max-iters 50  # a short trial run
    .venv/bin/python examples/train_chars.py --help          # every flag, explained

Read the code in ``minigrad/train/``: ``chars.py`` (the loop, on one screen: evaluate and
checkpoint when due, else one step), ``step.py`` (batch, forward, backward, clip, AdamW step),
``cli.py`` (the flags), ``prepare.py`` (the set-up), ``data.py`` (vocabulary, split, batches);
the other files there are named for what they hold.
"""

import sys

from minigrad.train.command import main

if __name__ == "__main__":
    sys.exit(main())

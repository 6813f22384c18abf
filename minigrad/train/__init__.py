"""The character-level GPT trainer, shipped with its corpus (Tiny Shakespeare).

``minigrad-train`` (the console command) and ``examples/train_chars.py`` both run
:func:`minigrad.train.chars.main`. Modules: ``chars`` (the training loop, checkpoints,
sampling), ``cli`` (the flags and ``--config``), ``data`` (vocabulary, split, batches; the
corpus path ``TINY_SHAKESPEARE``), ``progress`` (the progress line). Nothing here is imported
by ``import minigrad``.
"""

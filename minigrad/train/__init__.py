"""The trainer, shipped with its corpus (Tiny Shakespeare): a character-level GPT by default,
or BPE text and a pretrained GPT-2 to fine-tune (docs/finetune.md).

``minigrad-train`` (the console command) and ``examples/train_chars.py`` both run
:func:`minigrad.train.chars.main`; ``minigrad-sample`` runs :func:`minigrad.train.sample.main`
and ``minigrad-export`` :func:`minigrad.train.export.main`. Modules: ``chars`` (main and the
training loop), ``cli`` (the flags and ``--config``), ``prepare`` (setting a run up), ``run``
(the run the loop drives), ``step`` (one optimizer step, gradient accumulation),
``evaluate`` (loss estimates), ``checkpoint``, ``safety`` (out-dirs, signals, non-finite
values), ``report`` (metrics.json, plot), ``generation`` (sampling), ``data`` (characters,
split, batches; the corpus path ``TINY_SHAKESPEARE``), ``tokens`` (BPE, token files),
``pretrained`` (``--init-from``), ``warmup`` (background compile), ``distributed_run``
(``mpiexec``), ``progress`` (the progress line). Nothing here is imported by
``import minigrad``.
"""

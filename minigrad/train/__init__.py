"""The trainer, shipped with its corpus (Tiny Shakespeare): a character-level GPT by default,
or BPE text and a pretrained GPT-2 to fine-tune (docs/finetune.md).

``minigrad-train`` (the console command) and ``examples/train_chars.py`` both run
:func:`minigrad.train.command.main`; ``minigrad-sample`` runs :func:`minigrad.train.sample.main`
and ``minigrad-export`` :func:`minigrad.train.export.main`. Modules: ``command`` (main: train
or sample), ``loop`` (the training loop and all it calls each iteration: batches, the step
with gradient accumulation and clipping, the learning-rate schedule), ``cli`` (the flags and
``--config``), ``prepare`` (setting a run up), ``run`` (the run the loop drives: evaluation,
checkpoints, early ends), ``evaluate`` (loss estimates), ``checkpoint``, ``safety``
(out-dirs, signals, non-finite values), ``report`` (metrics.json, plot), ``generation``
(sampling), ``data`` (characters, split; the corpus path ``TINY_SHAKESPEARE``), ``tokens``
(BPE, token files), ``pretrained`` (``--init-from``), ``distributed_run`` (``mpiexec``),
``progress`` (the progress line). Nothing here is imported by ``import minigrad``, and
nothing here imports ``minigrad.kernels``: the trainer uses the library's public doors
(``minigrad.cold_start``, ``minigrad.set_num_threads``).
"""

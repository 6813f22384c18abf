"""nanoGPT's ``GPT.generate`` ports to minigrad line by line (``torch`` -> ``mg``).

The function below is nanoGPT's sampling loop with only the module names changed: ``size``,
slicing, ``topk`` returning (values, indices), boolean-mask assignment, ``softmax(dim=)``,
``multinomial`` and ``cat(dim=)`` all behave as in PyTorch.
"""

from __future__ import annotations

import numpy as np

import minigrad as mg
from minigrad import models
from minigrad.nn import functional as F


@mg.no_grad()
def nanogpt_generate(model, idx, max_new_tokens, temperature=1.0, top_k=None):
    """nanoGPT's generate with torch -> mg (the model returns (logits, loss) as nanoGPT's)."""
    for _ in range(max_new_tokens):
        idx_cond = idx if idx.size(1) <= model.config.block_size else idx[:, -model.config.block_size:]
        logits, _ = model(idx_cond)
        logits = logits[:, -1, :] / temperature
        if top_k is not None:
            v, _ = mg.topk(logits, min(top_k, logits.size(-1)))
            logits[logits < v[:, [-1]]] = -float("Inf")
        probs = F.softmax(logits, dim=-1)
        idx_next = mg.multinomial(probs, num_samples=1)
        idx = mg.cat((idx, idx_next), dim=1)
    return idx


def _model() -> models.GPT:
    mg.manual_seed(0)
    return models.GPT(vocab_size=11, block_size=8, n_layer=1, n_head=2, n_embd=16)


def test_nanogpt_generate_runs_unchanged_past_the_block():
    model = _model()
    out = nanogpt_generate(model, mg.zeros((2, 3), dtype=mg.long), 12, top_k=5)
    assert out.shape == (2, 15) and out.dtype == np.int64
    assert out.data.min() >= 0 and out.data.max() < 11
    assert np.array_equal(out.data[:, :3], np.zeros((2, 3)))


def test_nanogpt_generate_top_k_1_is_greedy_argmax():
    model = _model()
    start = mg.zeros((1, 1), dtype=mg.long)
    out = nanogpt_generate(model, start, 6, top_k=1)
    idx = start
    with mg.no_grad():
        for _ in range(6):
            logits, _ = model(idx)
            idx = mg.cat((idx, logits[:, -1, :].argmax(-1, keepdim=True)), dim=1)
    assert np.array_equal(out.data, idx.data)


def test_nanogpt_generate_is_reproducible_with_a_seed():
    model = _model()
    mg.manual_seed(123)
    a = nanogpt_generate(model, mg.zeros((1, 2), dtype=mg.long), 10)
    mg.manual_seed(123)
    b = nanogpt_generate(model, mg.zeros((1, 2), dtype=mg.long), 10)
    assert np.array_equal(a.data, b.data)

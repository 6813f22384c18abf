"""Decoding on NaN logits raises a ValueError naming the step, never returns token 0:
``GPT.generate``, ``Transformer.greedy_decode`` and ``Transformer.beam_search``."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import models


def _nan_model(model):
    for p in model.parameters():
        p.data[...] = np.nan
    return model


def test_generate_on_nan_logits_raises():
    mg.manual_seed(0)
    gpt = _nan_model(models.GPT(vocab_size=5, block_size=4, n_layer=1, n_head=1, n_embd=4))
    with pytest.raises(ValueError, match="NaN"):
        gpt.generate(mg.tensor([[1, 2]]), 2)


def test_greedy_decode_and_beam_search_on_nan_logits_raise():
    mg.manual_seed(0)
    tr = _nan_model(models.Transformer(src_vocab_size=6, tgt_vocab_size=6, d_model=4, num_heads=1,
                                       num_encoder_layers=1, num_decoder_layers=1, d_ff=8, max_len=8))
    src = np.array([[1, 2, 3]])
    with pytest.raises(ValueError, match="NaN"):
        tr.greedy_decode(src, 1, 2, 5)
    with pytest.raises(ValueError, match="NaN"):
        tr.beam_search(src, 1, 2, 5)

"""GPTConfig: the hyper-parameters of :class:`~minigrad.models.GPT` (nanoGPT's names).

A module of its own so that the weight converters (``nanogpt.py``, ``hf_gpt2.py``) can build
configs without importing ``gpt.py``, which imports them (one way: gpt -> converters).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

ACTIVATIONS = ("gelu", "gelu_tanh", "relu")


@dataclass
class GPTConfig:
    """Hyper-parameters of :class:`GPT` (names as nanoGPT).

    vocab_size: number of token ids V; block_size: longest context T the
    model accepts (the size of the position table); n_layer blocks of n_head
    heads over n_embd channels (n_embd % n_head == 0); dropout probability;
    bias: whether Linear layers have biases; tie_weights: lm_head shares the
    token embedding; pos_encoding: 'learned' (an Embedding) or 'sinusoidal'
    (the fixed table of "Attention Is All You Need"); activation in the MLP:
    'gelu' (exact, erf-based), 'gelu_tanh' (the tanh approximation GPT-2 was
    trained with; Hugging Face calls it "gelu_new") or 'relu'; layer_norm_eps:
    the epsilon of every LayerNorm (GPT-2's ``layer_norm_epsilon``).
    """

    vocab_size: int
    block_size: int
    n_layer: int
    n_head: int
    n_embd: int
    dropout: float = 0.0
    bias: bool = True
    tie_weights: bool = True
    pos_encoding: str = "learned"
    activation: str = "gelu"
    layer_norm_eps: float = 1e-5

    def __post_init__(self) -> None:
        for name in ("vocab_size", "block_size", "n_layer", "n_head", "n_embd"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"GPTConfig.{name} must be a positive integer, got {value!r}")
        if self.n_embd % self.n_head != 0:
            raise ValueError(
                f"n_embd ({self.n_embd}) must be divisible by n_head ({self.n_head})"
            )
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"dropout must be in [0, 1), got {self.dropout!r}")
        if self.pos_encoding not in ("learned", "sinusoidal"):
            raise ValueError(
                f"pos_encoding must be 'learned' or 'sinusoidal', got {self.pos_encoding!r}"
            )
        if self.activation not in ACTIVATIONS:
            raise ValueError(f"activation must be one of {ACTIVATIONS}, got {self.activation!r}")
        if not (isinstance(self.layer_norm_eps, (float, int)) and 0 < self.layer_norm_eps < 1):
            raise ValueError(f"layer_norm_eps must be in (0, 1), got {self.layer_norm_eps!r}")

"""The two transformer models minigrad exists to teach.

- :class:`GPT` (``models/gpt.py``): decoder-only language model, nanoGPT-style,
  with ``generate`` (key/value-cached sampling).
- :class:`Transformer` (``models/transformer.py``): the encoder-decoder of
  "Attention Is All You Need", with ``greedy_decode`` and ``beam_search``.
- ``models/decoding.py``: sampling and beam-search helpers both use.
"""

from .gpt import GPT, GPTConfig, KVCache
from .transformer import Transformer, TransformerConfig

__all__ = ["GPT", "GPTConfig", "KVCache", "Transformer", "TransformerConfig"]

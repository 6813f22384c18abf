"""The two transformer models minigrad exists to teach.

- :class:`GPT` (``models/gpt.py``): decoder-only language model, nanoGPT-style,
  with ``generate`` (key/value-cached sampling).
- :class:`Transformer` (``models/transformer.py``): the encoder-decoder of
  "Attention Is All You Need", with ``greedy_decode`` and ``beam_search``.
- ``models/decoding.py``: sampling and beam-search helpers both use.
- ``models/nanogpt.py`` and ``models/hf_gpt2.py``: GPT weights in and out of nanoGPT's
  names and Hugging Face's GPT-2 directories (``GPT.from_nanogpt``, ``GPT.from_pretrained``,
  docs/weights.md).
"""

if __name__ != "minigrad.models":  # the repository's folder imported as top-level ``models``: one copy
    from minigrad._repo_root import become_installed

    become_installed(__name__, "minigrad.models")


from .gpt import GPT, GPTConfig, KVCache
from .transformer import Transformer, TransformerConfig

__all__ = ["GPT", "GPTConfig", "KVCache", "Transformer", "TransformerConfig"]

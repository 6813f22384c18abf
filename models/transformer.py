"""The encoder-decoder Transformer of "Attention Is All You Need" (Vaswani et al., 2017).

    src (B, S) ids -> embed * sqrt(d) + PE -> N_enc x EncoderLayer -> memory (B, S, d)
    tgt_in (B, T) ids -> embed * sqrt(d) + PE -> N_dec x DecoderLayer(memory) -> Linear
                                                                         -> logits (B, T, V_tgt)

    EncoderLayer: self-attention over the source, then a feed-forward network.
    DecoderLayer: masked (causal) self-attention over the target prefix, then
                  cross-attention (queries from the target, keys and values from
                  the encoder's memory), then a feed-forward network.

Each sub-layer f is wrapped in a residual connection. The paper normalises
*after* adding (post-LN, the default): x = LayerNorm(x + dropout(f(x))). With
``norm_first=True`` the normalisation moves in front (pre-LN):
x = x + dropout(f(LayerNorm(x))), which trains more easily when deep; the
residual stream is then never normalised, so encoder and decoder each end
with one final LayerNorm.

Training uses teacher forcing: ``tgt_in`` is the target shifted right (a
start token in front), and the causal mask makes position t predict token
t + 1 from tokens <= t only. Masks are boolean, True = "may not attend".

Initialisation as the annotated transformer: Xavier-uniform for every
weight matrix, embeddings included, biases zero. (PyTorch's default
N(0, 1) embeddings, multiplied by sqrt(d_model), would swamp the positional
encoding; a toy copy task then trains unreliably.)
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from minigrad import nn
from minigrad.function import no_grad
from minigrad.nn.module import eval_in_this_thread
from minigrad.ops.masking import causal_mask, check_mask
from minigrad.random import generator
from minigrad.step_capture import replayed
from minigrad.tensor import Tensor

from .decoding import beam_search_one, check_logits, check_token_ids


@dataclass
class TransformerConfig:
    """Hyper-parameters of :class:`Transformer` (names as ``torch.nn.Transformer``).

    d_model channels split over num_heads heads; d_ff hidden units in each
    feed-forward network; max_len the longest source or target sequence
    (the positional table's size); norm_first selects pre-LN;
    share_tgt_embeddings ties the output projection to the target embedding;
    pad_id (if not None) is the padding token of both vocabularies, from
    which padding masks are built.
    """

    src_vocab_size: int
    tgt_vocab_size: int
    d_model: int
    num_heads: int
    num_encoder_layers: int
    num_decoder_layers: int
    d_ff: int
    max_len: int
    dropout: float = 0.0
    norm_first: bool = False
    share_tgt_embeddings: bool = False
    pad_id: int | None = None

    def __post_init__(self) -> None:
        for name in ("src_vocab_size", "tgt_vocab_size", "d_model", "num_heads",
                     "num_encoder_layers", "num_decoder_layers", "d_ff", "max_len"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(
                    f"TransformerConfig.{name} must be a positive integer, got {value!r}"
                )
        if self.d_model % self.num_heads != 0:
            raise ValueError(
                f"d_model ({self.d_model}) must be divisible by num_heads ({self.num_heads})"
            )
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"dropout must be in [0, 1), got {self.dropout!r}")
        if self.pad_id is not None:
            smallest = min(self.src_vocab_size, self.tgt_vocab_size)
            if not isinstance(self.pad_id, (int, np.integer)) or not 0 <= self.pad_id < smallest:
                raise ValueError(
                    f"pad_id must be None or an id in [0, {smallest}) valid in both "
                    f"vocabularies, got {self.pad_id!r}"
                )


def _residual(x: Tensor, sublayer: Any, norm: nn.LayerNorm, dropout: nn.Dropout,
              norm_first: bool) -> Tensor:
    """One sub-layer f with its residual connection.

    post-LN (the paper): LayerNorm(x + dropout(f(x)))
    pre-LN:              x + dropout(f(LayerNorm(x)))
    """
    if norm_first:
        return x + dropout(sublayer(norm(x)))
    return norm(x + dropout(sublayer(x)))


class FeedForward(nn.Module):
    """Position-wise feed-forward network: Linear(d, d_ff) -> ReLU -> dropout -> Linear(d_ff, d).

    (B, T, d) -> (B, T, d), the same two-layer network applied at every position.
    """

    def __init__(self, d_model: int, d_ff: int, dropout: float) -> None:
        super().__init__()
        self.linear1 = nn.Linear(d_model, d_ff)
        self.relu = nn.ReLU()
        self.dropout = nn.Dropout(dropout)
        self.linear2 = nn.Linear(d_ff, d_model)

    def forward(self, x: Tensor) -> Tensor:
        return self.linear2(self.dropout(self.relu(self.linear1(x))))


class EncoderLayer(nn.Module):
    """Self-attention over the source, then feed-forward: (B, S, d) -> (B, S, d)."""

    def __init__(self, cfg: TransformerConfig) -> None:
        super().__init__()
        d = cfg.d_model
        self.self_attn = nn.MultiHeadAttention(d, cfg.num_heads, dropout=cfg.dropout)
        self.ff = FeedForward(d, cfg.d_ff, cfg.dropout)
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.dropout1, self.dropout2 = nn.Dropout(cfg.dropout), nn.Dropout(cfg.dropout)
        self.norm_first = cfg.norm_first

    def forward(self, x: Tensor, src_mask: np.ndarray | None) -> Tensor:
        x = _residual(x, lambda h: self.self_attn(h, mask=src_mask), self.norm1,
                      self.dropout1, self.norm_first)
        return _residual(x, self.ff, self.norm2, self.dropout2, self.norm_first)


class DecoderLayer(nn.Module):
    """Masked self-attention, cross-attention to the memory, feed-forward:
    (B, T, d) with memory (B, S, d) -> (B, T, d)."""

    def __init__(self, cfg: TransformerConfig) -> None:
        super().__init__()
        d = cfg.d_model
        self.self_attn = nn.MultiHeadAttention(d, cfg.num_heads, dropout=cfg.dropout)
        self.cross_attn = nn.MultiHeadAttention(d, cfg.num_heads, dropout=cfg.dropout)
        self.ff = FeedForward(d, cfg.d_ff, cfg.dropout)
        self.norm1, self.norm2, self.norm3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
        self.dropout1 = nn.Dropout(cfg.dropout)
        self.dropout2 = nn.Dropout(cfg.dropout)
        self.dropout3 = nn.Dropout(cfg.dropout)
        self.norm_first = cfg.norm_first

    def forward(self, x: Tensor, memory: Tensor, self_mask: np.ndarray,
                memory_mask: np.ndarray | None) -> Tensor:
        # queries, keys and values all from the target prefix (causal mask)
        x = _residual(x, lambda h: self.self_attn(h, mask=self_mask), self.norm1,
                      self.dropout1, self.norm_first)
        # queries from the target, keys and values from the encoder's output
        x = _residual(x, lambda h: self.cross_attn(h, memory, memory, mask=memory_mask),
                      self.norm2, self.dropout2, self.norm_first)
        return _residual(x, self.ff, self.norm3, self.dropout3, self.norm_first)


@replayed
def source_mask(src: np.ndarray, src_mask: Any, heads: int, pad_id: int | None) -> np.ndarray | None:
    """The given src_mask, or the key-padding mask (B, 1, 1, S) from pad_id, or None.

    A src_mask hides source *keys*, both in the encoder's self-attention and in the decoder's
    cross-attention, so its query axis must be 1: it broadcasts to (B, heads, 1, S). Made from
    the batch's ids, so a captured step makes it again at each replay.
    """
    b, s = src.shape
    if src_mask is not None:  # one key mask serves self- and cross-attention
        return check_mask(src_mask, "src_mask", (b, heads, 1, s), "(batch, heads, 1, keys)")
    if pad_id is None:
        return None
    return (src == pad_id)[:, None, None, :]


@replayed
def target_mask(tgt: np.ndarray, tgt_mask: Any, heads: int, pad_id: int | None) -> np.ndarray:
    """Causal mask (T, T), combined with tgt_mask if given, else with the target's key padding
    when pad_id is set: (T, T) or (B, 1, T, T) (replayed in a captured step, as
    :func:`source_mask`)."""
    b, t = tgt.shape
    mask = causal_mask(t)
    if tgt_mask is not None:
        return mask | check_mask(tgt_mask, "tgt_mask", (b, heads, t, t),
                                 "(batch, heads, queries, keys)")
    if pad_id is not None:
        return mask | (tgt == pad_id)[:, None, None, :]
    return mask


class Transformer(nn.Module):
    """Encoder-decoder Transformer (see the module docstring).

    Build with keywords, ``Transformer(src_vocab_size=..., tgt_vocab_size=...,
    d_model=512, num_heads=8, num_encoder_layers=6, num_decoder_layers=6,
    d_ff=2048, max_len=256)``, or ``Transformer(config=cfg)`` /
    ``Transformer.from_config(cfg)``; ``self.config`` holds the
    :class:`TransformerConfig`.
    """

    def __init__(
        self,
        src_vocab_size: int | None = None,
        tgt_vocab_size: int | None = None,
        d_model: int | None = None,
        num_heads: int | None = None,
        num_encoder_layers: int | None = None,
        num_decoder_layers: int | None = None,
        d_ff: int | None = None,
        max_len: int | None = None,
        dropout: float = 0.0,
        norm_first: bool = False,
        share_tgt_embeddings: bool = False,
        pad_id: int | None = None,
        *,
        config: TransformerConfig | None = None,
    ) -> None:
        super().__init__()
        sizes = (src_vocab_size, tgt_vocab_size, d_model, num_heads, num_encoder_layers,
                 num_decoder_layers, d_ff, max_len)
        if config is None:
            config = TransformerConfig(*sizes, dropout, norm_first, share_tgt_embeddings, pad_id)
        elif not isinstance(config, TransformerConfig):
            raise TypeError(f"config must be a TransformerConfig, got {type(config).__name__}")
        elif any(v is not None for v in sizes):
            raise TypeError("pass either config= or the size keywords, not both")
        self.config = config
        d = config.d_model

        self.src_embed = nn.Embedding(config.src_vocab_size, d)
        self.tgt_embed = nn.Embedding(config.tgt_vocab_size, d)
        self.pos = nn.PositionalEncoding(d, config.max_len)
        self.dropout = nn.Dropout(config.dropout)
        self.encoder_layers = nn.ModuleList(
            [EncoderLayer(config) for _ in range(config.num_encoder_layers)])
        self.decoder_layers = nn.ModuleList(
            [DecoderLayer(config) for _ in range(config.num_decoder_layers)])
        # pre-LN leaves the residual stream unnormalised: normalise it once at the end
        self.encoder_norm = nn.LayerNorm(d) if config.norm_first else None
        self.decoder_norm = nn.LayerNorm(d) if config.norm_first else None
        self.output_proj = nn.Linear(d, config.tgt_vocab_size)
        if config.share_tgt_embeddings:
            # (V, d) serves as both lookup table and output matrix: one Parameter
            self.output_proj.weight = self.tgt_embed.weight
        self._init_weights()

    @classmethod
    def from_config(cls, config: TransformerConfig) -> Transformer:
        """Build a Transformer from a :class:`TransformerConfig`."""
        return cls(config=config)

    def _init_weights(self) -> None:
        """Xavier-uniform for every matrix: U(-a, a), a = sqrt(6 / (fan_in + fan_out))
        (each of the q, k, v blocks of an attention's packed projection as its own matrix),
        which keeps activation and gradient variance roughly constant across
        layers (Glorot & Bengio, 2010); Linear biases zero."""
        rng = generator()
        packed = {id(m.in_proj_weight) for m in self.modules()
                  if isinstance(m, nn.MultiHeadAttention)}
        for p in self.parameters():  # a tied matrix is met (and drawn) once
            if p.ndim > 1:
                fan_out, fan_in = p.shape[0], p.shape[1]  # (out, in) as Linear stores it
                if id(p) in packed:  # q | k | v stacked: each block is a (d, d) matrix
                    fan_out //= 3
                bound = math.sqrt(6.0 / (fan_in + fan_out))
                p.data[...] = rng.uniform(-bound, bound, size=p.shape)
        for m in self.modules():
            if isinstance(m, nn.Linear) and m.bias is not None:
                m.bias.data[...] = 0.0
            elif isinstance(m, nn.MultiHeadAttention) and m.in_proj_bias is not None:
                m.in_proj_bias.data[...] = 0.0

    # ---- masks -------------------------------------------------------------------
    def _source_mask(self, src: np.ndarray, src_mask: Any) -> np.ndarray | None:
        """:func:`source_mask` with this model's heads and pad_id."""
        return source_mask(src, src_mask, self.config.num_heads, self.config.pad_id)

    def _target_mask(self, tgt: np.ndarray, tgt_mask: Any) -> np.ndarray:
        """:func:`target_mask` with this model's heads and pad_id."""
        return target_mask(tgt, tgt_mask, self.config.num_heads, self.config.pad_id)

    # ---- encoder and decoder -----------------------------------------------------
    def _embed(self, embedding: nn.Embedding, ids: np.ndarray) -> Tensor:
        """embedding(ids) * sqrt(d_model) + PE, then dropout: (B, L) -> (B, L, d).

        The sqrt(d_model) scale (paper, section 3.4) brings Xavier-sized
        embeddings to the scale of the unit-amplitude sin/cos positions.
        """
        x = embedding(ids) * math.sqrt(self.config.d_model)
        return self.dropout(self.pos(x))

    def _encode(self, src: np.ndarray, src_mask: np.ndarray | None) -> Tensor:
        x = self._embed(self.src_embed, src)                     # (B, S, d)
        for layer in self.encoder_layers:
            x = layer(x, src_mask)                               # (B, S, d)
        return x if self.encoder_norm is None else self.encoder_norm(x)

    def _decode(self, tgt: np.ndarray, memory: Tensor, src_mask: np.ndarray | None,
                tgt_mask: Any) -> Tensor:
        self_mask = self._target_mask(tgt, tgt_mask)
        x = self._embed(self.tgt_embed, tgt)                     # (B, T, d)
        for layer in self.decoder_layers:
            x = layer(x, memory, self_mask, src_mask)            # (B, T, d)
        if self.decoder_norm is not None:
            x = self.decoder_norm(x)
        return self.output_proj(x)                               # (B, T, V_tgt)

    def _src_ids(self, src: Any) -> np.ndarray:
        cfg = self.config
        return check_token_ids(src, "src", cfg.src_vocab_size, cfg.max_len)

    def _tgt_ids(self, tgt: Any) -> np.ndarray:
        cfg = self.config
        return check_token_ids(tgt, "tgt_in", cfg.tgt_vocab_size, cfg.max_len)

    def encode(self, src: Any, src_mask: Any = None) -> Tensor:
        """memory (B, S, d_model) for source ids src (B, S).

        Without ``src_mask`` and with ``pad_id`` set, padded source positions
        are masked out as keys.
        """
        ids = self._src_ids(src)
        return self._encode(ids, self._source_mask(ids, src_mask))

    def decode(self, tgt_in: Any, memory: Tensor, src_mask: Any = None,
               tgt_mask: Any = None) -> Tensor:
        """logits (B, T, V_tgt) for target prefix tgt_in (B, T) and memory (B, S, d).

        ``src_mask`` masks memory positions in cross-attention; the decoder
        cannot see the source ids, so pass the mask the encoder used (forward,
        greedy_decode and beam_search do) to hide padded source positions.
        """
        ids = self._tgt_ids(tgt_in)
        if not isinstance(memory, Tensor) or memory.ndim != 3 \
                or memory.shape[0] != ids.shape[0] or memory.shape[2] != self.config.d_model:
            shape = getattr(memory, "shape", type(memory).__name__)
            raise ValueError(f"memory must be a Tensor of shape (B={ids.shape[0]}, S, "
                             f"d_model={self.config.d_model}), got {shape}")
        b, s = ids.shape[0], memory.shape[1]
        mask = None if src_mask is None else check_mask(
            src_mask, "src_mask", (b, self.config.num_heads, 1, s), "(batch, heads, 1, keys)")
        return self._decode(ids, memory, mask, tgt_mask)

    def forward(self, src: Any, tgt_in: Any, src_mask: Any = None,
                tgt_mask: Any = None) -> Tensor:
        """logits (B, T, V_tgt) for source ids src (B, S) and the shifted-right
        target tgt_in (B, T) (teacher forcing). Masks are boolean, True =
        blocked; the decoder's self-attention is always causal."""
        src_ids, tgt_ids = self._src_ids(src), self._tgt_ids(tgt_in)
        if src_ids.shape[0] != tgt_ids.shape[0]:
            raise ValueError(f"src {src_ids.shape} and tgt_in {tgt_ids.shape} have different "
                             "batch sizes")
        mask = self._source_mask(src_ids, src_mask)
        memory = self._encode(src_ids, mask)
        return self._decode(tgt_ids, memory, mask, tgt_mask)

    # ---- inference ------------------------------------------------------------------
    def _check_decode_args(self, start_id: int, end_id: int, max_len: int) -> None:
        v = self.config.tgt_vocab_size
        for name, tok in (("start_id", start_id), ("end_id", end_id)):
            if not isinstance(tok, (int, np.integer)) or not 0 <= tok < v:
                raise ValueError(f"{name} must be a target token id in [0, {v}), got {tok!r}")
        if isinstance(max_len, bool) or not isinstance(max_len, (int, np.integer)) \
                or not 1 <= max_len <= self.config.max_len:
            raise ValueError(f"max_len must be an integer in [1, {self.config.max_len}] "
                             f"(the model's max_len), got {max_len!r}")

    def _fill_id(self, end_id: int) -> int:
        return end_id if self.config.pad_id is None else self.config.pad_id

    def greedy_decode(self, src: Any, start_id: int, end_id: int, max_len: int) -> np.ndarray:
        """Greedy decoding: int64 (B, L) with L <= max_len, each row starting with start_id.

        Start from the start token, feed back the likeliest next token, stop
        a row at end_id (kept in the output) and the whole batch when every
        row has ended or the length reaches max_len. A row that ends early
        stops growing: its later positions hold pad_id, or end_id when the
        model has no pad_id. Runs without a graph, in eval semantics in the
        calling thread only (the model's mode is never changed).
        """
        ids = self._src_ids(src)
        self._check_decode_args(start_id, end_id, max_len)
        fill = self._fill_id(end_id)
        # eval semantics in this thread only: other threads keep their mode
        with eval_in_this_thread(), no_grad():
            mask = self._source_mask(ids, None)
            memory = self._encode(ids, mask)
            b = ids.shape[0]
            ys = np.full((b, 1), start_id, dtype=np.int64)
            done = np.zeros(b, dtype=bool)
            while ys.shape[1] < max_len and not done.all():
                logits = self._decode(ys, memory, mask, None).data[:, -1, :]  # (B, V)
                nxt = np.where(done, fill, check_logits(logits, "greedy_decode").argmax(axis=-1))
                ys = np.concatenate([ys, nxt[:, None]], axis=1)
                done |= nxt == end_id
        return ys

    def _next_log_probs(self, prefixes: np.ndarray, memory_row: np.ndarray,
                        mask_row: np.ndarray | None) -> np.ndarray:
        """log-softmax (k, V) of the next token after each of k prefixes (k, t) of one
        source sentence, whose memory (1, S, d) every prefix reads."""
        mem = Tensor(np.repeat(memory_row, prefixes.shape[0], axis=0))  # (k, S, d)
        logits = self._decode(prefixes, mem, mask_row, None).data[:, -1, :]
        z = check_logits(logits.astype(np.float64), "beam_search")
        z = z - z.max(axis=-1, keepdims=True)
        return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))

    def beam_search_hypotheses(self, src: Any, start_id: int, end_id: int, max_len: int,
                               beam_size: int = 4, length_penalty: float = 0.6,
                               ) -> list[list[tuple[np.ndarray, float]]]:
        """All finished beam hypotheses per source row, best first: for each row a
        list of (tokens (L,), score), score = log P / ((5 + n) / 6) ** length_penalty
        with n the number of generated tokens (see ``decoding.beam_search_one``)."""
        ids = self._src_ids(src)
        self._check_decode_args(start_id, end_id, max_len)
        if isinstance(beam_size, bool) or not isinstance(beam_size, (int, np.integer)) \
                or beam_size < 1:
            raise ValueError(f"beam_size must be an integer >= 1, got {beam_size!r}")
        if not isinstance(length_penalty, (int, float)) or not length_penalty >= 0:
            raise ValueError(f"length_penalty must be a number >= 0, got {length_penalty!r}")
        results = []
        # eval semantics in this thread only: other threads keep their mode
        with eval_in_this_thread(), no_grad():
            mask = self._source_mask(ids, None)
            memory = self._encode(ids, mask)
            for row in range(ids.shape[0]):
                step = functools.partial(
                    self._next_log_probs, memory_row=memory.data[row:row + 1],
                    mask_row=None if mask is None else mask[row:row + 1])
                results.append(beam_search_one(step, start_id, end_id, max_len, beam_size,
                                               float(length_penalty)))
        return results

    def beam_search(self, src: Any, start_id: int, end_id: int, max_len: int,
                    beam_size: int = 4, length_penalty: float = 0.6) -> np.ndarray:
        """Beam-search decoding: the best hypothesis per row, int64 (B, L), L <= max_len.

        Rows are padded after their end token as in :meth:`greedy_decode`
        (pad_id, or end_id without one). beam_size=1 gives greedy decoding.
        """
        hyps = self.beam_search_hypotheses(src, start_id, end_id, max_len, beam_size,
                                           length_penalty)
        best = [h[0][0] for h in hyps]
        out = np.full((len(best), max(len(s) for s in best)), self._fill_id(end_id),
                      dtype=np.int64)
        for row, seq in enumerate(best):
            out[row, :len(seq)] = seq
        return out

    # ---- bookkeeping -------------------------------------------------------------------
    def num_parameters(self, non_embedding: bool = False) -> int:
        """Number of learned scalars, each tied weight counted once. With
        ``non_embedding`` the embedding tables are left out, except a target
        table tied to the output projection (it is then a matmul weight too)."""
        n = sum(p.data.size for p in self.parameters())
        if non_embedding:
            n -= self.src_embed.weight.data.size
            if not self.config.share_tgt_embeddings:
                n -= self.tgt_embed.weight.data.size
        return n

    def estimate_flops_per_token(self, src_len: int | None = None,
                                 tgt_len: int | None = None) -> float:
        """Training FLOPs (forward + backward) per *target* token, for a pair of a
        source of ``src_len`` and a target of ``tgt_len`` tokens (default max_len each),
        in nanoGPT's convention (6 FLOPs per weight per token; 12 * d per attended
        position per layer for the score and weighted-sum matmuls):

            [6 (N_enc S + N_dec T) + 12 d (L_enc S^2 + L_dec T^2 + L_dec T S)] / T

        N_enc are the encoder's parameters, applied at every source position;
        N_dec the decoder's and the output projection's, applied at every
        target position. Embedding lookups cost no matmul FLOPs.
        """
        cfg = self.config
        s = cfg.max_len if src_len is None else int(src_len)
        t = cfg.max_len if tgt_len is None else int(tgt_len)

        def count(*modules: Any) -> int:
            return sum(p.data.size for m in modules if m is not None for p in m.parameters())

        n_enc = count(self.encoder_layers, self.encoder_norm)
        n_dec = count(self.decoder_layers, self.decoder_norm, self.output_proj)
        attention = 12 * cfg.d_model * (cfg.num_encoder_layers * s * s
                                        + cfg.num_decoder_layers * (t * t + t * s))
        return (6 * (n_enc * s + n_dec * t) + attention) / t


__all__ = [
    "DecoderLayer", "EncoderLayer", "FeedForward", "Transformer", "TransformerConfig",
]

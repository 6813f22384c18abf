"""A decoder-only transformer language model (GPT), readable top to bottom.

    idx (B, T) token ids
      -> token embedding (B, T, C) + position embedding (T, C)     C = n_embd
      -> dropout
      -> n_layer x Block:  x = x + attn(ln_1(x))    causal multi-head self-attention
                           x = x + mlp(ln_2(x))     Linear(C, 4C) -> GELU -> Linear(4C, C)
      -> ln_f -> lm_head: logits (B, T, V)          V = vocab_size

This is the "pre-LayerNorm" arrangement of GPT-2 and nanoGPT: each sub-layer
reads a normalised copy of the residual stream and adds its result back, so
the stream itself is never normalised until ``ln_f``. The output head shares
its weight matrix with the token embedding by default ("weight tying"): the
same (V, C) matrix maps ids to vectors and vectors back to scores over ids.

Initialisation follows nanoGPT: every Linear and Embedding weight ~ N(0, 0.02),
biases zero, and the two projections that write into the residual stream in
each block (the attention's ``out_proj`` and the MLP's second Linear) get
std 0.02 / sqrt(2 * n_layer), because 2 * n_layer of them add up along the
stream and the variance of a sum grows with the number of terms.

``generate`` samples new tokens one at a time with a key/value cache per
layer (``nn.attention.KVCache``, given to the attention module): the keys and
values of earlier positions never change in a causal model, so each new token
needs only its own projections. Training, evaluation and decoding run the same
``Block.forward`` and ``MultiHeadAttention.forward``.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import asdict
from typing import Any

import numpy as np

from minigrad import nn
from minigrad.function import no_grad
from minigrad.nn import functional as F
from minigrad.nn.attention import KVCache
from minigrad.nn.module import eval_in_this_thread
from minigrad.random import generator
from minigrad.tensor import Tensor

from .decoding import check_sampling_options, check_token_ids, sample_next_token
from .gpt_config import GPTConfig
from .hf_gpt2 import load_pretrained, save_pretrained
from .nanogpt import load_nanogpt, minigrad_to_nanogpt

CONFIG_METADATA_KEY = "minigrad.gpt_config"


class MLP(nn.Module):
    """The position-wise feed-forward network: Linear(C, 4C) -> GELU/ReLU -> Linear(4C, C).

    (B, T, C) -> (B, T, C). ``proj`` writes into the residual stream (its init
    is scaled down, see the module docstring). With GELU, ``proj(act(h))`` runs as one op,
    ``F.gelu_linear``: the same values and gradients, less memory kept for backward.
    """

    def __init__(self, config: GPTConfig) -> None:
        super().__init__()
        c = config.n_embd
        self.fc = nn.Linear(c, 4 * c, bias=config.bias)
        if config.activation == "relu":
            self.act = nn.ReLU()
        else:
            self.act = nn.GELU("tanh" if config.activation == "gelu_tanh" else "none")
        self.proj = nn.Linear(4 * c, c, bias=config.bias)
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x: Tensor) -> Tensor:
        h = self.fc(x)
        if type(self.act) is nn.GELU and type(self.proj) is nn.Linear:
            # proj(act(h)) as one op, which need not keep act(h) for the backward pass
            return self.dropout(F.gelu_linear(h, self.proj.weight, self.proj.bias,
                                              self.act.approximate))
        return self.dropout(self.proj(self.act(h)))


class Block(nn.Module):
    """One pre-LayerNorm transformer block: (B, T, C) -> (B, T, C).

    x = x + dropout(attn(ln_1(x)))   (causal: position t sees positions <= t)
    x = x + mlp(ln_2(x))
    """

    def __init__(self, config: GPTConfig) -> None:
        super().__init__()
        c = config.n_embd
        self.ln_1 = nn.LayerNorm(c, eps=config.layer_norm_eps, bias=config.bias)
        self.attn = nn.MultiHeadAttention(c, config.n_head, bias=config.bias,
                                          dropout=config.dropout)
        self.resid_dropout = nn.Dropout(config.dropout)
        self.ln_2 = nn.LayerNorm(c, eps=config.layer_norm_eps, bias=config.bias)
        self.mlp = MLP(config)
        self.n_head = config.n_head

    def forward(self, x: Tensor, cache: KVCache | None = None) -> Tensor:
        """x (B, t, C) -> (B, t, C). With a ``cache`` (decoding), x holds only the newest
        positions: their keys and values join the cache and their queries attend over
        every cached position (causal: the queries are the last positions)."""
        x = x + self.resid_dropout(self.attn(self.ln_1(x), is_causal=True, cache=cache))
        x = x + self.mlp(self.ln_2(x))
        return x


class GPT(nn.Module):
    """Decoder-only transformer language model (see the module docstring).

    Build with keywords, ``GPT(vocab_size=65, block_size=64, n_layer=4,
    n_head=4, n_embd=128)``, or from a config, ``GPT(config=cfg)`` /
    ``GPT.from_config(cfg)``; ``self.config`` holds the :class:`GPTConfig`.
    """

    def __init__(
        self,
        vocab_size: int | None = None,
        block_size: int | None = None,
        n_layer: int | None = None,
        n_head: int | None = None,
        n_embd: int | None = None,
        dropout: float = 0.0,
        bias: bool = True,
        tie_weights: bool = True,
        pos_encoding: str = "learned",
        activation: str = "gelu",
        layer_norm_eps: float = 1e-5,
        *,
        config: GPTConfig | None = None,
    ) -> None:
        super().__init__()
        if config is None:
            config = GPTConfig(vocab_size, block_size, n_layer, n_head, n_embd, dropout, bias,
                               tie_weights, pos_encoding, activation, layer_norm_eps)
        elif not isinstance(config, GPTConfig):
            raise TypeError(f"config must be a GPTConfig, got {type(config).__name__}")
        elif any(v is not None for v in (vocab_size, block_size, n_layer, n_head, n_embd)):
            raise TypeError("pass either config= or the size keywords, not both")
        self.config = config
        c = config.n_embd

        self.wte = nn.Embedding(config.vocab_size, c)  # token embedding (V, C)
        if config.pos_encoding == "learned":
            self.wpe = nn.Embedding(config.block_size, c)  # position embedding (T_max, C)
        else:
            self.wpe = nn.PositionalEncoding(c, config.block_size)  # fixed sin/cos table
        self.drop = nn.Dropout(config.dropout)
        self.blocks = nn.ModuleList([Block(config) for _ in range(config.n_layer)])
        self.ln_f = nn.LayerNorm(c, eps=config.layer_norm_eps, bias=config.bias)
        self.lm_head = nn.Linear(c, config.vocab_size, bias=False)
        self._init_weights()
        if config.tie_weights:
            # One Parameter in two places: its gradient collects both uses, and
            # parameters() (which skips repeats) hands it to the optimizer once.
            self.lm_head.weight = self.wte.weight

    @classmethod
    def from_config(cls, config: GPTConfig) -> GPT:
        """Build a GPT from a :class:`GPTConfig`."""
        return cls(config=config)

    def _init_weights(self) -> None:
        """nanoGPT's initialisation, drawn from minigrad's global generator."""
        rng = generator()

        def normal_(p: Tensor, std: float) -> None:
            p.data[...] = rng.normal(0.0, std, size=p.shape)

        for m in self.modules():
            if isinstance(m, nn.MultiHeadAttention):  # c_attn: q | k | v rows, one matrix
                normal_(m.in_proj_weight, 0.02)
                if m.in_proj_bias is not None:
                    m.in_proj_bias.data[...] = 0.0
            elif isinstance(m, nn.Linear):
                normal_(m.weight, 0.02)
                if m.bias is not None:
                    m.bias.data[...] = 0.0
            elif isinstance(m, nn.Embedding):
                normal_(m.weight, 0.02)
        residual_std = 0.02 / math.sqrt(2 * self.config.n_layer)
        for block in self.blocks:
            normal_(block.attn.out_proj.weight, residual_std)
            normal_(block.mlp.proj.weight, residual_std)

    # ---- the forward pass ------------------------------------------------------
    def _embed(self, ids: np.ndarray, start: int) -> Tensor:
        """Token + position vectors of ids (B, t) at absolute positions start .. start+t-1,
        then dropout: (B, t, C)."""
        tok = self.wte(ids)                                     # (B, t, C)
        t = ids.shape[1]
        if self.config.pos_encoding == "learned":
            pos = self.wpe(np.arange(start, start + t))         # (t, C), broadcast over B
        else:  # the fixed table (a buffer): rows start .. start+t-1
            pos = self.wpe.pe.data[start:start + t].astype(tok.dtype, copy=False)
        return self.drop(tok + pos)

    def forward(self, idx: Any, targets: Any = None, *,
                return_logits: bool = True) -> tuple[Tensor | None, Tensor | None]:
        """logits (B, T, V) for token ids idx (B, T); and the mean cross-entropy
        loss against ``targets`` (B, T) when given (entries -100 are ignored),
        else None. T may not exceed block_size (ValueError).

        ``return_logits=False`` (with targets; a trainer's step) gives (None, loss): the head
        and the loss run as one op (``F.linear_cross_entropy``) that never keeps the
        (B, T, V) logits or their gradient, the same loss and gradients with two (B*T, V)
        arrays less memory (2 x 206 MB at GPT-2's vocabulary, block 256, batch 4)."""
        cfg = self.config
        ids = check_token_ids(idx, "idx", cfg.vocab_size, cfg.block_size, "block_size")
        if targets is not None:
            tgt = targets.data if isinstance(targets, Tensor) else np.asarray(targets)
            if tgt.shape != ids.shape:
                raise ValueError(f"targets has shape {tgt.shape}, expected {ids.shape} like idx")
        b, t = ids.shape
        x = self._embed(ids, 0)                                 # (B, T, C)
        for block in self.blocks:
            x = block(x)                                        # (B, T, C)
        if targets is None:
            if not return_logits:
                raise ValueError("return_logits=False needs targets: without them the logits "
                                 "are the only output")
            return self.lm_head(self.ln_f(x)), None              # (B, T, V)
        if not return_logits:
            head = self.lm_head
            rows = self.ln_f(x).reshape(b * t, cfg.n_embd)       # (B*T, C)
            return None, F.linear_cross_entropy(rows, head.weight, tgt.reshape(b * t),
                                                linear_bias=head.bias, ignore_index=-100)
        logits = self.lm_head(self.ln_f(x))                     # (B, T, V)
        loss = F.cross_entropy(logits.reshape(b * t, cfg.vocab_size), tgt.reshape(b * t),
                               ignore_index=-100)
        return logits, loss

    def _forward_cached(self, ids: np.ndarray, caches: list[KVCache]) -> Tensor:
        """logits (B, t, V) of the t new tokens ``ids`` following the cached positions
        (``caches``: one :class:`KVCache` per block, filled on the way)."""
        x = self._embed(ids, len(caches[0]))                    # (B, t, C)
        for block, cache in zip(self.blocks, caches):
            x = block(x, cache)
        return self.lm_head(self.ln_f(x))

    # ---- sampling ------------------------------------------------------------------
    def generate(self, idx: Any, max_new_tokens: int, temperature: float = 1.0,
                 top_k: int | None = None, use_cache: bool = True) -> Tensor:
        """Extend idx (B, T) by ``max_new_tokens`` sampled tokens -> int64 (B, T + new).

        Each step samples from softmax(logits[:, -1] / temperature), keeping
        only the ``top_k`` likeliest tokens if given (top_k=1 is greedy), with
        minigrad's global generator: ``minigrad.manual_seed`` makes it
        repeatable. The model sees at most the last block_size tokens. Runs
        without recording a graph and in eval semantics (dropout off) in the
        calling thread only (``nn.module.eval_in_this_thread``): the model's
        mode is never changed, so another thread training the same model
        keeps its dropout while this one samples. (nanoGPT's ``generate``
        runs in whatever mode the model is in and leaves ``model.eval()`` to
        the caller; here a model in train mode samples as in eval mode.)

        With ``use_cache`` the prompt is processed once and each new token
        costs one position's work, while the sequence fits in block_size.
        Beyond that the context window slides: positions are absolute (learned
        or sinusoidal), so every kept token moves to a new position, and its
        key and value in every layer depend on that position (added to its
        embedding at the input). Nothing cached stays valid, so each
        further step recomputes the cropped window, exactly as the uncached
        path does. Both paths give the same tokens.
        """
        cfg = self.config
        ids = check_token_ids(idx, "idx", cfg.vocab_size)
        if isinstance(max_new_tokens, bool) or not isinstance(max_new_tokens, (int, np.integer)) \
                or max_new_tokens < 0:
            raise ValueError(f"max_new_tokens must be an integer >= 0, got {max_new_tokens!r}")
        check_sampling_options(temperature, top_k)

        # eval semantics in this thread only: other threads keep their mode
        with eval_in_this_thread(), no_grad():
            cache = None
            for _ in range(max_new_tokens):
                n = ids.shape[1]
                if use_cache and n <= cfg.block_size:
                    if cache is None:  # first step: run the whole prompt, fill the cache
                        cache = [KVCache() for _ in range(cfg.n_layer)]
                        logits = self._forward_cached(ids, cache)
                    else:  # later steps: only the newest token is new
                        logits = self._forward_cached(ids[:, -1:], cache)
                else:
                    logits, _ = self(ids[:, -cfg.block_size:])
                nxt = sample_next_token(logits.data[:, -1, :], temperature, top_k,
                                        generator())
                ids = np.concatenate([ids, nxt[:, None]], axis=1)
        return Tensor(ids)

    # ---- weights in and out (docs/weights.md) ---------------------------------------
    @classmethod
    def _with_weights(cls, config: GPTConfig, state: dict) -> GPT:
        """A model of ``config`` holding ``state`` (minigrad's names, checked by the
        converter), in eval mode, as transformers' ``from_pretrained``; .train() to fine-tune."""
        model = cls(config=config)
        model.load_state_dict(state)
        return model.eval()

    @classmethod
    def from_nanogpt(cls, source: Any, **overrides: Any) -> GPT:
        """A GPT holding a nanoGPT model's weights: ``source`` is its state dict, its
        checkpoint dict or the path of its ``ckpt.pt`` (see ``models/nanogpt.py``).
        ``overrides`` (e.g. n_head=, dropout=) win over the checkpoint's config; every key
        and shape is checked before any weight is set. Returned in eval mode (dropout off)."""
        return cls._with_weights(*load_nanogpt(source, **overrides))

    def to_nanogpt(self) -> dict[str, np.ndarray]:
        """This model's weights in nanoGPT's names and shapes (c_attn = attn.in_proj_weight),
        as NumPy arrays; ``torch.from_numpy`` each for nanoGPT's ``load_state_dict``."""
        return minigrad_to_nanogpt(self)

    @classmethod
    def from_pretrained(cls, path: str | os.PathLike) -> GPT:
        """A GPT from a local Hugging Face GPT-2 directory (``config.json`` +
        ``model.safetensors``); never downloads (see ``models/hf_gpt2.py``). Every key and
        shape is checked before any weight is set. Returned in eval mode (dropout off)."""
        return cls._with_weights(*load_pretrained(path))

    def save_pretrained(self, path: str | os.PathLike) -> None:
        """Write this model as a Hugging Face GPT-2 directory that
        ``transformers.GPT2LMHeadModel.from_pretrained(path)`` loads."""
        save_pretrained(self, path)

    def save_safetensors(self, path: str | os.PathLike) -> None:
        """Write the weights to a ``.safetensors`` file with the config in its metadata
        (key ``minigrad.gpt_config``, JSON); :meth:`from_safetensors` reads it back."""
        from minigrad.safetensors_io import save_safetensors

        save_safetensors(self, path, {CONFIG_METADATA_KEY: json.dumps(asdict(self.config))})

    @classmethod
    def from_safetensors(cls, path: str | os.PathLike) -> GPT:
        """A GPT rebuilt from a file written by :meth:`save_safetensors`. Returned in eval
        mode (dropout off), as every loader of this class; ``.train()`` to fine-tune."""
        from minigrad.safetensors_io import load_safetensors, safetensors_metadata

        meta = safetensors_metadata(path)
        if CONFIG_METADATA_KEY not in meta:
            raise ValueError(f"{os.fspath(path)!r} has no {CONFIG_METADATA_KEY!r} metadata: not "
                             "written by GPT.save_safetensors (load it with "
                             "minigrad.load_safetensors and load_state_dict)")
        try:
            config = GPTConfig(**json.loads(meta[CONFIG_METADATA_KEY]))
        except (TypeError, json.JSONDecodeError) as e:
            raise ValueError(f"{os.fspath(path)!r}: bad {CONFIG_METADATA_KEY!r} metadata: {e}") \
                from None
        return cls._with_weights(config, load_safetensors(path))

    # ---- bookkeeping -----------------------------------------------------------------
    def num_parameters(self, non_embedding: bool = True) -> int:
        """Number of learned scalars, each tied weight counted once.

        With ``non_embedding`` (nanoGPT's default) the learned position table
        is left out; the token embedding stays in, since (tied) it is also the
        output layer's weight. Sinusoidal positions are a buffer, never counted.
        """
        n = sum(p.data.size for p in self.parameters())
        if non_embedding and self.config.pos_encoding == "learned":
            n -= self.wpe.weight.data.size
        return n

    def estimate_flops_per_token(self, seq_len: int | None = None) -> int:
        """Training FLOPs per token (forward + backward), nanoGPT's estimate_mfu formula:

            6 * N + 12 * L * H * Q * T

        N = non-embedding parameters: each weight does a multiply-add (2 FLOPs)
        per token forward and twice that backward. The second term is
        attention's score and weighted-sum matmuls (L layers, H heads of size
        Q, a context of T = ``seq_len`` positions, default block_size), which
        have no parameters. Divide tokens/s * this by peak FLOP/s for MFU.
        """
        cfg = self.config
        t = cfg.block_size if seq_len is None else int(seq_len)
        q = cfg.n_embd // cfg.n_head
        return 6 * self.num_parameters() + 12 * cfg.n_layer * cfg.n_head * q * t

    def configure_optimizers(self, weight_decay: float, learning_rate: float,
                             betas: tuple[float, float] = (0.9, 0.95)) -> Any:
        """AdamW with two parameter groups, as nanoGPT: weight decay on every
        2-D weight (matmul weights and embeddings), none on biases and LayerNorm
        parameters (decaying a gain or an offset towards 0 has no regularising
        meaning)."""
        from minigrad.optim import AdamW

        params = list(self.parameters())
        decay = [p for p in params if p.ndim >= 2]
        no_decay = [p for p in params if p.ndim < 2]
        groups = [
            {"params": decay, "weight_decay": weight_decay},
            {"params": no_decay, "weight_decay": 0.0},
        ]
        return AdamW(groups, lr=learning_rate, betas=betas)


__all__ = ["GPT", "MLP", "Block", "GPTConfig", "KVCache"]

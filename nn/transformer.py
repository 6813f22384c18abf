"""The transformer layers of "Attention Is All You Need", as PyTorch's ``torch.nn`` has them.

``TransformerEncoderLayer`` (self-attention, feed-forward), ``TransformerDecoderLayer``
(self-attention, cross-attention over the encoder's memory, feed-forward), their stacks
``TransformerEncoder`` / ``TransformerDecoder`` (deep copies of one layer) and
``Transformer`` (encoder plus decoder), with PyTorch's parameter names, arguments and
defaults, so PyTorch state dicts load strictly. Every attention is an
:class:`~minigrad.nn.MultiheadAttention`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.tensor import Tensor

from . import init
from .activation import gelu, relu
from .dropout import Dropout
from .layernorm import LayerNorm
from .linear import Linear
from .module import Module, ModuleList
from .multihead_attention import MultiheadAttention


def _get_activation_fn(activation: str | Callable) -> Callable:
    """"relu" / "gelu" as the functions; any callable (a function or a Module) as given."""
    if activation == "relu":
        return relu
    if activation == "gelu":
        return gelu
    if callable(activation):
        return activation
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def _get_clones(module: Module, n: int) -> ModuleList:
    """n independent deep copies of ``module`` (each with its own parameters)."""
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


def _square_subsequent_mask(sz: int, dtype: Any = np.float32) -> np.ndarray:
    """(sz, sz) float mask: -inf above the diagonal (position i may not see j > i), 0 else."""
    return np.triu(np.full((sz, sz), -np.inf), 1).astype(dtype)


def _detect_is_causal_mask(mask: Any, is_causal: bool | None, size: int) -> bool:
    """``is_causal`` if given; else whether ``mask`` equals the square subsequent mask."""
    if is_causal is not None or mask is None:
        return bool(is_causal)
    m = np.asarray(getattr(mask, "data", mask))
    causal = _square_subsequent_mask(size, m.dtype if m.dtype.kind == "f" else np.float32)
    return m.shape == causal.shape and bool((m == causal).all())


def _seq_len(x: Tensor, batch_first: bool) -> int:
    """Sequence length of x: (L, E) unbatched, (N, L, E) if ``batch_first``, else (L, N, E)."""
    return x.shape[1] if x.ndim == 3 and batch_first else x.shape[0]


class _ResidualLayer(Module):
    """What both layers hold, registered in PyTorch's order: the attentions ``attn_names``,
    then linear1, dropout, linear2, then norm1.. and dropout1.., one of each per block (the
    attentions and the feed-forward block)."""

    def __init__(self, attn_names: tuple, d_model: int, nhead: int, dim_feedforward: int,
                 dropout: float, activation: str | Callable, layer_norm_eps: float,
                 batch_first: bool, norm_first: bool, bias: bool, dtype: Any) -> None:
        super().__init__()
        for name in attn_names:
            setattr(self, name, MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                                   batch_first=batch_first))
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias)
        self.norm_first = bool(norm_first)
        self._blocks = len(attn_names) + 1
        for i in range(1, self._blocks + 1):
            setattr(self, f"norm{i}", LayerNorm(d_model, eps=layer_norm_eps, bias=bias))
        for i in range(1, self._blocks + 1):
            setattr(self, f"dropout{i}", Dropout(dropout))
        self.activation = _get_activation_fn(activation)
        if dtype is not None:
            self.to(dtype=dtype)

    def _sa_block(self, x: Tensor, attn_mask: Any, key_padding_mask: Any,
                  is_causal: bool = False) -> Tensor:
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           need_weights=False, is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x: Tensor) -> Tensor:
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return getattr(self, f"dropout{self._blocks}")(x)


class TransformerEncoderLayer(_ResidualLayer):
    """Self-attention then a feed-forward block, each with a residual and a LayerNorm.

    Post-norm (``norm_first=False``): x = norm1(x + sa(x)); x = norm2(x + ff(x)).
    Pre-norm: x = x + sa(norm1(x)); x = x + ff(norm2(x)). sa = dropout1(self_attn(x, x, x)),
    ff = dropout2(linear2(dropout(activation(linear1(x))))).
    forward(src (S, N, E) or (N, S, E) if ``batch_first`` or (S, E), src_mask (S, S) or
    (N * nhead, S, S), src_key_padding_mask (N, S), is_causal) -> same shape as src.
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: str | Callable = relu,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(("self_attn",), d_model, nhead, dim_feedforward, dropout, activation,
                         layer_norm_eps, batch_first, norm_first, bias, dtype)

    def forward(self, src: Tensor, src_mask: Any = None, src_key_padding_mask: Any = None,
                is_causal: bool = False) -> Tensor:
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            return x + self._ff_block(self.norm2(x))
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
        return self.norm2(x + self._ff_block(x))


class TransformerDecoderLayer(_ResidualLayer):
    """Self-attention, cross-attention over ``memory``, then a feed-forward block, each with
    a residual and a LayerNorm (norm1..3; pre-norm if ``norm_first``), as PyTorch's.

    forward(tgt (T, N, E), memory (S, N, E) (batch first if ``batch_first``; unbatched
    (T, E), (S, E)), tgt_mask (T, T), memory_mask (T, S), tgt_key_padding_mask (N, T),
    memory_key_padding_mask (N, S), tgt_is_causal, memory_is_causal) -> same shape as tgt.
    """

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: str | Callable = relu,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(("self_attn", "multihead_attn"), d_model, nhead, dim_feedforward,
                         dropout, activation, layer_norm_eps, batch_first, norm_first, bias,
                         dtype)

    def _mha_block(self, x: Tensor, mem: Tensor, attn_mask: Any, key_padding_mask: Any,
                   is_causal: bool = False) -> Tensor:
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask,
                                key_padding_mask=key_padding_mask, is_causal=is_causal,
                                need_weights=False)[0]
        return self.dropout2(x)

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Any = None,
                memory_mask: Any = None, tgt_key_padding_mask: Any = None,
                memory_key_padding_mask: Any = None, tgt_is_causal: bool = False,
                memory_is_causal: bool = False) -> Tensor:
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask, tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask,
                                    memory_key_padding_mask, memory_is_causal)
            return x + self._ff_block(self.norm3(x))
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask,
                                           memory_is_causal))
        return self.norm3(x + self._ff_block(x))


class TransformerEncoder(Module):
    """``num_layers`` deep copies of ``encoder_layer`` applied in turn (``layers.0`` ...),
    then ``norm`` if given. forward(src, mask=None, src_key_padding_mask=None,
    is_causal=None): ``is_causal`` None means "detect": True when ``mask`` is the square
    subsequent mask. ``enable_nested_tensor`` and ``mask_check`` are accepted for PyTorch's
    signature; minigrad always computes on the padded batch."""

    def __init__(self, encoder_layer: Module, num_layers: int, norm: Module | None = None,
                 enable_nested_tensor: bool = True, mask_check: bool = True) -> None:
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = int(num_layers)
        self.norm = norm
        self.enable_nested_tensor = bool(enable_nested_tensor)
        self.mask_check = bool(mask_check)

    def forward(self, src: Tensor, mask: Any = None, src_key_padding_mask: Any = None,
                is_causal: bool | None = None) -> Tensor:
        batch_first = self.layers[0].self_attn.batch_first if len(self.layers) else False
        is_causal = _detect_is_causal_mask(mask, is_causal, _seq_len(src, batch_first))
        output = src
        for mod in self.layers:
            output = mod(output, src_mask=mask, is_causal=is_causal,
                         src_key_padding_mask=src_key_padding_mask)
        return output if self.norm is None else self.norm(output)


class TransformerDecoder(Module):
    """``num_layers`` deep copies of ``decoder_layer`` applied in turn, each attending to
    ``memory``, then ``norm`` if given. forward(tgt, memory, tgt_mask, memory_mask,
    tgt_key_padding_mask, memory_key_padding_mask, tgt_is_causal=None (detect from
    tgt_mask), memory_is_causal=False) -> same shape as tgt."""

    def __init__(self, decoder_layer: Module, num_layers: int,
                 norm: Module | None = None) -> None:
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = int(num_layers)
        self.norm = norm

    def forward(self, tgt: Tensor, memory: Tensor, tgt_mask: Any = None,
                memory_mask: Any = None, tgt_key_padding_mask: Any = None,
                memory_key_padding_mask: Any = None, tgt_is_causal: bool | None = None,
                memory_is_causal: bool = False) -> Tensor:
        batch_first = self.layers[0].self_attn.batch_first if len(self.layers) else False
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal,
                                               _seq_len(tgt, batch_first))
        output = tgt
        for mod in self.layers:
            output = mod(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                         tgt_key_padding_mask=tgt_key_padding_mask,
                         memory_key_padding_mask=memory_key_padding_mask,
                         tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        return output if self.norm is None else self.norm(output)


class Transformer(Module):
    """The encoder-decoder transformer as PyTorch's ``nn.Transformer``: ``encoder`` (a
    TransformerEncoder of ``num_encoder_layers`` layers and a final LayerNorm) and
    ``decoder`` (likewise), or ``custom_encoder`` / ``custom_decoder``. Every parameter
    with more than one dimension is re-drawn xavier_uniform, as PyTorch.

    forward(src (S, N, E), tgt (T, N, E) (batch first if ``batch_first``), src_mask,
    tgt_mask, memory_mask, src_key_padding_mask, tgt_key_padding_mask,
    memory_key_padding_mask, src_is_causal, tgt_is_causal, memory_is_causal) -> (T, N, E):
    decoder(tgt, encoder(src)). No embedding and no output projection: inputs are d_model
    features.
    """

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: str | Callable = relu,
                 custom_encoder: Module | None = None, custom_decoder: Module | None = None,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        layer_args = {"dim_feedforward": dim_feedforward, "dropout": dropout,
                      "activation": activation, "layer_norm_eps": layer_norm_eps,
                      "batch_first": batch_first, "norm_first": norm_first, "bias": bias}
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            self.encoder = TransformerEncoder(
                TransformerEncoderLayer(d_model, nhead, **layer_args), num_encoder_layers,
                LayerNorm(d_model, eps=layer_norm_eps, bias=bias))
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            self.decoder = TransformerDecoder(
                TransformerDecoderLayer(d_model, nhead, **layer_args), num_decoder_layers,
                LayerNorm(d_model, eps=layer_norm_eps, bias=bias))
        self._reset_parameters()
        self.d_model = int(d_model)
        self.nhead = int(nhead)
        self.batch_first = bool(batch_first)
        if dtype is not None:
            self.to(dtype=dtype)

    def _reset_parameters(self) -> None:
        for p in self.parameters():
            if p.ndim > 1:
                init.xavier_uniform_(p)

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device: Any = None,
                                        dtype: Any = None) -> Tensor:
        """(sz, sz) float mask, -inf above the diagonal and 0 elsewhere: position i may
        attend positions 0..i (float32 unless ``dtype`` is given)."""
        return Tensor(_square_subsequent_mask(sz, np.float32 if dtype is None else dtype))

    def forward(self, src: Tensor, tgt: Tensor, src_mask: Any = None, tgt_mask: Any = None,
                memory_mask: Any = None, src_key_padding_mask: Any = None,
                tgt_key_padding_mask: Any = None, memory_key_padding_mask: Any = None,
                src_is_causal: bool | None = None, tgt_is_causal: bool | None = None,
                memory_is_causal: bool = False) -> Tensor:
        batch_axis = 0 if self.batch_first else 1
        if src.ndim == 3 and src.shape[batch_axis] != tgt.shape[batch_axis]:
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask,
                            tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)

"""Embedding: a learned lookup table from integer ids to vectors.

``out[..., :] = weight[ids[...], :]``. Ids are checked (integer dtype, inside
[0, num_embeddings)) and copied before anything runs; the op is
:class:`minigrad.ops.embedding.EmbeddingFunction`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.ops.embedding import EmbeddingFunction
from minigrad.ops.masking import where
from minigrad.random import generator
from minigrad.step_capture import cannot_replay, replayed
from minigrad.tensor import Tensor

from .module import Module, Parameter


@replayed
def check_ids(input: Any, num_embeddings: int) -> np.ndarray:
    """The ids as a fresh int64 ndarray (a copy the op owns: the caller may refill its batch
    buffer before backward); TypeError if not integers, IndexError if out of range."""
    arr = input.data if isinstance(input, Tensor) else np.asarray(input)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"embedding: ids must be integers, got dtype {arr.dtype}")
    if arr.size:
        lo, hi = int(arr.min()), int(arr.max())
        if lo < 0 or hi >= num_embeddings:
            bad = lo if lo < 0 else hi
            raise IndexError(
                f"embedding: id {bad} is out of range for a table of {num_embeddings} rows "
                f"(valid ids are 0..{num_embeddings - 1})"
            )
    return arr.astype(np.int64)  # always a copy


def embedding(input: Any, weight: Tensor, padding_idx: int | None = None,
              max_norm: float | None = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """Rows of ``weight`` (num_embeddings, D) picked by integer ``ids`` -> ids.shape + (D,).

    ``padding_idx``: that row is looked up as usual but gets no gradient (PyTorch's
    padding row; negative counts from the end). ``max_norm``: first, in place and without
    gradient, each row the ids pick whose ``norm_type``-norm exceeds ``max_norm`` is scaled
    by max_norm / (norm + 1e-7), as PyTorch's renorm. ``scale_grad_by_freq``: the gradient
    a position sends its row is divided by how many times that id occurs in ``ids``.
    ``sparse``: accepted for PyTorch's signature; minigrad has no sparse tensors, so the
    gradient is the same dense (num_embeddings, D) array either way (same values as
    PyTorch's sparse gradient, densified).
    """
    if weight.ndim != 2:
        raise ValueError(f"embedding: weight must be 2-D (num_embeddings, dim), got {weight.shape}")
    n = weight.shape[0]
    checked = check_ids(input, n)
    if padding_idx is not None:
        if not -n <= padding_idx < n:
            raise ValueError(f"embedding: padding_idx {padding_idx} is out of range for a "
                             f"table of {n} rows")
        padding_idx %= n
    if max_norm is not None:
        cannot_replay("embedding with max_norm rescales rows of the weight with NumPy")
        _renorm_rows(weight.data, np.unique(checked), max_norm, norm_type)
    scale = None
    if scale_grad_by_freq:
        _, where_id, counts = np.unique(checked, return_inverse=True, return_counts=True)
        scale = 1.0 / counts[where_id.reshape(checked.shape)]
    out = EmbeddingFunction.apply(weight, ids=checked, grad_scale=scale)
    if padding_idx is None or not (checked == padding_idx).any():
        return out
    # the padding row's value, cut from the graph: where() sends its positions no gradient
    pad = (checked == padding_idx)[..., None]
    return where(pad, Tensor(weight.data[padding_idx]), out)


def _renorm_rows(w: np.ndarray, rows: np.ndarray, max_norm: float, norm_type: float) -> None:
    """Scale, in place, the rows of ``w`` whose ``norm_type``-norm exceeds ``max_norm``."""
    norms = np.linalg.norm(w[rows], ord=norm_type, axis=1)
    scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
    w[rows] *= scale[:, None].astype(w.dtype)


class Embedding(Module):
    """A table of ``num_embeddings`` learned vectors of size ``embedding_dim``.

    forward(ids) with integer ids of any shape (Tensor or ndarray) ->
    ids.shape + (embedding_dim,). Init as PyTorch: weight ~ N(0, 1), the ``padding_idx``
    row zero. ``padding_idx``, ``max_norm``, ``norm_type``, ``scale_grad_by_freq`` and
    ``sparse`` mean what they mean in :func:`embedding`.
    """

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: float | None = None, norm_type: float = 2.0,
                 scale_grad_by_freq: bool = False, sparse: bool = False,
                 dtype: Any = np.float32) -> None:
        super().__init__()
        for name, v in (("num_embeddings", num_embeddings), ("embedding_dim", embedding_dim)):
            if not isinstance(v, (int, np.integer)) or v <= 0:
                raise ValueError(f"Embedding: {name} must be a positive integer, got {v!r}")
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise ValueError(f"Embedding: padding_idx {padding_idx} is out of range for a "
                                 f"table of {num_embeddings} rows")
            padding_idx %= num_embeddings
        self.num_embeddings = int(num_embeddings)
        self.embedding_dim = int(embedding_dim)
        self.padding_idx, self.max_norm, self.norm_type = padding_idx, max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        w = generator().standard_normal((num_embeddings, embedding_dim)).astype(dtype)
        if padding_idx is not None:
            w[padding_idx] = 0
        self.weight = Parameter(w)

    def forward(self, input: Any) -> Tensor:
        return embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                         self.scale_grad_by_freq, self.sparse)

    def extra_repr(self) -> str:
        extra = "".join(f", {k}={getattr(self, k)}" for k in
                        ("padding_idx", "max_norm", "scale_grad_by_freq", "sparse")
                        if getattr(self, k) not in (None, False))
        return f"{self.num_embeddings}, {self.embedding_dim}{extra}"

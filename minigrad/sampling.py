"""Drawing indices from probabilities: ``multinomial`` (PyTorch's name and semantics).

Every draw is inverse-CDF sampling with uniforms from minigrad's global
generator (:mod:`minigrad.random`), so ``minigrad.manual_seed`` makes it
repeatable, and one sample per row uses exactly one uniform per row.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .random import numpy_generator
from .tensor import Tensor


def check_probs(p: np.ndarray, name: str) -> None:
    """Refuse NaN, infinite or negative weights and rows of zero mass (a ValueError naming
    the first bad row): drawing from them would silently return index 0."""
    bad = ~np.isfinite(p).all(axis=-1) | (p < 0).any(axis=-1) | ~(p.sum(axis=-1) > 0)
    if bad.any():
        row = int(np.argmax(bad))
        raise ValueError(f"{name}: row {row} of the probabilities is not a distribution "
                         f"(NaN, inf, negative or all zero): {p[row][:8]}")


def draw_rows(p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One index per row of ``p`` (R, n): the first whose cumulative mass exceeds u * total."""
    cdf = np.cumsum(p, axis=-1)
    u = rng.random((p.shape[0], 1)) * cdf[:, -1:]  # uniform in [0, total mass)
    token = (cdf <= u).sum(axis=-1)
    return np.minimum(token, p.shape[-1] - 1).astype(np.int64)  # guards u == total


def multinomial(probs: Any, num_samples: int, replacement: bool = False, *,
                generator: Any = None) -> Tensor:
    """Indices drawn from the rows of ``probs`` ((n,) or (R, n), non-negative weights, not
    necessarily normalised) -> int64 (num_samples,) or (R, num_samples); the uniforms come
    from ``generator`` (None: the global one; see :func:`minigrad.random.numpy_generator`).

    Without replacement a drawn index gets weight 0 for the next draws (so
    ``num_samples`` may not exceed the number of nonzero weights), as PyTorch.
    """
    p = np.array(probs.data if isinstance(probs, Tensor) else probs, dtype=np.float64)
    if p.ndim not in (1, 2) or p.shape[-1] == 0:
        raise ValueError(f"multinomial: probs must be 1-d or 2-d and non-empty, got {p.shape}")
    if isinstance(num_samples, bool) or not isinstance(num_samples, (int, np.integer)) \
            or num_samples < 1:
        raise ValueError(f"multinomial: num_samples must be an integer >= 1, got {num_samples!r}")
    rows = p.reshape(-1, p.shape[-1])
    check_probs(rows, "multinomial")
    if not replacement and num_samples > int((rows > 0).sum(axis=-1).min()):
        raise ValueError(f"multinomial: cannot draw {num_samples} samples without replacement "
                         f"from a row with only {int((rows > 0).sum(axis=-1).min())} nonzero weights")
    rng = numpy_generator(generator)
    out = np.empty((rows.shape[0], num_samples), np.int64)
    for j in range(num_samples):
        out[:, j] = draw_rows(rows, rng)
        if not replacement:
            rows[np.arange(rows.shape[0]), out[:, j]] = 0.0
    return Tensor(out.reshape(p.shape[:-1] + (num_samples,)))

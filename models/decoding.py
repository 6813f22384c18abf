"""Turning model outputs into tokens: sampling, greedy choice and beam search.

Both models share these helpers. They work on plain NumPy arrays of logits
(no autograd: decoding never trains), in float64 so that a tiny temperature
or a long beam does not overflow or lose precision.

- :func:`check_token_ids` validates the integer id arrays the models take.
- :func:`sample_next_token` draws one token per row from softmax(logits / T),
  optionally restricted to the ``top_k`` most likely tokens (GPT.generate).
- :func:`beam_search_one` keeps the ``beam_size`` best partial sequences of
  one source sentence and ranks the finished ones with the GNMT length
  penalty (Transformer.beam_search).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from minigrad.sampling import draw_rows
from minigrad.step_capture import replayed
from minigrad.tensor import Tensor


@replayed
def check_token_ids(ids: Any, name: str, vocab_size: int, max_len: int | None = None,
                    max_len_name: str = "max_len") -> np.ndarray:
    """Return ``ids`` as an int64 array of shape (B, T), or raise a clear error.

    TypeError for non-integer ids, ValueError for a wrong rank, an empty
    sequence or T > ``max_len``, IndexError for an id outside [0, vocab_size).
    """
    arr = ids.data if isinstance(ids, Tensor) else np.asarray(ids)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integer token ids, got dtype {arr.dtype}")
    if arr.ndim != 2:
        raise ValueError(f"{name} must have shape (batch, time), got shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} must be non-empty, got shape {arr.shape}")
    if max_len is not None and arr.shape[1] > max_len:
        raise ValueError(
            f"{name} has length {arr.shape[1]} (shape {arr.shape}) but the model's "
            f"{max_len_name} is {max_len}"
        )
    lo, hi = int(arr.min()), int(arr.max())
    if lo < 0 or hi >= vocab_size:
        bad = lo if lo < 0 else hi
        raise IndexError(f"{name} contains token id {bad}, outside [0, {vocab_size})")
    return arr.astype(np.int64, copy=False)


def check_sampling_options(temperature: float, top_k: int | None) -> None:
    """ValueError unless temperature > 0 and top_k is None or >= 1."""
    if not isinstance(temperature, (int, float, np.floating, np.integer)) or not temperature > 0:
        raise ValueError(f"temperature must be a number > 0, got {temperature!r}")
    if top_k is not None and (not isinstance(top_k, (int, np.integer)) or top_k < 1):
        raise ValueError(f"top_k must be None or an integer >= 1, got {top_k!r}")


def sample_next_token(logits: np.ndarray, temperature: float, top_k: int | None,
                      rng: np.random.Generator) -> np.ndarray:
    """One token per row of ``logits`` (B, V), drawn from softmax(logits / temperature).

    With ``top_k``, every logit below the k-th largest of its row is set to
    -inf first (``top_k`` larger than V means all of them). Subtracting the
    row maximum *before* dividing by the temperature keeps a tiny temperature
    from overflowing: the best token's score is 0 and the rest go to -inf,
    which is greedy decoding. The draw is inverse-CDF sampling with one
    uniform number per row from ``rng``, so a seeded generator gives the same
    tokens every time. Returns int64 (B,).
    """
    z = check_logits(np.asarray(logits, dtype=np.float64), "generate")
    if top_k is not None and top_k < z.shape[-1]:
        return _draw_top_k(z, top_k, temperature, rng)
    z = (z - z.max(axis=-1, keepdims=True)) / temperature
    # torch.multinomial(probs, 1) of nanoGPT's generate: one uniform draw per row
    return draw_rows(np.exp(z), rng)


def _draw_top_k(z: np.ndarray, top_k: int, temperature: float,
                rng: np.random.Generator) -> np.ndarray:
    """sample_next_token's draw when logits below the k-th largest are cut, run on the kept
    logits alone: the token a draw over the whole row would give, with weight 0 for the
    cut ones (adding a zero leaves a cumulative sum as it was), without exp and cumsum
    over all V = 50257 of them. Ties at the k-th largest keep more than k. One zero-weight
    column more, standing for the last id, keeps draw_rows' guard for u == total mass
    exactly as it was on the whole row."""
    kth = np.partition(z, -top_k, axis=-1)[:, -top_k][:, None]  # k-th largest per row
    keep = z >= kth
    top = z.max(axis=-1)
    rows, width = z.shape[0], int(keep.sum(axis=-1).max()) + 1
    ids = np.full((rows, width), z.shape[-1] - 1, dtype=np.int64)
    weights = np.zeros((rows, width))
    for r in range(rows):
        cols = np.flatnonzero(keep[r])
        ids[r, :cols.size] = cols
        weights[r, :cols.size] = np.exp((z[r, cols] - top[r]) / temperature)
    return ids[np.arange(rows), draw_rows(weights, rng)]


def check_logits(logits: np.ndarray, where: str) -> np.ndarray:
    """``logits`` unchanged, or a ValueError if any is NaN or +inf (the model diverged):
    sampling, argmax and beam search would otherwise silently pick token 0."""
    bad = np.isnan(logits) | (logits == np.inf)
    if bad.any():
        row = int(np.argwhere(bad.any(axis=-1).reshape(-1))[0, 0])
        raise ValueError(f"{where}: the model produced NaN or +inf logits (row {row}); "
                         "its weights or inputs are not finite")
    return logits


def length_penalty(length: int, alpha: float) -> float:
    """GNMT's length normaliser lp(Y) = ((5 + |Y|) / 6) ** alpha (Wu et al., 2016).

    Dividing a hypothesis' total log-probability by lp(Y) stops beam search
    from always preferring short outputs (every extra token adds a negative
    log-probability); alpha = 0 turns the penalty off.
    """
    return ((5.0 + length) / 6.0) ** alpha


def beam_search_one(
    step_log_probs: Callable[[np.ndarray], np.ndarray],
    start_id: int,
    end_id: int,
    max_len: int,
    beam_size: int,
    alpha: float,
) -> list[tuple[np.ndarray, float]]:
    """Beam search for one source sentence; returns (tokens, score) best first.

    ``step_log_probs(prefixes)`` maps k prefixes (k, t) int64 to the
    log-probabilities (k, V) of each prefix's next token. Every hypothesis
    starts with ``start_id`` and is at most ``max_len`` tokens long (start
    included). At each step the k highest-scoring one-token extensions of
    the live prefixes are kept, k = beam_size minus the hypotheses finished
    so far: an extension ending in ``end_id`` is finished and gives up its
    slot, so the beam shrinks until it is empty or the length limit ends
    whatever is left (the "shrinking beam"; with beam_size=1 it is exactly
    greedy decoding). A finished hypothesis is ranked
    by score = log P(Y) / length_penalty(#generated tokens, alpha).
    """
    beams = np.full((1, 1), start_id, dtype=np.int64)  # (k, t) live prefixes
    beam_logp = np.zeros(1)                               # (k,) their total log-probability
    finished: list[tuple[np.ndarray, float]] = []
    while len(beams) > 0:
        t = beams.shape[1]
        if t >= max_len:  # out of room: the live prefixes end here, unterminated
            for seq, lp in zip(beams, beam_logp):
                finished.append((seq, lp / length_penalty(t - 1, alpha)))
            break
        logp = np.asarray(step_log_probs(beams), dtype=np.float64)  # (k, V)
        vocab = logp.shape[1]
        total = (beam_logp[:, None] + logp).ravel()                 # (k * V,)
        n_keep = min(beam_size - len(finished), total.size)  # open slots of the beam
        # stable sort: among equal scores the lowest (beam, token) wins, as argmax
        best = np.argsort(-total, kind="stable")[:n_keep]
        alive, alive_logp = [], []
        for flat in best:
            row, token = divmod(int(flat), vocab)
            seq = np.append(beams[row], token)
            if token == end_id:
                finished.append((seq, total[flat] / length_penalty(t, alpha)))
            else:
                alive.append(seq)
                alive_logp.append(total[flat])
        beams = np.array(alive, dtype=np.int64).reshape(len(alive), t + 1)
        beam_logp = np.array(alive_logp)
    finished.sort(key=lambda h: -h[1])
    return finished

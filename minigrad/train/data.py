"""Character-level data for the trainer: read a text, build its vocabulary, split it.

A character-level language model sees a text as a sequence of integer ids, one per distinct
character (Tiny Shakespeare has 65). Everything here is plain NumPy; the model never sees a
string.

- :func:`read_text` reads a UTF-8 file and turns every way it can fail into a ``DataError``
  whose message says what is wrong (the CLI prints it and exits with code 2).
- :class:`CharVocab` maps characters <-> ids (ids in sorted-character order, as nanoGPT).
- :func:`split_ids` makes the 90/10 train/validation split (the first 90% trains).
- the training batches are drawn in the loop's own file (``loop.BatchSampler``, nanoGPT's
  ``get_batch``).
- :func:`eval_windows` cuts a split into non-overlapping windows so that every character is
  scored exactly once (the "full validation loss").
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

# The corpus ships inside the package (package data), so the trainer works from any directory.
TINY_SHAKESPEARE = Path(__file__).resolve().parent / "corpus" / "tinyshakespeare.txt"


class DataError(ValueError):
    """A text that cannot be trained on (unreadable, empty, not UTF-8, too short)."""


def read_text(path: str) -> str:
    """Return the contents of the UTF-8 text file ``path`` or raise :class:`DataError`."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except IsADirectoryError:
        raise DataError(f"--text {path!r} is a directory, not a text file") from None
    except FileNotFoundError:
        raise DataError(f"--text {path!r} does not exist") from None
    except OSError as e:
        raise DataError(f"cannot read --text {path!r}: {e.strerror or e}") from None
    if len(raw) == 0:
        raise DataError(f"--text {path!r} is empty: there is nothing to train on")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DataError(
            f"--text {path!r} is not UTF-8 text: byte {e.object[e.start]:#04x} at offset "
            f"{e.start} cannot be decoded ({e.reason}); convert it, e.g. "
            f"`iconv -f latin1 -t utf-8 in.txt > out.txt`"
        ) from None
    return text


class CharVocab:
    """Characters <-> integer ids. ``chars`` is the vocabulary string, one character per id.

    >>> v = CharVocab.from_text("hello")
    >>> v.chars, v.encode("hole").tolist(), v.decode([3, 2])
    ('ehlo', [1, 3, 2, 0], 'ol')
    """

    def __init__(self, chars: str) -> None:
        if len(chars) == 0:
            raise ValueError("a vocabulary needs at least one character")
        if len(set(chars)) != len(chars):
            raise ValueError("vocabulary characters must be distinct")
        self.chars = chars
        # id of every code point up to the largest in the vocabulary, -1 where none: encoding a
        # text is then one array lookup instead of a Python loop per character (0.1-0.2 s for
        # Tiny Shakespeare's 1.1M). At most 0x110000 entries (8.9 MB), for a vocabulary
        # holding the last code point.
        codes = _code_points(chars)
        self._ids = np.full(int(codes.max()) + 1, -1, dtype=np.int64)
        self._ids[codes] = np.arange(len(chars))

    @classmethod
    def from_text(cls, text: str) -> CharVocab:
        """The sorted set of characters occurring in ``text``."""
        return cls("".join(sorted(set(text))))

    def __len__(self) -> int:
        return len(self.chars)

    def _lookup(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """(ids, code points) of ``text``, both (len(text),); id -1 for a character not in the
        vocabulary."""
        codes = _code_points(text)
        ids = np.full(codes.shape, -1, dtype=np.int64)
        known = codes < len(self._ids)
        ids[known] = self._ids[codes[known]]
        return ids, codes

    def unknown(self, text: str) -> list[str]:
        """The distinct characters of ``text`` not in the vocabulary, in order of appearance."""
        return self._unknown(*self._lookup(text))

    @staticmethod
    def _unknown(ids: np.ndarray, codes: np.ndarray) -> list[str]:
        """The distinct characters whose id is -1, in order of first appearance."""
        bad, first = np.unique(codes[ids < 0], return_index=True)
        return [chr(c) for c in bad[np.argsort(first)]]

    def encode(self, text: str) -> np.ndarray:
        """int64 ids of shape (len(text),); raises ValueError naming unknown characters."""
        ids, codes = self._lookup(text)
        if (ids < 0).any():
            shown = ", ".join(repr(c) for c in self._unknown(ids, codes)[:10])
            raise ValueError(f"characters not in the vocabulary: {shown}")
        return ids

    def decode(self, ids) -> str:
        """The string for a sequence of ids."""
        return "".join(self.chars[int(i)] for i in ids)


def _code_points(text: str) -> np.ndarray:
    """The Unicode code points of ``text`` as uint32 (len(text),). 'surrogatepass': a str may
    hold lone surrogates (e.g. from a 'surrogateescape' decode); they are code points too."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")


def split_ids(ids: np.ndarray, val_fraction: float) -> tuple[np.ndarray, np.ndarray]:
    """(train, val): the first ``1 - val_fraction`` of the ids and the rest (nanoGPT's split)."""
    n_train = int(len(ids) * (1.0 - val_fraction))
    return ids[:n_train], ids[n_train:]


def check_split_lengths(n_chars: int, val_fraction: float, block_size: int,
                        unit: str = "characters") -> None:
    """Raise :class:`DataError` unless both splits hold a (block_size + 1)-id window.

    A training example is ``block_size`` inputs plus the next id as the last target, so each
    split needs at least ``block_size + 1`` ids (``unit``: what an id is, for the message).
    """
    n_train = int(n_chars * (1.0 - val_fraction))
    n_val = n_chars - n_train
    need = block_size + 1
    if n_train < need or n_val < need:
        raise DataError(
            f"the text has {n_chars} {unit}: the train/val split gives {n_train}/{n_val}, "
            f"but each part needs at least block_size + 1 = {need}; use a longer text or a "
            f"smaller --block-size"
        )


def eval_windows(
    seq: np.ndarray, block_size: int, batch_size: int
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Non-overlapping windows that score every target of ``seq[1:]`` exactly once.

    Window j covers inputs ``seq[jT : jT+T]`` and targets ``seq[jT+1 : jT+T+1]``, so within
    a window the first target is predicted from 1 character of context, the second from 2,
    ..., the last from T. Full windows come in batches of up to ``batch_size`` rows, shape
    (b, T); a shorter final window (when ``len(seq) - 1`` is not a multiple of T) comes alone,
    shape (1, r). Yields (x, y) int64 arrays.
    """
    T = block_size
    n_targets = len(seq) - 1
    n_full = n_targets // T
    for first in range(0, n_full, batch_size):
        rows = np.arange(first, min(first + batch_size, n_full)) * T
        idx = rows[:, None] + np.arange(T + 1)[None, :]
        window = seq[idx].astype(np.int64, copy=False)
        yield window[:, :-1], window[:, 1:]
    rest = n_targets - n_full * T
    if rest > 0:
        tail = seq[n_full * T:].astype(np.int64, copy=False)
        yield tail[None, :-1], tail[None, 1:]

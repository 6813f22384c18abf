"""Byte-level BPE text for the trainer: the tokenizer, and the text encoded once into a file.

Character-level training (``data.CharVocab``) stays the default. With ``--tokenizer`` (or
``--init-from`` a GPT-2 directory that holds tokenizer files) the trainer reads text as
GPT-2 does, byte-level BPE:

- :func:`load_bpe` reads ``tokenizer.json``, or ``vocab.json`` + ``merges.txt``, with the
  ``tokenizers`` package (the ``hf`` extra); :func:`train_bpe` trains a byte-level BPE of a
  chosen vocabulary size on the user's own text (``--tokenizer bpe``).
- :func:`token_file` encodes the text once into ``tokens.bin`` (uint16 when every id fits,
  else uint32) in the run's directory, with a progress count, and returns it memory-mapped:
  the batches read their windows straight from the file. Beside it, ``tokens.json`` records
  the text's path, size, modification time and SHA-256 and the tokenizer's SHA-256; a later
  run (a resume, a new run in the same directory) re-uses the file when all of them match,
  without reading the text again.

Encoding runs in pieces of about a megabyte, cut just after a newline that a non-space
character follows. GPT-2's pre-tokenizer (the regular expression of the ``ByteLevel``
pre-tokenizer) always ends a piece at such a newline, and BPE merges never cross pieces, so
the ids are those of encoding the whole text at once (``tests/train/test_finetune.py`` checks it).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

import numpy as np

from .data import CharVocab, DataError, read_text
from .progress import Counter

TOKENIZERS_HINT = ("byte-level BPE needs the tokenizers package: "
                   "pip install 'minigrad-autodiff[hf]'")
TOKEN_FILE, TOKEN_META = "tokens.bin", "tokens.json"
CHUNK_CHARS = 1 << 20
_PIECE_END = re.compile(r"\n(?=\S)")  # a newline followed by a non-space: a pre-token boundary


def _tokenizers():
    """The tokenizers package, or DataError saying how to install it."""
    try:
        import tokenizers
    except ImportError:
        raise DataError(TOKENIZERS_HINT) from None
    return tokenizers


class BPETokenizer:
    """A ``tokenizers.Tokenizer`` as the trainer uses it: encode (text -> int64 ids),
    decode, ``len`` (vocabulary size), and its JSON (what checkpoints store)."""

    def __init__(self, tokenizer, source: str) -> None:
        self.tokenizer = tokenizer
        self.source = source

    @classmethod
    def from_json(cls, text: str, source: str = "checkpoint") -> BPETokenizer:
        """The tokenizer whose ``tokenizer.json`` contents are ``text``."""
        return cls(_tokenizers().Tokenizer.from_str(text), source)

    def to_json(self) -> str:
        """The tokenizer as ``tokenizer.json`` text."""
        return self.tokenizer.to_str()

    def sha256(self) -> str:
        return hashlib.sha256(self.to_json().encode("utf-8")).hexdigest()

    def __len__(self) -> int:
        return self.tokenizer.get_vocab_size()

    def encode(self, text: str) -> np.ndarray:
        """int64 ids (n,) of ``text`` (no special tokens added)."""
        return np.asarray(self.tokenizer.encode(text, add_special_tokens=False).ids, np.int64)

    def decode(self, ids) -> str:
        return self.tokenizer.decode([int(i) for i in ids])

    def unknown(self, text: str) -> list[str]:
        """Byte-level BPE encodes every string: nothing is unknown."""
        return []


def load_bpe(path: str | os.PathLike) -> BPETokenizer:
    """The tokenizer in ``path``: a ``tokenizer.json`` file, or a directory holding one or
    ``vocab.json`` + ``merges.txt`` (GPT-2's two files); DataError naming what is missing."""
    p = Path(path)
    tokenizers = _tokenizers()
    if p.is_dir() and (p / "tokenizer.json").is_file():
        p = p / "tokenizer.json"
    if p.is_file():
        try:
            return BPETokenizer(tokenizers.Tokenizer.from_file(str(p)), str(p))
        except Exception as e:  # noqa: BLE001  (the Rust library raises its own exception type)
            raise DataError(f"cannot read the tokenizer {p}: {e}") from None
    vocab, merges = p / "vocab.json", p / "merges.txt"
    if vocab.is_file() and merges.is_file():
        tok = tokenizers.ByteLevelBPETokenizer(str(vocab), str(merges))
        return BPETokenizer(tokenizers.Tokenizer.from_str(tok.to_str()), f"{vocab} + merges.txt")
    raise DataError(f"no tokenizer at {path}: expected a tokenizer.json file, or a directory "
                    f"holding tokenizer.json or vocab.json + merges.txt")


def has_tokenizer_files(directory: str | os.PathLike) -> bool:
    """Whether ``directory`` holds tokenizer.json or vocab.json + merges.txt."""
    d = Path(directory)
    return (d / "tokenizer.json").is_file() or (
        (d / "vocab.json").is_file() and (d / "merges.txt").is_file())


def train_bpe(text_path: str, vocab_size: int) -> BPETokenizer:
    """A byte-level BPE (GPT-2's pre-tokenizer and decoder) of ``vocab_size`` ids trained on
    the text at ``text_path`` (the 256 byte symbols are always in it)."""
    tokenizers = _tokenizers()
    from tokenizers import decoders, models, pre_tokenizers, trainers

    tok = tokenizers.Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train([text_path], trainers.BpeTrainer(
        vocab_size=vocab_size, show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    return BPETokenizer(tok, f"byte-level BPE of {vocab_size} trained on {text_path}")


def text_pieces(text: str, size: int = CHUNK_CHARS) -> list[str]:
    """``text`` cut into pieces of about ``size`` characters, each cut just after a newline
    that a non-space character follows (see the module docstring); joined they give ``text``."""
    pieces, start = [], 0
    while start < len(text):
        end = start + size
        if end < len(text):
            m = _PIECE_END.search(text, end)
            end = m.end() if m else len(text)
        pieces.append(text[start:end])
        start = end
    return pieces


def encode_text(text: str, tok: BPETokenizer, label: str, size: int = CHUNK_CHARS) -> np.ndarray:
    """The ids of ``text``, encoded piece by piece with a progress count; the smallest
    unsigned dtype that holds every id of the vocabulary (uint16 or uint32)."""
    dtype = np.uint16 if len(tok) <= 1 << 16 else np.uint32
    counter = Counter(label, len(text))
    parts, done = [], 0
    for piece in text_pieces(text, size):
        parts.append(np.asarray(
            tok.tokenizer.encode(piece, add_special_tokens=False).ids, dtype=dtype))
        done += len(piece)
        counter.update(done)
    counter.done()
    return np.concatenate(parts) if parts else np.zeros(0, dtype)


def _fingerprint(text_path: str) -> dict:
    st = os.stat(text_path)
    return {"text": str(Path(text_path).resolve()), "size": st.st_size,
            "mtime_ns": st.st_mtime_ns}


def token_file(text_path: str, tok: BPETokenizer, directory: Path,
               write: bool = True) -> tuple[np.ndarray, str]:
    """(the text's ids, memory-mapped from ``directory/tokens.bin``, and the SHA-256 of the
    text's bytes): encoded now, or re-used when ``tokens.json`` says the same text (path,
    size, modification time) was encoded by the same tokenizer. Written atomically.
    ``write`` False (the ranks that read what rank 0 wrote): re-use only, else DataError."""
    if write:
        directory.mkdir(parents=True, exist_ok=True)
    meta_path, bin_path = directory / TOKEN_META, directory / TOKEN_FILE
    want = {**_fingerprint(text_path), "tokenizer_sha256": tok.sha256()}
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if {k: meta.get(k) for k in want} == want and bin_path.stat().st_size == \
                meta["count"] * np.dtype(meta["dtype"]).itemsize:
            ids = np.memmap(bin_path, dtype=meta["dtype"], mode="r", shape=(meta["count"],))
            print(f"tokens: re-using {bin_path} ({meta['count']:,} tokens; the text and the "
                  f"tokenizer are unchanged)")
            return ids, meta["text_sha256"]
    except (OSError, ValueError, KeyError, TypeError):
        pass  # no usable file: encode
    if not write:
        raise DataError(f"{bin_path} does not hold {text_path} encoded by this tokenizer; "
                        f"every rank must see rank 0's --out-dir (a shared filesystem)")
    text = read_text(text_path)
    raw_sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    ids = encode_text(text, tok, f"encoding {len(text):,} characters into {bin_path}")
    tmp = bin_path.with_suffix(".bin.tmp")
    ids.tofile(tmp)
    os.replace(tmp, bin_path)
    meta = {**want, "text_sha256": raw_sha, "dtype": ids.dtype.name, "count": int(ids.size)}
    tmp_meta = meta_path.with_suffix(".json.tmp")
    tmp_meta.write_text(json.dumps(meta, indent=1), encoding="utf-8")
    os.replace(tmp_meta, meta_path)
    return np.memmap(bin_path, dtype=ids.dtype, mode="r", shape=(ids.size,)), raw_sha


# ------------------------------------------------------- tokenizers in checkpoints -------
def tokenizer_entries(tok) -> dict:
    """What a checkpoint stores of ``tok``: a CharVocab's characters as ``vocab``; a BPE
    tokenizer's JSON as ``tokenizer_json`` (``vocab`` then empty)."""
    if isinstance(tok, BPETokenizer):
        return {"vocab": "", "tokenizer_json": tok.to_json()}
    return {"vocab": tok.chars}


def tokenizer_from_checkpoint(ckpt: dict):
    """The tokenizer a checkpoint stores (see :func:`tokenizer_entries`)."""
    if "tokenizer_json" in ckpt:
        return BPETokenizer.from_json(_str(ckpt["tokenizer_json"]))
    return CharVocab(_str(ckpt["vocab"]))


def _str(value) -> str:
    """A loaded string (a 0-d array or a str) as a str."""
    return str(value.item() if isinstance(value, np.ndarray) else value)

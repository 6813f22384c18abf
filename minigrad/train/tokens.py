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
  without reading the text again, once it has checked the file: a dtype of uint16 or
  uint32, the recorded count matching the file's size, every id inside the vocabulary
  (:func:`token_file_problem`); a file that fails is encoded again.

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

from minigrad.serialization import atomic_write

from .data import CharVocab, DataError, read_text
from .progress import Counter

TOKENIZERS_HINT = ("byte-level BPE needs the tokenizers package: "
                   "pip install 'minigrad-autodiff[hf]'")
TOKEN_FILE, TOKEN_META = "tokens.bin", "tokens.json"
TOKEN_DTYPES = ("uint16", "uint32")  # what encode_text writes
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


class TokenIds:
    """A text's ids for a run: ``ids`` (memory-mapped from ``tokens.bin`` when re-used, else
    in memory), the SHA-256 of the text's bytes, and the ``tokens.json`` record to write
    (None when the file on disk already holds them)."""

    def __init__(self, ids: np.ndarray, text_sha: str, meta: dict | None) -> None:
        self.ids, self.text_sha, self.meta = ids, text_sha, meta


def token_file_problem(directory: Path, want: dict, vocab_size: int) -> str | None:
    """Why ``directory``'s token file cannot be re-used for a text and tokenizer whose
    fingerprint is ``want``, or None when it can: ``tokens.json`` must match ``want``, name
    uint16 or uint32, and give the count that ``tokens.bin``'s size holds; every id in
    ``tokens.bin`` must be below ``vocab_size``. Reads only."""
    meta_path, bin_path = directory / TOKEN_META, directory / TOKEN_FILE
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if not isinstance(meta, dict):
            return f"{meta_path} is not a JSON object"
        if {k: meta.get(k) for k in want} != want:
            return "the text or the tokenizer changed"
        if meta.get("dtype") not in TOKEN_DTYPES:
            return f"{meta_path} names the dtype {meta.get('dtype')!r}, not uint16 or uint32"
        count, size = meta.get("count"), bin_path.stat().st_size
        itemsize = np.dtype(meta["dtype"]).itemsize
        if not isinstance(count, int) or count < 0 or size != count * itemsize:
            return (f"{bin_path} holds {size} bytes, not the {count!r} {meta['dtype']} ids "
                    f"{meta_path} records")
        if not isinstance(meta.get("text_sha256"), str):
            return f"{meta_path} records no text_sha256"
        ids = np.memmap(bin_path, dtype=meta["dtype"], mode="r", shape=(count,)) \
            if count else np.zeros(0, meta["dtype"])
        top = int(ids.max()) if count else -1
        if top >= vocab_size:
            return f"{bin_path} holds the id {top}, past the tokenizer's {vocab_size} ids"
    except FileNotFoundError:
        return "none yet"
    except (OSError, ValueError, TypeError) as e:
        return f"cannot read it: {e}"
    return None


def read_or_encode(text_path: str, tok: BPETokenizer, directory: Path) -> TokenIds:
    """The text's ids: ``directory/tokens.bin`` memory-mapped when :func:`token_file_problem`
    finds nothing wrong with it, else the text encoded now (in memory; :func:`save_token_file`
    writes it). Writes nothing: a run decides everything before it changes a file. DataError
    (a usage error) when the text must be encoded and cannot be read."""
    try:
        fingerprint = _fingerprint(text_path)
    except OSError:
        read_text(text_path)  # DataError saying why the text cannot be read
        raise
    want = {**fingerprint, "tokenizer_sha256": tok.sha256()}
    bin_path = directory / TOKEN_FILE
    problem = token_file_problem(directory, want, len(tok))
    if problem is None:
        meta = json.loads((directory / TOKEN_META).read_text(encoding="utf-8"))
        ids = np.memmap(bin_path, dtype=meta["dtype"], mode="r", shape=(meta["count"],))
        print(f"tokens: re-using {bin_path} ({meta['count']:,} tokens; the text and the "
              f"tokenizer are unchanged)")
        return TokenIds(ids, meta["text_sha256"], None)
    if problem not in ("none yet", "the text or the tokenizer changed"):
        print(f"tokens: not re-using {bin_path}: {problem}; encoding the text again")
    text = read_text(text_path)
    raw_sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
    ids = encode_text(text, tok, f"encoding {len(text):,} characters for {bin_path}")
    meta = {**want, "text_sha256": raw_sha, "dtype": ids.dtype.name, "count": int(ids.size)}
    return TokenIds(ids, raw_sha, meta)


def save_token_file(directory: Path, tokens: TokenIds) -> np.ndarray:
    """Write ``tokens`` as ``tokens.bin`` + ``tokens.json`` (each atomically, the ids first)
    unless they came from there; returns the ids memory-mapped from the file."""
    if tokens.meta is None:
        return tokens.ids
    directory.mkdir(parents=True, exist_ok=True)
    meta_path, bin_path = directory / TOKEN_META, directory / TOKEN_FILE
    ids = tokens.ids
    atomic_write(bin_path, ids.tofile)
    atomic_write(meta_path, lambda f: f.write(json.dumps(tokens.meta, indent=1).encode()))
    if not ids.size:
        return ids
    return np.memmap(bin_path, dtype=ids.dtype, mode="r", shape=(ids.size,))


def token_file(text_path: str, tok: BPETokenizer, directory: Path) -> tuple[np.ndarray, str]:
    """(the text's ids, memory-mapped from ``directory/tokens.bin``, and the SHA-256 of the
    text's bytes): the one function that prepares a run's shared token file. The file is
    re-used when ``tokens.json`` says the same text (path, size, modification time) was
    encoded by the same tokenizer and the file passes :func:`token_file_problem`; else the
    text is encoded and the file written atomically."""
    tokens = read_or_encode(text_path, tok, directory)
    return save_token_file(directory, tokens), tokens.text_sha


def same_vocabulary(a, b) -> bool:
    """Whether two tokenizers give every id the same meaning: CharVocabs with the same
    characters in the same order, or BPE tokenizers with the same token -> id map and the
    same merges (so that they also cut text into the same tokens)."""
    if isinstance(a, CharVocab) and isinstance(b, CharVocab):
        return a.chars == b.chars
    if isinstance(a, BPETokenizer) and isinstance(b, BPETokenizer):
        def model(t: BPETokenizer):  # merges as pairs: "a b" and ["a", "b"] are one merge
            m = json.loads(t.to_json()).get("model", {})
            merges = [tuple(x.split(" ", 1) if isinstance(x, str) else x)
                      for x in m.get("merges") or []]
            return m.get("type"), merges
        return (a.tokenizer.get_vocab(with_added_tokens=True)
                == b.tokenizer.get_vocab(with_added_tokens=True) and model(a) == model(b))
    return False


def describe_tokenizer(tok) -> str:
    """A few words naming a tokenizer: its kind, size and source."""
    if isinstance(tok, BPETokenizer):
        return f"a BPE of {len(tok)} ids ({tok.source})"
    return f"{len(tok)} characters {tok.chars[:12]!r}" + ("..." if len(tok) > 12 else "")


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

"""safetensors files in plain NumPy: ``save_safetensors`` and ``load_safetensors``.

safetensors is the field's standard file for weights (Hugging Face, PyTorch
tools, llama.cpp converters read it). It holds no code, so loading one cannot
run anything, and its layout fits in three lines::

    8 bytes        N, the header's length (unsigned 64-bit, little-endian)
    N bytes        JSON: {"__metadata__": {str: str}, name: {"dtype": "F32",
                   "shape": [768, 2304], "data_offsets": [begin, end]}, ...}
    the rest       the arrays' raw little-endian bytes, C order, back to back;
                   offsets count from the first byte after the header

This file reads and writes that layout itself (no dependency), and the tests
hold it equal to the ``safetensors`` package both ways. The API mirrors
``safetensors.numpy``: ``save_file(tensors, path, metadata)`` is
:func:`save_safetensors`, ``load_file(path)`` is :func:`load_safetensors`.

A tied weight (one array under two names, as ``state_dict()`` lists the GPT's
``wte.weight`` and ``lm_head.weight``) is written once; the other names are
recorded in the metadata under ``"minigrad.aliases"`` and :func:`load_safetensors`
gives them back as the same array. Other readers see the first name only,
which is what Hugging Face's own ``save_model`` does.

Loading trusts nothing: the header size is capped, every entry must have a
known dtype, a shape and offsets in range whose length equals
shape x itemsize, and the entries must tile the data area exactly (no
overlap, no gap, no trailing bytes). Any fault raises :class:`SafetensorsError`
naming the file and the entry before an array is returned.
"""

from __future__ import annotations

import json
import math
import os
import struct
from collections.abc import Mapping
from typing import Any

import numpy as np

from .serialization import atomic_write
from .tensor import Tensor

# safetensors' own cap on the header (100 MB): a larger N is a corrupt or hostile file.
MAX_HEADER_SIZE = 100_000_000
ALIASES_KEY = "minigrad.aliases"

# safetensors dtype name -> little-endian NumPy dtype. BF16 has no NumPy type:
# it is read as the top half of a float32 and widened (exact).
_DTYPES = {
    "F64": "<f8", "F32": "<f4", "F16": "<f2", "I64": "<i8", "I32": "<i4", "I16": "<i2",
    "I8": "i1", "U64": "<u8", "U32": "<u4", "U16": "<u2", "U8": "u1", "BOOL": "?",
    "BF16": "<u2",
}
_NAMES = {np.dtype(v).newbyteorder("<").str: k for k, v in _DTYPES.items() if k != "BF16"}


class SafetensorsError(ValueError):
    """A file is not a valid safetensors file (the message names the path and the fault)."""


def _to_array(value: Any, name: str) -> tuple[np.ndarray, str]:
    """(the ndarray, its safetensors dtype name) of one entry to save."""
    arr = value.data if isinstance(value, Tensor) else np.asarray(value)
    key = arr.dtype.newbyteorder("<").str
    if key not in _NAMES:
        raise TypeError(f"save_safetensors: {name!r} has dtype {arr.dtype}, which safetensors "
                        f"cannot hold (supported: {sorted(_NAMES.values())})")
    return arr, _NAMES[key]


def save_safetensors(tensors: Any, path: str | os.PathLike,
                     metadata: Mapping[str, str] | None = None) -> None:
    """Write ``tensors`` (name -> Tensor/ndarray, or an ``nn.Module``: its ``state_dict()``)
    to ``path`` as a safetensors file, atomically; ``metadata`` is a str -> str mapping
    stored in the header (e.g. the model's config as JSON).

    Raises TypeError/ValueError naming the entry at fault before any file is touched.
    """
    if hasattr(tensors, "state_dict") and callable(tensors.state_dict):
        tensors = tensors.state_dict()
    if not isinstance(tensors, Mapping):
        raise TypeError(f"save_safetensors: expected a mapping or a Module, "
                        f"got {type(tensors).__name__}")
    meta = dict(metadata or {})
    for k, v in meta.items():
        if not isinstance(k, str) or not isinstance(v, str):
            raise TypeError(f"save_safetensors: metadata must map str to str, got {k!r}: {v!r}")
    if ALIASES_KEY in meta:
        raise ValueError(f"save_safetensors: metadata key {ALIASES_KEY!r} is reserved")

    arrays: dict[str, np.ndarray] = {}
    aliases: dict[str, str] = {}
    header: dict[str, Any] = {}
    offset = 0
    for name, value in tensors.items():
        if not isinstance(name, str) or not name or name == "__metadata__":
            raise ValueError(f"save_safetensors: bad tensor name {name!r}")
        arr, dtype = _to_array(value, name)
        first = next((n for n, a in arrays.items() if a is arr), None)
        if first is not None:
            aliases[name] = first  # the same array again (a tied weight): store it once
            continue
        arrays[name] = arr
        header[name] = {"dtype": dtype, "shape": list(arr.shape),
                        "data_offsets": [offset, offset + arr.nbytes]}
        offset += arr.nbytes
    if aliases:
        meta[ALIASES_KEY] = json.dumps(aliases)
    if meta:
        header = {"__metadata__": meta, **header}
    text = json.dumps(header, separators=(",", ":")).encode("utf-8")
    text += b" " * (-len(text) % 8)  # pad so the data starts 8-byte aligned

    def write(f: Any) -> None:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for arr in arrays.values():
            le = np.ascontiguousarray(arr, dtype=arr.dtype.newbyteorder("<"))
            f.write(memoryview(le.reshape(-1)).cast("B"))

    atomic_write(path, write)


def _read_header(f: Any, path: str, size: int) -> tuple[dict, dict[str, str], int]:
    """(entries, metadata, data start) from the open file ``f`` of ``size`` bytes, checked."""
    if size < 8:
        raise SafetensorsError(f"{path!r} is {size} bytes: too short for a safetensors file")
    (n,) = struct.unpack("<Q", f.read(8))
    if n > MAX_HEADER_SIZE or 8 + n > size:
        raise SafetensorsError(f"{path!r}: header length {n} is larger than "
                               f"{'the file allows' if n <= MAX_HEADER_SIZE else 'the 100 MB cap'}"
                               " (not a safetensors file, or truncated)")
    try:
        header = json.loads(f.read(n).decode("utf-8"))
    except (ValueError, RecursionError) as e:  # bad UTF-8 or JSON, a 5,000-digit number
        raise SafetensorsError(f"{path!r}: the header is not valid JSON ({e})") from None
    if not isinstance(header, dict):
        raise SafetensorsError(f"{path!r}: the header is not a JSON object")
    meta = header.pop("__metadata__", {})
    if not isinstance(meta, dict) or not all(isinstance(v, str) for v in meta.values()):
        raise SafetensorsError(f"{path!r}: __metadata__ must map str to str")
    return header, meta, 8 + n


def _check_entries(entries: dict, path: str, data_len: int) -> list:
    """[(begin, name, dtype, shape)] sorted by offset, after checking every entry."""
    spans = []
    for name, e in entries.items():
        where = f"{path!r}: tensor {name!r}"
        if not isinstance(e, dict) or set(e) != {"dtype", "shape", "data_offsets"}:
            raise SafetensorsError(f"{where} needs exactly dtype, shape and data_offsets")
        if not isinstance(e["dtype"], str) or e["dtype"] not in _DTYPES:
            raise SafetensorsError(f"{where} has unknown dtype {e['dtype']!r}")
        shape, offs = e["shape"], e["data_offsets"]
        if not (isinstance(shape, list)
                and all(type(s) is int and s >= 0 for s in shape)):
            raise SafetensorsError(f"{where} has a bad shape {shape!r}")
        if not (isinstance(offs, list) and len(offs) == 2
                and all(type(o) is int for o in offs) and 0 <= offs[0] <= offs[1] <= data_len):
            raise SafetensorsError(f"{where} has data_offsets {offs!r} outside the data area "
                                   f"of {data_len} bytes")
        dtype = np.dtype(_DTYPES[e["dtype"]])
        need = math.prod(shape) * dtype.itemsize  # exact: a fixed-width product could wrap
        if offs[1] - offs[0] != need:
            raise SafetensorsError(f"{where}: {e['dtype']} {shape} needs {need} bytes but its "
                                   f"data_offsets span {offs[1] - offs[0]}")
        spans.append((offs[0], offs[1], name, e["dtype"], shape))
    spans.sort()
    end = 0
    for begin, stop, name, _, _ in spans:
        if begin != end:
            raise SafetensorsError(f"{path!r}: tensor {name!r} starts at byte {begin}, expected "
                                   f"{end} ({'overlap' if begin < end else 'gap'} in the data)")
        end = stop
    if end != data_len:
        raise SafetensorsError(f"{path!r}: the tensors cover {end} bytes of a {data_len}-byte "
                               "data area (trailing bytes)")
    return spans


def _read(path: str | os.PathLike) -> dict[str, np.ndarray]:
    path = os.fspath(path)
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        entries, meta, start = _read_header(f, path, size)
        spans = _check_entries(entries, path, size - start)
        aliases = _aliases(meta, path, entries)
        out: dict[str, np.ndarray] = {}
        for _, _, name, dt, shape in spans:  # in file order: one forward read
            arr = np.empty(shape, dtype=_DTYPES[dt])
            if arr.nbytes and f.readinto(memoryview(arr.reshape(-1)).cast("B")) != arr.nbytes:
                raise SafetensorsError(f"{path!r}: file ended inside tensor {name!r}")
            if dt == "BF16":  # bfloat16 is the high 16 bits of a float32
                arr = (arr.astype(np.uint32) << 16).view(np.float32)
            out[name] = arr.astype(arr.dtype.newbyteorder("="), copy=False)
    ordered = {name: out[name] for name in entries}  # the header's order
    for alias, name in aliases.items():
        ordered[alias] = ordered[name]
    return ordered


def _aliases(meta: dict[str, str], path: str, entries: dict) -> dict[str, str]:
    if ALIASES_KEY not in meta:
        return {}
    try:
        aliases = json.loads(meta[ALIASES_KEY])
    except json.JSONDecodeError:
        aliases = None
    if not isinstance(aliases, dict) or not all(
            isinstance(a, str) and a not in entries and t in entries for a, t in aliases.items()):
        raise SafetensorsError(f"{path!r}: metadata {ALIASES_KEY!r} must map new names to "
                               "stored tensors")
    return aliases


def load_safetensors(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """name -> ndarray of every tensor in the safetensors file ``path`` (tied names
    written by :func:`save_safetensors` come back as one shared array).

    Raises FileNotFoundError, or :class:`SafetensorsError` naming the fault.
    """
    return _read(path)


def safetensors_metadata(path: str | os.PathLike) -> dict[str, str]:
    """The ``__metadata__`` of a safetensors file (str -> str), after the same checks
    of the header (the arrays are not read)."""
    path = os.fspath(path)
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        entries, meta, start = _read_header(f, path, size)
    _check_entries(entries, path, size - start)
    _aliases(meta, path, entries)
    return meta


__all__ = ["SafetensorsError", "load_safetensors", "safetensors_metadata", "save_safetensors"]

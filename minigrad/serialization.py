"""Checkpoints: ``save(obj, path)`` and ``load(path)`` as plain ``.npz`` files, no pickle.

A checkpoint is whatever a training script needs to resume::

    minigrad.save({"model": model.state_dict(), "optimizer": opt.state_dict(),
                   "iter": 1200, "config": {"n_layer": 4}, "vocab": "abc...",
                   "rng": minigrad.get_rng_state()}, "ckpt.npz")

``obj`` may nest dicts (str or int keys), lists and tuples of Tensors,
ndarrays, NumPy scalars, and Python ints, floats, bools, strs and None.

File layout (an ordinary, uncompressed ``np.savez`` zip archive):

- ``a0``, ``a1``, ...: one ``.npy`` entry per array (Tensors are saved as arrays);
- ``__minigrad__``: a uint8 array holding UTF-8 JSON ``{"format": "minigrad-checkpoint",
  "version": 1, "root": node}``, the structure with arrays replaced by references:
  a JSON null/bool/int/str/finite float stands for itself; ``{"float": "nan"|"inf"|"-inf"}``,
  ``{"list": [...]}``, ``{"tuple": [...]}``, ``{"dict": [[key, node], ...]}``,
  ``{"array": "a3", "dtype": "<f4", "shape": [2, 3]}`` and ``{"scalar": ...}`` (same
  fields; a NumPy scalar) for the rest.

Nothing is ever unpickled: ``np.load(allow_pickle=False)`` refuses object
arrays, and the structure is JSON. ``load`` checks every CRC, the format
marker and version, every node, and that each referenced array exists with
the recorded dtype and shape (and no other arrays are present), so a
truncated, corrupted or foreign file raises :class:`CheckpointError`.
Before reading any data it also refuses an archive with a compressed member
(minigrad writes only stored ones, so nothing is ever inflated: a small deflated
member can expand to gigabytes) or with two members of one name (zipfile would
silently use the last). A PyTorch file (``torch.save``: a zip holding
``data.pkl``, or a bare pickle) is named as such, with how to convert it.
The structure may nest at most :data:`MAX_DEPTH` containers deep.

Writes are atomic: the archive goes to a temporary file in the target's
directory, is flushed and fsync'ed, then ``os.replace``'d onto the path. If
anything fails (or the process dies) before the rename, the previous file at
``path`` is untouched and the temporary file is removed.
"""

from __future__ import annotations

import json
import math
import os
import secrets
import zipfile
from collections.abc import Callable
from typing import Any

import numpy as np

from .tensor import Tensor

FORMAT = "minigrad-checkpoint"
VERSION = 1
HEADER_KEY = "__minigrad__"
_ZIP_MAGIC = b"PK\x03\x04"
_PICKLE_MAGIC = b"\x80"  # protocol 2+ pickles (legacy torch.save files) start with PROTO
MAX_DEPTH = 100  # containers nested deeper than this are refused by save (no RecursionError)
_TORCH_HINT = (
    "minigrad never unpickles. Convert it once where PyTorch is installed: "
    "sd = torch.load(path, map_location='cpu'); "
    "minigrad.save({k: v.numpy() for k, v in sd.items()}, 'ckpt.npz') "
    "(a nanoGPT checkpoint: minigrad.models.GPT.from_nanogpt(path))"
)


class CheckpointError(ValueError):
    """A file is not a readable minigrad checkpoint (the message names the path and why)."""


# ---- save -----------------------------------------------------------------------------------
def _path_str(path: tuple) -> str:
    return "obj" + "".join(f"[{k!r}]" for k in path)


def _encode(obj: Any, path: tuple, arrays: dict[str, np.ndarray], active: set[int]) -> Any:
    """The JSON node for ``obj``; arrays are moved into ``arrays`` under fresh names.

    One ndarray met twice (a tied weight under both its state_dict names) is
    stored once and referenced twice, so ``load`` hands back one array for both,
    as ``torch.save`` keeps one storage for tied tensors.
    """
    # Arrays first: np.float64 is also a Python float, and must come back as np.float64.
    if isinstance(obj, (Tensor, np.ndarray, np.generic)):
        arr = obj.data if isinstance(obj, Tensor) else np.asarray(obj)
        if arr.dtype.hasobject:
            raise TypeError(f"cannot save an array of dtype object at {_path_str(path)}")
        kind = "scalar" if isinstance(obj, np.generic) else "array"
        name = next((n for n, a in arrays.items() if a is arr), None) if kind == "array" else None
        if name is None:
            name = f"a{len(arrays)}"
            arrays[name] = arr
        return {kind: name, "dtype": arr.dtype.str, "shape": list(arr.shape)}
    if obj is None or isinstance(obj, (bool, str)):
        return obj
    if isinstance(obj, int):
        return int(obj)
    if isinstance(obj, float):
        if math.isfinite(obj):
            return float(obj)
        return {"float": "nan" if math.isnan(obj) else ("inf" if obj > 0 else "-inf")}
    if isinstance(obj, (dict, list, tuple)):
        if len(path) >= MAX_DEPTH:
            raise ValueError(f"cannot save a structure nested more than {MAX_DEPTH} containers "
                             f"deep (at {_path_str(path[:4])}... and {len(path) - 4} more keys)")
        if id(obj) in active:
            raise ValueError(f"cannot save a structure that contains itself (at {_path_str(path)})")
        active.add(id(obj))
        try:
            if isinstance(obj, dict):
                items = []
                for k, v in obj.items():
                    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (str, int, np.integer)):
                        raise TypeError(
                            f"cannot save dict key {k!r} of type {type(k).__name__} at "
                            f"{_path_str(path)} (keys must be str or int)"
                        )
                    key = k if isinstance(k, str) else int(k)
                    items.append([key, _encode(v, path + (k,), arrays, active)])
                return {"dict": items}
            nodes = [_encode(v, path + (i,), arrays, active) for i, v in enumerate(obj)]
            return {"list" if isinstance(obj, list) else "tuple": nodes}
        finally:
            active.discard(id(obj))
    raise TypeError(
        f"cannot save an object of type {type(obj).__name__} at {_path_str(path)} (supported: "
        "dict, list, tuple, Tensor, ndarray, NumPy scalar, int, float, bool, str, None)"
    )


def _write_npz(f: Any, arrays: dict[str, np.ndarray]) -> None:
    """Write ``arrays`` as an uncompressed .npz archive to the open binary file ``f``."""
    np.savez(f, **arrays)


def save(obj: Any, path: str | os.PathLike) -> None:
    """Write ``obj`` (see the module docstring) to ``path`` atomically, without pickle.

    Unsupported objects raise TypeError naming where they sit (e.g.
    ``obj['model']['w']``) before any file is touched.
    """
    arrays: dict[str, np.ndarray] = {}
    root = _encode(obj, (), arrays, set())
    header = {"format": FORMAT, "version": VERSION, "root": root}
    # ASCII-only JSON: any str survives, even one with a lone surrogate (not valid UTF-8).
    text = json.dumps(header, ensure_ascii=True, allow_nan=False)
    arrays[HEADER_KEY] = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)

    atomic_write(path, lambda f: _write_npz(f, arrays))


def atomic_write(path: str | os.PathLike, write: Callable[[Any], None]) -> None:
    """Call ``write(f)`` on a temporary binary file beside ``path``, fsync it, then
    ``os.replace`` it onto ``path``: a reader sees the old file or the whole new one.

    If anything fails (or the process dies) before the rename, the previous file
    at ``path`` is untouched and the temporary file is removed.
    """
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise FileNotFoundError(
            f"cannot save to {path!r}: the directory {directory!r} does not exist"
        )
    tmp = os.path.join(directory, f".{os.path.basename(path)}.{secrets.token_hex(6)}.tmp")
    # O_EXCL: never clobber another file; mode 0o666 so the umask applies as for open().
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_directory(directory)


def _fsync_directory(directory: str) -> None:
    # Make the rename itself durable (POSIX); not possible on every platform.
    try:
        dfd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


# ---- load -----------------------------------------------------------------------------------
# A damaged zip or .npy can fail in many ways while being parsed (BadZipFile,
# EOFError, zlib.error, struct.error, NotImplementedError for a "compression
# method", RuntimeError for an "encrypted" flag, ...): all mean "corrupt file".
_CORRUPT = Exception


def load(path: str | os.PathLike) -> Any:
    """Read a checkpoint written by :func:`save`; Tensors come back as ndarrays.

    Raises FileNotFoundError if there is no file, and :class:`CheckpointError`
    (a ValueError) naming the path and the fault if it is empty, truncated,
    corrupted, or not a minigrad checkpoint.
    """
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(f"no checkpoint file at {path!r}")
    with open(path, "rb") as f:
        magic = f.read(4)
    if not magic:
        raise CheckpointError(f"{path!r} is empty (0 bytes): not a minigrad checkpoint")
    if magic[:1] == _PICKLE_MAGIC:
        raise CheckpointError(f"{path!r} is a Python pickle (e.g. a legacy PyTorch .pt file), "
                              f"not a minigrad checkpoint: {_TORCH_HINT}")
    if magic != _ZIP_MAGIC:
        raise CheckpointError(f"{path!r} is not a minigrad checkpoint (not an .npz/zip archive)")
    try:
        with zipfile.ZipFile(path) as zf:
            _check_members(zf.infolist(), path)
            bad = zf.testzip()  # reads every entry and checks its CRC-32
            if bad is not None:
                raise CheckpointError(f"{path!r} is corrupt: entry {bad!r} fails its CRC check")
        with np.load(path, allow_pickle=False) as npz:
            names = set(npz.files)
            if HEADER_KEY not in names:
                raise CheckpointError(
                    f"{path!r} is an .npz archive but not a minigrad checkpoint (no "
                    f"{HEADER_KEY!r} entry)"
                )
            header = _read_header(npz[HEADER_KEY], path)
            refs: dict[str, tuple[str, list]] = {}
            _collect_refs(header["root"], refs, path)
            extra = names - set(refs) - {HEADER_KEY}
            if extra:
                raise CheckpointError(f"{path!r} has arrays its structure does not use: "
                                      f"{sorted(extra)[:5]}")
            arrays = {}
            for name, (dtype, shape) in refs.items():
                if name not in names:
                    raise CheckpointError(f"{path!r} is missing array {name!r} that it refers to")
                arr = npz[name]
                if arr.dtype.str != dtype or list(arr.shape) != shape:
                    raise CheckpointError(
                        f"{path!r}: array {name!r} is {arr.dtype.str} {list(arr.shape)} but the "
                        f"structure records {dtype} {shape}"
                    )
                arrays[name] = arr
    except CheckpointError:
        raise
    except _CORRUPT as e:
        if isinstance(e, (FileNotFoundError, PermissionError, IsADirectoryError)):
            raise
        raise CheckpointError(
            f"{path!r} is truncated or corrupt: {type(e).__name__}: {e}"
        ) from e
    try:
        return _decode(header["root"], arrays)
    except RecursionError:
        raise CheckpointError(f"{path!r}: the structure is nested too deeply to rebuild") from None


def _check_members(members: list[zipfile.ZipInfo], path: str) -> None:
    """Refuse, before any member is read: a PyTorch archive, compressed members (the only
    way a small file becomes a huge array), and duplicated member names."""
    names = [m.filename for m in members]
    if any(n == "data.pkl" or n.endswith("/data.pkl") for n in names):
        raise CheckpointError(f"{path!r} is a PyTorch file (torch.save), not a minigrad "
                              f"checkpoint: {_TORCH_HINT}")
    packed = [m.filename for m in members if m.compress_type != zipfile.ZIP_STORED]
    if packed:
        raise CheckpointError(
            f"{path!r} has compressed members ({packed[:3]}): minigrad checkpoints store "
            "arrays uncompressed, and a compressed member is not inflated (it could expand "
            "without limit)")
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise CheckpointError(f"{path!r} holds two members named {name!r}; refusing to "
                                  "guess which one is meant")
        seen.add(name)


def _read_header(raw: np.ndarray, path: str) -> dict[str, Any]:
    if raw.dtype != np.uint8 or raw.ndim != 1:
        raise CheckpointError(f"{path!r}: the {HEADER_KEY!r} entry is not UTF-8 bytes")
    try:
        header = json.loads(raw.tobytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        raise CheckpointError(f"{path!r}: the structure entry is not valid JSON: {e}") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise CheckpointError(f"{path!r} is not a minigrad checkpoint (format marker missing)")
    version = header.get("version")
    if type(version) is not int or version != VERSION:
        raise CheckpointError(
            f"{path!r} has checkpoint format version {version!r}; this minigrad "
            f"reads version {VERSION}"
        )
    if "root" not in header:
        raise CheckpointError(f"{path!r}: the structure entry has no 'root'")
    return header


def _bad_node(path: str, node: Any) -> CheckpointError:
    text = json.dumps(node)[:80]
    return CheckpointError(f"{path!r} is corrupt: unrecognised structure node {text}")


def _collect_refs(node: Any, refs: dict[str, tuple[str, list]], path: str) -> None:
    """Check every node's form; gather array name -> (dtype, shape). Iterative (no depth limit)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None or isinstance(n, (bool, int, float, str)):
            continue
        if not isinstance(n, dict) or len(n) not in (1, 3):
            raise _bad_node(path, n)
        if len(n) == 1:
            (tag, value), = n.items()
            if tag in ("list", "tuple") and isinstance(value, list):
                stack.extend(value)
            elif tag == "dict" and isinstance(value, list):
                for item in value:
                    if (not isinstance(item, list) or len(item) != 2
                            or isinstance(item[0], bool) or not isinstance(item[0], (str, int))):
                        raise _bad_node(path, item)
                    stack.append(item[1])
            elif tag == "float" and value in ("nan", "inf", "-inf"):
                pass
            else:
                raise _bad_node(path, n)
            continue
        tag = "array" if "array" in n else "scalar"
        name, dtype, shape = n.get(tag), n.get("dtype"), n.get("shape")
        ok = (isinstance(name, str) and isinstance(dtype, str) and isinstance(shape, list)
              and all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in shape)
              and (tag == "array" or shape == []))
        # a name may be referenced again (a shared array), never with another dtype/shape
        if not ok or refs.get(name, (dtype, shape)) != (dtype, shape) or name == HEADER_KEY:
            raise _bad_node(path, n)
        refs[name] = (dtype, shape)


def _decode(node: Any, arrays: dict[str, np.ndarray]) -> Any:
    """Rebuild the object from a node already checked by ``_collect_refs``."""
    if node is None or isinstance(node, (bool, int, float, str)):
        return node
    if "array" in node:
        return arrays[node["array"]]
    if "scalar" in node:
        return arrays[node["scalar"]][()]
    (tag, value), = node.items()
    if tag == "float":
        return float(value)
    if tag == "list":
        return [_decode(v, arrays) for v in value]
    if tag == "tuple":
        return tuple(_decode(v, arrays) for v in value)
    return {k: _decode(v, arrays) for k, v in value}


__all__ = ["CheckpointError", "load", "save"]

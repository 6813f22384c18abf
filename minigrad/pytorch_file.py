"""PyTorch's ``.pt`` files (``torch.save``) read in plain NumPy, without torch.

Since PyTorch 1.6 ``torch.save`` writes a zip archive (uncompressed) under one top folder::

    <top>/data.pkl      the saved object as a pickle; each tensor in it is
                        torch._utils._rebuild_tensor_v2(storage, offset, size, stride, ...)
                        and each storage a "persistent id" ("storage", torch.FloatStorage,
                        key, location, numel) instead of its bytes
    <top>/data/<key>    that storage's raw bytes
    <top>/byteorder     "little" or "big" (absent in old files: little)

so reading one is: unpickle ``data.pkl`` with a pickle reader that knows those few names,
fetch each storage's bytes from ``data/<key>`` as a NumPy buffer, and view it with the
tensor's offset, shape and strides (counted in elements). A nanoGPT ``ckpt.pt`` holds
dicts, lists, numbers, strings and tensors only.

Like ``torch.load(weights_only=True)``, nothing in the file can run code: the pickle may
name only the globals in :data:`_ALLOWED`, and anything else raises
:class:`PyTorchFileError` naming it. Every tensor's extent is checked against its storage.
Tensors come back as NumPy arrays of their dtype, except float16 and bfloat16 (which NumPy
lacks), which are widened to float32; parameters come back as plain arrays.
"""

from __future__ import annotations

import io
import math
import os
import pickle
import zipfile
from collections import OrderedDict
from typing import Any

import numpy as np

# torch's storage class names -> NumPy dtype ("bfloat16": 16 bits, read as uint16 and widened)
_STORAGES = {"FloatStorage": "f4", "DoubleStorage": "f8", "HalfStorage": "f2",
             "BFloat16Storage": "bfloat16", "LongStorage": "i8", "IntStorage": "i4",
             "ShortStorage": "i2", "CharStorage": "i1", "ByteStorage": "u1",
             "BoolStorage": "?"}


class PyTorchFileError(ValueError):
    """A ``.pt`` file this reader cannot or will not read (names the file and the reason)."""


class _Storage:
    """A storage's dtype as the pickle names it (torch.FloatStorage, ...), before its bytes."""

    def __init__(self, name: str) -> None:
        self.name = name


def _rebuild_tensor(storage: tuple[np.ndarray, str], offset: int, size: tuple,
                    stride: tuple, *_rest: Any) -> np.ndarray:
    """torch._utils._rebuild_tensor_v2: a (size) view at ``offset`` with ``stride``
    (elements) into the storage, copied into an array of its own."""
    flat, where = storage
    if not (isinstance(size, (tuple, list)) and isinstance(stride, (tuple, list))
            and all(type(n) is int for n in (*size, *stride)) and type(offset) is int):
        raise PyTorchFileError(f"{where}: a tensor's size {size!r}, stride {stride!r} and "
                               f"offset {offset!r} must be integers")
    size, stride = tuple(size), tuple(stride)
    if len(size) != len(stride) or any(n < 0 for n in size) or any(s < 0 for s in stride):
        raise PyTorchFileError(f"{where}: a tensor has size {size} and stride {stride}")
    if 0 in size:
        return np.zeros(size, dtype=flat.dtype)
    last = offset + sum((n - 1) * s for n, s in zip(size, stride))
    if offset < 0 or last >= flat.size:
        raise PyTorchFileError(f"{where}: a tensor of size {size}, stride {stride}, offset "
                               f"{offset} reaches past its storage of {flat.size} elements")
    view = np.lib.stride_tricks.as_strided(flat[offset:], size,
                                           [s * flat.itemsize for s in stride],
                                           writeable=False)
    if math.prod(size) > flat.size:
        # an expanded tensor (a stride 0, or rows that overlap) names more elements than
        # its storage holds: a copy could be any size a small file asks for, so the
        # reader returns the read-only view, as torch.load returns a view too
        return view
    return np.array(view)  # its own memory, C order


def _rebuild_parameter(data: np.ndarray, *_rest: Any) -> np.ndarray:
    """torch._utils._rebuild_parameter: a Parameter is its data here."""
    return data


# The only globals a file may name: what torch.save writes for dicts of tensors.
_ALLOWED = {("collections", "OrderedDict"): OrderedDict,
            ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor,
            ("torch._utils", "_rebuild_parameter"): _rebuild_parameter}


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: Any, archive: zipfile.ZipFile, top: str, byteorder: str,
                 where: str) -> None:
        super().__init__(file)
        self.archive, self.top, self.byteorder, self.where = archive, top, byteorder, where
        self.storages: dict[str, tuple[np.ndarray, str]] = {}  # tensors may share one

    def find_class(self, module: str, name: str) -> Any:
        if module == "torch" and name in _STORAGES:
            return _Storage(name)
        if (module, name) in _ALLOWED:
            return _ALLOWED[(module, name)]
        raise PyTorchFileError(f"{self.where}: refusing to load {module}.{name} (only "
                               f"tensors, dicts, lists, numbers and strings are read)")

    def persistent_load(self, pid: Any) -> tuple[np.ndarray, str]:
        """("storage", type, key, location, numel) -> (the storage's elements, file name)."""
        if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage"
                and isinstance(pid[1], _Storage)):
            raise PyTorchFileError(f"{self.where}: unknown persistent id {pid!r}")
        kind, key = _STORAGES[pid[1].name], str(pid[2])
        if key not in self.storages:
            self.storages[key] = self._read_storage(kind, key)
        return self.storages[key]

    def _read_storage(self, kind: str, key: str) -> tuple[np.ndarray, str]:
        raw = _read_member(self.archive, f"{self.top}/data/{key}", self.where)
        order = "<" if self.byteorder == "little" else ">"
        if kind == "bfloat16":  # the top 16 bits of a float32
            bits = np.frombuffer(raw, dtype=order + "u2").astype(np.uint32) << 16
            return bits.view(np.float32), self.where
        dtype = np.dtype(kind if kind in ("?", "i1", "u1") else order + kind)
        if len(raw) % dtype.itemsize:
            raise PyTorchFileError(f"{self.where}: storage {key!r} has {len(raw)} bytes, "
                                   f"not a whole number of {dtype} elements")
        flat = np.frombuffer(raw, dtype=dtype)
        return (flat.astype(np.float32) if kind == "f2" else flat), self.where


def _read_member(archive: zipfile.ZipFile, name: str, where: str) -> bytes:
    """The bytes of member ``name``, which must be stored as torch.save stores it:
    uncompressed, so that what is read is no more than what the file holds (a small
    compressed member could inflate to any size)."""
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise PyTorchFileError(f"{where}: member {name!r} is missing") from None
    if info.compress_type != zipfile.ZIP_STORED or info.file_size != info.compress_size:
        raise PyTorchFileError(
            f"{where}: member {name!r} is compressed ({info.compress_size} bytes that would "
            f"become {info.file_size}); torch.save stores members uncompressed, so this file "
            "was not written by torch.save"
        )
    return archive.read(info)


def load_pytorch_file(path: str | os.PathLike) -> Any:
    """The object ``torch.save`` wrote to ``path``, with every tensor a NumPy array.

    FileNotFoundError if there is no file; :class:`PyTorchFileError` for a file that is not
    a zip-format ``.pt`` (torch before 1.6, or ``_use_new_zipfile_serialization=False``),
    names a global outside the allowed few, or whose tensors do not fit their storages.
    """
    where = os.fspath(path)
    if not os.path.isfile(where):
        raise FileNotFoundError(f"no PyTorch file at {where!r}")
    if not zipfile.is_zipfile(where):
        raise PyTorchFileError(f"{where}: not a zip-format PyTorch file (written by torch "
                               f"before 1.6?); re-save it with a recent torch.save")
    with zipfile.ZipFile(where) as archive:
        pickles = [n for n in archive.namelist() if n.endswith("/data.pkl") and n.count("/") == 1]
        if len(pickles) != 1:
            raise PyTorchFileError(f"{where}: expected one <top>/data.pkl, found {pickles}")
        top = pickles[0].split("/")[0]
        names = set(archive.namelist())
        byteorder = (_read_member(archive, f"{top}/byteorder", where).decode(errors="replace")
                     .strip() if f"{top}/byteorder" in names else "little")
        if byteorder not in ("little", "big"):
            raise PyTorchFileError(f"{where}: unknown byte order {byteorder!r}")
        data = io.BytesIO(_read_member(archive, pickles[0], where))
        try:
            return _Unpickler(data, archive, top, byteorder, where).load()
        except PyTorchFileError:
            raise
        except (pickle.UnpicklingError, EOFError, TypeError, ValueError, AttributeError,
                IndexError, KeyError, UnicodeDecodeError, zipfile.BadZipFile) as e:
            # a malformed pickle: name the file and what broke, not a bare Python error
            raise PyTorchFileError(f"{where}: {pickles[0]} is malformed "
                                   f"({type(e).__name__}: {e})") from None

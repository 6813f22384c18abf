"""Collation, as ``torch.utils.data``: a list of samples -> one batch.

:func:`default_collate` stacks along a new first dimension, by the type of the first
sample, recursively:

- a Tensor -> ``minigrad.stack(batch)``; a NumPy array -> the same, after
  ``as_tensor`` (its dtype kept: float64 stays float64, int32 stays int32);
  arrays of strings or objects raise a TypeError;
- a NumPy scalar -> a 1-d tensor of its dtype (mixed dtypes promote as PyTorch's
  ``result_type``: int64 with float32 gives float32); a Python ``float`` -> float64 and an
  ``int`` -> int64 (``bool`` -> bool), as PyTorch's collate (which differs from
  ``minigrad.tensor([1.0])``, float32);
- ``str`` and ``bytes`` -> the batch as it is (a list; a tuple inside a sequence);
- a mapping -> the same mapping, each key's values collated; a namedtuple -> the same
  namedtuple of collated fields; a tuple -> a *list* of collated fields (PyTorch's
  choice); any other sequence -> its own type of collated fields (all samples must have
  the same length);
- anything else raises a TypeError naming its type.

:func:`collate` is the same walk with a ``collate_fn_map`` ``{type: fn}`` of your own
(``default_collate_fn_map`` holds the rules above for the leaves). :func:`default_convert`
is what a DataLoader with ``batch_size=None`` applies to each sample: NumPy arrays become
tensors (sharing memory), nothing is stacked.
"""

from __future__ import annotations

import collections.abc
import copy
import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ...dtypes import python_scalar, result_type
from ...ops.shape_ops import stack
from ...tensor import Tensor, as_tensor, tensor

# dtype kinds default_collate cannot put in a tensor: bytes, strings, objects
_STRING_OR_OBJECT = re.compile(r"[SaUO]")

default_collate_err_msg_format = ("default_collate: batch must contain tensors, numpy arrays, "
                                  "numbers, dicts or lists; found {}")


def _is_numpy_non_string(x: Any) -> bool:
    return type(x).__module__ == "numpy" and not isinstance(x, (str, bytes))


def default_convert(data: Any) -> Any:
    """One sample with its NumPy arrays and scalars as tensors (``as_tensor``: arrays share
    memory), walked through mappings, namedtuples and sequences; tuples become lists;
    anything else (numbers, strings, string arrays) is returned as it is."""
    if isinstance(data, Tensor):
        return data
    if _is_numpy_non_string(data):
        if isinstance(data, np.ndarray) and _STRING_OR_OBJECT.search(data.dtype.str):
            return data
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return _rebuild_mapping(data, {k: default_convert(data[k]) for k in data})
    if isinstance(data, tuple) and hasattr(data, "_fields"):  # namedtuple
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return _rebuild_sequence(data, [default_convert(d) for d in data])
    return data


def _rebuild_mapping(like: collections.abc.Mapping, values: dict) -> Any:
    """``values`` in a mapping of ``like``'s type (a copy of it when mutable, so extra
    attributes survive), or a plain dict when that type cannot be built from a dict."""
    try:
        if isinstance(like, collections.abc.MutableMapping):
            clone = copy.copy(like)
            clone.update(values)
            return clone
        return type(like)(values)
    except TypeError:
        return values


def _rebuild_sequence(like: collections.abc.Sequence, values: list) -> Any:
    """``values`` in a sequence of ``like``'s type, or a plain list when that fails."""
    try:
        if isinstance(like, collections.abc.MutableSequence):
            clone = copy.copy(like)
            for i, v in enumerate(values):
                clone[i] = v
            return clone
        return type(like)(values)
    except TypeError:
        return values


def collate(batch: Sequence, *, collate_fn_map: dict | None = None) -> Any:
    """Collate ``batch`` (a list of samples of one structure): a leaf whose type is a key
    of ``collate_fn_map`` (exactly, else the first key it is an instance of) goes to that
    function, called as ``fn(batch, collate_fn_map=...)``; mappings, namedtuples and
    sequences are walked field by field (see the module docstring)."""
    elem = batch[0]
    elem_type = type(elem)
    if collate_fn_map is not None:
        if elem_type in collate_fn_map:
            return collate_fn_map[elem_type](batch, collate_fn_map=collate_fn_map)
        for kind, fn in collate_fn_map.items():
            if isinstance(elem, kind):
                return fn(batch, collate_fn_map=collate_fn_map)
    if isinstance(elem, collections.abc.Mapping):
        return _rebuild_mapping(elem, {k: collate([d[k] for d in batch],
                                                  collate_fn_map=collate_fn_map)
                                       for k in elem})
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return elem_type(*(collate(s, collate_fn_map=collate_fn_map)
                           for s in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if any(len(e) != size for e in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        fields = [collate(s, collate_fn_map=collate_fn_map) for s in zip(*batch)]
        if isinstance(elem, tuple):
            return fields
        return _rebuild_sequence(elem, fields)
    raise TypeError(default_collate_err_msg_format.format(elem_type))


def collate_tensor_fn(batch: list, *, collate_fn_map: dict | None = None) -> Tensor:
    """Tensors of one shape -> one tensor with a new first dimension (``minigrad.stack``)."""
    return stack(batch, 0)


def collate_numpy_array_fn(batch: list, *, collate_fn_map: dict | None = None) -> Any:
    """NumPy arrays -> tensors of their dtype, then collated as tensors."""
    if _STRING_OR_OBJECT.search(batch[0].dtype.str):
        raise TypeError(default_collate_err_msg_format.format(batch[0].dtype))
    return collate([as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch: list, *, collate_fn_map: dict | None = None) -> Tensor:
    """NumPy scalars -> a 1-d tensor of the dtype PyTorch infers for the list: each
    element's own dtype (a Python number among them: float -> float32, int -> int64),
    promoted as ``torch.result_type`` (int64 with float32 -> float32, not NumPy's float64)."""
    dtypes = [np.asarray(x) if isinstance(x, np.generic) else python_scalar(x) for x in batch]
    return Tensor(np.array(batch, dtype=result_type(*dtypes)))


def collate_float_fn(batch: list, *, collate_fn_map: dict | None = None) -> Tensor:
    """Python floats -> a float64 tensor, as PyTorch's collate."""
    return tensor(batch, dtype=np.float64)


def collate_int_fn(batch: list, *, collate_fn_map: dict | None = None) -> Tensor:
    """Python ints -> int64 (bools -> bool; ints mixed with floats -> float32, as
    ``minigrad.tensor`` of the list)."""
    return tensor(batch)


def collate_str_fn(batch: Sequence, *, collate_fn_map: dict | None = None) -> Sequence:
    """Strings and bytes stay as they are (the batch's own list or tuple)."""
    return batch


default_collate_fn_map: dict[type | tuple[type, ...], Callable] = {
    Tensor: collate_tensor_fn,
    np.ndarray: collate_numpy_array_fn,
    (np.bool_, np.number, np.object_): collate_numpy_scalar_fn,
    float: collate_float_fn,
    int: collate_int_fn,
    str: collate_str_fn,
    bytes: collate_str_fn,
}


def default_collate(batch: list) -> Any:
    """A list of samples -> one batch, by PyTorch's rules (see the module docstring)."""
    return collate(batch, collate_fn_map=default_collate_fn_map)

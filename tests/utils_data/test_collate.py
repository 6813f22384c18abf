"""default_collate and default_convert, as torch.utils.data: one table of sample structures,
checked without torch against the expected container types, dtypes and values, and held to
PyTorch's own collate (same structure, same dtypes, same values) where torch is importable."""

from __future__ import annotations

from collections import OrderedDict, namedtuple

import numpy as np
import pytest

import minigrad as mg
from minigrad.utils.data import collate, default_collate, default_collate_fn_map, default_convert

Point = namedtuple("Point", "x y")


class Tagged(dict):
    """A dict subclass: collate keeps the type."""


def _samples(lib):
    """The table: name -> a batch (a list of samples), built with ``lib``'s tensors."""
    return {
        "tensors": [lib.tensor([1.0, 2.0]), lib.tensor([3.0, 4.0])],
        "int tensors": [lib.tensor([1, 2]), lib.tensor([3, 4])],
        "0-d tensors": [lib.tensor(1.5), lib.tensor(2.5)],
        "float64 arrays": [np.arange(3.0), np.ones(3)],
        "float32 arrays": [np.zeros((2, 2), np.float32), np.ones((2, 2), np.float32)],
        "int32 arrays": [np.arange(3, dtype=np.int32), np.arange(3, dtype=np.int32)],
        "uint8 arrays": [np.arange(4, dtype=np.uint8)] * 3,
        "bool arrays": [np.array([True, False]), np.array([False, False])],
        "0-d arrays": [np.array(1.0), np.array(2.0)],
        "numpy float64 scalars": [np.float64(1.0), np.float64(2.0)],
        "numpy int32 scalars": [np.int32(1), np.int32(2)],
        "numpy mixed float scalars": [np.float32(1.0), np.float64(2.0)],
        "numpy bool scalars": [np.bool_(True), np.bool_(False)],
        # mixed scalars promote as torch.result_type (a Python float counts as float32)
        "numpy int64 and float32 scalars": [np.int64(1), np.float32(2.5)],
        "numpy float32 scalar and a Python float": [np.float32(1.0), 2.5],
        "numpy int32 scalar and a Python int": [np.int32(1), 2],
        "numpy uint8 and int8 scalars": [np.uint8(1), np.int8(-2)],
        "numpy float32 scalar and a Python bool": [np.float32(1.5), True],
        "python floats": [1.0, 2.5],
        "python ints": [1, 2, 3],
        "python ints and floats": [1, 2.5],
        "python bools": [True, False],
        "strings": ["a", "bc"],
        "bytes": [b"a", b"bc"],
        "dicts": [{"x": np.arange(2.0), "y": 1}, {"x": np.arange(2.0) + 1, "y": 2}],
        "ordered dicts": [OrderedDict(b=1.0, a=2), OrderedDict(b=3.0, a=4)],
        "dict subclass": [Tagged(v=1), Tagged(v=2)],
        "namedtuples": [Point(1, np.float32(2)), Point(3, np.float32(4))],
        "tuples": [(np.arange(2), 1.0), (np.arange(2), 2.0)],
        "lists": [[1, "a"], [2, "b"]],
        "nested": [{"p": (np.zeros(2), [1, 2.0])}, {"p": (np.ones(2), [3, 4.0])}],
    }


# name -> the expected batch, as nested Python: ("T", dtype, values) for a tensor
T = "T"
EXPECTED = {
    "tensors": (T, "float32", [[1.0, 2.0], [3.0, 4.0]]),
    "int tensors": (T, "int64", [[1, 2], [3, 4]]),
    "0-d tensors": (T, "float32", [1.5, 2.5]),
    "float64 arrays": (T, "float64", [[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]]),
    "float32 arrays": (T, "float32", [[[0.0, 0.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 1.0]]]),
    "int32 arrays": (T, "int32", [[0, 1, 2], [0, 1, 2]]),
    "uint8 arrays": (T, "uint8", [[0, 1, 2, 3]] * 3),
    "bool arrays": (T, "bool", [[True, False], [False, False]]),
    "0-d arrays": (T, "float64", [1.0, 2.0]),
    "numpy float64 scalars": (T, "float64", [1.0, 2.0]),
    "numpy int32 scalars": (T, "int32", [1, 2]),
    "numpy mixed float scalars": (T, "float64", [1.0, 2.0]),
    "numpy bool scalars": (T, "bool", [True, False]),
    "numpy int64 and float32 scalars": (T, "float32", [1.0, 2.5]),
    "numpy float32 scalar and a Python float": (T, "float32", [1.0, 2.5]),
    "numpy int32 scalar and a Python int": (T, "int64", [1, 2]),
    "numpy uint8 and int8 scalars": (T, "int16", [1, -2]),
    "numpy float32 scalar and a Python bool": (T, "float32", [1.5, 1.0]),
    "python floats": (T, "float64", [1.0, 2.5]),
    "python ints": (T, "int64", [1, 2, 3]),
    "python ints and floats": (T, "float32", [1.0, 2.5]),
    "python bools": (T, "bool", [True, False]),
    "strings": ["a", "bc"],
    "bytes": [b"a", b"bc"],
    "dicts": {"x": (T, "float64", [[0.0, 1.0], [1.0, 2.0]]), "y": (T, "int64", [1, 2])},
    "ordered dicts": OrderedDict(b=(T, "float64", [1.0, 3.0]), a=(T, "int64", [2, 4])),
    "dict subclass": Tagged(v=(T, "int64", [1, 2])),
    "namedtuples": Point((T, "int64", [1, 3]), (T, "float32", [2.0, 4.0])),
    "tuples": [(T, "int64", [[0, 1], [0, 1]]), (T, "float64", [1.0, 2.0])],
    "lists": [(T, "int64", [1, 2]), ("a", "b")],  # strings inside stay the zip tuple
    "nested": {"p": [(T, "float64", [[0.0, 0.0], [1.0, 1.0]]),
                     [(T, "int64", [1, 3]), (T, "float64", [2.0, 4.0])]]},
}


def _dtype_name(t) -> str:
    return str(t.dtype).replace("torch.", "")


def _as_expected(batch, tensor_type):
    """A batch as nested Python in EXPECTED's form (container types kept)."""
    if isinstance(batch, tensor_type):
        return (T, _dtype_name(batch), batch.tolist())
    if isinstance(batch, tuple) and hasattr(batch, "_fields"):
        return type(batch)(*(_as_expected(b, tensor_type) for b in batch))
    if isinstance(batch, dict):
        out = type(batch)()
        out.update({k: _as_expected(v, tensor_type) for k, v in batch.items()})
        return out
    if isinstance(batch, list):
        return [_as_expected(b, tensor_type) for b in batch]
    return batch


def _same(a, b) -> None:
    assert type(a) is type(b), (a, b)
    assert a == b


@pytest.mark.parametrize("name", list(EXPECTED))
def test_default_collate_table(name):
    batch = default_collate(_samples(mg)[name])
    _same(_as_expected(batch, mg.Tensor), EXPECTED[name])


@pytest.mark.parametrize("name", list(EXPECTED))
def test_default_collate_equals_pytorch(name):
    torch = pytest.importorskip("torch")
    theirs = torch.utils.data.default_collate(_samples(torch)[name])
    ours = default_collate(_samples(mg)[name])
    _same(_as_expected(ours, mg.Tensor), _as_expected(theirs, torch.Tensor))


BAD = {
    "ragged lists": ([[1, 2], [3]], RuntimeError,
                     "each element in list of batch should be of equal size"),
    "string arrays": ([np.array(["a"]), np.array(["b"])], TypeError,
                      ("default_collate: batch must contain tensors, numpy arrays, numbers, "
                       "dicts or lists; found <U1")),
    "objects": ([object(), object()], TypeError, "found <class 'object'>"),
    "None": ([None, None], TypeError, "found <class 'NoneType'>"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_default_collate_errors(name):
    batch, kind, text = BAD[name]
    with pytest.raises(kind, match=text.replace("(", r"\(").replace(")", r"\)")):
        default_collate(batch)
    torch = pytest.importorskip("torch")
    with pytest.raises(kind, match=text.replace("(", r"\(").replace(")", r"\)")):
        torch.utils.data.default_collate(batch)


def test_default_collate_refuses_tensors_of_different_shapes():
    with pytest.raises(ValueError, match="same shape"):
        default_collate([mg.zeros(3), mg.zeros(2)])


def test_collate_with_a_map_of_ones_own():
    def one_per_batch(batch, *, collate_fn_map=None):
        return len(batch)

    fns = {**default_collate_fn_map, str: one_per_batch}
    assert collate([("a", 1.0), ("b", 2.0)], collate_fn_map=fns)[0] == 2
    with pytest.raises(TypeError, match="found <class 'int'>"):
        collate([1, 2])  # no map: a leaf has no rule


def test_default_convert_shares_arrays_and_walks_containers():
    arr = np.arange(3.0)
    t = default_convert(arr)
    assert isinstance(t, mg.Tensor) and t.dtype == np.float64
    arr[0] = 9.0
    assert t.tolist()[0] == 9.0  # as_tensor: shared memory
    out = default_convert({"a": (np.int32(1), "s"), "b": [np.zeros(1), 2.0],
                           "p": Point(np.ones(1), 1)})
    assert isinstance(out["a"], list) and out["a"][0].dtype == np.int32 and out["a"][1] == "s"
    assert isinstance(out["b"][0], mg.Tensor) and out["b"][1] == 2.0
    assert isinstance(out["p"], Point) and isinstance(out["p"].x, mg.Tensor)
    strings = np.array(["a"])
    assert default_convert(strings) is strings


def test_default_convert_matches_pytorch():
    torch = pytest.importorskip("torch")
    sample = {"a": (np.int32(1), "s"), "b": [np.zeros(2), 2.0], "p": Point(np.ones(1), 1)}
    _same(_as_expected(default_convert(sample), mg.Tensor),
          _as_expected(torch.utils.data.default_convert(sample), torch.Tensor))

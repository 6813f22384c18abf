"""The DataLoader in one process, as torch.utils.data.DataLoader: len(), batches, shuffling
with a generator, custom samplers, IterableDatasets, argument errors (PyTorch's messages)."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import minigrad as mg
from minigrad.utils.data import (
    BatchSampler,
    DataLoader,
    Dataset,
    IterableDataset,
    SequentialSampler,
    TensorDataset,
)


class Range(IterableDataset):
    def __init__(self, n, with_len=True):
        self.n = n
        self.with_len = with_len

    def __iter__(self):
        return iter(range(self.n))

    def __len__(self):
        if not self.with_len:
            raise TypeError("no len")
        return self.n


class Rows(Dataset):
    """Sample i: a dict of a float64 row, an int label and a string."""

    def __init__(self, n):
        self.x = np.arange(n * 3, dtype=np.float64).reshape(n, 3)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return {"x": self.x[i], "y": int(i), "name": f"s{i}"}


# (dataset kind, n, loader kwargs)
LENGTHS = [(kind, n, kw) for kind in ("map", "iterable") for n in (0, 1, 7, 8)
           for kw in ({}, {"batch_size": 3}, {"batch_size": 3, "drop_last": True},
                      {"batch_size": 8}, {"batch_size": None})]


def _dataset(lib_data, kind, n):
    if kind == "map":
        return list(range(n))
    cls = type("R", (lib_data.IterableDataset,), {"__iter__": lambda self: iter(range(n)),
                                                   "__len__": lambda self: n})
    return cls()


def _plain(batch):
    return batch.tolist() if hasattr(batch, "tolist") else batch  # batch_size=None: as is


@pytest.mark.parametrize("kind, n, kw", LENGTHS)
def test_len_and_batch_count(kind, n, kw):
    import minigrad.utils.data as ours

    loader = DataLoader(_dataset(ours, kind, n), **kw)
    batches = list(loader)
    assert len(loader) == len(batches)


@pytest.mark.parametrize("kind, n, kw", LENGTHS)
def test_len_and_batches_equal_pytorch(kind, n, kw):
    import minigrad.utils.data as ours

    torch = pytest.importorskip("torch")
    theirs = torch.utils.data.DataLoader(_dataset(torch.utils.data, kind, n), **kw)
    mine = DataLoader(_dataset(ours, kind, n), **kw)
    assert len(mine) == len(theirs)
    assert [_plain(b) for b in mine] == [_plain(b) for b in theirs]


def test_batches_of_a_dict_dataset_keep_dtypes_and_equal_pytorch():
    loader = DataLoader(Rows(5), batch_size=2)
    batches = list(loader)
    assert [b["y"].tolist() for b in batches] == [[0, 1], [2, 3], [4]]
    assert batches[0]["x"].dtype == np.float64 and batches[0]["y"].dtype == np.int64
    assert batches[2]["name"] == ["s4"]
    torch = pytest.importorskip("torch")
    theirs = list(torch.utils.data.DataLoader(Rows(5), batch_size=2))
    for a, b in zip(batches, theirs):
        assert a["x"].tolist() == b["x"].tolist() and str(b["x"].dtype) == "torch.float64"
        assert a["y"].tolist() == b["y"].tolist() and a["name"] == b["name"]


def test_tensor_dataset_batches():
    x = mg.from_numpy(np.arange(10.0).reshape(5, 2))
    y = mg.tensor([0, 1, 0, 1, 1])
    (xb, yb), = list(DataLoader(TensorDataset(x, y), batch_size=5))
    assert xb.dtype == np.float64 and xb.shape == (5, 2) and yb.tolist() == [0, 1, 0, 1, 1]


@pytest.mark.parametrize("make", [lambda: mg.Generator().manual_seed(11),
                                  lambda: np.random.default_rng(11)],
                         ids=["minigrad.Generator", "numpy.Generator"])
def test_shuffle_with_a_generator_is_reproducible_and_a_permutation(make):
    def epochs(g, n=2):
        loader = DataLoader(list(range(23)), batch_size=4, shuffle=True, generator=g)
        return [[b.tolist() for b in loader] for _ in range(n)]

    first = epochs(make())
    assert first == epochs(make())
    for epoch in first:
        assert sorted(k for b in epoch for k in b) == list(range(23))
        assert [len(b) for b in epoch] == [4] * 5 + [3]
    assert first[0] != first[1]  # a new order every epoch


def test_shuffle_without_a_generator_follows_manual_seed():
    def order():
        return [b.tolist() for b in DataLoader(list(range(30)), batch_size=7, shuffle=True)]

    mg.manual_seed(1)
    a = order()
    mg.manual_seed(1)
    assert order() == a
    assert a != [b.tolist() for b in DataLoader(list(range(30)), batch_size=7)]


def test_custom_sampler_and_batch_sampler():
    data = [10 * i for i in range(6)]
    assert [b.tolist() for b in DataLoader(data, batch_size=2, sampler=[5, 0, 3])] == \
        [[50, 0], [30]]
    bs = BatchSampler(SequentialSampler(range(6)), 4, False)
    assert [b.tolist() for b in DataLoader(data, batch_sampler=bs)] == \
        [[0, 10, 20, 30], [40, 50]]
    assert len(DataLoader(data, batch_sampler=[[1], [2, 3]])) == 2


def test_batch_size_none_converts_each_sample():
    out = list(DataLoader([np.arange(2), 3.0], batch_size=None))
    assert isinstance(out[0], mg.Tensor) and out[0].tolist() == [0, 1] and out[1] == 3.0


def test_collate_fn_is_used():
    assert list(DataLoader(range(5), batch_size=2, collate_fn=sum)) == [1, 5, 4]


def test_iterable_dataset_without_len_and_the_too_long_warning():
    assert [b.tolist() for b in DataLoader(Range(5, with_len=False), batch_size=2)] == \
        [[0, 1], [2, 3], [4]]

    class Liar(Range):
        def __len__(self):
            return 2

    loader = DataLoader(Liar(5), batch_size=1)
    assert len(loader) == 2
    with pytest.warns(UserWarning, match="was reported to be 2"):
        list(loader)


ARG_ERRORS = [
    {"num_workers": -1},
    {"timeout": -1},
    {"prefetch_factor": 2},
    {"num_workers": 1, "prefetch_factor": -1},
    {"persistent_workers": True},
    {"sampler": [0, 1], "shuffle": True},
    {"batch_sampler": [[0]], "batch_size": 2},
    {"batch_sampler": [[0]], "drop_last": True},
    {"batch_sampler": [[0]], "shuffle": True},
    {"batch_size": None, "drop_last": True},
    {"multiprocessing_context": "fork"},
    {"num_workers": 1, "multiprocessing_context": "nope"},
    {"num_workers": 1, "multiprocessing_context": 3},
]


@pytest.mark.parametrize("kw", ARG_ERRORS, ids=[str(k) for k in ARG_ERRORS])
def test_argument_errors_are_pytorchs(kw):
    with pytest.raises((ValueError, TypeError)) as mine:
        DataLoader(list(range(4)), **kw)
    torch = pytest.importorskip("torch")
    with pytest.raises((ValueError, TypeError)) as theirs:
        torch.utils.data.DataLoader(list(range(4)), **kw)
    assert type(mine.value) is type(theirs.value)
    assert str(mine.value) == str(theirs.value).replace("torch.multiprocessing", "multiprocessing")


@pytest.mark.parametrize("kw", [{"shuffle": True}, {"sampler": [0]}, {"batch_sampler": [[0]]}])
def test_iterable_dataset_refuses_samplers_and_shuffle(kw):
    with pytest.raises(ValueError, match="DataLoader with IterableDataset: expected unspecified"):
        DataLoader(Range(3), **kw)


def test_attributes_are_fixed_after_init():
    loader = DataLoader(list(range(4)), batch_size=2)
    for attr in ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset",
                 "persistent_workers"):
        with pytest.raises(ValueError, match=f"{attr} attribute should not be set after "
                                             "DataLoader is initialized"):
            setattr(loader, attr, None)
    loader.collate_fn = sum  # not fixed, as in PyTorch
    assert list(loader) == [1, 5]


def test_pin_memory_warns_as_pytorch_on_a_machine_without_accelerator():
    with pytest.warns(UserWarning, match="no accelerator is found"):
        DataLoader([1], pin_memory=True)


class Faulty(Dataset):
    def __len__(self):
        return 10

    def __getitem__(self, i):
        if i == 7:
            raise KeyError(f"no sample {i}")
        return i


def test_an_error_keeps_its_type_and_names_the_sample():
    with pytest.raises(KeyError) as info:
        list(DataLoader(Faulty(), batch_size=3))
    if sys.version_info >= (3, 11):
        assert "while loading sample 7 of the batch [6, 7, 8]" in "".join(info.value.__notes__)


def test_an_error_in_collate_names_the_batch():
    def bad(batch):
        raise ValueError("nope")

    with pytest.raises(ValueError, match="nope") as info:
        list(DataLoader(range(4), batch_size=2, collate_fn=bad))
    if sys.version_info >= (3, 11):
        assert "while collating the samples [0, 1]" in "".join(info.value.__notes__)

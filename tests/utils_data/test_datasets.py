"""Datasets and random_split, as torch.utils.data: behaviour without torch, and the same
lengths, keys and errors as PyTorch where torch is importable."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad.utils.data import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    StackDataset,
    Subset,
    TensorDataset,
    random_split,
)


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if not 0 <= i < self.n:
            raise IndexError(i)
        return i * i


class Stream(IterableDataset):
    def __init__(self, items):
        self.items = list(items)

    def __iter__(self):
        return iter(self.items)

    def __len__(self):
        return len(self.items)


def test_dataset_base_raises_and_adds():
    with pytest.raises(NotImplementedError, match="should implement __getitem__"):
        Dataset()[0]
    both = Squares(3) + Squares(2)
    assert isinstance(both, ConcatDataset) and [both[i] for i in range(5)] == [0, 1, 4, 0, 1]
    chained = Stream([1, 2]) + Stream([3])
    assert isinstance(chained, ChainDataset) and list(chained) == [1, 2, 3]


def test_tensor_dataset_rows_keep_dtype_and_check_sizes():
    x = mg.from_numpy(np.arange(12.0).reshape(6, 2))  # float64 stays float64
    y = mg.tensor(np.arange(6, dtype=np.int32))
    ds = TensorDataset(x, y)
    assert len(ds) == 6
    row, label = ds[4]
    assert row.dtype == np.float64 and row.tolist() == [8.0, 9.0]
    assert label.dtype == np.int32 and label.item() == 4
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(x, mg.zeros(5))


@pytest.mark.parametrize("idx, expected", [(0, 0), (2, 4), (3, 100), (4, 101), (-1, 102),
                                           (-6, 0)])
def test_concat_dataset_keys(idx, expected):
    ds = ConcatDataset([Squares(3), [100, 101, 102]])
    assert ds.cumulative_sizes == [3, 6] and len(ds) == 6
    assert ds[idx] == expected


def test_concat_dataset_errors():
    ds = ConcatDataset([Squares(3), [100, 101, 102]])
    with pytest.raises(ValueError, match="absolute value of index should not exceed"):
        ds[-7]
    with pytest.raises(IndexError):
        ds[6]
    with pytest.raises(AssertionError, match="should not be an empty iterable"):
        ConcatDataset([])
    with pytest.raises(AssertionError, match="does not support IterableDataset"):
        ConcatDataset([Stream([1])])


def test_chain_dataset_len_and_refusal():
    ds = ChainDataset([Stream("ab"), Stream("cde")])
    assert list(ds) == list("abcde") and len(ds) == 5
    with pytest.raises(AssertionError, match="only supports IterableDataset"):
        list(ChainDataset([Squares(2)]))


def test_subset_getitem_getitems_and_list_keys():
    calls = []

    class Batched(Squares):
        def __getitems__(self, keys):
            calls.append(list(keys))
            return [self[k] for k in keys]

    sub = Subset(Batched(10), [9, 3, 5])
    assert len(sub) == 3 and sub[0] == 81 and sub[-1] == 25
    assert sub.__getitems__([2, 0]) == [25, 81] and calls == [[5, 9]]
    sub_of_array = Subset(np.arange(10) * 10, [1, 4])
    assert sub_of_array[[0, 1]].tolist() == [10, 40]  # a list key goes through as one


def test_subset_subclass_must_override_getitems_with_getitem():
    class Only(Subset):
        def __getitem__(self, i):
            return 0

    with pytest.raises(NotImplementedError, match="overrides __getitem__ but not __getitems__"):
        Only(Squares(3), [0])


def test_stack_dataset_tuple_dict_and_errors():
    assert StackDataset(Squares(3), [7, 8, 9])[1] == (1, 8)
    assert StackDataset(a=Squares(3), b="xyz")[2] == {"a": 4, "b": "z"}
    with pytest.raises(ValueError, match="Size mismatch between datasets"):
        StackDataset(Squares(3), [1])
    with pytest.raises(ValueError, match="At least one dataset"):
        StackDataset()
    with pytest.raises(ValueError, match="but both types are given"):
        StackDataset(Squares(1), b=[1])


# n, lengths -> PyTorch's split sizes (floor of each fraction, the remainder handed out one
# by one from the first split)
SPLITS = [
    (10, [3, 7], [3, 7]),
    (10, [0.5, 0.5], [5, 5]),
    (11, [0.5, 0.3, 0.2], [6, 3, 2]),
    (10, [0.5, 0.3, 0.2], [5, 3, 2]),
    (7, [1 / 3, 1 / 3, 1 / 3], [3, 2, 2]),
    (5, [0.1, 0.1, 0.8], [1, 0, 4]),
    (3, [0.25, 0.25, 0.25, 0.25], [1, 1, 1, 0]),
    (0, [0.5, 0.5], [0, 0]),
    (4, [1.0], [4]),
]


@pytest.mark.parametrize("n, lengths, sizes", SPLITS)
def test_random_split_sizes_cover_every_key_once(n, lengths, sizes):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zero-length splits warn
        parts = random_split(range(n), lengths, generator=mg.Generator().manual_seed(1))
    assert [len(p) for p in parts] == sizes
    keys = [k for p in parts for k in p.indices]
    assert sorted(keys) == list(range(n))


@pytest.mark.parametrize("n, lengths, sizes", SPLITS)
def test_random_split_sizes_match_pytorch(n, lengths, sizes):
    torch = pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = torch.utils.data.random_split(range(n), lengths)
    assert [len(p) for p in theirs] == sizes


def test_random_split_warns_on_an_empty_split_and_refuses_wrong_sums():
    with pytest.warns(UserWarning, match="Length of split at index 1 is 0"):
        random_split(range(5), [0.1, 0.1, 0.8])
    with pytest.raises(ValueError, match="Sum of input lengths does not equal"):
        random_split(range(10), [3, 3])
    with pytest.raises(ValueError, match="Fraction at index 2 is not between 0 and 1"):
        random_split(range(10), [0.5, 0.7, -0.2])
    with pytest.raises(ValueError, match="non-negative"):
        random_split(range(10), [-1, 11])


@pytest.mark.parametrize("make", [lambda s: mg.Generator().manual_seed(s),
                                  lambda s: np.random.default_rng(s)],
                         ids=["minigrad.Generator", "numpy.Generator"])
def test_random_split_is_reproducible_with_a_generator(make):
    def split(seed):
        return [p.indices for p in random_split(range(20), [0.6, 0.4], generator=make(seed))]
    assert split(3) == split(3)
    assert split(3) != split(4)


def test_random_split_default_follows_manual_seed():
    mg.manual_seed(5)
    a = [p.indices for p in random_split(range(20), [10, 10])]
    mg.manual_seed(5)
    assert a == [p.indices for p in random_split(range(20), [10, 10])]

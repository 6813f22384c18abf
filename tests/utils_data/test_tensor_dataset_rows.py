"""A TensorDataset's batch in one indexing per tensor equals the sample-by-sample collate."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad
from minigrad.utils.data import DataLoader, TensorDataset, default_collate
from minigrad.utils.data.fetch import MapFetcher

rng = np.random.default_rng(0)

CONTENTS = {
    "tensors": lambda: (minigrad.tensor(rng.standard_normal((10, 3)).astype(np.float32)),
                        minigrad.tensor(rng.integers(0, 5, 10))),
    "arrays": lambda: (rng.standard_normal((10, 2, 2)), rng.integers(0, 5, 10).astype(np.int32),
                       rng.random(10) > 0.5),
    "mixed, 0-d rows": lambda: (minigrad.tensor(np.arange(10.0)), np.arange(10, dtype=np.uint8)),
    "requires grad": lambda: (minigrad.tensor(rng.standard_normal((10, 2)), requires_grad=True),),
}


def _slow(dataset, keys):
    return default_collate([dataset[k] for k in keys])


@pytest.mark.parametrize("name", sorted(CONTENTS))
@pytest.mark.parametrize("keys", [[0, 1, 2], [9, 3, 3, 0], [5], [-1, 2]])
def test_rows_equal_the_collated_samples(name: str, keys: list) -> None:
    dataset = TensorDataset(*CONTENTS[name]())
    fast = MapFetcher(dataset, True, default_collate, False).fetch(keys)
    slow = _slow(dataset, keys)
    assert type(fast) is type(slow) and len(fast) == len(slow)
    for f, s in zip(fast, slow):
        assert type(f) is type(s) and f.dtype == s.dtype and f.shape == s.shape
        assert np.array_equal(f.data, s.data)
        assert f.requires_grad == s.requires_grad
    if name == "requires grad":  # the gradient reaches the dataset's tensor, as stack's does
        fast[0].sum().backward()
        assert dataset.tensors[0].grad is not None


def test_a_bad_key_is_named_by_the_sample_by_sample_path() -> None:
    dataset = TensorDataset(minigrad.tensor(np.arange(4.0)))
    loader = DataLoader(dataset, batch_size=2, sampler=[0, 7])
    with pytest.raises(IndexError, match="7"):
        next(iter(loader))


def test_strings_and_other_collates_take_the_sample_by_sample_path() -> None:
    dataset = TensorDataset(np.array(["a", "b", "c"]))
    assert dataset.rows([0, 1]) is None
    assert next(iter(DataLoader(dataset, batch_size=2))) == _slow(dataset, [0, 1])
    tensors = TensorDataset(minigrad.tensor(np.arange(4.0)))
    fetcher = MapFetcher(tensors, True, lambda batch: batch, False)
    assert fetcher.rows is None and len(fetcher.fetch([0, 1])) == 2

"""Samplers, as torch.utils.data. The deterministic ones (sequential, batch) must give
PyTorch's keys exactly; the random ones cannot share PyTorch's random engine, so they are
held to its invariants: a permutation per pass, the counts, coverage, the lengths, and
reproducibility under a seed."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import minigrad as mg
from minigrad.utils.data import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)


def test_base_sampler_iter_is_abstract():
    with pytest.raises(NotImplementedError):
        iter(Sampler())


@pytest.mark.parametrize("n", [0, 1, 7])
def test_sequential_sampler(n):
    s = SequentialSampler(range(n))
    assert list(s) == list(range(n)) and len(s) == n


# n, batch_size, drop_last
BATCHES = [(10, 3, False), (10, 3, True), (9, 3, False), (9, 3, True), (2, 5, False),
           (2, 5, True), (0, 2, False), (1, 1, True)]


@pytest.mark.parametrize("n, bs, drop", BATCHES)
def test_batch_sampler_keys_and_len(n, bs, drop):
    batches = list(BatchSampler(SequentialSampler(range(n)), bs, drop))
    flat = [k for b in batches for k in b]
    assert all(len(b) == bs for b in batches[:-1])
    if drop:
        assert flat == list(range(n // bs * bs)) and all(len(b) == bs for b in batches)
    else:
        assert flat == list(range(n))
    assert len(BatchSampler(SequentialSampler(range(n)), bs, drop)) == len(batches)


@pytest.mark.parametrize("n, bs, drop", BATCHES)
def test_batch_sampler_equals_pytorch(n, bs, drop):
    tud = pytest.importorskip("torch.utils.data")
    theirs = tud.BatchSampler(tud.SequentialSampler(range(n)), bs, drop)
    ours = BatchSampler(SequentialSampler(range(n)), bs, drop)
    assert list(ours) == list(theirs) and len(ours) == len(theirs)


def test_batch_sampler_takes_any_iterable():
    assert list(BatchSampler(iter("abcde"), 2, False)) == [["a", "b"], ["c", "d"], ["e"]]


BAD_ARGS = [
    (lambda m: m.BatchSampler(range(3), 0, False), ValueError),
    (lambda m: m.BatchSampler(range(3), True, False), ValueError),
    (lambda m: m.BatchSampler(range(3), 2.0, False), ValueError),
    (lambda m: m.BatchSampler(range(3), 2, 1), ValueError),
    (lambda m: m.RandomSampler(range(3), replacement=1), TypeError),
    (lambda m: m.RandomSampler(range(3), num_samples=0), ValueError),
    (lambda m: m.RandomSampler(range(0)), ValueError),
    (lambda m: m.RandomSampler(range(3), num_samples=2.5), ValueError),
    (lambda m: m.WeightedRandomSampler([1.0, 2.0], 0), ValueError),
    (lambda m: m.WeightedRandomSampler([1.0, 2.0], True), ValueError),
    (lambda m: m.WeightedRandomSampler([1.0, 2.0], 2, replacement=None), ValueError),
    (lambda m: m.WeightedRandomSampler([[1.0, 2.0]], 2), ValueError),
]


@pytest.mark.parametrize("make, kind", BAD_ARGS)
def test_bad_arguments_raise_pytorchs_error(make, kind):
    import minigrad.utils.data as ours

    with pytest.raises(kind) as mine:
        make(ours)
    torch = pytest.importorskip("torch")
    with pytest.raises(kind) as theirs:
        make(torch.utils.data)
    assert str(mine.value) == str(theirs.value)


def _perm_invariants(keys, n):
    assert sorted(keys) == list(range(n))


@pytest.mark.parametrize("n", [1, 5, 32])
def test_random_sampler_is_a_permutation_each_pass(n):
    s = RandomSampler(range(n), generator=mg.Generator().manual_seed(0))
    first, second = list(s), list(s)
    _perm_invariants(first, n)
    _perm_invariants(second, n)
    assert len(s) == n
    if n >= 5:
        assert first != second  # a fresh permutation every pass


@pytest.mark.parametrize("n, num_samples", [(5, 12), (5, 3), (4, 4)])
def test_random_sampler_without_replacement_num_samples(n, num_samples):
    keys = list(RandomSampler(range(n), num_samples=num_samples,
                              generator=np.random.default_rng(0)))
    assert len(keys) == num_samples
    for start in range(0, num_samples - num_samples % n, n):  # whole permutations
        _perm_invariants(keys[start:start + n], n)
    tail = keys[num_samples - num_samples % n:]
    assert len(set(tail)) == len(tail)  # a partial permutation: no repeats


def test_random_sampler_with_replacement():
    keys = list(RandomSampler(range(3), replacement=True, num_samples=300,
                              generator=mg.Generator().manual_seed(0)))
    assert len(keys) == 300 and set(keys) == {0, 1, 2}
    assert min(Counter(keys).values()) > 60  # uniform: ~100 each


@pytest.mark.parametrize("kwargs", [{}, {"replacement": True, "num_samples": 40},
                                    {"num_samples": 13}])
def test_random_sampler_len_and_count_match_pytorch(kwargs):
    tud = pytest.importorskip("torch.utils.data")
    theirs = list(tud.RandomSampler(range(6), **kwargs))
    ours = list(RandomSampler(range(6), **kwargs))
    assert len(ours) == len(theirs) == len(RandomSampler(range(6), **kwargs))
    if not kwargs.get("replacement"):
        # whole permutations, then a partial one: the same multiset of counts
        assert sorted(Counter(ours).values()) == sorted(Counter(theirs).values())


def test_random_sampler_default_generator_follows_manual_seed_and_draws_one_seed():
    mg.manual_seed(7)
    a = list(RandomSampler(range(50)))
    mg.manual_seed(7)
    assert list(RandomSampler(range(50))) == a
    # one pass draws a single seed from the global stream, whatever the dataset's size
    after = []
    for n in (5, 500):
        mg.manual_seed(7)
        list(RandomSampler(range(n)))
        after.append(mg.rand(1).item())
    assert after[0] == after[1]


@pytest.mark.parametrize("make", [lambda: mg.Generator().manual_seed(3),
                                  lambda: np.random.default_rng(3)])
def test_random_samplers_reproducible_with_a_generator(make):
    for build in (lambda g: RandomSampler(range(20), generator=g),
                  lambda g: SubsetRandomSampler([4, 8, 15, 16, 23, 42], generator=g),
                  lambda g: WeightedRandomSampler([1, 2, 3, 4], 10, generator=g)):
        assert list(build(make())) == list(build(make()))


def test_subset_random_sampler():
    idx = [4, 8, 15, 16, 23, 42]
    s = SubsetRandomSampler(idx, generator=mg.Generator())
    assert sorted(s) == idx and len(s) == 6


def test_weighted_random_sampler_with_and_without_replacement():
    s = WeightedRandomSampler([0.0, 1.0, 3.0], 4000, generator=mg.Generator().manual_seed(0))
    counts = Counter(s)
    assert len(s) == 4000 and 0 not in counts
    assert 2.6 < counts[2] / counts[1] < 3.4
    keys = list(WeightedRandomSampler([0.9, 0.4, 0.05, 0.2, 0.3, 0.1], 6, replacement=False,
                                      generator=mg.Generator()))
    assert sorted(keys) == list(range(6))
    with pytest.raises(ValueError, match="without replacement"):
        list(WeightedRandomSampler([0.0, 1.0], 2, replacement=False))


def test_generator_must_be_a_generator():
    with pytest.raises(TypeError, match="generator must be"):
        list(RandomSampler(range(3), generator=3))

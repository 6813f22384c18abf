"""Datasets, as ``torch.utils.data``: what a DataLoader reads samples from.

Two kinds. A map-style :class:`Dataset` answers ``dataset[i]`` for keys (usually
0..len-1) and says its ``len``; a sampler chooses the keys. An :class:`IterableDataset`
is a stream: ``iter(dataset)`` yields the samples in its own order, and each worker
process of a DataLoader iterates its own copy (shard it with ``get_worker_info()``).

The wrappers compose them: :class:`TensorDataset` (rows of tensors), :class:`Subset`
(a dataset seen through a list of keys), :class:`ConcatDataset` (one after another,
``a + b``), :class:`ChainDataset` (streams one after another), :class:`StackDataset`
(several datasets read at the same key), and :func:`random_split`.
"""

from __future__ import annotations

import bisect
import itertools
import math
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from ...constructors import as_tensor, randperm


class Dataset:
    """A map from keys to samples: subclasses define ``__getitem__`` (and usually
    ``__len__``, which samplers and ``len(loader)`` need). A subclass may also define
    ``__getitems__(indices) -> list of samples`` to load a whole batch at once; the
    DataLoader then calls it instead of ``__getitem__`` once per key."""

    def __getitem__(self, index: Any) -> Any:
        raise NotImplementedError("Subclasses of Dataset should implement __getitem__.")

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """A stream of samples: subclasses define ``__iter__``. With ``num_workers > 0`` every
    worker iterates its own copy, so each copy should yield its share only (read
    ``get_worker_info().id`` and ``.num_workers`` in ``__iter__`` or in ``worker_init_fn``),
    or every sample arrives ``num_workers`` times."""

    def __iter__(self) -> Iterator:
        raise NotImplementedError("Subclasses of IterableDataset should implement __iter__.")

    def __add__(self, other: Dataset) -> ChainDataset:
        return ChainDataset([self, other])


class TensorDataset(Dataset):
    """Rows of tensors: sample ``i`` is ``tuple(t[i] for t in tensors)``; every tensor
    (minigrad Tensors or NumPy arrays) has the same first dimension N, the dataset's length."""

    def __init__(self, *tensors: Any) -> None:
        if not tensors:
            raise ValueError("TensorDataset needs at least one tensor")
        if any(len(tensors[0]) != len(t) for t in tensors):
            raise AssertionError("Size mismatch between tensors")
        self.tensors = tensors

    def __getitem__(self, index: Any) -> tuple:
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return len(self.tensors[0])

    def rows(self, keys: Any) -> list | None:
        """``default_collate([self[k] for k in keys])`` (a list, one batched tensor per
        tensor of the dataset) taken with one indexing per tensor instead of one per sample:
        what the DataLoader's fetcher uses with the default collate. None when the keys are
        not integers or a tensor is not numeric: then only the sample by sample path says
        exactly what is wrong."""
        index = np.asarray(keys)
        if index.ndim != 1 or index.dtype.kind not in "iu":
            return None
        out = []
        for t in self.tensors:
            if hasattr(t, "_ctx"):  # a minigrad Tensor: its rows, in the graph as stack's are
                out.append(t[index])
                continue
            a = np.asarray(t)
            if a.dtype.kind not in "biufc":
                return None
            out.append(as_tensor(a[index]))  # default_collate's rule for arrays: as tensors
        return out


class StackDataset(Dataset):
    """Several datasets of one length read at the same key: positional datasets give a
    tuple per sample, keyword datasets a dict (``StackDataset(image=a, label=b)[i]`` is
    ``{"image": a[i], "label": b[i]}``)."""

    def __init__(self, *args: Dataset, **kwargs: Dataset) -> None:
        if args and kwargs:
            raise ValueError("Supported either ``tuple``- (via ``args``) or"
                             "``dict``- (via ``kwargs``) like input/output, but both types "
                             "are given.")
        parts = list(args) or list(kwargs.values())
        if not parts:
            raise ValueError("At least one dataset should be passed")
        self._length = len(parts[0])
        if any(self._length != len(d) for d in parts):
            raise ValueError("Size mismatch between datasets")
        self.datasets: tuple | dict = args if args else kwargs

    def __getitem__(self, index: Any) -> tuple | dict:
        if isinstance(self.datasets, dict):
            return {k: d[index] for k, d in self.datasets.items()}
        return tuple(d[index] for d in self.datasets)

    def __len__(self) -> int:
        return self._length


class ConcatDataset(Dataset):
    """Datasets one after another: key ``i`` falls in the first dataset whose
    ``cumulative_sizes`` entry exceeds it (a binary search), at ``i`` minus the sizes
    before it. Negative keys count from the end, as for a list."""

    @staticmethod
    def cumsum(sequence: Iterable) -> list[int]:
        """The running total of the datasets' lengths."""
        return list(itertools.accumulate(len(d) for d in sequence))

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError("datasets should not be an empty iterable")
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise AssertionError("ConcatDataset does not support IterableDataset")  # noqa: TRY004  (PyTorch's type)
        self.cumulative_sizes = self.cumsum(self.datasets)

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx: int) -> Any:
        if idx < 0:
            if -idx > len(self):
                raise ValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        if which == len(self.datasets):
            raise IndexError(f"index {idx} is out of range for a ConcatDataset of length "
                             f"{len(self)}")
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][idx - start]


class ChainDataset(IterableDataset):
    """Streams one after another: iterating yields every sample of the first
    IterableDataset, then of the second, ... (computed as it goes, nothing is stored)."""

    def __init__(self, datasets: Iterable[Dataset]) -> None:
        self.datasets = datasets

    def _checked(self) -> Iterator[IterableDataset]:
        for d in self.datasets:
            if not isinstance(d, IterableDataset):
                raise AssertionError("ChainDataset only supports IterableDataset")  # noqa: TRY004  (PyTorch's type)
            yield d

    def __iter__(self) -> Iterator:
        for d in self._checked():
            yield from d

    def __len__(self) -> int:
        return sum(len(d) for d in self._checked())


class Subset(Dataset):
    """``dataset`` seen through ``indices``: ``Subset(d, idx)[i]`` is ``d[idx[i]]``."""

    def __init__(self, dataset: Dataset, indices: Sequence[int]) -> None:
        self.dataset = dataset
        self.indices = indices
        # The DataLoader calls __getitems__ when a dataset has it, so a subclass that
        # changes __getitem__ alone would be bypassed without a word.
        if (type(self).__getitem__ is not Subset.__getitem__
                and type(self).__getitems__ is Subset.__getitems__):
            raise NotImplementedError(
                f"{type(self).__name__} overrides __getitem__ but not __getitems__. When "
                "subclassing Subset and overriding __getitem__, you must also override "
                "__getitems__ to ensure DataLoader works correctly with your custom logic. "
                "A simple implementation:\n\ndef __getitems__(self, indices):\n"
                "    return [self.__getitem__(idx) for idx in indices]")

    def __getitem__(self, idx: Any) -> Any:
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __getitems__(self, indices: list[int]) -> list:
        keys = [self.indices[i] for i in indices]
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__(keys)
        return [self.dataset[k] for k in keys]

    def __len__(self) -> int:
        return len(self.indices)


def split_lengths(lengths: Sequence[float], n: int) -> list[int]:
    """Fractions summing to 1 -> lengths summing to ``n``: ``floor(n * frac)`` each, then the
    remainder handed out one by one from the first split on (PyTorch's rule: 10 items split
    [0.5, 0.3, 0.2] give [5, 3, 2]; 11 give [6, 3, 2]). Integer lengths pass unchanged."""
    total = sum(lengths)
    if not (math.isclose(total, 1) and total <= 1):
        return list(lengths)
    out = []
    for i, frac in enumerate(lengths):
        if frac < 0 or frac > 1:
            raise ValueError(f"Fraction at index {i} is not between 0 and 1")
        out.append(math.floor(n * frac))
    for i in range(n - sum(out)):
        out[i % len(out)] += 1
    for i, length in enumerate(out):
        if length == 0:
            warnings.warn(f"Length of split at index {i} is 0. This might result in an empty "
                          "dataset.", stacklevel=3)
    return out


def random_split(dataset: Dataset, lengths: Sequence[float], generator: Any = None
                 ) -> list[Subset]:
    """Split ``dataset`` into non-overlapping :class:`Subset` s of the given lengths (ints
    summing to ``len(dataset)``, or fractions summing to 1: see :func:`split_lengths`),
    over one random permutation drawn from ``generator`` (None: the global generator that
    ``minigrad.manual_seed`` seeds; a ``minigrad.Generator`` or ``numpy.random.Generator``
    for a stream of its own). Split k holds the permutation's entries
    ``[sum(lengths[:k]), sum(lengths[:k+1]))``."""
    lengths = split_lengths(lengths, len(dataset))
    if any(isinstance(n, float) and not n.is_integer() for n in lengths) \
            or sum(lengths) != len(dataset):
        raise ValueError("Sum of input lengths does not equal the length of the input dataset!")
    if any(n < 0 for n in lengths):
        raise ValueError(f"random_split: lengths must be non-negative, got {list(lengths)}")
    lengths = [int(n) for n in lengths]
    indices = randperm(sum(lengths), generator=generator).tolist()
    return [Subset(dataset, indices[end - n:end])
            for end, n in zip(itertools.accumulate(lengths), lengths)]

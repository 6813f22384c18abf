"""Samplers, as ``torch.utils.data``: which keys of a map-style dataset to read, in what order.

A sampler is an iterable of keys (``SequentialSampler``: 0, 1, ..., n-1; ``RandomSampler``:
a permutation); a :class:`BatchSampler` groups another sampler's keys into lists, one list
per batch. Random samplers draw from ``generator`` (see
:func:`minigrad.random.numpy_generator`). With ``generator=None`` each pass first draws one
seed from minigrad's global generator (``minigrad.manual_seed`` fixes it) and shuffles with
a stream started from that seed, as PyTorch does: a pass advances the global stream by one
draw whatever the dataset's size. The same seed gives the same order on every run; it is
not PyTorch's order for that seed (its random engine differs).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence, Sized
from typing import Any

import numpy as np

from ...random import numpy_generator
from ...sampling import multinomial


class Sampler:
    """The base of every sampler: subclasses define ``__iter__`` (keys, or lists of keys
    for a batch sampler) and usually ``__len__`` (the number of items ``__iter__`` yields)."""

    def __iter__(self) -> Iterator:
        raise NotImplementedError


def _pass_generator(generator: Any) -> np.random.Generator:
    """The stream of one pass: ``generator``'s own, or (for None) a fresh one seeded by a
    single draw from the global generator."""
    if generator is not None:
        return numpy_generator(generator)
    seed = int(numpy_generator(None).integers(0, 2**63 - 1))
    return np.random.Generator(np.random.PCG64(seed))


def _require_positive_int(name: str, value: Any) -> None:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{name} should be a positive integer value, but got {name}={value}")


def _require_bool(name: str, value: Any, error: type[Exception] = ValueError) -> None:
    # PyTorch raises TypeError for RandomSampler's replacement, ValueError elsewhere
    if not isinstance(value, bool):
        raise error(f"{name} should be a boolean value, but got {name}={value}")


class SequentialSampler(Sampler):
    """The keys 0, 1, ..., len(data_source) - 1, in order."""

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """Random keys of ``data_source`` (n = its length). Without replacement: a fresh
    permutation of 0..n-1 for every n keys, ``num_samples`` (default n) in all; with
    replacement: ``num_samples`` independent uniform draws from 0..n-1."""

    def __init__(self, data_source: Sized, replacement: bool = False,
                 num_samples: int | None = None, generator: Any = None) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        _require_bool("replacement", replacement, TypeError)
        _require_positive_int("num_samples", self.num_samples)

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        rng = _pass_generator(self.generator)
        if self.replacement:
            yield from rng.integers(0, n, size=self.num_samples).tolist()
            return
        for _ in range(self.num_samples // n):
            yield from rng.permutation(n).tolist()
        yield from rng.permutation(n)[: self.num_samples % n].tolist()

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given ``indices`` in a random order (a fresh permutation every pass)."""

    def __init__(self, indices: Sequence[int], generator: Any = None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        for i in _pass_generator(self.generator).permutation(len(self.indices)).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` keys from 0..len(weights)-1, key i drawn with probability
    weights[i] / sum(weights) (weights need not sum to 1), with or without replacement
    (without: a drawn key cannot come again, so ``num_samples`` may not exceed the number
    of nonzero weights); ``minigrad.multinomial`` draws them."""

    def __init__(self, weights: Sequence[float], num_samples: int, replacement: bool = True,
                 generator: Any = None) -> None:
        _require_positive_int("num_samples", num_samples)
        _require_bool("replacement", replacement)
        w = np.asarray(getattr(weights, "data", weights), dtype=np.float64)
        if w.ndim != 1:
            raise ValueError(f"weights should be a 1d sequence but given weights have shape "
                             f"{tuple(w.shape)}")
        self.weights = w
        self.num_samples = int(num_samples)
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        drawn = multinomial(self.weights, self.num_samples, self.replacement,
                            generator=_pass_generator(self.generator))
        yield from drawn.tolist()

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Groups the keys of ``sampler`` into lists of ``batch_size``; the last list is shorter
    when the keys run out, or dropped when ``drop_last``. ``len``: ceil(n / batch_size), or
    floor with ``drop_last``."""

    def __init__(self, sampler: Sampler | Iterable[int], batch_size: int,
                 drop_last: bool) -> None:
        _require_positive_int("batch_size", batch_size)
        _require_bool("drop_last", drop_last)
        self.sampler = sampler
        self.batch_size = int(batch_size)
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        keys = iter(self.sampler)
        while batch := list(itertools.islice(keys, self.batch_size)):
            if self.drop_last and len(batch) < self.batch_size:
                return
            yield batch

    def __len__(self) -> int:
        if self.drop_last:
            return len(self.sampler) // self.batch_size
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size

"""Fetching one batch: read the samples a sampler chose, then collate them.

The same fetchers run in the main process (``num_workers=0``) and in every worker. When
reading or collating fails, the fetcher raises :class:`LoadFailure`, which holds the
original error and says where it happened: which sample key (or, for a stream, which
item of the iterator), in which batch. The loader re-raises the original error with that
place attached, so an error always names the sample that caused it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .collate import default_collate
from .dataset import TensorDataset


class LoadFailure(Exception):
    """``error`` raised while fetching, and ``where``: the place, in words."""

    def __init__(self, error: BaseException, where: str) -> None:
        super().__init__(where)
        self.error = error
        self.where = where


def keys_text(keys: Any, limit: int = 8) -> str:
    keys = list(keys)
    shown = ", ".join(repr(k) for k in keys[:limit])
    return f"[{shown}, ... {len(keys)} keys]" if len(keys) > limit else f"[{shown}]"


class MapFetcher:
    """Reads ``dataset[key]`` for each key of a batch (or ``dataset.__getitems__(keys)``
    when the dataset has it), then ``collate_fn``; without automatic batching, one key and
    one sample. A ``TensorDataset`` with the default collate gives its batch in one indexing
    per tensor (:meth:`TensorDataset.rows`: the same tensors), and on any error goes the
    sample by sample way, whose error names the sample."""

    def __init__(self, dataset: Any, auto_collation: bool, collate_fn: Callable,
                 drop_last: bool) -> None:
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        getitems = getattr(dataset, "__getitems__", None)
        self.getitems = getitems if callable(getitems) else None
        self.rows = (dataset.rows if type(dataset) is TensorDataset
                     and collate_fn is default_collate and auto_collation else None)

    def _read(self, key: Any, batch: Any) -> Any:
        try:
            return self.dataset[key]
        except Exception as e:
            inside = f" of the batch {keys_text(batch)}" if batch is not None else ""
            raise LoadFailure(e, f"while loading sample {key!r}{inside}") from e

    def fetch(self, index: Any) -> Any:
        if not self.auto_collation:
            return self._collate(self._read(index, None), f"sample {index!r}")
        if self.rows is not None:
            try:
                batch = self.rows(index)
            except Exception:  # noqa: BLE001  (the sample by sample path reports it exactly)
                batch = None
            if batch is not None:
                return batch
        if self.getitems is not None:
            try:
                data = self.getitems(index)
            except Exception as e:
                raise LoadFailure(e, f"while loading the samples {keys_text(index)} "
                                     "(__getitems__)") from e
        else:
            data = [self._read(key, index) for key in index]
        return self._collate(data, f"the samples {keys_text(index)}")

    def _collate(self, data: Any, what: str) -> Any:
        try:
            return self.collate_fn(data)
        except Exception as e:
            raise LoadFailure(e, f"while collating {what}") from e


class IterableFetcher:
    """Takes the next item of ``iter(dataset)`` (a batch's worth with automatic batching;
    a short last batch is dropped with ``drop_last``), then ``collate_fn``. Raises
    StopIteration when the stream has nothing left for a batch. Items are counted, so an
    error names the item of this copy's stream that failed."""

    def __init__(self, dataset: Any, auto_collation: bool, collate_fn: Callable,
                 drop_last: bool) -> None:
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.items: Iterator = iter(dataset)
        self.count = 0  # items taken so far
        self.ended = False

    def _next(self) -> Any:
        try:
            item = next(self.items)
        except StopIteration:
            raise
        except Exception as e:
            raise LoadFailure(e, f"while loading item {self.count} of the dataset's "
                                 "iterator") from e
        self.count += 1
        return item

    def fetch(self, index: Any) -> Any:
        if self.ended:
            raise StopIteration
        first = self.count
        if not self.auto_collation:
            data = self._next()
        else:
            data = []
            for _ in index:
                try:
                    data.append(self._next())
                except StopIteration:
                    self.ended = True
                    break
            if not data or (self.drop_last and len(data) < len(index)):
                raise StopIteration
        try:
            return self.collate_fn(data)
        except Exception as e:
            raise LoadFailure(e, f"while collating items {first}..{self.count - 1} of the "
                                 "dataset's iterator") from e


def make_fetcher(is_iterable: bool, dataset: Any, auto_collation: bool, collate_fn: Callable,
                 drop_last: bool) -> MapFetcher | IterableFetcher:
    """The fetcher for a map-style or an iterable dataset."""
    kind = IterableFetcher if is_iterable else MapFetcher
    return kind(dataset, auto_collation, collate_fn, drop_last)

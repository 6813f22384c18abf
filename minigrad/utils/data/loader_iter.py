"""One pass over a DataLoader: the iterator ``iter(loader)`` returns.

:class:`LoaderIter` holds what every pass shares: the index sampler's iterator (batches of
keys, or single keys without automatic batching) and the base seed workers derive their
seeds from, drawn from the loader's ``generator`` whether or not there are workers, so
that the same generator gives the same order with any ``num_workers``.
:class:`SingleProcessLoaderIter` fetches each batch in the calling process;
``multiprocessing_iter.py`` hands them to worker processes.
"""

from __future__ import annotations

import warnings
from typing import Any

from ...random import numpy_generator
from .fetch import LoadFailure, make_fetcher
from .worker import RemoteError


class LoaderIter:
    """The state of one pass (see the module docstring); subclasses define ``_next_data``."""

    def __init__(self, loader: Any) -> None:
        self._dataset = loader.dataset
        self._is_iterable = loader._is_iterable
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._collate_fn = loader.collate_fn
        self._num_workers = loader.num_workers
        self._sampler_iter = iter(self._index_sampler)
        self._base_seed = int(numpy_generator(loader.generator).integers(0, 2**62))
        self._num_yielded = 0
        self._reported_len = loader._IterableDataset_len_called

    def __iter__(self) -> LoaderIter:
        return self

    def _reset(self, loader: Any) -> None:
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._reported_len = loader._IterableDataset_len_called

    def _next_index(self) -> Any:
        return next(self._sampler_iter)

    def _next_data(self) -> Any:
        raise NotImplementedError

    def _on_exception(self, error: BaseException) -> None:
        """Called when ``__next__`` raises (StopIteration included)."""

    def __next__(self) -> Any:
        try:
            data = self._next_data()
        except BaseException as e:
            self._on_exception(e)
            raise
        if isinstance(data, RemoteError):
            # A worker's error while loading this batch: the pass goes on (the next call
            # gives the next batch, as PyTorch's). It is raised from a frame that no
            # longer holds the pass, so an error kept for its traceback (by a logger, a
            # test, a debugger) does not keep the workers alive once the loop lets go.
            del self
            data.reraise()
        self._num_yielded += 1
        if (self._is_iterable and self._reported_len is not None
                and self._num_yielded > self._reported_len):
            msg = (f"Length of IterableDataset {self._dataset} was reported to be "
                   f"{self._reported_len} (when accessing len(dataloader)), but "
                   f"{self._num_yielded} samples have been fetched. ")
            if self._num_workers > 0:
                msg += ("For multiprocessing data-loading, this could be caused by not "
                        "properly configuring the IterableDataset replica at each worker "
                        "(see IterableDataset's docstring).")
            warnings.warn(msg, stacklevel=2)
        return data

    def __len__(self) -> int:
        return len(self._index_sampler)

    def __getstate__(self) -> None:
        raise NotImplementedError(f"{type(self).__name__} cannot be pickled")


class SingleProcessLoaderIter(LoaderIter):
    """Fetches each batch in this process. An error while loading is re-raised as it is,
    with a note naming the sample (Python 3.11+ prints notes under the traceback)."""

    def __init__(self, loader: Any) -> None:
        super().__init__(loader)
        self._fetcher = make_fetcher(self._is_iterable, self._dataset, self._auto_collation,
                                     self._collate_fn, self._drop_last)

    def _next_data(self) -> Any:
        index = self._next_index()
        try:
            return self._fetcher.fetch(index)
        except LoadFailure as failure:
            error = failure
        original = error.error
        if hasattr(original, "add_note"):
            original.add_note(f"(raised in the DataLoader {error.where})")
        raise original

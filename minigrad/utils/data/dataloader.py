"""DataLoader, as ``torch.utils.data.DataLoader``: batches from a dataset.

``DataLoader(dataset, batch_size=1, shuffle=False, ...)`` chooses keys with a sampler
(``SequentialSampler``, or ``RandomSampler`` when ``shuffle``; your own with ``sampler=``),
groups them with a ``BatchSampler`` (``batch_size``, ``drop_last``; your own with
``batch_sampler=``), reads the samples and collates each batch (``default_collate``, or
``collate_fn=``). ``batch_size=None`` turns batching off: each sample goes through
``default_convert`` alone. An IterableDataset takes no sampler: its own iterator decides
the order, and ``batch_size`` items make a batch.

``generator`` draws the shuffling and the workers' seeds: the same seed gives the same
batches in the same order on every run, with any ``num_workers`` (each pass draws the base
seed, then the order, as PyTorch; persistent workers keep their first base seed, so later
epochs see one draw fewer and other orders, as in PyTorch). ``num_workers > 0``
loads in that many worker processes (``worker.py``, ``multiprocessing_iter.py``); their
results arrive in the order of the keys (``in_order=False``: as soon as each is ready). ``pin_memory`` exists for PyTorch code to run:
minigrad has no accelerator, so it only warns, as PyTorch does on a machine without one.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import warnings
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .collate import default_collate, default_convert
from .dataset import Dataset, IterableDataset
from .loader_iter import LoaderIter, SingleProcessLoaderIter
from .multiprocessing_iter import MultiProcessingLoaderIter
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler


class _InfiniteConstantSampler(Sampler):
    """The keys of an IterableDataset: ``None`` forever (its iterator chooses the items)."""

    def __iter__(self) -> Iterator[None]:
        while True:
            yield None


def _available_cpus() -> int | None:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count()


_FIXED_AFTER_INIT = ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset",
                     "persistent_workers")


class DataLoader:
    """Batches of ``dataset`` (see the module docstring); ``iter(loader)`` is one pass and
    ``len(loader)`` its number of batches: ceil(n / batch_size), or floor with
    ``drop_last``, n being the sampler's length (an IterableDataset's own ``len``)."""

    def __init__(self, dataset: Dataset, batch_size: int | None = 1,
                 shuffle: bool | None = None, sampler: Sampler | Iterable | None = None,
                 batch_sampler: Sampler | Iterable | None = None, num_workers: int = 0,
                 collate_fn: Callable | None = None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0,
                 worker_init_fn: Callable | None = None, multiprocessing_context: Any = None,
                 generator: Any = None, *, prefetch_factor: int | None = None,
                 persistent_workers: bool = False, pin_memory_device: str = "",
                 in_order: bool = True) -> None:
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 "
                             "to disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in "
                             "multiprocessing.let num_workers > 0 to enable multiprocessing, "
                             "otherwise set prefetch_factor to None.")
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        elif prefetch_factor == 0:
            # PyTorch accepts 0 here and then fails when iterating; refuse it now
            raise ValueError(f"prefetch_factor option should be positive, got {prefetch_factor}")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")
        if pin_memory:
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, "
                          "then device pinned memory won't be used.", stacklevel=2)

        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order

        self._is_iterable = isinstance(dataset, IterableDataset)
        if self._is_iterable:
            if shuffle not in {False, None}:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified "
                                 f"shuffle option, but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified "
                                 f"sampler option, but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified "
                                 f"batch_sampler option, but got batch_sampler={batch_sampler}")
        shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, "
                                 "shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually "
                             "exclusive with drop_last")
        if sampler is None:
            if self._is_iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)

        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self._IterableDataset_len_called: int | None = None
        self._iterator: LoaderIter | None = None
        self.__initialized = True
        self._check_worker_number()

    @property
    def multiprocessing_context(self) -> Any:
        """The start method of the workers (None: multiprocessing's default)."""
        return self.__multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, context: Any) -> None:
        if context is not None:
            if self.num_workers == 0:
                raise ValueError(f"multiprocessing_context can only be used with multi-process "
                                 f"loading (num_workers > 0), but got "
                                 f"num_workers={self.num_workers}")
            if isinstance(context, str):
                methods = multiprocessing.get_all_start_methods()
                if context not in methods:
                    raise ValueError(f"multiprocessing_context option should specify a valid "
                                     f"start method in {methods!r}, but got "
                                     f"multiprocessing_context={context!r}")
                context = multiprocessing.get_context(context)
            if not isinstance(context, multiprocessing.context.BaseContext):
                raise TypeError(f"multiprocessing_context option should be a valid context "
                                f"object or a string specifying the start method, but got "
                                f"multiprocessing_context={context}")
        self.__multiprocessing_context = context

    def __setattr__(self, attr: str, value: Any) -> None:
        if attr in _FIXED_AFTER_INIT and self.__dict__.get("_DataLoader__initialized"):
            raise ValueError(f"{attr} attribute should not be set after "
                             f"{type(self).__name__} is initialized")
        super().__setattr__(attr, value)

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self) -> Any:
        return self.batch_sampler if self._auto_collation else self.sampler

    def _get_iterator(self) -> LoaderIter:
        if self.num_workers == 0:
            return SingleProcessLoaderIter(self)
        self._check_worker_number()
        return MultiProcessingLoaderIter(self)

    def __iter__(self) -> LoaderIter:
        if not (self.persistent_workers and self.num_workers > 0):
            return self._get_iterator()
        it = self._iterator
        if it is None or it.is_shut_down:
            self._iterator = self._get_iterator()
        else:
            it._reset(self)
        return self._iterator

    def __len__(self) -> int:
        if not self._is_iterable:
            return len(self._index_sampler)
        length = self._IterableDataset_len_called = len(self.dataset)
        if self.batch_size is not None:
            length = length // self.batch_size if self.drop_last \
                else math.ceil(length / self.batch_size)
        return length

    def _check_worker_number(self) -> None:
        """Warn, as PyTorch, when there are more workers than CPUs to run them."""
        cpus = _available_cpus()
        if self.num_workers > 0 and cpus is not None and self.num_workers > cpus:
            warnings.warn(f"This DataLoader will create {self.num_workers} worker processes "
                          f"in total. Our suggested max number of worker in current system is "
                          f"{cpus}, which is smaller than what this DataLoader is going to "
                          f"create. Please be aware that excessive worker creation might get "
                          f"DataLoader running slow or even freeze, lower the worker number to "
                          f"avoid potential slowness/freeze if necessary.", stacklevel=3)

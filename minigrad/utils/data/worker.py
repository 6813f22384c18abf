"""What runs inside a DataLoader worker process, and what it sends back.

A worker is a process (``multiprocessing``, the loader's start method) holding its own copy
of the dataset. It seeds its random generators from the loader's base seed, runs
``worker_init_fn``, then loops: take ``(task number, keys)`` from its index queue, fetch
and collate that batch, and put ``(task number, pickled result)`` on the shared result
queue. The worker pickles each result itself, so that a batch that cannot be pickled
becomes an error naming the batch instead of a message lost in the queue's feeder thread.

An error becomes a :class:`RemoteError`: the exception's type, where it happened (the
worker and the sample) and its traceback as text, re-raised in the main process as the
same type. The loop ends on ``None`` (the loader shuts down), on KeyboardInterrupt (Ctrl-C
reaches every process of the terminal's group), or when the parent process is gone.
"""

from __future__ import annotations

import io
import os
import pickle
import queue
import random
import sys
import traceback
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...random import manual_seed
from ...tensor import Tensor
from .fetch import LoadFailure, keys_text, make_fetcher

# How often a waiting process looks up whether the other side is still alive, in seconds.
STATUS_CHECK_INTERVAL = 1.0


@dataclass(frozen=True)
class WorkerInfo:
    """Who this worker is: ``id`` (0..num_workers-1), ``num_workers``, ``seed`` (its
    seed: the loader's base seed + id) and ``dataset`` (this process's copy)."""

    id: int
    num_workers: int
    seed: int
    dataset: Any


_worker_info: WorkerInfo | None = None


def get_worker_info() -> WorkerInfo | None:
    """In a DataLoader worker process, its :class:`WorkerInfo`; in the main process, None.
    An IterableDataset reads it in ``__iter__`` to yield only its share of the stream."""
    return _worker_info


@dataclass(frozen=True)
class ResumeIteration:
    """Sent to persistent workers at a new epoch: start the dataset's stream again."""


@dataclass(frozen=True)
class IterableEnd:
    """A worker's copy of an IterableDataset has nothing left."""

    worker_id: int


class _KeyErrorMessage(str):
    """A KeyError prints its argument's repr; this keeps the traceback's newlines."""

    def __repr__(self) -> str:
        return str(self)


def _picklable_type(kind: type) -> bool:
    """Whether an exception type survives the trip to the main process. Pickle sends a class
    by reference, its module and qualified name, so it travels exactly when that name leads
    back to the class itself (not a class defined inside a function, ``<locals>``, nor one
    replaced under its name since)."""
    found: Any = sys.modules.get(kind.__module__)
    for part in kind.__qualname__.split("."):
        found = getattr(found, part, None)
    return found is kind


class RemoteError:
    """An exception raised in a worker, carried to the main process: ``exc_type`` (or
    RuntimeError when the type cannot travel), ``where`` (``"in DataLoader worker process 1
    while loading sample 17 of the batch [16, 17, 18, 19]"``) and the traceback text."""

    def __init__(self, error: BaseException, where: str) -> None:
        kind = type(error)
        self.exc_type = kind if _picklable_type(kind) else RuntimeError
        self.type_name = kind.__name__
        self.where = where
        self.traceback = "".join(traceback.format_exception(kind, error, error.__traceback__))

    def message(self) -> str:
        return f"Caught {self.type_name} {self.where}.\nOriginal {self.traceback}"

    def reraise(self) -> None:
        """Raise ``exc_type(message)`` (a RuntimeError when that type takes other
        arguments), so ``except ValueError`` catches a worker's ValueError."""
        msg = self.message()
        if self.exc_type is KeyError:
            msg = _KeyErrorMessage(msg)
        try:
            error = self.exc_type(msg)
        except Exception:  # noqa: BLE001  (a type that takes other arguments)
            raise RuntimeError(msg) from None
        raise error


class _ResultPickler(pickle.Pickler):
    """Pickles a result, refusing a Tensor that has a graph: the graph would arrive as a
    copy, and ``backward`` in the main process would fill the gradients of copies."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, Tensor) and not obj.is_leaf:
            raise RuntimeError("a Tensor with a graph (the result of an op on tensors that "
                               "require grad) cannot leave a DataLoader worker: detach() it "
                               "in the dataset or the collate_fn")
        return NotImplemented


def encode(obj: Any) -> bytes:
    """``obj`` as bytes for the result queue."""
    buf = io.BytesIO()
    _ResultPickler(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return buf.getvalue()


def _seed_worker(base_seed: int, worker_id: int) -> int:
    """Seed Python's ``random``, minigrad's global generator and NumPy's legacy global one
    differently in each worker, from the loader's base seed: without this, forked workers
    would all start from the parent's state and draw the same "random" augmentations."""
    seed = base_seed + worker_id
    random.seed(seed)
    manual_seed(seed)
    np.random.seed(np.random.SeedSequence([worker_id, base_seed]).generate_state(4))
    return seed


def worker_loop(is_iterable: bool, dataset: Any, index_queue: Any, result_queue: Any,
                done_event: Any, auto_collation: bool, collate_fn: Any, drop_last: bool,
                base_seed: int, init_fn: Any, worker_id: int, num_workers: int) -> None:
    """The body of worker ``worker_id`` (see the module docstring)."""
    global _worker_info
    here = f"in DataLoader worker process {worker_id}"
    try:
        seed = _seed_worker(base_seed, worker_id)
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed,
                                  dataset=dataset)
        failure: RemoteError | None = None
        fetcher = None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = make_fetcher(is_iterable, dataset, auto_collation, collate_fn, drop_last)
        except Exception as e:  # noqa: BLE001  (sent to the main process, raised there)
            failure = RemoteError(e, f"{here} while starting (worker_init_fn, or the "
                                     "dataset's iterator)")
        ended = False
        parent = os.getppid()
        while os.getppid() == parent:  # a worker whose parent died stops on its own
            try:
                task = index_queue.get(timeout=STATUS_CHECK_INTERVAL)
            except queue.Empty:
                continue
            if task is None:
                break
            if isinstance(task, ResumeIteration):
                ended = False
                if failure is None:
                    fetcher = make_fetcher(is_iterable, dataset, auto_collation, collate_fn,
                                           drop_last)
                result_queue.put((task, encode(None)))
                continue
            if done_event.is_set() or ended:
                continue
            number, keys = task
            result = _run_task(fetcher, failure, keys, is_iterable, worker_id, here)
            ended = isinstance(result, IterableEnd)
            try:
                payload = encode(result)
            except Exception as e:  # noqa: BLE001  (sent to the main process, raised there)
                what = keys_text(keys) if auto_collation else repr(keys)
                payload = encode(RemoteError(e, f"{here} while sending the batch of samples "
                                                f"{what} to the main process"))
            result_queue.put((number, payload))
            del result, payload
    except KeyboardInterrupt:
        pass
    if done_event.is_set():
        # the main process is not reading any more: exit without flushing the queue
        result_queue.cancel_join_thread()
        result_queue.close()


def _run_task(fetcher: Any, failure: RemoteError | None, keys: Any, is_iterable: bool,
              worker_id: int, here: str) -> Any:
    """One batch, or what stopped it: a RemoteError or IterableEnd."""
    if failure is not None:
        return failure
    try:
        return fetcher.fetch(keys)
    except StopIteration as e:
        if is_iterable:
            return IterableEnd(worker_id)
        return RemoteError(e, here)
    except LoadFailure as f:
        return RemoteError(f.error, f"{here} {f.where}")
    except Exception as e:  # noqa: BLE001  (sent to the main process, raised there)
        return RemoteError(e, here)

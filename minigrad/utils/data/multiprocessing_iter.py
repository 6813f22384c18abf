"""One pass over a DataLoader with ``num_workers`` worker processes.

The main process keeps ``prefetch_factor * num_workers`` batches in flight: it numbers
each batch of keys (a task), sends it to the next worker in turn, and returns results in
task order, holding back the ones that arrive early (with ``in_order=False``, as they
arrive). A worker whose IterableDataset copy
runs dry says so and gets no more tasks; the pass ends when no task is left.

An error a worker raised while loading or collating a batch is that batch's: it is raised
from ``__next__`` and the pass goes on, as PyTorch's, so a loop may catch it and carry on
with the next batch. Any other failure ends the pass (a worker that died, a ``timeout``,
KeyboardInterrupt): the workers are stopped before the error is raised, and a later
``next`` raises a RuntimeError naming it instead of waiting for batches that will never
come.

Shutting down is the part that must never fail: on the end of the pass, on ``break``
(the iterator is garbage collected), on a failure that ends the pass, the workers get
``None``, are joined for a moment, and are terminated if still alive, so no process
outlives its pass. With ``persistent_workers`` they survive the end of a pass and start
the next one on a :class:`~.worker.ResumeIteration`.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import pickle
import queue
import signal
import time
from typing import Any

from .loader_iter import LoaderIter
from .worker import STATUS_CHECK_INTERVAL, IterableEnd, ResumeIteration, worker_loop

_exiting = False


def _mark_exiting() -> None:
    # At interpreter exit multiprocessing terminates daemonic workers itself; a pass
    # collected that late must not wait on queues whose machinery is being torn down.
    global _exiting
    _exiting = True


atexit.register(_mark_exiting)


def _death_message(worker: Any) -> str:
    """PyTorch's words for a worker process that ended on its own: killed by a signal
    (a negative exit code), or exited with a code."""
    code = worker.exitcode
    if code is not None and code < 0:
        try:
            name = signal.strsignal(-code) or f"signal {-code}"
        except ValueError:
            name = f"signal {-code}"
        return f"DataLoader worker (pid {worker.pid}) is killed by signal: {name}."
    return (f"DataLoader worker (pid {worker.pid}) exited unexpectedly with exit code {code}. "
            "Details are lost due to multiprocessing. Rerunning with num_workers=0 may give "
            "better error trace.")


class MultiProcessingLoaderIter(LoaderIter):
    """A pass whose batches are fetched by worker processes (see the module docstring)."""

    def __init__(self, loader: Any) -> None:
        super().__init__(loader)
        self._owner = os.getpid()  # a forked copy of this object must not stop the workers
        self._shutdown = True  # nothing to stop until the queues exist
        self._ended_by: str | None = None  # the failure that ended the pass early
        self._workers: list = []
        self._index_queues: list = []
        # num_workers may be set after the loader was built, leaving prefetch_factor None
        self._prefetch = (loader.prefetch_factor or 2) * self._num_workers
        self._persistent = loader.persistent_workers
        self._timeout = loader.timeout
        self._in_order = loader.in_order
        ctx = loader.multiprocessing_context or multiprocessing.get_context()
        self._result_queue = ctx.Queue()
        self._done_event = ctx.Event()
        self._shutdown = False
        try:
            for i in range(self._num_workers):
                index_queue = ctx.Queue()
                index_queue.cancel_join_thread()  # never block exit on unsent keys
                w = ctx.Process(target=worker_loop, name=f"DataLoader worker {i}", daemon=True,
                                args=(self._is_iterable, self._dataset, index_queue,
                                      self._result_queue, self._done_event,
                                      self._auto_collation, self._collate_fn, self._drop_last,
                                      self._base_seed, loader.worker_init_fn, i,
                                      self._num_workers))
                self._index_queues.append(index_queue)
                w.start()
                self._workers.append(w)
            self._start_pass(first=True)
        except BaseException:
            self._shutdown_workers()
            raise

    def _reset(self, loader: Any) -> None:
        super()._reset(loader)
        try:
            self._start_pass(first=False)
        except BaseException:
            self._shutdown_workers()
            raise

    def _start_pass(self, first: bool) -> None:
        self._send_idx = 0  # the number of the next task to send
        self._rcvd_idx = 0  # the number of the next task to return
        self._task_worker: dict[int, int] = {}  # task -> worker, until returned
        self._arrived: dict[int, Any] = {}  # results that came before their turn
        self._active = [True] * self._num_workers
        self._next_worker = 0
        self._worker_tasks = [0] * self._num_workers  # tasks sent and not yet returned
        if not first:
            for q in self._index_queues:
                q.put(ResumeIteration())
            resumed = 0
            while resumed < self._num_workers:  # results of an abandoned pass are dropped
                tag, _ = self._get_result()
                resumed += isinstance(tag, ResumeIteration)
        for _ in range(self._prefetch):
            self._try_put_index()

    def _try_put_index(self) -> None:
        """Send the next batch of keys to the next active worker, if any keys are left."""
        try:
            keys = self._next_index()
        except StopIteration:
            return
        for _ in range(self._num_workers):
            w = self._next_worker
            self._next_worker = (w + 1) % self._num_workers
            # out of order, a slow worker may not hoard the tasks: a fair share each
            if self._active[w] and (self._in_order or self._worker_tasks[w]
                                    < self._prefetch // sum(self._active)):
                break
        else:
            return
        self._index_queues[w].put((self._send_idx, keys))
        self._task_worker[self._send_idx] = w
        self._worker_tasks[w] += 1
        self._send_idx += 1

    def _get_result(self) -> tuple:
        """The next (task, result) from any worker; raises when a worker died or when
        ``timeout`` seconds pass without one."""
        start = time.monotonic()
        while True:
            wait = STATUS_CHECK_INTERVAL
            if self._timeout > 0:
                wait = min(wait, max(self._timeout - (time.monotonic() - start), 0.0))
            try:
                tag, payload = self._result_queue.get(timeout=wait)
                # a batch this loader's own worker process pickled (worker.py), as
                # torch.utils.data passes batches: no file or checkpoint is ever unpickled
                return tag, pickle.loads(payload)
            except queue.Empty:
                pass
            dead = [w for w, active in zip(self._workers, self._active)
                    if active and not w.is_alive()]
            if dead:
                raise RuntimeError("\n".join(_death_message(w) for w in dead))
            if self._timeout > 0 and time.monotonic() - start >= self._timeout:
                raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds")

    def _next_data(self) -> Any:
        if self._shutdown:
            if self._ended_by is not None:
                raise RuntimeError(f"this DataLoader pass was ended by {self._ended_by}; "
                                   "iter(loader) starts a new one")
            raise StopIteration
        while True:
            # skip the tasks of workers whose stream ended before answering them
            while self._rcvd_idx < self._send_idx:
                w = self._task_worker.get(self._rcvd_idx)
                if w is not None and (self._rcvd_idx in self._arrived or self._active[w]):
                    break
                self._task_worker.pop(self._rcvd_idx, None)
                self._rcvd_idx += 1
            else:
                if not self._persistent:
                    self._shutdown_workers()
                raise StopIteration
            if self._rcvd_idx in self._arrived:
                return self._deliver(self._rcvd_idx, self._arrived.pop(self._rcvd_idx))
            task, result = self._get_result()
            if isinstance(result, IterableEnd):
                self._active[result.worker_id] = False
                self._try_put_index()
                continue
            if task != self._rcvd_idx and self._in_order:
                self._arrived[task] = result
                continue
            return self._deliver(task, result)

    def _deliver(self, task: int, result: Any) -> Any:
        self._worker_tasks[self._task_worker.pop(task)] -= 1
        if task == self._rcvd_idx:
            self._rcvd_idx += 1
        self._try_put_index()
        return result  # a RemoteError is raised by LoaderIter.__next__

    def _on_exception(self, error: BaseException) -> None:
        """Any failure but the end of the pass ends it (see the module docstring)."""
        if isinstance(error, StopIteration) or self._shutdown:
            return
        first_line = str(error).split("\n", 1)[0]
        self._ended_by = f"an earlier {type(error).__name__}" + (f": {first_line}"
                                                                 if first_line else "")
        self._shutdown_workers()

    @property
    def is_shut_down(self) -> bool:
        return self._shutdown

    def _shutdown_workers(self) -> None:
        """Stop every worker: ``None`` to each, a moment to exit, then terminate."""
        if getattr(self, "_shutdown", True) or _exiting or os.getpid() != self._owner:
            return  # (no _shutdown: __init__ failed early)
        self._shutdown = True
        try:
            self._done_event.set()
            for q in self._index_queues:
                q.put(None)
            deadline = time.monotonic() + STATUS_CHECK_INTERVAL
            for w in self._workers:
                w.join(timeout=max(deadline - time.monotonic(), 0.0))
        finally:
            for w in self._workers:
                if w.is_alive():
                    w.terminate()
                    w.join(timeout=STATUS_CHECK_INTERVAL)
            for q in [*self._index_queues, self._result_queue]:
                q.cancel_join_thread()
                q.close()

    def __del__(self) -> None:
        self._shutdown_workers()

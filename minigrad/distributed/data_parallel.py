"""DistributedDataParallel: every rank steps as if it had seen the whole global batch.

Each rank computes the gradient of the mean loss over its own B/N rows. The mean over the
global batch is the average of the ranks' means (equal row counts), and the gradient is
linear, so averaging the ranks' gradients gives exactly the gradient one process computes on
all B rows (up to float rounding). Since every rank starts from rank 0's weights and applies
the same averaged gradient with the same optimizer, the weights stay equal on every rank.

Overlap (as PyTorch's DDP): parameters are grouped into *buckets* of about ``bucket_cap_mb``
megabytes, in reverse order of ``parameters()`` (roughly the order backward produces their
gradients: the last layer first). A hook on each parameter
(``Tensor.register_post_accumulate_grad_hook``) copies its gradient into its bucket's flat
buffer; when a bucket is full, a non-blocking all-reduce (``Iallreduce``, sum) of that buffer
starts while backward goes on computing the earlier layers' gradients. When the last bucket
has started, the ranks also combine which parameters had a gradient (a maximum over the
ranks of a 0/1 mask), every all-reduce is waited for (with a deadline) and the averages are
written back into the ``.grad`` of every parameter some rank used; a parameter no rank used
keeps ``.grad`` None, as it would in one process. Buckets start strictly in order, so every
rank issues the same collectives in the same order even if its hooks fire in a different one.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from .. import models, nn
from ..grad_mode import is_grad_enabled
from ..tensor import Tensor
from . import process_group as pg


def minigrad_fingerprint() -> list[tuple[str, Any]]:
    """The installed minigrad's version and a digest of its Python sources (nn and models
    included): two ranks running different code differ here."""
    try:
        version = importlib.metadata.version("minigrad-autodiff")
    except importlib.metadata.PackageNotFoundError:
        version = "not installed"
    digest = hashlib.sha256()
    for root in (Path(__file__).resolve().parents[1], Path(nn.__file__).resolve().parent,
                 Path(models.__file__).resolve().parent):
        for path in sorted(root.rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return [("minigrad version", version), ("minigrad source digest", digest.hexdigest()[:16])]


class _Bucket:
    """Parameters whose gradients travel together in one flat buffer of one dtype."""

    def __init__(self, params: list) -> None:
        self.params = params
        self.offsets = np.cumsum([0] + [p.data.size for p in params])
        self.flat = np.zeros(int(self.offsets[-1]), dtype=params[0].data.dtype)
        self.ready: set[int] = set()  # indices of params whose gradient is in ``flat``
        self.used: set[int] = set()   # those of them that had a gradient on this rank
        self.request: Any = None

    def view(self, i: int) -> np.ndarray:
        """Parameter i's slice of the flat buffer, in its shape."""
        return self.flat[self.offsets[i]:self.offsets[i + 1]].reshape(self.params[i].shape)


class DistributedDataParallel(nn.Module):
    """Wrap ``module`` so that backward averages its gradients across the ranks.

    ``model = DistributedDataParallel(module, bucket_cap_mb=25)``; call ``model(...)`` as
    ``module(...)``, each rank on its own slice of the global batch (see
    :func:`~minigrad.distributed.split_batch`), then ``loss.backward()``: when it returns,
    every ``.grad`` holds the average over ranks. Call :meth:`finish_gradient_sync` before
    ``optimizer.step()``: a no-op after a backward that reached every parameter, it completes
    the averaging when some parameter received no gradient on this rank.

    Parameters nobody used (PyTorch's DDP with ``find_unused_parameters=True``): a parameter
    counts as used on a rank when its ``.grad`` is not None there at the averaging (a
    gradient from this backward, or accumulated under :meth:`no_sync`). The ranks exchange
    which parameters they used; a parameter used on no rank keeps its ``.grad`` untouched
    (None stays None on every rank, so weight decay skips it as in one process); a parameter
    used on some ranks gets the average with zeros for the others, on every rank.

    At construction (a collective: every rank must build it): checks that every rank has the
    same minigrad code and the same parameter and buffer names, shapes and dtypes (else
    :class:`~minigrad.distributed.DistributedError` naming the first rank and difference, on
    every rank), then overwrites every rank's parameters and buffers with rank 0's.
    ``process_group``: the ranks to average over (default: the MPI world).

    As in PyTorch, ``state_dict()`` of the wrapper prefixes names with ``module.``; save
    ``model.module.state_dict()`` for a checkpoint that loads into a plain model.
    """

    def __init__(self, module: nn.Module, bucket_cap_mb: float = 25.0,
                 process_group: pg.ProcessGroup | None = None) -> None:
        super().__init__()
        if bucket_cap_mb <= 0:
            raise ValueError(f"bucket_cap_mb must be positive, got {bucket_cap_mb}")
        if process_group is None:
            pg.init_process_group(pg._world.timeout)  # no-op when already set up
        self._group = pg._need_world(process_group)
        self.module = module
        named = list(module.named_parameters())
        buffers = list(module.named_buffers())
        pg.check_same_on_all_ranks(
            minigrad_fingerprint()
            + [(f"parameter {n}", (tuple(p.shape), str(p.dtype), p.requires_grad))
               for n, p in named]
            + [(f"buffer {n}", (tuple(b.shape), str(b.dtype))) for n, b in buffers],
            "model and code", self._group)
        for _, t in named + buffers:
            _broadcast_in_place(t, self._group)
        self._buckets = _make_buckets(
            [p for _, p in named if p.requires_grad], bucket_cap_mb * 2**20)
        self._where = {
            id(p): (b, i) for b in self._buckets for i, p in enumerate(b.params)}
        self._names = {id(p): n for n, p in named}
        # which parameters had a gradient on this rank, then on any rank (bucket order)
        self._used = np.zeros(sum(len(b.params) for b in self._buckets), dtype=np.int32)
        self._used_request: Any = None
        self._sync = True
        self._pending = False  # a forward with grad since the last averaging
        self._next = 0  # the next bucket to start
        self._handles = [
            p.register_post_accumulate_grad_hook(self._grad_ready)
            for b in self._buckets for p in b.params]

    # ---- the hooks: called by the engine during backward -------------------
    def _grad_ready(self, p: Tensor) -> None:
        if not self._sync:
            return  # inside no_sync(): gradients accumulate locally
        bucket, i = self._where[id(p)]
        if i in bucket.ready:
            raise pg.DistributedError(
                f"parameter {self._names[id(p)]} received a second gradient before the first "
                "was averaged: call backward once per step, or use no_sync() for the "
                "accumulation backwards"
            )
        np.copyto(bucket.view(i), p.grad.data)
        bucket.ready.add(i)
        bucket.used.add(i)
        self._start_ready_buckets()

    def _start_ready_buckets(self) -> None:
        """Start, in bucket order, every bucket whose gradients are all in."""
        buckets, comm = self._buckets, self._group.comm
        started = [b.request for b in buckets[:self._next]]
        while self._next < len(buckets) and len(buckets[self._next].ready) == len(
                buckets[self._next].params):
            b = buckets[self._next]
            b.request = comm.iallreduce(b.flat, "sum")
            started.append(b.request)
            self._next += 1
        if self._next == len(buckets):
            self._finish()
        elif started:
            comm.testall(started)  # lets MPI progress the started ones

    def _finish(self) -> None:
        """Exchange which parameters any rank used, wait for every all-reduce, write the
        averages into the ``.grad`` of every parameter some rank used."""
        k = 0
        for b in self._buckets:
            self._used[k:k + len(b.params)] = [i in b.used for i in range(len(b.params))]
            k += len(b.params)
        self._used_request = self._group.comm.iallreduce(self._used, "max")
        pg.wait([b.request for b in self._buckets] + [self._used_request],
                "the gradient all-reduce", self._group)
        scale = 1.0 / self._group.size
        k = 0
        for b in self._buckets:
            b.flat *= b.flat.dtype.type(scale)
            for i, p in enumerate(b.params):
                if not self._used[k + i]:
                    continue  # no rank has a gradient for it: .grad stays as it is (None)
                if p._grad is None:  # used on another rank: it gets the average too
                    p._grad = Tensor._from_op(b.view(i).copy(), None)
                else:
                    np.copyto(p._grad.data, b.view(i))
                    p._grad._bump_version()
            k += len(b.params)
            b.ready.clear()
            b.used.clear()
            b.request = None
        self._next = 0
        self._pending = False

    # ---- the public side -------------------------------------------------
    def finish_gradient_sync(self) -> None:
        """Complete this step's averaging if backward left it unfinished (some parameter got
        no gradient on this rank: it counts as zero here, see the class docstring). A no-op
        after a complete backward, inside no_sync(), or when no forward with grad ran since
        the last averaging. Call it on every rank before ``optimizer.step()``."""
        if not self._sync or not (self._pending or any(b.ready for b in self._buckets)):
            return
        for b in self._buckets:
            for i, p in enumerate(b.params):
                if i not in b.ready:
                    if p._grad is None:
                        b.view(i)[...] = 0
                    else:
                        np.copyto(b.view(i), p._grad.data)
                        b.used.add(i)
                    b.ready.add(i)
        self._start_ready_buckets()

    @contextlib.contextmanager
    def no_sync(self) -> Iterator[None]:
        """Backwards inside accumulate gradients locally, without communication; the first
        backward after it averages the accumulated total (gradient accumulation)."""
        previous = self._sync
        self._sync = False
        try:
            yield
        finally:
            self._sync = previous

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """``module(*args, **kwargs)``; refuses to run while the previous backward's
        gradients are still half averaged (a missing :meth:`finish_gradient_sync`)."""
        if any(b.ready for b in self._buckets):
            missing = [self._names[id(p)] for b in self._buckets
                       for i, p in enumerate(b.params) if i not in b.ready]
            raise pg.DistributedError(
                "the previous backward's gradients were not all averaged across ranks "
                f"(no gradient for {missing[:3]}{' ...' if len(missing) > 3 else ''}): call "
                "model.finish_gradient_sync() after backward, before optimizer.step()"
            )
        if is_grad_enabled():
            self._pending = True
        return self.module(*args, **kwargs)

    def remove_hooks(self) -> None:
        """Unregister the gradient hooks (the wrapped module then trains alone again)."""
        for h in self._handles:
            h.remove()
        self._handles.clear()


def _broadcast_in_place(t: Tensor, group: pg.ProcessGroup) -> None:
    """Overwrite t's values with rank 0's."""
    if t.data.flags.c_contiguous and t.data.flags.writeable:
        pg.broadcast(t, 0, group)
    else:
        arr = np.ascontiguousarray(t.data)
        pg.broadcast(arr, 0, group)
        np.copyto(t.data, arr)
        t._bump_version()


def _make_buckets(params: list, cap_bytes: float) -> list[_Bucket]:
    """Group ``params`` in reverse order into buckets of at most ``cap_bytes`` (one parameter
    larger than that gets a bucket of its own), one dtype per bucket."""
    buckets: list[_Bucket] = []
    current: list = []
    size = 0
    for p in reversed(params):
        if current and (size + p.data.nbytes > cap_bytes or p.dtype != current[0].dtype):
            buckets.append(_Bucket(current))
            current, size = [], 0
        current.append(p)
        size += p.data.nbytes
    if current:
        buckets.append(_Bucket(current))
    return buckets

"""Data-parallel runs of minigrad-train: ``mpiexec -n N minigrad-train --batch-size B ...``.

Every rank builds the same model from the same seed and draws the same global batch of B rows
from the same sampler, then computes only its own B/N rows (``split_batch``);
DistributedDataParallel averages the gradients, so every rank takes the step one process
with the global batch takes, and the data order is that of one process. Loss estimates are
split the same way and averaged across ranks. Rank 0 alone prints and writes files
(checkpoints, metrics, plot, sample); the other ranks' standard output goes to /dev/null (their
errors still reach stderr, with the rank named, see minigrad/distributed/process_group.py).

One source of truth across ranks:

- :func:`connect` compares the run's configuration on every rank first (every flag that
  changes the numbers, the text's SHA-256, the resolved ``--out-dir``, :func:`run_identity`):
  ranks started differently stop together with a usage error naming the flag and its values.
- :meth:`World.main_first`: rank 0 alone prepares a shared file (the BPE tokenizer, the token
  file, the out-dir's creation and ``--overwrite``'s removals) while the others wait; then
  they read what it wrote.
- Any exit of one rank stops every rank within seconds. Inside those two agreement steps a
  failure on any rank (a usage error, an exception) is exchanged and every rank leaves with
  it, rank 0 printing it once. Anywhere else, a usage error or an exception on one rank prints
  its reason under the rank's name and aborts every rank (``ABORT_GRACE_SECONDS`` after it
  is written). The loop's own ends (done, interrupted, a non-finite loss) are reached by
  every rank at the same iteration, since they depend only on averaged values. Before the
  ranks have agreed on the run (:func:`join_launched_ranks` starts MPI before the flags are
  read), a rank that exits stops the others too (:class:`_EarlyExitGuard`).

Under a plain ``minigrad-train`` (no mpiexec, or ``mpiexec -n 1``) nothing here imports
mpi4py: :data:`SINGLE` is a world of one whose operations do nothing.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import hashlib
import math
import os
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from .. import distributed as dist
from ..num_threads import set_num_threads
from .data import CharVocab, DataError
from .tokens import BPETokenizer

T = TypeVar("T")

# what MPI launchers put in each rank's environment: MPICH/Intel MPI (hydra), Open MPI
SIZE_ENV = ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS")


def launched_world_size() -> int:
    """The number of ranks the MPI launcher started (1 when not started by one)."""
    for name in SIZE_ENV:
        if os.environ.get(name, "").isdigit():
            return int(os.environ[name])
    return 1


class UsageExit(BaseException):
    """A usage error of one rank under mpiexec: the trainer's parser raises it instead of
    printing and exiting, so that the error can be agreed on (:meth:`World.agree`) or, if it
    happens elsewhere, abort every rank (process_group's excepthook shows ``exit_message``)."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message.strip())
        self.exit_code, self.exit_message = code, message


class AgreedExit(SystemExit):
    """Every rank leaves together, with the same exit code (the reason is printed by rank 0)."""


class World:
    """The trainer's view of the ranks: who it is, how to split a batch and average a
    number; a world of one (:data:`SINGLE`) leaves everything as a single process has it.
    ``group``: the ranks' process group (default: MPI's world once connected)."""

    def __init__(self, size: int = 1, rank: int = 0, group: Any = None, prog: str = "") -> None:
        self.size, self.rank, self.group, self.prog = size, rank, group, prog

    @property
    def is_main(self) -> bool:
        """Rank 0: the one that prints and writes files."""
        return self.rank == 0

    def split(self, batch: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """This rank's rows of a global (x, y) batch."""
        return batch if self.size == 1 else dist.split_batch(batch, self.rank, self.size)

    def mean(self, value: float) -> float:
        """The mean of ``value`` over the ranks (every rank gets it)."""
        return value if self.size == 1 else dist.all_reduce(float(value), "mean", self.group)

    def agreed_signal(self, signum: int | None) -> int | None:
        """The stop signal any rank received (the ranks receive a Ctrl-C at slightly
        different moments, but must all stop before the same step), or None."""
        if self.size == 1:
            return signum
        return int(dist.all_reduce(float(signum or 0), "max", self.group)) or None

    def wrap(self, model: Any) -> Any:
        """The module that computes the training loss: ``model`` itself, or its DDP wrapper."""
        if self.size == 1:
            return model
        return dist.DistributedDataParallel(model, process_group=self.group)

    def no_sync(self, net: Any, last: bool) -> contextlib.AbstractContextManager:
        """Where a micro-batch's backward runs: gradients are averaged across the ranks only
        after the ``last`` micro-batch of a step; the others accumulate locally (DDP.no_sync)."""
        if last or not isinstance(net, dist.DistributedDataParallel):
            return contextlib.nullcontext()
        return net.no_sync()

    def finish_gradients(self, net: Any) -> None:
        """Complete the gradient averaging before the optimizer step (see DDP)."""
        if isinstance(net, dist.DistributedDataParallel):
            net.finish_gradient_sync()

    def describe(self, batch_size: int, threads: int | None) -> dict:
        """What metrics.json records about how the run ran."""
        return {"world_size": self.size, "batch_per_rank": batch_size // self.size,
                "threads_per_rank": threads}

    # ---- agreeing on failures -------------------------------------------------------------
    def stop_together(self, code: int, message: str) -> None:
        """Every rank calls this with the same failure: rank 0 prints it, all leave."""
        if self.is_main:
            sys.stderr.write(message if message.endswith("\n") else message + "\n")
            sys.stderr.flush()
        raise AgreedExit(code)

    def agree(self, failure: UsageExit | None) -> None:
        """A collective: every rank says whether its part failed. If any rank's did, every
        rank leaves with the first failing rank's exit code, rank 0 printing its message once
        (naming the rank unless every rank failed the same way)."""
        if self.size == 1:
            if failure is not None:
                raise failure
            return
        said = None if failure is None else [failure.exit_code, failure.exit_message]
        gathered = dist.all_gather_object(said, self.group)
        failed = [(r, f) for r, f in enumerate(gathered) if f is not None]
        if not failed:
            return
        rank, (code, message) = failed[0]
        if len(failed) < self.size or len({f[1] for _, f in failed}) > 1:
            message = f"{message.rstrip()} [rank {rank} of {self.size}]"
        self.stop_together(int(code), message)

    def attempt(self, work: Callable[[], Any]) -> tuple[Any, UsageExit | None]:
        """(``work()``, None), or (None, the failure) when it raised: a usage error as
        it is, an exception as its traceback with exit code 1."""
        try:
            return work(), None
        except UsageExit as e:
            return None, e
        except (DataError, ValueError) as e:  # the trainer's usage errors (see prepare.py)
            return None, UsageExit(2, f"{self.prog}: error: {e}\n")
        except Exception:  # noqa: BLE001  (reported to every rank, see agree)
            return None, UsageExit(1, traceback.format_exc())

    def main_first(self, write: Callable[[], T], read: Callable[[], T]) -> T:
        """Rank 0 runs ``write`` (it prepares a shared file) while the other ranks wait;
        then they run ``read`` (which only reads what rank 0 wrote). A failure on any rank
        stops every rank (:meth:`agree`) before anyone goes on. The others wait for rank 0
        without the collectives' deadline. One process: ``write()``."""
        if self.size == 1:
            return write()
        result, failure = self.attempt(write) if self.is_main else (None, None)
        with self._without_deadline():  # encoding a large text may take rank 0 a long time
            self.agree(failure)
        if not self.is_main:
            result, failure = self.attempt(read)
        self.agree(failure)
        return result

    @contextlib.contextmanager
    def _without_deadline(self) -> Iterator[None]:
        """Collectives in the block wait as long as they need: a rank that dies meanwhile is
        stopped by mpiexec, one that fails says so in the agreement."""
        group = self.group if self.group is not None else dist.process_group._world
        before, group.timeout = group.timeout, math.inf
        try:
            yield
        finally:
            group.timeout = before

    def from_main(self, make: Callable[[], T], encode: Callable[[T], Any],
                  decode: Callable[[Any], T]) -> T:
        """Rank 0's ``make()`` on every rank: made on rank 0 alone (the others wait), sent
        as ``encode(value)`` (JSON data), rebuilt by ``decode`` on the others."""
        value = self.main_first(make, lambda: None)
        if self.size == 1:
            return value
        sent = dist.broadcast_object(encode(value) if self.is_main else None, 0, self.group)
        return value if self.is_main else decode(sent)

    def check_config(self, items: list[tuple[str, Any]]) -> None:
        """A collective: stop every rank with a usage error naming the first flag whose
        value differs from rank 0's, and both values."""
        if self.size == 1:
            return
        try:
            dist.process_group.check_same_on_all_ranks(items, "run's flags", self.group)
        except dist.DistributedError as e:  # raised on every rank alike
            self.stop_together(2, f"{self.prog}: error: {e} (every rank must be started with "
                                  "the same flags and text)")


SINGLE = World()


def default_threads(local_ranks: int) -> int:
    """The cores this process may use, shared evenly among the ranks on this host."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, cores // max(1, local_ranks))


# Flags that only rank 0's printing and sampling use, or that may differ per host: not compared.
NOT_COMPARED = {"threads", "capture", "compile", "config", "plot", "prompt", "max_new_tokens",
                "temperature", "top_k", "num_samples", "checkpoint", "sample", "log_interval"}


def file_sha256(path: str) -> str:
    """The SHA-256 of the file's bytes, or what stops it being read."""
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError as e:
        return f"unreadable ({e.strerror or e})"
    return digest.hexdigest()


def run_identity(args: argparse.Namespace) -> list[tuple[str, Any]]:
    """What every rank of a run must agree on, as (flag, value): every flag that changes the
    numbers (all but NOT_COMPARED), ``--text`` as its file's SHA-256 (the path may differ
    between hosts) and ``--out-dir`` resolved."""
    items = []
    for dest, value in sorted(vars(args).items()):
        if dest in NOT_COMPARED:
            continue
        if dest == "text":
            value = f"sha256 {file_sha256(value)[:16]} ({value})"
        elif dest == "out_dir":
            value = str(Path(value).resolve())
        items.append(("--" + dest.replace("_", "-"), value))
    return items


def shared_tokenizer(tok: Any) -> Any:
    """A run's tokenizer (None, a CharVocab or a BPETokenizer) as JSON data, to send it."""
    if isinstance(tok, BPETokenizer):
        return {"bpe": tok.to_json(), "source": tok.source}
    return None if tok is None else {"chars": tok.chars}


def tokenizer_from_shared(sent: Any) -> Any:
    """The tokenizer :func:`shared_tokenizer` sent."""
    if sent is None:
        return None
    if "bpe" in sent:
        return BPETokenizer.from_json(sent["bpe"], sent["source"])
    return CharVocab(sent["chars"])


def _raise_usage_exit(status: int = 0, message: str | None = None) -> None:
    raise UsageExit(status, message or "")


# How long a rank that leaves before the ranks agreed on the run waits for the others to
# leave too (every rank refusing the same flags) before it stops them.
LEAVE_WAIT_SECONDS = 3.0


class _EarlyExitGuard:
    """Between MPI's start and the ranks' agreement on the run (:func:`connect`), a rank
    that exits (argparse's usage errors exit without an exception) stops every rank: at exit
    it waits up to LEAVE_WAIT_SECONDS in a barrier of its own communicator, which every rank
    leaving at the same point also reaches; if some rank does not come (it went on, into
    the agreement), it aborts every rank, with exit code 2 (a usage error)."""

    def __init__(self) -> None:
        self.comm: Any = None

    def arm(self) -> None:
        mpi = dist.process_group._world.comm
        self.comm = mpi.comm.Dup()  # collective: every rank starts MPI here
        atexit.register(self._at_exit)

    def disarm(self) -> None:
        self.comm = None

    def _at_exit(self) -> None:
        if self.comm is None:
            return
        request = self.comm.Ibarrier()
        deadline = time.monotonic() + LEAVE_WAIT_SECONDS
        while not request.Test():
            if time.monotonic() > deadline:
                dist.process_group.abort_all_ranks(
                    f"minigrad.distributed: rank {dist.get_rank()} of "
                    f"{dist.get_world_size()} stopped before the run started (see its "
                    "message above); stopping every rank\n", 2)
            time.sleep(1e-3)


_early_exit = _EarlyExitGuard()


def join_launched_ranks() -> None:
    """Under mpiexec (several ranks launched), start MPI now, before the flags are read, so
    that a rank refusing its flags stops the others instead of leaving them inside MPI's
    start-up (see :class:`_EarlyExitGuard`). Nothing happens in a single process."""
    if launched_world_size() > 1 and not dist.is_initialized():
        dist.init_process_group()
        _early_exit.arm()


def connect(args: argparse.Namespace, parser: argparse.ArgumentParser, batch_size: int,
            group: dist.ProcessGroup | None = None) -> tuple[World, int | None]:
    """Join the MPI world when mpiexec started several ranks (else :data:`SINGLE`), check
    that every rank runs the same configuration (:func:`run_identity`) and that
    ``batch_size`` splits evenly, set this rank's threads (``--threads``, else cores on this
    host / ranks on this host) and silence the standard output of ranks other than 0.
    From here on ``parser``'s usage errors raise :class:`UsageExit` (see the module
    docstring). Returns the world and the thread count set (None: left as it was).

    ``group``: ranks that are not MPI's processes (the tests' threads of one process): the
    same checks, but the process's standard output and threads are left as they are."""
    threads = args.threads
    if group is None and launched_world_size() <= 1:
        if threads is not None:
            set_num_threads(threads)
        return SINGLE, threads
    if group is None:
        dist.init_process_group()
    parser.exit = _raise_usage_exit  # type: ignore[method-assign]
    world = World(dist.get_world_size(group), dist.get_rank(group), group, prog=parser.prog)
    if not world.is_main and group is None:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (for the life of the process)
    world.check_config(run_identity(args))
    try:
        dist.split_sizes(batch_size, world.size)
    except ValueError as e:  # the same on every rank: they agreed on --batch-size
        world.stop_together(2, f"{parser.prog}: error: --batch-size: {e}")
    if group is None:
        _early_exit.disarm()  # from here on every exit is agreed or aborts (module docstring)
    if group is None:
        threads = threads if threads is not None else default_threads(
            dist.get_local_world_size())
        set_num_threads(threads)
    return world, threads

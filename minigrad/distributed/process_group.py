"""The MPI world: who am I, how many are we, and collectives that cannot hang.

Run a program on N processes with ``mpiexec -n N python program.py`` (on several hosts with a
hostfile, ``mpiexec -f hosts -n N ...``). Each process is a *rank* 0..N-1 of
``MPI.COMM_WORLD``; :func:`init_process_group` connects to it (mpi4py is imported there, not
when minigrad is). A :class:`ProcessGroup` is the ranks over a
:class:`~minigrad.distributed.communicator.Communicator` (MPI's, by default) with a deadline;
every collective takes ``group=`` (None: the default group), as ``torch.distributed``'s.

Failure (no rank waits forever):

- every collective here is started non-blocking and then polled (``Test``) until a deadline
  (``timeout`` of :func:`init_process_group`, 600 s by default): a rank whose partner died
  or stopped calling the collective raises :class:`DistributedError` naming itself and the
  operation, instead of blocking forever;
- an exception that nobody catches, on any rank, prints its traceback with the rank's number
  (or, for an exception that carries ``exit_message`` and ``exit_code``, as the trainer's
  usage errors do, that message and code) and calls ``COMM_WORLD.Abort``, which makes
  ``mpiexec`` stop every rank at once;
- a rank killed by a signal is noticed by ``mpiexec`` (MPICH's hydra stops the others and
  names the rank); on launchers that do not, the deadline above still stops the survivors.
"""

from __future__ import annotations

import importlib
import json
import os
import socket
import sys
import time
import traceback
from typing import Any

import numpy as np

from ..tensor import Tensor
from .communicator import Communicator, MPICommunicator

# How long a failing rank waits between writing why it fails and aborting every rank.
ABORT_GRACE_SECONDS = 0.5

INSTALL_HINT = (
    "distributed training needs mpi4py and an MPI library: pip install 'minigrad-autodiff[mpi]' "
    "(mpi4py and mpich from the package index), then run with mpiexec -n N"
)


class DistributedError(RuntimeError):
    """A collective could not complete (a rank died or diverged) or the ranks disagree."""


class ProcessGroup:
    """The ranks this process trains with, over a :class:`Communicator`, and the deadline of
    every collective. :func:`init_process_group` makes the default one (MPI's world); a
    test may build one on another communicator and pass it as ``group=``."""

    def __init__(self, comm: Communicator | None = None, timeout: float = 600.0) -> None:
        self.comm = comm
        self.timeout = timeout

    # who this rank is, as its communicator says (before init_process_group: a world of one,
    # the Communicator base class's defaults)
    rank = property(lambda self: (self.comm or _ALONE).rank)
    size = property(lambda self: (self.comm or _ALONE).size)
    local_rank = property(lambda self: (self.comm or _ALONE).local_rank)
    local_size = property(lambda self: (self.comm or _ALONE).local_size)
    processes = property(lambda self: (self.comm or _ALONE).processes)


_ALONE = Communicator()
_world = ProcessGroup()


def _import_mpi() -> Any:
    """mpi4py's MPI module, imported now (initialising MPI), or an ImportError naming the extra."""
    try:
        return importlib.import_module("mpi4py.MPI")
    except ImportError as e:
        raise ImportError(f"{INSTALL_HINT} ({e})") from e


def is_initialized() -> bool:
    """True once :func:`init_process_group` has run in this process."""
    return _world.comm is not None


def init_process_group(timeout: float = 600.0, abort_on_exception: bool = True) -> None:
    """Connect this process to the MPI world (``mpiexec`` set it up); calling again only
    updates ``timeout``.

    ``timeout``: seconds any collective may wait for the other ranks before raising
    :class:`DistributedError`. ``abort_on_exception``: an uncaught exception on this rank
    prints its traceback and aborts every rank (see the module docstring); without it a
    failing rank leaves the others waiting until their deadline."""
    if timeout <= 0:
        raise ValueError(f"timeout must be positive seconds, got {timeout}")
    _world.timeout = float(timeout)
    if is_initialized():
        return
    MPI = _import_mpi()
    comm = MPICommunicator(MPI, MPI.COMM_WORLD)
    if comm.size > 1:
        # every rank's process id and host, so that a message can name a rank that died:
        # MPICH's mpiexec reports a killed process by its PID only
        comm.processes = MPI.COMM_WORLD.allgather((os.getpid(), socket.gethostname()))
        if comm.rank == 0:
            sys.stderr.write("minigrad.distributed: " + ", ".join(
                f"rank {r} = pid {pid} on {host}"
                for r, (pid, host) in enumerate(comm.processes)) + "\n")
            sys.stderr.flush()
    _world.comm = comm
    if abort_on_exception:
        sys.excepthook = _abort_all_ranks(sys.excepthook)


def abort_all_ranks(message: str, code: int, group: ProcessGroup | None = None) -> None:
    """Write ``message`` (this rank's reason to stop) and stop every rank with exit code
    ``code``; in a world of one, only write it."""
    g = group or _world
    sys.stderr.write(message)
    sys.stderr.flush()
    sys.stdout.flush()
    if g.size > 1:
        # the message is in the pipe to mpiexec's forwarding proxy, which the abort kills:
        # give it a moment to pass the message on (without, CI once lost rank 1's line)
        time.sleep(ABORT_GRACE_SECONDS)
        g.comm.abort(code)
        os._exit(code)  # MPICH's abort may return before mpiexec's kill arrives: stop here


def _abort_all_ranks(previous: Any) -> Any:
    """An excepthook: show why this rank stops under its name, then stop every rank.

    An exception that carries a ready message and an exit code (``exit_message`` and
    ``exit_code`` attributes, as the trainer's usage errors under mpiexec) is shown as that
    message; any other as its traceback, with exit code 1."""
    def hook(kind: type, value: BaseException, tb: Any) -> None:
        said = getattr(value, "exit_message", None)
        if said is not None:
            text, code = f"{said.rstrip()} [rank {_world.rank} of {_world.size}]\n", \
                int(getattr(value, "exit_code", 1))
        else:
            text = "".join(traceback.format_exception(kind, value, tb)) + (
                f"minigrad.distributed: rank {_world.rank} of {_world.size} failed with "
                f"{kind.__name__}: {value}; aborting all ranks\n")
            code = 1
        abort_all_ranks(text, code)
        previous(kind, value, tb)
    return hook


def _need_world(group: ProcessGroup | None = None) -> ProcessGroup:
    """``group``, else the default group once :func:`init_process_group` has run."""
    if group is not None:
        return group
    if not is_initialized():
        raise RuntimeError(
            "minigrad.distributed is not initialized: call "
            "minigrad.distributed.init_process_group() first"
        )
    return _world


def get_rank(group: ProcessGroup | None = None) -> int:
    """This process's rank, 0..world_size-1."""
    return _need_world(group).rank


def get_world_size(group: ProcessGroup | None = None) -> int:
    """How many ranks run the program."""
    return _need_world(group).size


def get_local_rank() -> int:
    """This process's rank among the ranks on the same host."""
    return _need_world().local_rank


def get_local_world_size() -> int:
    """How many ranks run on this host (they share its cores)."""
    return _need_world().local_size


def wait(requests: list, what: str, group: ProcessGroup | None = None) -> None:
    """Wait for requests, polling them until the deadline; raise DistributedError then.

    Polling (``testall``) also drives MPICH's progress of the collectives: without a
    progress thread, a non-blocking collective advances only inside MPI calls."""
    w = _need_world(group)
    deadline = time.monotonic() + w.timeout
    pause = 0.0
    while not w.comm.testall(requests):
        if time.monotonic() > deadline:
            dead = _dead_ranks_on_this_host(w)
            raise DistributedError(
                f"rank {w.rank} of {w.size}: {what} did not complete within {w.timeout:g} s; "
                + (f"rank {', '.join(map(str, dead))} no longer runs" if dead else
                   "another rank has probably died or stopped (see its message above)")
            )
        time.sleep(pause)  # 0 first (a yield), then up to 1 ms: short waits stay short
        pause = min(1e-3, pause * 2 + 1e-5)


def _dead_ranks_on_this_host(w: ProcessGroup) -> list[int]:
    """The ranks on this host whose process has ended (gone, or a zombie not yet reaped)."""
    host = socket.gethostname()
    dead = []
    for r, (pid, where) in enumerate(w.processes):
        if where != host or r == w.rank:
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    dead.append(r)
        except FileNotFoundError:
            dead.append(r)
        except OSError:  # no /proc (not Linux): cannot tell
            pass
    return dead


_OPS = ("sum", "mean", "max", "min")


def all_reduce(value: Any, op: str = "sum", group: ProcessGroup | None = None) -> Any:
    """Combine ``value`` across ranks: ``op`` "sum", "mean", "max" or "min".

    A Tensor or a writable contiguous ndarray is overwritten with the result, as
    ``torch.distributed.all_reduce`` does, and returned; a Python number returns a float.
    Meant for metrics (losses, counts); gradients go through DistributedDataParallel."""
    if op not in _OPS:
        raise ValueError(f"all_reduce: op must be one of {_OPS}, got {op!r}")
    w = _need_world(group)
    number = isinstance(value, (int, float, np.number))
    if number:
        arr = np.array([value], dtype=np.float64)
    else:
        arr = value.data if isinstance(value, Tensor) else value
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"all_reduce takes a Tensor, an ndarray or a number, got "
                        f"{type(value).__name__}")
    if not (arr.flags.c_contiguous and arr.flags.writeable):
        raise ValueError("all_reduce writes in place: pass a writable C-contiguous array")
    if op == "mean" and arr.dtype.kind != "f":
        raise TypeError(f"all_reduce(op='mean') needs floating data, got {arr.dtype}")
    if w.size > 1:
        wait([w.comm.iallreduce(arr, "sum" if op == "mean" else op)], f"all_reduce({op})", w)
    if op == "mean":
        arr /= w.size
    if isinstance(value, Tensor):
        value._bump_version()
    return float(arr[0]) if number else value


def broadcast(value: Any, src: int = 0, group: ProcessGroup | None = None) -> Any:
    """Overwrite ``value`` (a Tensor or a writable contiguous ndarray) on every rank with
    rank ``src``'s; returns it."""
    w = _need_world(group)
    arr = value.data if isinstance(value, Tensor) else value
    if not isinstance(arr, np.ndarray) or not (arr.flags.c_contiguous and arr.flags.writeable):
        raise ValueError("broadcast writes in place: pass a Tensor or a writable C-contiguous "
                         f"ndarray, got {type(value).__name__}")
    if w.size > 1:
        wait([w.comm.ibcast(arr, src)], f"broadcast from rank {src}", w)
        if isinstance(value, Tensor):
            value._bump_version()
    return value


def barrier(group: ProcessGroup | None = None) -> None:
    """Return once every rank has called barrier() (or raise at the deadline)."""
    w = _need_world(group)
    if w.size > 1:
        wait([w.comm.ibarrier()], "barrier", w)


def _check_json_data(obj: Any, where: str = "obj") -> None:
    """Raise TypeError unless ``obj`` is JSON data: None, bool, int, float, str, and lists,
    tuples and str-keyed dicts of these (``json.dumps`` would turn an int key into a str one,
    silently; it is refused here instead)."""
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return
    if isinstance(obj, (list, tuple)):
        for i, item in enumerate(obj):
            _check_json_data(item, f"{where}[{i}]")
        return
    if isinstance(obj, dict):
        for key, item in obj.items():
            if not isinstance(key, str):
                raise TypeError(f"all_gather_object: {where} has the key {key!r} of type "
                                f"{type(key).__name__}; dict keys must be str")
            _check_json_data(item, f"{where}[{key!r}]")
        return
    raise TypeError(f"all_gather_object sends JSON data (None, bool, int, float, str, lists, "
                    f"tuples, str-keyed dicts); {where} is a {type(obj).__name__}")


def _lists_to_tuples(obj: Any) -> Any:
    """``obj`` as read back from JSON, with every list (JSON's only sequence) a tuple again."""
    if isinstance(obj, list):
        return tuple(_lists_to_tuples(item) for item in obj)
    if isinstance(obj, dict):
        return {key: _lists_to_tuples(item) for key, item in obj.items()}
    return obj


def all_gather_object(obj: Any, group: ProcessGroup | None = None) -> list:
    """Every rank's ``obj``, in rank order, on every rank.

    ``obj`` travels as JSON (never pickle: nothing a rank receives can run code), so it must
    be JSON data: None, bool, int, float, str, and lists, tuples and str-keyed dicts of these
    (a TypeError names anything else). Every sequence comes back as a tuple, on every rank
    and with any number of ranks: ``[("shape", (16, 24))]`` comes back as
    ``(("shape", (16, 24)),)``, so values compare and print as the tuples callers made."""
    _check_json_data(obj)
    payload = json.dumps(obj).encode("utf-8")
    w = _need_world(group)
    if w.size == 1:
        return [_lists_to_tuples(json.loads(payload))]
    data = np.frombuffer(payload, dtype=np.uint8)
    sizes = np.zeros(w.size, dtype=np.int64)
    wait([w.comm.iallgather(np.array([data.size], dtype=np.int64), sizes)], "all_gather sizes",
         w)
    out = np.empty(int(sizes.sum()), dtype=np.uint8)
    wait([w.comm.iallgatherv(data, out, sizes.tolist())], "all_gather", w)
    ends = np.cumsum(sizes)
    return [_lists_to_tuples(json.loads(out[e - s:e].tobytes())) for s, e in zip(sizes, ends)]


def broadcast_object(obj: Any, src: int = 0, group: ProcessGroup | None = None) -> Any:
    """Rank ``src``'s ``obj`` on every rank (the others pass anything, e.g. None). JSON data
    only, as :func:`all_gather_object` (sequences come back as tuples)."""
    w = _need_world(group)
    if w.rank == src:
        _check_json_data(obj)
    if w.size == 1:
        return _lists_to_tuples(json.loads(json.dumps(obj)))
    payload = json.dumps(obj).encode("utf-8") if w.rank == src else b""
    size = np.array([len(payload)], dtype=np.int64)
    wait([w.comm.ibcast(size, src)], f"broadcast_object size from rank {src}", w)
    data = np.zeros(int(size[0]), dtype=np.uint8)
    if w.rank == src:
        data[:] = np.frombuffer(payload, dtype=np.uint8)
    wait([w.comm.ibcast(data, src)], f"broadcast_object from rank {src}", w)
    return _lists_to_tuples(json.loads(data.tobytes()))


def check_same_on_all_ranks(items: list[tuple[str, Any]], what: str,
                            group: ProcessGroup | None = None) -> None:
    """Raise DistributedError, on every rank, unless every rank passed the same ``items``
    (ordered (name, value) pairs): the message names the first rank and the first item that
    differ from rank 0's."""
    gathered = all_gather_object(list(items), group)
    ref = gathered[0]
    for rank, mine in enumerate(gathered[1:], start=1):
        if mine == ref:
            continue
        ref_d, mine_d = dict(ref), dict(mine)
        for name, value in ref:
            if name not in mine_d:
                diff = f"{name} exists on rank 0 but not on rank {rank}"
                break
            if mine_d[name] != value:
                diff = f"{name} is {mine_d[name]} on rank {rank} but {value} on rank 0"
                break
        else:
            extra = next((n for n, _ in mine if n not in ref_d), None)
            diff = (f"{extra} exists on rank {rank} but not on rank 0" if extra is not None
                    else f"the order differs between rank 0 and rank {rank}")
        raise DistributedError(f"the ranks disagree on the {what}: {diff}")

"""A cold Numba cache without the wait: kernels compile in a second process, NumPy answers meanwhile.

The machinery behind ``minigrad.cold_start`` (which documents the choice a user makes, and
is the public door to it). On a cold cache every fast kernel compiles the first time it
runs, 0.3-1 s each: a script's first GPT training step would wait 20 s or more. Instead, by
default (compile mode ``'background'``):

1. a fast primitive (a method of :class:`~minigrad.backends.fast.Fast`) runs its kernels
   inside :func:`run_primitive`. When one of them is neither in memory nor in Numba's
   disk cache, the Numba compile event that would start compiling it raises
   :class:`CompilingInBackground` instead, before anything is computed or written;
2. that kernel and its argument types (its *signature*: dtypes, dimensions, memory layout)
   go to a worker process (``python -m minigrad.kernels.runtime.background_compile``,
   started at the first such miss), which compiles it into the disk cache;
3. meanwhile the primitive answers with its reference method (plain NumPy: the same math,
   slower), so the first training step starts at once;
4. every later call tries the kernel again: as soon as the worker has written it, Numba
   loads it from the disk cache (milliseconds) and the fast kernel answers from then on.
   Each kernel switches on its own, at the start of a primitive call;
5. a primitive that runs several kernels stops at the first one that is missing, so the
   ones after it are asked for only once that one is ready. :func:`wait_for_kernels` (which
   the trainer calls at the end of a run that started on a cold cache) therefore runs
   again, on copies of its arguments and discarding what it returns, the last call of each
   primitive that a reference answer stood in for, waits for what that asks for, and
   repeats until those calls miss nothing: the next run finds every kernel cached.

The same holds for the trainer (``minigrad-train``) and for any script: one mechanism. The
active backend stays ``fast`` throughout (``minigrad.get_backend()`` says so and a user's
choice is never changed); only the answers of the primitives whose kernels are still
compiling come from the reference code. Saved arrays have the same form on both backends,
so a forward on one and its backward on the other is safe; the results agree to within
float32 rounding, which tests/kernels/test_backends.py holds the two backends to, but a run
that starts on a cold cache is not bit-for-bit the run a warm cache gives. Compile mode
``'wait'`` (``MINIGRAD_COMPILE=wait``, ``minigrad.cold_start.set_compile_mode``) turns
this off: kernels compile in the process that calls them, and runs are repeatable from the
first one. Nothing here applies to the reference backend, to ``NUMBA_DISABLE_JIT=1``
(nothing compiles), or inside the explicit blocks of ``disk_cache.py`` (``cached_only``,
``announce_compiles``), which say themselves how kernels may compile.

Details that keep this safe:

- the worker compiles each request under an exclusive lock file in the cache folder, and
  Numba loads a kernel that another process has already cached instead of compiling it
  again, so two processes starting on the same cold cache do not compile twice at once;
- a kernel the worker reports compiled that still cannot be loaded (an unwritable cache
  folder), or that the worker failed on, compiles in this process at its next call;
- NumPy's BLAS runs on one thread while a worker runs (the worker takes the other core;
  two BLAS threads beside a busy process made each product several times slower);
- a process forked while a worker runs forgets it (its own misses start its own worker);
- when this process exits, the worker still finishes what it was asked and then exits,
  so the next run finds those kernels cached; a Ctrl-C in the terminal stops both;
- :func:`wait_for_kernels` blocks until every requested kernel is compiled (tests, and
  a script that wants the fast kernels from some point on).
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import select
import subprocess
import sys
import tempfile
import threading
import warnings
from collections.abc import Callable, Iterator

import numpy as np
from numba.core import config, event

from ...cold_start import COMPILE_ENV, compile_mode
from ...num_threads import set_openblas_threads
from . import disk_cache, settings, signature_text
from .cache_location import cache_root

try:
    import fcntl
except ImportError:  # not POSIX: no lock file (two cold processes may compile twice)
    fcntl = None

_COMPILE = "numba:compile"
_LOCK_NAME = ".minigrad-compile.lock"


class CompilingInBackground(disk_cache.KernelNotCached):
    """A fast primitive's kernel is not compiled yet: it was sent to the worker process and
    the primitive's reference method answers this call."""


def _key(ev: event.Event) -> tuple:
    """(module, qualified name, argument types): one compiled version of one kernel."""
    fn = ev.data["dispatcher"].py_func
    return fn.__module__, fn.__qualname__, tuple(ev.data["args"])


# ------------------------------------------------------------------ this process's side ---
def compiler_process_options() -> dict:
    """``env`` and ``cwd`` for the worker process that compiles kernels into this process's
    Numba cache: the same cache folder, given as an absolute path, and kernels compiled
    where it runs (``MINIGRAD_COMPILE=wait``)."""
    env = dict(os.environ, **{COMPILE_ENV: "wait"})
    for name in ("NUMBA_CACHE_DIR", "MINIGRAD_CACHE_DIR"):
        if env.get(name):
            env[name] = os.path.abspath(env[name])
    # It runs in the folder that holds this minigrad package: ``python -m`` puts its working
    # directory first on sys.path, so from a checkout's root an installed minigrad (a wheel)
    # would otherwise compile the checkout's kernels, not its own.
    package_parent = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))))
    return {"env": env, "cwd": package_parent}


class _Worker:
    """One worker process and the requests it has not answered yet."""

    def __init__(self) -> None:
        self.log = tempfile.TemporaryFile()  # noqa: SIM115  (its stderr: quoted if it dies)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "minigrad.kernels.runtime.background_compile"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log,
            **compiler_process_options())
        os.set_blocking(self.process.stdout.fileno(), False)
        self.pending: dict[int, tuple] = {}
        self.received = b""
        self.blas_threads = set_openblas_threads("numpy", 1)

    def send(self, number: int, key: tuple) -> None:
        module, qualname, args = key
        text = signature_text.to_text(args)  # TypeError: a type with no text form
        self.process.stdin.write(f"{number} {module} {qualname} {text}\n".encode())
        self.process.stdin.flush()
        self.pending[number] = key

    def read(self, block: bool) -> bool:
        """Take in the worker's answers (waiting for one if ``block``); False once it exited."""
        fd = self.process.stdout.fileno()
        if block:
            select.select([fd], [], [])
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return True
        if not chunk:
            if self.pending:
                self.log.seek(0)
                tail = " | ".join(self.log.read().decode(errors="replace").strip()
                                  .splitlines()[-3:])
                warnings.warn(f"minigrad's background kernel compile stopped (exit code "
                              f"{self.process.wait()}: {tail}); the kernels it had not "
                              "compiled compile in this process", RuntimeWarning, stacklevel=2)
            return False
        self.received += chunk
        *lines, self.received = self.received.split(b"\n")
        for line in lines:
            status, number = line.decode().split(" ", 2)[:2]
            key = self.pending.pop(int(number))
            if status == "ok":
                _done.add(key)
            else:
                _compile_here.add(key)
        return True

    def finish(self) -> None:
        """Close its input (it exits once idle) and give NumPy's BLAS its threads back."""
        with contextlib.suppress(OSError):
            self.process.stdin.close()
        if self.blas_threads is not None:
            set_openblas_threads("numpy", self.blas_threads)
        for key in self.pending.values():  # asked, never answered: compile those here
            _compile_here.add(key)
        self.pending.clear()


_worker: _Worker | None = None
_lock = threading.Lock()
_requests = 0
_done: set[tuple] = set()  # compiled by a worker: loadable from the disk cache
_compile_here: set[tuple] = set()  # a worker failed on these, or they would not load
_inside = threading.local()  # .depth: fast primitives open; .allowed: a compile let through
#: calls of fast primitives answered by their reference method (``cold_start.reference_answers``)
reference_answers = 0
_said = False
#: (primitive, argument types) -> (its kernel version, args, kwargs): the last call of each
#: that a reference answered, run again by wait_for_kernels (entries leave when a call of
#: the same types runs its kernels through)
_unfinished: dict[tuple, tuple] = {}


def _request(key: tuple) -> bool:
    """Send ``key`` to the worker (starting one if none runs), once; False if no worker
    could take it (it could not start, or it died): the kernel then compiles here."""
    global _worker, _requests, _said
    with _lock:
        if _worker is not None and key in _worker.pending.values():
            return True
        try:
            if _worker is None:
                _worker = _Worker()
                if not _said and sys.stderr.isatty():
                    _said = True
                    print("minigrad: compiling fast kernels in a background process (first "
                          "use with this Numba cache); until each is ready, NumPy answers for "
                          f"it. {COMPILE_ENV}=wait compiles them here instead.",
                          file=sys.stderr, flush=True)
            _requests += 1
            _worker.send(_requests, key)
        except TypeError:  # argument types the text form cannot carry: compile here
            _compile_here.add(key)
            return False
        except OSError:
            if _worker is not None:
                _worker.finish()
                _worker = None
            _compile_here.add(key)
            return False
    return True


def poll(block: bool = False) -> None:
    """Take in the worker's answers; when it has answered everything (or exited), let it go.
    Cheap when no worker runs: the fast backend calls this before each primitive."""
    global _worker
    if _worker is None:
        return
    with _lock:
        worker = _worker
        if worker is None:
            return
        alive = worker.read(block)
        while alive and block and worker.pending:
            alive = worker.read(block)
        if not alive or not worker.pending:
            worker.finish()
            _worker = None


def compiling() -> bool:
    """Whether a worker is compiling kernels for this process right now, or a primitive call
    that a reference answered has not yet run its kernels through (so that
    :func:`wait_for_kernels` still has kernels to bring into the cache)."""
    poll()
    return _worker is not None or bool(_unfinished)


#: passes of wait_for_kernels over the unfinished calls: each pass that misses a kernel
#: asks for at least one more, so real chains end long before this
_MAX_PASSES = 64


def wait_for_kernels() -> None:
    """Block until every kernel this process's primitives need is compiled: those sent to the
    worker, then those that the primitive calls a reference answered run after them (each
    such call is run again on copies of its arguments until it misses none). From then on
    these kernels load from the disk cache at their next call."""
    poll(block=True)
    for _ in range(_MAX_PASSES):
        if not _unfinished:
            return
        calls = list(_unfinished.values())
        _unfinished.clear()
        for kernel_version, args, kwargs in calls:
            _run_again(kernel_version, args, kwargs)
        poll(block=True)


def _types(value: object) -> object:
    """What a kernel's signature (and a primitive's route) sees of an argument: an array's
    dtype, shape, contiguity and writeability; tuples item by item; other values by type."""
    if isinstance(value, np.ndarray):
        flags = value.flags
        return value.dtype, value.shape, flags.c_contiguous, flags.f_contiguous, flags.writeable
    if type(value) in (tuple, list):
        return tuple(_types(v) for v in value)
    if type(value) is dict:
        return tuple((k, _types(v)) for k, v in value.items())
    return type(value)


def _arrays(value: object) -> Iterator[np.ndarray]:
    """The arrays in ``value``, an argument (arrays inside tuples and lists too)."""
    if isinstance(value, np.ndarray):
        yield value
    elif type(value) in (tuple, list):
        for v in value:
            yield from _arrays(v)


def _memory(a: np.ndarray) -> tuple:
    """(the array that owns a's memory, where a's first and last bytes lie in it + 1)."""
    root = a
    while isinstance(root.base, np.ndarray):
        root = root.base
    at = a.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    low = sum(min(0, (n - 1) * s) for n, s in zip(a.shape, a.strides))
    high = sum(max(0, (n - 1) * s) for n, s in zip(a.shape, a.strides)) + a.itemsize
    return root, at + low, at + high


class _Copies:
    """Copies of a call's arrays with their strides: the bytes each owning array holds under
    them, copied once, so views of one array (q, k, v of one projection) stay views of one
    copy, and a small view of a large array copies only its part."""

    def __init__(self, args: tuple, kwargs: dict) -> None:
        self.spans: dict[int, list] = {}  # id(root) -> [root, first byte, end byte]
        for a in _arrays((args, tuple(kwargs.values()))):
            if a.size:
                root, low, high = _memory(a)
                span = self.spans.setdefault(id(root), [root, low, high])
                span[1], span[2] = min(span[1], low), max(span[2], high)
        self.buffers: dict[int, tuple] = {}

    def of(self, value: object) -> object:
        """``value`` with each array replaced by its copy."""
        if type(value) in (tuple, list):
            return type(value)(self.of(v) for v in value)
        if not isinstance(value, np.ndarray):
            return value
        root, _, _ = _memory(value)
        if not value.size or not (root.flags.c_contiguous or root.flags.f_contiguous):
            return np.copy(value, order="K")  # memory NumPy did not lay out: a plain copy
        if id(root) not in self.buffers:
            _, low, high = self.spans[id(root)]
            low -= low % 64  # the copy starts as aligned as the original
            raw = root.reshape(-1, order="A").view(np.uint8)
            self.buffers[id(root)] = (low, raw[low:high].copy())
        low, buffer = self.buffers[id(root)]
        at = value.__array_interface__["data"][0] - root.__array_interface__["data"][0]
        copy = np.ndarray(value.shape, value.dtype, buffer, at - low, value.strides)
        copy.flags.writeable = value.flags.writeable
        return copy


def _run_again(kernel_version: Callable, args: tuple, kwargs: dict) -> None:
    """Run a primitive's kernel version once more on copies of ``args`` (it may write into
    them), for the kernels it asks for; what it returns is dropped."""
    copies = _Copies(args, kwargs)
    run_primitive(kernel_version, None, *copies.of(args),
                  **{k: copies.of(v) for k, v in kwargs.items()})


class _SendToWorker(event.Listener):
    """Numba's compile event, inside a fast primitive: send the kernel to the worker."""

    def on_start(self, ev: event.Event) -> None:
        if getattr(_inside, "allowed", None) is not None:  # part of a compile let through
            return
        if (not getattr(_inside, "depth", 0) or disk_cache.explicit_block_open()
                or not disk_cache.is_minigrad(ev) or compile_mode() != "background"):
            return
        key = _key(ev)
        if key in _done:  # compiled by a worker, and still not loadable: compile here
            _compile_here.add(key)
        if key in _compile_here:
            _inside.allowed = ev.data
            return
        if not _request(key):
            _inside.allowed = ev.data
            return
        raise CompilingInBackground(f"{disk_cache.kernel_name(ev)} is compiling in the "
                                    f"background")

    def on_end(self, ev: event.Event) -> None:
        if getattr(_inside, "allowed", None) is ev.data:
            _inside.allowed = None


_listener: _SendToWorker | None = None


def install() -> None:
    """Listen to Numba's compile events (once per process; the fast backend calls this when
    it loads its kernels, before the first-compile notice, so that a kernel sent to the
    worker is not announced as compiling here)."""
    global _listener
    if _listener is None:
        _listener = _SendToWorker()
        event.register(_COMPILE, _listener)


def run_primitive(kernel_version: Callable, reference_version: Callable, *args, **kwargs):
    """A fast primitive's answer: ``kernel_version(*args, **kwargs)``, or, when one of its
    kernels was sent to the worker instead of compiling here, ``reference_version(*args,
    **kwargs)``. The miss is raised before a kernel runs, so nothing is half-written."""
    global reference_answers
    if _worker is not None:
        poll()
    # during a cold start only: which call of which types this is
    key = (kernel_version, _types(args), _types(kwargs)) if _unfinished or _worker else None
    _inside.depth = getattr(_inside, "depth", 0) + 1
    try:
        answer = kernel_version(*args, **kwargs)
    except CompilingInBackground:
        key = key or (kernel_version, _types(args), _types(kwargs))
        _unfinished[key] = (kernel_version, args, kwargs)
        if reference_version is None:  # run again by wait_for_kernels: no answer wanted
            return None
        reference_answers += 1
        return reference_version(*args, **kwargs)
    finally:
        _inside.depth -= 1
    if key is not None:
        _unfinished.pop(key, None)
    return answer


def _forget_worker_in_child() -> None:
    """A forked child does not share its parent's worker (the pipes stay the parent's)."""
    global _worker, _lock
    _worker, _lock = None, threading.Lock()
    _inside.__dict__.clear()
    _unfinished.clear()


os.register_at_fork(after_in_child=_forget_worker_in_child)


@atexit.register
def _let_the_worker_finish() -> None:
    """At exit: close the worker's input; it compiles what it was asked, then exits."""
    if _worker is not None:
        with contextlib.suppress(OSError):
            _worker.process.stdin.close()


# ------------------------------------------------------------------------ the worker ---
@contextlib.contextmanager
def _cache_lock() -> Iterator[None]:
    """An exclusive lock on the cache folder: one process compiles a kernel at a time."""
    if fcntl is None:
        yield
        return
    folder = config.CACHE_DIR or cache_root()
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, _LOCK_NAME), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _dispatcher(module: str, qualname: str):
    """The kernel (a Numba dispatcher) named ``module`` + ``qualname``."""
    obj = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def main() -> int:
    """The worker: read ``number module qualname signature`` lines; compile each kernel
    into the disk cache (or load it, if another process got there first); answer
    ``ok number`` or ``failed number why``."""
    settings.ensure_ready()  # the threading layer this process's parent uses
    for line in sys.stdin:
        number, module, qualname, text = line.split()
        try:
            args = signature_text.from_text(text)
            with _cache_lock():
                _dispatcher(module, qualname).compile(args)
            answer = f"ok {number}"
        except Exception as e:  # noqa: BLE001  (reported; the parent compiles it itself)
            answer = f"failed {number} {type(e).__name__}: {e}".replace("\n", " ")
        try:
            print(answer, flush=True)
        except OSError:  # the parent has exited: finish what it asked, silently
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
    return 0


if __name__ == "__main__":
    sys.exit(main())

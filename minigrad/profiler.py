"""Where does the time go? A per-op profiler for minigrad.

    with minigrad.profile() as prof:
        loss = model(x, y)[1]
        loss.backward()
    print(prof.table())

While the ``with`` block runs, every op application (``Function.apply``: the
forward computation plus recording the graph edge) and every op backward
(``Function.backward``, called by the engine) is timed with
``time.perf_counter`` and added up per Function class name.

How it costs nothing when off: nothing in the core checks for a profiler.
Entering ``profile()`` swaps in timed versions of ``Function.apply`` and of
the ``backward`` of every Function subclass defined so far; leaving it puts
the originals back. (Ops whose class is defined while a profile is active get
their forward timed, but not their backward.)

Times are wall-clock. One-time costs are kept out of them: on the fast backend,
entering the block loads the backend (its modules and Numba) before the clock starts, and
the time any op spends compiling a kernel or loading it from Numba's on-disk cache (the
first call of a kernel with new argument types in a process: milliseconds from the cache,
a second or more to compile) is subtracted from that op's time and reported on its own
line, "kernel compile / cache load", under the table (``OpStats.load_s``,
:meth:`Profiler.load_s`). What Numba does while it holds its compiler lock is what counts
as compiling or loading; a compile in another Python thread meanwhile would be counted
against this thread's op. Smaller first-call costs outside that lock (the process-wide
settings and Numba's thread pool, started by the first kernel: tenths of a second) stay
in the first op's time: run one warm-up call before the block for steady-state numbers.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from typing import Any, final

from .backends import get_backend, set_backend
from .function import Function

_SORT_KEYS = ("total", "forward", "backward", "calls", "name")
_active: Profiler | None = None


@dataclass
class OpStats:
    """Totals for one Function class: call counts and seconds spent."""

    calls: int = 0
    forward_s: float = 0.0
    backward_calls: int = 0
    backward_s: float = 0.0
    load_s: float = 0.0  # kernel compile / cache load inside this op's calls, not in the above

    @property
    def total_s(self) -> float:
        """Forward plus backward seconds."""
        return self.forward_s + self.backward_s


class _LoadClock:
    """Seconds spent in Numba's compiler lock, which it holds while it compiles a kernel or
    loads one from its cache (nested holds count once). ``seconds`` only grows."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._depth = 0
        self._t0 = 0.0
        self._listener: Any = None

    def start(self) -> None:
        """Listen to Numba's compiler-lock events, if Numba is loaded (the fast backend)."""
        event = sys.modules.get("numba.core.event")
        if event is None:
            return
        clock = self

        class Listener(event.Listener):
            def on_start(self, ev: Any) -> None:
                clock._depth += 1
                if clock._depth == 1:
                    clock._t0 = time.perf_counter()

            def on_end(self, ev: Any) -> None:
                clock._depth -= 1
                if clock._depth == 0:
                    clock.seconds += time.perf_counter() - clock._t0

        self._listener = Listener()
        event.register("numba:compiler_lock", self._listener)

    def stop(self) -> None:
        """Stop listening."""
        if self._listener is not None:
            sys.modules["numba.core.event"].unregister("numba:compiler_lock", self._listener)
            self._listener = None


def _all_functions() -> list[type]:
    """Every subclass of Function (recursively), in a stable order."""
    seen: list[type] = []
    stack = list(Function.__subclasses__())
    while stack:
        cls = stack.pop()
        if cls not in seen:
            seen.append(cls)
            stack.extend(cls.__subclasses__())
    return seen


@final
class Profiler:
    """Context manager that records per-op counts and forward/backward time.

    Use it through :func:`profile`. After (or during) the block,
    :meth:`stats` gives the raw numbers and :meth:`table` a printable summary.
    Only one profile can be active at a time.
    """

    def __init__(self) -> None:
        self._stats: dict[str, OpStats] = {}
        self._patched: list[tuple[type, str, Any]] = []
        self.wall_s = 0.0  # wall time of the whole with-block
        self._t_enter = 0.0
        self._load = _LoadClock()

    # ---- installing and removing the timed versions ----------------------
    def __enter__(self) -> Profiler:
        global _active
        if _active is not None:
            raise RuntimeError("a minigrad.profile() is already active; profiles cannot be nested")
        if self._patched:
            raise RuntimeError("this profile object is already in use; create a new profile()")
        if get_backend() == "fast":
            # The fast backend loads (and imports Numba) on the first op that needs it: do it
            # now, before the clock starts, so that neither that op nor the wall time pays.
            set_backend("fast")
        self._load.start()
        stats = self._stats
        perf = time.perf_counter
        load = self._load

        # Forward: one timed Function.apply covers every op (subclasses inherit it).
        original_apply = Function.__dict__["apply"].__func__

        def timed_apply(cls, *inputs: Any, **options: Any):
            loaded = load.seconds
            t0 = perf()
            out = original_apply(cls, *inputs, **options)
            dt = perf() - t0
            s = stats.get(cls.__name__)
            if s is None:
                s = stats[cls.__name__] = OpStats()
            s.calls += 1
            spent_loading = load.seconds - loaded
            s.forward_s += dt - spent_loading
            s.load_s += spent_loading
            return out

        # Backward: the engine calls ctx.fn.backward, so each class gets its own
        # timed staticmethod. Resolve every original first, then install.
        classes = _all_functions()
        originals = [(cls, cls.backward) for cls in classes]
        self._patched.append((Function, "apply", Function.__dict__["apply"]))
        for cls, _ in originals:
            self._patched.append((cls, "backward", cls.__dict__.get("backward")))

        Function.apply = classmethod(timed_apply)  # type: ignore[method-assign]
        for cls, fn in originals:
            cls.backward = staticmethod(self._timed_backward(cls.__name__, fn))
        _active = self
        self._t_enter = perf()
        return self

    def _timed_backward(self, name: str, fn: Any):
        stats = self._stats
        perf = time.perf_counter
        load = self._load

        def timed_backward(ctx: Any, *grads: Any):  # one gradient per output of the op
            loaded = load.seconds
            t0 = perf()
            out = fn(ctx, *grads)
            dt = perf() - t0
            s = stats.get(name)
            if s is None:
                s = stats[name] = OpStats()
            s.backward_calls += 1
            spent_loading = load.seconds - loaded
            s.backward_s += dt - spent_loading
            s.load_s += spent_loading
            return out

        return timed_backward

    def __exit__(self, *exc: object) -> None:
        global _active
        self.wall_s = time.perf_counter() - self._t_enter
        self._load.stop()
        # Restore in reverse order; a class that inherited backward has the patched
        # attribute deleted, so it inherits its base's again.
        for cls, attr, original in reversed(self._patched):
            if original is None:
                delattr(cls, attr)
            else:
                setattr(cls, attr, original)
        self._patched = []
        _active = None

    # ---- reading the results ------------------------------------------------
    def stats(self) -> dict[str, OpStats]:
        """Raw totals: ``{op name: OpStats(calls, forward_s, backward_calls, backward_s)}``."""
        return {k: OpStats(v.calls, v.forward_s, v.backward_calls, v.backward_s, v.load_s)
                for k, v in self._stats.items()}

    def total_s(self) -> float:
        """Seconds spent inside ops (forward and backward), summed over all ops, without
        the one-time kernel compiles and cache loads (:meth:`load_s`)."""
        return sum(s.total_s for s in self._stats.values())

    def load_s(self) -> float:
        """Seconds the ops spent compiling kernels or loading them from Numba's cache."""
        return sum(s.load_s for s in self._stats.values())

    def table(self, sort_by: str = "total", row_limit: int | None = 15) -> str:
        """A text table of the top ops, like ``torch.profiler``'s ``key_averages().table()``.

        Columns: op name, forward calls, backward calls, forward ms, backward ms,
        total ms, and the op's share of all time spent in ops. ``sort_by`` is one
        of 'total', 'forward', 'backward', 'calls', 'name'; ``row_limit`` caps the
        rows (None for all).
        """
        if sort_by not in _SORT_KEYS:
            raise ValueError(f"table(sort_by={sort_by!r}): expected one of {_SORT_KEYS}")
        if row_limit is not None and (not isinstance(row_limit, int) or row_limit < 1):
            raise ValueError(f"table(row_limit={row_limit!r}): expected a positive int or None")
        keys = {
            "total": lambda kv: -kv[1].total_s,
            "forward": lambda kv: -kv[1].forward_s,
            "backward": lambda kv: -kv[1].backward_s,
            "calls": lambda kv: -kv[1].calls,
            "name": lambda kv: kv[0],
        }
        rows = sorted(self._stats.items(), key=lambda kv: kv[0])  # ties: by name
        rows = sorted(rows, key=keys[sort_by])
        shown = rows if row_limit is None else rows[:row_limit]
        total = self.total_s()
        width = max([len("Name")] + [len(name) for name, _ in shown])
        header = (f"{'Name':<{width}}  {'Calls':>7}  {'Bwd calls':>9}  {'Fwd ms':>10}  "
                  f"{'Bwd ms':>10}  {'Total ms':>10}  {'%':>6}")
        rule = "-" * len(header)
        lines = [rule, header, rule]
        for name, s in shown:
            pct = 100.0 * s.total_s / total if total > 0 else 0.0
            lines.append(
                f"{name:<{width}}  {s.calls:>7d}  {s.backward_calls:>9d}  "
                f"{1e3 * s.forward_s:>10.3f}  {1e3 * s.backward_s:>10.3f}  "
                f"{1e3 * s.total_s:>10.3f}  {pct:>5.1f}%"
            )
        lines.append(rule)
        if len(shown) < len(rows):
            lines.append(f"({len(rows) - len(shown)} more ops not shown; row_limit={row_limit})")
        calls = sum(s.calls for s in self._stats.values())
        lines.append(f"Time in ops: {1e3 * total:.3f} ms over {calls} op calls; "
                     f"wall time of the profiled block: {1e3 * self.wall_s:.3f} ms")
        loaded = {name: s.load_s for name, s in self._stats.items() if s.load_s > 0}
        if loaded:
            where = ", ".join(f"{name} {1e3 * sec:.1f}" for name, sec in
                              sorted(loaded.items(), key=lambda kv: -kv[1]))
            lines.append(f"Kernel compile / cache load (one-time, not in the op times above, "
                         f"in the wall time): {1e3 * self.load_s():.3f} ms ({where} ms)")
        return "\n".join(lines)


def profile() -> Profiler:
    """Profile the ops run inside ``with minigrad.profile() as prof:``.

    Returns a :class:`Profiler`; see the module docstring for what is timed.
    """
    return Profiler()


def is_profiling() -> bool:
    """True while a ``profile()`` block is active."""
    return _active is not None

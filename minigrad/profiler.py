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

Times are wall-clock and include Numba's compile on a kernel's first call:
run a warm-up iteration before the one you profile.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, final

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

    @property
    def total_s(self) -> float:
        """Forward plus backward seconds."""
        return self.forward_s + self.backward_s


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

    # ---- installing and removing the timed versions ----------------------
    def __enter__(self) -> Profiler:
        global _active
        if _active is not None:
            raise RuntimeError("a minigrad.profile() is already active; profiles cannot be nested")
        if self._patched:
            raise RuntimeError("this profile object is already in use; create a new profile()")
        stats = self._stats
        perf = time.perf_counter

        # Forward: one timed Function.apply covers every op (subclasses inherit it).
        original_apply = Function.__dict__["apply"].__func__

        def timed_apply(cls, *inputs: Any, **options: Any):
            t0 = perf()
            out = original_apply(cls, *inputs, **options)
            dt = perf() - t0
            s = stats.get(cls.__name__)
            if s is None:
                s = stats[cls.__name__] = OpStats()
            s.calls += 1
            s.forward_s += dt
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

        def timed_backward(ctx: Any, grad: Any):
            t0 = perf()
            out = fn(ctx, grad)
            dt = perf() - t0
            s = stats.get(name)
            if s is None:
                s = stats[name] = OpStats()
            s.backward_calls += 1
            s.backward_s += dt
            return out

        return timed_backward

    def __exit__(self, *exc: object) -> None:
        global _active
        self.wall_s = time.perf_counter() - self._t_enter
        # Restore in reverse order; a class that inherited backward gets its
        # attribute deleted again so it inherits as before.
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
        return {k: OpStats(v.calls, v.forward_s, v.backward_calls, v.backward_s)
                for k, v in self._stats.items()}

    def total_s(self) -> float:
        """Seconds spent inside ops (forward and backward), summed over all ops."""
        return sum(s.total_s for s in self._stats.values())

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
        return "\n".join(lines)


def profile() -> Profiler:
    """Profile the ops run inside ``with minigrad.profile() as prof:``.

    Returns a :class:`Profiler`; see the module docstring for what is timed.
    """
    return Profiler()


def is_profiling() -> bool:
    """True while a ``profile()`` block is active."""
    return _active is not None

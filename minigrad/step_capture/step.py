"""``minigrad.capture``: record a training step's forward and backward once, then replay it.

    @minigrad.capture
    def step(x, y):
        _, loss = model(x, y)
        loss.backward()
        return loss

    for x, y in batches:
        loss = step(x, y)          # eager twice (recorded), replayed from the third call
        clip_grad_norm_(params, 1.0)
        opt.step()
        opt.zero_grad()

The step is the same work every call: the same ops on arrays of the same shapes, the same
backward. Run eagerly, each op goes through ``Function.apply`` (dtype promotion, a Tensor and
a Context per op, the graph's edges, version counters) and the backward through the engine's
walk (topological order, hooks, checks). Replay runs only what changes the numbers: each
op's ``forward`` on the call's arrays and each ``backward`` in the recorded order, summing
gradients as the engine does (``program.py``), so the result is equal to the eager step's,
bit for bit, and the Python work per op is a fraction of eager's.

What a call checks before replaying (any change records again, from two eager calls):
the arguments' kinds, shapes, dtypes, layout (contiguous or not) and ``requires_grad``
(plain Python arguments by value); the backend and grad mode; every tensor the step reads from outside
(a parameter: shape, dtype, ``requires_grad``); every module it ran (train/eval mode, the
parameter and buffer objects it holds). A step whose recording meets something replay
cannot repeat (see ``recording.py``: reading values into Python, random draws outside a
``replayed`` function, an optimizer step or ``.grad`` assignment inside, hooks, ...) runs
eagerly from then on for those arguments, and ``CapturedStep.eager_reason`` says why.

The contract, as for every tracing capture (tinygrad's ``TinyJit``, CUDA graphs): a Python
value the step reads from elsewhere (a global, a counter, ``module.some_flag``) is recorded
as it was; pass what changes as an argument (a number argument is guarded by value).
"""

from __future__ import annotations

import functools
import threading
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import backends
from ..grad_mode import _mode
from ..tensor import Tensor
from .program import Program, Unstable
from .recording import Recording, Refused

# how many times a step may record differently for the same arguments before it stays eager
MAX_RECORDINGS = 4
# how many argument signatures keep a program each (the last batch of an epoch is smaller)
MAX_PROGRAMS = 8


def _signature(args: tuple, kwargs: dict) -> tuple:
    """What the arguments must match for a program to replay them (raises TypeError for an
    argument capture cannot guard)."""
    if kwargs:
        raise TypeError("a captured step takes positional arguments only")
    key = []
    for i, a in enumerate(args):
        if isinstance(a, Tensor):
            d = a.data
            key.append(("T", d.shape, d.dtype.str, d.flags.c_contiguous, a._requires_grad))
        elif isinstance(a, np.ndarray):
            key.append(("A", a.shape, a.dtype.str, a.flags.c_contiguous))
        elif a is None or isinstance(a, (bool, int, float, str)):
            key.append(("V", type(a), a))
        else:
            raise TypeError(f"argument {i} of a captured step is a {type(a).__name__}; "
                            "pass Tensors, arrays and plain numbers")
    return (tuple(key), backends.active.name, _mode.enabled)


class _Slot:
    """The state of one argument signature: the recordings so far, then a program or the
    reason the step runs eagerly."""

    __slots__ = ("eager_reason", "program", "recordings", "tries")

    def __init__(self) -> None:
        self.recordings: list[tuple[Recording, Any]] = []
        self.program: Program | None = None
        self.eager_reason: str | None = None
        self.tries = 0


class CapturedStep:
    """A step function that records its forward and backward and replays them (see the
    module docstring). Call it as the function. ``replays``/``recordings``/``eager_calls``
    count what the calls did; ``eager_reason`` is why the last call ran eagerly (None if
    it was recorded or replayed); :meth:`reset` forgets every program."""

    def __init__(self, fn: Callable) -> None:
        functools.update_wrapper(self, fn)
        self.fn = fn
        self._slots: dict[tuple, _Slot] = {}
        self._lock = threading.Lock()
        self.replays = self.recordings = self.eager_calls = 0
        self.eager_reason: str | None = None

    def reset(self) -> None:
        """Forget every recording and program: the next calls record again."""
        with self._lock:
            self._slots.clear()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            key = _signature(args, kwargs)
        except TypeError as e:
            return self._eager(args, kwargs, str(e))
        if _mode.recorder is not None:  # called inside another recording: part of it
            return self.fn(*args)
        with self._lock:
            slot = self._slots.get(key)
            if slot is None:
                if len(self._slots) >= MAX_PROGRAMS:
                    self._slots.pop(next(iter(self._slots)))
                slot = self._slots[key] = _Slot()
        if slot.eager_reason is not None:
            return self._eager(args, kwargs, slot.eager_reason)
        program = slot.program
        if program is not None:
            changed = program.guards_hold()
            if changed is None:
                self.replays += 1
                self.eager_reason = None
                return program.run(args)
            slot.program, slot.recordings = None, []
        return self._record(slot, args)

    def _eager(self, args: tuple, kwargs: dict, reason: str) -> Any:
        self.eager_calls += 1
        self.eager_reason = reason
        return self.fn(*args, **kwargs)

    def _record(self, slot: _Slot, args: tuple) -> Any:
        rec = Recording(args)
        _mode.recorder = rec
        try:
            result = self.fn(*args)
        finally:
            _mode.recorder = None
        self.recordings += 1
        self.eager_reason = None
        slot.tries += 1
        reason = rec.refused
        if reason is None:
            try:
                outputs = _output_spec(rec, result)
            except Refused as e:
                reason = str(e)
        if reason is not None:
            self._give_up(slot, f"it cannot be replayed: {reason}")
            return result
        if slot.recordings and _modules_changed(slot.recordings[0][0]):
            slot.recordings = []  # a module changed mode or parameters since: start again
        slot.recordings.append((rec, outputs))
        if len(slot.recordings) == 2:
            (first, _), (second, outputs) = slot.recordings
            try:
                slot.program = Program(first, second, outputs)
                slot.recordings = []
                slot.tries = 0
            except Unstable as e:
                slot.recordings = slot.recordings[1:]
                if slot.tries >= MAX_RECORDINGS:
                    self._give_up(slot, f"it does not do the same work on each call: {e}")
        return result

    def _give_up(self, slot: _Slot, reason: str) -> None:
        slot.eager_reason = reason
        slot.recordings = []
        self.eager_reason = reason
        warnings.warn(f"minigrad.capture: {self.__name__} runs eagerly: {reason}",
                      RuntimeWarning, stacklevel=3)


def _modules_changed(rec: Recording) -> bool:
    return any(m.training != training or tuple(m._parameters.values()) != params
               or tuple(m._buffers.values()) != buffers
               for m, training, params, buffers in rec.modules.values())


def _output_spec(rec: Recording, result: Any) -> Any:
    """How replay rebuilds what the step returned: a tensor the step computed (or was given)
    by its slot, a tuple or list of them, or None."""
    if result is None:
        return None
    if isinstance(result, Tensor):
        ctx = result._ctx
        if ctx is not None and not ctx._freed:
            raise Refused("it returns a tensor whose graph its backward has not used; call "
                          "backward inside the captured step")
        slot = rec.slot_of.get(id(result.data))
        if slot is None:
            raise Refused(f"it returns a tensor of shape {result.shape} that no op of the step "
                          "computed")
        return ("tensor", slot)
    if isinstance(result, (tuple, list)):
        return ("seq", (type(result), tuple(_output_spec(rec, r) for r in result)))
    raise Refused(f"it returns a {type(result).__name__}; return tensors (or None)")


def capture(fn: Callable) -> CapturedStep:
    """Decorate a step function (forward, loss, ``backward()``; returning tensors or None)
    so that its calls after the first two replay the recorded work (see the module
    docstring); the optimizer step and ``zero_grad`` go after the call."""
    return CapturedStep(fn)

"""Functions a captured step repeats at each replay, and code that says it cannot be replayed.

A captured step (``minigrad/step_capture/``) replays the ops a step ran. Work done on the
host, outside the ops, is invisible to it unless it says so: a function marked
:func:`replayed` (a random draw, a mask or a check made from the batch, a buffer updated in
place, a comparison of tensors) is called again at each replay with that replay's values;
code that reads values in a way replay cannot repeat calls :func:`cannot_replay`, and the
step then runs eagerly. Outside a recording both cost one attribute read. A leaf module (it
imports only grad mode), so that tensor.py and nn can use it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .grad_mode import _mode


def cannot_replay(reason: str) -> None:
    """Called by code that does on the host what replay cannot repeat (reads a value it then
    depends on, writes a buffer by NumPy): a step being recorded then runs eagerly, with
    ``reason`` as the why. Does nothing outside a recording."""
    recorder = _mode.recorder
    if recorder is not None and not recorder.inside:
        recorder.refuse(reason)


def replayed(fn: Callable) -> Callable:
    """Mark ``fn`` as part of a step that capture replays: a function of arrays, tensors and
    plain values that draws random numbers (a dropout mask), updates a buffer in place
    (running statistics) or checks and converts data for an op (token ids, targets),
    returning an array, a tuple of arrays or None. Recorded, its call is repeated at each
    replay with that replay's values, so the draws continue the global generator's stream as
    an eager step's would. Outside a recording it is ``fn`` itself, called as usual."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        recorder = _mode.recorder
        if recorder is None or recorder.inside:
            return fn(*args, **kwargs)
        return recorder.call(fn, args, kwargs)

    return wrapper

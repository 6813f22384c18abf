"""Grad mode: whether ops record the graph, per thread, as PyTorch's ``torch.no_grad``.

``no_grad``, ``enable_grad`` and ``set_grad_enabled`` turn recording off or on (as context
managers or decorators); ``is_grad_enabled`` reads the mode. :meth:`Function.apply`
(``minigrad/function.py``) records a Context only when the mode is on. A leaf module: it
imports nothing of minigrad, so every other module may import it.
"""

from __future__ import annotations

import functools
import threading


# Grad mode is per thread, as in PyTorch: ``no_grad`` in one thread must not
# stop another thread's graph. A new thread starts with the class default (on).
class _GradMode(threading.local):
    """Per-thread state: the grad mode, and the throwaway Context that ops run
    without recording get (forward may still call ``ctx.save_for_backward``)."""

    enabled = True
    scratch = None  # minigrad/function.py makes it on the thread's first op without a graph
    # > 0 while a backward is being recorded as a graph (``create_graph``): NumPy must not
    # read a Tensor that carries a graph then, or the second derivative silently drops it
    recording_backward = 0
    # the Recording of a captured step while its first runs record it (minigrad/step_capture/),
    # else None: the ops, the backward walk, random draws and value reads report to it
    recorder = None


class recording_backward:
    """Mark this thread as running a backward that is being recorded (``create_graph``):
    inside, ``np.asarray`` of a Tensor that requires grad raises instead of dropping its
    graph (see ``Tensor.__array__``)."""

    def __enter__(self) -> None:
        _mode.recording_backward += 1

    def __exit__(self, *exc: object) -> None:
        _mode.recording_backward -= 1


def is_recording_backward() -> bool:
    """True inside a backward that ``backward(create_graph=True)`` records as a graph."""
    return _mode.recording_backward > 0


class set_grad_enabled:
    """Turn graph recording on or off: ``set_grad_enabled(False)`` as a call or
    ``with set_grad_enabled(mode):`` as a context manager (restores on exit).

    The mode is per thread; a new thread starts with grad enabled.
    """

    def __init__(self, mode: bool = False) -> None:
        self._prev = _mode.enabled
        self.mode = bool(mode)
        _mode.enabled = self.mode

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc: object) -> None:
        _mode.enabled = self._prev

    def __call__(self, fn):
        mode = self.mode
        _mode.enabled = self._prev  # used as a decorator: the mode applies only inside calls

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with set_grad_enabled(mode):
                return fn(*args, **kwargs)

        return wrapper


class _GradModeContext:
    """Base of ``no_grad``/``enable_grad``: a context manager and decorator with a fixed mode."""

    _mode_value = True

    def __enter__(self) -> None:
        self._prev = _mode.enabled
        _mode.enabled = self._mode_value

    def __exit__(self, *exc: object) -> None:
        _mode.enabled = self._prev

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with type(self)():
                return fn(*args, **kwargs)

        return wrapper


class no_grad(_GradModeContext):
    """Context manager (and decorator) that turns graph recording off in this thread.

    Inside ``with minigrad.no_grad():`` ops compute values only: no Context is
    saved, so nothing is kept alive for a backward pass (evaluation, sampling,
    optimizer updates). Other threads are not affected.
    """

    _mode_value = False


class enable_grad(_GradModeContext):
    """Context manager (and decorator) that turns graph recording back on inside ``no_grad``."""

    _mode_value = True


class inference_mode(_GradModeContext):
    """PyTorch's ``inference_mode(mode=True)``, as a context manager or decorator: in minigrad
    it is :class:`no_grad` (nothing is recorded), since minigrad has no separate inference
    tensors; ``inference_mode(False)`` leaves the grad mode as it is, as PyTorch's does."""

    def __init__(self, mode: bool = True) -> None:
        self.mode = bool(mode)

    def __enter__(self) -> None:
        self._prev = _mode.enabled
        if self.mode:
            _mode.enabled = False

    def __call__(self, fn):
        mode = self.mode

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with inference_mode(mode):
                return fn(*args, **kwargs)

        return wrapper


def is_grad_enabled() -> bool:
    """True unless this thread is inside ``no_grad()`` (or ``set_grad_enabled(False)``)."""
    return _mode.enabled


# Each thread gets its own state on first use (class defaults: enabled, no scratch).
_mode = _GradMode()

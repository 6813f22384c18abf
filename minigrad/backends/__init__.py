"""Choosing the backend: which implementation of the primitives the ops run.

Two backends hold the same primitive functions (softmax, linear, layer_norm,
attention, cross_entropy, ... each with its backward):

- ``reference`` (``reference.py``): plain NumPy, the code a learner reads and
  the tests' oracle. It never imports Numba.
- ``fast`` (``fast.py``, the default): the Numba kernels of ``minigrad/kernels/``,
  loaded the first time an op runs on this backend.

Choose once per process with ``MINIGRAD_BACKEND=reference|fast`` (read at
import), or from Python with :func:`set_backend` or, for a block,
``with use_backend("reference"): ...``. The ops read the module attribute
:data:`active` on every call, so a switch takes effect at the next op. Saved
arrays have the same form on both backends, so switching between a forward
and its backward is safe.
"""

from __future__ import annotations

import contextlib
import importlib
import os
from collections.abc import Iterator
from types import ModuleType

from . import reference

NAMES = ("reference", "fast")

#: the backend module the ops call (``reference`` or ``fast``)
active: ModuleType = reference  # set at the end of this file


def _load(name: str) -> ModuleType:
    if name not in NAMES:
        raise ValueError(f"unknown minigrad backend {name!r}: choose one of {', '.join(NAMES)}")
    return reference if name == "reference" else importlib.import_module(".fast", __name__)


def set_backend(name: str) -> None:
    """Make ``name`` ('reference' or 'fast') the backend of every op from now on
    (ValueError for any other name, before anything changes)."""
    global active
    active = _load(name)


def get_backend() -> str:
    """The name of the active backend: 'reference' or 'fast'."""
    return active.NAME


@contextlib.contextmanager
def use_backend(name: str) -> Iterator[None]:
    """``with use_backend('reference'):`` runs the block on that backend, then restores
    the previous one (also when the block raises). The choice is process-wide, not per
    thread: a learner's switch, not a way to run two backends at once."""
    global active
    previous = active
    active = _load(name)
    try:
        yield
    finally:
        active = previous


class _FastOnFirstUse:
    """Stands in for the fast backend until an op first needs a primitive: then it imports
    ``fast.py`` (and so Numba), becomes it in :data:`active` and hands over the primitive.
    ``import minigrad`` alone thus loads no Numba, and afterwards an op pays no extra lookup."""

    NAME = "fast"

    def __getattr__(self, name: str):
        global active
        if active is self:
            active = _load("fast")
        return getattr(_load("fast"), name)


_env = os.environ.get("MINIGRAD_BACKEND", "fast").strip().lower() or "fast"
if _env not in NAMES:
    raise ValueError(f"MINIGRAD_BACKEND={os.environ['MINIGRAD_BACKEND']!r} is not a minigrad "
                     f"backend: choose one of {', '.join(NAMES)}")
active = reference if _env == "reference" else _FastOnFirstUse()

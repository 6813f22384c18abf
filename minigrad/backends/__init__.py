"""Choosing the backend: which implementation of the primitives the ops run.

``interface.py`` names every primitive the ops call (softmax, linear, layer_norm,
attention, cross_entropy, ... each with its backward) in the class :class:`Backend`,
with its math. Two backends implement it:

- ``reference`` (:class:`Reference`, ``reference.py``): plain NumPy, the code a learner
  reads and the tests' oracle. It never imports Numba.
- ``fast`` (:class:`Fast`, ``fast.py``, the default): a subclass of :class:`Reference`
  that overrides the primitives a Numba kernel of ``minigrad/kernels/`` speeds up. It
  imports the kernels (and so Numba) the first time one of its primitives runs.

:data:`active` is the instance the ops call, ``backends.active.softmax(x)``, read on
every call, so a switch takes effect at the next op. Choose it once per process with
the environment variable ``MINIGRAD_BACKEND=reference|fast``, from Python with
:func:`set_backend`, or for a block with ``with use_backend("reference"): ...``. An
unknown ``MINIGRAD_BACKEND`` does not stop ``import minigrad`` (a typo in the
environment should not make a program fail at its first line): it warns
(``RuntimeWarning``, naming the value and the choices) and the default, ``fast``, is
used. Both backends compute the same values, so the fallback changes speed, not results.
An unknown name given to :func:`set_backend` or :func:`use_backend` raises
``ValueError`` before anything changes. Saved arrays have the same form on both
backends, so switching between a forward and its backward is safe.
"""

from __future__ import annotations

import contextlib
import os
import warnings
from collections.abc import Iterator

from .fast import Fast
from .interface import Backend
from .reference import Reference

__all__ = [
    "NAMES",
    "Backend",
    "Fast",
    "Reference",
    "active",
    "get_backend",
    "set_backend",
    "use_backend",
]

#: the backends by name, one instance each (a backend holds no state)
_BY_NAME: dict[str, Backend] = {"reference": Reference(), "fast": Fast()}
NAMES = tuple(_BY_NAME)
DEFAULT = "fast"


def _backend(name: str) -> Backend:
    """The backend called ``name``; ValueError for any other name."""
    if name not in _BY_NAME:
        raise ValueError(f"unknown minigrad backend {name!r}: choose one of {', '.join(NAMES)}")
    return _BY_NAME[name]


def set_backend(name: str) -> None:
    """Make ``name`` ('reference' or 'fast') the backend of every op from now on
    (ValueError for any other name, before anything changes)."""
    global active
    active = _backend(name)


def get_backend() -> str:
    """The name of the active backend: 'reference' or 'fast'."""
    return active.name


@contextlib.contextmanager
def use_backend(name: str) -> Iterator[None]:
    """``with use_backend('reference'):`` runs the block on that backend, then restores
    the previous one (also when the block raises). The choice is process-wide, not per
    thread: a learner's switch, not a way to run two backends at once."""
    global active
    previous = active
    active = _backend(name)
    try:
        yield
    finally:
        active = previous


def _from_environment() -> Backend:
    """The backend ``MINIGRAD_BACKEND`` names (unset or empty: the default); an unknown
    value warns and gives the default."""
    value = os.environ.get("MINIGRAD_BACKEND", "")
    name = value.strip().lower() or DEFAULT
    if name not in _BY_NAME:
        warnings.warn(f"MINIGRAD_BACKEND={value!r} is not a minigrad backend (choose one of "
                      f"{', '.join(NAMES)}): using the default, {DEFAULT!r}",
                      RuntimeWarning, stacklevel=2)
        name = DEFAULT
    return _BY_NAME[name]


#: the backend every op calls: a :class:`Reference` or a :class:`Fast` instance
active: Backend = _from_environment()

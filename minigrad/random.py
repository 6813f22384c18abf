"""One global random generator, seeded by ``manual_seed`` (as ``torch.manual_seed``).

Every random thing in minigrad (``randn``, ``rand``, dropout masks, weight
init, sampling in ``generate``) draws from :func:`generator`, so one seed makes
a whole run repeatable. ``get_rng_state``/``set_rng_state`` save and restore
it as a plain uint64 array (for checkpoints without pickle).

A :class:`Generator` object (as ``torch.Generator``) is a stream of its own, for the
functions that take ``generator=`` (``randperm``, ``multinomial``, the data loader's
shuffling): seeding it leaves the global stream alone. :func:`numpy_generator` turns
any ``generator=`` argument into the NumPy generator to draw from.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .device import Device, check_device
from .grad_mode import _mode

_generator = np.random.Generator(np.random.PCG64(0))
# what a fresh torch.Generator() reports as its initial_seed()
DEFAULT_SEED = 67280421310721


def _pcg64(seed: Any) -> np.random.Generator:
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    return np.random.Generator(np.random.PCG64(int(seed)))


def manual_seed(seed: int) -> None:
    """Reset the global generator to a known state."""
    global _generator
    _generator = _pcg64(seed)


def generator() -> np.random.Generator:
    """The global NumPy generator (use it for any random draw)."""
    if _mode.recorder is not None:  # a captured step being recorded: see minigrad/step_capture/
        _mode.recorder.draws("minigrad.random.generator()")
    return _generator


def get_rng_state() -> np.ndarray:
    """The generator's state as a uint64 array (PCG64: state, inc, has_uint32, uinteger)."""
    return _state_array(_generator)


def set_rng_state(state: Any) -> None:
    """Restore a state returned by :func:`get_rng_state`."""
    _load_state_array(_generator, state)


def _state_array(rng: np.random.Generator) -> np.ndarray:
    st = rng.bit_generator.state
    s = st["state"]
    return np.array(
        [s["state"] >> 64, s["state"] & (2**64 - 1), s["inc"] >> 64, s["inc"] & (2**64 - 1),
         st["has_uint32"], st["uinteger"]],
        dtype=np.uint64,
    )


def _load_state_array(rng: np.random.Generator, state: Any) -> None:
    a = np.asarray(state)
    if a.shape != (6,) or a.dtype != np.uint64:
        raise ValueError(f"an RNG state is a uint64 array of shape (6,), got {a.dtype} {a.shape}")
    a = [int(v) for v in a]
    rng.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": (a[0] << 64) | a[1], "inc": (a[2] << 64) | a[3]},
        "has_uint32": a[4],
        "uinteger": a[5],
    }


class Generator:
    """A random-number generator of its own, as ``torch.Generator``: a PCG64 stream that
    ``generator=`` arguments draw from, untouched by :func:`manual_seed`. A fresh one is
    seeded with ``DEFAULT_SEED`` (PyTorch's default ``initial_seed()``); the same seed gives
    the same draws on every run (not PyTorch's draws: its engine differs)."""

    def __init__(self, device: Any = None) -> None:
        check_device(device)
        self.manual_seed(DEFAULT_SEED)

    def manual_seed(self, seed: int) -> Generator:
        """Restart the stream from ``seed`` (a non-negative integer); returns the generator."""
        self._rng = _pcg64(seed)
        self._initial_seed = int(seed)
        return self

    def initial_seed(self) -> int:
        """The seed the stream last started from."""
        return self._initial_seed

    def seed(self) -> int:
        """Restart the stream from a seed drawn from the OS's entropy, and return that seed."""
        seed = int(np.random.SeedSequence().generate_state(2, np.uint64)[0] >> np.uint64(1))
        self.manual_seed(seed)
        return seed

    def get_state(self) -> np.ndarray:
        """The stream's state as a uint64 array of shape (6,), as :func:`get_rng_state`."""
        return _state_array(self._rng)

    def set_state(self, state: Any) -> Generator:
        """Restore a state returned by :meth:`get_state`; returns the generator."""
        _load_state_array(self._rng, state)
        return self

    @property
    def device(self) -> Device:
        return Device("cpu")


def numpy_generator(generator: Any = None) -> np.random.Generator:
    """The NumPy generator a ``generator=`` argument means: None -> the global one
    (:func:`manual_seed` seeds it), a :class:`Generator` -> its own stream, a
    ``numpy.random.Generator`` -> itself (its draws advance it)."""
    if _mode.recorder is not None:
        _mode.recorder.draws("a generator= argument")
    if generator is None:
        return _generator
    if isinstance(generator, Generator):
        return generator._rng
    if isinstance(generator, np.random.Generator):
        return generator
    raise TypeError("generator must be None, a minigrad.Generator or a numpy.random.Generator, "
                    f"got {type(generator).__name__}")

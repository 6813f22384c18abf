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

from .dtypes import check_dtype, check_generated_dtype
from .tensor import Device, Tensor, _float_dtype, _shape_args, check_device

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
    if generator is None:
        return _generator
    if isinstance(generator, Generator):
        return generator._rng
    if isinstance(generator, np.random.Generator):
        return generator
    raise TypeError("generator must be None, a minigrad.Generator or a numpy.random.Generator, "
                    f"got {type(generator).__name__}")


def randperm(n: int, *, generator: Any = None, dtype: Any = None, device: Any = None,
             requires_grad: bool = False) -> Tensor:
    """A random permutation of 0..n-1 (int64 unless ``dtype`` says otherwise), as
    ``torch.randperm``; drawn from ``generator`` (see :func:`numpy_generator`)."""
    check_device(device)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"randperm: n must be a non-negative integer, got {n!r}")
    dt = check_generated_dtype(check_dtype("int64" if dtype is None else dtype), "randperm", "iuf")
    return Tensor(numpy_generator(generator).permutation(int(n)).astype(dt),
                  requires_grad=requires_grad)


def randn(*shape: Any, dtype: Any = None, requires_grad: bool = False,
          device: Any = None) -> Tensor:
    """Samples from N(0, 1)."""
    check_device(device)
    dt = check_generated_dtype(_float_dtype(dtype), "randn", "f")
    arr = _generator.standard_normal(_shape_args(shape), dtype=np.float64).astype(dt)
    return Tensor(arr, requires_grad=requires_grad)


def rand(*shape: Any, dtype: Any = None, requires_grad: bool = False,
         device: Any = None) -> Tensor:
    """Samples from U[0, 1)."""
    check_device(device)
    dt = check_generated_dtype(_float_dtype(dtype), "rand", "f")
    arr = _generator.random(_shape_args(shape), dtype=np.float64).astype(dt)
    return Tensor(arr, requires_grad=requires_grad)


def randint(low: int, high: int | None = None, size: tuple | None = None, *,
            dtype: Any = None, device: Any = None, requires_grad: bool = False) -> Tensor:
    """Integers in [low, high) (int64 unless ``dtype`` says otherwise); ``randint(high,
    size)`` draws from [0, high), as PyTorch."""
    check_device(device)
    if size is None:  # randint(high, size): PyTorch's two-argument form
        if high is None:
            raise TypeError("randint: needs a size, as randint(low, high, size) or "
                            "randint(high, size)")
        low, high, size = 0, low, high
    elif high is None:
        raise TypeError("randint: needs high, as randint(low, high, size)")
    dt = check_generated_dtype(check_dtype("int64" if dtype is None else dtype), "randint", "iuf")
    arr = _generator.integers(low, high, size=_shape_args((tuple(size),)), dtype=np.int64)
    return Tensor(arr.astype(dt, copy=False),
                  requires_grad=requires_grad)


def randn_like(t: Tensor, dtype: Any = None, requires_grad: bool = False, *,
               device: Any = None) -> Tensor:
    """Samples from N(0, 1) with the shape (and dtype) of ``t``."""
    return randn(t.shape, dtype=t.dtype if dtype is None else dtype,
                 requires_grad=requires_grad, device=device)


def rand_like(t: Tensor, dtype: Any = None, requires_grad: bool = False, *,
              device: Any = None) -> Tensor:
    """Samples from U[0, 1) with the shape (and dtype) of ``t``."""
    return rand(t.shape, dtype=t.dtype if dtype is None else dtype,
                requires_grad=requires_grad, device=device)


def randint_like(t: Tensor, low: int, high: int | None = None, *, dtype: Any = None,
                 device: Any = None) -> Tensor:
    """Integers in [low, high) with the shape (and dtype) of ``t``; ``randint_like(t, high)``
    draws from [0, high), as PyTorch."""
    if high is None:
        low, high = 0, low
    return randint(low, high, t.shape, dtype=t.dtype if dtype is None else dtype, device=device)

"""One global random generator, seeded by ``manual_seed`` (as ``torch.manual_seed``).

Every random thing in minigrad (``randn``, ``rand``, dropout masks, weight
init, sampling in ``generate``) draws from :func:`generator`, so one seed makes
a whole run repeatable. ``get_rng_state``/``set_rng_state`` save and restore
it as a plain uint64 array (for checkpoints without pickle).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .dtypes import check_dtype, check_generated_dtype
from .tensor import Tensor, _float_dtype, _shape_args, check_device

_generator = np.random.Generator(np.random.PCG64(0))


def manual_seed(seed: int) -> None:
    """Reset the global generator to a known state."""
    global _generator
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    _generator = np.random.Generator(np.random.PCG64(int(seed)))


def generator() -> np.random.Generator:
    """The global NumPy generator (use it for any random draw)."""
    return _generator


def get_rng_state() -> np.ndarray:
    """The generator's state as a uint64 array (PCG64: state, inc, has_uint32, uinteger)."""
    st = _generator.bit_generator.state
    s = st["state"]
    return np.array(
        [s["state"] >> 64, s["state"] & (2**64 - 1), s["inc"] >> 64, s["inc"] & (2**64 - 1),
         st["has_uint32"], st["uinteger"]],
        dtype=np.uint64,
    )


def set_rng_state(state: Any) -> None:
    """Restore a state returned by :func:`get_rng_state`."""
    a = np.asarray(state)
    if a.shape != (6,) or a.dtype != np.uint64:
        raise ValueError(f"an RNG state is a uint64 array of shape (6,), got {a.dtype} {a.shape}")
    a = [int(v) for v in a]
    _generator.bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": (a[0] << 64) | a[1], "inc": (a[2] << 64) | a[3]},
        "has_uint32": a[4],
        "uinteger": a[5],
    }


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


def randperm(n: int, *, dtype: Any = None, requires_grad: bool = False,
             device: Any = None) -> Tensor:
    """A random permutation of 0 .. n-1 (int64 unless ``dtype`` says otherwise), drawn from
    the generator :func:`manual_seed` seeds."""
    check_device(device)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise RuntimeError(f"randperm: n must be a non-negative integer, got {n!r}")
    dt = check_generated_dtype(check_dtype("int64" if dtype is None else dtype), "randperm", "iuf")
    return Tensor(_generator.permutation(int(n)).astype(dt), requires_grad=requires_grad)

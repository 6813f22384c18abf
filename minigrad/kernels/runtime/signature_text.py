"""A kernel's argument types as JSON text, and back: how a process tells the background
compiler (``background_compile.py``) which version of a kernel to compile.

Only what minigrad's kernels take is described: NumPy scalars (``float32``, ``int64``,
``bool`` ...) and arrays (dtype, ndim, layout 'C'/'F'/'A', read-only, aligned). Anything
else raises TypeError, and the caller compiles that kernel in its own process instead. Text,
not pickle: the worker reads a pipe, and nothing read from outside is ever unpickled.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from numba.core import types
from numba.np.numpy_support import as_dtype, from_dtype


def _describe(t: Any) -> dict:
    if isinstance(t, types.Array):
        return {"array": as_dtype(t.dtype).name, "ndim": t.ndim, "layout": t.layout,
                "readonly": not t.mutable, "aligned": t.aligned}
    if isinstance(t, (types.Number, types.Boolean)):
        return {"scalar": as_dtype(t).name}
    raise TypeError(f"no text form for the kernel argument type {t}")


def _build(d: dict) -> Any:
    if "array" in d:
        return types.Array(from_dtype(np.dtype(d["array"])), int(d["ndim"]), str(d["layout"]),
                           readonly=bool(d["readonly"]), aligned=bool(d["aligned"]))
    return from_dtype(np.dtype(d["scalar"]))


def to_text(args: tuple) -> str:
    """The argument types ``args`` (Numba types) as one line of JSON (no spaces)."""
    return json.dumps([_describe(t) for t in args], separators=(",", ":"))


def from_text(text: str) -> tuple:
    """The Numba types :func:`to_text` described."""
    return tuple(_build(d) for d in json.loads(text))

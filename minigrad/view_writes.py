"""Where an in-place write to a view lands: the tensor it views and the elements it names.

A view (``h[1:]``, ``h.T``, ``h.reshape(...)``, chains of them) shares its array's memory
with the tensor it was made from, and an in-place write to it is a write to that tensor. To
record such a write in the graph, ``Tensor._inplace`` needs the *base* (the tensor at the start
of the chain of view ops, whose array the view's elements belong to) and, for every element of
the view, its position in the base: then the write is ``base[index] = new values``, an ordinary
recorded ``IndexPut``, and the view becomes ``base[index]`` of the result. The positions are
found from the arrays' memory addresses, so every view op, present or future, is covered.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def viewed_leaf(t: Any) -> Any:
    """The leaf that ``t`` is, or views through a chain of view ops, if it requires grad."""
    base = view_base(t) if t._is_view else t
    return base if base is not None and base._ctx is None and base._requires_grad else None


def view_base(t: Any) -> Any:
    """The tensor at the start of ``t``'s chain of view ops (a tensor that is no view itself;
    ``Tensor._share_version`` keeps a weak reference to the tensor each view was made from), or
    None when the chain cannot be followed (a base nothing holds any more)."""
    while t._is_view:
        ref = getattr(t, "_view_of", None)  # the slot is set only on views
        t = ref() if ref is not None else None
        if t is None:
            return None
    return t


def view_index(view: np.ndarray, base: np.ndarray) -> tuple:
    """Integer index arrays (one per dim of ``base``, each of ``view``'s shape) such that
    ``base[index]`` names the elements of ``view``, in order. Raises when an element of
    ``base`` appears twice in ``view`` (an expanded view: which write would win?)."""
    where = _addresses(base).ravel()
    order = np.argsort(where, kind="stable")
    ordered = where[order]
    wanted = _addresses(view)
    pos = np.searchsorted(ordered, wanted).clip(0, max(ordered.size - 1, 0))
    if wanted.size and (ordered.size == 0 or not np.array_equal(ordered[pos], wanted)):
        raise RuntimeError("internal error: an in-place write to a view that is not inside the "
                           "array of the tensor it views")
    flat = order[pos]
    if np.unique(flat).size != flat.size:
        raise RuntimeError(
            "unsupported operation: more than one element of the written-to tensor refers to a "
            "single memory location. Please clone() the tensor before performing the operation."
        )
    return np.unravel_index(flat, base.shape)


def _addresses(a: np.ndarray) -> np.ndarray:
    """The byte address of every element of ``a``, in ``a``'s shape."""
    out = np.full(a.shape, a.__array_interface__["data"][0], dtype=np.int64)
    for k, (n, step) in enumerate(zip(a.shape, a.strides)):
        out += (np.arange(n, dtype=np.int64) * step).reshape((n,) + (1,) * (a.ndim - k - 1))
    return out

"""What an in-place write recorded in the graph needs besides the op: where a write to a view
lands, and which earlier uses of the written tensor must keep reading its old value.

A view (``h[1:]``, ``h.T``, ``h.reshape(...)``, chains of them) shares its array's memory
with the tensor it was made from, and an in-place write to it is a write to that tensor. To
record such a write, ``Tensor._inplace`` needs the *base* (the tensor at the start of the
chain of view ops) and, for every element of the view, its position in the base: then the
write is ``base[index] = new values``, an ordinary recorded ``IndexPut``, and the view becomes
``base[index]`` of the result. The positions are found from the arrays' memory addresses, so
every view op, present or future, is covered.

A recorded write moves the tensor's history onto the op that made the new value; an op that
used the tensor before the write must keep pointing at the old value: the ops in the write's
own graph (``h[0]`` in ``h[0] = h[0] + 5``) are moved at once (:func:`repoint_earlier_uses`),
every other earlier use (``y = h + 1; h.mul_(3)``) when a backward reaches it
(:func:`value_when_used`), as PyTorch's graph keeps the node ``y`` was made from.
"""

from __future__ import annotations

import weakref
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


def repoint_earlier_uses(new: Any, base: Any, old: Any) -> None:
    """In the graph of ``new`` (the value about to become ``base``'s), make every op that used
    ``base`` since its history last changed use ``old`` (a copy of its old value, with that
    history) instead, so the walk does not take the rewritten ``base`` for their input.

    Only ops that saved no array are moved: their backward does not read the input's values,
    so the old history is all they need. An op that saved arrays keeps ``base``, and backward
    refuses it (its saved array was overwritten: PyTorch's "modified by an inplace operation").
    """
    floor = base._ctx.seq if base._ctx is not None else -1
    stack = [new]
    seen: set = set()
    while stack:
        ctx = stack.pop()._ctx
        if ctx is None or ctx.seq <= floor or id(ctx) in seen:
            continue  # created before base's current history: it cannot have used it
        seen.add(id(ctx))
        if not ctx._saved and any(p is base for p in ctx.parents):
            ctx.parents = tuple(old if p is base else p for p in ctx.parents)
        stack.extend(p for p in ctx.parents if p._requires_grad)


def remember_old_value(base: Any, write: Any, old: Any) -> None:
    """Note on ``base`` that the recorded op ``write`` replaced its value, whose copy with the
    earlier history is ``old``. Held weakly: ``old`` lives as long as the graph of the write
    does, and a graph already freed needs no old value."""
    earlier = getattr(base, "_overwritten", ())  # an unset slot: never written while recording
    base._overwritten = earlier + ((write.seq, weakref.ref(old)),)


def value_when_used(ctx: Any, t: Any) -> Any:
    """The value ``t`` had when the op of ``ctx`` used it, ``t`` having been written in place
    since (its history is newer than ``ctx``). When ``ctx`` saved no array that may share
    ``t``'s memory, its backward needs only that old value's history: ``ctx`` is made to point
    at it, and it is returned. An op that saved ``t``'s array (or a view of it) keeps ``t``,
    and the walk refuses it: the values it saved were overwritten."""
    if any(a is not None and np.may_share_memory(a, t.data) for a in ctx._saved or ()):
        return t
    for seq, ref in getattr(t, "_overwritten", ()):
        if seq > ctx.seq:  # the first write after ctx used t: its old value is what ctx read
            old = ref()
            if old is None:
                return t
            ctx.parents = tuple(old if p is t else p for p in ctx.parents)
            return old
    return t

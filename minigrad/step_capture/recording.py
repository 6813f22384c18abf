"""Recording a captured step: one eager run of the step, written down as a program.

While a step runs to be recorded, this thread's ``grad_mode._mode.recorder`` is a
:class:`Recording`, and each place where the step's work happens reports to it:

- ``Function.apply`` (every op): :meth:`Recording.apply` runs the op as usual and writes down
  the op, which values went in and which came out;
- the backward walk (``engine._walk``): :meth:`Recording.walk` gives a :class:`WalkLog` that
  writes down each visit, each op ``backward`` called and each gradient added;
- a function marked ``replayed`` (``minigrad/host_calls.py``: a random draw such as a
  dropout mask, a mask or check made from the batch, a comparison of tensors, the update of
  BatchNorm's running statistics): the call, with its arguments;
- ``Tensor._inplace`` without a graph (``with no_grad(): buf.mul_(0.9)``): the write;
- a tensor made from a value of the step (``minigrad.tensor(x)``, a cast): the copy;
  and a NumPy view of one (``t.data.reshape(-1)``) when an op or a call takes it: the view.

Values are numbered as *slots*: every array an op or a replayed call produces, every argument
of the step, and every array that comes from outside (a parameter's, a module's constant). A
slot from outside is a *source*; whether it is read live at each replay (the same tensor or
array each time: parameters) or is a constant (an equal value each time: ``arange(T)``) is
decided by comparing two recordings (``program.py``).

What replay cannot repeat is refused, and the step then runs eagerly (the recording stops,
the step finishes as written): Python reading a tensor's values (``.item()``, ``bool(t)``,
``.numpy()``, ``np.asarray(t)``, printing), since the step's control flow may then depend on
them; random draws outside a ``replayed`` function (their values would be replayed
unchanged); code that calls ``cannot_replay`` (host work that is neither); writing a tensor in place outside an op (an optimizer step: it belongs after the
captured function); setting ``.grad``; hooks; ``create_graph``; ``autograd.grad``; an in-place
op on a tensor with a graph; options an op takes that are neither values nor arrays.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from ..function import _constant_inputs
from ..grad_mode import _mode

# walk events (see WalkLog): pop a node's total; store it in a leaf's .grad; gather one output
# of a several-output op; call an op's backward; add an op's input gradient into a node
VISIT, STORE, GATHER, CALL = 0, 1, 2, 3

# option values an op may take that are compared by value (arrays and tensors become slots);
# a function is compared by identity: the same function object on every call
_VALUE_TYPES = (type(None), bool, int, float, complex, str, bytes, slice, type(Ellipsis),
                np.dtype, type, np.generic, types.FunctionType, types.BuiltinFunctionType,
                np.ufunc, type(np.argmax))


def _plain(value: Any) -> bool:
    """A value compared as it is: a number, string, slice, dtype, ... or a tuple of them."""
    if isinstance(value, tuple):
        return all(map(_plain, value))
    if isinstance(value, functools.partial):  # a function with its arguments bound
        return _plain(value.func) and _plain(value.args) and all(map(_plain,
                                                                     value.keywords.values()))
    return isinstance(value, _VALUE_TYPES)


class Refused(Exception):
    """Raised inside the recorder when the step does something replay cannot repeat."""


class Recording:
    """What one eager run of a step did, as slots (values) and entries (work).

    ``entries``: ``("op", fn, ins, options, holes, needs, outs, out_meta)``,
    ``("call", fn, args, kwargs, out)``, ``("write", target, value)``, ``("copy", slot,
    source, dtype)``, ``("view", slot, base, shape, strides, offset, dtype, base shape,
    base dtype)`` and ``("walk", seeds, events, retain)``, in the order the step did them
    (see the module docstring). ``sources[slot]``: ``("arg", i)``, ``("tensor", t)``, ``("array", a)`` for a
    value from outside, None for one the step computed. ``nodes[node]``: ``("op", entry, k)``
    (output k of an op entry) or ``("leaf", source slot)``, the tensors of the backward walk.
    ``refused``: why the step cannot be replayed (None while it can).
    """

    def __init__(self, args: tuple) -> None:
        self.entries: list[tuple] = []
        self.sources: list[Any] = []
        self.nodes: list[tuple] = []
        self.slot_of: dict[int, int] = {}
        self.node_of: dict[int, int] = {}
        self.entry_of_ctx: dict[int, int] = {}
        self.modules: dict[int, tuple] = {}
        self.keep: list[Any] = []  # everything seen stays alive, so that ids stay unique
        self.arrays: dict[int, Any] = {}  # slot -> the array it held on this run
        self.views_of_owner: dict[int, list] = {}  # id(owner) -> contiguous slots viewing it
        self.inside = 0  # > 0 inside an op or a replayed call: what happens there is theirs
        self.allowed_write: Any = None
        self.refused: str | None = None
        self.arg_tensors: dict[int, int] = {}
        for i, a in enumerate(args):
            data = getattr(a, "data", None)
            if isinstance(data, np.ndarray) and not isinstance(a, np.ndarray):
                self.arg_tensors[id(a)] = i
                self._new_slot(("arg", i), data)
                self.keep.append(a)
            elif isinstance(a, np.ndarray):
                self._new_slot(("arg", i), a)

    # ---- slots and nodes ------------------------------------------------------------------
    def _new_slot(self, source: Any, array: Any) -> int:
        slot = len(self.sources)
        self.sources.append(source)
        self.slot_of[id(array)] = slot
        self.keep.append(array)
        self.arrays[slot] = array
        if isinstance(array, np.ndarray) and array.base is not None and array.flags.c_contiguous:
            self.views_of_owner.setdefault(id(array.base), []).append(slot)
        return slot

    def tensor_slot(self, t: Any) -> int:
        """The slot of tensor ``t``'s value: the step computed it, or it is an argument, or it
        comes from outside (refused if it carries a graph made before the step)."""
        slot = self.slot_of.get(id(t.data))
        if slot is not None:
            return slot
        if t._ctx is not None:
            raise Refused(f"it uses a tensor of shape {t.shape} whose graph was made before the "
                          "step; pass its value in as an argument, or compute it inside")
        slot = self._view_slot(t.data)
        if slot is not None:
            return slot
        self.keep.append(t)
        return self._new_slot(("tensor", t), t.data)

    def array_slot(self, a: np.ndarray) -> int:
        slot = self.slot_of.get(id(a))
        if slot is None:
            slot = self._view_slot(a)
        return slot if slot is not None else self._new_slot(("array", a), a)

    def _view_slot(self, a: np.ndarray) -> int | None:
        """A slot for ``a`` when it is a NumPy view (``t.data.reshape(-1)``, ``x[:, 0]``) of a
        contiguous array the step already has as a slot: the entry ``("view", slot, base slot,
        shape, strides, byte offset, dtype, base shape, base dtype)`` makes it again from
        that replay's base."""
        if not isinstance(a, np.ndarray) or a.base is None:
            return None
        # the slot a is a view of: a's owner itself, or a slot that is a view of the same owner
        # (an argument x[1] of a batch x) whose memory holds all of a
        candidates = [self.slot_of[id(a.base)]] if id(a.base) in self.slot_of else \
            self.views_of_owner.get(id(a.base), [])
        low, high = np.lib.array_utils.byte_bounds(a)
        for base_slot in reversed(candidates):
            base = self.arrays[base_slot]
            start = base.__array_interface__["data"][0]
            if (isinstance(base, np.ndarray) and base.flags.c_contiguous
                    and start <= low and high <= start + base.nbytes):
                break
        else:
            return None
        offset = low - start if a.size else 0
        offset = a.__array_interface__["data"][0] - start
        slot = self._new_slot(None, a)
        self.entries.append(("view", slot, base_slot, a.shape, a.strides, offset, a.dtype,
                             base.shape, base.dtype))
        return slot

    def node(self, t: Any) -> int:
        """The walk's number for tensor ``t``: an op's output, or a leaf (its value's slot)."""
        node = self.node_of.get(id(t))
        if node is None:
            if t._ctx is not None:
                raise Refused("its backward reaches a tensor whose graph was made before the step")
            node = len(self.nodes)
            self.nodes.append(("leaf", self.tensor_slot(t)))
            self.node_of[id(t)] = node
            self.keep.append(t)
        return node

    def refuse(self, reason: str) -> None:
        if self.refused is None:
            self.refused = reason
        _mode.recorder = None  # the step goes on eagerly, unrecorded

    def _guarded(self, record: Callable, *args: Any) -> None:
        try:
            record(*args)
        except Refused as e:
            self.refuse(str(e))

    # ---- ops ------------------------------------------------------------------------------
    def apply(self, fn: type, inputs: tuple, options: dict) -> Any:
        """Run ``fn.apply(*inputs, **options)`` as usual and write the op down."""
        self.inside += 1
        try:
            out = fn.apply(*inputs, **options)
        finally:
            self.inside -= 1
        if self.refused is None:
            self._guarded(self._op, fn, inputs, options, out)
        return out

    def _op(self, fn: type, inputs: tuple, options: dict, out: Any) -> None:
        if any(not hasattr(x, "_ctx") for x in inputs):  # the rule apply used for them
            inputs = _constant_inputs(fn, inputs)
        ins = tuple(self.tensor_slot(x) for x in inputs)
        static, holes = {}, []
        for key, value in options.items():
            if _plain(value):
                static[key] = value
            else:
                holes.append((key, self._option(fn, key, value)))
        needs = tuple(x._requires_grad for x in inputs)
        index = len(self.entries)
        outs_list = list(out) if isinstance(out, tuple) else [out]
        ctx = None
        outs, meta = [], []
        for k, o in enumerate(outs_list):
            data = getattr(o, "data", None)
            if data is None or not hasattr(o, "_ctx"):
                outs.append(None)
                meta.append(None)
                continue
            ctx = ctx or o._ctx
            outs.append(self._new_slot(None, data))
            meta.append((data.shape, data.dtype))
            self.node_of[id(o)] = len(self.nodes)
            self.nodes.append(("op", index, k))
            self.keep.append(o)
        if ctx is not None:
            self.entry_of_ctx[id(ctx)] = index
            self.keep.append(ctx)
        several = isinstance(out, tuple)
        self.entries.append(("op", fn, ins, static, tuple(holes),
                             needs if ctx is not None else None,
                             tuple(outs) if several else outs[0],
                             tuple(meta) if several else None))

    def _option(self, fn: type, key: str, value: Any) -> Any:
        """An option that is not a plain value: an array or tensor (a slot), or a tuple of
        values and arrays (an index); anything else cannot be compared, so it is refused."""
        if isinstance(value, np.ndarray):
            return ("slot", self.array_slot(value))
        if hasattr(value, "_ctx") and isinstance(getattr(value, "data", None), np.ndarray):
            return ("slot", self.tensor_slot(value))
        if isinstance(value, tuple):
            return ("tuple", tuple(("value", v) if _plain(v)
                                   else self._option(fn, key, v) for v in value))
        raise Refused(f"{fn.__name__} takes the option {key}= as a {type(value).__name__}, which "
                      "replay cannot compare from one call to the next")

    # ---- calls of @replayed functions ------------------------------------------------------
    def call(self, fn: Callable, args: tuple, kwargs: dict) -> Any:
        """Run a :func:`replayed` function and write the call down."""
        self.inside += 1
        try:
            result = fn(*args, **kwargs)
        finally:
            self.inside -= 1
        if self.refused is None:
            self._guarded(self._call, fn, args, kwargs, result)
        return result

    def _argument(self, value: Any) -> tuple:
        if isinstance(value, np.ndarray):
            return ("array", self.array_slot(value))
        if hasattr(value, "_ctx") and isinstance(getattr(value, "data", None), np.ndarray):
            slot = self.tensor_slot(value)
            if self.sources[slot] is not None and self.sources[slot][0] == "tensor":
                return ("object", slot)  # a tensor from outside: the object itself (a buffer)
            return ("tensor", slot)
        if _plain(value):
            return ("value", value)
        raise Refused(f"a replayed function got an argument of type {type(value).__name__}")

    def _call(self, fn: Callable, args: tuple, kwargs: dict, result: Any) -> None:
        specs = tuple(self._argument(a) for a in args)
        kw = tuple((k, self._argument(v)) for k, v in kwargs.items())
        if result is None:
            out = None
        elif isinstance(result, np.ndarray):
            out = self._new_slot(None, result)
        elif isinstance(result, tuple) and all(isinstance(r, np.ndarray) for r in result):
            out = tuple(self._new_slot(None, r) for r in result)
        else:
            raise Refused(f"{fn.__qualname__} is marked replayed but returned a "
                          f"{type(result).__name__}, not an array, a tuple of arrays or None")
        self.entries.append(("call", fn, specs, kw, out))

    def copies(self, data: Any, arr: np.ndarray) -> None:
        """A constructor made ``arr`` from ``data`` (an array or tensor): when ``data`` is a
        value of the step, the copy (and dtype conversion) is an entry, ``("copy", slot,
        source slot, dtype)``, so that replay copies that replay's value."""
        if self.inside or self.refused is not None:
            return
        source = data.data if hasattr(data, "_ctx") else data
        if arr is source or not isinstance(source, np.ndarray):
            return
        slot = self.slot_of.get(id(source))
        if slot is None:
            slot = self._view_slot(source)
        if slot is None:
            return  # from outside: the tensor made of it is a value from outside
        new = self._new_slot(None, arr)
        self.entries.append(("copy", new, slot, arr.dtype))

    # ---- writes, reads, draws ----------------------------------------------------------------
    def writes(self, target: Any, result: Any, with_graph: bool) -> None:
        """An in-place op writes ``result`` into ``target`` (``Tensor._inplace``)."""
        if self.inside or self.refused is not None:
            return
        if with_graph:
            self.refuse(f"an in-place op writes a tensor of shape {target.shape} that has a "
                         "graph; use the out-of-place op inside a captured step")
            return
        try:
            self.entries.append(("write", self.tensor_slot(target), self.tensor_slot(result)))
        except Refused as e:
            self.refuse(str(e))
            return
        self.allowed_write = target

    def bumps(self, t: Any) -> None:
        """``t``'s version moves: an in-place write. Only an op's or a replayed call's is
        repeated by replay."""
        if self.inside:
            return
        if t is self.allowed_write:
            self.allowed_write = None
            return
        self.refuse(f"it writes a tensor of shape {t.shape} in place outside an op (an "
                     "optimizer step, copy_, x[i] = v); replay would skip the write. Run the "
                     "optimizer after the captured function")

    def reads(self, t: Any, what: str) -> None:
        if not self.inside:
            self.refuse(f"it reads a tensor's values into Python ({what}), so what it does "
                         "next may depend on them")

    def draws(self, what: str) -> None:
        if not self.inside:
            self.refuse(f"it draws random numbers ({what}) outside a function marked "
                         "minigrad.step_capture.replayed; replay would repeat the same numbers")

    def sets_grad(self, t: Any) -> None:
        if not self.inside:
            self.refuse("it sets .grad (zero_grad?) inside the step; zero the gradients "
                         "outside the captured function")

    def module(self, m: Any) -> None:
        """A module's forward runs: guard its mode and its parameters and buffers (objects)."""
        if id(m) not in self.modules:
            self.modules[id(m)] = (m, m.training, tuple(m._parameters.values()),
                                   tuple(m._buffers.values()))

    # ---- the backward walk -----------------------------------------------------------------
    def walk(self, roots: Any, seeds: Any, create_graph: bool, grads_only: bool,
             retain_graph: bool) -> WalkLog | None:
        """A :class:`WalkLog` for a backward walk from ``roots`` with ``seeds`` (None when the
        walk cannot be replayed: the recording is refused)."""
        if self.inside or self.refused is not None:
            return None
        if create_graph:
            self.refuse("it calls backward(create_graph=True)")
            return None
        if grads_only:
            self.refuse("it calls minigrad.autograd.grad")
            return None
        try:
            return WalkLog(self, roots, seeds, retain_graph)
        except Refused as e:
            self.refuse(str(e))
            return None


class WalkLog:
    """The events of one backward walk, in the walk's order (``engine._walk`` reports them):
    ``(VISIT, node)`` pop the node's total gradient (finished to an array);
    ``(STORE, slot)`` add it into ``.grad`` of the leaf whose value is that slot;
    ``(GATHER, entry, k)`` hold it as the gradient of output k of a several-output op;
    ``(CALL, entry, accumulate)`` run the op's backward (on the gradient just popped, or on
    the gathered ones) and add input i's gradient into node n for each ``(i, n, meta)`` of
    ``accumulate`` (meta: (shape, dtype) when the engine had to check and convert it)."""

    def __init__(self, recording: Recording, roots: Any, seeds: Any, retain: bool) -> None:
        self.rec = recording
        self.seeds = []
        for r, s in zip(roots, seeds):
            seed = self.rec.array_slot(s) if isinstance(s, np.ndarray) else None
            if seed is None:
                raise Refused("its backward starts from a seed that is not an array")
            self.seeds.append((self.rec.node(r), seed))
        self.events: list[list] = []
        recording.entries.append(("walk", self.seeds, self.events, retain))

    def _visit(self, t: Any) -> None:
        if t._grad_hooks or t._retains_grad:
            raise Refused("its backward meets a tensor hook or retain_grad()")
        self.events.append([VISIT, self.rec.node(t)])

    def _report(self, record: Callable, *args: Any) -> None:
        if self.rec.refused is None:
            self.rec._guarded(record, *args)

    def store(self, t: Any) -> None:
        self._report(self._store, t)

    def _store(self, t: Any) -> None:
        if t._post_accumulate_grad_hooks:
            raise Refused("a parameter has a post-accumulate-grad hook")
        self._visit(t)
        self.events.append([STORE, self.rec.nodes[self.rec.node(t)][1]])
        self.rec.allowed_write = t._grad  # adding into an existing .grad is the walk's write

    def gather(self, t: Any, ctx: Any, complete: bool) -> None:
        self._report(self._gather, t, ctx)

    def _gather(self, t: Any, ctx: Any) -> None:
        self._visit(t)
        _, entry, k = self.rec.nodes[self.rec.node(t)]
        self.events.append([GATHER, entry, k])

    def call(self, ctx: Any, t: Any) -> None:
        self._report(self._call, ctx, t)

    def _call(self, ctx: Any, t: Any) -> None:
        entry = self.rec.entry_of_ctx.get(id(ctx))
        if entry is None:
            raise Refused(f"its backward runs {ctx.fn.__name__}, an op recorded before the step")
        if t is not None:
            self._visit(t)
        self.events.append([CALL, entry, []])

    def accumulate(self, i: int, parent: Any, checked: bool) -> None:
        self._report(self._accumulate, i, parent, checked)

    def _accumulate(self, i: int, parent: Any, checked: bool) -> None:
        meta = (parent.data.shape, parent.data.dtype) if checked else None
        self.events[-1][2].append((i, self.rec.node(parent), meta))

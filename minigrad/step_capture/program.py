"""A recorded step made replayable: two recordings compared, then run on new arguments.

:func:`program_from` takes two recordings of the same step (``recording.py``) and accepts
them only if they did the same work: the same ops in the same order on the same slots, with
equal options, the same replayed calls, the same backward walks. Each value from outside is
then classified by what the two recordings saw: the same tensor or array object both times
is read live at every replay (a parameter, whose values the optimizer changes in place);
different objects with equal values are a constant (``arange(T)`` made anew each call);
anything else changes from call to call in a way replay cannot see, and is refused.

:meth:`Program.run` replays: every op's ``forward`` on that call's arrays, with a Context of
its own where the backward needs one (no Tensors, no graph, no dispatch through
``Function.apply``); every replayed call again; every backward walk as the list of visits,
``backward`` calls and sums the recording wrote down, through the same
:class:`~minigrad.grad_buffers.ArraySums` the engine adds with (so every sum is made in the
same order, on the same values: replay equals eager to the bit).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from ..backward_results import checked_gradient, output_gradients
from ..function import Context, Function, promoted
from ..grad_buffers import ArraySums
from ..tensor import Tensor
from .recording import GATHER, STORE, VISIT, Recording


class Unstable(Exception):
    """Two recordings of a step differ: it cannot be replayed (the message says where)."""


def _same(a: Any, b: Any) -> bool:
    """Plain values equal, NaN equal to NaN, tuples element by element, types alike."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, functools.partial):
        return (a.func is b.func and _same(a.args, b.args) and a.keywords.keys() == b.keywords.keys()
                and all(_same(v, b.keywords[k]) for k, v in a.keywords.items()))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, np.generic):
        return a.dtype == b.dtype and bool(a == b or (np.isnan(a) and np.isnan(b)))
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return a is b


def _same_entry(a: tuple, b: tuple) -> bool:
    if a[0] != b[0] or len(a) != len(b):
        return False
    if a[0] == "op":
        return (a[1] is b[1] and a[2] == b[2] and a[3].keys() == b[3].keys()
                and all(_same(a[3][k], b[3][k]) for k in a[3]) and a[4] == b[4]
                and a[5] == b[5] and a[6] == b[6] and a[7] == b[7])
    if a[0] == "call":
        return a[1] is b[1] and _same(a[2], b[2]) and _same(a[3], b[3]) and a[4] == b[4]
    if a[0] == "walk":
        return a[1] == b[1] and a[2] == b[2] and a[3] == b[3]
    return a == b  # a write


def _first_difference(first: Recording, second: Recording) -> str | None:
    if len(first.entries) != len(second.entries):
        return (f"it did {len(first.entries)} pieces of work (ops, calls, backward passes) "
                f"on one call and {len(second.entries)} on the next")
    for i, (a, b) in enumerate(zip(first.entries, second.entries)):
        if not _same_entry(a, b):
            what = a[1].__name__ if a[0] in ("op", "call") else a[0]
            return f"piece of work {i} ({what}) differs from one call to the next"
    if len(first.sources) != len(second.sources):
        return "it used a different number of values from one call to the next"
    return None


def _classify(slot: int, a: Any, b: Any) -> tuple:
    """What slot ``slot``'s value from outside is: ``("live", obj)`` (read each replay),
    ``("const", array)``, ``("arg", i)``, or None (computed by the step)."""
    if a is None or b is None:
        if a is not b:
            raise Unstable(f"value {slot} comes from outside on one call only")
        return None
    if a[0] != b[0] or (a[0] == "arg" and a[1] != b[1]):
        raise Unstable(f"value {slot} comes from different places on two calls")
    if a[0] == "arg":
        return a
    x, y = a[1], b[1]
    if x is y:
        return ("live", y)
    xa, ya = (x.data, y.data) if a[0] == "tensor" else (x, y)
    if a[0] == "tensor" and (x._requires_grad or y._requires_grad):
        raise Unstable(f"a new tensor that requires grad (shape {ya.shape}) is made on each call")
    if (xa.shape == ya.shape and xa.dtype == ya.dtype
            and np.array_equal(xa, ya, equal_nan=xa.dtype.kind in "fc")):
        return ("const", ya.copy())
    raise Unstable(f"an array of shape {ya.shape} made outside the ops changes from call to "
                   "call; pass it to the step as an argument")


class Program:
    """A step ready to replay (see the module docstring); :meth:`run` takes the arguments."""

    def __init__(self, first: Recording, second: Recording, outputs: Any) -> None:
        why = _first_difference(first, second)
        if why is not None:
            raise Unstable(why)
        kinds = [_classify(i, a, b) for i, (a, b) in enumerate(zip(first.sources,
                                                                    second.sources))]
        self.template: list[Any] = [None] * len(kinds)
        self.args: list[tuple[int, int, bool]] = []
        self.live: list[tuple[int, Any, bool]] = []
        for slot, kind in enumerate(kinds):
            if kind is None:
                continue
            if kind[0] == "arg":  # a Tensor argument's slot holds its array
                self.args.append((slot, kind[1], kind[1] in second.arg_tensors.values()))
            elif kind[0] == "const":
                self.template[slot] = kind[1]
            else:
                self.live.append((slot, kind[1], isinstance(kind[1], Tensor)))
        self.guards = [(t, t.data.shape, t.data.dtype, t._requires_grad)
                       for _, t, is_tensor in self.live if is_tensor]
        self.modules = list(second.modules.values())
        self.outputs = outputs
        self.leaves: dict[int, Any] = {}  # slot -> leaf tensor (or the argument's index)
        for kind, *rest in second.nodes:
            if kind == "leaf":
                slot = rest[0]
                self.leaves[slot] = kinds[slot]
        self.steps = self._compile(second, kinds)
        self.release = _last_uses(self.steps, len(kinds), outputs)

    def _compile(self, rec: Recording, kinds: list) -> list[tuple]:
        steps: list[tuple] = []
        for entry in rec.entries:
            kind = entry[0]
            if kind == "op":
                _, fn, ins, static, holes, needs, outs, meta = entry
                steps.append(("op", fn, ins, static, holes, needs, outs, meta,
                              fn.promote is not None))
            elif kind == "call":
                _, fn, specs, kw, out = entry
                specs = tuple(_object(a, kinds) for a in specs)
                kw = tuple((k, _object(a, kinds)) for k, a in kw)
                steps.append((kind, fn, specs, kw, out))
            elif kind in ("write", "view", "copy"):
                steps.append(entry)
            else:
                _, seeds, events, retain = entry
                steps.append(("walk", tuple(seeds), _fused(events, rec), retain))
        return steps

    def guards_hold(self) -> str | None:
        """None when every value from outside and every module the step ran is as recorded;
        else what changed (replay would then be wrong: the caller records again)."""
        for t, shape, dtype, requires_grad in self.guards:
            d = t.data
            if d.shape != shape or d.dtype != dtype or t._requires_grad != requires_grad:
                return f"a tensor the step reads (shape {shape}) changed shape, dtype or requires_grad"
        for m, training, params, buffers in self.modules:
            if m.training != training:
                return f"{type(m).__name__} switched to {'train' if m.training else 'eval'} mode"
            now_p, now_b = tuple(m._parameters.values()), tuple(m._buffers.values())
            if len(now_p) != len(params) or len(now_b) != len(buffers) or not all(
                    map(_identical, now_p + now_b, params + buffers)):
                return f"{type(m).__name__}'s parameters or buffers were replaced"
        return None

    def run(self, args: tuple) -> Any:
        """Replay on ``args`` (of the recorded shapes and dtypes): returns what the step
        returned, each tensor a new Tensor without a graph."""
        vals = self.template.copy()
        for slot, i, is_tensor in self.args:
            vals[slot] = args[i].data if is_tensor else args[i]
        for slot, obj, is_tensor in self.live:
            vals[slot] = obj.data if is_tensor else obj
        leaves = {slot: (args[kind[1]] if kind[0] == "arg" else kind[1])
                  for slot, kind in self.leaves.items()}
        ctxs: dict[int, Context] = {}
        scratch = Context(Function, (), ())
        release = self.release
        for index, step in enumerate(self.steps):
            kind = step[0]
            if release[index]:  # values no later step reads: free them, as eager would
                for s in release[index]:
                    vals[s] = None
            if kind == "op":
                _, fn, ins, static, holes, needs, outs, meta, promote = step
                options = static
                if holes:
                    options = dict(static)
                    for key, hole in holes:
                        options[key] = _resolve(hole, vals)
                arrays = [vals[s] for s in ins]
                if promote:
                    arrays = promoted(fn, arrays, options)
                if needs is not None:
                    ctx = ctxs[index] = Context(fn, (), needs)
                    if meta is not None:
                        ctx._out_meta = meta
                    result = fn.forward(ctx, *arrays, **options)
                else:
                    try:
                        result = fn.forward(scratch, *arrays, **options)
                    finally:
                        scratch.__dict__.clear()
                        scratch._saved = ()
                if meta is None:
                    vals[outs] = result
                else:
                    for s, r in zip(outs, result):
                        if s is not None:
                            vals[s] = np.asarray(r) if isinstance(r, np.generic) else r
            elif kind == "walk":
                _walk(step, vals, ctxs, leaves, self.steps)
            elif kind == "call":
                _, fn, specs, kw, out = step
                result = fn(*[_argument(a, vals) for a in specs],
                            **{k: _argument(a, vals) for k, a in kw})
                if type(out) is int:
                    vals[out] = result
                elif out is not None:
                    for s, r in zip(out, result):
                        vals[s] = r
            elif kind == "view":
                _, slot, base_slot, shape, strides, offset, dtype, base_shape, base_dtype = step
                base = vals[base_slot]
                if (base.shape != base_shape or base.dtype != base_dtype
                        or not base.flags.c_contiguous):
                    raise RuntimeError("replaying a captured step: an array the step views "
                                       "changed layout; call reset() on the captured step")
                vals[slot] = np.ndarray(shape, dtype, buffer=base, offset=offset,
                                                    strides=strides)
            elif kind == "copy":
                vals[step[1]] = np.array(vals[step[2]], dtype=step[3])
            else:  # a write without a graph: target[...] = value
                vals[step[1]][...] = vals[step[2]]
        return _outputs(self.outputs, vals)


def _slots_of(hole: Any) -> list:
    if hole[0] == "slot":
        return [hole[1]]
    if hole[0] == "tuple":
        return [s for h in hole[1] for s in _slots_of(h)]
    return []


def _last_uses(steps: list, count: int, outputs: Any) -> list[tuple]:
    """For each step, the slots whose last reader is the step before it (so that ``run``
    drops them at the start of the step: an activation is then held only by the Contexts
    that saved it, and freed when their backward has run, as in an eager step)."""
    last = [-1] * count
    for i, step in enumerate(steps):
        kind = step[0]
        if kind == "op":
            used = [*step[2], *(s for _, h in step[4] for s in _slots_of(h))]
            produced = [step[6]] if step[7] is None else [s for s in step[6] if s is not None]
        elif kind == "call":
            used = [a[1] for a in (*step[2], *(a for _, a in step[3]))
                    if a[0] in ("array", "tensor")]
            produced = [] if step[4] is None else ([step[4]] if type(step[4]) is int
                                                   else list(step[4]))
        elif kind == "walk":
            used, produced = [slot for _, slot in step[1]], []
        elif kind == "write":
            used, produced = [step[1], step[2]], []
        else:  # a view or a copy: (kind, slot, source, ...)
            used, produced = [step[2]], [step[1]]
        for s in (*used, *produced):
            last[s] = i
    kept = set(_output_slots(outputs))
    release: list[list] = [[] for _ in range(len(steps) + 1)]
    for s, i in enumerate(last):
        if i >= 0 and s not in kept:
            release[i + 1].append(s)
    return [tuple(r) for r in release[:len(steps)]]


def _output_slots(spec: Any) -> list:
    if spec is None:
        return []
    if spec[0] == "tensor":
        return [spec[1]]
    return [s for sub in spec[1][1] for s in _output_slots(sub)]


def _object(spec: tuple, kinds: list) -> tuple:
    """A replayed call's tensor argument from outside (a buffer it updates) as the object
    itself, which must be the same on both recordings."""
    if spec[0] != "object":
        return spec
    kind = kinds[spec[1]]
    if kind is None or kind[0] != "live":
        raise Unstable("a replayed function is given a different tensor on each call")
    return ("value", kind[1])


def _identical(a: Any, b: Any) -> bool:
    return a is b


def _resolve(hole: tuple, vals: list) -> Any:
    if hole[0] == "slot":
        return vals[hole[1]]
    if hole[0] == "value":
        return hole[1]
    return tuple(_resolve(h, vals) for h in hole[1])


def _argument(spec: tuple, vals: list) -> Any:
    kind, x = spec
    if kind == "value":
        return x
    if kind == "array":
        return vals[x]
    return Tensor._from_op(vals[x], None)  # "tensor"


def _outputs(spec: Any, vals: list) -> Any:
    if spec is None:
        return None
    kind, x = spec
    if kind == "tensor":
        return Tensor._from_op(vals[x], None)
    return x[0](_outputs(s, vals) for s in x[1])


class _ShapeOf:
    """What ``checked_gradient`` reads of a parent: ``.data.shape`` and ``.data.dtype``."""

    __slots__ = ("data",)

    def __init__(self, shape: tuple, dtype: np.dtype) -> None:
        self.data = np.broadcast_to(np.zeros((), dtype=dtype), shape)


# a walk's events as replay runs them: a visit fused with what follows it
POP_STORE, POP_GATHER, POP_CALL, CALL_JOINED = range(4)


def _fused(events: list, rec: Recording) -> tuple:
    """The recorded events with each VISIT fused into the event after it (what the walk did
    with the total it popped): ``(POP_STORE, node, slot)``, ``(POP_GATHER, node, entry, k)``,
    ``(POP_CALL, node, entry, accumulate, nones)``, and a join's ``(CALL_JOINED, entry,
    accumulate, nones)``; ``nones``: the inputs that need a gradient and got None."""
    out: list[tuple] = []
    node = None
    for ev in events:
        if ev[0] == VISIT:
            node = ev[1]
            continue
        if ev[0] == STORE:
            out.append((POP_STORE, node, ev[1]))
        elif ev[0] == GATHER:
            out.append((POP_GATHER, node, ev[1], ev[2]))
        else:
            needs = rec.entries[ev[1]][5]
            given = {i for i, _, _ in ev[2]}
            nones = tuple(i for i, n in enumerate(needs) if n and i not in given)
            if node is None:
                out.append((CALL_JOINED, ev[1], tuple(ev[2]), nones))
            else:
                out.append((POP_CALL, node, ev[1], tuple(ev[2]), nones))
        node = None
    return tuple(out)


def _walk(step: tuple, vals: list, ctxs: dict, leaves: dict, steps: list) -> None:
    """Replay one backward walk (see :func:`_fused` for its events)."""
    _, seeds, events, retain = step
    sums = ArraySums(Tensor)
    grads: dict[int, Any] = {}
    for node, slot in seeds:
        total = grads.pop(node, None)
        seed = vals[slot]
        grads[node] = seed if total is None else sums.accumulate(total, seed)
    total = seed = None
    pending: dict[int, list] = {}
    for ev in events:
        op = ev[0]
        if op != CALL_JOINED:  # pop the node's total, finished to an array
            g = grads.pop(ev[1], None)
            if g is not None and type(g) is not np.ndarray:
                g = sums.finish(g)
        if op == POP_STORE:
            leaf = leaves[ev[2]]
            sums.store(leaf, g)
            g = None
            if leaf._post_accumulate_grad_hooks:
                for hook in tuple(leaf._post_accumulate_grad_hooks.values()):
                    hook(leaf)
            continue
        if op == POP_GATHER:
            entry = ev[2]
            held = pending.get(entry)
            if held is None:
                held = pending[entry] = [None] * len(steps[entry][6])
            held[ev[3]] = g
            g = None
            continue
        if op == POP_CALL:
            _, _, entry, accumulate, nones = ev
            ctx = ctxs[entry]
            fn = ctx.fn
            in_grads = fn.backward(ctx, g)
        else:
            _, entry, accumulate, nones = ev
            ctx = ctxs[entry]
            fn = ctx.fn
            in_grads = fn.backward(ctx, *output_gradients(ctx, pending.pop(entry), False,
                                                          Tensor))
        g = None
        if type(in_grads) is not tuple:
            in_grads = tuple(in_grads) if type(in_grads) is list else (in_grads,)
        for i, node, meta in accumulate:
            pg = in_grads[i]
            if pg is None:
                raise RuntimeError(f"replaying a captured step: {fn.__name__}.backward gave "
                                   f"no gradient for input {i}, where the recorded step "
                                   "had one; the step cannot be replayed")
            if meta is not None:  # the engine checked and converted it: so does replay
                pg = checked_gradient(ctx, i, pg, _ShapeOf(*meta), False, Tensor)
            total = grads.pop(node, None)
            grads[node] = pg if total is None else sums.accumulate(total, pg)
        for i in nones:
            if i < len(in_grads) and in_grads[i] is not None:
                raise RuntimeError(f"replaying a captured step: {fn.__name__}.backward gave "
                                   f"a gradient for input {i}, where the recorded step had "
                                   "none; the step cannot be replayed")
        in_grads = pg = total = None
        if not retain:
            del ctxs[entry]
            ctx.free()

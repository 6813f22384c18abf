"""Reverse-mode autodiff: walk the graph backwards and apply the chain rule.

``backward(root, grad)`` does three things:

1. finds every op that leads to ``root`` and orders them so that an op comes
   after all ops that use its output (reverse topological order), with an
   explicit stack instead of recursion, so a 10,000-op chain works;
2. visits them in that order, calling each op's ``backward`` with the
   gradient of its output and adding what it returns into the gradient of
   each input (a tensor used twice receives the sum of both contributions;
   the sum is written into a buffer the walk allocated itself, never into an
   array an op returned, and a slice's gradient is added at its index
   without building the zero-filled whole, see ``SliceGrad``);
3. adds the total into ``.grad`` of every leaf that requires grad (in place, into
   the Tensor the user holds: :func:`_accumulate`), and frees what each op saved
   once it has been used (unless ``retain_graph``).

What each ``backward`` returns is checked with PyTorch's rules (one gradient per input, of
the input's shape or one it broadcasts to, see ``backward_results.py``). An op
whose forward returned several outputs runs its ``backward`` once, with one gradient per
output, when the walk has visited every output it reaches (:class:`_SeveralOutputs`).

With ``create_graph=True`` the same walk calls the same ``backward`` of each op,
with grad mode on and a :class:`GraphContext` instead of the op's Context: its
saved arrays come back as the Tensors they are values of and ``ctx.xp`` is
:class:`~minigrad.ops.tensor_ops.TensorOps`, so the gradients are Tensors that
carry a graph of their own and can be differentiated again (Hessian-vector
products, gradient penalties, see docs/08_autodiff_of_autodiff.md). A fused op
is differentiated through its ``composite`` instead (:func:`recorded_backward`).
``grads`` is the same walk for ``minigrad.autograd.grad``: it returns the
gradients instead of storing them.
"""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import backward_results, function, inplace_writes
from .grad_mode import enable_grad, no_grad, recording_backward

if TYPE_CHECKING:
    from .tensor import Tensor


_TENSOR_CLASS: dict[type, type] = {}  # type of a tensor -> minigrad's Tensor class


def _tensor_class(t: Tensor) -> type:
    """minigrad's Tensor class, found from a tensor (a Parameter's base class too):
    tensor.py imports this module, so this module does not import tensor.py."""
    found = _TENSOR_CLASS.get(type(t))
    if found is None:
        for cls in type(t).__mro__:
            if "_from_op" in vars(cls):
                found = _TENSOR_CLASS[type(t)] = cls
                break
        else:
            raise TypeError(f"expected a minigrad Tensor, got {type(t).__name__}")
    return found


def _raise_rebased(ctx, parent) -> None:
    raise RuntimeError(
        f"one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: the tensor of shape {parent.shape}, dtype {parent.dtype}, input of "
        f"{ctx.fn.__name__}, was changed in place by {parent._ctx.fn.__name__} after "
        f"{ctx.fn.__name__} used it; minigrad cannot differentiate through its old value. "
        "Use the out-of-place op (e.g. x * 2 instead of x.mul_(2)) or .clone() before writing."
    )


def topological_order(root: Tensor | Sequence, stop: frozenset = frozenset()) -> list:
    """Tensors that ``root`` (one Tensor or several) depends on through recorded ops, inputs
    first. The walk does not go past tensors whose id is in ``stop`` (they are included)."""
    roots = root if isinstance(root, (list, tuple)) else (root,)
    order: list = []
    # A root is marked visited only when its own walk starts: a root that another root
    # depends on (grad([z, y]) with y an ancestor of z) must be placed among z's
    # ancestors, before z, so that z's contribution reaches it before it is visited.
    visited: set = set()
    for r in roots:
        if id(r) in visited:  # repeated, or already reached from an earlier root
            continue
        visited.add(id(r))
        # An explicit stack instead of recursion. Each entry is (tensor, parents
        # iterator); a tensor is appended to the order once all its parents are:
        # an iterative post-order depth-first search.
        ctx = r._ctx
        stack = [(r, ctx, iter(ctx.parents if ctx is not None and id(r) not in stop else ()))]
        while stack:
            t, tctx, parents = stack[-1]
            for p in parents:
                ctx = p._ctx
                if ctx is not None and ctx.seq > tctx.seq:  # p written in place since t's op
                    p = inplace_writes.value_when_used(tctx, p)
                    ctx = p._ctx
                if p._requires_grad and id(p) not in visited:
                    visited.add(id(p))
                    stack.append((p, ctx, iter(ctx.parents if ctx is not None
                                               and id(p) not in stop else ())))
                    break
            else:
                stack.pop()
                order.append(t)
    return order


def _root_grad(root: Tensor, grad: Any, create_graph: bool) -> Any:
    """The seed gradient of ``root``: ones for a scalar, else ``grad`` checked against its shape
    (an ndarray; a Tensor, keeping its graph, when ``create_graph``)."""
    Tensor = _tensor_class(root)
    if grad is None:
        if root.data.size != 1:
            raise RuntimeError(
                f"grad can be implicitly created only for scalar outputs; backward() was called "
                f"on a tensor of shape {root.shape}: pass grad= of that shape"
            )
        g = np.ones_like(root.data)
        return Tensor._from_op(g, None) if create_graph else g
    if create_graph and isinstance(grad, Tensor):
        g = grad if grad.dtype == root.dtype else grad.to(root.dtype)
    else:
        g = np.asarray(getattr(grad, "data", grad), dtype=root.data.dtype)
        if create_graph:
            g = Tensor._from_op(g, None)
    if g.shape != root.shape:
        raise ValueError(
            f"backward(grad=...) got a gradient of shape {g.shape} for an output of "
            f"shape {root.shape}"
        )
    return g


class GraphContext:
    """What an op's ``backward`` sees under ``create_graph``: its Context, except that
    ``saved_tensors`` gives the Tensors the saved arrays are values of (the op's inputs
    or its output ``out``: see ``Context.saved_as_tensors``) and ``xp`` is
    :class:`~minigrad.ops.tensor_ops.TensorOps`, which the Tensor class carries (so the
    engine imports no op). Every other attribute is the Context's own."""

    def __init__(self, ctx: function.Context, outs: tuple, tensor_class: type) -> None:
        self._ctx = ctx
        self.saved_tensors = ctx.saved_as_tensors(outs)
        self.xp = tensor_class.graph_ops

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ctx, name)


def recorded_backward(ctx: function.Context, outs: tuple, grads: Sequence,
                      tensor_class: type) -> Any:
    """The gradients of the op that made ``outs`` (its outputs, one incoming gradient each),
    recorded as a graph (``create_graph``): its one ``backward`` run on Tensors, or, for a
    fused op, the derivative of its ``composite``. An op with neither refuses."""
    fn = ctx.fn
    if fn.composite is not None:
        with recording_backward():
            return function.composite_backward(ctx, grads[0],
                                               functools.partial(fn.composite, ctx))
    if fn.differentiable_backward:
        with recording_backward():
            return fn.backward(GraphContext(ctx, outs, tensor_class), *grads)
    raise RuntimeError(
        f"double backward is not implemented for {fn.__name__}: its backward runs on arrays "
        "only, so backward(create_graph=True) cannot record its gradient. Write it in "
        "operations arrays and Tensors share (ctx.xp for the rest) and set "
        "differentiable_backward = True, or give the op a composite (see Function)."
    )


def _check_parent_versions(ctx) -> None:
    """A recorded backward reads the inputs themselves: refuse any written in place since
    forward."""
    if not ctx._versions:
        return
    ctx._check_versions()
    for p, then in zip(ctx.parents, ctx._versions[1]):
        if p._vc[0] != then:
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an "
                f"inplace operation: [tensor of shape {p.shape}, dtype {p.dtype}], an input of "
                f"{ctx.fn.__name__}, is at version {p._vc[0]}; expected version {then} instead."
            )


def _post_accumulate(leaf: Tensor) -> None:
    """Run the hooks of ``Tensor.register_post_accumulate_grad_hook``: ``leaf.grad`` now holds
    this backward's total (a leaf is visited once per backward, with its summed gradient)."""
    hooks = getattr(leaf, "_post_accumulate_grad_hooks", None)  # an unset slot: no hooks
    if hooks:
        for hook in tuple(hooks.values()):  # a hook may remove itself
            hook(leaf)


# One lock for every ``.grad`` update: backward passes running at once in several threads
# may share a leaf (the same model's parameters), and "read .grad, add, write .grad" must not
# interleave or a contribution is lost. An uncontended lock costs well under a microsecond per
# leaf, so the single-thread path stays cheap.
_grad_lock = threading.Lock()


def _accumulate(t: Tensor, g: Any, create_graph: bool) -> None:
    """Add this backward's gradient ``g`` of leaf ``t`` into ``t.grad``, atomically across
    threads, as PyTorch's AccumulateGrad does:

    - ``.grad`` is None: ``g`` becomes it, copied unless only the walk holds it (it may be
      shared with another input, as Add passes its grad to both, or a read-only broadcast view);
    - a plain backward: ``g`` is added into the Tensor ``.grad`` already is, in place (its
      version bumped), so ``g0 = w.grad`` held by the user, an optimizer or a hook sees the sum;
    - ``create_graph``: ``.grad`` becomes ``.grad + g``, a new Tensor with a graph, and the old
      one is left as it was (it may be an input of that graph).

    ``g`` is an ndarray, or a Tensor with a graph when ``create_graph``."""
    # counted first, as _only_in_walk counts: inside the call below, the arguments already
    # evaluated (g itself) would hold one more reference and no array would ever qualify
    refs = _refcount(g)
    with _grad_lock:
        old = t._grad
        if old is None:
            if create_graph:
                t._grad = g.clone()
                return
            if not _stealable(g, t.data.dtype, refs):
                g = np.array(g, dtype=t.data.dtype)  # not only ours: .grad gets its own copy
            t._grad = _tensor_class(t)._from_op(g, None)
        elif create_graph:
            t._grad = old + g
        else:
            _add_into_grad(t, old, g)


def _add_into_grad(t: Tensor, grad: Tensor, g: np.ndarray) -> None:
    """``t.grad += g`` in place, refusing (before writing) a ``.grad`` it cannot write into."""
    arr = grad.data
    if arr.shape != t.data.shape or arr.dtype != t.data.dtype:
        raise RuntimeError(
            f"cannot accumulate a gradient into .grad: it has shape {arr.shape} and dtype "
            f"{arr.dtype}, but the tensor has shape {t.data.shape} and dtype {t.data.dtype} "
            "(set .grad = None to start a new sum)"
        )
    if not arr.flags.writeable:
        raise RuntimeError(
            f"cannot accumulate a gradient into .grad (shape {arr.shape}): its array is "
            "read-only (set .grad = None, or to a writeable Tensor)"
        )
    np.add(arr, g, out=arr)
    grad._bump_version()


def _tensor_hooks(t: Tensor, g: Any, create_graph: bool) -> Any:
    """Run ``t``'s ``register_hook`` hooks on its total gradient ``g`` (each may replace it)
    and keep a copy in ``.grad`` when ``t.retain_grad()`` asked for it; returns the gradient
    to pass on. Hooks see a Tensor; in a plain backward the walk goes on with its array."""
    hooks = getattr(t, "_grad_hooks", None)
    if hooks:
        Tensor = _tensor_class(t)
        gt = g if create_graph else Tensor._from_op(g, None)
        for hook in tuple(hooks.values()):  # a hook may remove itself
            new = hook(gt)
            if new is not None:
                if not isinstance(new, Tensor) or new.shape != t.shape:
                    raise RuntimeError(
                        f"a hook registered on a tensor of shape {t.shape} returned "
                        f"{getattr(new, 'shape', type(new).__name__)}; it must return None or a "
                        "Tensor of the tensor's shape")
                gt = new
        g = gt if create_graph else gt.data
    if getattr(t, "_retains_grad", False) and t._ctx is not None:
        _accumulate(t, g if create_graph else np.array(g, dtype=t.data.dtype), create_graph)
    return g


def _is_lazy(g: Any) -> bool:
    """True for a gradient kept lazily (a SliceGrad or a RowScatterGrad), not an array
    (checked by type first: the walk asks for every gradient it passes on)."""
    return type(g) is not np.ndarray and hasattr(g, "add_to")


def _add_into(total: Any, g: Any, total_is_ours: bool) -> Any:
    """total + g, written into ``total`` when nobody else can see it: the walk allocated it,
    or it is a backward's fresh array that only the walk still holds (its Context freed:
    :func:`_stealable`, the rule a leaf's first gradient is taken by); otherwise into a new
    array, which the walk then owns. Either may be a lazy gradient
    (:class:`~minigrad.ops.array_ops.SliceGrad`, ``RowScatterGrad``: ``plus``,
    ``materialize``, ``add_to``): two slice gradients stay lazy, so q|k|v's are built once,
    as one array, and an embedding's rows are scattered into a tied head's gradient."""
    refs = _refcount(total)  # counted first, as _accumulate counts (see _only_in_walk)
    if _is_lazy(total) and _is_lazy(g):
        return total.plus(g)
    if _is_lazy(total):
        # the whole is ours to add into unless it is the parts' own array (built in place by
        # their backward, see SliceGrad.materialize): a part may be a captured gradient
        total = total.materialize()
        total_is_ours = total.base is None
    elif not total_is_ours:
        total_is_ours = _stealable(total, getattr(total, "dtype", None), refs)
    # a 0-d sum comes back from NumPy as a scalar, which has no buffer to write into
    total_is_ours = total_is_ours and type(total) is np.ndarray
    if _is_lazy(g):
        if not total_is_ours:
            total = np.array(total)
        g.add_to(total)
        return total
    if total_is_ours:
        np.add(total, g, out=total)
        return total
    return total + g


def _stealable(g: Any, dtype: np.dtype, refs: int) -> bool:
    """Whether a gradient array ``g`` is the walk's alone, to take as a leaf's ``.grad`` or to
    add into without a copy: a writeable array of ``dtype`` that owns its memory and that
    nothing but the backward walk holds (``refs``, its count one call down, is the walk's
    bare minimum; a view, a captured or saved gradient, a hook's copy all count)."""
    return (refs <= _ONLY_IN_WALK and type(g) is np.ndarray and g.base is None
            and g.flags.writeable and g.dtype == dtype)


def _refcount(a: Any) -> int:
    """How many references ``a`` has, as seen one call down (CPython's count)."""
    return sys.getrefcount(a)


def _only_in_walk() -> int:
    """The count for an array that only the walk's local name holds, passed down through
    one call as ``_accumulate`` passes it (see :func:`_stealable`)."""
    g = np.empty(1)
    return _passed_down(g)


def _passed_down(g: Any) -> int:
    return _refcount(g)


_ONLY_IN_WALK = _only_in_walk()


class _SeveralOutputs:
    """The gradients of the outputs of several-output ops, gathered during one walk: an op's
    ``backward`` runs once, when the last of its outputs that the walk reaches is visited
    (the walk's order puts every output of an op before any of its inputs).

    ``order`` is the walk's list of tensors still to visit (popped from its end): a tensor's
    position in it, recorded once, tells whether the walk has yet to visit it."""

    def __init__(self, order: list) -> None:
        self.order = order
        self.positions = {id(x): i for i, x in enumerate(order)}
        self.pending: dict[int, tuple] = {}

    def gather(self, t: Tensor, g: Any, ctx: function.Context) -> tuple | None:
        """Record ``g`` as the gradient of output ``t`` of ``ctx``. Returns (the outputs, their
        gradients, None where none arrived) once every output the walk reaches is in, None
        while some are still ahead or when no output received a gradient."""
        entry = self.pending.get(id(ctx))
        if entry is None:
            outs = tuple(None if r is None else r() for r in ctx._outs)
            ahead = len(self.order)
            waiting = {k for k, o in enumerate(outs)
                       if o is not None and o is not t and self.positions.get(id(o), ahead) < ahead}
            entry = self.pending[id(ctx)] = (outs, [None] * len(outs), waiting)
        outs, out_grads, waiting = entry
        k = next((k for k, o in enumerate(outs) if o is t), None)
        if k is None:
            raise RuntimeError(
                f"an output of {ctx.fn.__name__}, a Function with several outputs, was written "
                "in place while a graph was recorded; minigrad cannot rebase the history of one "
                "output of several. Use the out-of-place op, or .clone() the output first."
            )
        out_grads[k] = g
        waiting.discard(k)
        if waiting:
            return None
        del self.pending[id(ctx)]
        if all(x is None for x in out_grads):
            return None
        return outs, out_grads


def _walk(roots: Sequence, seeds: Sequence, retain_graph: bool, create_graph: bool,
          capture: dict | None, stop: frozenset = frozenset()) -> None:
    """The backward pass from ``roots`` with seed gradients ``seeds``.

    ``capture`` None: accumulate into ``.grad`` of every leaf. Otherwise a dict
    {id(tensor): None} of the tensors whose total gradient to record there (leaves or
    not), leaving every ``.grad`` untouched."""
    order = topological_order(list(roots), stop)
    Tensor = _tensor_class(roots[0])
    joins: _SeveralOutputs | None = None  # made when a several-output op is first met
    grads: dict[int, Any] = {}
    owned: set[int] = set()  # keys whose gradient array this walk allocated: add in place
    for r, s in zip(roots, seeds):
        grads[id(r)] = grads[id(r)] + s if id(r) in grads else s
    mode = enable_grad() if create_graph else no_grad()
    with mode:  # plain backward: arrays, record nothing; create_graph: record the backward
        # Popped, not iterated: once visited, a tensor is held by nothing here, so (with its
        # consumers' edges freed below) an activation nobody else holds dies as soon as its
        # gradient has been passed on, and memory falls while backward runs.
        while order:
            t = order.pop()
            g = grads.pop(id(t), None)
            owned.discard(id(t))  # t may die now: its id must not stay marked as ours
            ctx = t._ctx
            if g is not None:
                if not create_graph and _is_lazy(g):
                    g = g.materialize()  # a lazy slice gradient, now read as a whole
                if getattr(t, "_grad_hooks", None) or getattr(t, "_retains_grad", False):
                    g = _tensor_hooks(t, g, create_graph)
                if capture is not None and id(t) in capture:
                    capture[id(t)] = g
                    if id(t) in stop:
                        continue
                if ctx is None:  # a leaf: store the total gradient
                    if capture is None:
                        _accumulate(t, g, create_graph)
                        _post_accumulate(t)  # hooks run outside the lock
                    continue
            elif ctx is None or ctx._outs is None:
                continue
            if ctx._outs is not None:  # one of several outputs: backward waits for them all
                if joins is None:
                    joins = _SeveralOutputs(order)
                joined = joins.gather(t, g, ctx)
                if joined is None:
                    continue
                outs, out_grads = joined
                out_grads = backward_results.output_gradients(ctx, out_grads, create_graph,
                                                               Tensor)
            else:
                outs, out_grads = (t,), (g,)
            if ctx._freed:
                raise RuntimeError(
                    f"Trying to backward through the graph a second time: {ctx.fn.__name__} "
                    "already ran its backward and freed what it saved. Pass retain_graph=True "
                    "to the first backward() to keep the graph."
                )
            if create_graph:
                _check_parent_versions(ctx)
                in_grads = recorded_backward(ctx, outs, out_grads, Tensor)
                # a gradient in with a graph: a gradient out without one lost its derivative
                graph_in = any(getattr(x, "_requires_grad", False) for x in out_grads)
            else:
                in_grads = ctx.fn.backward(ctx, *out_grads)
            outs = out_grads = None
            if type(in_grads) is not tuple:
                in_grads = tuple(in_grads) if type(in_grads) is list else (in_grads,)
            if len(in_grads) != len(ctx.parents):
                in_grads = backward_results.checked_count(ctx, in_grads)
            for i, (parent, needs, pg) in enumerate(zip(ctx.parents, ctx.needs_input_grad,
                                                        in_grads)):
                if not needs or pg is None:
                    continue
                pctx = parent._ctx
                if pctx is not None and pctx.seq > ctx.seq:
                    _raise_rebased(ctx, parent)
                if ((type(pg) is not np.ndarray if not create_graph else not isinstance(pg, Tensor))
                        or pg.shape != parent.data.shape or pg.dtype != parent.data.dtype):
                    pg = backward_results.checked_gradient(ctx, i, pg, parent, create_graph,
                                                           Tensor)
                if create_graph and graph_in and not pg._requires_grad:
                    backward_results.refuse_constant_gradient(ctx, i, parent)
                key = id(parent)
                if key not in grads:
                    grads[key] = pg
                elif create_graph:
                    grads[key] = grads[key] + pg
                else:
                    grads[key] = _add_into(grads[key], pg, key in owned)
                    owned.add(key)
            # drop the walk's own names for the gradients just passed on: a leaf visited
            # next can then take its array as .grad without a copy (see _stealable)
            in_grads = pg = None
            if not retain_graph:
                ctx.free()


def backward(root: Tensor, grad: Any = None, retain_graph: bool | None = None,
             create_graph: bool = False, inputs: Sequence | None = None) -> None:
    """Accumulate d(root)/d(leaf) into ``leaf.grad`` for every leaf that needs it (only for
    ``inputs``, when given). ``retain_graph`` defaults to ``create_graph``; with
    ``create_graph`` the gradients are Tensors with a graph (see the module docstring)."""
    if not root.requires_grad:
        raise RuntimeError(
            "backward() called on a tensor that does not require grad and has no graph "
            "(was it computed under no_grad(), or from inputs without requires_grad=True?)"
        )
    if retain_graph is None:
        retain_graph = create_graph
    seed = _root_grad(root, grad, create_graph)
    if inputs is None:
        _walk([root], [seed], retain_graph, create_graph, None)
        return
    Tensor = _tensor_class(root)
    inputs = [inputs] if isinstance(inputs, Tensor) else list(inputs)
    found = grads([root], inputs, [seed], retain_graph, create_graph, allow_unused=True)
    for x, g in zip(inputs, found):
        if g is not None:
            _accumulate(x, g if create_graph else g.data, create_graph)
            _post_accumulate(x)


def grads(outputs: Sequence, inputs: Sequence, seeds: Sequence, retain_graph: bool,
          create_graph: bool, allow_unused: bool, stop_at_inputs: bool = False) -> tuple:
    """d(sum of outputs . seeds)/d(input) for each input, as Tensors (or None if unused and
    ``allow_unused``); ``.grad`` is not touched. ``seeds`` are checked root gradients.
    ``stop_at_inputs``: treat the inputs as independent (do not walk past them), which
    gives an op's partial derivatives (see ``function.composite_backward``)."""
    Tensor = _tensor_class(outputs[0])
    for i, x in enumerate(inputs):
        if not isinstance(x, Tensor):
            raise TypeError(f"grad: input {i} is a {type(x).__name__}, not a Tensor")
        if not x.requires_grad:
            raise RuntimeError(f"grad: input {i} (shape {x.shape}) does not require grad")
    capture = {id(x): None for x in inputs}
    stop = frozenset(capture) if stop_at_inputs else frozenset()
    _walk(outputs, seeds, retain_graph, create_graph, capture, stop)
    out = []
    for i, x in enumerate(inputs):
        g = capture[id(x)]
        if g is None:
            if not allow_unused:
                raise RuntimeError(
                    f"grad: input {i} (shape {x.shape}) was not used to compute the outputs; "
                    "pass allow_unused=True to get None for it"
                )
            out.append(None)
        elif isinstance(g, Tensor):
            out.append(g)
        else:
            out.append(Tensor._from_op(np.array(g, dtype=x.dtype), None))
    return tuple(out)


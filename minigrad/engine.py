"""Reverse-mode autodiff: walk the graph backwards and apply the chain rule.

``backward(root, grad)`` does three things:

1. orders every tensor ``root`` depends on so that each comes after all the tensors
   computed from it (:func:`topological_order`, an explicit stack instead of recursion,
   so a 10,000-op chain works);
2. visits them in that order, calling each op's ``backward`` with the gradient of its
   output and adding what it returns into the gradient of each input (a tensor used twice
   receives the sum of both contributions);
3. adds the total into ``.grad`` of every leaf that requires grad, and frees what each op
   saved once it has been used (unless ``retain_graph``), so an activation nobody else
   holds dies while backward runs.

The walk hands every gradient to a :class:`~minigrad.grad_buffers.GradientSums`
(``accumulate``, ``finish``, ``store``, ``keep``), which decides where each sum is written
(``grad_buffers.py``: in place or new, lazy slice and row gradients); it checks what each
``backward`` returns with PyTorch's rules (``backward_results.py``), refuses an input
written in place after an op used it (the version checks), and runs the tensor hooks.
With ``create_graph=True`` it is the same walk with grad mode on, Tensors for gradients and
each op's backward recorded as a graph (``graph_backward.py``). ``grads`` is the same walk
for ``minigrad.autograd.grad``: it returns the gradients instead of storing them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import backward_results, graph_backward, inplace_writes
from .grad_buffers import ArraySums, GradientSums, GraphSums
from .grad_mode import _mode, enable_grad, no_grad

if TYPE_CHECKING:
    from .tensor import Tensor


def _tensor_class(t: Tensor) -> type:
    """minigrad's Tensor class (a Parameter's base class too), found from a tensor: tensor.py
    imports this module, so this module does not import tensor.py."""
    return next(cls for cls in type(t).__mro__ if "_from_op" in vars(cls))


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
                pid = id(p)
                if p._requires_grad and pid not in visited:
                    visited.add(pid)
                    stack.append((p, ctx, iter(ctx.parents if ctx is not None
                                               and pid not in stop else ())))
                    break
            else:
                stack.pop()
                order.append(t)
    return order


def _tensor_hooks(t: Tensor, g: Any, sums: GradientSums, create_graph: bool) -> Any:
    """Run ``t``'s ``register_hook`` hooks on its total gradient ``g`` (each may replace it)
    and keep it in ``.grad`` when ``t.retain_grad()`` asked for it; returns the gradient
    to pass on. Hooks see a Tensor; in a plain backward the walk goes on with its array."""
    hooks = t._grad_hooks
    if hooks:
        Tensor = sums.tensor_class
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
    if t._retains_grad and t._ctx is not None:
        sums.keep(t, g)
    return g


def _post_accumulate(leaf: Tensor) -> None:
    """Run the hooks of ``Tensor.register_post_accumulate_grad_hook``: ``leaf.grad`` now holds
    this backward's total (a leaf is visited once per backward, with its summed gradient)."""
    for hook in tuple(leaf._post_accumulate_grad_hooks.values()):  # a hook may remove itself
        hook(leaf)


def _walk(roots: Sequence, seeds: Sequence, retain_graph: bool, create_graph: bool,
          capture: dict | None, stop: frozenset = frozenset()) -> None:
    """The backward pass from ``roots`` with seed gradients ``seeds``.

    ``capture`` None: accumulate into ``.grad`` of every leaf. Otherwise a dict
    {id(tensor): None} of the tensors whose total gradient to record there (leaves or
    not), leaving every ``.grad`` untouched."""
    # a captured step being recorded (minigrad/step_capture/) logs what this walk does
    log = None if _mode.recorder is None else _mode.recorder.walk(
        roots, seeds, create_graph, capture is not None, retain_graph)
    order = topological_order(list(roots), stop)
    Tensor = _tensor_class(roots[0])
    sums = GraphSums(Tensor) if create_graph else ArraySums(Tensor)
    joins = None  # a backward_results.SeveralOutputs, made when a several-output op is met
    # id(tensor) -> its gradient summed so far. A total is popped before it is added to, so
    # that the walk's one name for it is the one grad_buffers counts on (see _unshared).
    grads: dict[int, Any] = {}
    for r, s in zip(roots, seeds):
        total = grads.pop(id(r), None)
        grads[id(r)] = s if total is None else sums.accumulate(total, s)
    total = None
    with enable_grad() if create_graph else no_grad():
        # Popped, not iterated: once visited, a tensor is held by nothing here, so (with its
        # consumers' edges freed below) an activation nobody else holds dies as soon as its
        # gradient has been passed on, and memory falls while backward runs.
        while order:
            t = order.pop()
            tid = id(t)
            g = grads.pop(tid, None)
            ctx = t._ctx
            if g is not None:
                if type(g) is not np.ndarray:  # finish passes a plain array on as it is
                    g = sums.finish(g)
                if t._grad_hooks or t._retains_grad:  # slots every Tensor sets (to None, False)
                    g = _tensor_hooks(t, g, sums, create_graph)
                if capture is not None and tid in capture:
                    capture[tid] = g
                    if tid in stop:
                        continue
                if ctx is None:  # a leaf: store the total gradient
                    if capture is None:
                        if log is not None:
                            log.store(t)
                        sums.store(t, g)
                        if t._post_accumulate_grad_hooks:
                            _post_accumulate(t)  # hooks run outside the lock
                    continue
            elif ctx is None or ctx._outs is None:
                continue
            if ctx._outs is not None:  # one of several outputs: backward waits for them all
                if joins is None:
                    joins = backward_results.SeveralOutputs(order, create_graph, Tensor)
                joined = joins.gather(t, g, ctx)
                if log is not None:
                    log.gather(t, ctx, joined is not None)
                if joined is None:
                    continue
                outs, out_grads = joined
            else:
                outs, out_grads = (t,), (g,)
            if ctx._freed:
                raise RuntimeError(
                    f"Trying to backward through the graph a second time: {ctx.fn.__name__} "
                    "already ran its backward and freed what it saved. Pass retain_graph=True "
                    "to the first backward() to keep the graph."
                )
            if create_graph:
                in_grads = graph_backward.recorded_backward(ctx, outs, out_grads, Tensor)
                # a gradient in with a graph: a gradient out without one lost its derivative
                graph_in = any(getattr(x, "_requires_grad", False) for x in out_grads)
            else:
                if log is not None:
                    log.call(ctx, t if ctx._outs is None else None)
                in_grads = ctx.fn.backward(ctx, *out_grads)
            outs = out_grads = None
            if type(in_grads) is not tuple:
                in_grads = tuple(in_grads) if type(in_grads) is list else (in_grads,)
            parents = ctx.parents
            if len(in_grads) != len(parents):
                in_grads = backward_results.checked_count(ctx, in_grads)
            for i, (parent, needs, pg) in enumerate(zip(parents, ctx.needs_input_grad,
                                                        in_grads)):
                if not needs or pg is None:
                    continue
                pctx = parent._ctx
                if pctx is not None and pctx.seq > ctx.seq:
                    _raise_rebased(ctx, parent)
                data = parent.data
                checked = ((type(pg) is not np.ndarray if not create_graph
                            else not isinstance(pg, Tensor))
                           or pg.shape != data.shape or pg.dtype != data.dtype)
                if checked:
                    pg = backward_results.checked_gradient(ctx, i, pg, parent, create_graph,
                                                           Tensor)
                if log is not None:
                    log.accumulate(i, parent, checked)
                if create_graph and graph_in and not pg._requires_grad:
                    backward_results.refuse_constant_gradient(ctx, i, parent)
                pid = id(parent)
                total = grads.pop(pid, None)
                grads[pid] = pg if total is None else sums.accumulate(total, pg)
                total = None
            # drop the walk's own names for the gradients just passed on: a leaf visited
            # next can then take its array as .grad without a copy (see grad_buffers)
            in_grads = pg = parents = data = None
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
    Tensor = _tensor_class(root)
    seed = backward_results.root_gradient(root, grad, create_graph, Tensor)
    if inputs is None:
        _walk([root], [seed], retain_graph, create_graph, None)
        return
    inputs = [inputs] if isinstance(inputs, Tensor) else list(inputs)
    found = grads([root], inputs, [seed], retain_graph, create_graph, allow_unused=True)
    sums = GraphSums(Tensor) if create_graph else ArraySums(Tensor)
    for x, g in zip(inputs, found):
        if g is not None:
            sums.store(x, g if create_graph else g.data)
            if x._post_accumulate_grad_hooks:
                _post_accumulate(x)


def grads(outputs: Sequence, inputs: Sequence, seeds: Sequence, retain_graph: bool,
          create_graph: bool, allow_unused: bool, stop_at_inputs: bool = False) -> tuple:
    """d(sum of outputs . seeds)/d(input) for each input, as Tensors (or None if unused and
    ``allow_unused``); ``.grad`` is not touched. ``seeds`` are checked root gradients.
    ``stop_at_inputs``: treat the inputs as independent (do not walk past them), which
    gives an op's partial derivatives (see ``graph_backward.composite_backward``)."""
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
        if g is None and not allow_unused:
            raise RuntimeError(
                f"grad: input {i} (shape {x.shape}) was not used to compute the outputs; "
                "pass allow_unused=True to get None for it"
            )
        # a plain walk's array goes to the caller as a Tensor of its own (a copy)
        out.append(g if g is None or isinstance(g, Tensor)
                   else Tensor._from_op(np.array(g, dtype=x.dtype), None))
    return tuple(out)


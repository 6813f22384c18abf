"""The gradients that pass between the walk and an op's ``backward``, checked by the engine
with PyTorch's rules: what the walk starts from, what a backward receives, what it returns.

**What it returns.** A Function applied to n inputs has a ``backward`` that returns n
gradients, one per input (a tuple; a single value when n == 1), None for an input that needs
none. PyTorch's rules, which the engine applies to every op, built-in or user-written:

- **count**: exactly n values; more are accepted only when every extra one is None;
- **shape**: a gradient's shape equals its input's, or the input's shape broadcasts to it,
  and then the gradient is summed back to the input's shape (as PyTorch's ``sum_to``);
- **dtype**: a gradient of another real or integer dtype is cast to the input's dtype;
- **type**: an ndarray (a Tensor under ``create_graph``; a Tensor on the plain path is
  read as its array), a :class:`~minigrad.grad_buffers.LazyGrad` (on the plain path), or None;
- **graph**: under ``create_graph``, when the incoming gradient carries a graph, a gradient
  for an input that requires grad must carry one too: a value computed outside minigrad's
  ops (``np.*``, ``.data``) would make the second derivative silently 0. With a constant
  incoming gradient (the seed of ``grad(y, x, create_graph=True)``) a gradient without a
  graph can be right (ReLU's ``grad * (a > 0)``), so only ``gradgradcheck``, whose
  incoming gradients require grad, tells the two apart there.

A violation raises a RuntimeError naming the Function, the index of the input at fault and
what was expected. The engine calls these checks only for a gradient that is not already an
array of its input's shape and dtype, so the common case costs three comparisons.

**What it receives.** A backward gets one gradient per output: a several-output op's once
the walk has reached all of its outputs (:class:`SeveralOutputs`), zeros for an output the
loss did not use (:func:`output_gradients`). **What the walk starts from**: ones for a
scalar, else the ``grad=`` given, of the output's shape (:func:`root_gradient`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .grad_buffers import LazyGrad
from .ops.broadcast import broadcasts_to, unbroadcast


def _shape_text(shape: tuple) -> str:
    """A shape as PyTorch prints it in these messages: [2, 3]."""
    return "[" + ", ".join(str(int(n)) for n in shape) + "]"


def checked_count(ctx: Any, in_grads: tuple) -> tuple:
    """``in_grads`` cut to one per input: extra values are allowed only if all are None."""
    n = len(ctx.parents)
    if len(in_grads) > n and all(g is None for g in in_grads[n:]):
        return in_grads[:n]
    raise RuntimeError(
        f"function {ctx.fn.__name__}.backward returned an incorrect number of gradients "
        f"(expected {n}, got {len(in_grads)}): one per input of {ctx.fn.__name__}.apply, "
        "in order, None for an input that needs no gradient"
    )


def checked_gradient(ctx: Any, index: int, g: Any, parent: Any, create_graph: bool,
                     tensor_class: type) -> Any:
    """``g``, the gradient ``ctx``'s backward returned for input ``index`` (``parent``), as
    the engine adds it: an ndarray (a Tensor under ``create_graph``) of the input's shape
    and dtype, summed down from a broadcast shape and cast from another numeric dtype.
    Raises for anything else."""
    name = ctx.fn.__name__
    if isinstance(g, np.generic):
        g = np.asarray(g)
    if isinstance(g, tensor_class):
        if not create_graph:
            g = g.data
    elif isinstance(g, np.ndarray):
        if create_graph:
            g = tensor_class._from_op(g, None)
    elif isinstance(g, LazyGrad):
        if create_graph:  # no lazy gradients under create_graph: a constant of that value
            g = tensor_class._from_op(g.materialize(), None)
    else:
        raise RuntimeError(  # noqa: TRY004  (PyTorch's type)
            f"Function {name}.backward returned an invalid gradient at index {index} - "
            f"expected an array, a Tensor or None (got {type(g).__name__})"
        )
    want = parent.data.shape
    if g.shape != want:
        if not broadcasts_to(want, g.shape):
            raise RuntimeError(
                f"Function {name}.backward returned an invalid gradient at index {index} - "
                f"got {_shape_text(g.shape)} but expected shape compatible with "
                f"{_shape_text(want)}"
            )
        g = unbroadcast(g.materialize() if isinstance(g, LazyGrad) else g, want)
    dtype = parent.data.dtype
    if g.dtype != dtype:
        if np.dtype(g.dtype).kind not in "biuf":
            raise RuntimeError(
                f"Function {name}.backward returned an invalid gradient at index {index} - "
                f"expected dtype {dtype} but got {g.dtype}"
            )
        g = g.to(dtype) if create_graph else g.astype(dtype)
    return g


def refuse_constant_gradient(ctx: Any, index: int, parent: Any) -> None:
    """Raise: under ``create_graph`` ``ctx``'s backward returned a gradient without a graph
    for input ``index``, which requires grad, although the incoming gradient had one."""
    name = ctx.fn.__name__
    raise RuntimeError(
        f"Function {name}.backward returned a gradient with no graph at index {index} (an "
        f"input of shape {_shape_text(parent.data.shape)} that requires grad) while "
        "backward(create_graph=True) records one and the incoming gradient had one: it was "
        "computed outside minigrad's operations (np.* on arrays, or .data), so its "
        "derivative would silently be 0. Write "
        "the backward in operations arrays and Tensors share (ctx.xp for the rest, e.g. "
        f"ctx.xp.exp(a)), or remove differentiable_backward = True from {name} so that "
        "create_graph refuses it."
    )


class SeveralOutputs:
    """The gradients of the outputs of several-output ops, gathered during one walk: an op's
    ``backward`` runs once, when the last of its outputs that the walk reaches is visited
    (the walk's order puts every output of an op before any of its inputs).

    ``order`` is the walk's list of tensors still to visit (popped from its end): a tensor's
    position in it, recorded once, tells whether the walk has yet to visit it. The gradients
    are handed over as :func:`output_gradients` fills them (``create_graph``: Tensors of
    ``tensor_class``)."""

    def __init__(self, order: list, create_graph: bool, tensor_class: type) -> None:
        self.order = order
        self.create_graph, self.tensor_class = create_graph, tensor_class
        self.positions = {id(x): i for i, x in enumerate(order)}
        self.pending: dict[int, tuple] = {}

    def gather(self, t: Any, g: Any, ctx: Any) -> tuple | None:
        """Record ``g`` as the gradient of output ``t`` of ``ctx``. Returns (the outputs, their
        gradients) once every output the walk reaches is in, None while some are still ahead
        or when no output received a gradient."""
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
        return outs, output_gradients(ctx, out_grads, self.create_graph, self.tensor_class)


def output_gradients(ctx: Any, grads: list, create_graph: bool, tensor_class: type) -> list:
    """The gradients a several-output ``backward`` receives: one per output, zeros for an
    output the loss did not reach (None with ``ctx.set_materialize_grads(False)``, and
    always for an output that is not an array)."""
    if not ctx._materialize_grads:
        return grads
    filled = []
    for g, meta in zip(grads, ctx._out_meta):
        if g is None and meta is not None:
            g = np.zeros(*meta)
            if create_graph:
                g = tensor_class._from_op(g, None)
        filled.append(g)
    return filled


def root_gradient(root: Any, grad: Any, create_graph: bool, tensor_class: type) -> Any:
    """The seed gradient of ``root`` (``backward(grad=...)``, ``grad_outputs``): ones for a
    scalar, else ``grad`` checked against its shape (an ndarray; a Tensor, keeping its graph,
    when ``create_graph``)."""
    Tensor = tensor_class
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

"""An op's backward recorded as a graph, for ``backward(create_graph=True)`` and
``autograd.grad(..., create_graph=True)`` (docs/08_autodiff_of_autodiff.md).

The walk (``engine.py``) is the same with or without ``create_graph``; what changes is how
it calls each op's backward (:func:`recorded_backward`):

- an op with ``differentiable_backward = True`` runs its one ``backward`` again, on a
  :class:`GraphContext`, whose ``saved_tensors`` are Tensors and whose ``ctx.xp`` is
  Tensor ops, so every step of the backward is itself recorded;
- a fused op (one whose backward calls a tuned kernel) names a ``composite``, the same
  function in small ops: :func:`composite_backward` rebuilds the forward from it and
  differentiates that;
- an op with neither refuses, rather than return a gradient without a graph.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from . import engine
from .grad_mode import enable_grad, recording_backward


class GraphContext:
    """What an op's ``backward`` sees under ``create_graph``: its Context, except that
    ``saved_tensors`` gives the Tensors the saved arrays are values of (the op's inputs
    or its outputs ``outs``: see ``Context.saved_as_tensors``) and ``xp`` is
    :class:`~minigrad.ops.tensor_ops.TensorOps`, which the Tensor class carries (so this
    module imports no op). Every other attribute is the Context's own."""

    def __init__(self, ctx: Any, outs: tuple, tensor_class: type) -> None:
        self._ctx = ctx
        self.saved_tensors = ctx.saved_as_tensors(outs)
        self.xp = tensor_class.graph_ops

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ctx, name)


def recorded_backward(ctx: Any, outs: tuple, grads: Sequence, tensor_class: type) -> Any:
    """The gradients of the op that made ``outs`` (its outputs, one incoming gradient each),
    recorded as a graph: its one ``backward`` run on Tensors, or, for a fused op, the
    derivative of its ``composite``. An op with neither refuses, and so does one whose
    inputs were written in place since its forward (the recorded backward reads them)."""
    _check_input_versions(ctx)
    fn = ctx.fn
    if fn.composite is not None:
        with recording_backward():
            return composite_backward(ctx, grads[0], functools.partial(fn.composite, ctx))
    if fn.differentiable_backward:
        with recording_backward():
            return fn.backward(GraphContext(ctx, outs, tensor_class), *grads)
    raise RuntimeError(
        f"double backward is not implemented for {fn.__name__}: its backward runs on arrays "
        "only, so backward(create_graph=True) cannot record its gradient. Write it in "
        "operations arrays and Tensors share (ctx.xp for the rest) and set "
        "differentiable_backward = True, or give the op a composite (see Function)."
    )


def _check_input_versions(ctx: Any) -> None:
    """Refuse (PyTorch's error) when an input of ``ctx``'s op, or a saved array, was written in
    place since forward: on the plain path a backward reads only what it saved, but a recorded
    one reads the inputs themselves."""
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


def composite_backward(ctx: Any, grad: Any, composite: Any) -> tuple:
    """An op's gradient under ``create_graph`` through its composite form: rebuild the
    forward from ``ctx.parents`` with ``composite(*parents)`` in ordinary ops, then
    differentiate that (partial derivatives: the walk stops at the parents)."""
    needs = ctx.needs_input_grad
    with enable_grad():
        out = composite(*ctx.parents)
    wanted = [p for p, n in zip(ctx.parents, needs) if n]
    found = iter(engine.grads([out], wanted, [grad], retain_graph=True, create_graph=True,
                              allow_unused=True, stop_at_inputs=True))
    return tuple(next(found) if n else None for n in needs)

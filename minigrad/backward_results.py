"""What an op's ``backward`` may return, checked by the engine with PyTorch's rules.

A Function applied to n inputs has a ``backward`` that returns n gradients, one per input
(a tuple; a single value when n == 1), None for an input that needs none. PyTorch's rules,
which the engine applies to every op, built-in or user-written:

- **count**: exactly n values; more are accepted only when every extra one is None;
- **shape**: a gradient's shape equals its input's, or the input's shape broadcasts to it,
  and then the gradient is summed back to the input's shape (as PyTorch's ``sum_to``);
- **dtype**: a gradient of another real or integer dtype is cast to the input's dtype;
- **type**: an ndarray (a Tensor under ``create_graph``; a Tensor on the plain path is
  read as its array), or None;
- **graph**: under ``create_graph``, when the incoming gradient carries a graph, a gradient
  for an input that requires grad must carry one too: a value computed outside minigrad's
  ops (``np.*``, ``.data``) would make the second derivative silently 0. With a constant
  incoming gradient (the seed of ``grad(y, x, create_graph=True)``) a gradient without a
  graph can be right (ReLU's ``grad * (a > 0)``), so only ``gradgradcheck``, whose
  incoming gradients require grad, tells the two apart there.

A violation raises a RuntimeError naming the Function, the
index of the input at fault and what was expected.
"""

from __future__ import annotations

from typing import Any

import numpy as np

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
    elif not hasattr(g, "add_to"):  # the engine's lazy gradients pass as they are
        raise RuntimeError(
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
        g = unbroadcast(g.materialize() if hasattr(g, "add_to") else g, want)
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

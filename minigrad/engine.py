"""Reverse-mode autodiff: walk the graph backwards and apply the chain rule.

``backward(root, grad)`` does three things:

1. finds every op that leads to ``root`` and orders them so that an op comes
   after all ops that use its output (reverse topological order), with an
   explicit stack instead of recursion, so a 10,000-op chain works;
2. visits them in that order, calling each op's ``backward`` with the
   gradient of its output and adding what it returns into the gradient of
   each input (a tensor used twice receives the sum of both contributions);
3. stores the total in ``.grad`` of every leaf that requires grad, and frees
   what each op saved once it has been used (unless ``retain_graph``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import function

if TYPE_CHECKING:
    from .tensor import Tensor


def _raise_rebased(ctx, parent) -> None:
    raise RuntimeError(
        f"one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: the tensor of shape {parent.shape}, dtype {parent.dtype}, input of "
        f"{ctx.fn.__name__}, was changed in place by {parent._ctx.fn.__name__} after "
        f"{ctx.fn.__name__} used it; minigrad cannot differentiate through its old value. "
        "Use the out-of-place op (e.g. x * 2 instead of x.mul_(2)) or .clone() before writing."
    )


def topological_order(root: Tensor) -> list:
    """Tensors that ``root`` depends on through recorded ops, inputs first."""
    order: list = []
    visited = {id(root)}
    # An explicit stack instead of recursion. Each entry is (tensor, parents
    # iterator); a tensor is appended to the order once all its parents are:
    # an iterative post-order depth-first search.
    stack = [(root, iter(root._ctx.parents if root._ctx is not None else ()))]
    while stack:
        t, parents = stack[-1]
        for p in parents:
            if p._requires_grad and id(p) not in visited:
                visited.add(id(p))
                ctx = p._ctx
                stack.append((p, iter(ctx.parents if ctx is not None else ())))
                break
        else:
            stack.pop()
            order.append(t)
    return order


def backward(root: Tensor, grad: np.ndarray | None = None, retain_graph: bool = False) -> None:
    """Accumulate d(root)/d(leaf) into ``leaf.grad`` for every leaf that needs it."""
    if not root.requires_grad:
        raise RuntimeError(
            "backward() called on a tensor that does not require grad and has no graph "
            "(was it computed under no_grad(), or from inputs without requires_grad=True?)"
        )
    if grad is None:
        if root.data.size != 1:
            raise RuntimeError(
                f"grad can be implicitly created only for scalar outputs; backward() was called "
                f"on a tensor of shape {root.shape}: pass grad= of that shape"
            )
        grad = np.ones_like(root.data)
    else:
        grad = np.asarray(getattr(grad, "data", grad), dtype=root.data.dtype)
        if grad.shape != root.shape:
            raise ValueError(
                f"backward(grad=...) got a gradient of shape {grad.shape} for an output of "
                f"shape {root.shape}"
            )

    order = topological_order(root)
    grads: dict[int, np.ndarray] = {id(root): grad}
    with function.no_grad():  # backward formulas are plain arrays; record nothing
        for t in reversed(order):
            g = grads.pop(id(t), None)
            if g is None:
                continue
            ctx = t._ctx
            if ctx is None:  # a leaf: store the total gradient
                # Copy: g may be shared with another input (Add passes its grad
                # to both) or read-only (a broadcast view); .grad is the user's.
                old = t._grad
                total = np.array(g, dtype=t.data.dtype) if old is None else old.data + g
                t._grad = _tensor.Tensor._from_op(total, None)
                continue
            if ctx._freed:
                raise RuntimeError(
                    f"Trying to backward through the graph a second time: {ctx.fn.__name__} "
                    "already ran its backward and freed what it saved. Pass retain_graph=True "
                    "to the first backward() to keep the graph."
                )
            in_grads = ctx.fn.backward(ctx, g)
            if type(in_grads) is not tuple:
                in_grads = (in_grads,)
            for parent, needs, pg in zip(ctx.parents, ctx.needs_input_grad, in_grads):
                if not needs or pg is None:
                    continue
                pctx = parent._ctx
                if pctx is not None and pctx.seq > ctx.seq:
                    _raise_rebased(ctx, parent)
                if pg.shape != parent.data.shape:
                    raise RuntimeError(
                        f"internal error: {ctx.fn.__name__}.backward returned a gradient of shape "
                        f"{pg.shape} for an input of shape {parent.shape}"
                    )
                if pg.dtype != parent.data.dtype:
                    pg = pg.astype(parent.data.dtype)
                key = id(parent)
                if key in grads:
                    grads[key] = grads[key] + pg
                else:
                    grads[key] = pg
            if not retain_graph:
                ctx.free()


# Imported last: tensor.py imports this module.
from . import tensor as _tensor

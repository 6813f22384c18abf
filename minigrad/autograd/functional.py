"""Jacobians, Hessians and Hessian-vector products of small functions (PyTorch's
``torch.autograd.functional`` names and return conventions).

``inputs`` is a Tensor or a tuple of Tensors; results mirror it: for one input and
one output a Tensor, for tuples a tuple (Jacobian: one entry per output, each a
tuple over inputs when ``inputs`` is a tuple). Every function builds its result
from :func:`minigrad.autograd.grad`, one row at a time: meant for small functions
(tests, teaching, Newton steps on a few parameters), not for a model's millions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..function import enable_grad
from ..tensor import Tensor
from . import grad


def _prepare(inputs: Any, name: str, create_graph: bool = False) -> tuple[tuple, bool]:
    """(the inputs as tensors requiring grad, whether inputs was a tuple): fresh leaves with
    their values; with ``create_graph``, an input that requires grad stays connected to its
    graph (through a view), so the result can be differentiated back to it, as PyTorch."""
    is_tuple = isinstance(inputs, (tuple, list))
    xs = tuple(inputs) if is_tuple else (inputs,)
    for i, x in enumerate(xs):
        if not isinstance(x, Tensor):
            raise TypeError(f"{name}: input {i} is a {type(x).__name__}, not a Tensor")
        if x.dtype.kind != "f":
            raise TypeError(f"{name}: input {i} has dtype {x.dtype}; needs floating point")
    return tuple(x.view_as(x) if create_graph and x.requires_grad else x.detach().requires_grad_()
                 for x in xs), is_tuple


def _zeros_for_none(gs: tuple, xs: tuple) -> tuple:
    return tuple(Tensor(np.zeros(x.shape, x.dtype)) if g is None else g for g, x in zip(gs, xs))


def _jacobian_of(out: Tensor, xs: tuple, create_graph: bool) -> tuple:
    """d out / d x for each x: Tensors of shape out.shape + x.shape, one grad per row."""
    rows: list[list] = [[] for _ in xs]
    if out.requires_grad:
        for i in range(out.data.size):
            onehot = np.zeros(out.data.size, out.dtype)
            onehot[i] = 1
            gs = grad(out, xs, onehot.reshape(out.shape), retain_graph=True,
                      create_graph=create_graph, allow_unused=True)
            for r, g in zip(rows, _zeros_for_none(gs, xs)):
                r.append(g.reshape(-1))
    from ..ops.shapes import stack

    result = []
    for r, x in zip(rows, xs):
        if r:
            result.append(stack(r).reshape(out.shape + x.shape))
        else:  # the output does not depend on the inputs at all (or is empty)
            result.append(Tensor(np.zeros(out.shape + x.shape, x.dtype)))
    return tuple(result)


def jacobian(func: Callable, inputs: Any, create_graph: bool = False) -> Any:
    """The Jacobian of ``func`` at ``inputs``: entry [o][i] has shape
    output_o.shape + input_i.shape (PyTorch's layout, tuples collapsed as it does)."""
    xs, in_tuple = _prepare(inputs, "jacobian", create_graph)
    with enable_grad():
        outs = func(*xs)
    out_tuple = isinstance(outs, (tuple, list))
    outs = tuple(outs) if out_tuple else (outs,)
    jac = [_jacobian_of(o, xs, create_graph) for o in outs]
    if not create_graph:
        jac = [tuple(j.detach() for j in row) for row in jac]
    jac = [row if in_tuple else row[0] for row in jac]
    return tuple(jac) if out_tuple else jac[0]


def _scalar(out: Any, name: str) -> Tensor:
    if not isinstance(out, Tensor) or out.data.size != 1:
        raise RuntimeError(f"{name}: the function must return a single-element Tensor, got "
                           f"{getattr(out, 'shape', type(out).__name__)}")
    return out


def hessian(func: Callable, inputs: Any, create_graph: bool = False) -> Any:
    """The Hessian of a scalar ``func``: for one input a Tensor of shape x.shape + x.shape;
    for a tuple of inputs a tuple of tuples, entry [i][j] of shape x_i.shape + x_j.shape."""
    xs, in_tuple = _prepare(inputs, "hessian", create_graph)

    def gradient(*ys):
        out = _scalar(func(*ys), "hessian")
        if not out.requires_grad:
            return tuple(Tensor(np.zeros(y.shape, y.dtype)) for y in ys)
        return _zeros_for_none(grad(out, ys, create_graph=True, allow_unused=True), ys)

    h = jacobian(gradient, xs, create_graph=create_graph)
    return h if in_tuple else h[0][0]


def _vector_args(xs: tuple, v: Any, in_tuple: bool, name: str) -> tuple:
    if v is None:
        if len(xs) == 1 and xs[0].data.size == 1:
            return (Tensor(np.ones(xs[0].shape, xs[0].dtype)),)
        raise RuntimeError(f"{name}: v is needed unless the input is a single element")
    vs = tuple(v) if in_tuple else (v,)
    for i, (x, u) in enumerate(zip(xs, vs)):
        if tuple(u.shape) != tuple(x.shape):
            raise RuntimeError(f"{name}: v[{i}] has shape {tuple(u.shape)}, input {i} has "
                               f"shape {x.shape}")
    if len(vs) != len(xs):
        raise RuntimeError(f"{name}: {len(vs)} vectors for {len(xs)} inputs")
    return tuple(u.detach() for u in vs)


def vhp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False) -> tuple:
    """(func(inputs), v^T H): the gradient of <grad func, v>, H the Hessian of scalar func."""
    xs, in_tuple = _prepare(inputs, "vhp", create_graph)
    vs = _vector_args(xs, v, in_tuple, "vhp")
    with enable_grad():
        out = _scalar(func(*xs), "vhp")
        gs = _zeros_for_none(grad(out, xs, create_graph=True, allow_unused=True), xs)
        dot = sum((g * u).sum() for g, u in zip(gs, vs))
    res = _zeros_for_none(grad(dot, xs, create_graph=create_graph, allow_unused=True)
                          if dot.requires_grad else (None,) * len(xs), xs)
    res = res if create_graph else tuple(r.detach() for r in res)
    return out.detach(), (res if in_tuple else res[0])


def hvp(func: Callable, inputs: Any, v: Any = None, create_graph: bool = False) -> tuple:
    """(func(inputs), H v), H the Hessian of scalar func, by PyTorch's double-backward
    trick: for a dummy vector u, grad(grad func, inputs, u) = H^T u is linear in u, and
    its gradient in u along v is H v. Equal to :func:`vhp` when H is symmetric."""
    xs, in_tuple = _prepare(inputs, "hvp", create_graph)
    vs = _vector_args(xs, v, in_tuple, "hvp")
    with enable_grad():
        out = _scalar(func(*xs), "hvp")
        gs = grad(out, xs, create_graph=True, allow_unused=True)
        used = [(g, x) for g, x in zip(gs, xs) if g is not None and g.requires_grad]
        us = tuple(Tensor(np.zeros(g.shape, g.dtype), requires_grad=True) for g, _ in used)
        if not used:
            res = _zeros_for_none((None,) * len(xs), xs)
            return out.detach(), (res if in_tuple else res[0])
        jtu = grad([g for g, _ in used], xs, grad_outputs=us, create_graph=True,
                   allow_unused=True)
        pairs = [(j, u) for j, u in zip(jtu, vs) if j is not None and j.requires_grad]
        dot = sum((j * u).sum() for j, u in pairs) if pairs else None
    if dot is None:
        res = _zeros_for_none((None,) * len(xs), xs)
    else:
        hu = grad(dot, us, create_graph=create_graph, allow_unused=True)
        res_by_x = {id(x): h for (_, x), h in zip(used, hu)}
        res = _zeros_for_none(tuple(res_by_x.get(id(x)) for x in xs), xs)
    res = res if create_graph else tuple(r.detach() for r in res)
    return out.detach(), (res if in_tuple else res[0])

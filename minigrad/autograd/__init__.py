"""``minigrad.autograd``: gradients as values, PyTorch's ``torch.autograd`` names.

``grad(outputs, inputs)`` returns d(outputs)/d(inputs) without touching any
``.grad``; with ``create_graph=True`` the gradients carry a graph, so they can be
differentiated again (``functional`` builds Jacobians, Hessians and
Hessian-vector products on it). The walk itself is ``minigrad/engine.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import backward_results, engine
from ..function import Function, enable_grad, no_grad, set_grad_enabled
from ..tensor import Tensor


def _as_tuple(x: Any, name: str) -> tuple:
    if isinstance(x, Tensor):
        return (x,)
    if isinstance(x, (list, tuple)):
        return tuple(x)
    raise TypeError(f"grad: {name} must be a Tensor or a sequence of Tensors, got "
                    f"{type(x).__name__}")


def grad(outputs: Tensor | Sequence[Tensor], inputs: Tensor | Sequence[Tensor],
         grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, allow_unused: bool = False) -> tuple:
    """Gradients of ``outputs`` (weighted by ``grad_outputs``, default 1 for scalars) with
    respect to ``inputs``, as a tuple of Tensors, one per input; ``.grad`` is not touched.

    An input the outputs do not depend on raises, unless ``allow_unused=True`` (then its
    entry is None). ``retain_graph`` defaults to ``create_graph``; with
    ``create_graph=True`` the returned Tensors have a graph and can be differentiated
    again (second derivatives, Hessian-vector products, gradient penalties)."""
    outs = _as_tuple(outputs, "outputs")
    ins = _as_tuple(inputs, "inputs")
    if grad_outputs is None:
        gos: tuple = (None,) * len(outs)
    else:
        single = isinstance(grad_outputs, (Tensor, np.ndarray))
        gos = (grad_outputs,) if single else _as_tuple(grad_outputs, "grad_outputs")
    if len(gos) != len(outs):
        raise ValueError(f"grad: {len(gos)} grad_outputs for {len(outs)} outputs")
    for i, o in enumerate(outs):
        if not isinstance(o, Tensor):
            raise TypeError(f"grad: output {i} is a {type(o).__name__}, not a Tensor")
        if not o.requires_grad:
            raise RuntimeError(f"grad: output {i} (shape {o.shape}) does not require grad and "
                               "has no graph")
    if retain_graph is None:
        retain_graph = create_graph
    seeds = [backward_results.root_gradient(o, g, create_graph, Tensor) for o, g in zip(outs, gos)]
    return engine.grads(list(outs), ins, seeds, retain_graph, create_graph, allow_unused)


from . import functional  # after grad: functional uses it

__all__ = ["Function", "enable_grad", "functional", "grad", "no_grad", "set_grad_enabled"]

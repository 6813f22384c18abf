"""Writing into a region: the out-of-place op behind ``x[index] = v``, ``copy_``, ``fill_``.

``IndexPut(a, v, index)`` returns a copy of ``a`` with ``a[index]`` replaced by
``v`` (broadcast to the region). The in-place Tensor methods run it on the old
value and write the result back into the tensor's array (see
``Tensor._inplace``), so the graph records the write like any other op.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..backends.array_namespace import _is_basic
from ..function import Function
from .broadcast import broadcasts_to, unbroadcast


class IndexPut(Function):
    """out = a with out[index] = v (v broadcasts to the region a[index])."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, a, v, index):
        if not _is_basic(index):
            _check_no_duplicates(a.shape, index)
        region = a[index].shape
        if not broadcasts_to(v.shape, region):
            raise ValueError(
                f"x[index] = v: a value of shape {v.shape} cannot be broadcast to the indexed "
                f"region of shape {region} (tensor of shape {a.shape})"
            )
        ctx.info = (index, v.shape)
        out = np.array(a, copy=True)  # a 0-d gradient may arrive as a NumPy scalar
        out[index] = v
        return out

    @staticmethod
    def backward(ctx, grad):
        # d out/da = 1 outside the region, 0 inside; d out/dv = 1 summed over broadcasting
        index, v_shape = ctx.info
        xp = ctx.xp
        ga = xp.index_put(grad, index, 0.0) if ctx.needs_input_grad[0] else None
        gv = unbroadcast(xp.getitem(grad, index), v_shape) if ctx.needs_input_grad[1] else None
        return ga, gv


def _check_no_duplicates(shape: tuple, index: Any) -> None:
    """Refuse integer-array indices naming one element twice (which write would win?)."""
    hits = np.zeros(shape, dtype=np.int64)
    np.add.at(hits, index, 1)
    if hits.max(initial=0) > 1:
        raise ValueError(
            "x[index] = v: the index names some element more than once; which write wins is "
            "undefined (as in PyTorch's index_put_), so minigrad refuses it"
        )

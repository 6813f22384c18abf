"""PyTorch's fixed-rank products, each a ``MatMul`` after a shape check that names both
shapes: mm (n, m) @ (m, p), mv (n, m) @ (m,), dot (n,) . (n,), and the fused forms
addmm = beta * input + alpha * (mat1 @ mat2) and baddbmm, its batched twin.

They differ from ``@`` (``minigrad.matmul``) only in refusing other ranks, as PyTorch's do,
so a shape mistake is caught where it is made instead of being broadcast away. ``beta = 0``
ignores ``input`` entirely (nan and inf in it do not propagate), as PyTorch documents.
"""

from __future__ import annotations

import numpy as np

from ..dtypes import check_same_float
from .matmul import MatMul
from .shapes import Reshape


def _check_float(name: str, *ts) -> None:
    """Both operands floating-point and of one dtype (the products' rule, dtypes.py)."""
    check_same_float([t.data for t in ts], name)


def _check_inner(name: str, a, b, k_a: int, k_b: int) -> None:
    if a.shape[k_a] != b.shape[k_b]:
        raise ValueError(f"{name}: shapes {a.shape} and {b.shape} cannot be multiplied "
                         f"({a.shape[k_a]} != {b.shape[k_b]})")


def mm(a, b):
    """(n, m) @ (m, p) -> (n, p)."""
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError(f"mm: needs two 2-d tensors, got shapes {a.shape} and {b.shape}")
    _check_inner("mm", a, b, 1, 0)
    _check_float("mm", a, b)
    return MatMul.apply(a, b)


def bmm(a, b):
    """(B, n, m) @ (B, m, p) -> (B, n, p), no broadcasting."""
    if a.ndim != 3 or b.ndim != 3 or a.shape[0] != b.shape[0]:
        raise ValueError(f"bmm: needs (B, n, m) and (B, m, p), got shapes {a.shape} and {b.shape}")
    _check_inner("bmm", a, b, 2, 1)
    _check_float("bmm", a, b)
    return MatMul.apply(a, b)


def mv(a, v):
    """(n, m) @ (m,) -> (n,)."""
    if a.ndim != 2 or v.ndim != 1:
        raise ValueError(f"mv: needs a 2-d and a 1-d tensor, got shapes {a.shape} and {v.shape}")
    _check_inner("mv", a, v, 1, 0)
    _check_float("mv", a, v)
    out = MatMul.apply(a, Reshape.apply(v, shape=(v.shape[0], 1)))
    return Reshape.apply(out, shape=(a.shape[0],))


def dot(a, b):
    """sum_i a_i b_i of two 1-d tensors of one length -> a 0-d tensor."""
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(f"dot: needs two 1-d tensors, got shapes {a.shape} and {b.shape}")
    _check_inner("dot", a, b, 0, 0)
    _check_float("dot", a, b)
    out = MatMul.apply(Reshape.apply(a, shape=(1, a.shape[0])),
                       Reshape.apply(b, shape=(b.shape[0], 1)))
    return Reshape.apply(out, shape=())


def add_scaled(name: str, inp, product, beta: float, alpha: float):
    """beta * inp + alpha * product, ``inp`` broadcast to the product's shape (and ignored
    when beta is 0, as PyTorch)."""
    try:
        ok = np.broadcast_shapes(inp.shape, product.shape) == product.shape
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f"{name}: input of shape {inp.shape} does not broadcast to the "
                         f"product's shape {product.shape}")
    out = product if alpha == 1 else product * alpha
    if beta == 0:
        return out
    return out + (inp if beta == 1 else inp * beta)

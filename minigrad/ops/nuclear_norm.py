"""The nuclear norm, ``x.norm("nuc")``: the sum of a matrix's singular values.

Forward: ``||A||_* = sum_i s_i`` over the last two dims of ``A`` (m, n), batched over the
others. First derivative: ``d||A||_*/dA = U @ Vh`` (reduced SVD ``A = U diag(s) Vh``), the
orthogonal factor ``Q`` of the polar decomposition ``A = Q P``.

Second derivative: the derivative of ``Q``. minigrad has no differentiable SVD (a Function
has one output), and PyTorch's route, the SVD's own backward, has terms
``1 / (s_i**2 - s_j**2)`` that are infinite at a repeated singular value although ``Q`` is
smooth there (PyTorch's second derivative is NaN there). The polar factor's derivative has
no such terms: for m >= n and full rank, with ``P = Q^T A = V diag(s) V^T`` (n, n) and an
incoming gradient ``G`` (m, n),

    dL/dA = Q X + (I - Q Q^T) G P^-1,   X the solution of  P X + X P = Q^T G - G^T Q,

(in ``V``'s basis the solve divides by ``s_i + s_j``, finite where singular values repeat;
``P^-1`` is the solution of ``P X + X P = 2 I``; the second term is 0 for square ``A``).
For m < n the same runs on the transposes, as ``Q(A^T) = Q(A)^T``. The Sylvester solve is
:class:`SymSylvester`, whose gradient is the same solve again, so every backward here is
written in ops with their own gradients: derivatives of every order are exact
(``differentiable_backward = True`` throughout), not only the second.

Rank-deficient ``A``: ``||A||_*`` has a kink there (``|s|`` as a singular value ``s``
crosses 0). The first derivative is then ``U @ Vh`` with LAPACK's singular vectors for the
zero singular values: a subgradient, as PyTorch's, though not always the same one (the
singular vectors of a zero singular value are any basis of a null space). The second
derivative does not exist there: terms with ``s_i + s_j`` exactly 0 are taken as 0
(``abs``'s convention at 0; the zero matrix gives 0 where PyTorch gives NaN), and a singular
value that rounding leaves tiny instead of 0 gives very large values, as PyTorch's does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..function import Function
from .dims import check_dim
from .matrix_functions import polar_factor, sym_sylvester
from .shapes import Permute


def _mT(xp: Any, x: Any) -> Any:
    """The matrix transpose of the last two dims (arrays and Tensors alike)."""
    return xp.swapaxes(x, -1, -2)


class NuclearNorm(Function):
    """out = sum of the singular values of ``a`` over its last two dims: (..., m, n) -> (...)."""

    differentiable_backward = True
    promote = "float_only"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.asarray(np.linalg.svd(a, compute_uv=False).sum(-1))

    @staticmethod
    def backward(ctx, grad):
        (a,) = ctx.saved_tensors
        return grad.reshape(tuple(grad.shape) + (1, 1)) * ctx.xp.polar_factor(a)


class PolarFactor(Function):
    """out = ``U @ Vh`` of ``a``'s reduced SVD over the last two dims: (..., m, n) ->
    (..., m, n); the derivative is in the module docstring."""

    differentiable_backward = True
    promote = "float_only"

    @staticmethod
    def forward(ctx, a):
        q = polar_factor(a)
        ctx.save_for_backward(a, q)
        return q

    @staticmethod
    def backward(ctx, grad):
        a, q = ctx.saved_tensors
        xp = ctx.xp
        if a.shape[-2] < a.shape[-1]:  # wide: Q(A^T) = Q(A)^T
            return _mT(xp, _tall_polar_grad(xp, _mT(xp, a), _mT(xp, q), _mT(xp, grad)))
        return _tall_polar_grad(xp, a, q, grad)


def _tall_polar_grad(xp: Any, a: Any, q: Any, g: Any) -> Any:
    """dL/dA for Q = polar factor of A (..., m, n), m >= n, given g = dL/dQ (module docstring)."""
    qt = _mT(xp, q)
    p = qt @ a
    qtg = qt @ g
    out = q @ xp.sym_sylvester(p, qtg - _mT(xp, qtg))
    m, n = a.shape[-2:]
    if m > n:  # the part of g outside Q's columns, through P^-1 (P X + X P = 2I)
        two_eye = np.broadcast_to(2 * np.eye(n, dtype=a.dtype), tuple(p.shape))
        out = out + (g - q @ qtg) @ xp.sym_sylvester(p, two_eye)
    return out


class SymSylvester(Function):
    """out = X, the solution of ``S X + X S = Y`` with ``S = (P + P^T) / 2`` (..., n, n).

    With ``Z`` the same solve applied to the incoming gradient ``W`` (the operator
    ``X -> S X + X S`` is self-adjoint): ``dL/dY = Z`` and ``dL/dP`` is the symmetric part
    of ``-(Z X^T + X^T Z)``."""

    differentiable_backward = True
    promote = "float_only"

    @staticmethod
    def forward(ctx, p, y):
        x = sym_sylvester(p, y)
        ctx.save_for_backward(p, x)
        return x

    @staticmethod
    def backward(ctx, grad):
        p, x = ctx.saved_tensors
        xp = ctx.xp
        z = xp.sym_sylvester(p, grad)
        gp = -(z @ _mT(xp, x) + _mT(xp, x) @ z)
        return (gp + _mT(xp, gp)) / 2, z


def nuclear_norm(t: Any, dim: Any = None, keepdim: bool = False) -> Any:
    """``norm(t, "nuc", dim, keepdim)``: the nuclear norm over the two dims ``dim`` (both
    dims of a matrix without it), as PyTorch's; ``keepdim`` keeps them with size 1."""
    if dim is None:
        if t.ndim != 2:
            raise ValueError(f"norm(p='nuc'): without dim the input must be a matrix, got shape "
                             f"{t.shape}; pass the two dims, e.g. dim=(-2, -1)")
        dim = (0, 1)
    dims = tuple(dim) if isinstance(dim, (list, tuple)) else (dim,)
    both = {check_dim(d, t.ndim, "norm(p='nuc')") for d in dims} if t.ndim >= 2 else ()
    if len(dims) != 2 or len(both) != 2:
        raise ValueError(f"norm(p='nuc'): dim must name two different dims of a tensor of "
                         f"shape {t.shape}, got {dim}")
    d1, d2 = (int(d) % t.ndim for d in dims)
    rest = [i for i in range(t.ndim) if i not in (d1, d2)]
    out = NuclearNorm.apply(Permute.apply(t, dims=tuple(rest + [d1, d2])))
    if keepdim:
        out = out.reshape(tuple(1 if i in (d1, d2) else n for i, n in enumerate(t.shape)))
    return out

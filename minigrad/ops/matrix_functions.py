"""Two matrix functions on arrays, the pieces of the nuclear norm's derivatives
(``ops/nuclear_norm.py``): the polar factor ``U @ Vh`` and the solution of ``P X + X P = Y``.

Both work on the last two dims and batch over the others, as ``np.linalg`` does. They sit
apart from their Functions because
:class:`~minigrad.backends.array_namespace.ArrayNamespace` (which the Functions' backwards
reach through ``ctx.xp``) needs them and must not import a Function.
"""

from __future__ import annotations

import numpy as np


def polar_factor(a: np.ndarray) -> np.ndarray:
    """(..., m, n) -> (..., m, n): ``U @ Vh`` of the reduced SVD ``a = U diag(s) Vh``, the
    orthogonal factor of the polar decomposition ``a = Q P``. Unique where ``a`` has full
    rank; where it does not, the singular vectors of the zero singular values are
    LAPACK's choice (any choice is a subgradient of the nuclear norm)."""
    u, _, vh = np.linalg.svd(a, full_matrices=False)
    return u @ vh


def sym_sylvester(p: np.ndarray, y: np.ndarray) -> np.ndarray:
    """(..., n, n), (..., n, n) -> X, the solution of ``S X + X S = Y`` with ``S`` the
    symmetric part of ``p``, ``(p + p^T) / 2``.

    In the eigenbasis ``S = V diag(lam) V^T`` the equation is elementwise:
    ``X = V [(V^T Y V) / (lam_i + lam_j)] V^T``. Where ``lam_i + lam_j`` is exactly 0 the
    equation has no unique solution and that entry is taken as 0 (the least-norm one)."""
    lam, v = np.linalg.eigh((p + np.swapaxes(p, -1, -2)) / 2)
    vt = np.swapaxes(v, -1, -2)
    denominator = lam[..., :, None] + lam[..., None, :]
    zero = denominator == 0
    inner = (vt @ y @ v) / np.where(zero, 1, denominator)
    return v @ np.where(zero, 0, inner) @ vt

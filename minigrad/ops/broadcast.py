"""The one helper that undoes broadcasting in backward passes.

If ``a`` of shape (3, 1) and ``b`` of shape (4,) were broadcast to (3, 4) in
forward, the gradient that arrives has shape (3, 4). Each element of ``a`` was
used 4 times and each element of ``b`` 3 times, so the chain rule says: sum
the gradient over the broadcast axes, giving (3, 1) for ``a`` and (4,) for ``b``.
"""

from __future__ import annotations

import numpy as np

from .. import backends


def unbroadcast(grad: np.ndarray, shape: tuple) -> np.ndarray:
    """Sum ``grad`` down to ``shape``: over leading axes added by broadcasting,
    and over axes where ``shape`` has size 1 but ``grad`` does not."""
    if grad.shape == shape:
        return grad
    extra = grad.ndim - len(shape)
    axes = tuple(range(extra)) + tuple(
        i + extra for i, s in enumerate(shape) if s == 1 and grad.shape[i + extra] != 1
    )
    if axes:  # float32 summed accurately over any number of rows (see reduce_sum); a
        # Tensor grad (create_graph) sums through the Sum op, which uses the same primitive
        grad = (backends.active.reduce_sum(grad, axes, True) if isinstance(grad, np.ndarray)
                else grad.sum(axis=axes, keepdims=True))
    return grad.reshape(shape)


def broadcasts_to(shape: tuple, target: tuple) -> bool:
    """True if an array of ``shape`` broadcasts to exactly ``target`` (no growth of target)."""
    try:
        return np.broadcast_shapes(shape, target) == tuple(target)
    except ValueError:
        return False

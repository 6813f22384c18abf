"""``nn.utils`` as in PyTorch: gradient clipping (``clip_grad_norm_``).

The clipping itself is ``minigrad.optim.clip_grad_norm_`` (one implementation); this form
returns the total norm as a 0-d tensor, as ``torch.nn.utils.clip_grad_norm_`` does, so that
``norm.item()`` and ``float(norm)`` both work.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from minigrad.dtypes import DEFAULT_FLOAT
from minigrad.optim.clip import clip_grad_norm_ as _clip_grad_norm
from minigrad.tensor import Tensor


def clip_grad_norm_(parameters: Iterable[Any] | Any, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach: bool | None = None) -> Tensor:
    """Scale the gradients of ``parameters`` in place so that their global ``norm_type``-norm
    (2 by default; ``math.inf``: the largest |g|) is at most ``max_norm``; return the norm
    before clipping, a 0-d tensor of the gradients' dtype. A non-finite norm leaves the
    gradients unchanged (PyTorch scales them by NaN) or, with ``error_if_nonfinite=True``,
    raises RuntimeError. See ``minigrad.optim.clip_grad_norm_``."""
    params = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    grads = [p.grad.dtype for p in params if getattr(p, "grad", None) is not None]
    total = _clip_grad_norm(params, max_norm, norm_type, error_if_nonfinite, foreach)
    dtype = np.result_type(*grads) if grads else DEFAULT_FLOAT
    return Tensor(np.asarray(total, dtype=dtype))


__all__ = ["clip_grad_norm_"]

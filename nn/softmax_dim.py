"""The dimension a softmax takes when none is given, as PyTorch's (deprecated) implicit choice.

``F.softmax(x)``, ``F.log_softmax(x)``, ``F.softmin(x)`` and the modules ``nn.Softmax()``,
``nn.LogSoftmax()``, ``nn.Softmin()`` without ``dim`` normalize over dim 0 of a 0-, 1- or
3-D input and over dim 1 otherwise (a 3-D input read as one unbatched (C, H, W) image, a
4-D one as a batch (N, C, H, W)), and warn, since the choice depends on the rank.
"""

from __future__ import annotations

import warnings


def implicit_softmax_dim(name: str, ndim: int, stacklevel: int = 3) -> int:
    """PyTorch's dimension for ``name`` without ``dim`` (see the module docstring), with
    PyTorch's warning."""
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call "
                  "to include dim=X as an argument.", UserWarning, stacklevel=stacklevel)
    return 0 if ndim in (0, 1, 3) else 1

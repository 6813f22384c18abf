"""The Unflatten layer: one dim split into several, the inverse of Flatten."""

from __future__ import annotations

from typing import Any

from minigrad.tensor import Tensor

from .module import Module


class Unflatten(Module):
    """x (..., prod(unflattened_size), ...) -> (..., *unflattened_size, ...) at ``dim``."""

    def __init__(self, dim: int, unflattened_size: Any) -> None:
        super().__init__()
        self.dim, self.unflattened_size = dim, tuple(unflattened_size)

    def forward(self, input: Tensor) -> Tensor:
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"

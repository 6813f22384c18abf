"""Utilities with PyTorch's ``torch.utils`` names: ``minigrad.utils.data`` (Dataset,
DataLoader, samplers, collation)."""

from . import data

__all__ = ["data"]

"""Differentiable ops, one file per family; each op's forward and backward side by side."""

"""Gradient check of a whole model: sampled parameter elements against finite differences.

``minigrad.gradcheck`` perturbs every element of its inputs; a model has too many for
that, so the model tests check a few sampled elements of every parameter instead.
"""

from __future__ import annotations

import numpy as np

import minigrad


def check_param_grads(model, loss_fn, per_param: int = 3, eps: float = 1e-6,
                      rtol: float = 1e-4, atol: float = 1e-8, seed: int = 0) -> int:
    """Compare p.grad with central differences (L(p + eps) - L(p - eps)) / 2 eps on
    ``per_param`` sampled elements of every parameter; returns how many were checked."""
    model.zero_grad()
    loss_fn().backward()
    rng = np.random.default_rng(seed)
    checked = 0
    for name, p in model.named_parameters():
        assert p.grad is not None, f"{name} got no gradient"
        flat = p.data.reshape(-1)  # a view: writing it perturbs the parameter
        for i in rng.choice(flat.size, size=min(per_param, flat.size), replace=False):
            old = flat[i]
            with minigrad.no_grad():
                flat[i] = old + eps
                up = loss_fn().item()
                flat[i] = old - eps
                down = loss_fn().item()
            flat[i] = old
            numeric = (up - down) / (2 * eps)
            analytic = p.grad.data.reshape(-1)[i]
            assert abs(analytic - numeric) <= atol + rtol * abs(numeric), (
                f"{name}[{i}]: analytic {analytic!r} vs numeric {numeric!r}")
            checked += 1
    return checked

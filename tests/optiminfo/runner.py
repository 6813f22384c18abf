"""One optim_db config through torch and minigrad -> one outcome.

The problem: three float64 parameters of shapes (3, 2), (4,) and () with fixed random
gradients; the scalar one has no gradient on steps 2 and 6 (``.grad`` is None, so the
optimizer skips it and keeps no state for it until its first gradient). Each library runs
5 steps; parameters and state dicts are compared; then each library's state dict is loaded
into a fresh optimizer of the other over copies of its parameters, and all four optimizers
run 5 more steps, which must agree. The first difference decides the outcome:

- ``refused argument``: minigrad's constructor does not take a keyword torch accepts;
- ``crash``: minigrad raised anything else;
- ``wrong value``: parameters differ beyond rtol = atol = 1e-10;
- ``wrong state``: the state dicts differ (entry names, group options, or values);
- ``wrong load``: a state dict loaded across the libraries gives another trajectory (or
  does not load);
- ``pass``.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

import minigrad as mg
from tests.opinfo.op_map import stand_in_for_expecttest

PASS = "pass"
WRONG_VALUE = "wrong value"
WRONG_STATE = "wrong state"
WRONG_LOAD = "wrong load"
CRASH = "crash"
REFUSED = "refused argument"
CATEGORIES = (PASS, WRONG_VALUE, WRONG_STATE, WRONG_LOAD, CRASH, REFUSED)
RTOL = ATOL = 1e-10
SHAPES = ((3, 2), (4,), ())
NO_GRAD = {2: (2,), 6: (2,)}  # step -> parameters without a gradient on it


@dataclass
class Outcome:
    """The result of one config; ``op`` is the optimizer class name (the tables' key)."""

    op: str
    index: int
    category: str
    sample: str
    detail: str = ""
    dtype: str = "float64"
    kwargs: dict = field(default_factory=dict)


def load_optim_db() -> list:
    """PyTorch's OptimizerInfo list (``expecttest`` stood in for where it is not installed)."""
    stand_in_for_expecttest()
    from torch.testing._internal.common_optimizers import optim_db

    return optim_db


def configs(info: Any) -> list:
    """The OptimizerInput list of ``info`` for cpu / float64."""
    return info.optim_inputs_func(device="cpu", dtype=torch.float64)


def _grads(steps: int = 10) -> list[list[np.ndarray | None]]:
    rng = np.random.default_rng(0)
    out = []
    for t in range(steps):
        out.append([None if i in NO_GRAD.get(t, ()) else rng.standard_normal(s)
                    for i, s in enumerate(SHAPES)])
    return out


def _init() -> list[np.ndarray]:
    rng = np.random.default_rng(1)
    return [rng.standard_normal(s) for s in SHAPES]


def _to_numpy(v: Any) -> Any:
    if isinstance(v, torch.Tensor):
        return v.detach().numpy().copy()
    if isinstance(v, list):
        return [_to_numpy(x) for x in v]
    return v


def _plain(v: Any) -> Any:
    return v.item() if isinstance(v, torch.Tensor) and v.numel() == 1 else v


def torch_to_minigrad_sd(sd: dict) -> dict:
    """PyTorch's state dict with its state's tensors as arrays and its options' as numbers."""
    state = {i: {k: _to_numpy(v) for k, v in s.items()} for i, s in sd["state"].items()}
    groups = [{k: _plain(v) for k, v in g.items()} for g in sd["param_groups"]]
    return {"state": state, "param_groups": groups}


FLOAT32_SCALARS = ("step", "mu_product", "eta", "mu")  # PyTorch's float32 0-d tensors


def _to_torch(key: str, v: Any) -> Any:
    if isinstance(v, np.ndarray):
        return torch.tensor(v)
    if isinstance(v, list):
        return [_to_torch(key, x) for x in v]
    if key in FLOAT32_SCALARS:
        return torch.tensor(float(v), dtype=torch.float32)
    return v  # LBFGS's counts and floats are Python numbers in PyTorch too


def minigrad_to_torch_sd(sd: dict) -> dict:
    """minigrad's state dict with arrays as tensors and scalars as PyTorch's float32 tensors."""
    state = {i: {k: _to_torch(k, v) for k, v in s.items()} for i, s in sd["state"].items()}
    return {"state": state, "param_groups": [dict(g) for g in sd["param_groups"]]}


def _kwargs(kwargs: dict) -> dict:
    return {k: (mg.tensor(v.item()) if isinstance(v, torch.Tensor) else v)
            for k, v in kwargs.items()}


def _loss(lib: Any, params: list) -> Any:
    """The closure-driven optimizers' objective: sum_i a_i (p_i - b_i)^2 + 0.1 p_i^4."""
    rng = np.random.default_rng(2)
    total = None
    for p in params:
        a = lib.tensor(rng.uniform(0.5, 2.0, tuple(p.shape)))
        b = lib.tensor(rng.standard_normal(tuple(p.shape)))
        term = (a * (p - b) ** 2).sum() + 0.1 * (p**4).sum()
        total = term if total is None else total + term
    return total


def _run(lib: Any, opt: Any, params: list, grads: list, with_closure: bool) -> None:
    """Step ``opt`` once per entry of ``grads``: with those gradients, or (``with_closure``)
    with a closure that evaluates :func:`_loss` and its gradients."""
    def closure() -> Any:
        opt.zero_grad()
        loss = _loss(lib, params)
        loss.backward()
        return loss

    for step in grads:
        if with_closure:
            opt.step(closure)
            continue
        for p, g in zip(params, step):
            p.grad = None if g is None else lib.tensor(g)
        opt.step()


def _values_differ(ours: list, theirs: list) -> str:
    for i, (a, t) in enumerate(zip(ours, theirs)):
        b = t.detach().numpy()
        if not np.allclose(a.data, b, rtol=RTOL, atol=ATOL):
            return f"parameter {i}: max |diff| {np.max(np.abs(a.data - b)):.3g}"
    return ""


def _state_differs(ours: dict, theirs: dict) -> str:
    theirs = torch_to_minigrad_sd(theirs)
    for gi, (a, b) in enumerate(zip(ours["param_groups"], theirs["param_groups"])):
        if set(a) != set(b):
            return f"group {gi} options {sorted(set(a) ^ set(b))} differ"
        for k in a:
            if k != "params" and a[k] != b[k] and not (np.ndim(a[k]) == 0 and np.isclose(a[k], b[k])):
                return f"group {gi} option {k}: {a[k]!r} vs {b[k]!r}"
    if set(ours["state"]) != set(theirs["state"]):
        return f"state indices {sorted(ours['state'])} vs {sorted(theirs['state'])}"
    for i, s in ours["state"].items():
        t = theirs["state"][i]
        if set(s) != set(t):
            return f"state of parameter {i}: entries {sorted(s)} vs {sorted(t)}"
        for k, v in s.items():
            if not _same(v, t[k]):
                return f"state {k!r} of parameter {i}: {v!r} vs {t[k]!r}"
    return ""


def _same(a: Any, b: Any) -> bool:
    """Equal within the tolerances, lists entry by entry (None only equals None)."""
    if isinstance(a, list) or isinstance(b, list):
        return (isinstance(a, list) and isinstance(b, list) and len(a) == len(b)
                and all(_same(x, y) for x, y in zip(a, b)))
    if a is None or b is None:
        return a is None and b is None
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and np.allclose(a, b, rtol=RTOL, atol=ATOL)


def run_config(info: Any, index: int, config: Any) -> Outcome:
    """Run config ``index`` of ``info`` (see the module docstring)."""
    name = info.optim_cls.__name__
    ours_cls = getattr(mg.optim, name)
    desc = f"{config.desc} {config.kwargs}"
    out = Outcome(name, index, PASS, desc, kwargs=dict(config.kwargs))
    grads = _grads()
    closure = bool(info.step_requires_closure)
    init = _init()
    theirs = [torch.tensor(a, requires_grad=True) for a in init]
    ours = [mg.tensor(a, requires_grad=True) for a in init]
    torch_opt = info.optim_cls(theirs, **config.kwargs)
    try:
        opt = ours_cls(ours, **_kwargs(config.kwargs))
        _run(mg, opt, ours, grads[:5], closure)
    except TypeError as e:
        if "unexpected keyword" in str(e) or "positional argument" in str(e):
            out.category, out.detail = REFUSED, f"TypeError: {e}"
            return out
        out.category, out.detail = CRASH, traceback.format_exc(limit=-2)
        return out
    except Exception as e:  # noqa: BLE001  (any exception is this outcome)
        out.category, out.detail = CRASH, f"{type(e).__name__}: {e}"
        return out
    _run(torch, torch_opt, theirs, grads[:5], closure)
    detail = _values_differ(ours, theirs)
    if detail:
        out.category, out.detail = WRONG_VALUE, detail
        return out
    detail = _state_differs(opt.state_dict(), torch_opt.state_dict())
    if detail:
        out.category, out.detail = WRONG_STATE, detail
        return out
    # cross loads: torch's state into a fresh minigrad optimizer, and minigrad's into torch
    ours2 = [mg.tensor(t.detach().numpy().copy(), requires_grad=True) for t in theirs]
    theirs2 = [torch.tensor(a.data.copy(), requires_grad=True) for a in ours]
    try:
        opt2 = ours_cls(ours2, **_kwargs(config.kwargs))
        opt2.load_state_dict(torch_opt.state_dict())  # PyTorch's tensors, as they are
        torch_opt2 = info.optim_cls(theirs2, **config.kwargs)
        torch_opt2.load_state_dict(minigrad_to_torch_sd(opt.state_dict()))
        _run(mg, opt, ours, grads[5:], closure)
        _run(mg, opt2, ours2, grads[5:], closure)
        _run(torch, torch_opt, theirs, grads[5:], closure)
        _run(torch, torch_opt2, theirs2, grads[5:], closure)
    except Exception as e:  # noqa: BLE001
        out.category, out.detail = WRONG_LOAD, f"{type(e).__name__}: {e}"
        return out
    for label, a, b in (("straight", ours, theirs), ("torch's state in minigrad", ours2, theirs),
                        ("minigrad's state in torch", ours, theirs2)):
        detail = _values_differ(a, b)
        if detail:
            out.category = WRONG_VALUE if label == "straight" else WRONG_LOAD
            out.detail = f"{label}: {detail}"
            return out
    return out


def run_class(info: Any) -> list[Outcome]:
    """Every config of ``info``."""
    return [run_config(info, i, c) for i, c in enumerate(configs(info))]

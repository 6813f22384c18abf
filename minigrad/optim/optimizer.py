"""The Optimizer base class: parameter groups, per-parameter state, state dicts.

An optimizer holds ``param_groups``, a list of dicts. Each group has a
``"params"`` list and its own hyperparameters (``"lr"``, ``"weight_decay"``,
...), so one model can train its matrices with weight decay and its biases
and LayerNorm gains without, as nanoGPT does::

    opt = AdamW([{"params": matrices, "weight_decay": 0.1},
                 {"params": vectors, "weight_decay": 0.0}], lr=3e-4)

A schedule changes the learning rate by writing ``group["lr"]``. The groups may be edited
at any time, as in PyTorch (a parameter appended to, removed from or replaced in a group's
``"params"``, a new list, groups added or removed): the optimizer numbers its parameters
once and numbers them again when a step or ``zero_grad`` finds the groups changed
(``param_table.py`` states the rule).

A parameter is anything with ``.data`` (a floating ndarray, updated in place
so references to it stay valid) and ``.grad`` (a Tensor of the same shape,
or None to skip it), such as a :class:`minigrad.Tensor` or ``nn.Parameter``.
Each step bumps the parameter's version counter, so a backward through a
graph built before the step refuses the stale saved weights (as PyTorch).

``state`` maps a parameter's index (its position counting through all groups
in order) to a dict of its buffers, e.g. ``{"step": 3, "exp_avg": ...}``, named
and laid out as PyTorch's, so a PyTorch state dict (``torch.optim.X.state_dict()``
itself) loads into the minigrad optimizer of the same class, and minigrad's (its
arrays made tensors) into PyTorch's. PyTorch keeps a
few per-parameter scalars (NAdam's ``mu_product``, ASGD's ``eta`` and ``mu``)
as float32 tensors and computes with their float32 value; minigrad keeps them as
Python floats rounded to float32, so the trajectories agree.

Options every optimizer shares with PyTorch: ``maximize`` (ascend: the gradient's
sign is flipped before the rule, in :meth:`Optimizer.step`); ``foreach`` and
``fused`` (PyTorch's choice of kernels, same arithmetic: accepted, kept in the
group, and otherwise ignored except by Adam's fused kernel); ``capturable`` and
``differentiable`` (CUDA graphs, and a step autograd can see through): only
False is accepted.
``state_dict()`` is built from plain ints, floats, tuples and ndarrays so
``minigrad.save`` can write it without pickle.
"""

from __future__ import annotations

import copy
import math
import numbers
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

from .param_table import ParamTable


def check_hyperparameter(name: str, value: Any, low: float = 0.0, high: float | None = None,
                         high_inclusive: bool = False, allow_inf: bool = False) -> float:
    """Return ``value`` as a float if low <= value (< or <=) high; raise otherwise.

    NaN fails every comparison, so it is rejected too; so is infinity unless
    ``allow_inf`` (an infinite learning rate or decay would fill the weights with NaN).
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    v = float(value)
    ok = low <= v and (allow_inf or math.isfinite(v))
    if high is not None:
        ok = ok and (v <= high if high_inclusive else v < high)
    if not ok:
        upper = "" if high is None else f" and {'<=' if high_inclusive else '<'} {high}"
        raise ValueError(f"invalid {name}: {value!r} (must be >= {low}{upper})")
    return v


def check_nonnegative(group: dict[str, Any], *names: str) -> None:
    """``check_hyperparameter(name, group[name])`` (finite and >= 0) for each name."""
    for name in names:
        check_hyperparameter(name, group[name])


def check_pair(group: dict[str, Any], name: str) -> tuple[float, float]:
    """``group[name]`` is a pair of real numbers; stored back (and returned) as a tuple of floats."""
    pair = group[name]
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        raise ValueError(f"{name} must be a pair, got {pair!r}")
    for i, v in enumerate(pair):
        check_hyperparameter(f"{name}[{i}]", v, low=-math.inf)
    group[name] = (float(pair[0]), float(pair[1]))
    return group[name]


def zeros_state(data: np.ndarray, *names: str) -> dict[str, Any]:
    """A fresh state: ``step`` 0 and a zero buffer shaped and typed like ``data`` per name."""
    state: dict[str, Any] = {"step": 0}
    for name in names:
        state[name] = np.zeros(data.shape, dtype=data.dtype)
    return state


def check_flags(group: dict[str, Any], owner: str) -> None:
    """Check the PyTorch options a group may hold: ``maximize``, ``amsgrad``, ``nesterov``,
    ``centered``, ``decoupled_weight_decay`` are bools; ``foreach``/``fused`` bools or None;
    ``capturable``/``differentiable`` must be False (raise ValueError naming the option)."""
    for name in ("maximize", "amsgrad", "nesterov", "centered", "decoupled_weight_decay",
                 "capturable", "differentiable", "foreach", "fused"):
        if name not in group:
            continue
        v = group[name]
        if v is None and name in ("foreach", "fused"):
            continue
        if not isinstance(v, (bool, np.bool_)):
            raise TypeError(f"{name} must be a bool, got {v!r}")
        if v and name in ("capturable", "differentiable"):
            raise ValueError(
                f"{owner}: {name}=True is not supported: minigrad's steps run in NumPy on the "
                "CPU (no CUDA graphs to capture, and autograd does not record a step); pass "
                f"{name}=False"
            )


def l2_decay(g: np.ndarray, p: np.ndarray, weight_decay: float) -> np.ndarray:
    """``g + weight_decay * p`` (L2 regularisation folded into the gradient), a new array."""
    return g + weight_decay * p if weight_decay != 0 else g


def to_float32(x: float) -> float:
    """``x`` rounded to float32, as a Python float: the value of PyTorch's float32 scalar state."""
    return float(np.float32(x))


def _check_param(p: Any, where: str) -> None:
    data = getattr(p, "data", None)
    if not isinstance(data, np.ndarray) or not hasattr(p, "grad"):
        raise TypeError(
            f"{where}: an optimizer can only update tensors (objects with an ndarray .data and a "
            f".grad), got {type(p).__name__}"
        )
    if data.dtype.kind != "f":
        raise TypeError(f"{where}: can only optimize floating-point tensors, got dtype {data.dtype}")


class Optimizer:
    """Base class: subclasses define ``defaults``, ``_check_group`` and ``_update``.

    Subclasses also name their per-parameter state: ``_array_state`` (buffers
    shaped like the parameter), ``_count_state`` (non-negative ints such as
    Adam's step) and ``_float32_state`` (scalars PyTorch keeps in float32), which
    ``load_state_dict`` checks; ``_state_names(group)`` adds entries a group's
    options switch on (RMSprop's ``momentum_buffer``, Adam's ``max_exp_avg_sq``).
    """

    _array_state: tuple[str, ...] = ()
    _count_state: tuple[str, ...] = ()
    _float32_state: tuple[str, ...] = ()
    # PyTorch options older state dicts may lack: filled from the defaults on load
    # (PyTorch's ``__setstate__`` does the same).
    _optional_options = ("maximize", "foreach", "capturable", "differentiable", "fused",
                         "amsgrad", "decoupled_weight_decay")
    _table: ParamTable | None = None  # see _param_table

    def __init__(self, params: Iterable[Any], defaults: dict[str, Any]) -> None:
        self.defaults = dict(defaults)
        self.param_groups: list[dict[str, Any]] = []
        self.state: dict[int, dict[str, Any]] = {}
        if _is_param(params) or isinstance(params, (dict, str)):
            raise TypeError(
                "params must be an iterable of tensors or of dicts (parameter groups), got "
                f"{type(params).__name__}; wrap a single tensor in a list"
            )
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not all(isinstance(g, dict) for g in groups):
            if any(isinstance(g, dict) for g in groups):
                raise TypeError("params mixes tensors and dicts: pass one kind only")
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)
        if not any(g["params"] for g in self.param_groups):
            raise ValueError("optimizer got an empty parameter list")

    # ---- groups -------------------------------------------------------------
    def _check_group(self, group: dict[str, Any]) -> None:
        """Validate the hyperparameters of a filled-in group (raise ValueError/TypeError)."""
        check_hyperparameter("lr", group["lr"])

    def add_param_group(self, group: dict[str, Any]) -> None:
        """Append a group: its missing options take the optimizer's defaults.

        Checks everything first; on error the optimizer is unchanged.
        """
        if not isinstance(group, dict) or "params" not in group:
            raise TypeError("a parameter group is a dict with a 'params' entry")
        params = group["params"]
        if _is_param(params):
            params = [params]
        elif isinstance(params, (dict, str)):
            raise TypeError(f"group 'params' must be an iterable of tensors, got {type(params)}")
        params = list(params)
        index = len(self.param_groups)
        for i, p in enumerate(params):
            _check_param(p, f"param group {index}, parameter {i}")
        seen = {id(p) for g in self.param_groups for p in g["params"]}
        for i, p in enumerate(params):
            if id(p) in seen:
                raise ValueError(
                    f"param group {index}, parameter {i} (shape {p.data.shape}) appears more than "
                    "once across parameter groups"
                )
            seen.add(id(p))
        filled = {k: v for k, v in group.items() if k != "params"}
        for k, v in self.defaults.items():
            filled.setdefault(k, v)
        filled["lr"] = _python_lr(filled["lr"])
        self._check_group(filled)
        check_flags(filled, type(self).__name__)
        filled["params"] = params
        self.param_groups.append(filled)

    def _indexed_params(self) -> Iterator[tuple[int, Any, dict[str, Any]]]:
        """(global index, parameter, its group) for every parameter, groups in order."""
        for group, members in self._param_table():
            for i, p in members:
                yield i, p, group

    def _param_table(self) -> list[tuple[dict[str, Any], list[tuple[int, Any]]]]:
        """``(group, [(global index, parameter), ...])`` per group, in order: the kept
        :class:`ParamTable`, rebuilt first if ``param_groups`` changed (its rule)."""
        table = self._table
        if table is None or not table.describes(self.param_groups):
            table = self._table = ParamTable(self.param_groups)
        return table.groups

    # ---- the update -----------------------------------------------------------
    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget every parameter's gradient: ``.grad = None`` (PyTorch's default), or with
        ``set_to_none=False`` zero each ``.grad`` in place, keeping the same Tensor."""
        for _, members in self._param_table():
            for _, p in members:
                p.zero_grad(set_to_none)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; return ``closure()`` if given.

        Shapes of all gradients are checked before any parameter changes.
        """
        loss = closure() if closure is not None else None
        # Everything is checked before anything changes: a step either updates
        # every parameter or raises with all parameters and state untouched.
        for gi, group in enumerate(self.param_groups):
            try:  # a scheduler or the user may have edited the group since the last step
                self._check_group(group)
                check_flags(group, type(self).__name__)
            except (TypeError, ValueError) as e:
                raise type(e)(f"param group {gi}: {e}") from None
        work = []
        states = self.state
        for group, members in self._param_table():
            maximize = group.get("maximize")
            for i, p in members:
                g = p.grad
                if g is None:
                    continue
                data = p.data
                g = getattr(g, "data", g)
                if not isinstance(g, np.ndarray):
                    raise TypeError(f"parameter {i}: .grad must be a Tensor or None, got "
                                    f"{type(p.grad).__name__}")
                if g.shape != data.shape:
                    raise ValueError(
                        f"parameter {i} has shape {data.shape} but its .grad has shape {g.shape}"
                    )
                if g.dtype != data.dtype:
                    g = g.astype(data.dtype)
                if maximize:
                    g = -g
                if not data.flags.writeable:
                    raise ValueError(f"parameter {i}: .data is read-only, cannot update it in "
                                     "place")
                state = states.get(i)
                # one pass over the buffers: shapes must match, dtypes are followed below
                follow = False
                if state:
                    for k, buf in state.items():
                        if isinstance(buf, np.ndarray) and (buf.shape != data.shape
                                                            or buf.dtype != data.dtype):
                            if buf.shape != data.shape:
                                raise ValueError(
                                    f"parameter {i} has shape {data.shape} but its optimizer "
                                    f"state {k!r} has shape {buf.shape} (was .data replaced by "
                                    "an array of another shape?)"
                                )
                            follow = True
                work.append((i, p, g, group, state, follow))
        for i, p, g, group, state, follow in work:
            if state is None:
                state = {}
            elif follow:
                self._follow_param_dtype(state, p.data.dtype)
            self._update(p, g, state, group)
            bump = getattr(p, "_bump_version", None)
            if bump is not None:  # an in-place write: arrays saved from p are now stale
                bump()
            if state:  # plain SGD keeps no state: store no empty entries
                states[i] = state
        return loss

    def _follow_param_dtype(self, state: dict[str, Any], dtype: np.dtype) -> None:
        # ``p.data = p.data.astype(np.float64)`` is allowed: buffers follow the param.
        for k, buf in state.items():
            if isinstance(buf, np.ndarray) and buf.dtype != dtype:
                state[k] = buf.astype(dtype)

    def _state_names(self, group: dict[str, Any]) -> dict[str, str]:
        """Each state entry a parameter of ``group`` has after a step, and its kind
        (``"array"``, ``"count"`` or ``"float32"``)."""
        names = {k: "count" for k in self._count_state}
        names.update({k: "float32" for k in self._float32_state})
        names.update({k: "array" for k in self._array_state})
        return names

    def _update(self, p: Any, g: np.ndarray, state: dict[str, Any], group: dict[str, Any]) -> None:
        """Update ``p.data`` in place from gradient ``g``; subclasses define the rule."""
        raise NotImplementedError

    # ---- state dicts ------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """``{"state": {index: {name: value}}, "param_groups": [{options, "params": [index]}]}``.

        Buffers are copied, so the dict is a snapshot that later steps do not change.
        """
        groups = []
        start = 0
        for group in self.param_groups:
            g = {k: copy.deepcopy(v) for k, v in group.items() if k != "params"}
            g["params"] = list(range(start, start + len(group["params"])))
            start += len(group["params"])
            groups.append(g)
        state = {
            i: {k: (v.copy() if isinstance(v, np.ndarray) else copy.deepcopy(v))
                for k, v in s.items()}
            for i, s in self.state.items()
        }
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore hyperparameters and buffers saved by :meth:`state_dict`.

        Group count and sizes, every option, every state index, name and buffer
        shape are checked first; on any error nothing changes. Buffers are
        copied into the parameter's dtype. ``Tensor`` values are accepted too.
        """
        if not isinstance(state_dict, dict) or set(state_dict) != {"state", "param_groups"}:
            keys = sorted(map(str, state_dict)) if isinstance(state_dict, dict) else None
            raise ValueError(
                "an optimizer state dict has exactly the keys 'state' and 'param_groups', got "
                f"{keys if keys is not None else type(state_dict).__name__}"
            )
        saved_groups, saved_state = state_dict["param_groups"], state_dict["state"]
        if not isinstance(saved_groups, (list, tuple)) or not isinstance(saved_state, dict):
            raise TypeError("'param_groups' must be a list and 'state' a dict")
        if len(saved_groups) != len(self.param_groups):
            raise ValueError(
                f"the state dict has {len(saved_groups)} parameter groups, this optimizer has "
                f"{len(self.param_groups)}"
            )
        new_groups = []
        for gi, (saved, mine) in enumerate(zip(saved_groups, self.param_groups)):
            if not isinstance(saved, dict) or "params" not in saved:
                raise ValueError(f"saved parameter group {gi} is not a dict with 'params'")
            n_saved, n_mine = len(saved["params"]), len(mine["params"])
            if n_saved != n_mine:
                raise ValueError(
                    f"parameter group {gi} has {n_saved} parameters in the state dict but "
                    f"{n_mine} in this optimizer"
                )
            missing = [k for k in self.defaults
                       if k not in saved and k not in self._optional_options]
            if missing:
                raise ValueError(
                    f"saved parameter group {gi} lacks {missing} (was it saved by a different "
                    f"optimizer than {type(self).__name__}?)"
                )
            new = {k: copy.deepcopy(v) for k, v in saved.items() if k != "params"}
            for k in self._optional_options:
                if k in self.defaults:
                    new.setdefault(k, self.defaults[k])
            for k in ("betas", "etas", "step_sizes"):
                if k in new and isinstance(new[k], list):
                    new[k] = tuple(new[k])
            try:
                new["lr"] = _python_lr(new.get("lr"))
                self._check_group(new)
                check_flags(new, type(self).__name__)
            except (TypeError, ValueError) as e:
                raise ValueError(f"saved parameter group {gi}: {e}") from None
            new["params"] = mine["params"]
            new_groups.append(new)

        params = {i: (p, new_groups[gi]) for gi, i, p in self._indexed_group_params()}
        new_state: dict[int, dict[str, Any]] = {}
        for key, entry in saved_state.items():
            if isinstance(key, bool) or not isinstance(key, (int, np.integer)) or key not in params:
                raise ValueError(
                    f"state key {key!r} is not a parameter index in [0, {len(params)})"
                )
            p, group = params[int(key)]
            new_state[int(key)] = self._checked_state_entry(int(key), entry, p, group)

        self.param_groups[:] = new_groups
        self.state = new_state

    def _indexed_group_params(self) -> Iterator[tuple[int, int, Any]]:
        """(group index, global index, parameter) for every parameter, groups in order."""
        for gi, (_, members) in enumerate(self._param_table()):
            for i, p in members:
                yield gi, i, p

    def _checked_state_entry(self, i: int, entry: Any, p: Any,
                             group: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(entry, dict):
            raise TypeError(f"state of parameter {i} must be a dict, got {type(entry).__name__}")
        kinds = self._state_names(group)
        if set(entry) != set(kinds):
            raise ValueError(
                f"state of parameter {i} has entries {sorted(map(str, entry))}, expected "
                f"{sorted(kinds)}"
            )
        out: dict[str, Any] = {}
        for k in (k for k, kind in kinds.items() if kind == "float32"):
            x = _one_number(entry[k])
            if isinstance(x, bool) or not isinstance(x, numbers.Real):
                raise TypeError(f"state {k!r} of parameter {i} must be a real number, got {x!r}")
            out[k] = to_float32(x)
        for k in (k for k, kind in kinds.items() if kind == "count"):
            n = _one_number(entry[k])
            if isinstance(n, float) and n.is_integer():  # a step saved as float stays exact
                n = int(n)
            if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
                raise ValueError(f"state {k!r} of parameter {i} must be an int >= 0, got {n!r}")
            out[k] = int(n)
        for k in (k for k, kind in kinds.items() if kind == "array"):
            buf = _as_array(entry[k])
            if not isinstance(buf, np.ndarray) or buf.dtype.kind not in "fiu":
                raise ValueError(
                    f"state {k!r} of parameter {i} must be a numeric array, got "
                    f"{getattr(buf, 'dtype', type(buf).__name__)}"
                )
            if buf.shape != p.data.shape:
                raise ValueError(
                    f"state {k!r} of parameter {i} has shape {buf.shape}, the parameter has "
                    f"shape {p.data.shape}"
                )
            out[k] = np.array(buf, dtype=p.data.dtype, order="C", copy=True)
        return out

    def __repr__(self) -> str:
        lines = [f"{type(self).__name__} ("]
        for gi, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {gi}")
            for k in sorted(k for k in group if k != "params"):
                lines.append(f"    {k}: {group[k]}")
        lines.append(")")
        return "\n".join(lines)


def _one_number(x: Any) -> Any:
    """A one-element array or tensor (a step PyTorch saved as a 0-d tensor) as a Python
    number; anything else unchanged for the caller's check."""
    if isinstance(x, (numbers.Number, str)) or not hasattr(x, "item"):
        return x
    try:
        return x.item()
    except (ValueError, RuntimeError):  # more than one element
        return x


def _as_array(x: Any) -> Any:
    """An ndarray, a minigrad Tensor's ``.data``, or anything with ``__array__`` (a PyTorch
    tensor) as an ndarray; anything else unchanged for the caller's check."""
    if isinstance(x, np.ndarray):
        return x
    data = getattr(x, "data", None)
    if isinstance(data, np.ndarray):
        return data
    return np.asarray(x) if hasattr(x, "__array__") else x


def _python_lr(lr: Any) -> Any:
    """A one-element Tensor learning rate (PyTorch accepts ``lr=torch.tensor(1e-3)``) as a
    Python float; anything else unchanged for the range check."""
    if isinstance(lr, (numbers.Real, str)) or not hasattr(lr, "item"):
        return lr
    value = _one_number(lr)
    if value is lr:
        raise ValueError("Tensor lr must be 1-element")
    return float(value)


def _is_param(x: Any) -> bool:
    return isinstance(getattr(x, "data", None), np.ndarray) and hasattr(x, "grad")


__all__ = ["Optimizer", "check_flags", "check_hyperparameter", "check_nonnegative", "check_pair",
           "l2_decay", "to_float32", "zeros_state"]

"""Module and Parameter: how a model keeps track of its weights.

A :class:`Module` is a container. Assigning a :class:`Parameter` or another
Module to one of its attributes *registers* it (as in PyTorch)::

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 8)        # a sub-module, named "fc"
            self.scale = nn.Parameter(...)   # a parameter, named "scale"

so that ``parameters()`` finds every weight of the whole tree (for the
optimizer), ``named_parameters()`` gives them dotted names (``fc.weight``),
and ``state_dict()`` / ``load_state_dict()`` save and restore them by name.

Registered things are also stored as ordinary attributes, so reading
``self.fc`` is a plain attribute lookup (no ``__getattr__`` detour on the hot
path of every forward pass).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

import numpy as np

from minigrad.device import check_device, is_device
from minigrad.grad_mode import _mode
from minigrad.tensor import Tensor

# How many inference calls (generate, decoding) this thread is inside: while any is, every
# module reads ``training`` as False in this thread only (see Module.training).
_evaluating = threading.local()


@contextmanager
def eval_in_this_thread() -> Iterator[None]:
    """Run the body in eval semantics in the calling thread only: every module's ``training``
    reads False here (dropout is the identity), while the mode other threads see, and the
    one ``train()``/``eval()`` set, is untouched. What ``generate`` and the decoders use, so
    that sampling from a model never changes a training thread's forward passes."""
    _evaluating.depth = getattr(_evaluating, "depth", 0) + 1
    try:
        yield
    finally:
        _evaluating.depth -= 1


class Parameter(Tensor):
    """A Tensor that is a learnable weight of a Module: it always requires grad.

    ``Parameter(data)``: ``data`` is an ndarray (its float dtype is kept, so a
    float64 model for gradcheck works), a Tensor (its array is shared, not
    copied) or a nested list (float32, as ``minigrad.tensor``). Integer data
    raises TypeError: ids are never learned.
    """

    def __init__(self, data: Any, requires_grad: bool = True) -> None:
        if isinstance(data, Tensor):
            data = data.data
        super().__init__(data, requires_grad=requires_grad)
        if self.data.dtype.kind != "f":
            raise TypeError(f"Parameter needs floating-point data, got dtype {self.data.dtype}")

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()


class IncompatibleKeys(NamedTuple):
    """What ``load_state_dict(strict=False)`` skipped."""

    missing_keys: list
    unexpected_keys: list


def _as_array(value: Any, key: str) -> np.ndarray:
    """The ndarray inside a state_dict entry (Tensor or array-like)."""
    arr = value.data if isinstance(value, Tensor) else np.asarray(value)
    if arr.dtype.kind not in "fiub":
        raise TypeError(f"load_state_dict: entry {key!r} has non-numeric dtype {arr.dtype}")
    return arr


class Module:
    """Base class of every layer and model.

    Subclasses call ``super().__init__()`` first, assign parameters,
    sub-modules and buffers as attributes, and define ``forward``; calling the
    module calls ``forward``. ``training`` is True after construction and is
    switched for the whole tree by ``train()`` / ``eval()``; inside
    :func:`eval_in_this_thread` it reads False in that thread alone.
    """

    @property
    def training(self) -> bool:
        """Training mode (dropout active): the mode ``train()``/``eval()`` set, False in a
        thread running an inference call (:func:`eval_in_this_thread`)."""
        return self.__dict__["_training"] and not getattr(_evaluating, "depth", 0)

    @training.setter
    def training(self, mode: bool) -> None:
        self.__dict__["_training"] = bool(mode)

    def __init__(self) -> None:
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent", set())
        object.__setattr__(self, "_modules", OrderedDict())

    # ---- registration ------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        if "_parameters" not in self.__dict__:
            raise AttributeError(
                f"cannot assign {name!r} before Module.__init__() has run: "
                f"call super().__init__() first in {type(self).__name__}.__init__"
            )
        params, buffers, modules = self._parameters, self._buffers, self._modules
        if isinstance(value, Parameter):
            self._put(params, name, value)
        elif isinstance(value, Module):
            self._put(modules, name, value)
        elif name in params:
            if value is not None:
                raise TypeError(
                    f"cannot assign a {type(value).__name__} to parameter {name!r} of "
                    f"{type(self).__name__} (a Parameter or None is expected)"
                )
            params[name] = None
        elif name in buffers:
            value = None if value is None else _as_buffer(value)
            buffers[name] = value
        elif name in modules:
            if value is not None:
                raise TypeError(
                    f"cannot assign a {type(value).__name__} to sub-module {name!r} of "
                    f"{type(self).__name__} (a Module or None is expected)"
                )
            modules[name] = None
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        self._forget(name)
        object.__delattr__(self, name)

    def _put(self, registry: OrderedDict, name: str, value: Any) -> None:
        """Register ``value`` in ``registry``, keeping its position if the name exists."""
        if name not in registry:
            self._forget(name)
        registry[name] = value

    def _forget(self, name: str) -> None:
        for registry in (self._parameters, self._buffers, self._modules):
            registry.pop(name, None)
        self._non_persistent.discard(name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Register ``param`` (or None, e.g. a disabled bias) under ``name``."""
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"register_parameter: {name!r} must be a Parameter or None, "
                            f"got {type(param).__name__}")
        self._put(self._parameters, name, param)
        object.__setattr__(self, name, param)

    def register_buffer(self, name: str, value: Any, persistent: bool = True) -> None:
        """Register a non-learned array (a Tensor that never requires grad).

        Buffers move with the module (``to``) and, when ``persistent``, are
        saved in ``state_dict()`` beside the parameters.
        """
        if not isinstance(name, str) or not name or "." in name:
            raise ValueError(f"register_buffer: bad buffer name {name!r}")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"register_buffer: attribute {name!r} already exists")
        buf = None if value is None else _as_buffer(value)
        self._put(self._buffers, name, buf)
        if persistent:
            self._non_persistent.discard(name)
        else:
            self._non_persistent.add(name)
        object.__setattr__(self, name, buf)

    def add_module(self, name: str, module: Module | None) -> None:
        """Register ``module`` as a child named ``name`` (``setattr`` does the same)."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"add_module: {name!r} must be a Module, got {type(module).__name__}")
        self._put(self._modules, name, module)
        object.__setattr__(self, name, module)

    # ---- calling -------------------------------------------------------------
    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} does not define forward()")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if _mode.recorder is not None:  # a captured step guards what this module is
            _mode.recorder.module(self)
        return self.forward(*args, **kwargs)

    # ---- walking the tree ------------------------------------------------------
    def named_modules(self, prefix: str = "") -> Iterator[tuple[str, Module]]:
        """(dotted name, module) for self and every descendant, each module once."""
        seen: set = set()
        stack = [(prefix, self)]
        while stack:
            name, mod = stack.pop()
            if id(mod) in seen:
                continue
            seen.add(id(mod))
            yield name, mod
            children = [(f"{name}.{n}" if name else n, m) for n, m in mod._modules.items()
                        if m is not None]
            stack.extend(reversed(children))

    def modules(self) -> Iterator[Module]:
        """Self and every descendant module."""
        for _, m in self.named_modules():
            yield m

    def named_children(self) -> Iterator[tuple[str, Module]]:
        """(name, module) of the direct sub-modules."""
        for n, m in self._modules.items():
            if m is not None:
                yield n, m

    def children(self) -> Iterator[Module]:
        """The direct sub-modules."""
        for _, m in self.named_children():
            yield m

    def _named_members(self, registry: str, remove_duplicate: bool) -> Iterator[tuple[str, Any]]:
        seen: set = set()
        for mod_name, mod in self.named_modules():
            for n, v in getattr(mod, registry).items():
                if v is None or (remove_duplicate and id(v) in seen):
                    continue
                seen.add(id(v))
                yield (f"{mod_name}.{n}" if mod_name else n), v

    def named_parameters(self, remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        """(dotted name, Parameter) for the whole tree; a tied weight appears once,
        under the name where it was first met."""
        return self._named_members("_parameters", remove_duplicate)

    def parameters(self) -> Iterator[Parameter]:
        """Every Parameter of the tree, each once (what an optimizer takes)."""
        for _, p in self.named_parameters():
            yield p

    def named_buffers(self) -> Iterator[tuple[str, Tensor]]:
        """(dotted name, buffer Tensor) for the whole tree."""
        return self._named_members("_buffers", True)

    def buffers(self) -> Iterator[Tensor]:
        """Every buffer of the tree."""
        for _, b in self.named_buffers():
            yield b

    def apply(self, fn: Callable[[Module], Any]) -> Module:
        """Call ``fn`` on every sub-module (children first) and then on self."""
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    # ---- modes and gradients ---------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        """Set training mode on the whole tree (dropout active)."""
        for m in self.modules():
            object.__setattr__(m, "training", bool(mode))
        return self

    def eval(self) -> Module:
        """Set evaluation mode on the whole tree (dropout is the identity)."""
        return self.train(False)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget every parameter's gradient: ``.grad = None`` (PyTorch's default), or with
        ``set_to_none=False`` zero each ``.grad`` in place, keeping the same Tensor."""
        for p in self.parameters():
            p.zero_grad(set_to_none)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        """Freeze (False) or unfreeze every parameter."""
        for p in self.parameters():
            p.requires_grad = requires_grad
        return self

    def to(self, *args: Any, dtype: Any = None, device: Any = None, **_ignored: Any) -> Module:
        """Cast every floating parameter and buffer to ``dtype`` (e.g. np.float64); as PyTorch,
        ``model.to("cpu")``, ``model.to(dtype)`` and ``model.to("cpu", dtype)`` all work, and
        any device other than the CPU raises."""
        for a in args:
            if is_device(a):
                device = a
            else:
                dtype = a
        check_device(device)
        if dtype is None:
            return self
        dt = np.dtype(dtype)
        if dt.kind != "f":
            raise TypeError(f"Module.to: needs a floating dtype, got {dt}")
        for p in self.parameters():
            p.data = p.data.astype(dt)
            p.grad = None
        for b in self.buffers():
            if b.data.dtype.kind == "f":
                b.data = b.data.astype(dt)
        return self

    def double(self) -> Module:
        """Cast to float64 (what gradcheck needs)."""
        return self.to(np.float64)

    def float(self) -> Module:
        """Cast to float32."""
        return self.to(np.float32)

    def num_parameters(self) -> int:
        """Number of learnable scalars (tied weights counted once)."""
        return sum(p.data.size for p in self.parameters())

    # ---- saving and loading ----------------------------------------------------
    def state_dict(self) -> OrderedDict[str, Tensor]:
        """Ordered name -> Tensor of every parameter and persistent buffer.

        The Tensors share memory with the module (as PyTorch): copy them if the
        model will keep training. A tied weight appears under each of its
        names (stable keys, as PyTorch), as Tensors sharing one array:
        ``minigrad.save`` and ``save_safetensors`` store that array once.
        """
        out: OrderedDict[str, Tensor] = OrderedDict()
        for mod_name, mod in self.named_modules():
            pre = f"{mod_name}." if mod_name else ""
            for n, p in mod._parameters.items():
                if p is not None:
                    out[pre + n] = p.detach()
            for n, b in mod._buffers.items():
                if b is not None and n not in mod._non_persistent:
                    out[pre + n] = b
        return out

    def load_state_dict(self, state: Any, strict: bool = True) -> IncompatibleKeys:
        """Copy the arrays of ``state`` (name -> Tensor or ndarray) into this module.

        Every key and shape is checked first; if anything is wrong (with
        ``strict``: a missing or unexpected key; always: a shape mismatch)
        a KeyError/ValueError naming the keys is raised and nothing is
        changed. Values are copied *in place* (cast to each target's dtype),
        so an optimizer holding the Parameters sees the loaded values.

        A tied weight (one array under several names) is loaded only when the
        state agrees with the tie: every name present with equal arrays. Two
        different arrays (an untied checkpoint) or, with ``strict=False``,
        only some of the names (which would silently change the others too)
        raise a ValueError naming the keys; untie the model to load such a state.
        """
        if not hasattr(state, "keys"):
            raise TypeError(f"load_state_dict: expected a mapping, got {type(state).__name__}")
        for name, mod in self.named_modules():  # layers whose key layout changed convert here
            convert = getattr(mod, "_convert_old_state", None)
            if convert is not None:
                state = convert(state, f"{name}." if name else "")
        targets = self.state_dict()
        missing = [k for k in targets if k not in state]
        unexpected = [k for k in state if k not in targets]
        if strict and (missing or unexpected):
            parts = []
            if missing:
                parts.append(f"missing keys {missing}")
            if unexpected:
                parts.append(f"unexpected keys {unexpected}")
            raise KeyError(f"load_state_dict into {type(self).__name__}: " + "; ".join(parts)
                           + " (nothing was loaded)")
        arrays = {}
        bad = []
        for k, t in targets.items():
            if k not in state:
                continue
            arr = _as_array(state[k], k)
            if arr.shape != t.data.shape:
                bad.append(f"{k!r}: checkpoint {arr.shape} vs model {t.data.shape}")
            arrays[k] = arr
        if bad:
            raise ValueError("load_state_dict: shape mismatch for " + "; ".join(bad)
                             + " (nothing was loaded)")
        _check_ties(targets, arrays)
        for k, arr in arrays.items():
            np.copyto(targets[k].data, arr, casting="unsafe")
        return IncompatibleKeys(missing, unexpected)

    # ---- printing ------------------------------------------------------------------
    def extra_repr(self) -> str:
        """The text inside this module's parentheses in ``repr`` (its settings)."""
        return ""

    def __repr__(self) -> str:
        lines = []
        extra = self.extra_repr()
        if extra:
            lines.extend(extra.split("\n"))
        for name, m in self._modules.items():
            child = repr(m).replace("\n", "\n  ")
            lines.append(f"({name}): {child}")
        if not lines:
            return f"{type(self).__name__}()"
        if not self._modules and len(lines) == 1:
            return f"{type(self).__name__}({lines[0]})"
        return f"{type(self).__name__}(\n  " + "\n  ".join(lines) + "\n)"


def _check_ties(targets: dict[str, Tensor], arrays: dict[str, np.ndarray]) -> None:
    """Refuse a state that breaks a tie: names sharing one array in the module must be
    loaded all together (``arrays`` holds the loaded names) and with equal values."""
    groups: dict[int, list[str]] = {}
    for k, t in targets.items():
        groups.setdefault(id(t.data), []).append(k)
    for names in groups.values():
        given = [k for k in names if k in arrays]
        if len(names) < 2 or not given:
            continue
        if len(given) < len(names):
            left = [k for k in names if k not in arrays]
            raise ValueError(
                f"load_state_dict: {given} and {left} are one tied weight in this model, but "
                f"the state gives only {given}: loading it would silently change {left} too "
                "(give every name with equal arrays, or untie the model; nothing was loaded)")
        first = arrays[given[0]]
        for k in given[1:]:
            if not np.array_equal(arrays[k], first):
                raise ValueError(
                    f"load_state_dict: {given[0]!r} and {k!r} are one tied weight in this model, "
                    "but the state holds different arrays for them (an untied checkpoint?); "
                    "build the model untied (e.g. tie_weights=False) to load it "
                    "(nothing was loaded)")


def _as_buffer(value: Any) -> Tensor:
    """A buffer is a Tensor that does not require grad (an ndarray is wrapped, not copied)."""
    if isinstance(value, Tensor):
        if value.requires_grad:
            value = value.detach()
        return value
    return Tensor(value)


class Sequential(Module):
    """Modules applied one after another: ``Sequential(a, b, c)(x) == c(b(a(x)))``.

    Children are named "0", "1", ... (or by the keys of an OrderedDict).
    """

    def __init__(self, *modules: Any) -> None:
        super().__init__()
        if len(modules) == 1 and isinstance(modules[0], OrderedDict):
            for name, m in modules[0].items():
                self.add_module(name, _check_module(m, name))
        else:
            for i, m in enumerate(modules):
                self.add_module(str(i), _check_module(m, str(i)))

    def forward(self, input: Any) -> Any:
        for m in self._modules.values():
            input = m(input)
        return input

    def append(self, module: Module) -> Sequential:
        """Add ``module`` at the end."""
        self.add_module(str(len(self._modules)), _check_module(module, str(len(self._modules))))
        return self

    def __getitem__(self, idx: int | slice) -> Any:
        mods = list(self._modules.values())
        if isinstance(idx, slice):
            return Sequential(*mods[idx])
        return mods[_check_index(idx, len(mods))]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())


class ModuleList(Module):
    """A list of sub-modules, each registered (named "0", "1", ...).

    It has no forward: the owner decides how to call them (e.g. a stack of
    transformer blocks applied in a loop).
    """

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def append(self, module: Module) -> ModuleList:
        """Add ``module`` at the end."""
        name = str(len(self._modules))
        self.add_module(name, _check_module(module, name))
        return self

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        """Append every module of ``modules``."""
        mods = list(modules)
        for i, m in enumerate(mods):
            _check_module(m, str(len(self._modules) + i))
        for m in mods:
            self.append(m)
        return self

    def insert(self, index: int, module: Module) -> None:
        """Insert ``module`` before position ``index``."""
        mods = list(self._modules.values())
        mods.insert(index, _check_module(module, str(index)))
        self._reset(mods)

    def _reset(self, mods: list) -> None:
        for name in list(self._modules):
            delattr(self, name)
        for i, m in enumerate(mods):
            self.add_module(str(i), m)

    def __getitem__(self, idx: int | slice) -> Any:
        mods = list(self._modules.values())
        if isinstance(idx, slice):
            return ModuleList(mods[idx])
        return mods[_check_index(idx, len(mods))]

    def __setitem__(self, idx: int, module: Module) -> None:
        i = _check_index(idx, len(self._modules))
        self.add_module(str(i), _check_module(module, str(i)))

    def __delitem__(self, idx: int | slice) -> None:
        mods = list(self._modules.values())
        if isinstance(idx, slice):
            del mods[idx]
        else:
            del mods[_check_index(idx, len(mods))]
        self._reset(mods)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(list(self._modules.values()))

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("ModuleList has no forward(): iterate over it and call each module")


def _check_module(m: Any, name: str) -> Module:
    if not isinstance(m, Module):
        raise TypeError(f"entry {name} must be an nn.Module, got {type(m).__name__}")
    return m


def _check_index(idx: Any, n: int) -> int:
    if not isinstance(idx, (int, np.integer)):
        raise TypeError(f"indices must be integers or slices, got {type(idx).__name__}")
    if not -n <= idx < n:
        raise IndexError(f"index {idx} is out of range for a container of {n} modules")
    return int(idx) % n

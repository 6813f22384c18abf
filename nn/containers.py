"""More containers, as PyTorch: ModuleDict (sub-modules by name) and ParameterList.

(``Sequential`` and ``ModuleList`` live in ``module.py``.)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from minigrad.tensor import Tensor

from .module import Module, Parameter, _check_index, _check_module


class ModuleDict(Module):
    """Sub-modules registered under string keys, in insertion order; no forward."""

    def __init__(self, modules: Mapping[str, Module] | Iterable | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def update(self, modules: Mapping[str, Module] | Iterable) -> None:
        """Add (or replace) every (name, module) pair."""
        items = list(modules.items() if isinstance(modules, Mapping) else modules)
        for name, m in items:  # check every entry before registering any
            if not isinstance(name, str):
                raise TypeError(f"ModuleDict keys must be strings, got {type(name).__name__}")
            _check_module(m, name)
        for name, m in items:
            self.add_module(name, m)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.update([(key, module)])

    def __delitem__(self, key: str) -> None:
        delattr(self, key)

    def __contains__(self, key: object) -> bool:
        return key in self._modules

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._modules))

    def keys(self) -> list:
        return list(self._modules.keys())

    def values(self) -> list:
        return list(self._modules.values())

    def items(self) -> list:
        return list(self._modules.items())

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("ModuleDict has no forward(): pick a module by key and call it")


class ParameterList(Module):
    """A list of Parameters, each registered (named "0", "1", ...); Tensors are wrapped."""

    def __init__(self, values: Iterable | None = None) -> None:
        super().__init__()
        for v in values or ():
            self.append(v)

    def append(self, value: Any) -> ParameterList:
        """Add a parameter at the end (a Tensor or array becomes a Parameter)."""
        p = value if isinstance(value, Parameter) else Parameter(
            value.data if isinstance(value, Tensor) else value)
        self.register_parameter(str(len(self._parameters)), p)
        return self

    def extend(self, values: Iterable) -> ParameterList:
        """Append every value."""
        for v in values:
            self.append(v)
        return self

    def __getitem__(self, idx: int) -> Parameter:
        params = list(self._parameters.values())
        return params[_check_index(idx, len(params))]

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[Parameter]:
        return iter(list(self._parameters.values()))

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("ParameterList has no forward(): iterate over its parameters")

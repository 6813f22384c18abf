"""The optimizer's parameters grouped and numbered once, rebuilt when the groups change.

A step (and ``zero_grad``) visits every parameter with its global index (its position
counting through all groups in order) and its group. Numbering them by walking
``param_groups`` on every call is Python work per parameter that gives the same answer
every step, so the optimizer keeps a :class:`ParamTable` and checks before each use that it
still describes ``param_groups``.

The rule: the table is rebuilt unless ``param_groups`` holds the same group dicts (by
identity) in the same order, each holding under ``"params"`` the same list object with the
same parameters (by identity) in the same order as when the table was built. So
``add_param_group``, ``load_state_dict``, assigning a new ``param_groups``, and editing it or
a group's ``"params"`` list in place (append, insert, remove, replace an entry, assign a new
list or tuple) all rebuild it. A group's other options (``lr``, ``betas``, ...) are not in the
table: each step reads them from the group itself. The check is one identity comparison per
parameter, done inside ``map`` (C), so it adds no Python call per parameter.
"""

from __future__ import annotations

import operator
from typing import Any


class ParamTable:
    """``groups``: one ``(group, [(global index, parameter), ...])`` per parameter group, in
    order, as ``param_groups`` was when the table was built (see the module docstring)."""

    __slots__ = ("_params", "_snapshots", "groups")

    def __init__(self, param_groups: list[dict[str, Any]]) -> None:
        self._params = [group["params"] for group in param_groups]
        self._snapshots = [tuple(params) for params in self._params]
        self.groups: list[tuple[dict[str, Any], list[tuple[int, Any]]]] = []
        i = 0
        for group, params in zip(param_groups, self._snapshots):
            self.groups.append((group, list(enumerate(params, i))))
            i += len(params)

    def describes(self, param_groups: list[dict[str, Any]]) -> bool:
        """Whether ``param_groups`` still has the groups, ``"params"`` lists and parameters,
        all by identity and in order, that this table was built from."""
        if len(param_groups) != len(self.groups):
            return False
        for group, (known, _), known_params, snapshot in zip(param_groups, self.groups,
                                                             self._params, self._snapshots):
            params = group["params"]
            if (group is not known or params is not known_params
                    or len(params) != len(snapshot)
                    or not all(map(operator.is_, params, snapshot))):
                return False
        return True

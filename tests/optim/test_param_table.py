"""The optimizer's kept table of parameters follows every change to ``param_groups``.

An optimizer numbers its parameters once (``minigrad/optim/param_table.py``) and rebuilds the
table when the groups change. Each case below changes ``param_groups`` in one way after the
table was built and used (a step and a ``zero_grad``), then checks that ``step``,
``zero_grad`` and the global indices act on ``param_groups`` as it is now: each member moves
by its current group's ``-lr * grad``, a parameter in no group does not move, and
``zero_grad`` clears exactly the members' gradients.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.optim import SGD, Adam


def _params() -> list:
    return [mg.tensor(np.full(2, float(k)), requires_grad=True) for k in range(6)]


def _optimizer(ps: list) -> SGD:
    return SGD([{"params": [ps[0], ps[1]], "lr": 0.1},
                {"params": [ps[2], ps[3]], "lr": 0.01}], lr=1.0)


def _load_other_lrs(opt: SGD, ps: list) -> None:
    other = _optimizer(ps)
    other.param_groups[0]["lr"], other.param_groups[1]["lr"] = 0.5, 0.25
    opt.load_state_dict(other.state_dict())


def _del_entry(opt: SGD, ps: list) -> None:
    del opt.param_groups[0]["params"][1]


def _replace_entry(opt: SGD, ps: list) -> None:
    opt.param_groups[0]["params"][0] = ps[4]


def _same_length_contents(opt: SGD, ps: list) -> None:
    opt.param_groups[1]["params"][:] = [ps[5], ps[4]]


def _set_lr(opt: SGD, ps: list) -> None:
    opt.param_groups[1]["lr"] = 0.5


def _new_groups_list(opt: SGD, ps: list) -> None:
    opt.param_groups = [opt.param_groups[1]]


def _del_group(opt: SGD, ps: list) -> None:
    del opt.param_groups[0]


EDITS = {
    "add_param_group": lambda opt, ps: opt.add_param_group({"params": [ps[4]], "lr": 1.0}),
    "append": lambda opt, ps: opt.param_groups[0]["params"].append(ps[4]),
    "insert first": lambda opt, ps: opt.param_groups[1]["params"].insert(0, ps[4]),
    "delete an entry": _del_entry,
    "replace an entry": _replace_entry,
    "same length, other parameters": _same_length_contents,
    "assign a new list": lambda opt, ps: opt.param_groups[0].__setitem__("params", [ps[5]]),
    "assign a tuple": lambda opt, ps: opt.param_groups[0].__setitem__("params", (ps[1],)),
    "reverse the groups": lambda opt, ps: opt.param_groups.reverse(),
    "assign a new param_groups": _new_groups_list,
    "delete a group": _del_group,
    "load_state_dict": _load_other_lrs,
    "edit lr": _set_lr,
}


def _members(opt: SGD) -> list:
    """(parameter, its group) for every parameter, read from ``param_groups`` as it is now."""
    return [(p, group) for group in opt.param_groups for p in group["params"]]


@pytest.mark.parametrize("edit", list(EDITS), ids=list(EDITS))
def test_step_and_zero_grad_follow_the_groups_after(edit: str) -> None:
    ps = _params()
    opt = _optimizer(ps)
    for p in ps:
        p.grad = mg.tensor(np.ones(2))
    opt.step()  # the table is built and used
    opt.zero_grad()
    EDITS[edit](opt, ps)

    members = _members(opt)
    assert [(i, id(p), id(g)) for i, p, g in opt._indexed_params()] == [
        (i, id(p), id(g)) for i, (p, g) in enumerate(members)]
    before = [p.data.copy() for p in ps]
    for p in ps:
        p.grad = mg.tensor(np.ones(2))
    opt.step()
    for k, p in enumerate(ps):
        lrs = [g["lr"] for q, g in members if q is p]
        want = before[k] - (lrs[0] if lrs else 0.0)
        np.testing.assert_array_equal(p.data, want, err_msg=f"parameter {k}")
    opt.zero_grad()
    for k, p in enumerate(ps):
        member = any(q is p for q, _ in members)
        assert (p.grad is None) == member, f"parameter {k}"


def test_state_is_indexed_by_the_current_position() -> None:
    """Adam's state follows the global index: after an insertion in front, the parameter now
    at position 0 gets (and reads) the state stored at index 0, as PyTorch's."""
    ps = _params()
    opt = Adam([ps[0], ps[1]], lr=0.1)
    for p in ps:
        p.grad = mg.tensor(np.ones(2))
    opt.step()
    opt.param_groups[0]["params"].insert(0, ps[2])
    opt.step()
    assert sorted(opt.state) == [0, 1, 2]
    assert [opt.state[i]["step"] for i in range(3)] == [2, 2, 1]

"""Every optim_db config of every optimizer class minigrad has: trajectories, state dicts,
and state dicts loaded across the libraries (see ``runner.py``). Skips without PyTorch."""

from __future__ import annotations

import warnings

import pytest

torch = pytest.importorskip("torch")

import minigrad as mg

from .differences import NOT_PROVIDED, judge_class
from .runner import load_optim_db, run_class

INFOS = {info.optim_cls.__name__: info for info in load_optim_db()}


@pytest.mark.parametrize("name", sorted(INFOS))
def test_optim_db_class(name):
    info = INFOS[name]
    if not hasattr(mg.optim, name):
        assert name in NOT_PROVIDED, f"minigrad has no {name} and the table gives no reason"
        pytest.skip(f"minigrad has no {name}: {NOT_PROVIDED[name]}")
    assert name not in NOT_PROVIDED, f"minigrad has {name}: delete its NOT_PROVIDED entry"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        outcomes = run_class(info)
    verdict = judge_class(name, outcomes)
    lines = [f"config {o.index} ({o.sample}): [{o.category}] {o.detail}"
             for o in verdict.unexpected]
    lines += [f"stale entry (matches nothing): {e}" for e in verdict.stale]
    assert not lines, "\n".join(lines)

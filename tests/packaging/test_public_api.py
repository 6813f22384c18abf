"""minigrad's public API only grows: every name of ``minigrad`` (``__all__`` and the names that
shadow builtins, ``minigrad.sum``, ``minigrad.float``, ...) and every public Tensor attribute
recorded in ``public_api_snapshot.json`` is still there, and every callable among them still
accepts the calls it accepted: its parameters keep their names, kinds and defaults, in order
(new parameters may follow), except where a module-level form took PyTorch's parameter names
(``input``, ``other``) over the one-letter names it had; positional calls are unchanged.

The snapshot was captured from the tree before the ops found one home each
(``python tests/packaging/test_public_api.py`` prints today's, for a review of what changed)."""

from __future__ import annotations

import inspect
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

import minigrad
from minigrad import Tensor

SNAPSHOT = Path(__file__).with_name("public_api_snapshot.json")

# module-level forms now derived from the Tensor method, under PyTorch's parameter names
RENAMED = {"a": "input", "b": "other", "x": "input", "t": "input"}


def _params(obj: Any) -> list[list[str]] | None:
    """``[name, kind, repr(default)]`` per parameter of a callable (``self`` left out), or
    None for a name that is no function (a class's own signature is its constructor's)."""
    if not callable(obj) or isinstance(obj, type) and not obj.__module__.startswith("minigrad"):
        return None
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    return [[p.name, p.kind.name, "" if p.default is p.empty else repr(p.default)]
            for p in sig.parameters.values() if p.name != "self"]


def _public(names: list[str]) -> list[str]:
    return sorted(n for n in names if not n.startswith("_"))


def snapshot() -> dict:
    """Today's public names of ``minigrad`` and ``minigrad.Tensor``, with their parameters."""
    tensor_names = _public(dir(Tensor)) + sorted(
        n for n in dir(Tensor) if n.startswith("__") and n.endswith("__")
        and getattr(Tensor, n) is not getattr(object, n, None))
    return {
        "__all__": sorted(minigrad.__all__),
        "minigrad": {n: _params(getattr(minigrad, n)) for n in _public(dir(minigrad))},
        "Tensor": {n: _params(getattr(Tensor, n)) for n in tensor_names},
    }


@pytest.fixture(scope="module")
def recorded() -> dict:
    return json.loads(SNAPSHOT.read_text())


def _compatible(before: list | None, after: list | None) -> bool:
    if before is None:
        return True
    if after is None:
        return False
    head = [[RENAMED.get(n, n) if k != "KEYWORD_ONLY" else n, k, d] for n, k, d in before]
    new = after[len(before):]
    return after[:len(before)] in (before, head) and all(
        d != "" or k in ("VAR_POSITIONAL", "VAR_KEYWORD") for _, k, d in new)


def test_every_name_of_all_is_still_exported(recorded):
    missing = sorted(set(recorded["__all__"]) - set(minigrad.__all__))
    assert not missing, f"left minigrad.__all__: {missing}"


@pytest.mark.parametrize("where", ["minigrad", "Tensor"])
def test_every_public_name_is_still_there_with_the_calls_it_took(recorded, where):
    now = snapshot()[where]
    missing = sorted(set(recorded[where]) - set(now))
    assert not missing, f"gone from {where}: {missing}"
    changed = {n: (recorded[where][n], now[n]) for n in sorted(recorded[where])
               if not _compatible(recorded[where][n], now[n])}
    assert not changed, f"signatures of {where} changed: {changed}"


def test_every_module_level_form_has_its_doc_line():
    """Adding an op's doc line is one of its three edits: docs/pytorch.md names every function
    of ``minigrad.functional`` (the forms derived from ``@module_form`` methods included)."""
    from minigrad import functional

    text = (Path(__file__).resolve().parents[2] / "docs" / "pytorch.md").read_text()
    words = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", text))
    assert sorted(set(functional.__all__) - words) == []


def test_the_check_fails_on_a_removed_parameter():
    before = [["input", "POSITIONAL_OR_KEYWORD", ""], ["dim", "POSITIONAL_OR_KEYWORD", "None"]]
    assert _compatible(before, before + [["dtype", "KEYWORD_ONLY", "None"]])
    assert _compatible([["a", "POSITIONAL_OR_KEYWORD", ""]], [["input", "POSITIONAL_OR_KEYWORD", ""]])
    assert not _compatible(before, before[:1])
    assert not _compatible(before, [before[0], ["dim", "POSITIONAL_OR_KEYWORD", "0"]])
    assert not _compatible(before, before + [["out", "POSITIONAL_OR_KEYWORD", ""]])


if __name__ == "__main__":
    json.dump(snapshot(), sys.stdout, indent=1, sort_keys=True)

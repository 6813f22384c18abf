"""Keyword calls port from PyTorch: every ``minigrad.nn`` class and ``nn.functional``
function that PyTorch has under the same name takes its arguments under PyTorch's names
(``input``, ``target``, ...), with its positional arguments in PyTorch's order."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import pytest

torch = pytest.importorskip("torch")

from minigrad import nn
from minigrad.nn import functional as F


def _names(fn: Callable) -> tuple[list[str], list[str]] | None:
    """(positional names, keyword-only names) of ``fn``, ``self`` left out."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    params = [p for p in sig.parameters.values() if p.name != "self"]
    pos = [p.name for p in params
           if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return pos, [p.name for p in params if p.kind == p.KEYWORD_ONLY]


def _subsequence(short: list[str], long: list[str]) -> bool:
    it = iter(long)
    return all(name in it for name in short)


def _pairs() -> list[tuple[str, Callable, Callable]]:
    pairs = []
    for name in sorted(dir(nn)):
        cls, theirs = getattr(nn, name), getattr(torch.nn, name, None)
        if isinstance(cls, type) and issubclass(cls, nn.Module) and isinstance(theirs, type):
            pairs.append((f"nn.{name}.forward", cls.forward, theirs.forward))
            pairs.append((f"nn.{name}.__init__", cls.__init__, theirs.__init__))
    for name in sorted(dir(F)):
        fn, theirs = getattr(F, name), getattr(torch.nn.functional, name, None)
        # a function PyTorch dispatches on a flag (max_pool2d on return_indices) shows only
        # (*args, **kwargs): its arguments are those of the private form it dispatches to
        theirs = getattr(torch.nn.functional, "_" + name, theirs)
        if not name.startswith("_") and inspect.isfunction(fn) and callable(theirs):
            pairs.append((f"F.{name}", fn, theirs))
    return pairs


PAIRS = _pairs()


@pytest.mark.parametrize("name, ours, theirs", PAIRS, ids=[p[0] for p in PAIRS])
def test_argument_names_are_pytorchs(name: str, ours: Callable, theirs: Callable) -> None:
    """Each argument minigrad takes has PyTorch's name, and the positional ones come in
    PyTorch's order (PyTorch may take more)."""
    a, b = _names(ours), _names(theirs)
    if a is None or b is None or b == (["args", "kwargs"], []):
        pytest.skip("no inspectable signature")
    (pos, kw), (t_pos, t_kw) = a, b
    unknown = [n for n in pos + kw if n not in t_pos + t_kw and n not in ("args", "kwargs")]
    assert not unknown, f"{name}: {unknown} are not PyTorch's names {t_pos + t_kw}"
    assert _subsequence(pos, t_pos), f"{name}: positional {pos}, PyTorch's {t_pos}"


def test_the_table_covers_the_library() -> None:
    """The table reaches the classes and functions (a broken lookup would test nothing)."""
    assert len(PAIRS) > 60
    assert {"nn.Linear.forward", "F.cross_entropy", "nn.CrossEntropyLoss.__init__"} <= {
        p[0] for p in PAIRS}

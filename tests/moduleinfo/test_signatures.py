"""Keyword calls port from PyTorch: every ``minigrad.nn`` class and ``nn.functional``
function that PyTorch has under the same name takes its arguments under PyTorch's names
(``input``, ``target``, ...), with its positional arguments in PyTorch's order, takes every
argument PyTorch's takes (or a table says why not), and has PyTorch's defaults."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import numpy as np
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


# Arguments PyTorch's form takes and minigrad's does not, each with its reason. An argument
# missing from minigrad and from this table fails ``test_pytorchs_arguments_are_taken``.
NOT_TAKEN_ANYWHERE = {
    "inplace": "minigrad's activations and dropout always return a new tensor (autograd "
               "keeps the input); the flag is not taken rather than silently ignored",
    "device": "the CPU is minigrad's only device and these constructors do not take it",
}
NOT_TAKEN = {
    ("nn.Embedding.__init__", "_weight"): "a private PyTorch argument (load_state_dict sets "
                                          "the weight)",
    ("nn.Embedding.__init__", "_freeze"): "a private PyTorch argument",
    ("nn.Hardtanh.__init__", "min_value"): "PyTorch's deprecated spelling of min_val",
    ("nn.Hardtanh.__init__", "max_value"): "PyTorch's deprecated spelling of max_val",
    ("F.normalize", "out"): "minigrad has no out= arguments",
    ("nn.RMSNorm.__init__", "dtype"): "RMSNorm is built in float32 and cast with .to()",
}


def _defaults(fn: Callable) -> dict:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return {}
    return {n: p.default for n, p in sig.parameters.items() if p.default is not p.empty}


def _same_meaning(ours: object, theirs: object) -> bool:
    """Equal defaults, or two spellings of one: float32 for PyTorch's dtype=None (its
    default dtype), minigrad's function for PyTorch's function of the same name (an
    activation=F.relu), 0.0 for F.pad's value=None (zeros)."""
    if ours is theirs or (type(ours) is type(theirs) and ours == theirs):
        return True
    if theirs is None and ours is np.float32:
        return True
    if callable(ours) and callable(theirs):
        return getattr(ours, "__name__", 1) == getattr(theirs, "__name__", 2)
    return isinstance(ours, float) and theirs is None and ours == 0.0


@pytest.mark.parametrize("name, ours, theirs", PAIRS, ids=[p[0] for p in PAIRS])
def test_pytorchs_arguments_are_taken(name: str, ours: Callable, theirs: Callable) -> None:
    """Each argument PyTorch's form takes, minigrad's takes (or the table says why not):
    e.g. the losses' deprecated size_average/reduce, mse_loss's weight."""
    a, b = _names(ours), _names(theirs)
    if a is None or b is None or b == (["args", "kwargs"], []) or "kwargs" in a[0] + a[1]:
        pytest.skip("no inspectable signature")
    missing = [n for n in b[0] + b[1] if n not in a[0] + a[1] and n not in ("args", "kwargs")
               and n not in NOT_TAKEN_ANYWHERE and (name, n) not in NOT_TAKEN]
    assert not missing, f"{name} does not take PyTorch's {missing}"


@pytest.mark.parametrize("name, ours, theirs", PAIRS, ids=[p[0] for p in PAIRS])
def test_defaults_are_pytorchs(name: str, ours: Callable, theirs: Callable) -> None:
    """An argument both take has PyTorch's default (so a call that leaves it out means the
    same): e.g. softmax's dim=None, PyTorch's implicit choice, not the last dim."""
    mine, torch_defaults = _defaults(ours), _defaults(theirs)
    differ = {n: (v, torch_defaults[n]) for n, v in mine.items()
              if n in torch_defaults and not _same_meaning(v, torch_defaults[n])}
    assert not differ, f"{name}: defaults (minigrad's, PyTorch's): {differ}"


def test_the_table_covers_the_library() -> None:
    """The table reaches the classes and functions (a broken lookup would test nothing)."""
    assert len(PAIRS) > 60
    assert {"nn.Linear.forward", "F.cross_entropy", "nn.CrossEntropyLoss.__init__"} <= {
        p[0] for p in PAIRS}

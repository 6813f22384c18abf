"""The table of deliberate differences of minigrad's modules from PyTorch's (``Entry`` and
``judge`` as in ``tests/opinfo/differences.py``; ``op`` is the class name). Keep it short:
a difference a PyTorch user would trip on is a bug, not an entry. ``KNOWN_BUGS`` holds
failures not fixed yet, each an expected failure (strict) of its class's test."""

from __future__ import annotations

from opinfo.differences import Entry, Verdict
from opinfo.differences import judge as _judge
from opinfo.runner import Outcome

DIFFERENCES: list[Entry] = []

KNOWN_BUGS: list[Entry] = []


def judge(name: str, outcomes: list[Outcome], dtypes_run: tuple[str, ...]) -> Verdict:
    """``name``'s failing outcomes sorted against this package's tables."""
    return _judge(name, outcomes, dtypes_run, DIFFERENCES, KNOWN_BUGS)

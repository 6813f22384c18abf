"""The table of deliberate differences from PyTorch's optim_db configs, each with its reason
(entries are ``tests.opinfo.differences.Entry``: op = the optimizer class name, sample = the
config's index). Keep it short: a difference a PyTorch user would trip on is a bug."""

from __future__ import annotations

from tests.opinfo.differences import Entry, Verdict, judge

# OptimizerInfo classes minigrad does not have, each with its reason.
NOT_PROVIDED = {
    "Adafactor": "not in the issue's list of optimizers minigrad provides",
    "Muon": "not in the issue's list of optimizers minigrad provides",
    "SparseAdam": "minigrad has no sparse gradients",
}

DIFFERENCES: list[Entry] = []


def judge_class(name: str, outcomes: list) -> Verdict:
    """``outcomes`` of class ``name`` sorted against :data:`DIFFERENCES` (no known bugs)."""
    return judge(name, outcomes, ("float64",), differences=DIFFERENCES, known_bugs=[])

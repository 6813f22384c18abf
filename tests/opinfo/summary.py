"""Counts of OpInfo outcomes per op and category, as a text table (no torch needed here:
the pytest terminal summary imports it whether or not PyTorch is installed)."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

# Outcomes of the ops run in this pytest session, filled by test_opinfo.py.
SESSION_OUTCOMES: list[Any] = []

COLUMNS = ("pass", "wrong value", "wrong gradient", "wrong second derivative", "wrong dtype",
           "wrong shape", "crash", "refused argument", "not applicable")
_SHORT = ("pass", "value", "grad", "grad2", "dtype", "shape", "crash", "refused", "n/a")


def table(outcomes: list[Any], only_failing: bool = False) -> str:
    """One line per op (samples and each category's count) and a total line."""
    per_op: dict[str, Counter] = defaultdict(Counter)
    for o in outcomes:
        per_op[o.op][o.category] += 1
    width = max([len(op) for op in per_op] + [5])
    head = f"{'op':<{width}} {'samples':>7} " + " ".join(f"{c:>7}" for c in _SHORT)
    lines = [head, "-" * len(head)]
    total: Counter = Counter()
    for op in sorted(per_op):
        counts = per_op[op]
        total.update(counts)
        if only_failing and counts["pass"] + counts["not applicable"] == sum(counts.values()):
            continue
        lines.append(f"{op:<{width}} {sum(counts.values()):>7} "
                     + " ".join(f"{counts[c]:>7}" for c in COLUMNS))
    lines.append("-" * len(head))
    lines.append(f"{'total':<{width}} {sum(total.values()):>7} "
                 + " ".join(f"{total[c]:>7}" for c in COLUMNS))
    return "\n".join(lines)

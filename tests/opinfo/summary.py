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


def table(outcomes: list[Any], only_failing: bool = False,
          columns: tuple[tuple[str, str], ...] | None = None) -> str:
    """One line per op (samples and each category's count) and a total line; ``columns``
    are (category, short heading) pairs, the OpInfo categories by default."""
    cols = tuple(c for c, _ in columns) if columns else COLUMNS
    short = tuple(h for _, h in columns) if columns else _SHORT
    per_op: dict[str, Counter] = defaultdict(Counter)
    for o in outcomes:
        per_op[o.op][o.category] += 1
    width = max([len(op) for op in per_op] + [5])
    head = f"{'op':<{width}} {'samples':>7} " + " ".join(f"{c:>7}" for c in short)
    lines = [head, "-" * len(head)]
    total: Counter = Counter()
    for op in sorted(per_op):
        counts = per_op[op]
        total.update(counts)
        if only_failing and counts["pass"] + counts["not applicable"] == sum(counts.values()):
            continue
        lines.append(f"{op:<{width}} {sum(counts.values()):>7} "
                     + " ".join(f"{counts[c]:>7}" for c in cols))
    lines.append("-" * len(head))
    lines.append(f"{'total':<{width}} {sum(total.values()):>7} "
                 + " ".join(f"{total[c]:>7}" for c in cols))
    return "\n".join(lines)

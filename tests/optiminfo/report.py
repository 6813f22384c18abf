"""The optim_db count table: ``python -m tests.optiminfo.report``.

Prints, for every OptimizerInfo class minigrad has, the number of configs and of each
outcome, the totals, the deliberate differences (with reasons) and the classes minigrad
does not have (with reasons).
"""

from __future__ import annotations

import warnings

import minigrad as mg
from tests.opinfo.summary import table

from .differences import DIFFERENCES, NOT_PROVIDED, judge_class
from .runner import CATEGORIES, PASS, configs, load_optim_db, run_class


def main() -> None:
    """Run every config and print the tables (see the module docstring)."""
    outcomes, unexpected, missing = [], [], []
    for info in load_optim_db():
        name = info.optim_cls.__name__
        if not hasattr(mg.optim, name):
            missing.append(f"{name} ({len(configs(info))} configs): {NOT_PROVIDED.get(name, '?')}")
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ran = run_class(info)
        outcomes += ran
        unexpected += judge_class(name, ran).unexpected
    columns = tuple((c, c.split()[-1]) for c in CATEGORIES)
    print(table(outcomes, columns=columns).replace("op ", "class", 1).replace("samples", "configs", 1))
    passed = sum(o.category == PASS for o in outcomes)
    print(f"\n{len(outcomes)} configs of {len({o.op for o in outcomes})} classes; {passed} pass; "
          f"{len(unexpected)} unexpected failures")
    for o in unexpected:
        print(f"UNEXPECTED {o.op} config {o.index} [{o.category}] {o.sample}: {o.detail}")
    print(f"\ndeliberate differences ({len(DIFFERENCES)}):")
    for e in DIFFERENCES:
        print(f"  {e.op} [{e.category}]: {e.reason}")
    print("\nclasses minigrad does not have:")
    for line in missing:
        print("  " + line)


if __name__ == "__main__":
    main()

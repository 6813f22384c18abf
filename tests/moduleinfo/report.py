"""The module_db count table: ``python -m tests.moduleinfo.report [--all] [--class NAME]``.

Prints, for every PyTorch ModuleInfo whose class minigrad has, the number of samples (float32
and float64, train and eval) and of each outcome, the totals, the deliberate differences with
their reasons, every failure no table lists, and the module_db classes minigrad lacks.
"""

from __future__ import annotations

import argparse
import time
import warnings

from opinfo.report import write_failures
from opinfo.summary import table

from .differences import DIFFERENCES, judge
from .module_map import class_name, load_module_db, modules_to_run
from .runner import DTYPES_RUN, SAMPLE_LIMIT, dtype_name, run_module


def main(argv: list[str] | None = None) -> None:
    """Run the module_db samples and print the tables (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--class", dest="classes", action="append",
                        help="only these classes (repeatable)")
    parser.add_argument("--all", action="store_true",
                        help="every sample (default: at most runner.SAMPLE_LIMIT per class, "
                             "dtype and mode)")
    parser.add_argument("--seed", type=int, default=0, help="torch's seed for the samples")
    parser.add_argument("--failures", metavar="FILE", help="write each failing sample here")
    args = parser.parse_args(argv)
    db = load_module_db()
    run = [(i, c) for i, c in modules_to_run(db) if not args.classes or class_name(i) in args.classes]
    outcomes, unexpected, deliberate = [], [], 0
    start = time.perf_counter()
    for info, cls in run:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ops = run_module(info, cls, seed=args.seed,
                             limit=None if args.all else SAMPLE_LIMIT)
        outcomes += ops
        verdict = judge(class_name(info), ops, tuple(dtype_name(d) for d in DTYPES_RUN))
        unexpected += verdict.unexpected
        deliberate += len(verdict.deliberate)
    print(table(outcomes))
    print(f"\n{len(run)} of {len(db)} module_db classes, {len(outcomes)} samples in "
          f"{time.perf_counter() - start:.0f} s; deliberate differences {deliberate}, "
          f"unexpected failures {len(unexpected)}")
    print("\nDeliberate differences:")
    for e in DIFFERENCES:
        print(f"  {e.op} [{e.category}]: {e.reason}")
    if not DIFFERENCES:
        print("  (none)")
    for o in unexpected:
        print(f"UNEXPECTED {o.op} {o.dtype} sample {o.index} [{o.category}] {o.sample}: "
              f"{o.detail}")
    if not args.classes:
        have = {class_name(i) for i, _ in run}
        missing = sorted({class_name(i) for i in db} - have)
        print(f"\nmodule_db classes minigrad lacks ({len(missing)}): " + " ".join(missing))
    if args.failures:
        write_failures(args.failures, outcomes)

if __name__ == "__main__":
    main()

"""The full OpInfo count table: ``python -m tests.opinfo.report [--all-dtypes] [--failures F]``.

Prints, for every op with a minigrad counterpart, the number of samples and of each outcome
(pass, wrong value / gradient / second derivative / dtype / shape, crash, refused argument,
not applicable), the totals, how the failures sort against the tables (deliberate, known
bug, unexpected), table entries that match nothing (stale), and the OpInfo ops minigrad has
no counterpart for. ``--failures F`` writes every non-passing sample to F, one per line.
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections import Counter

from .differences import judge
from .op_map import EXCLUDED, load_op_db, resolve
from .runner import ALL_DTYPES, FAST_DTYPES, NOT_APPLICABLE, PASS, dtype_name, run_op
from .summary import table


def write_failures(path: str, outcomes: list) -> None:
    """Every non-passing outcome to ``path``, one tab-separated line each."""
    with open(path, "w", encoding="utf-8") as f:
        for o in outcomes:
            if o.category not in (PASS, NOT_APPLICABLE):
                f.write(f"{o.op}\t{o.dtype}\t{o.index}\t{o.category}\t{o.sample}\t{o.detail}\n")
    print(f"failures written to {path}")


def main(argv: list[str] | None = None) -> None:
    """Run the OpInfo samples and print the tables (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all-dtypes", action="store_true",
                        help="every dtype both libraries have (default: float32, float64, "
                             "int64, bool)")
    parser.add_argument("--failures", metavar="FILE", help="write each failing sample here")
    parser.add_argument("--op", action="append", help="only these OpInfo names (repeatable)")
    args = parser.parse_args(argv)
    dtypes = ALL_DTYPES if args.all_dtypes else FAST_DTYPES
    outcomes, missing = [], []
    counts = {"deliberate": 0, "known bug": 0, "unexpected": 0}
    stale, unexpected = [], []
    mechanisms: Counter = Counter()
    start = time.perf_counter()
    for info in load_op_db():
        if args.op and info.full_name not in args.op:
            continue
        if info.full_name in EXCLUDED:
            continue
        fn = resolve(info.full_name, info.name)
        if fn is None:
            missing.append(info.full_name)
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ops = run_op(info, fn, dtypes)
        outcomes += ops
        verdict = judge(info.full_name, ops, tuple(dtype_name(d) for d in dtypes))
        counts["deliberate"] += len(verdict.deliberate)
        counts["known bug"] += sum(len(v) for v in verdict.known.values())
        for entry, matched in verdict.known.items():
            mechanisms[entry.reason.split("]")[0] + "]"] += len(matched)
        counts["unexpected"] += len(verdict.unexpected)
        unexpected += verdict.unexpected
        stale += verdict.stale
    print(table(outcomes))
    print(f"\n{len(outcomes)} samples in {time.perf_counter() - start:.0f} s; failures: "
          + ", ".join(f"{n} {k}" for k, n in counts.items()))
    print("known bugs by mechanism: " + ", ".join(f"{k} {n}" for k, n in mechanisms.most_common()))
    for o in unexpected:
        print(f"UNEXPECTED {o.op} {o.dtype} sample {o.index} [{o.category}] {o.sample}: "
              f"{o.detail}")
    for e in stale:
        print(f"STALE entry (matches nothing): {e}")
    if not args.op:
        print(f"\nOpInfo ops without a minigrad counterpart ({len(missing)}; excluded as "
              f"random: {len(EXCLUDED)}): " + " ".join(sorted(set(missing))))
    if args.failures:
        write_failures(args.failures, outcomes)


if __name__ == "__main__":
    main()

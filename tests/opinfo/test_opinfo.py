"""PyTorch's OpInfo samples through minigrad, one test per op (see ``__init__.py``).

An op's test passes when each of its samples passes or is a deliberate difference
(``differences.DIFFERENCES``). An op with known bugs (``differences.KNOWN_BUGS``) is an
expected failure, strict: it fails outright on a failure no table lists, and on a table entry
that no longer matches anything (fixed: delete the entry). The default run covers float32,
float64 (with gradients), int64 and bool; ``-m slow`` runs every integer dtype too.

Counts per op and category are printed at the end of the session; the full table:
``python -m tests.opinfo.report``.
"""

from __future__ import annotations

import warnings

import pytest

torch = pytest.importorskip("torch")

from .differences import KNOWN_BUGS, Entry, judge
from .op_map import load_op_db
from .runner import ALL_DTYPES, FAST_DTYPES, dtype_name, ops_to_run, run_op
from .summary import SESSION_OUTCOMES

# The tables were recorded with this PyTorch: another version has other samples.
TORCH_VERSION = "2.13"
if not torch.__version__.startswith(TORCH_VERSION + "."):
    pytest.skip(f"the OpInfo tables were recorded with torch {TORCH_VERSION}, this is "
                f"{torch.__version__}", allow_module_level=True)

OPS = {info.full_name: (info, fn) for info, fn in ops_to_run(load_op_db())}


class KnownBugs(AssertionError):
    """The op fails only where ``KNOWN_BUGS`` says it does (the expected failure)."""


def _param(name: str, dtypes: tuple) -> object:
    """``name``, marked as an expected failure when a known bug concerns one of ``dtypes``."""
    run = {dtype_name(d) for d in dtypes}
    entries = [e for e in KNOWN_BUGS if e.op == name and (e.dtypes is None or run & set(e.dtypes))]
    if not entries:
        return name
    reason = "; ".join(sorted({e.reason for e in entries}))
    return pytest.param(name, marks=pytest.mark.xfail(strict=True, raises=KnownBugs,
                                                      reason=reason))


def _show(outcomes: list) -> str:
    return "\n".join(f"  {o.dtype} sample {o.index} [{o.category}] {o.sample}: {o.detail}"
                     for o in outcomes)


def _check(name: str, dtypes: tuple) -> None:
    info, fn = OPS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # overflow and 0/0 warnings of the samples themselves
        outcomes = run_op(info, fn, dtypes)
    SESSION_OUTCOMES.extend(outcomes)
    verdict = judge(name, outcomes, tuple(dtype_name(d) for d in dtypes))
    if verdict.unexpected:
        raise AssertionError(f"{name}: {len(verdict.unexpected)} samples differ from PyTorch and "
                             "no table lists them:\n" + _show(verdict.unexpected[:20]))
    if verdict.stale:
        raise AssertionError(f"{name}: these table entries match no failing sample any more "
                             "(fixed? delete them):\n"
                             + "\n".join(f"  {e}" for e in verdict.stale))
    if verdict.known:
        raise KnownBugs(f"{name}: known bugs:\n" + "\n".join(
            f"  {len(matched)} samples: {entry.reason}\n" + _show(matched[:3])
            for entry, matched in verdict.known.items()))


@pytest.mark.parametrize("name", [_param(n, FAST_DTYPES) for n in OPS])
def test_opinfo(name: str) -> None:
    """Every sample of the op in float32, float64 (with gradients), int64 and bool."""
    _check(name, FAST_DTYPES)


@pytest.mark.slow
@pytest.mark.parametrize("name", [_param(n, ALL_DTYPES) for n in OPS])
def test_opinfo_all_dtypes(name: str) -> None:
    """Every sample of the op in every dtype both libraries have."""
    _check(name, ALL_DTYPES)


def test_tables_name_real_ops() -> None:
    """Every table entry names an op of the run (a misspelt name would match nothing)."""
    from .differences import DIFFERENCES

    unknown = [e for e in DIFFERENCES + KNOWN_BUGS if e.op not in OPS]
    assert not unknown, f"entries for ops not in the run: {unknown}"
    assert all(isinstance(e, Entry) and e.reason for e in DIFFERENCES + KNOWN_BUGS)

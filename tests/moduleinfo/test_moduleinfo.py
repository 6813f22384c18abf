"""PyTorch's module_db samples through minigrad, one test per class (see ``__init__.py``).

A class's test passes when each of its samples (float32 and float64, train and eval mode)
passes or is a deliberate difference (``differences.DIFFERENCES``); a failure no table
lists fails it, and so does a table entry that matches nothing any more. Counts per class
are printed at the end of the session; the full table: ``python -m tests.moduleinfo.report``.
"""

from __future__ import annotations

import warnings

import pytest

torch = pytest.importorskip("torch")

from .differences import DIFFERENCES, KNOWN_BUGS, judge
from .module_map import class_name, load_module_db, modules_to_run
from .runner import DTYPES_RUN, dtype_name, run_module
from .summary import SESSION_OUTCOMES

# The table was recorded with this PyTorch: another version has other samples.
TORCH_VERSION = "2.13"
if not torch.__version__.startswith(TORCH_VERSION + "."):
    pytest.skip(f"the module_db table was recorded with torch {TORCH_VERSION}, this is "
                f"{torch.__version__}", allow_module_level=True)

MODULES = {class_name(info): (info, cls) for info, cls in modules_to_run(load_module_db())}


def _show(outcomes: list) -> str:
    return "\n".join(f"  {o.dtype} sample {o.index} [{o.category}] {o.sample}: {o.detail}"
                     for o in outcomes)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_db(name: str) -> None:
    """Every sample of the class in float32 and float64 (with gradients), train and eval."""
    info, cls = MODULES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 0/0 warnings of the samples themselves
        outcomes = run_module(info, cls)
    SESSION_OUTCOMES.extend(outcomes)
    verdict = judge(name, outcomes, tuple(dtype_name(d) for d in DTYPES_RUN))
    assert not verdict.unexpected, (
        f"{name}: {len(verdict.unexpected)} samples differ from PyTorch and no table lists "
        "them:\n" + _show(verdict.unexpected[:20]))
    assert not verdict.stale, (f"{name}: these table entries match no failing sample any more "
                               "(fixed? delete them):\n" + "\n".join(f"  {e}" for e in verdict.stale))
    assert not verdict.known, f"{name}: known bugs: {list(verdict.known)}"


def test_tables_name_classes_of_the_run() -> None:
    """Every table entry names a class of the run, and gives its reason."""
    unknown = [e for e in DIFFERENCES + KNOWN_BUGS if e.op not in MODULES]
    assert not unknown, f"entries for classes not in the run: {unknown}"
    assert all(e.reason for e in DIFFERENCES + KNOWN_BUGS)

"""How the trainer is laid out: it reaches the library only through its public doors (never
``minigrad.kernels``), and one training iteration can be read in one file (``loop.py``)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from test_train_chars import TINY

import minigrad
from minigrad.train import command, loop

TRAIN = Path(loop.__file__).resolve().parent


def kernel_references(path: Path) -> list[str]:
    """Every way ``path`` reaches ``minigrad.kernels``: an import (at module level or in a
    function, absolute or relative) or a module name in a string outside docstrings
    (``importlib.import_module``, ``sys.modules[...]``), as 'file:line: what'."""
    tree = ast.parse(path.read_text(), str(path))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef,
                                       ast.ClassDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            package = ["minigrad", "train"]
            base = ".".join(package[:len(package) + 1 - node.level]) if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            names = [module] + [f"{module}.{alias.name}" for alias in node.names]
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docstrings):
            names = [node.value]
        found += [f"{path.name}:{node.lineno}: {name}" for name in names
                  if name == "minigrad.kernels" or name.startswith("minigrad.kernels.")]
    return found


def test_the_trainer_imports_nothing_from_the_kernels():
    files = sorted(TRAIN.glob("*.py"))
    assert len(files) > 10
    assert [ref for f in files for ref in kernel_references(f)] == []


@pytest.mark.parametrize("code", [
    "import minigrad.kernels.runtime.threads",
    "from minigrad.kernels.runtime import disk_cache",
    "from ..kernels.runtime.threads import x",
    "from .. import kernels",
    "def f():\n    import importlib\n    importlib.import_module('minigrad.kernels.runtime')",
    "import sys\nsys.modules.get('minigrad.kernels.runtime.background_compile')",
])
def test_the_scan_finds_every_way_to_reach_the_kernels(tmp_path, code):
    source = tmp_path / "reaching.py"
    source.write_text(f'"""A docstring naming minigrad.kernels is fine."""\n{code}\n')
    assert kernel_references(source)


def test_one_iteration_runs_in_the_loops_file(small_text, tmp_path, monkeypatch):
    """The trainer files a training iteration enters, evaluation aside: the loop's own file,
    plus the progress line (reporting) and the data-parallel world's calls (which do nothing
    in one process). Batches, forward, loss, backward, clipping, the schedule and the
    optimizer step are all in loop.py or the library. Recorded from the first step's start
    to the third's: two whole iterations, set-up and the end of the run left out. On the
    reference backend: under a profile hook a first compile of the kernels takes minutes."""
    entered: set[str] = set()
    evaluating, steps = [], []
    step_code = loop.train_step.__code__

    def profile(frame, event, arg):
        if event != "call":
            return
        if frame.f_code is step_code:
            steps.append(1)
        if 1 <= len(steps) < 3 and not evaluating:
            path = Path(frame.f_code.co_filename).resolve()
            if path.parent == TRAIN:
                entered.add(path.name)

    real_evaluate = command.Run.evaluate

    def evaluate(self, it):
        evaluating.append(it)
        try:
            real_evaluate(self, it)
        finally:
            evaluating.pop()

    real_loop = command.train_loop

    def profiled_loop(run):
        sys.setprofile(profile)
        try:
            return real_loop(run)
        finally:
            sys.setprofile(None)

    monkeypatch.setattr(minigrad.backends, "active", minigrad.backends.active)  # restored
    monkeypatch.setattr(command.Run, "evaluate", evaluate)
    monkeypatch.setattr(command, "train_loop", profiled_loop)
    assert command.main([*TINY, "--text", str(small_text), "--max-iters", "3",
                         "--out-dir", str(tmp_path / "o"), "--backend", "reference"]) == 0
    assert len(steps) == 3 and "loop.py" in entered
    assert entered <= {"loop.py", "progress.py", "distributed_run.py"}, entered

"""The folder tree is the import tree: the checks of ``tools/check_layout.py``,
each asserted on its own, and the checker itself tried on small made-up libraries."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("check_layout", ROOT / "tools" / "check_layout.py")
check_layout = importlib.util.module_from_spec(_spec)
sys.modules["check_layout"] = check_layout  # dataclasses look their module up by name
_spec.loader.exec_module(check_layout)


@pytest.fixture(scope="module")
def report():
    return check_layout.check()


def test_no_import_cycle_of_more_than_two_modules(report):
    assert report.largest_cycle <= check_layout.MAX_CYCLE, report.cycles


def test_no_function_level_imports_in_ops(report):
    assert report.ops_local_imports == []


def test_no_generated_module_globals_and_no_module_getattr(report):
    assert report.generated_globals == []


def test_the_layers_of_the_core(report):
    """Grad mode is a leaf, the engine imports no Tensor (it uses ``type(root)``), the ops
    import Function and the backends, never Tensor: so Tensor sits on top of the ops."""
    edges = report.edges
    assert edges["minigrad.grad_mode"] == set()
    assert "minigrad.tensor" not in edges["minigrad.engine"]
    assert "minigrad.tensor" not in edges["minigrad.function"]
    ops = [m for m in edges if m.startswith("minigrad.ops.")]
    assert ops and not [m for m in ops if "minigrad.tensor" in edges[m]]
    assert {"minigrad.models.nanogpt", "minigrad.models.hf_gpt2"} <= edges["minigrad.models.gpt"]
    assert "minigrad.models.gpt" not in edges["minigrad.models.nanogpt"]
    assert "minigrad.models.gpt" not in edges["minigrad.models.hf_gpt2"]


def test_no_hand_written_second_derivative(report):
    assert report.backward_graph_defs == []


def test_exactly_one_scaled_dot_product_attention(report):
    assert len(report.sdpa_defs) == 1, report.sdpa_defs


def _library(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for folder in ("minigrad", "nn", "models"):
        (tmp_path / folder).mkdir(exist_ok=True)
        (tmp_path / folder / "__init__.py").touch()
    return tmp_path


def test_checker_finds_a_three_module_cycle_through_function_level_and_relative_imports(
        tmp_path):
    root = _library(tmp_path, {
        "minigrad/a.py": "from . import b\n",
        "minigrad/b.py": "def f():\n    from .ops.c import g\n",
        "minigrad/ops/__init__.py": "",
        "minigrad/ops/c.py": "import minigrad.a\n",
        "nn/x.py": "from minigrad import a\n",
        "models/y.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                        "    from minigrad.nn import x\n"),
    })
    r = check_layout.check(root)
    assert r.cycles == [["minigrad.a", "minigrad.b", "minigrad.ops.c"]]
    assert r.largest_cycle == 3 and r.ops_local_imports == []
    assert "minigrad.a" in r.edges["minigrad.nn.x"]
    assert r.edges["minigrad.models.y"] == set()  # a TYPE_CHECKING import never runs


def test_checker_counts_the_package_init_an_import_runs(tmp_path):
    """Importing ``minigrad.sub.b`` runs ``minigrad/sub/__init__.py`` first, as Python does: a
    cycle through a package's ``__init__`` is a cycle, though no module names another."""
    root = _library(tmp_path, {
        "minigrad/a.py": "from .sub.b import f\n",
        "minigrad/sub/__init__.py": "from ..c import g\n",
        "minigrad/sub/b.py": "def f(): pass\n",
        "minigrad/sub/d.py": "from . import b\n",  # its own package ran before it
        "minigrad/c.py": "from . import a\n",
    })
    r = check_layout.check(root)
    assert r.cycles == [["minigrad.a", "minigrad.c", "minigrad.sub"]]
    assert "minigrad.sub" not in r.edges["minigrad.sub.d"]


# The modules a learner or a script may import first; each must import on its own in a new
# interpreter (the order of minigrad/__init__.py's import lines must not matter).
FIRST_IMPORTS = [
    "minigrad.grad_mode", "minigrad.function", "minigrad.engine", "minigrad.tensor",
    "minigrad.autograd", "minigrad.autograd.functional", "minigrad.backward_results",
    "minigrad.ops", "minigrad.ops.elementwise", "minigrad.backends.tensor_namespace",
    "minigrad.backends",
    "minigrad.dtypes", "minigrad.random", "minigrad.functional", "minigrad.gradcheck",
    "minigrad.optim", "minigrad.serialization", "minigrad.nn", "minigrad.nn.functional",
    "minigrad.models", "minigrad.utils.data", "minigrad.train.command",
]


@pytest.mark.parametrize("module", FIRST_IMPORTS)
def test_any_module_imports_first(module):
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]


def _init_lines_in(order: str, lines: list) -> list:
    """minigrad/__init__.py's one-line ``from .x import ...`` statements reordered."""
    single = [i for i, line in enumerate(lines)
              if line.startswith("from .") and not line.rstrip().endswith("(")]
    moved = [lines[i] for i in single]
    moved = moved[::-1] if order == "reversed" else sorted(moved)
    out = list(lines)
    for i, line in zip(single, moved):
        out[i] = line
    return out


@pytest.mark.parametrize("order", ["reversed", "sorted"])
def test_the_order_of_the_package_imports_does_not_matter(tmp_path, order):
    """A copy of the package whose ``__init__`` imports its modules in another order still
    imports: no module relies on another having been imported before it."""
    pkg = tmp_path / "minigrad"
    shutil.copytree(ROOT / "minigrad", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    for folder in ("nn", "models"):
        shutil.copytree(ROOT / folder, pkg / folder, ignore=shutil.ignore_patterns("__pycache__"))
    init = pkg / "__init__.py"
    lines = init.read_text().splitlines(keepends=True)
    changed = _init_lines_in(order, lines)
    assert changed != lines
    init.write_text("".join(changed))
    done = subprocess.run([sys.executable, "-c", "import minigrad; print(minigrad.__file__)"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert str(tmp_path) in done.stdout


def test_checker_finds_local_imports_in_ops_generated_globals_and_definitions(tmp_path):
    root = _library(tmp_path, {
        "minigrad/ops/__init__.py": "",
        "minigrad/ops/k.py": ("def f():\n    import numpy\n"
                              "class F:\n    def backward_graph(self): pass\n"),
        "minigrad/g.py": ("globals().update(x=1)\nglobals()['y'] = 2\n"
                          "def __getattr__(name): pass\n"),
        "nn/f.py": "def scaled_dot_product_attention(): pass\n",
        "models/m.py": "def scaled_dot_product_attention(): pass\n",
    })
    r = check_layout.check(root)
    assert r.ops_local_imports == ["minigrad/ops/k.py:2"]
    assert len(r.generated_globals) == 3
    assert r.backward_graph_defs == ["minigrad/ops/k.py:4"]
    assert len(r.sdpa_defs) == 2 and len(r.failures()) == 4



@pytest.mark.parametrize(("source", "found"), [
    ("globals().update(forms())\n", 0),  # the derived module-level forms: allowed
    ("globals().update(forms())\nglobals().update(more())\n", 2),
    ("globals()['y'] = 2\n", 1),
    ("def __getattr__(name): pass\n", 1),
])
def test_the_checker_allows_only_the_derived_forms_of_functional(tmp_path, source, found):
    root = _library(tmp_path, {"minigrad/functional.py": source})
    assert len(check_layout.check(root).generated_globals) == found

# ---- `import nn` / `import models` from the repository root -----------------------------

def _python(code: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True,
                          text=True, timeout=300, check=False)


def test_repository_root_nn_and_models_are_the_installed_modules():
    """A script in the repository root that imports ``nn``/``models`` gets minigrad.nn and
    minigrad.models themselves (submodules too), never a second copy of the classes."""
    import minigrad.nn

    if Path(minigrad.nn.__file__).resolve().parent != ROOT / "nn":
        pytest.skip("minigrad is not installed editable from this checkout")
    probe = (
        "import nn, models, nn.module, models.gpt\n"
        "from nn.linear import Linear\n"
        "import minigrad, minigrad.nn, minigrad.models, minigrad.models.hf_gpt2\n"
        "from models import nanogpt\n"
        "import models.hf_gpt2\n"
        "assert nn is minigrad.nn and models is minigrad.models\n"
        "assert nn.module is minigrad.nn.module and Linear is minigrad.nn.Linear\n"
        "assert models.gpt.GPT is minigrad.models.GPT\n"
        "assert models.hf_gpt2 is minigrad.models.hf_gpt2\n"
        "assert nanogpt is minigrad.models.nanogpt\n"
        "import sys\n"
        "copies = [k for k, m in sys.modules.items() if k.split('.')[0] in ('nn', 'models')\n"
        "          and m is not sys.modules.get('minigrad.' + k)]\n"
        "assert not copies, copies\n"
        "print('one copy')\n"
    )
    r = _python(probe, ROOT)
    assert r.returncode == 0 and r.stdout.strip() == "one copy", r.stderr[-3000:]


@pytest.mark.parametrize("statement", ["import nn", "import models", "import minigrad"])
def test_a_checkout_without_install_says_to_install(tmp_path, statement):
    """In a copy of the repository that is not installed, ``import nn`` (or ``models``, or
    ``minigrad``, which imports minigrad.nn) is a clear ImportError, not a second copy."""
    for folder in ("minigrad", "nn", "models"):
        shutil.copytree(ROOT / folder, tmp_path / folder,
                        ignore=shutil.ignore_patterns("__pycache__"))
    # this interpreter's own install of minigrad (an editable finder, if any) is hidden
    code = ("import sys\n"
            "sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f).lower()]\n"
            f"{statement}\n")
    r = _python(code, tmp_path)
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: minigrad.nn is the repository's nn/ folder"), r.stderr
    assert "pip install -e ." in last


# ---- names that say what a file holds ---------------------------------------------------

def test_ops_holds_op_families_only():
    """``minigrad/ops/`` files are named by the family of ops they hold, with no ``_ops``
    suffix on some and not others; the two ``ctx.xp`` namespaces (arrays, Tensors) hold no op
    and live with the backends."""
    ops = sorted(p.name for p in (ROOT / "minigrad" / "ops").glob("*.py"))
    assert [n for n in ops if n.endswith("_ops.py")] == []
    assert (ROOT / "minigrad" / "backends" / "array_namespace.py").exists()
    assert (ROOT / "minigrad" / "backends" / "tensor_namespace.py").exists()


_HISTORY = re.compile(r"\bissue \d+|\bas before\b|\bpreviously\b|\b20\d\d-\d\d-\d\d", re.IGNORECASE)


def test_comments_say_why_not_when():
    """No comment or docstring in the library narrates history (an issue number, "as before",
    a date): a reader needs the reason, which stays true, not the story of a change. (``minigrad/train``
    and ``minigrad/kernels/runtime`` are checked by their own owners.)"""
    found = []
    for folder in ("minigrad", "nn", "models"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(("minigrad/train/", "minigrad/kernels/runtime/")):
                continue
            found += [f"{rel}:{i}" for i, line in enumerate(path.read_text().splitlines(), 1)
                      if _HISTORY.search(line)]
    assert found == []

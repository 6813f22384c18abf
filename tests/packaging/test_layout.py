"""The folder tree is the import tree (issue 26): the checks of ``tools/check_layout.py``,
each asserted on its own, and the checker itself tried on small made-up libraries."""

from __future__ import annotations

import importlib.util
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
    assert edges["minigrad.autograd.grad_mode"] == set()
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


# ---- `import nn` / `import models` from the repository root (issue 26, item 6) -----------

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

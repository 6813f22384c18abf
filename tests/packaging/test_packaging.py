"""The package as a user gets it: the built wheel, its contents and metadata, and the
installed trainer run from a directory that holds its own ``nn.py`` and ``models/``.

The wheel is built offline from a copy of the sources (``pip wheel --no-build-isolation``,
nothing written into the repository) and installed with ``pip install --no-deps --target``;
the current interpreter then runs it with ``PYTHONPATH`` pointing there, so NumPy and Numba
resolve from the test environment and nothing is downloaded.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# The folders installed as packages: the source folder -> its import name.
PACKAGE_ROOTS = {"minigrad": "minigrad", "nn": "minigrad.nn", "models": "minigrad.models"}


def _run(cmd: list, **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, check=False,
                          timeout=600, **kw)
    assert proc.returncode == 0, f"{cmd}\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    return proc


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel built from a copy of the sources the package is made of."""
    # Built offline with this environment's setuptools (the test extra asks for >= 77): the
    # one a fresh `python3 -m venv` bundles rejects pyproject's license fields.
    have = version("setuptools")
    if int(have.split(".")[0]) < 77:
        pytest.fail(f"setuptools {have} is too old to build the wheel offline (the license "
                    "fields need >= 77): install the test extra, pip install -e '.[test]'")
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    for folder in PACKAGE_ROOTS:
        shutil.copytree(ROOT / folder, src / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    dist = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
          "--no-index", "--quiet", "-w", dist, src])
    (path,) = dist.glob("minigrad_autodiff-*.whl")
    return path


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """The wheel installed into a directory of its own (its bin/ holds minigrad-train)."""
    target = tmp_path_factory.mktemp("site")
    _run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet",
          "--target", target, wheel])
    return target


def test_wheel_holds_every_package_the_corpus_and_nothing_generic(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    expected = set()
    for folder, package in PACKAGE_ROOTS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder).parts
            expected.add("/".join([*package.split("."), *rel, "__init__.py"]))
    missing = sorted(expected - set(names))
    assert not missing, f"add these packages to [tool.setuptools] packages: {missing}"
    assert "minigrad/train/corpus/tinyshakespeare.txt" in names
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"minigrad"}, top  # no top-level nn, models, tests, examples


def test_wheel_metadata_name_license_script_and_no_exact_pins(wheel):
    zf = zipfile.ZipFile(wheel)
    info = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
    meta = zf.read(info).decode()
    assert re.search(r"^Name: minigrad-autodiff$", meta, re.MULTILINE)
    assert re.search(r"^License-Expression: MIT$", meta, re.MULTILINE)
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in zf.namelist())
    requires = re.findall(r"^Requires-Dist: (.*)$", meta, re.MULTILINE)
    assert any(r.startswith("torch>=") for r in requires), requires
    pins = [r for r in requires if "==" in r.split(";")[0]]
    assert not pins, pins  # ranges: an extra must never replace the torch a user has
    entry = zf.read(info.replace("METADATA", "entry_points.txt")).decode()
    assert "minigrad-train = minigrad.train.command:main" in entry


def test_installed_package_beside_a_users_nn_and_models_trains(installed, tmp_path):
    """A learner's own nn.py and models/ must not shadow minigrad's; the console command
    trains on the shipped corpus from any directory."""
    work = tmp_path / "project"
    (work / "models").mkdir(parents=True)
    (work / "nn.py").write_text("raise ImportError('the user nn.py was imported')\n")
    (work / "models" / "__init__.py").write_text("raise ImportError('user models/')\n")
    env = dict(os.environ, PYTHONPATH=str(installed), PYTHONUNBUFFERED="1")
    env.pop("TRAIN_CHARS_INTERRUPT_AT", None)
    probe = ("import minigrad, minigrad.nn as nn, minigrad.models as models; "
             "print(minigrad.__file__); print(nn.Linear(2, 3).weight.shape); "
             "print(models.GPT.__name__)")
    out = _run([sys.executable, "-c", probe], cwd=work, env=env).stdout.split("\n")
    assert out[0].startswith(str(installed)), out  # the wheel's copy, not the repository
    assert out[1:3] == ["(3, 2)", "GPT"]

    # then a checkout's minigrad/ in the working directory too (the README runs the wheel
    # from the clone): the trainer's background compile must still use the installed one
    (work / "minigrad").mkdir()
    (work / "minigrad" / "__init__.py").write_text("raise ImportError('a checkout copy')\n")
    tiny = ["--n-layer", "1", "--n-head", "2", "--n-embd", "16", "--block-size", "16",
            "--batch-size", "4", "--eval-iters", "1", "--max-new-tokens", "10"]
    r = _run([installed / "bin" / "minigrad-train", *tiny, "--max-iters", "3",
              "--out-dir", "run"], cwd=work, env=env)
    corpus = installed / "minigrad" / "train" / "corpus" / "tinyshakespeare.txt"
    assert f"text: {corpus} (1,115,394 characters, vocabulary of 65)" in r.stdout
    assert "note: --warmup-iters 100 clamped to 3" in r.stdout  # no flag needed
    assert "iter 3/3" in r.stdout and "full val loss" in r.stdout
    assert "background compile failed" not in r.stdout, r.stdout
    assert (work / "run" / "ckpt_last.npz").is_file()


def test_a_copied_train_chars_script_runs(tmp_path):
    """examples/train_chars.py needs nothing beside it (it used to import char_cli)."""
    copy = tmp_path / "train_chars.py"
    shutil.copy(ROOT / "examples" / "train_chars.py", copy)
    r = _run([sys.executable, copy, "--help"], cwd=tmp_path)
    assert "--max-iters" in r.stdout and "--config" in r.stdout


def test_readme_commands_need_no_activated_venv():
    """After the setup line the venv is not activated: no command block may start a line
    with a bare ``python``, ``pip`` or ``pytest`` (they would run the system's)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", text, re.DOTALL)
    assert blocks
    bare = [ln for b in blocks for ln in b.splitlines()
            if re.match(r"\s*(python3?|pip|pytest)\s", ln) and "-m venv" not in ln]
    assert not bare, bare


def test_readme_opens_with_the_two_commands_ci_runs():
    """.ci/run runs the README's first two ```bash blocks exactly as written: each must be
    one command line, the first setting up a venv and running the main job, the second the
    tests; and the wheel command must not touch the development venv."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b.strip() for b in re.findall(r"```bash\n(.*?)```", text, re.DOTALL)]
    setup, tests = blocks[0], blocks[1]
    assert "\n" not in setup and "\n" not in tests, blocks[:2]
    assert setup.startswith("python3 -m venv .venv && ") and "examples/train_chars.py" in setup
    assert tests == ".venv/bin/python -m pytest -q"
    wheel = next(b for b in blocks if "pip wheel" in b)
    assert ".venv/bin/pip install dist/" not in wheel  # would replace the editable install
    assert "--out-dir" in wheel  # the first command's out-chars/ holds a finished run

"""The docs never rot: every ```python block of every chapter runs here.

Each chapter's blocks run in order in one namespace (docs/run_chapter.py, the
same code a reader uses to run a chapter as a plain script).
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"

_spec = importlib.util.spec_from_file_location("run_chapter", DOCS / "run_chapter.py")
run_chapter = importlib.util.module_from_spec(_spec)
sys.modules["run_chapter"] = run_chapter  # dataclasses look their module up there
_spec.loader.exec_module(run_chapter)

CHAPTERS = run_chapter.chapters()


def test_the_tour_has_its_chapters():
    names = [p.name for p in CHAPTERS]
    assert names[0] == "README.md"
    assert len(names) >= 8, names
    for p in CHAPTERS[1:]:
        blocks = run_chapter.extract_blocks(p.read_text(encoding="utf-8"))
        assert blocks, f"{p.name} has no python code"
        assert sum(b.skip for b in blocks) <= 1, f"{p.name} skips more than one block"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[p.name for p in CHAPTERS])
def test_chapter_code_runs(chapter):
    run_chapter.run_chapter(chapter)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=[p.name for p in CHAPTERS])
def test_chapter_links_resolve(chapter):
    """Every relative link of a chapter points to a file or folder of the repository."""
    text = chapter.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+://|#|mailto:", target):
            continue
        path = (chapter.parent / target.split("#")[0]).resolve()
        assert path.exists(), f"{chapter.name} links to missing {target}"


def test_extract_blocks_languages_skip_marker_and_line_numbers():
    lines = [
        "# Title",                  # 1
        "```python",                # 2
        "x = 1",                    # 3
        "```",                      # 4
        "```bash",                  # 5
        "echo not python",          # 6
        "```",                      # 7
        "<!-- skip -->",            # 8
        "",                         # 9
        "```python",                # 10
        "raise SystemExit",         # 11
        "```",                      # 12
        "```python",                # 13
        "y = x + 1",                # 14
        "```",                      # 15
    ]
    blocks = run_chapter.extract_blocks("\n".join(lines))
    assert [(b.code, b.line, b.skip) for b in blocks] == [
        ("x = 1\n", 3, False), ("raise SystemExit\n", 11, True), ("y = x + 1\n", 14, False),
    ]
    with pytest.raises(ValueError, match="never closed"):
        run_chapter.extract_blocks("```python\nx = 1\n")


def test_blocks_share_a_namespace_and_errors_point_at_the_chapter_line(tmp_path):
    md = tmp_path / "chapter.md"
    md.write_text("```python\nx = 2\n```\ntext\n```python\ny = x * 21\n```\n")
    assert run_chapter.run_chapter(md)["y"] == 42
    bad = tmp_path / "bad.md"
    bad.write_text("intro\n\n```python\nok = 1\nassert ok == 2, 'boom'\n```\n")
    with pytest.raises(AssertionError, match="boom") as info:
        run_chapter.run_chapter(bad)
    frame = info.traceback[-1]
    assert Path(str(frame.path)).name == "bad.md" and frame.lineno + 1 == 5


def test_a_chapter_runs_as_a_plain_script():
    chapter = DOCS / "01_tensor_and_graph.md"
    result = subprocess.run(
        [sys.executable, str(DOCS / "run_chapter.py"), str(chapter)],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "=== 01_tensor_and_graph.md: ok" in result.stdout


def test_the_script_fails_loudly(tmp_path):
    bad = tmp_path / "bad.md"
    bad.write_text("```python\nraise RuntimeError('chapter is broken')\n```\n")
    result = subprocess.run([sys.executable, str(DOCS / "run_chapter.py"), str(bad)],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode != 0
    assert "chapter is broken" in result.stderr and "bad.md" in result.stderr


README = DOCS.parent / "README.md"


def test_readme_code_runs(capsys):
    """The README's python example runs too (it is the first code a user copies), and the
    graph it prints is the recorded one, with every op of ``(x @ w).relu().sum()``."""
    run_chapter.run_chapter(README)
    printed = capsys.readouterr().out
    ops = re.search(r"^ops by name: (.*)$", printed, re.MULTILINE)
    assert ops is not None, printed
    assert ops.group(1) == "MatMul 1, ReLU 1, Sum 1", printed


def test_readme_links_resolve():
    test_chapter_links_resolve(README)


def test_a_python_without_minigrad_gets_a_one_line_error():
    # -S: no site-packages, so no minigrad (nor its editable install) on the path
    result = subprocess.run(
        [sys.executable, "-S", str(DOCS / "run_chapter.py"), str(DOCS / "01_tensor_and_graph.md")],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert result.returncode == 2
    assert "cannot import minigrad" in result.stderr and "Traceback" not in result.stderr
    assert ".venv/bin/python docs/run_chapter.py" in result.stderr


def test_commands_in_the_docs_name_the_venvs_python():
    """A bare `python docs/...` or `python examples/...` runs whatever python is on PATH,
    which has no minigrad on a fresh machine: the docs say .venv/bin/python, as the README's
    first command makes it."""
    bare = re.compile(r"(?<![\w/.-])python3? (?:docs|examples|bench)/")
    found = [f"{p.name}:{n}: {line.strip()}"
             for p in [*DOCS.glob("*.md"), DOCS.parent / "README.md", DOCS / "run_chapter.py"]
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if bare.search(line)]
    assert found == []


def test_the_readme_counts_the_chapters():
    numbers = {"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
               "twelve": 12, "thirteen": 13}
    n = len([p for p in DOCS.glob("*.md") if re.match(r"\d\d_", p.name)])
    for p in (DOCS.parent / "README.md", DOCS / "README.md"):
        said = re.findall(r"(\w+) short chapters", p.read_text(encoding="utf-8"))
        assert said and all(numbers.get(w) == n for w in said), (p.name, said, n)

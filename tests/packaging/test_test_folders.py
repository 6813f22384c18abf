"""The tests are grouped by subject: every test file sits in a folder that
tests/README.md's table names ("you changed X -> run tests/Y"), every folder has its row,
and no two test files share a name (pytest imports a test file of a folder without
``__init__.py`` by its bare name, so a second ``test_x.py`` would fail to import)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def _folders_in_the_table() -> set[str]:
    """The folders of the README table's "run" column (`tests/<folder>/`)."""
    text = (TESTS / "README.md").read_text(encoding="utf-8")
    return set(re.findall(r"^\|[^|]*\| `tests/([a-z_]+)/` \|", text, re.MULTILINE))


def _test_files() -> list[Path]:
    return sorted(p for p in TESTS.rglob("test_*.py") if "__pycache__" not in p.parts)


def test_every_test_file_is_in_a_subject_folder_of_the_table():
    folders = _folders_in_the_table()
    assert len(folders) >= 10, folders  # the table was read
    outside = [str(p.relative_to(TESTS)) for p in _test_files()
               if p.relative_to(TESTS).parts[0] not in folders]
    assert outside == [], (
        f"test files outside the subject folders {sorted(folders)}: {outside}; move each "
        f"into the folder of what it tests (tests/README.md)")


def test_every_folder_has_its_row_and_every_row_its_folder():
    on_disk = {p.name for p in TESTS.iterdir() if p.is_dir() and p.name != "__pycache__"
                and not p.name.startswith(".")}
    assert on_disk == _folders_in_the_table()


def test_test_file_names_are_unique_across_folders():
    twice = {name: n for name, n in Counter(p.name for p in _test_files()).items() if n > 1}
    assert twice == {}, f"test file names used in more than one folder: {twice}"

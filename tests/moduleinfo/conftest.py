"""Prints the module_db run's counts per class and category at the end of a pytest session."""

from __future__ import annotations

from opinfo.summary import table

from .summary import SESSION_OUTCOMES


def pytest_terminal_summary(terminalreporter) -> None:
    """The count table of the module_db samples run in this session (every class's line:
    ``python -m tests.moduleinfo.report``)."""
    if not SESSION_OUTCOMES:
        return
    terminalreporter.section("module_db differential test: samples per class and outcome")
    terminalreporter.write_line(table(SESSION_OUTCOMES, only_failing=True))
    terminalreporter.write_line("(classes whose every sample passes are not listed)")

"""Prints the OpInfo run's counts per op and category at the end of a pytest session."""

from __future__ import annotations

from .summary import SESSION_OUTCOMES, table


def pytest_terminal_summary(terminalreporter) -> None:
    """The count table of the OpInfo samples run in this session (ops with a failure; every
    op's line: ``python -m tests.opinfo.report``)."""
    if not SESSION_OUTCOMES:
        return
    terminalreporter.section("OpInfo differential test: samples per op and outcome")
    terminalreporter.write_line(table(SESSION_OUTCOMES, only_failing=True))
    terminalreporter.write_line("(ops whose every sample passes are not listed; each known bug "
                                "is an xfail: see -rx)")

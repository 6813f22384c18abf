"""The outcomes of the module_db samples run in this pytest session (filled by
``test_moduleinfo.py``, printed by ``conftest.py`` with ``opinfo.summary.table``)."""

from __future__ import annotations

from typing import Any

SESSION_OUTCOMES: list[Any] = []

"""One copy of ``nn`` and ``models``, however they are imported.

The repository keeps ``nn/`` and ``models/`` at its root; pip installs them as
``minigrad.nn`` and ``minigrad.models`` (pyproject.toml's package-dir). A script run from
the repository root can also reach the folders as top-level ``nn`` and ``models``: Python
would then load every file a second time, under a second name, and ``nn.Linear`` would be
a class other than ``minigrad.nn.Linear`` (``isinstance`` fails, state dicts disagree).
So each folder's ``__init__`` calls :func:`become_installed` when it is imported under its
top-level name: the top-level names then point to the installed modules themselves.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import sys


def check_installed(error: ImportError) -> None:
    """Re-raise ``error`` (from importing ``minigrad.nn``/``minigrad.models``) as an
    ImportError saying to install minigrad when a folder is simply not installed."""
    for missing in ("minigrad.nn", "minigrad.models"):
        if "minigrad" in sys.modules and importlib.util.find_spec(missing) is None:
            folder = missing.split(".")[1]
            raise ImportError(
                f"{missing} is the repository's {folder}/ folder and exists only once minigrad "
                f"is installed: run `pip install -e .` in the repository root (then "
                f"`import {folder}` there and `import {missing}` give the same module)"
            ) from error
    raise error


def become_installed(name: str, installed: str) -> None:
    """Make ``sys.modules[name]`` (and every ``name.sub``) the module ``installed`` (and
    ``installed.sub``), so ``import name`` returns the installed package itself.

    Called from the folder's ``__init__`` while ``import name`` runs: the import statement
    returns whatever ``sys.modules[name]`` holds once the ``__init__`` ends, and the rest
    of that ``__init__`` finds its submodules already in ``sys.modules``. Raises
    ImportError, saying to install minigrad, when ``installed`` cannot be imported.
    """
    try:
        package = importlib.import_module(installed)
    except ImportError as e:
        check_installed(e)
    # every submodule now, so that no ``name.sub`` is ever loaded as a copy later
    for sub in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{installed}.{sub.name}")
    prefix = installed + "."
    for key, module in list(sys.modules.items()):
        if key == installed or key.startswith(prefix):
            sys.modules[name + key[len(installed):]] = module

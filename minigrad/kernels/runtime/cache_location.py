"""Where Numba keeps minigrad's compiled kernels: the user's cache directory, never the package.

Numba's ``cache=True`` writes machine code into ``__pycache__`` beside the kernel's source
file by default. For an installed minigrad that is ``site-packages/minigrad/kernels``, and
``pip uninstall`` (or a switch from a wheel back to an editable install) does not remove
files it did not install: the leftover ``minigrad/`` folder of cache files then shadows
the real package, and ``import minigrad`` fails from every other directory.

So minigrad's kernels are cached under the user's cache directory instead:

- ``NUMBA_CACHE_DIR``, when the user set it, wins (Numba's own rule, for every function);
- else ``MINIGRAD_CACHE_DIR``, if set;
- else the platform's user cache folder (``~/.cache/minigrad/numba`` on Linux,
  ``$XDG_CACHE_HOME/minigrad/numba`` when that is set).

Inside it each source folder gets a subfolder named after the folder and a hash of its full
path (Numba's ``get_suitable_cache_subpath``), so a wheel and a checkout never share or
overwrite each other's entries; the index files also record the source file's time stamp
and size, so an edited kernel is recompiled, not loaded stale.

This only adds a locator in front of Numba's list that answers for functions defined under
this package's folder: any other Numba code in the process keeps Numba's default locations.
It is installed when ``minigrad.kernels`` is first imported (by the fast backend), before
any kernel is decorated, since Numba picks a function's cache location at decoration time.
"""

from __future__ import annotations

import os
from pathlib import Path

from numba.core import caching, config

_PACKAGE_DIR = str(Path(__file__).resolve().parents[2])  # .../minigrad

# Numba renamed these classes (private ``_CacheImpl`` ... before 0.61): accept both spellings.
_CacheImpl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
_CacheLocator = caching._CacheLocator
_SourceFileBacked = caching._SourceFileBackedLocatorMixin


def cache_root() -> str:
    """The folder minigrad's kernels are cached under (see the module docstring)."""
    explicit = os.environ.get("MINIGRAD_CACHE_DIR")
    if explicit:
        return os.path.abspath(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "minigrad", "numba")


def _inside_package(py_file: str) -> bool:
    try:
        return os.path.commonpath([os.path.realpath(py_file), _PACKAGE_DIR]) == _PACKAGE_DIR
    except ValueError:  # different drives on Windows
        return False


class MinigradCacheLocator(_SourceFileBacked, _CacheLocator):
    """Numba cache locator for minigrad's own kernels: ``cache_root()/<folder>_<hash>/``."""

    def __init__(self, py_func, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(cache_root(), self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self) -> str:
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file: str):
        # None hands the function to the next locator: NUMBA_CACHE_DIR's when the user set
        # one, Numba's defaults for code that is not minigrad's.
        if config.CACHE_DIR or not _inside_package(py_file):
            return None
        return super().from_function(py_func, py_file)


def install() -> None:
    """Put :class:`MinigradCacheLocator` first in Numba's list of locators (once)."""
    classes = _CacheImpl._locator_classes
    if MinigradCacheLocator not in classes:
        classes.insert(0, MinigradCacheLocator)

"""Numba's compiled kernels are cached in the user's cache folder, never inside the package.

A wheel installed into site-packages used to get ``minigrad/kernels/__pycache__/*.nbi``
files that pip does not remove; after an uninstall that leftover ``minigrad/`` folder
shadowed the real package. Each case runs in a fresh interpreter, because Numba picks a
kernel's cache location when the kernel is decorated.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

PROBE = """
import json, numpy as np
import minigrad.kernels.softmax as ks
from minigrad.kernels.runtime import cache_location
ks.normalise_rows(np.ones((2, 3), np.float32), np.float32(1))  # compiled or loaded: cached
paths = {d._cache._cache_path for d in vars(ks).values() if hasattr(d, "_cache")}
print(json.dumps({"paths": sorted(paths), "root": cache_location.cache_root()}))
"""


def _probe(env_extra: dict, tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR",
                                                            "MINIGRAD_CACHE_DIR")}
    env.update(env_extra)
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=False,
                         env=env, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_kernels_are_cached_under_the_users_cache_folder(tmp_path):
    import minigrad

    package = Path(minigrad.__file__).resolve().parent
    found = _probe({"XDG_CACHE_HOME": str(tmp_path / "xdg")}, tmp_path)
    assert found["root"] == str(tmp_path / "xdg" / "minigrad" / "numba")
    assert found["paths"], found
    for path in found["paths"]:
        assert path.startswith(found["root"]), path
        assert not path.startswith(str(package)), path
    written = list((tmp_path / "xdg").rglob("*.nbi"))
    assert written, "no index file was written under the cache folder"


def test_numba_cache_dir_and_minigrad_cache_dir_win(tmp_path):
    found = _probe({"NUMBA_CACHE_DIR": str(tmp_path / "numba")}, tmp_path)
    assert all(p.startswith(str(tmp_path / "numba")) for p in found["paths"]), found
    found = _probe({"MINIGRAD_CACHE_DIR": str(tmp_path / "mine")}, tmp_path)
    assert all(p.startswith(str(tmp_path / "mine")) for p in found["paths"]), found


def test_other_numba_code_keeps_numbas_default_location(tmp_path):
    user = tmp_path / "user_kernels.py"
    user.write_text("from numba import njit\n@njit(cache=True)\ndef f(x):\n    return x + 1\n")
    probe = ("import minigrad.kernels, user_kernels, json; user_kernels.f(1); "
             "print(json.dumps(user_kernels.f._cache._cache_path))")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False,
                         env=env, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == str(tmp_path / "__pycache__")

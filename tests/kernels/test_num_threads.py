"""``minigrad.set_num_threads`` / ``get_num_threads``: the one door to the thread counts
(NumPy's BLAS, Numba's kernel threads, SciPy's BLAS), as ``torch.set_num_threads``.

Each case that sets a count runs in a fresh process, so the suite's own counts stay as they
were."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

import minigrad
from minigrad.num_threads import ThreadCountError


def run(code: str, **env: str) -> dict:
    """Run ``code`` in a fresh interpreter (fast backend); it prints one JSON line."""
    full_env = dict(os.environ, MINIGRAD_BACKEND="fast", **env)
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=full_env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


# (value, the message: PyTorch's wording)
INVALID = [(0, "set_num_threads expects a positive integer"),
           (-1, "set_num_threads expects a positive integer"),
           (2.5, "set_num_threads expects an int, but got float"),
           ("2", "set_num_threads expects an int, but got str"),
           (True, "set_num_threads expects an int, but got bool"),
           (None, "set_num_threads expects an int, but got NoneType")]


@pytest.mark.parametrize(("value", "message"), INVALID)
def test_an_invalid_count_raises_and_changes_nothing(value, message):
    before = minigrad.get_num_threads()
    with pytest.raises(ThreadCountError, match=message) as info:
        minigrad.set_num_threads(value)
    # a ValueError (a bad argument), and the RuntimeError PyTorch raises
    assert isinstance(info.value, ValueError) and isinstance(info.value, RuntimeError)
    assert minigrad.get_num_threads() == before


@pytest.mark.parametrize(("value", "message"), INVALID)
def test_pytorch_refuses_the_same_counts_with_the_same_words(value, message):
    torch = pytest.importorskip("torch")
    with pytest.raises(RuntimeError, match=message.split(", but")[0]):
        torch.set_num_threads(value)


def test_the_count_round_trips_and_reaches_every_pool_in_a_subprocess():
    """Set before any kernel ran (applied when the kernels load), then again after: NumPy's
    BLAS and Numba's count follow each time, and ``import minigrad`` alone imports no Numba."""
    out = run("""
        import json, sys
        import numpy as np
        import minigrad
        from minigrad.num_threads import openblas_threads
        seen = {"numba_before": "numba" in sys.modules}
        minigrad.set_num_threads(1)
        seen["set_1"] = [minigrad.get_num_threads(), openblas_threads("numpy")]
        x = minigrad.randn(256, 256)
        (x @ x).sum().item()  # a fast kernel: the runtime loads and applies the count
        import numba
        seen["kernels_1"] = numba.get_num_threads()
        minigrad.set_num_threads(2)
        seen["set_2"] = [minigrad.get_num_threads(), openblas_threads("numpy"),
                         numba.get_num_threads()]
        (x @ x).sum().item()
        print(json.dumps(seen))
    """, NUMBA_NUM_THREADS="2", MINIGRAD_COMPILE="wait")
    assert out["numba_before"] is False
    blas = out["set_1"][1]
    assert out["set_1"][0] == 1 and blas in (1, None)  # None: no NumPy OpenBLAS to set
    assert out["kernels_1"] == 1
    assert out["set_2"][0] == 2 and out["set_2"][1] in (2, None) and out["set_2"][2] == 2


def test_a_count_above_numbas_pool_is_kept_and_capped_for_the_kernels():
    out = run("""
        import json, numba, minigrad
        x = minigrad.randn(64, 64)
        (x @ x).sum().item()
        minigrad.set_num_threads(8)
        print(json.dumps([minigrad.get_num_threads(), numba.get_num_threads()]))
    """, NUMBA_NUM_THREADS="2", MINIGRAD_COMPILE="wait")
    assert out == [8, 2]


def test_a_forked_child_can_set_its_count_and_run_kernels():
    """A forked child runs its kernels serially (GNU OpenMP does not survive fork); setting
    its count there must neither fail nor start Numba's threads."""
    pytest.importorskip("numba")
    out = run("""
        import json, os, minigrad
        x = minigrad.randn(128, 128)
        expected = (x @ x).sum().item()
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            minigrad.set_num_threads(1)
            ok = abs((x @ x).sum().item() - expected) < 1e-3 and minigrad.get_num_threads() == 1
            os.write(w, b"ok" if ok else b"bad")
            os._exit(0)
        os.waitpid(pid, 0)
        print(json.dumps(os.read(r, 10).decode()))
    """, MINIGRAD_COMPILE="wait")
    assert out == "ok"


def test_the_default_is_numbas_configured_count():
    out = run("""
        import json, minigrad
        print(json.dumps(minigrad.get_num_threads()))
    """, NUMBA_NUM_THREADS="3")
    assert out == 3

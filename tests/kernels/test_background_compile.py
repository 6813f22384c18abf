"""A library script on a cold Numba cache: the fast backend sends each kernel that is not
cached to a worker process and answers with the reference primitive until it is ready
(minigrad/kernels/runtime/background_compile.py).

Each test runs a script in a subprocess with a new, empty cache folder (``MINIGRAD_CACHE_DIR``)
and checks what answered, not how long anything took.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# One GPT training step's gradients, a way to run it on a given backend, and a count of the
# kernels this process compiled itself (rather than loading them from the disk cache).
PRELUDE = """
import json, sys
import numpy as np
import minigrad
from minigrad import models
from minigrad.optim import clip_grad_norm_

minigrad.manual_seed(0)
model = models.GPT(32, 16, 1, 2, 16, dropout=0.0, bias=True, tie_weights=True)
opt = model.configure_optimizers(0.1, 1e-3, (0.9, 0.99))
rng = np.random.default_rng(0)
x, y = rng.integers(0, 32, (2, 16)), rng.integers(0, 32, (2, 16))

def gradients():
    _, loss = model(x, y)
    loss.backward()
    clip_grad_norm_(model.parameters(), 1.0)
    grads = [p.grad.numpy().copy() for p in model.parameters()]
    opt.zero_grad()
    return [float(loss.item())] + [g.ravel().tolist() for g in grads]

def kernels():
    from numba.core.dispatcher import Dispatcher
    found = []
    for name, mod in list(sys.modules.items()):
        if name.startswith("minigrad.kernels."):
            found += [d for d in vars(mod).values() if isinstance(d, Dispatcher)]
    return found

def compiled_here():
    return sum(len(d.signatures) - sum(d.stats.cache_hits.values()) for d in kernels())

def loaded_from_cache():
    return sum(sum(d.stats.cache_hits.values()) for d in kernels())
"""


def run(code: str, cache: Path, **env_vars: str) -> dict:
    """Run PRELUDE + code with a cache folder of its own; the JSON it prints last."""
    env = dict(os.environ, MINIGRAD_CACHE_DIR=str(cache), **env_vars)
    for name in ("NUMBA_CACHE_DIR", "MINIGRAD_COMPILE", "MINIGRAD_BACKEND", "NUMBA_DISABLE_JIT"):
        if name not in env_vars:
            env.pop(name, None)
    done = subprocess.run([sys.executable, "-c", PRELUDE + textwrap.dedent(code)], env=env,
                          capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def close(a: list, b: list) -> bool:
    """Loss and every gradient equal to float32 training tolerance."""
    import numpy as np

    return all(np.allclose(u, v, rtol=1e-3, atol=1e-5) for u, v in zip(a, b, strict=True))


def test_cold_cache_answers_with_reference_then_with_the_kernels_compiled_aside(tmp_path):
    cache = tmp_path / "cache"
    out = run("""
        from minigrad.kernels.runtime import background_compile as bc
        cold = gradients()  # every kernel missing: sent to the worker, NumPy answers
        answered_by_reference = bc.reference_answers
        sent = bc._requests
        # A primitive stops at its first missing kernel; waiting runs the calls a reference
        # answered again until the kernels after it are compiled too: one wait is enough.
        rounds, later = 0, None
        while later != 0 and rounds < 8:
            bc.wait_for_kernels()
            before = bc.reference_answers
            warm = gradients()
            rounds, later = rounds + 1, bc.reference_answers - before
        with minigrad.use_backend("reference"):
            reference = gradients()
        print(json.dumps({"backend": minigrad.get_backend(), "sent": sent,
                          "answered_by_reference": answered_by_reference,
                          "later_reference_answers": later, "rounds": rounds,
                          "compiled_here": compiled_here(), "loaded": loaded_from_cache(),
                          "cold": cold, "warm": warm, "reference": reference}))
    """, cache)
    assert out["backend"] == "fast"  # the user's backend is never switched
    assert out["sent"] > 0 and out["answered_by_reference"] > 0
    assert out["later_reference_answers"] == 0 and out["rounds"] == 1, out["rounds"]
    assert out["compiled_here"] == 0 and out["loaded"] > 0  # from the worker, via the disk
    assert close(out["cold"], out["reference"]) and close(out["warm"], out["reference"])

    again = run("""
        from minigrad.kernels.runtime import background_compile as bc
        gradients()
        print(json.dumps({"sent": bc._requests, "answered_by_reference": bc.reference_answers,
                          "compiled_here": compiled_here()}))
    """, cache)  # a second process on the same cache: everything is there
    assert again == {"sent": 0, "answered_by_reference": 0, "compiled_here": 0}


ONE_KERNEL = """
from minigrad.kernels.runtime import background_compile as bc
from minigrad.backends import Fast
fast = Fast()
y, dydx = fast.gelu(np.linspace(-3, 3, 50, dtype=np.float32), True)
ref_y, _ = minigrad.backends.Reference().gelu(np.linspace(-3, 3, 50, dtype=np.float32), True)
bc.wait_for_kernels()
print(json.dumps({"sent": bc._requests, "answered_by_reference": bc.reference_answers,
                  "compiled_here": compiled_here(), "close": bool(np.allclose(y, ref_y))}))
"""


def test_compile_wait_compiles_in_the_process(tmp_path):
    out = run(ONE_KERNEL, tmp_path / "cache", MINIGRAD_COMPILE="wait")
    assert out["compiled_here"] >= 1 and out["close"]
    assert out["sent"] == out["answered_by_reference"] == 0


def test_one_kernel_in_the_background(tmp_path):
    out = run(ONE_KERNEL, tmp_path / "cache")
    assert out == {"sent": 1, "answered_by_reference": 1, "compiled_here": 0, "close": True}


def test_jit_disabled_and_the_reference_backend_start_no_worker(tmp_path):
    code = """
        import minigrad.backends.fast as fast_module
        from minigrad.kernels.runtime import background_compile as bc
        gradients()
        print(json.dumps({"loaded": fast_module._loaded, "sent": bc._requests,
                          "answered_by_reference": bc.reference_answers}))
    """
    # NUMBA_DISABLE_JIT: the kernels run as Python, nothing compiles, nothing is sent
    out = run(code, tmp_path / "a", NUMBA_DISABLE_JIT="1")
    assert out == {"loaded": True, "sent": 0, "answered_by_reference": 0}
    # the reference backend chosen by the user never loads the kernels
    out = run(code, tmp_path / "b", MINIGRAD_BACKEND="reference")
    assert out == {"loaded": False, "sent": 0, "answered_by_reference": 0}


def test_the_trainers_cache_probe_still_refuses_inside_a_fast_primitive(tmp_path):
    out = run("""
        from minigrad.kernels.runtime import background_compile as bc
        from minigrad.kernels.runtime.disk_cache import KernelNotCached, cached_only
        from minigrad.backends import Fast
        try:
            with cached_only():
                Fast().gelu(np.ones(4, np.float32), True)
            refused = None
        except KernelNotCached as e:
            refused = type(e).__name__
        print(json.dumps({"refused": refused, "sent": bc._requests}))
    """, tmp_path / "cache")
    assert out == {"refused": "KernelNotCached", "sent": 0}


@pytest.mark.parametrize("value", ["", "background", "later"])
def test_compile_mode_reads_the_environment(monkeypatch, value):
    from minigrad.kernels.runtime import background_compile as bc

    monkeypatch.setenv("MINIGRAD_COMPILE", value)
    assert bc.compile_mode() == "background"
    monkeypatch.setenv("MINIGRAD_COMPILE", " Wait ")
    assert bc.compile_mode() == "wait"


def test_calls_run_again_get_copies_laid_out_as_their_arguments():
    """What wait_for_kernels runs again must ask for the kernel versions the real call does:
    each copy keeps its array's dtype, shape, strides and writeability, views of one array
    stay views of one copy, and the originals are never written."""
    import numpy as np

    from minigrad.kernels.runtime import background_compile as bc

    packed = np.arange(2 * 5 * 12, dtype=np.float32).reshape(2, 5, 12)
    q, k = packed[..., :4].reshape(2, 5, 2, 2), packed[..., 4:8].reshape(2, 5, 2, 2)
    fortran = np.asfortranarray(np.ones((3, 4)))
    frozen = np.ones(3)
    frozen.flags.writeable = False
    args = (q, (k, fortran), [frozen], 2.5, None)
    copies = bc._Copies(args, {"out": packed[1]})
    got, out = copies.of(args), copies.of(packed[1])
    for a, c in ((q, got[0]), (k, got[1][0]), (fortran, got[1][1]), (frozen, got[2][0]),
                 (packed[1], out)):
        assert c.dtype == a.dtype and c.shape == a.shape and c.strides == a.strides
        assert c.flags.writeable == a.flags.writeable and not np.shares_memory(a, c)
        np.testing.assert_array_equal(c, a)
    assert bc._types(got) == bc._types(args) and got[3:] == (2.5, None)
    assert got[0].base is got[1][0].base is out.base  # one copy of the packed array
    got[0][...] = -1
    assert packed.min() == 0  # the originals are untouched

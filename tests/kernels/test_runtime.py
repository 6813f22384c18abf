"""The kernels' runtime: fork, multiprocessing and Python threads after parallel kernels ran,
and ``import minigrad`` leaving process-wide settings alone (each case in a fresh subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

# A GPT big enough that every hot kernel takes its parallel path (matmul row split, attention
# by head, GELU), trained for a few steps; prints nothing, returns the losses.
TRAIN = textwrap.dedent("""
    import numpy as np
    import minigrad as mg
    from minigrad import models, optim

    def build(seed=0):
        mg.manual_seed(seed)
        return models.GPT(vocab_size=33, block_size=32, n_layer=1, n_head=4, n_embd=64)

    def train(model, steps=2, seed=1):
        ids = np.random.default_rng(seed).integers(0, 33, (8, 32))
        opt = optim.AdamW(model.parameters(), lr=1e-2)
        losses = []
        for _ in range(steps):
            _, loss = model(ids, ids)
            opt.zero_grad()
            loss.backward()
            opt.step()
            losses.append(float(loss.item()))
        return losses
""")


def _run(tmp_path, body: str, **env: str) -> str:
    script = tmp_path / "case.py"
    script.write_text(TRAIN + textwrap.dedent(body))
    proc = subprocess.run([sys.executable, str(script)], check=False, capture_output=True,
                          text=True,
                          timeout=600, env={**os.environ, **env})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_fork_after_parallel_kernels_child_runs_kernels(tmp_path):
    out = _run(tmp_path, """
        import os
        from minigrad.kernels.runtime import settings as runtime
        expected = train(build())
        pid = os.fork()
        if pid == 0:
            ok = train(build()) == expected and not runtime.parallel()
            os._exit(0 if ok else 3)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0, status
        assert train(build()) == expected  # the parent keeps its threads
        print("parallel", runtime.parallel())
    """)
    assert "parallel" in out


def test_fork_after_a_parallel_kernel_called_directly(tmp_path):
    # the parent never asked runtime.parallel(): the child must still stay serial
    _run(tmp_path, """
        import os
        from minigrad.kernels import gelu as KG, matmul as KM
        a = np.ones((64, 64), np.float32)
        KM.mm_rows_par(a, a, np.empty_like(a), 2)
        pid = os.fork()
        if pid == 0:
            KG.gelu(np.ones(1 << 16, np.float32), False)
            KM.matmul(a, a)
            os._exit(0)
        assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0
    """)


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_multiprocessing_process_and_pool_after_parallel_kernels(tmp_path, method):
    _run(tmp_path, f"""
        import multiprocessing as mp

        def job(seed):
            return train(build(seed))

        if __name__ == "__main__":
            expected = [train(build(s)) for s in (0, 1)]
            ctx = mp.get_context("{method}")
            p = ctx.Process(target=job, args=(0,))
            p.start()
            p.join()
            assert p.exitcode == 0, p.exitcode
            with ctx.Pool(2) as pool:
                got = pool.map(job, [0, 1])
            # float32 sums split over a different number of threads may round differently
            np.testing.assert_allclose(got, expected, rtol=1e-5)
    """)


def test_two_threads_call_the_same_parallel_kernels_at_once(tmp_path):
    _run(tmp_path, """
        import threading
        from minigrad.kernels import attention as KA, gelu as KG, layernorm as KL, matmul as KM

        rng = np.random.default_rng(0)
        a = rng.standard_normal((256, 64), dtype=np.float32)
        b = rng.standard_normal((64, 256), dtype=np.float32)
        q = rng.standard_normal((8, 32, 4, 16), dtype=np.float32)
        w, bias = np.ones(64, np.float32), np.zeros(64, np.float32)

        def work():
            return [KM.matmul(a, b), KG.gelu(a @ b, True)[1], KL.layer_norm(a, w, bias, 1e-5)[0],
                    KA.fused_attention(q, q, q, 0.25, True)[0]]

        expected = work()
        got = [None, None]

        def worker(i):
            for _ in range(30):
                got[i] = work()

        ts = [threading.Thread(target=worker, args=(i,)) for i in (0, 1)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        for res in got:
            for x, y in zip(res, expected):
                np.testing.assert_array_equal(x, y)
    """)


def test_two_threads_training_at_once_equal_serial_training(tmp_path):
    _run(tmp_path, """
        import threading
        models_ = [build(0), build(1)]
        serial = [train(build(0), steps=3), train(build(1), steps=3)]
        got = [None, None]

        def worker(i):
            got[i] = train(models_[i], steps=3)

        ts = [threading.Thread(target=worker, args=(i,)) for i in (0, 1)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        np.testing.assert_allclose(got, serial, rtol=1e-6)
    """)


def test_import_changes_nothing_process_wide_until_kernels_run(tmp_path):
    script = tmp_path / "imp.py"
    script.write_text(textwrap.dedent("""
        import ctypes, os, sys
        import numba
        import numpy as np

        libc = ctypes.CDLL("libc.so.6")
        names = "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost"
        class MallInfo2(ctypes.Structure):
            _fields_ = [(n, ctypes.c_size_t) for n in names.split()]
        libc.mallinfo2.restype = MallInfo2

        def big_alloc_is_mmapped():
            # 64 MB: above glibc's largest dynamic mmap threshold (32 MB) unless mallopt raised it
            before = libc.mallinfo2().hblks
            a = np.empty(1 << 26, np.uint8)
            n = libc.mallinfo2().hblks - before
            del a
            return n == 1

        import scipy.linalg.cython_blas  # noqa: F401  (SciPy's OpenBLAS, found without minigrad)
        with open("/proc/self/maps") as maps:
            paths = sorted({line.split()[-1] for line in maps if "openblas" in line.lower()})
        lib = ctypes.CDLL([p for p in paths if "scipy" in os.path.dirname(p)][0])

        def blas_threads():
            get = getattr(lib, "scipy_openblas_get_num_threads", None) or lib.openblas_get_num_threads
            return get()
        env, layer, n_blas = dict(os.environ), numba.config.THREADING_LAYER, blas_threads()
        assert big_alloc_is_mmapped()
        assert "minigrad" not in sys.modules
        import minigrad, minigrad.nn, minigrad.models  # noqa: E401
        x = minigrad.randn(4, 4, requires_grad=True)
        (x * x).sum().backward()
        assert big_alloc_is_mmapped(), "import minigrad changed malloc"
        assert dict(os.environ) == env
        assert numba.config.THREADING_LAYER == layer
        assert blas_threads() == n_blas
        from minigrad.kernels.runtime import settings as runtime
        if runtime.ensure_ready():
            assert blas_threads() == 1
        assert not big_alloc_is_mmapped(), "ensure_ready did not keep freed memory"
        print("ok")
    """))
    if not sys.platform.startswith("linux"):
        pytest.skip("mallinfo2 is glibc's")
    proc = subprocess.run([sys.executable, str(script)], check=False, capture_output=True,
                          text=True,
                          timeout=300, env={k: v for k, v in os.environ.items()
                                            if k != "MINIGRAD_KEEP_FREED_MEMORY"})
    if "mallinfo2" in proc.stderr and "undefined symbol" in proc.stderr:
        pytest.skip("glibc older than 2.33")
    assert proc.returncode == 0 and "ok" in proc.stdout, proc.stdout + proc.stderr


def test_numba_disable_jit_runs_a_gpt_step_like_the_compiled_kernels(tmp_path):
    """Every kernel also runs as plain Python (NUMBA_DISABLE_JIT=1: a learner can step through
    it in pdb), float32 and float64, with the compiled kernels' loss and gradients."""
    script = tmp_path / "step.py"
    script.write_text(textwrap.dedent("""
        import json
        import numpy as np
        import minigrad as mg
        from minigrad import models

        out = {}
        for dtype in ("float32", "float64"):
            mg.manual_seed(0)
            m = models.GPT(vocab_size=17, block_size=8, n_layer=1, n_head=2, n_embd=16).to(dtype)
            ids = np.random.default_rng(0).integers(0, 17, (2, 8))
            _, loss = m(ids, ids)
            loss.backward()
            out[dtype] = [float(loss.item())] + [
                np.asarray(p.grad, np.float64).ravel().tolist() for p in m.parameters()]
        print(json.dumps(out))
    """))

    def run(**env: str) -> dict:
        proc = subprocess.run([sys.executable, str(script)], check=False, capture_output=True,
                              text=True, timeout=600, env={**os.environ, **env})
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout.splitlines()[-1])

    plain, jitted = run(NUMBA_DISABLE_JIT="1"), run(NUMBA_DISABLE_JIT="0")
    for dtype, tol in (("float32", 2e-5), ("float64", 1e-10)):
        assert plain[dtype][0] == pytest.approx(jitted[dtype][0], rel=tol)
        for g_plain, g_jit in zip(plain[dtype][1:], jitted[dtype][1:], strict=True):
            np.testing.assert_allclose(g_plain, g_jit, rtol=tol, atol=tol)

"""Benchmark minigrad's Numba kernels against NumPy, measured in the same run.

    python bench/kernels.py [--repeats 15]

Prints, for float32 shapes from a small GPT (768 = 12 sequences x 64 tokens,
n_embd 128, 4 heads of 32, 12 x 4 = 48 batched heads):

- matmul: the kernel's GFLOP/s beside ``numpy.matmul``'s (goal: >= 0.9x on
  every shape), including ``q @ k.transpose(-2, -1)`` with a transposed view;
- softmax forward + backward on (12, 4, 64, 64) attention scores, kernel vs
  the NumPy reference (goal: >= 2x faster);
- masked_fill of a causal (64, 64) mask over the same scores, kernel vs
  ``np.where``.

Softmax and masked_fill timings are interleaved in blocks (kernel, reference,
reference, kernel, ...) and the median of each is reported, so a noisy,
shared machine affects both alike. Matmul is timed as back-to-back calls (as
in a training step), median of blocks of 50. Only ratios measured in the same
run are meaningful.

numpy.matmul is timed in a child process that never imports minigrad (and the
kernel in this one): NumPy's OpenBLAS keeps its own thread pool, and once
minigrad's parallel kernels have run, the two pools share 2 cores badly --
measured here, numpy.matmul on (768,128)@(128,384) fell from ~190 to ~60 GFLOP/s
in a process that had run minigrad's kernel (minigrad's own ops never call
NumPy's BLAS, see minigrad/kernels/runtime/threads.py). The child gives NumPy its best
case, which is the fair reference.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np


def interleaved_medians(
    f: Callable, g: Callable, repeats: int, pause: float = 0.0, min_time: float = 0.005
) -> tuple:
    """Median seconds per call of ``f`` and of ``g``, timed in alternating blocks.

    ``pause`` (seconds) is slept before each block. For matmul it must outlast
    the ~0.1 s that idle OpenBLAS worker threads keep spinning: the kernel runs
    on SciPy's OpenBLAS and numpy.matmul on NumPy's own copy, so without the
    pause each library's spinning threads steal the second core from the other
    (measured here: both fall from ~190 to under 10 GFLOP/s).
    """
    f(), g()  # warm up: compile / load kernels, fault in memory
    n = 1
    while True:  # calls per block so that one block lasts >= min_time
        t0 = time.perf_counter()
        for _ in range(n):
            f()
        if time.perf_counter() - t0 >= min_time:
            break
        n *= 2
    times: dict = {f: [], g: []}
    for r in range(repeats):
        for fn in (f, g) if r % 2 == 0 else (g, f):
            if pause:
                time.sleep(pause)
                fn()  # wake this library's threads
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            times[fn].append((time.perf_counter() - t0) / n)
    return float(np.median(times[f])), float(np.median(times[g]))


MATMUL_SHAPES = [
    # (shape of a, shape of b, b is a transposed view)
    ((768, 128), (128, 384), False),  # x @ W_qkv-like projection
    ((768, 128), (128, 512), False),  # MLP up-projection
    ((768, 512), (512, 128), False),  # MLP down-projection
    ((48, 64, 32), (48, 32, 64), False),  # per-head q @ k^T with k^T stored contiguous
    ((48, 64, 64), (48, 64, 32), False),  # per-head att @ v
    ((48, 64, 32), (48, 64, 32), True),  # q @ k.transpose(-2, -1): a transposed view
]


def _operands(rng: np.random.Generator) -> list:
    out = []
    for sa, sb, transposed in MATMUL_SHAPES:
        a = rng.standard_normal(sa, dtype=np.float32)
        b = rng.standard_normal(sb, dtype=np.float32)
        if transposed:
            b = b.swapaxes(-1, -2)
        name = f"{sa}@{sb}" + (".mT (view)" if transposed else "")
        out.append((name, a, b, 2 * np.prod(a.shape) * b.shape[-1]))
    return out


def matmul_seconds(matmul: Callable, repeats: int, rng: np.random.Generator) -> list:
    """Median seconds per call of ``matmul`` on every shape (one library per process)."""
    times = []
    for _, a, b, _ in _operands(rng):
        for _ in range(20):  # warm up: compile, wake the BLAS threads
            matmul(a, b)
        blocks = []
        for _ in range(repeats):  # back-to-back calls, as in a training step
            t0 = time.perf_counter()
            for _ in range(50):
                matmul(a, b)
            blocks.append((time.perf_counter() - t0) / 50)
        times.append(float(np.median(blocks)))
    return times


def bench_matmul(repeats: int) -> list:
    """(name, kernel GFLOP/s, numpy GFLOP/s, ratio) per shape; numpy in a child process."""
    from minigrad.kernels import matmul as MM

    child = subprocess.run(
        [sys.executable, __file__, "--numpy-matmul-only", "--repeats", str(repeats)],
        capture_output=True, text=True, check=True,
    )
    tn = json.loads(child.stdout)
    tk = matmul_seconds(MM.matmul, repeats, np.random.default_rng(0))
    return [(name, f / k / 1e9, f / n / 1e9, n / k)
            for (name, _, _, f), k, n in zip(_operands(np.random.default_rng(0)), tk, tn)]


def bench_softmax(repeats: int, rng: np.random.Generator, shape=(12, 4, 64, 64)) -> tuple:
    from minigrad.backends.reference import Reference
    from minigrad.kernels import masked_fill as MF
    from minigrad.kernels import softmax as SM
    from minigrad.ops.masking import causal_mask

    R = Reference()
    x = rng.standard_normal(shape, dtype=np.float32)
    x = MF.masked_fill(x, causal_mask(shape[-2], shape[-1]), -np.inf)  # as in attention
    g = rng.standard_normal(shape, dtype=np.float32)

    def kernel():
        return SM.softmax_backward(SM.softmax(x), g)

    def reference():
        return R.softmax_backward(R.softmax(x), g)

    np.testing.assert_allclose(kernel(), reference(), rtol=1e-4, atol=1e-6)
    return interleaved_medians(kernel, reference, repeats)


def bench_masked_fill(repeats: int, rng: np.random.Generator, shape=(12, 4, 64, 64)) -> tuple:
    from minigrad.backends.reference import Reference
    from minigrad.kernels import masked_fill as MF
    from minigrad.ops.masking import causal_mask

    R = Reference()
    x = rng.standard_normal(shape, dtype=np.float32)
    mask = causal_mask(shape[-2], shape[-1])
    return interleaved_medians(
        lambda: MF.masked_fill(x, mask, -np.inf),
        lambda: R.masked_fill(x, mask, -np.inf),
        repeats,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--repeats", type=int, default=15, help="timed blocks per kernel (median taken)"
    )
    parser.add_argument("--numpy-matmul-only", action="store_true",
                        help="(internal) time numpy.matmul only, print JSON seconds per shape")
    args = parser.parse_args()
    if args.numpy_matmul_only:
        print(json.dumps(matmul_seconds(np.matmul, args.repeats, np.random.default_rng(0))))
        return
    rng = np.random.default_rng(0)

    print("matmul, float32 (GFLOP/s; goal: kernel/numpy >= 0.9)")
    print(f"  {'shape':40s} {'kernel':>8s} {'numpy':>8s} {'ratio':>6s}")
    for name, gk, gn, ratio in bench_matmul(args.repeats):
        print(f"  {name:40s} {gk:8.1f} {gn:8.1f} {ratio:6.2f}x")

    tk, tr = bench_softmax(args.repeats, rng)
    print("softmax forward + backward, float32 (12, 4, 64, 64), causal -inf mask (goal: >= 2x)")
    print(f"  kernel {tk * 1e6:8.1f} us   reference {tr * 1e6:8.1f} us   speed-up {tr / tk:5.2f}x")

    tk, tr = bench_masked_fill(args.repeats, rng)
    print("masked_fill, float32 (12, 4, 64, 64) with a (64, 64) causal mask")
    print(f"  kernel {tk * 1e6:8.1f} us   reference {tr * 1e6:8.1f} us   speed-up {tr / tk:5.2f}x")


if __name__ == "__main__":
    main()

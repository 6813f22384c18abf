"""Shared pieces of the benchmark scripts: configs, timing, FLOP counts, matmul peak.

Every script in ``bench/`` reports figures measured in one run on one
(possibly busy) machine, so the helpers here are built for *comparisons*:
contenders are timed alternately (:func:`interleaved_times`), medians are
reported (one slow outlier from another process does not move a median), and
the matmul "peak" that MFU divides by is sampled in the same loop
(:class:`MatmulPeak`), so a machine that is slow for everyone is slow for the
peak too.

Import from a script in this directory with ``from common import ...`` (the
scripts put their own directory first on ``sys.path`` when run by path).
"""

from __future__ import annotations

import math
import os
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class BenchConfig:
    """Sizes of one benchmark GPT and its training batch (names as nanoGPT).

    The model: ``n_layer`` pre-LayerNorm blocks of ``n_head`` heads over
    ``n_embd`` channels, context ``block_size``, ``vocab_size`` ids (65: the
    characters of tiny-shakespeare), biases on, head tied to the embedding.
    A training step sees ``batch_size`` sequences of ``block_size`` tokens.
    """

    name: str
    n_layer: int
    n_head: int
    n_embd: int
    block_size: int
    batch_size: int
    vocab_size: int = 65

    @property
    def tokens_per_step(self) -> int:
        """B * T tokens per training step."""
        return self.batch_size * self.block_size

    def describe(self) -> str:
        """One line with every size, for the benchmark's header."""
        return (f"n_layer={self.n_layer} n_head={self.n_head} n_embd={self.n_embd} "
                f"block_size={self.block_size} batch_size={self.batch_size} "
                f"vocab_size={self.vocab_size}")


CONFIGS: dict[str, BenchConfig] = {
    "small": BenchConfig("small", n_layer=2, n_head=4, n_embd=64, block_size=32, batch_size=16),
    # nanoGPT's documented CPU run of shakespeare_char ("baby GPT" on a laptop)
    "baby": BenchConfig("baby", n_layer=4, n_head=4, n_embd=128, block_size=64, batch_size=12),
    "medium": BenchConfig("medium", n_layer=6, n_head=6, n_embd=384, block_size=256,
                          batch_size=16),
    # GPT-2 124M's sizes and vocabulary at a short context (bench/memory.py: a step ~6-8 s)
    "gpt2": BenchConfig("gpt2", n_layer=12, n_head=12, n_embd=768, block_size=256,
                        batch_size=4, vocab_size=50257),
    # baby's graph (every op, head and row of it) at 4 wide, so that its arithmetic is next
    # to nothing: the step time is what each op costs beyond its arithmetic (Python,
    # dispatch, kernel launches), which no faster matmul removes (bench/README, the floor)
    "thin": BenchConfig("thin", n_layer=4, n_head=4, n_embd=4, block_size=64, batch_size=12),
}


def time_the_fast_kernels() -> None:
    """Make minigrad compile a cold cache's kernels before anything is timed (in this process
    and the worker processes it spawns), not in a background process while the reference
    primitives answer, which is the library's default and would time NumPy instead. Every
    benchmark of steps calls this first; only a measure of the first run itself
    (``startup.py``) keeps the default."""
    os.environ.setdefault("MINIGRAD_COMPILE", "wait")


def get_config(name: str) -> BenchConfig:
    """The config called ``name`` (ValueError naming the known ones otherwise)."""
    if name not in CONFIGS:
        raise ValueError(f"unknown config {name!r}; choose one of {', '.join(CONFIGS)}")
    return CONFIGS[name]


# ---- counting -------------------------------------------------------------------------------
def non_embedding_params(cfg: BenchConfig) -> int:
    """N as nanoGPT counts it: every parameter except the position table.

    Per block (C = n_embd): q, k, v, out projections 4C^2 + 4C; MLP 8C^2 + 5C;
    two LayerNorms 4C. So 12 C^2 + 13 C per block, plus the tied (V, C)
    embedding/head and the final LayerNorm's 2C.
    """
    c = cfg.n_embd
    return cfg.n_layer * (12 * c * c + 13 * c) + cfg.vocab_size * c + 2 * c


def flops_per_step(cfg: BenchConfig) -> int:
    """Training FLOPs of one step, nanoGPT's ``estimate_mfu`` formula:

        (6 N + 12 L H Q T) * B * T

    6 N: each weight does a multiply-add (2 FLOPs) per token forward and two
    backward (for the input's and the weight's gradient). 12 L H Q T: the two
    attention matmuls (q k^T, P v) per layer and head, forward and backward,
    which have no parameters (Q = head size). The causal half that could be
    skipped is counted, as nanoGPT does.
    """
    q = cfg.n_embd // cfg.n_head
    per_token = 6 * non_embedding_params(cfg) + 12 * cfg.n_layer * cfg.n_head * q * cfg.block_size
    return per_token * cfg.tokens_per_step


# ---- timing ---------------------------------------------------------------------------------
def median(values: Sequence[float]) -> float:
    """The median of a non-empty sequence (ValueError on an empty one)."""
    if len(values) == 0:
        raise ValueError("median of an empty sequence")
    return float(statistics.median(values))


def time_call(fn: Callable[[], object]) -> float:
    """Wall-clock seconds of one call of ``fn``."""
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def interleaved_times(contenders: dict[str, Callable[[], object]], rounds: int, warmup: int = 1,
                      between: Callable[[], object] | None = None,
                      pause: float = 0.0) -> dict[str, list[float]]:
    """Seconds per call of each contender, timed alternately: A, B, A, B, ...

    ``warmup`` untimed rounds go first (Numba compiles, caches fill, memory
    is faulted in). ``between`` (e.g. a :meth:`MatmulPeak.sample`) runs once
    per timed round, untimed, so it sees the same machine load. Alternating
    means a burst of load from another process slows every contender alike.

    ``pause`` seconds of sleep go before every call: after a call, OpenBLAS's
    and OpenMP's worker threads keep spinning for a while, and on 2 cores
    they steal the CPU from whatever runs next -- here, another framework,
    which in real use would not be running in the same process at all.
    """
    if rounds < 1:
        raise ValueError(f"rounds must be >= 1, got {rounds}")
    if warmup < 0:
        raise ValueError(f"warmup must be >= 0, got {warmup}")
    if pause < 0:
        raise ValueError(f"pause must be >= 0 seconds, got {pause}")
    for _ in range(warmup):
        for fn in contenders.values():
            fn()
    times: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(rounds):
        for name, fn in contenders.items():
            time.sleep(pause)
            times[name].append(time_call(fn))
        if between is not None:
            time.sleep(pause)
            between()
    return times


# ---- the matmul peak ------------------------------------------------------------------------
def step_matmul_shapes(cfg: BenchConfig) -> list[tuple[tuple[int, ...], tuple[int, ...], int]]:
    """Every matmul of one training step as (shape of a, shape of b, count), a @ b.

    Linear y = x W^T (x (M, K), W (N, K), M = B*T): forward (M,K)@(K,N),
    input gradient (M,N)@(N,K), weight gradient (N,M)@(M,K), each operand
    taken contiguous. Attention per layer over the B*H heads (Q = head size):
    q k^T and dP = G v^T are (BH,T,Q)@(BH,Q,T); P v, dv = P^T G, dq = dS k and
    dk = dS^T q are (BH,T,T)@(BH,T,Q).
    """
    b, t, c, v = cfg.batch_size, cfg.block_size, cfg.n_embd, cfg.vocab_size
    m, bh, q = b * t, b * cfg.n_head, c // cfg.n_head
    counts: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}

    def add(sa: tuple[int, ...], sb: tuple[int, ...], n: int) -> None:
        counts[(sa, sb)] = counts.get((sa, sb), 0) + n

    for k, n, per_model in ((c, c, 4 * cfg.n_layer), (c, 4 * c, cfg.n_layer),
                            (4 * c, c, cfg.n_layer), (c, v, 1)):
        add((m, k), (k, n), per_model)   # forward
        add((m, n), (n, k), per_model)   # gradient of the input
        add((n, m), (m, k), per_model)   # gradient of the weight
    add((bh, t, q), (bh, q, t), 2 * cfg.n_layer)
    add((bh, t, t), (bh, t, q), 4 * cfg.n_layer)
    return [(sa, sb, n) for (sa, sb), n in counts.items()]


def projection_shapes(cfg: BenchConfig) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The forward projection matmuls x (B*T, K) @ W^T (K, N) of the model."""
    m, c = cfg.tokens_per_step, cfg.n_embd
    return [((m, c), (c, c)), ((m, c), (c, 4 * c)), ((m, 4 * c), (4 * c, c)),
            ((m, c), (c, cfg.vocab_size))]


PRODUCT_RTOL = 1e-5  # float32: two BLAS libraries differ by ~1e-6 of the largest entry here


def check_product(got: np.ndarray, want: np.ndarray, what: str) -> None:
    """ValueError unless ``got`` equals ``want`` (a float32 product) within PRODUCT_RTOL of
    ``want``'s largest entry: the summation order may differ, the product may not."""
    if got.shape != want.shape:
        raise ValueError(f"{what}: shape {got.shape}, numpy.matmul gives {want.shape}")
    scale = max(float(np.abs(want).max(initial=0.0)), np.finfo(np.float32).tiny)
    error = float(np.abs(got.astype(np.float64) - want).max(initial=0.0)) / scale
    if not error <= PRODUCT_RTOL:  # also catches NaN
        raise ValueError(f"{what} differs from numpy.matmul's by {error:.2e} of its largest "
                         f"entry (float32 allows {PRODUCT_RTOL:.0e})")


def _matmul_flops(sa: tuple[int, ...], sb: tuple[int, ...]) -> int:
    return 2 * math.prod(sa) * sb[-1]


class MatmulPeak:
    """``numpy.matmul`` (or another library's product, ``gemm.py``), float32, timed on the
    shapes of one config's training step.

    Call :meth:`sample` once per benchmark round; afterwards

    - :meth:`peak_gflops` is the best median GFLOP/s over the model's
      projection shapes: the "peak" MFU divides by;
    - :meth:`floor_seconds` adds up count x median time of every matmul in a
      step: a step can not be faster than its matmuls done by that library alone.
    """

    def __init__(self, cfg: BenchConfig, seed: int = 0, min_seconds: float = 2e-3,
                 library: str = "numpy", threads: int = 2) -> None:
        """``library``: "numpy" (``numpy.matmul``) or, for comparison (``matmul_floor.py``),
        one of ``gemm.LIBRARIES`` on ``threads`` threads (NumPy's own thread count comes
        from the environment it was loaded in: ``gemm.thread_env``). Every other library's
        product of each shape is checked against ``numpy.matmul``'s before anything is
        timed (ValueError naming the shape when they differ)."""
        from gemm import library_matmul  # here: ctypes and the libraries only when used

        rng = np.random.default_rng(seed)
        self._matmul, as_operand, self._description = library_matmul(library, threads)
        self._projections = set(projection_shapes(cfg))  # the step's forward projections
        self._cases = []
        for sa, sb, count in step_matmul_shapes(cfg):
            a_np = rng.standard_normal(sa, dtype=np.float32)
            b_np = rng.standard_normal(sb, dtype=np.float32)
            a, b = as_operand(a_np), as_operand(b_np)
            got = self._matmul(a, b)  # also faults in memory, starts the library's threads
            if library != "numpy":
                check_product(np.asarray(got), np.matmul(a_np, b_np), f"{library}'s {sa}@{sb}")
            t0 = time.perf_counter()
            self._matmul(a, b)
            reps = max(1, math.ceil(min_seconds / max(time.perf_counter() - t0, 1e-7)))
            self._cases.append((sa, sb, count, a, b, reps, []))

    def describe(self) -> str:
        """The library timed and its version, e.g. "oneMKL 2026.2"."""
        return self._description

    def sample(self) -> None:
        """Time every shape once (``reps`` calls, so a timing lasts ~min_seconds)."""
        for _, _, _, a, b, reps, times in self._cases:
            t0 = time.perf_counter()
            for _ in range(reps):
                self._matmul(a, b)
            times.append((time.perf_counter() - t0) / reps)

    def _medians(self) -> list[tuple[tuple[int, ...], tuple[int, ...], int, float]]:
        if not self._cases[0][-1]:
            self.sample()
        return [(sa, sb, n, median(times)) for sa, sb, n, _, _, _, times in self._cases]

    def peak_gflops(self) -> tuple[float, str]:
        """(best median GFLOP/s over the projection shapes, that shape as text)."""
        best = max(((_matmul_flops(sa, sb) / t / 1e9, f"{sa}@{sb}")
                    for sa, sb, _, t in self._medians() if (sa, sb) in self._projections))
        return best

    def floor_seconds(self) -> float:
        """Seconds of all matmuls of one training step, each at its median speed."""
        return sum(n * t for _, _, n, t in self._medians())

    def last_floor_seconds(self) -> float:
        """The same from the latest :meth:`sample` alone."""
        return sum(n * times[-1] for _, _, n, _, _, _, times in self._cases)


# ---- reporting ------------------------------------------------------------------------------
def machine_line() -> str:
    """CPU count, platform, the thread settings that change matmul speed, and which of
    OpenBLAS's kernels NumPy's matrix products run (see :func:`blas_kernel`)."""
    knobs = ["OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "OMP_WAIT_POLICY", "NUMBA_NUM_THREADS"]
    env = " ".join(f"{k}={os.environ[k]}" for k in knobs if k in os.environ) or "no thread env set"
    return (f"{os.cpu_count()} CPUs, {platform.machine()} {platform.system()}, "
            f"Python {platform.python_version()}, NumPy {np.__version__}; {env}; "
            f"{blas_kernel()}")


# Environment variables that choose OpenBLAS's kernels instead of letting it detect the CPU.
BLAS_KERNEL_KNOBS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")


def blas_kernel() -> str:
    """Which OpenBLAS kernel family NumPy and SciPy (the fast backend's products) run, and the
    variables that forced it. ``OPENBLAS_CORETYPE=Haswell`` on an AVX-512 CPU (some machines
    set it for old OpenBLAS builds) halves the matmul peak: NumPy's and minigrad's figures then
    come from AVX2 kernels, PyTorch's (oneDNN/MKL) do not. Needs threadpoolctl (the ``bench``
    extra) to name the kernel; without it only the variables are shown."""
    forced = " ".join(f"{k}={os.environ[k]}" for k in BLAS_KERNEL_KNOBS if k in os.environ)
    forced = f"forced by {forced}" if forced else "detected (no OPENBLAS_CORETYPE)"
    try:
        import scipy.linalg  # noqa: F401  (loads SciPy's OpenBLAS, the fast backend's)
        import threadpoolctl
    except ImportError:
        return f"OpenBLAS kernel {forced}"
    kernels = sorted({str(info.get("architecture")) for info in threadpoolctl.threadpool_info()
                      if info.get("internal_api") == "openblas"})
    return f"OpenBLAS kernel {'/'.join(kernels) or 'unknown'}, {forced}"


def load_line() -> str:
    """The 1-minute load average (a busy machine makes every figure noisy)."""
    try:
        return f"load average (1 min) {os.getloadavg()[0]:.2f}"
    except OSError:
        return "load average unknown"

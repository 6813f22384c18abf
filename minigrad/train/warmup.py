"""A first run that starts at once: the fast kernels compile in the background.

On a cold Numba cache (a new install, a new minigrad version, a new ``NUMBA_CACHE_DIR``)
the fast backend compiles each kernel the first time it runs, a second or more each
(``bench/startup.py`` measures a whole run's worth), during which nothing would happen on
screen. Instead, the trainer:

1. asks whether everything the run will call is already compiled: it runs
   :func:`exercise` (every kind of call a run makes, on a throwaway model of the run's
   configuration) on the fast backend inside ``kernels.runtime.disk_cache.cached_only``, which loads
   kernels from the cache and refuses to compile. If that passes, all the run's kernels are
   now loaded and the run is on the fast backend from its first step, as before;
2. otherwise starts :class:`BackgroundCompile`: a second process (``python -m
   minigrad.train.warmup``) that runs the same :func:`exercise` on the fast backend, which
   compiles every kernel into Numba's on-disk cache, while this process trains on the
   reference backend (plain NumPy: the same math, slower per step);
3. at each iteration boundary looks whether that process has finished; when it has,
   loads the kernels from the cache (step 1 again) and goes on on the fast backend.

If this process stops early the child is stopped too (Ctrl-C reaches both; a run that
ends by an error or a signal it handles kills it); if it is killed outright (SIGKILL), the
child finishes its compile alone and the next run finds the kernels cached.

The price: float32 rounding differs between the backends, so a run that started on the
reference backend is not bit-for-bit the run a warm cache gives with the same seed (each
step agrees to float32 rounding, which tests/kernels/test_backends.py holds the backends to, and the
two runs then drift apart slowly, as any two differently rounded float32 runs do).
``--compile wait`` (``MINIGRAD_COMPILE=wait``) compiles in this process instead, printing
each kernel as it compiles, and keeps runs reproducible from the first one.

How this relates to the library's own cold start (``minigrad/kernels/runtime/
background_compile.py``): there, the fast backend sends each kernel that is not cached to a
worker process at its first call and answers with the reference primitive until it is
ready, kernel by kernel; a library script cannot know its workload in advance. The trainer
does: it compiles the whole run's kernels up front, so every step runs wholly on one
backend and the switch comes at an iteration boundary, with one message. The two share
the compiling process's set-up (``compiler_process_options``) and the ``MINIGRAD_COMPILE``
setting (:func:`start_fast_kernels` passes ``--compile`` on to the library), and the
library's mechanism covers any kernel a run calls that :func:`exercise` did not.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import numpy as np

import minigrad

from .checkpoint import build_model
from .data import BatchSampler
from .evaluate import full_split_loss
from .step import train_step


def exercise(cfg: dict) -> None:
    """Make every kind of call a training run of configuration ``cfg`` makes, once, on a
    throwaway model: a training step (forward, backward, gradient clipping, AdamW), the
    no-grad evaluations (full batches and the short last window of the full-split loss)
    and sampling (batch 1: the key/value cache's prompt pass and one-token steps, and the
    sliding window past the block size). Numba compiles per argument type, not per shape,
    and the kernel chosen depends on sizes only through thresholds that these shapes
    cross as the run's do, so these calls need every kernel signature the run will.
    minigrad's random state is left as it was."""
    rng_state = minigrad.get_rng_state()
    try:
        model = build_model(cfg)
        opt = model.configure_optimizers(weight_decay=0.1, learning_rate=1e-3,
                                         betas=(0.9, 0.99))
        params = [p for g in opt.param_groups for p in g["params"]]
        block, vocab = int(cfg["block_size"]), int(cfg["vocab_size"])
        ids = np.arange(3 * block + 5, dtype=np.int64) % vocab
        sampler = BatchSampler(ids, int(cfg["batch_size"]), block, seed=0)
        train_step(model, opt, params, sampler, 1e-3, float(cfg["grad_clip"]) or 1.0, 0)
        model.eval()
        with minigrad.no_grad():  # the loss estimates: training-sized batches, no gradients
            model(*sampler.sample())
        full_split_loss(model, ids, block)  # and the full-split score's short last window
        # sampling (batch 1): a one-token prompt; a cached step with the cache at its fullest;
        # a full-block prompt and the uncached sliding window after it. Five forward passes,
        # whatever the block size, and every shape class a run's sampling meets.
        for prompt, new in ((1, 1), (max(1, block - 1), 2), (block, 2)):
            model.generate(ids[None, :prompt], new, top_k=min(10, vocab))
    finally:
        minigrad.set_rng_state(rng_state)


def fast_kernels_loaded(cfg: dict) -> bool:
    """True when every kernel a run of ``cfg`` calls is now loaded on the fast backend,
    from memory or Numba's cache, without compiling anything; False if one needs compiling."""
    from minigrad.kernels.runtime.disk_cache import KernelNotCached, announce_compiles, cached_only

    # The probe compiles nothing, but the kernel it refuses to compile still raises Numba's
    # compile event, which would make the fast backend's first-compile notice say
    # "compiling fast kernels" just before the trainer says how (and where) they compile.
    # An announce_compiles block keeps that notice quiet; its own lines go nowhere.
    try:
        with minigrad.use_backend("fast"), announce_compiles(io.StringIO()), cached_only():
            exercise(cfg)
    except KernelNotCached:
        return False
    return True


def compile_in_this_process(cfg: dict) -> int:
    """Compile every kernel a run of ``cfg`` calls, printing each one as it compiles (to
    stdout); returns how many were compiled."""
    from minigrad.kernels.runtime.disk_cache import announce_compiles

    with minigrad.use_backend("fast"), announce_compiles(sys.stdout) as announced:
        exercise(cfg)
    return announced.count


class BackgroundCompile:
    """``python -m minigrad.train.warmup`` compiling a run's kernels into Numba's cache.

    The child's output goes to a temporary log file (read back only if it fails). It
    shares this process's environment, so the same ``NUMBA_CACHE_DIR``, and its process
    group, so a Ctrl-C in the terminal stops it too. While it runs, NumPy's BLAS (which the
    reference backend's products use) has one thread here: the child takes the other core.
    """

    def __init__(self, cfg: dict) -> None:
        from minigrad.kernels.runtime.background_compile import compiler_process_options
        from minigrad.kernels.runtime.threads import set_numpy_blas_threads

        self.log = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115  (open while the child runs)
        self.started = time.perf_counter()
        options = compiler_process_options()  # the same cache folder, the package's folder
        options["env"]["MINIGRAD_BACKEND"] = "fast"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "minigrad.train.warmup", json.dumps(cfg)],
            stdout=self.log, stderr=subprocess.STDOUT, **options)
        self.seconds: float | None = None
        self._blas_threads = set_numpy_blas_threads(1)

    def finished(self) -> bool:
        """Whether the child has exited (never blocks); the first time it has, NumPy's BLAS
        gets its threads back."""
        if self.process.poll() is None:
            return False
        if self.seconds is None:
            from minigrad.kernels.runtime.threads import set_numpy_blas_threads

            self.seconds = time.perf_counter() - self.started
            if self._blas_threads is not None:
                set_numpy_blas_threads(self._blas_threads)
        return True

    def wait(self) -> None:
        """Block until the child has exited."""
        self.process.wait()
        self.finished()

    def stop(self) -> None:
        """Kill the child (a run that ends early; Numba replaces cache files atomically)."""
        self.process.kill()
        self.wait()

    def failure(self) -> str | None:
        """None if the child compiled everything, else the last lines of what it printed."""
        if self.process.returncode == 0:
            return None
        self.log.seek(0)
        tail = " | ".join(self.log.read().strip().splitlines()[-3:])
        return f"exit code {self.process.returncode}: {tail}"


def start_fast_kernels(cfg: dict, mode: str) -> BackgroundCompile | None:
    """Have every kernel a run of ``cfg`` calls ready on the fast backend, or on its way.

    Loaded from Numba's cache when they are all there (nothing printed). On a cold cache,
    ``mode`` 'wait' compiles them here, naming each; 'background' starts a
    :class:`BackgroundCompile`, switches this process to the reference backend meanwhile and
    returns it (:func:`switch_to_fast` ends it).
    """
    # The trainer's choice governs the library's per-kernel background compile too
    # (kernels/runtime/background_compile.py), which covers any kernel the run calls that
    # exercise() did not: 'wait' keeps every kernel compiling here, hence runs repeatable.
    os.environ["MINIGRAD_COMPILE"] = mode
    if fast_kernels_loaded(cfg):
        return None
    if mode == "wait":
        print("compiling minigrad's fast kernels (first run with this Numba cache; they are "
              "cached on disk for later runs):", flush=True)
        start = time.perf_counter()
        count = compile_in_this_process(cfg)
        print(f"compiled {count} kernels in {time.perf_counter() - start:.1f} s", flush=True)
        return None
    job = BackgroundCompile(cfg)
    minigrad.set_backend("reference")
    print("compiling minigrad's fast kernels in a background process (first run with this "
          "Numba cache); meanwhile the steps run on the reference backend. For a run that is "
          "bit-for-bit repeatable from this first one: --compile wait", flush=True)
    return job


def switch_to_fast(job: BackgroundCompile, cfg: dict, say: Callable[[str], None]) -> None:
    """Wait for the background compile to exit (saying so if it has not yet: the run is
    over), load its kernels and go on on the fast backend; if it failed, or its kernels are
    not in the cache (an unwritable cache directory), compile them here instead. ``say``
    prints a message line."""
    if not job.finished():
        say("waiting for the background compile (so that the rest of this run and the next "
            "ones are fast)...")
    job.wait()
    minigrad.set_backend("fast")
    failure = job.failure()
    if failure is None and fast_kernels_loaded(cfg):
        say(f"fast kernels ready (compiled in {job.seconds:.1f} s in the background): "
            f"continuing on the fast backend")
        return
    why = (f"the background compile failed ({failure})" if failure else
           "the background compile's kernels are not in Numba's cache (is its directory "
           "writable? NUMBA_CACHE_DIR chooses it)")
    say(f"warning: {why}; compiling them in this process")
    compile_in_this_process(cfg)


def main(argv: list[str] | None = None) -> int:
    """The background process: compile every kernel a run of the JSON config argv[0] calls."""
    argv = sys.argv[1:] if argv is None else argv
    cfg = json.loads(argv[0])
    print(f"compiled {compile_in_this_process(cfg)} kernels")
    return 0


if __name__ == "__main__":
    sys.exit(main())

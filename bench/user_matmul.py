"""Does minigrad slow down the user's own NumPy? Time numpy.matmul around a training step.

    .venv/bin/python bench/user_matmul.py

In one process: the median of 30 float32 (512, 512) @ (512, 512) products with NumPy's own
``numpy.matmul`` before ``import minigrad``, after it, right after five baby training steps
(minigrad's parallel kernels just ran) and one second later. ``import minigrad`` should change
nothing process-wide (``minigrad/kernels/runtime/settings.py`` makes its settings when a kernel first
runs), and those settings should leave NumPy's own BLAS as fast as before.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

A = np.random.default_rng(0).standard_normal((512, 512)).astype(np.float32)


def median_matmul_us() -> float:
    """Median microseconds of ``A @ A`` over 30 calls, after 3 untimed ones."""
    for _ in range(3):
        A @ A
    times = []
    for _ in range(30):
        start = time.perf_counter()
        A @ A
        times.append(time.perf_counter() - start)
    return 1e6 * float(np.median(times))


def main() -> None:
    """Print the four medians on one line."""
    results = {"before import": median_matmul_us()}
    import minigrad  # noqa: F401  (the import itself is what is measured)

    results["after import"] = median_matmul_us()
    from common import CONFIGS
    from train_step import MinigradTrainer

    cfg = CONFIGS["baby"]
    trainer = MinigradTrainer(cfg)
    rng = np.random.default_rng(0)
    for _ in range(5):
        x = rng.integers(0, cfg.vocab_size, (cfg.batch_size, cfg.block_size))
        trainer.step(x, np.roll(x, -1, 1))
    results["right after 5 training steps"] = median_matmul_us()
    time.sleep(1.0)
    results["1 s later"] = median_matmul_us()
    print("  ".join(f"{k}: {v:.0f} us" for k, v in results.items()))


if __name__ == "__main__":
    main()

"""No leaks: a long training loop keeps its memory flat, and each step's graph dies with it.

Backward frees what every op saved; the graph itself lives only as long as something refers
to the loss. So a training loop that drops its loss before the next step holds at most one
step's graph, and resident memory stops growing after the first steps (once the optimizer
state, NumPy's and Numba's caches and the allocator's pools exist).
"""

from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
import weakref
from pathlib import Path

import numpy as np

import minigrad as mg
from minigrad import models

ROOT = Path(__file__).resolve().parents[2]
GROWTH_LIMIT_MB = 20.0

LOOP = textwrap.dedent("""
    import os
    import numpy as np
    import minigrad as mg
    from minigrad import models

    PAGE = os.sysconf("SC_PAGE_SIZE")

    def rss_mb():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * PAGE / 2**20

    def owner(a):
        while isinstance(a.base, np.ndarray):
            a = a.base
        return a

    def graph_bytes(root):
        # bytes a graph holds: the buffers behind its ops' outputs
        seen, stack, buffers, leaves = set(), [root], dict(), set()
        while stack:
            t = stack.pop()
            if id(t) in seen:
                continue
            seen.add(id(t))
            buf = owner(t.data)
            if t._ctx is None:
                leaves.add(id(buf))
                continue
            buffers[id(buf)] = buf.nbytes
            stack.extend(t._ctx.parents)
        return sum(n for k, n in buffers.items() if k not in leaves)

    mg.manual_seed(0)
    V, T, B = 65, 16, 4
    model = models.GPT(vocab_size=V, block_size=T, n_layer=1, n_head=2, n_embd=32, dropout=0.1)
    opt = model.configure_optimizers(weight_decay=0.1, learning_rate=1e-3)
    params = list(model.parameters())
    rng = np.random.default_rng(0)
    data = rng.integers(0, V, 20_000)
    samples, per_step = [], 0
    for step in range(1, {steps} + 1):
        starts = rng.integers(0, len(data) - T - 1, B)
        rows = starts[:, None] + np.arange(T + 1)
        x, y = data[rows[:, :-1]], data[rows[:, 1:]]
        _, loss = model(x, y)
        if step == 1:  # what a step's graph holds (backward frees it as it goes)
            per_step = graph_bytes(loss)
        loss.backward()
        mg.optim.clip_grad_norm_(params, 1.0)
        opt.step()
        opt.zero_grad()
        del loss
        if step % 50 == 0:  # sampling (KV cache, no_grad) between steps, as a run does
            with mg.no_grad():
                model.eval()
                model.generate(x[:1, :4], 4)
                model.train()
        if step >= {warmup} and step % 25 == 0:
            samples.append(rss_mb())
    print("graph_mb", per_step / 2**20)
    print("rss_mb", " ".join(f"{{s:.2f}}" for s in samples))
""")


def test_resident_memory_stays_flat_over_hundreds_of_steps() -> None:
    steps, warmup = 300, 60
    script = LOOP.format(steps=steps, warmup=warmup)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=600, cwd=ROOT, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = dict(line.split(" ", 1) for line in proc.stdout.strip().splitlines())
    graph_mb = float(lines["graph_mb"])
    rss = [float(v) for v in lines["rss_mb"].split()]
    growth = max(rss) - rss[0]
    assert growth < GROWTH_LIMIT_MB, f"RSS grew {growth:.1f} MB after warm-up: {rss}"
    # The test can see a leak: keeping each step's graph would grow well past the limit.
    assert graph_mb * (steps - warmup) > 2 * GROWTH_LIMIT_MB, graph_mb


def _tiny_gpt() -> models.GPT:
    mg.manual_seed(0)
    return models.GPT(vocab_size=11, block_size=8, n_layer=2, n_head=2, n_embd=16, dropout=0.1)


def _all_graph_tensors(root: mg.Tensor) -> list[mg.Tensor]:
    seen, stack, out = set(), [root], []
    while stack:
        t = stack.pop()
        if id(t) in seen:
            continue
        seen.add(id(t))
        out.append(t)
        if t._ctx is not None:
            stack.extend(t._ctx.parents)
    return out


def test_a_steps_graph_dies_with_its_loss_without_the_cycle_collector() -> None:
    """Dropping the loss frees every graph node by reference counting alone (no cycles)."""
    model = _tiny_gpt()
    opt = model.configure_optimizers(weight_decay=0.1, learning_rate=1e-3)
    params = {id(p) for p in model.parameters()}
    ids = np.arange(16).reshape(2, 8) % 11
    gc.collect()
    gc.disable()
    try:
        for _ in range(3):
            logits, loss = model(ids, ids)
            nodes = [weakref.ref(t) for t in _all_graph_tensors(loss) if id(t) not in params]
            assert len(nodes) > 30  # a real graph: tens of ops per step
            loss.backward()
            opt.step()
            opt.zero_grad()
            ref = weakref.ref(loss)
            del logits, loss
            assert ref() is None, "the loss outlived its step"
            alive = [r() for r in nodes if r() is not None]
            assert not alive, f"{len(alive)} graph tensors outlived the step, e.g. {alive[0]!r}"
    finally:
        gc.enable()


def test_backward_frees_saved_arrays_even_while_the_loss_is_alive() -> None:
    """What ops saved for backward (the big activations) is released by backward itself."""
    model = _tiny_gpt()
    ids = np.arange(16).reshape(2, 8) % 11
    _, loss = model(ids, ids)
    param_data = {id(p.data) for p in model.parameters()}
    node_data = {id(t.data) for t in _all_graph_tensors(loss)}
    saved = []
    for t in _all_graph_tensors(loss):
        if t._ctx is not None:
            for a in t._ctx._saved:
                if isinstance(a, np.ndarray) and id(a) not in param_data | node_data:
                    saved.append(weakref.ref(a))
    a = None  # the loop variable would otherwise keep the last saved array alive
    assert len(saved) > 10
    loss.backward()
    alive = sum(r() is not None for r in saved)
    assert alive == 0, f"{alive} of {len(saved)} saved arrays survived backward()"
    for t in _all_graph_tensors(loss):
        assert t._ctx is None or t._ctx._freed


def test_no_grad_evaluation_records_no_graph() -> None:
    model = _tiny_gpt()
    ids = np.arange(16).reshape(2, 8) % 11
    with mg.no_grad():
        logits, loss = model(ids, ids)
    assert logits._ctx is None and loss._ctx is None and not loss.requires_grad

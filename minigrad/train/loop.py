"""The training loop in one file, as nanoGPT's ``train.py``: what one iteration does.

Each iteration (:func:`train_loop`): stop cleanly if a signal came; evaluate and checkpoint
when due (``Run.evaluate``, beside this file in ``run.py``); else take one optimizer step
(:func:`train_step`):

1. fetch ``grad_accum`` micro-batches of random (B, T) windows (:class:`BatchSampler`);
2. for each: forward, loss (``model(x, y)``: the head and the cross-entropy as one op),
   backward of ``loss / grad_accum``, so the gradients add up to those of one N-times-larger
   batch (to float rounding; ``tests/train/test_finetune.py`` holds the two equal in
   float64) in the memory of one micro-batch. That forward and backward is the captured
   step (:func:`micro_step`, ``minigrad.capture``): recorded on the first two calls, then
   replayed, with the same arithmetic and less Python per op;
3. clip the gradient norm (``clip_grad_norm_``);
4. set the learning rate from the schedule (:func:`learning_rate`: linear warmup, then
   cosine decay) and take the AdamW step; zero the gradients.

In a data-parallel run (``mpiexec``) the :class:`~minigrad.train.distributed_run.World`
calls split the global batch into this rank's rows, average the losses and average the
gradients once, after the last micro-batch; in one process they do nothing.

Set-up is ``prepare.py`` (it builds the :class:`~minigrad.train.run.Run` this loop drives),
evaluation and checkpoints ``run.py`` / ``evaluate.py``, reporting ``progress.py`` (the
progress line) and ``report.py`` (the end of a run).
"""

from __future__ import annotations

import math
import os
import signal
import time
from typing import TYPE_CHECKING

import numpy as np

import minigrad
from minigrad.optim import clip_grad_norm_, cosine_lr

from .distributed_run import SINGLE, World
from .safety import NonFiniteLoss, StopFlag

if TYPE_CHECKING:
    from .run import Run


class BatchSampler:
    """Random (B, T) training windows from one array of ids, as nanoGPT's ``get_batch``.

    Each row starts at an offset drawn uniformly from ``[0, len(data) - T)``;
    ``x = data[i : i+T]`` and ``y = data[i+1 : i+T+1]`` (the next character at each place).
    All randomness comes from this sampler's own PCG64 generator: :meth:`get_state` /
    :meth:`set_state` save and restore it as a uint64 array (no pickle), which is what makes
    a resumed run draw the same batches as an uninterrupted one.
    """

    def __init__(self, data: np.ndarray, batch_size: int, block_size: int, seed: int) -> None:
        if len(data) <= block_size:
            raise ValueError(
                f"need more than block_size={block_size} ids to sample windows, got {len(data)}"
            )
        self.data = data
        self.batch_size = batch_size
        self.block_size = block_size
        self.rng = np.random.Generator(np.random.PCG64(seed))

    def sample(self) -> tuple[np.ndarray, np.ndarray]:
        """(x, y), both int64 of shape (batch_size, block_size)."""
        T = self.block_size
        starts = self.rng.integers(0, len(self.data) - T, size=self.batch_size)
        rows = starts[:, None] + np.arange(T + 1)[None, :]  # (B, T+1) indices
        window = self.data[rows].astype(np.int64, copy=False)  # a token file holds uint16/32
        return window[:, :-1], window[:, 1:]

    def get_state(self) -> np.ndarray:
        """The generator state as uint64 [state_hi, state_lo, inc_hi, inc_lo, has32, uint32]."""
        st = self.rng.bit_generator.state
        s, inc = st["state"]["state"], st["state"]["inc"]
        mask = 2**64 - 1
        return np.array(
            [s >> 64, s & mask, inc >> 64, inc & mask, st["has_uint32"], st["uinteger"]],
            dtype=np.uint64,
        )

    def set_state(self, state: np.ndarray) -> None:
        """Restore a state returned by :meth:`get_state`."""
        a = np.asarray(state)
        if a.shape != (6,) or a.dtype != np.uint64:
            raise ValueError(f"a sampler state is a uint64 array of shape (6,), got "
                             f"{a.dtype} {a.shape}")
        v = [int(x) for x in a]
        self.rng.bit_generator.state = {
            "bit_generator": "PCG64",
            "state": {"state": (v[0] << 64) | v[1], "inc": (v[2] << 64) | v[3]},
            "has_uint32": v[4],
            "uinteger": v[5],
        }


def learning_rate(it: int, cfg: dict) -> float:
    """The learning rate of iteration ``it``: linear warmup over ``warmup_iters``, then a
    cosine decay to ``min_lr`` at ``lr_decay_iters`` (``minigrad.optim.cosine_lr``)."""
    return cosine_lr(it, float(cfg["lr"]), int(cfg["warmup_iters"]), int(cfg["lr_decay_iters"]),
                     float(cfg["min_lr"]))


def micro_step(model, grad_accum: int, captured: bool = True):
    """``step(x, y) -> loss``: one micro-batch's forward (no logits: the head and the loss run
    as one op that never keeps the (B, T, V) logits or their gradient, GPT.forward's
    return_logits) and the backward of loss / grad_accum, which adds into ``.grad``;
    wrapped in ``minigrad.capture`` when ``captured``."""

    def step(x: np.ndarray, y: np.ndarray):
        _, loss = model(minigrad.tensor(x), minigrad.tensor(y), return_logits=False)
        (loss if grad_accum == 1 else loss / grad_accum).backward()
        return loss

    return minigrad.capture(step) if captured else step


def train_step(model, opt, params: list, sampler: BatchSampler, lr: float, grad_clip: float,
               it: int, world: World = SINGLE, grad_accum: int = 1, step=None) -> float:
    """One optimizer step on ``grad_accum`` fresh micro-batches: forward, backward (each
    loss / grad_accum), clip, AdamW; returns the mean loss (in a data-parallel run: of this
    rank's rows, averaged over the ranks). ``step``: the micro-batch's forward and backward
    (:func:`micro_step`; None: eager, which a data-parallel run takes, since its backward
    overlaps the gradients' reduction).

    Raises NonFiniteLoss (before any parameter changes) if a loss or the gradient norm
    is not finite.
    """
    total = 0.0
    for micro in range(grad_accum):
        x, y = world.split(sampler.sample())
        if step is not None:
            loss_value = step(x, y).item()
        else:
            _, loss = model(minigrad.tensor(x), minigrad.tensor(y), return_logits=False)
            loss_value = world.mean(loss.item())
        if not math.isfinite(loss_value):
            raise NonFiniteLoss(f"the loss became {loss_value} at iteration {it + 1}")
        total += loss_value
        if step is None:
            with world.no_sync(model, last=micro == grad_accum - 1):
                (loss if grad_accum == 1 else loss / grad_accum).backward()
    world.finish_gradients(model)
    if grad_clip > 0:
        norm = float(clip_grad_norm_(params, grad_clip))
        if not math.isfinite(norm):
            raise NonFiniteLoss(f"the gradient norm became {norm} at iteration {it + 1}")
    for group in opt.param_groups:
        group["lr"] = lr
    opt.step()
    opt.zero_grad()
    return total / grad_accum


def train_loop(run: Run) -> int | None:
    """The training loop: evaluate and checkpoint every eval_interval steps (and at the
    end), stop cleanly on a signal, else take one optimizer step.

    Returns None when the run reached max_iters (the caller then reports it), else the exit
    code of an early end: 1 a non-finite loss or weight (the last good checkpoint kept),
    128 + the signal number when interrupted (ckpt_last.npz saved, the resume command
    printed).
    """
    cfg, state, world, progress = run.cfg, run.state, run.world, run.progress
    grad_clip, grad_accum, params = float(cfg["grad_clip"]), int(cfg["grad_accum"]), run.params
    eval_interval, max_iters = int(cfg["eval_interval"]), run.max_iters
    step = micro_step(run.net, grad_accum) if world.size == 1 and getattr(run.args, "capture", True) \
        else None
    stop = StopFlag()
    try:
        with stop.installed():
            while True:
                it = state.iteration
                signum = world.agreed_signal(stop.signum)  # every rank stops at the same step
                if signum is not None:
                    return run.interrupted(signum)
                # a resumed run does not redo the evaluation its checkpoint holds
                if ((it % eval_interval == 0 or it == max_iters)
                        and it != state.last_eval_iter):
                    run.evaluate(it)  # loss estimates, metrics.jsonl, checkpoints
                if it >= max_iters:
                    return None
                t0 = time.perf_counter()
                lr = learning_rate(it, cfg)
                loss = train_step(run.net, run.opt, params, run.sampler, lr, grad_clip, it,
                                  world, grad_accum, step)
                seconds = time.perf_counter() - t0
                state.iteration += 1
                state.train_losses.append(loss)
                state.step_ms.append(seconds * 1000.0)
                progress.record_time(seconds)
                progress.update(state.iteration, loss, lr)
                if state.iteration == run.interrupt_at:  # the tests' Ctrl-C at a known step
                    os.kill(os.getpid(), signal.SIGINT)
    except NonFiniteLoss as e:
        return run.failed(e)


def profile_steps(model, opt, params: list, sampler: BatchSampler, cfg: dict, n: int) -> None:
    """Run one untimed step (Numba loads its kernels), then profile ``n`` training steps
    and print the per-op table (minigrad.profile). Nothing is saved."""
    grad_clip, accum = float(cfg["grad_clip"]), int(cfg.get("grad_accum", 1))
    train_step(model, opt, params, sampler, float(cfg["lr"]), grad_clip, 0, SINGLE, accum)
    with minigrad.profile() as prof:
        for it in range(1, n + 1):
            train_step(model, opt, params, sampler, float(cfg["lr"]), grad_clip, it, SINGLE,
                       accum)
    per_step = prof.wall_s / n * 1000.0
    print(f"profiled {n} training steps after 1 untimed step: {per_step:.1f} ms/step")
    print(prof.table())

"""One optimizer step of the trainer, with gradient accumulation; and ``--profile``.

With ``grad_accum`` = N the step draws N micro-batches of (B, T) one after the other and
back-propagates each one's loss divided by N, so the gradients add up to those of the mean
loss over all N * B rows: the step is the step of one N-times-larger batch (to float
rounding; ``tests/train/test_finetune.py`` holds the two equal in float64), in the memory of one
micro-batch. In a data-parallel run the ranks average their gradients once, after the last
micro-batch (DistributedDataParallel.no_sync for the others).
"""

from __future__ import annotations

import math

import minigrad
from minigrad.optim import clip_grad_norm_

from .data import BatchSampler
from .distributed_run import SINGLE, World
from .safety import NonFiniteLoss


def train_step(model, opt, params: list, sampler: BatchSampler, lr: float, grad_clip: float,
               it: int, world: World = SINGLE, grad_accum: int = 1) -> float:
    """One optimizer step on ``grad_accum`` fresh micro-batches: forward, backward (each
    loss / grad_accum), clip, AdamW; returns the mean loss (in a data-parallel run: of this
    rank's rows, averaged over the ranks).

    Raises NonFiniteLoss (before any parameter changes) if a loss or the gradient norm
    is not finite.
    """
    total = 0.0
    for micro in range(grad_accum):
        x, y = world.split(sampler.sample())
        # no logits: the head and the loss run as one op that never keeps the (B, T, V)
        # logits or their gradient (GPT.forward's return_logits)
        _, loss = model(minigrad.tensor(x), minigrad.tensor(y), return_logits=False)
        loss_value = world.mean(loss.item())
        if not math.isfinite(loss_value):
            raise NonFiniteLoss(f"the loss became {loss_value} at iteration {it + 1}")
        total += loss_value
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


def profile_steps(model, opt, params: list, sampler: BatchSampler, cfg: dict, n: int) -> None:
    """Run one warm-up step (Numba loads its kernels), then profile ``n`` training steps
    and print the per-op table (minigrad.profile). Nothing is saved."""
    grad_clip, accum = float(cfg["grad_clip"]), int(cfg.get("grad_accum", 1))
    train_step(model, opt, params, sampler, float(cfg["lr"]), grad_clip, 0, SINGLE, accum)
    with minigrad.profile() as prof:
        for it in range(1, n + 1):
            train_step(model, opt, params, sampler, float(cfg["lr"]), grad_clip, it, SINGLE,
                       accum)
    per_step = prof.wall_s / n * 1000.0
    print(f"profiled {n} training steps after 1 warm-up step: {per_step:.1f} ms/step")
    print(prof.table())

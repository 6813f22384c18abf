"""What each rank runs in tests/distributed/test_distributed.py
(``mpiexec -n 2 python ddp_worker.py ...``).

Scenarios (first argument):
  train OUT DTYPE STEPS ACCUMULATE   DDP-train a small GPT; each rank writes OUT.rank<r>.npz
  unused OUT                         branches a, b, c: rank 0 uses a and b, rank 1 only a;
                                     each rank writes its gradients to OUT.rank<r>.npz
  mismatch OUT                       rank 1 builds a different model: DDP must refuse;
                                     each rank writes its message to OUT.rank<r>.txt
  raise                              rank 1 raises after a step: every rank must stop
  kill TIMEOUT                       rank 1 SIGKILLs itself after a step
  hang TIMEOUT                       rank 1 never joins the collective: rank 0's deadline
The single-process reference is computed by the test with the same functions (``reference``).
"""

from __future__ import annotations

import os
import signal
import sys
import time

import numpy as np

import minigrad
from minigrad import distributed as dist
from minigrad import models, nn, optim

GLOBAL_BATCH, BLOCK, VOCAB = 4, 8, 16
# AdamW's eps, larger than its 1e-8 default: in float32, a weight whose gradient is near zero
# (~1e-7) sees it with a relative rounding error of ~10%, which the default eps lets AdamW turn
# into a step difference of ~1e-3 lr: correct both ways, yet no 1e-6 comparison could hold.
# With eps 1e-3 a step moves at most lr/eps times a gradient difference.
EPS = 1e-3


def make_model(seed: int, dtype: str, n_embd: int = 16) -> models.GPT:
    """A small GPT, its weights drawn from ``seed``. Without biases: the key projection's bias
    has a gradient of exactly zero in exact arithmetic (it adds the same q.b to every score of
    a row, which softmax ignores), so its float gradient is rounding noise, which AdamW
    normalises into steps of size lr that no tolerance can compare."""
    minigrad.manual_seed(seed)
    model = models.GPT(vocab_size=VOCAB, block_size=BLOCK, n_layer=2, n_head=2, n_embd=n_embd,
                       bias=False)
    return model.to(np.dtype(dtype))


def global_batch(step: int) -> tuple[np.ndarray, np.ndarray]:
    """Step ``step``'s global batch of token ids (B, T): the same on every rank."""
    rng = np.random.default_rng(1000 + step)
    return (rng.integers(0, VOCAB, (GLOBAL_BATCH, BLOCK)),
            rng.integers(0, VOCAB, (GLOBAL_BATCH, BLOCK)))


def flat_grads(model) -> dict[str, np.ndarray]:
    return {f"grad/{n}": p.grad.numpy().copy() for n, p in model.named_parameters()}


def train(model, steps: int, rank: int, world: int, accumulate: bool = False,
          ddp: dist.DistributedDataParallel | None = None) -> dict[str, np.ndarray]:
    """AdamW steps on this rank's rows; returns each step's gradients and the final weights.
    ``accumulate``: two micro-batches per step, the first under no_sync()."""
    net = ddp if ddp is not None else model
    opt = optim.AdamW(model.parameters(), lr=1e-2, eps=EPS)
    out: dict[str, np.ndarray] = {}
    for step in range(steps):
        x, y = dist.split_batch(global_batch(step), rank, world)
        opt.zero_grad()
        if accumulate:
            half = len(x) // 2
            with ddp.no_sync():
                net(x[:half], y[:half])[1].__mul__(0.5).backward()
            local = flat_grads(model)
            sums = np.array([float(np.abs(v).sum()) for v in local.values()])
            # no communication inside no_sync: the ranks' gradients differ (other rows), so
            # the largest and the smallest rank's sums differ
            out[f"nosync_differs/{step}"] = np.array(
                not np.allclose(dist.all_reduce(sums.copy(), "max"),
                                dist.all_reduce(sums.copy(), "min")))  # in place: copies
            x, y = x[half:], y[half:]
            net(x, y)[1].__mul__(0.5).backward()
        else:
            net(x, y)[1].backward()
        if ddp is not None:
            ddp.finish_gradient_sync()
        for k, v in flat_grads(model).items():
            out[f"{k}/{step}"] = v
        opt.step()
    for n, p in model.named_parameters():
        out[f"weight/{n}"] = p.numpy().copy()
    return out


def reference(dtype: str, steps: int) -> dict[str, np.ndarray]:
    """One process, the whole global batch, rank 0's initial weights."""
    return train(make_model(1, dtype), steps, rank=0, world=1)


class Branches(nn.Module):
    """Three Linear branches a, b, c (float64), weights drawn from ``seed``; ``forward(x,
    use)`` is the mean square of the sum of the branches named in ``use``."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        minigrad.manual_seed(seed)
        self.a, self.b, self.c = (nn.Linear(3, 2, dtype=np.float64) for _ in range(3))

    def forward(self, x, use: str):
        return sum(getattr(self, k)(x) for k in use).pow(2).mean()


def branch_rows(rank: int) -> np.ndarray:
    return np.random.default_rng(10 + rank).standard_normal((4, 3))


USES = ("ab", "a")  # rank 0's branches, rank 1's: c is used by no rank


def main() -> None:
    scenario = sys.argv[1]
    timeout = float(sys.argv[2]) if scenario in ("hang", "kill") else 120.0
    dist.init_process_group(timeout=timeout)
    rank, world = dist.get_rank(), dist.get_world_size()
    if scenario == "train":
        out, dtype, steps, accumulate = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
        model = make_model(1 + rank, dtype)  # seeded differently: DDP must broadcast rank 0's
        ddp = dist.DistributedDataParallel(model, bucket_cap_mb=0.01)  # several buckets
        result = train(model, steps, rank, world, accumulate == "1", ddp)
        result["n_buckets"] = np.array(len(ddp._buckets))
        np.savez(f"{out}.rank{rank}.npz", **result)
    elif scenario == "unused":
        model = Branches(1)
        ddp = dist.DistributedDataParallel(model)
        ddp(minigrad.tensor(branch_rows(rank)), USES[rank]).backward()
        ddp.finish_gradient_sync()
        np.savez(f"{sys.argv[2]}.rank{rank}.npz", **{
            n: p.grad.numpy() for n, p in model.named_parameters() if p.grad is not None})
    elif scenario == "mismatch":
        try:
            dist.DistributedDataParallel(make_model(1, "float32", n_embd=16 + 8 * rank))
        except dist.DistributedError as e:
            # a file per rank: two ranks' lines on mpiexec's one stdout can interleave
            with open(f"{sys.argv[2]}.rank{rank}.txt", "w") as f:
                print(f"rank {rank} refused: {e}", file=f)
    elif scenario in ("raise", "kill", "hang"):
        ddp = dist.DistributedDataParallel(make_model(1, "float32"))
        for step in range(1000):
            if rank == 1 and step == 2:
                if scenario == "raise":
                    raise ValueError("a deliberate failure on rank 1")
                if scenario == "kill":
                    os.kill(os.getpid(), signal.SIGKILL)
                time.sleep(3600)  # hang: never joins the next collective
            x, y = dist.split_batch(global_batch(step), rank, world)
            ddp(x, y)[1].backward()
            dist.all_reduce(1.0)
        print("rank", rank, "finished although rank 1 failed", flush=True)


if __name__ == "__main__":
    main()

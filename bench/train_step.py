"""One GPT training step in minigrad beside the same step in PyTorch, timed in one run.

    python bench/train_step.py                    # configs small and baby (~1 min)
    python bench/train_step.py --config medium    # the 10.7M-parameter model (slow)
    python bench/train_step.py --config all --steps 20 --no-torch

A training step is what a training loop does per iteration: forward pass and
mean cross-entropy loss, backward pass, clip the gradients' global norm to
1.0, one AdamW step (lr 1e-3, betas (0.9, 0.99), weight decay 0.1 on the 2-D
weights only, as nanoGPT's ``configure_optimizers``), zero the gradients.

The contenders, built with identical sizes (``common.CONFIGS``) and started
from the *same* weights (the PyTorch models copy minigrad's nanoGPT-style
initialisation), fed the same random batches:

- ``minigrad``: ``models.GPT`` with ``configure_optimizers``, its forward and backward a
  captured step (``minigrad.capture``, as ``minigrad-train`` runs it: recorded on two
  calls, then replayed);
- ``minigrad-eager`` (with ``--eager-too``): the same step run eagerly, every op through
  ``Function.apply`` and the engine's walk;
- ``torch``: a nanoGPT-equivalent model written below (pre-LN blocks, one
  fused (C, 3C) q/k/v projection, attention written out as a softmax of the
  causally masked scores, as nanoGPT does without flash attention, 4x MLP
  with exact GELU, tied head), ``torch.optim.AdamW`` with its CPU defaults,
  ``torch.set_num_threads(2)``;
- ``torch-sdpa`` (unless ``--no-sdpa``): the same with
  ``F.scaled_dot_product_attention(is_causal=True)``, PyTorch's fused kernel.

Without PyTorch installed (or with ``--no-torch``) only minigrad is timed.

How they are timed: each contender lives in a process of its own
(``worker.py``: two frameworks' thread pools in one process take the cores
from each other), and the contenders take turns: minigrad runs
``--run-length`` back-to-back steps, then torch, then torch-sdpa, then the
matmul peak is sampled, and round again. Back to back is how a training loop
runs its steps; each turn starts after a ``--pause`` (the previous process's
threads stop spinning) with one untimed step that wakes the process's threads.
Taking turns means a burst of load from elsewhere slows every contender alike.
``--warmup`` steps per contender go first, untimed. ``--one-process`` keeps the
older design instead: every contender in this process, one step per turn with
a pause before each. Printed per contender: median ms/step,
tokens/s, and MFU = (FLOPs/step / median step time) / matmul peak, where
FLOPs/step is nanoGPT's estimate (6 N + 12 L H Q T per token) and the peak
is the best float32 ``numpy.matmul`` GFLOP/s on the model's projection shapes,
sampled once per round in the same loop. Also printed: the step's matmul
floor (every matmul of a step, each timed alone with ``numpy.matmul``) and
the losses, which should agree, since every contender does the same math.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from functools import partial
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np
from common import (
    CONFIGS,
    BenchConfig,
    MatmulPeak,
    flops_per_step,
    interleaved_times,
    load_line,
    machine_line,
    median,
    non_embedding_params,
    time_call,
    time_the_fast_kernels,
)
from worker import Worker

LEARNING_RATE = 1e-3
BETAS = (0.9, 0.99)
WEIGHT_DECAY = 0.1
GRAD_CLIP = 1.0
DEFAULT_STEPS = {"small": 30, "baby": 20, "medium": 3, "gpt2": 2, "thin": 60}
DEFAULT_RUN_LENGTH = {"small": 10, "baby": 5, "medium": 1, "gpt2": 1, "thin": 10}


def make_batches(cfg: BenchConfig, count: int, seed: int = 0) -> list[tuple[np.ndarray, ...]]:
    """``count`` (inputs, targets) pairs of random token ids, each int64 (B, T)."""
    rng = np.random.default_rng(seed)
    shape = (cfg.batch_size, cfg.block_size)
    return [(rng.integers(0, cfg.vocab_size, shape), rng.integers(0, cfg.vocab_size, shape))
            for _ in range(count)]


class MinigradTrainer:
    """minigrad's GPT of ``cfg`` with its AdamW; :meth:`step` is one training step."""

    def __init__(self, cfg: BenchConfig, seed: int = 0, captured: bool = True) -> None:
        import minigrad
        from minigrad import models
        from minigrad.optim import clip_grad_norm_

        minigrad.manual_seed(seed)
        self.model = models.GPT(cfg.vocab_size, cfg.block_size, cfg.n_layer, cfg.n_head,
                                cfg.n_embd, dropout=0.0, bias=True, tie_weights=True)
        self.optimizer = self.model.configure_optimizers(WEIGHT_DECAY, LEARNING_RATE, BETAS)
        self._clip = clip_grad_norm_
        self.losses: list[float] = []

        def forward_backward(x: np.ndarray, y: np.ndarray) -> Any:
            _, loss = self.model(x, y, return_logits=False)  # as minigrad-train's step
            loss.backward()
            return loss

        self._forward_backward = (minigrad.capture(forward_backward) if captured
                                  else forward_backward)

    def num_non_embedding_params(self) -> int:
        """N, each tied weight once, the position table left out."""
        return self.model.num_parameters(non_embedding=True)

    def step(self, x: np.ndarray, y: np.ndarray) -> float:
        """forward + loss, backward, clip to 1.0, AdamW step, zero grads; returns the loss."""
        loss = self._forward_backward(x, y)
        self._clip(self.model.parameters(), GRAD_CLIP)
        self.optimizer.step()
        self.optimizer.zero_grad()
        value = loss.item()
        self.losses.append(value)
        return value


def define_torch_gpt() -> type:
    """The nanoGPT-equivalent PyTorch GPT class (imports torch, so only called when wanted)."""
    import torch
    from torch import nn
    from torch.nn import functional as F

    class CausalSelfAttention(nn.Module):
        """(B, T, C) -> (B, T, C): one (C, 3C) projection to q, k, v, then per head
        softmax(mask(q k^T / sqrt(Q))) v, or PyTorch's fused SDPA kernel."""

        def __init__(self, cfg: BenchConfig, sdpa: bool, bias: bool) -> None:
            super().__init__()
            self.n_head, self.sdpa = cfg.n_head, sdpa
            self.c_attn = nn.Linear(cfg.n_embd, 3 * cfg.n_embd, bias=bias)
            self.c_proj = nn.Linear(cfg.n_embd, cfg.n_embd, bias=bias)
            t = cfg.block_size
            self.register_buffer("causal", torch.tril(torch.ones(t, t, dtype=torch.bool)))

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            b, t, c = x.shape
            q, k, v = self.c_attn(x).split(c, dim=2)
            q, k, v = (z.view(b, t, self.n_head, c // self.n_head).transpose(1, 2)
                       for z in (q, k, v))                        # (B, H, T, Q)
            if self.sdpa:
                y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            else:
                att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
                att = att.masked_fill(~self.causal[:t, :t], float("-inf"))
                y = F.softmax(att, dim=-1) @ v
            return self.c_proj(y.transpose(1, 2).contiguous().view(b, t, c))

    class Block(nn.Module):
        """x = x + attn(ln_1(x)); x = x + mlp(ln_2(x)), MLP = Linear(C,4C) GELU Linear(4C,C)."""

        def __init__(self, cfg: BenchConfig, sdpa: bool, bias: bool) -> None:
            super().__init__()
            c = cfg.n_embd
            self.ln_1 = nn.LayerNorm(c, bias=bias)
            self.attn = CausalSelfAttention(cfg, sdpa, bias)
            self.ln_2 = nn.LayerNorm(c, bias=bias)
            self.c_fc = nn.Linear(c, 4 * c, bias=bias)
            self.gelu = nn.GELU()
            self.c_proj = nn.Linear(4 * c, c, bias=bias)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            x = x + self.attn(self.ln_1(x))
            return x + self.c_proj(self.gelu(self.c_fc(self.ln_2(x))))

    class GPT(nn.Module):
        """nanoGPT's GPT without dropout (the benchmarks use dropout 0.0): tied head,
        N(0, 0.02) init, residual projections scaled by 1/sqrt(2 n_layer), zero biases
        (``bias=False``: no biases in Linear and LayerNorm, nanoGPT's default)."""

        def __init__(self, cfg: BenchConfig, sdpa: bool = False, bias: bool = True) -> None:
            super().__init__()
            self.cfg = cfg
            self.wte = nn.Embedding(cfg.vocab_size, cfg.n_embd)
            self.wpe = nn.Embedding(cfg.block_size, cfg.n_embd)
            self.h = nn.ModuleList([Block(cfg, sdpa, bias) for _ in range(cfg.n_layer)])
            self.ln_f = nn.LayerNorm(cfg.n_embd, bias=bias)
            self.lm_head = nn.Linear(cfg.n_embd, cfg.vocab_size, bias=False)
            self.lm_head.weight = self.wte.weight
            for name, p in self.named_parameters():
                if p.dim() == 2:  # Linear weights and the two embeddings; residual writers less
                    resid = name.endswith("c_proj.weight")
                    nn.init.normal_(p, 0.0, 0.02 / math.sqrt(2 * cfg.n_layer) if resid else 0.02)
            for m in self.modules():
                if isinstance(m, nn.Linear) and m.bias is not None:
                    nn.init.zeros_(m.bias)

        def forward(self, idx: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
            """Mean cross-entropy of the next-token logits of idx (B, T) against targets."""
            t = idx.size(1)
            x = self.wte(idx) + self.wpe(torch.arange(t))
            for block in self.h:
                x = block(x)
            logits = self.lm_head(self.ln_f(x))
            return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))

    return GPT


def nanogpt_weights(mg_model: Any) -> dict[str, np.ndarray]:
    """The minigrad GPT's weights under the PyTorch GPT's parameter names (``c_attn`` is
    minigrad's packed ``in_proj_weight``), so the PyTorch model can start from the same
    function."""
    def cat(*params: Any) -> np.ndarray:
        return np.concatenate([p.data for p in params], axis=0)

    weights = {"wte.weight": cat(mg_model.wte.weight), "wpe.weight": cat(mg_model.wpe.weight),
               "ln_f.weight": cat(mg_model.ln_f.weight), "ln_f.bias": cat(mg_model.ln_f.bias)}
    for i, mb in enumerate(mg_model.blocks):
        a = mb.attn
        for key, params in {
            "ln_1.weight": [mb.ln_1.weight], "ln_1.bias": [mb.ln_1.bias],
            "attn.c_attn.weight": [a.in_proj_weight], "attn.c_attn.bias": [a.in_proj_bias],
            "attn.c_proj.weight": [a.out_proj.weight], "attn.c_proj.bias": [a.out_proj.bias],
            "ln_2.weight": [mb.ln_2.weight], "ln_2.bias": [mb.ln_2.bias],
            "c_fc.weight": [mb.mlp.fc.weight], "c_fc.bias": [mb.mlp.fc.bias],
            "c_proj.weight": [mb.mlp.proj.weight], "c_proj.bias": [mb.mlp.proj.bias],
        }.items():
            weights[f"h.{i}.{key}"] = cat(*params)
    return weights


class TorchTrainer:
    """The PyTorch GPT of ``cfg`` with ``torch.optim.AdamW`` (nanoGPT's two groups)."""

    def __init__(self, cfg: BenchConfig, sdpa: bool = False,
                 init_weights: dict[str, np.ndarray] | None = None, seed: int = 0,
                 threads: int = 2) -> None:
        import torch

        torch.set_num_threads(threads)
        torch.manual_seed(seed)
        self._torch = torch
        self.model = define_torch_gpt()(cfg, sdpa)
        if init_weights is not None:
            params = dict(self.model.named_parameters())  # the tied weight once, as wte
            if params.keys() != init_weights.keys():
                raise ValueError(f"weights do not match the PyTorch GPT: missing "
                                 f"{sorted(params.keys() - init_weights.keys())}, unexpected "
                                 f"{sorted(init_weights.keys() - params.keys())}")
            with torch.no_grad():
                for name, p in params.items():
                    p.copy_(torch.from_numpy(init_weights[name]))
        params = list(self.model.parameters())  # the tied weight appears once
        groups = [{"params": [p for p in params if p.dim() >= 2], "weight_decay": WEIGHT_DECAY},
                  {"params": [p for p in params if p.dim() < 2], "weight_decay": 0.0}]
        self.optimizer = torch.optim.AdamW(groups, lr=LEARNING_RATE, betas=BETAS)
        self.losses: list[float] = []

    def num_non_embedding_params(self) -> int:
        """N as nanoGPT counts it (position table left out)."""
        return sum(p.numel() for p in self.model.parameters()) - self.model.wpe.weight.numel()

    def step(self, x: np.ndarray, y: np.ndarray) -> float:
        """forward + loss, backward, clip to 1.0, AdamW step, zero grads; returns the loss."""
        torch = self._torch
        loss = self.model(torch.from_numpy(x), torch.from_numpy(y))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), GRAD_CLIP)
        self.optimizer.step()
        self.optimizer.zero_grad(set_to_none=True)
        value = loss.item()
        self.losses.append(value)
        return value


def torch_version() -> str | None:
    """PyTorch's version, or None when it is not installed."""
    try:
        import torch
    except ImportError:
        return None
    return torch.__version__


class Contender:
    """One framework's trainer and its batches; :meth:`run` times consecutive steps."""

    def __init__(self, name: str, cfg: BenchConfig, batches: int,
                 init_weights: dict[str, np.ndarray] | None = None, torch_threads: int = 2) -> None:
        if name.startswith("minigrad"):
            self.trainer: Any = MinigradTrainer(cfg, captured=name == "minigrad")
        else:
            self.trainer = TorchTrainer(cfg, name == "torch-sdpa", init_weights,
                                        threads=torch_threads)
        self.batches = make_batches(cfg, batches)

    def run(self, count: int) -> list[float]:
        """Seconds of each of ``count`` back-to-back training steps (as a training loop runs)."""
        times = []
        for _ in range(count):
            x, y = self.batches[len(self.trainer.losses) % len(self.batches)]
            times.append(time_call(lambda: self.trainer.step(x, y)))  # noqa: B023
        return times

    def losses(self) -> list[float]:
        """The loss of every step so far."""
        return self.trainer.losses

    def initial_weights(self) -> dict[str, np.ndarray]:
        """minigrad's current weights under the PyTorch GPT's names (see nanogpt_weights)."""
        return nanogpt_weights(self.trainer.model)

    def num_non_embedding_params(self) -> int:
        """N of this framework's model, as nanoGPT counts it."""
        return self.trainer.num_non_embedding_params()


def time_in_processes(cfg: BenchConfig, names: list[str], steps: int, run_length: int,
                      warmup: int, pause: float, torch_threads: int
                      ) -> tuple[dict[str, list[float]], dict[str, list[float]], dict[str, int],
                                 tuple[float, str], float]:
    """Each contender (and the matmul peak) in a process of its own; runs of
    ``run_length`` back-to-back steps alternate between them, each run after a
    ``pause`` and one untimed step that wakes the process's threads.

    Returns (step seconds, losses, N per contender, (peak GFLOP/s, shape), floor seconds).
    """
    batches = warmup + steps + math.ceil(steps / run_length)
    workers = {"minigrad": Worker(Contender, "minigrad", cfg, batches)}
    try:
        weights = workers["minigrad"].call("initial_weights")
        for name in names[1:]:
            workers[name] = Worker(Contender, name, cfg, batches, weights, torch_threads)
        peak = Worker(MatmulPeak, cfg)
        workers["peak"] = peak
        contenders = {name: w for name, w in workers.items() if name != "peak"}
        for w in contenders.values():
            if warmup:
                w.call("run", warmup)
        times: dict[str, list[float]] = {name: [] for name in contenders}
        while len(times["minigrad"]) < steps:
            count = min(run_length, steps - len(times["minigrad"]))
            for name, w in contenders.items():
                time.sleep(pause)
                times[name] += w.call("run", 1 + count)[1:]
            time.sleep(pause)
            peak.call("sample")
        losses = {name: w.call("losses") for name, w in contenders.items()}
        params = {name: w.call("num_non_embedding_params") for name, w in contenders.items()}
        return times, losses, params, peak.call("peak_gflops"), peak.call("floor_seconds")
    finally:
        for w in workers.values():
            w.close()


def time_in_one_process(cfg: BenchConfig, names: list[str], steps: int, warmup: int,
                        pause: float, torch_threads: int
                        ) -> tuple[dict[str, list[float]], dict[str, list[float]], dict[str, int],
                                   tuple[float, str], float]:
    """Every contender in this process, one step each in turn with a ``pause`` before
    each (the threads of one framework would otherwise slow the next); same returns
    as :func:`time_in_processes`."""
    contenders = {"minigrad": Contender("minigrad", cfg, warmup + steps)}
    weights = contenders["minigrad"].initial_weights()
    for name in names[1:]:
        contenders[name] = Contender(name, cfg, warmup + steps, weights, torch_threads)
    peak = MatmulPeak(cfg)
    times = interleaved_times({name: partial(c.run, 1) for name, c in contenders.items()},
                              rounds=steps, warmup=warmup, between=peak.sample, pause=pause)
    losses = {name: c.losses() for name, c in contenders.items()}
    params = {name: c.num_non_embedding_params() for name, c in contenders.items()}
    return times, losses, params, peak.peak_gflops(), peak.floor_seconds()


def run_config(cfg: BenchConfig, steps: int, warmup: int, use_torch: bool, sdpa: bool,
               torch_threads: int, pause: float, run_length: int, one_process: bool,
               eager_too: bool = False) -> dict[str, float]:
    """Time every contender on ``cfg``, print the figures; return median seconds per step."""
    names = ["minigrad"] + (["minigrad-eager"] if eager_too else []) + \
        (["torch"] + (["torch-sdpa"] if sdpa else []) if use_torch else [])
    if one_process:
        times, losses, params, peak_gflops, floor = time_in_one_process(
            cfg, names, steps, warmup, pause, torch_threads)
        how = f"one step each in turn in this process, {pause:g} s pause before each"
    else:
        times, losses, params, peak_gflops, floor = time_in_processes(
            cfg, names, steps, run_length, warmup, pause, torch_threads)
        how = (f"a process each, runs of {run_length} back-to-back steps in turn "
               f"(+1 untimed), {pause:g} s pause before each run")
    peak_gflops, peak_shape = peak_gflops
    flops = flops_per_step(cfg)
    n_expected = non_embedding_params(cfg)

    print(f"\n[{cfg.name}] {cfg.describe()}")
    for name, n in params.items():
        if n != n_expected:
            print(f"  WARNING: {name} has N = {n:,} non-embedding parameters, expected "
                  f"{n_expected:,}: shapes differ")
    print(f"  N = {n_expected:,} non-embedding parameters; {cfg.tokens_per_step} tokens/step; "
          f"{flops / 1e9:.3f} GFLOP/step (6*N*tokens + attention)")
    print(f"  numpy.matmul peak {peak_gflops:.1f} GFLOP/s on {peak_shape}; the step's matmuls "
          f"alone take {floor * 1e3:.2f} ms (floor; MFU at the floor "
          f"{flops / floor / (peak_gflops * 1e9):.0%})")
    print(f"  {warmup} warm-up + {steps} timed steps each; {how}; {load_line()}")
    print(f"  {'contender':14s} {'ms/step':>10s} {'min':>9s} {'tokens/s':>10s} {'MFU':>6s}")
    medians = {}
    for name, ts in times.items():
        med = median(ts)
        medians[name] = med
        mfu = flops / med / (peak_gflops * 1e9)
        print(f"  {name:14s} {med * 1e3:10.2f} {min(ts) * 1e3:9.2f} "
              f"{cfg.tokens_per_step / med:10.0f} {mfu:6.1%}")
    if "minigrad-eager" in medians:
        print(f"  ratio minigrad (captured)/minigrad-eager: "
              f"{medians['minigrad'] / medians['minigrad-eager']:.2f}x")
    for ref in ("torch", "torch-sdpa"):
        if ref in medians:
            print(f"  ratio minigrad/{ref}: {medians['minigrad'] / medians[ref]:.2f}x "
                  f"(< 1 means minigrad is faster)")
    first_last = "  ".join(f"{name} {ls[0]:.4f} -> {ls[-1]:.4f}" for name, ls in losses.items())
    print(f"  loss, first -> last step: {first_last}")
    return medians


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and benchmark the chosen configs."""
    time_the_fast_kernels()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", choices=[*CONFIGS, "all"], default=None,
                        help="which model (default: small and baby)")
    parser.add_argument("--steps", type=int, default=None,
                        help="timed steps per contender (default: small 30, baby 20, medium 3)")
    parser.add_argument("--warmup", type=int, default=2, help="untimed steps first (default 2)")
    parser.add_argument("--no-torch", action="store_true", help="time minigrad only")
    parser.add_argument("--eager-too", action="store_true",
                        help="also time minigrad's step run eagerly (minigrad-eager)")
    parser.add_argument("--no-sdpa", action="store_true", help="skip the torch SDPA variant")
    parser.add_argument("--torch-threads", type=int, default=2, help="torch.set_num_threads")
    parser.add_argument("--run-length", type=int, default=None,
                        help="back-to-back timed steps per turn of a contender (default: "
                             "small 10, baby 5, medium 1)")
    parser.add_argument("--one-process", action="store_true",
                        help="time every contender in this process, one step per turn "
                             "(their thread pools then interfere; see the module doc)")
    parser.add_argument("--pause", type=float, default=0.15,
                        help="seconds of sleep before each turn, so one framework's "
                             "spinning worker threads do not slow the next (default 0.15)")
    args = parser.parse_args(argv)
    if args.steps is not None and args.steps < 1:
        parser.error(f"--steps must be >= 1, got {args.steps}")
    if args.warmup < 0:
        parser.error(f"--warmup must be >= 0, got {args.warmup}")
    if args.pause < 0:
        parser.error(f"--pause must be >= 0, got {args.pause}")
    if args.run_length is not None and args.run_length < 1:
        parser.error(f"--run-length must be >= 1, got {args.run_length}")
    if args.torch_threads < 1:
        parser.error(f"--torch-threads must be >= 1, got {args.torch_threads}")

    names = {None: ["small", "baby"], "all": list(CONFIGS)}.get(args.config, [args.config])
    version = None if args.no_torch else torch_version()
    print("Training step: forward + cross-entropy, backward, clip_grad_norm 1.0, AdamW, zero_grad")
    print(f"machine: {machine_line()}")
    if version is None:
        why = "--no-torch" if args.no_torch else "not installed; pip install '.[bench]'"
        print(f"PyTorch: not timed ({why})")
    else:
        print(f"PyTorch {version}, {args.torch_threads} threads; attention as softmax of masked "
              f"scores ('torch'){'' if args.no_sdpa else ' and fused SDPA (torch-sdpa)'}")
    for name in names:
        cfg = CONFIGS[name]
        steps = args.steps if args.steps is not None else DEFAULT_STEPS[name]
        run_length = args.run_length or DEFAULT_RUN_LENGTH[name]
        run_config(cfg, steps, args.warmup, version is not None, not args.no_sdpa,
                   args.torch_threads, args.pause, run_length, args.one_process, args.eager_too)


if __name__ == "__main__":
    main()

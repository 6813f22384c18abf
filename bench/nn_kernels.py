"""Benchmark: nn's fused ops against a straightforward NumPy composition.

Shapes are those of the small character GPT (batch 12 x block 64 = 768 rows,
width 128, 4 heads of 32, a 65-character vocabulary); GELU's tanh form also at GPT-2 124M's
MLP (4 x 256 rows, 3072 wide). Each case times
forward + backward through the minigrad op (one graph node, Numba/BLAS
kernels) and the same math written as plain NumPy array expressions, in the
same process, and prints the ratio (NumPy time / minigrad time; > 1 means
minigrad is faster). The goal is >= 2x.

    /tmp/venv/bin/python bench/nn_kernels.py [--repeat 200]

Timings are noisy on a shared machine: compare the ratios of one run. When
other processes load the cores, OpenBLAS's worker threads can stall each
matrix product for a whole scheduler tick (~20 ms); run with
``OPENBLAS_NUM_THREADS=1`` then, for figures that mean something.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

import minigrad as mg
from minigrad.nn import functional as F

B, T, C, H, V = 12, 64, 128, 4, 65
HS = C // H


def best_time(fn, repeat: int) -> float:
    """Median seconds per call after a warm-up (compiles the kernels)."""
    for _ in range(3):
        fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


# ---- LayerNorm -------------------------------------------------------------------
def layernorm_numpy(x, w, b, g, eps=1e-5):
    mu = x.mean(-1, keepdims=True)
    xc = x - mu
    var = (xc * xc).mean(-1, keepdims=True)
    rstd = 1.0 / np.sqrt(var + eps)
    xhat = xc * rstd
    y = xhat * w + b
    dxhat = g * w
    dx = rstd * (dxhat - dxhat.mean(-1, keepdims=True)
                 - xhat * (dxhat * xhat).mean(-1, keepdims=True))
    return y, dx, (g * xhat).sum(0), g.sum(0)


def layernorm_minigrad(x, w, b, g):
    x.grad = w.grad = b.grad = None
    y = F.layer_norm(x, (C,), w, b)
    y.backward(g)
    return y


# ---- GELU, tanh form (GPT-2's "gelu_new") ---------------------------------------------
def gelu_tanh_numpy(a, g):
    c = np.float32(math.sqrt(2 / math.pi))
    t = np.tanh(c * (a + np.float32(0.044715) * a * a * a))
    y = np.float32(0.5) * a * (1 + t)
    d = np.float32(0.5) * (1 + t) + np.float32(0.5) * a * (1 - t * t) * c * (
        1 + np.float32(3 * 0.044715) * a * a)
    return y, g * d


def gelu_tanh_minigrad(a, g):
    a.grad = None
    y = F.gelu(a, approximate="tanh")
    y.backward(g)
    return y


# ---- cross-entropy -----------------------------------------------------------------
def cross_entropy_numpy(z, t):
    m = z.max(-1, keepdims=True)
    e = np.exp(z - m)
    s = e.sum(-1, keepdims=True)
    rows = np.arange(z.shape[0])
    loss = (np.log(s[:, 0]) + m[:, 0] - z[rows, t]).mean()
    dz = e / s
    dz[rows, t] -= 1.0
    dz /= z.shape[0]
    return loss, dz


def cross_entropy_minigrad(z, t):
    z.grad = None
    loss = F.cross_entropy(z, t)
    loss.backward()
    return loss


# ---- attention ----------------------------------------------------------------------
def attention_numpy(q, k, v, g, mask):
    scale = 1.0 / math.sqrt(q.shape[-1])
    s = (q @ k.transpose(0, 1, 3, 2)) * scale
    s = np.where(mask, -np.inf, s)
    s = s - s.max(-1, keepdims=True)
    p = np.exp(s)
    p /= p.sum(-1, keepdims=True)
    out = p @ v
    dv = p.transpose(0, 1, 3, 2) @ g
    dp = g @ v.transpose(0, 1, 3, 2)
    ds = p * (dp - (dp * p).sum(-1, keepdims=True)) * scale
    dq = ds @ k
    dk = ds.transpose(0, 1, 3, 2) @ q
    return out, dq, dk, dv


def attention_minigrad(q, k, v, g):
    q.grad = k.grad = v.grad = None
    out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    out.backward(g)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=200)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    f32 = np.float32
    rows = []

    x = rng.standard_normal((B * T, C)).astype(f32)
    w = (1 + 0.1 * rng.standard_normal(C)).astype(f32)
    b = (0.1 * rng.standard_normal(C)).astype(f32)
    g = rng.standard_normal((B * T, C)).astype(f32)
    xt, wt, bt = (mg.tensor(a, requires_grad=True) for a in (x, w, b))
    rows.append((f"LayerNorm fwd+bwd ({B * T}x{C})",
                 best_time(lambda: layernorm_numpy(x, w, b, g), args.repeat),
                 best_time(lambda: layernorm_minigrad(xt, wt, bt, g), args.repeat)))

    z = (3 * rng.standard_normal((B * T, V))).astype(f32)
    t = rng.integers(0, V, B * T)
    zt = mg.tensor(z, requires_grad=True)
    rows.append((f"cross-entropy fwd+bwd ({B * T}x{V})",
                 best_time(lambda: cross_entropy_numpy(z, t), args.repeat),
                 best_time(lambda: cross_entropy_minigrad(zt, t), args.repeat)))

    q, k, v, go = (rng.standard_normal((B, H, T, HS)).astype(f32) for _ in range(4))
    mask = mg.causal_mask(T)
    qt, kt, vt = (mg.tensor(a, requires_grad=True) for a in (q, k, v))
    rows.append((f"causal attention fwd+bwd ({B},{H},{T},{HS})",
                 best_time(lambda: attention_numpy(q, k, v, go, mask), args.repeat),
                 best_time(lambda: attention_minigrad(qt, kt, vt, go), args.repeat)))

    for shape, repeat in (((B * T, 4 * C), args.repeat), ((4 * 256, 3072), max(5, args.repeat // 20))):
        a = rng.standard_normal(shape).astype(f32)
        ga = rng.standard_normal(shape).astype(f32)
        at = mg.tensor(a, requires_grad=True)
        rows.append((f"GELU tanh fwd+bwd ({shape[0]}x{shape[1]})",
                     best_time(lambda a=a, ga=ga: gelu_tanh_numpy(a, ga), repeat),
                     best_time(lambda at=at, ga=ga: gelu_tanh_minigrad(at, ga), repeat)))

    print(f"{'case':42s} {'numpy ms':>9s} {'minigrad ms':>12s} {'ratio':>7s}")
    for name, t_np, t_mg in rows:
        verdict = "meets 2x" if t_np / t_mg >= 2 else "below 2x"
        print(f"{name:42s} {t_np * 1e3:9.3f} {t_mg * 1e3:12.3f} {t_np / t_mg:6.2f}x  {verdict}")


if __name__ == "__main__":
    main()

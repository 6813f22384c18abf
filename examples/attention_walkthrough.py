"""Causal multi-head self-attention, one stage at a time, on the decoder-only post's example.

    python examples/attention_walkthrough.py

The post ("Transformers (Decoder-Only)", seeds 000/002) feeds a batch of 2 sequences of 6
tokens with 4-dimensional embeddings ("The sun dipped below the horizon" and ", painting the
sky with hues") through 2 attention heads of size 2. This script does the same with minigrad
Tensors and prints every intermediate tensor with its shape:

    q, k, v = x @ Wq.T, x @ Wk.T, x @ Wv.T        (2, 6, 2) per head
    scores  = q @ k.transpose(-2, -1)             (2, 6, 6)
    scaled  = scores / sqrt(head_size)            (2, 6, 6)
    masked  = scaled.masked_fill(j > i, -inf)     (2, 6, 6)   token i sees tokens 0..i only
    weights = softmax(masked, axis=-1)            (2, 6, 6)   each row sums to 1
    out     = weights @ v                         (2, 6, 2)
    heads concatenated                            (2, 6, 4)
    projection: concat @ Wo.T + bo                (2, 6, 4)

The post does not print its weight matrices, so part 1 draws them from a seeded generator
and finally checks that ``nn.MultiHeadAttention`` holding the same weights gives the same
output. Part 2 takes the query, keys and values the post prints for the token 'horizon'
(they are illustrative: no linear map sends the printed inputs to the printed keys and
values, as a least-squares fit shows) and reproduces its numbers, including a slip: the
softmax row the post prints belongs to the *unscaled* scores.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

import minigrad
from minigrad import Tensor, nn

TOKENS = [
    ["The", "sun", "dipped", "below", "the", "horizon"],
    [",", "painting", "the", "sky", "with", "hues"],
]

# The post's input after embedding + position, (batch 2, context 6, n_embd 4).
INPUT = [
    [[0.4553, 0.3277, 0.4210, 0.6628],
     [0.0874, 0.3216, 0.2850, 0.1438],
     [0.8880, 0.2221, 0.6271, 0.8234],
     [0.9180, 0.8070, 0.4281, 0.1977],
     [0.4874, 0.9018, 0.4258, 0.1630],
     [0.0441, 0.1988, 0.6751, 0.8757]],
    [[0.9347, 0.9255, 0.6341, 0.0567],
     [0.7656, 0.2911, 0.6161, 0.0123],
     [0.4200, 0.3295, 0.1863, 0.7694],
     [0.3197, 0.9724, 0.6066, 0.2184],
     [0.4521, 0.9276, 0.3951, 0.1281],
     [0.7899, 0.7894, 0.2245, 0.2889]],
]

# What the post prints for one head and the first sequence: the query of 'horizon' and the
# keys and values of all six tokens.
HORIZON_Q = [0.9100, 0.3448]
POST_K = [[0.0921, 0.9907], [0.5637, 0.7303], [0.1860, 0.4071],
          [0.8067, 0.1776], [0.7002, 0.6632], [0.9094, 0.3594]]
POST_V = [[0.5637, 0.4056], [0.9803, 0.0100], [0.4111, 0.3980],
          [0.6882, 0.9797], [0.5551, 0.7583], [0.3060, 0.2141]]
POST_SCORES = [0.4254, 0.7648, 0.3096, 0.7953, 0.8659, 0.9515]
POST_SOFTMAX = [0.1252, 0.1758, 0.1115, 0.1812, 0.1945, 0.2119]
POST_OUT = [0.5863, 0.4673]

N_EMBD, N_HEAD = 4, 2
HEAD_SIZE = N_EMBD // N_HEAD


def show(name: str, t: Tensor | np.ndarray, note: str = "") -> None:
    """Print a tensor's name, shape and values (4 decimals)."""
    a = t.data if isinstance(t, Tensor) else np.asarray(t)
    print(f"\n{name}  shape {tuple(a.shape)}" + (f"   # {note}" if note else ""))
    print(np.array2string(a, precision=4, suppress_small=True, floatmode="fixed",
                          max_line_width=100))


class Head(nn.Module):
    """One causal attention head as the post writes it: three bias-free Linear(4, 2)."""

    def __init__(self) -> None:
        super().__init__()
        self.query = nn.Linear(N_EMBD, HEAD_SIZE, bias=False)
        self.key = nn.Linear(N_EMBD, HEAD_SIZE, bias=False)
        self.value = nn.Linear(N_EMBD, HEAD_SIZE, bias=False)

    def forward(self, x: Tensor, label: str = "", verbose: bool = False) -> Tensor:
        """x (B, T, C) -> (B, T, head_size); with ``verbose`` prints every stage."""
        def say(name: str, t: Tensor, note: str = "") -> None:
            if verbose:
                show(f"{label}{name}", t, note)

        T = x.shape[1]
        q, k, v = self.query(x), self.key(x), self.value(x)           # (B, T, hs) each
        say("q = x @ Wq.T", q)
        say("k = x @ Wk.T", k)
        say("v = x @ Wv.T", v)
        scores = q @ k.transpose(-2, -1)                               # (B, T, T)
        say("scores = q @ k^T", scores, "row i: how well query i matches each key")
        scaled = scores * (HEAD_SIZE ** -0.5)
        say("scaled = scores / sqrt(head_size)", scaled,
            f"divide by sqrt({HEAD_SIZE}) so the softmax does not saturate as head_size grows")
        future = minigrad.causal_mask(T)                               # (T, T), True above diag
        masked = scaled.masked_fill(future, -math.inf)
        say("masked = scaled, -inf where key j > query i", masked,
            "a token may not look at later tokens")
        weights = minigrad.softmax(masked, axis=-1)
        say("weights = softmax(masked)", weights, "exp(-inf) = 0; each row sums to 1")
        out = weights @ v                                              # (B, T, hs)
        say("out = weights @ v", out, "each row: a weighted average of the value rows")
        return out


def part1(seed: int) -> None:
    """The whole multi-head attention on the post's input, with seeded weights."""
    print("=" * 78)
    print("Part 1: causal multi-head self-attention on the post's (2, 6, 4) input")
    print("=" * 78)
    x = minigrad.tensor(np.array(INPUT, dtype=np.float32))
    for b, words in enumerate(TOKENS):
        print(f"sequence {b}: " + " ".join(words))
    show("x (embeddings + positions)", x, "batch 2, 6 tokens, 4 dimensions")
    minigrad.manual_seed(seed)
    heads = [Head() for _ in range(N_HEAD)]
    proj = nn.Linear(N_HEAD * HEAD_SIZE, N_EMBD)
    for h, head in enumerate(heads):
        show(f"head {h}: Wq", head.query.weight, "(out=head_size, in=n_embd), y = x @ W.T")
    outs = [head(x, label=f"head {h}: ", verbose=True) for h, head in enumerate(heads)]
    cat = minigrad.cat(outs, axis=-1)
    show("heads concatenated", cat, "(2, 6, 2) + (2, 6, 2) along the last axis")
    y = proj(cat)
    show("projection: concat @ Wo.T + bo", y, "mixes what the heads found")

    # The library's layer computes the same thing with one (12, 4) matrix, in_proj_weight:
    # rows q | k | v, one (4, 4) block per role, and row block h of a role's block is head
    # h's matrix, so splitting the projection into 2 column blocks gives the heads.
    mha = nn.MultiHeadAttention(N_EMBD, N_HEAD, bias=True)
    mha.in_proj_weight.data[...] = np.concatenate([getattr(hd, attr).weight.data
                                                   for attr in ("query", "key", "value")
                                                   for hd in heads])
    mha.in_proj_bias.data[...] = 0.0
    mha.out_proj.weight.data[...] = proj.weight.data
    mha.out_proj.bias.data[...] = proj.bias.data
    y_mha = mha(x, is_causal=True)
    diff = float(np.abs(y_mha.data - y.data).max())
    print(f"\nnn.MultiHeadAttention with the same weights: max |difference| = {diff:.1e}")
    print(f"'horizon' (batch 0, token 5) after attention: {np.round(y.data[0, 5], 4)}")


def softmax_row(z: Tensor) -> Tensor:
    """softmax over the last axis (a minigrad op)."""
    return minigrad.softmax(z, axis=-1)


def part2() -> dict[str, np.ndarray]:
    """The post's 'horizon' row from its printed q, k, v; returns the computed rows."""
    print("\n" + "=" * 78)
    print("Part 2: the post's numbers for the token 'horizon' (head 0, first sequence)")
    print("=" * 78)
    x = np.array(INPUT[0], dtype=np.float64)
    k_post, v_post = np.array(POST_K), np.array(POST_V)
    fit_k = np.linalg.lstsq(x, k_post, rcond=None)[1]
    fit_v = np.linalg.lstsq(x, v_post, rcond=None)[1]
    print("The post's k and v are not x @ W.T for any W: the best least-squares fit leaves "
          f"squared residuals\n{np.round(fit_k, 3)} (k) and {np.round(fit_v, 3)} (v), so "
          "they are taken as printed.")

    q = minigrad.tensor([HORIZON_Q])                # (1, 2): the query of the last token
    k = minigrad.tensor(POST_K)                     # (6, 2)
    v = minigrad.tensor(POST_V)                     # (6, 2)
    show("q (horizon)", q)
    show("k", k)
    show("v", v)
    scores = q @ k.T                                # (1, 6); the last token sees all 6
    show("scores = q @ k^T", scores, f"post: {POST_SCORES}")
    scaled = scores * (HEAD_SIZE ** -0.5)
    show("scaled = scores / sqrt(2)", scaled)
    w_scaled = softmax_row(scaled)
    w_unscaled = softmax_row(scores)
    show("softmax(scaled)", w_scaled, "what the code the post shows computes")
    show("softmax(scores) -- unscaled", w_unscaled, f"post prints {POST_SOFTMAX}")
    out_scaled = w_scaled @ v
    out_unscaled = w_unscaled @ v
    out_printed = minigrad.tensor([POST_SOFTMAX]) @ v
    show("out = softmax(scaled) @ v", out_scaled, "the correct output row")
    show("out = softmax(scores) @ v", out_unscaled, "with the unscaled weights")
    show("out = (post's 4-decimal weights) @ v", out_printed, f"post prints {POST_OUT}")
    print(
        "\nThe softmax row the post prints matches the unscaled scores, not the scaled ones: "
        "its output\nrow [0.5863, 0.4673] is those rounded weights times v (unscaled exactly: "
        f"{fmt(out_unscaled)}).\nWith the 1/sqrt(head_size) scaling its own code applies, "
        f"'horizon' gets {fmt(out_scaled)}."
    )
    return {"scores": scores.data[0], "softmax_scaled": w_scaled.data[0],
            "softmax_unscaled": w_unscaled.data[0], "out_scaled": out_scaled.data[0],
            "out_unscaled": out_unscaled.data[0], "out_printed": out_printed.data[0]}


def fmt(t: Tensor) -> str:
    """'[0.5863, 0.4658]' for a (1, 2) tensor."""
    return "[" + ", ".join(f"{float(v):.4f}" for v in t.data.ravel()) + "]"


def main(argv: list[str] | None = None) -> None:
    """Run both parts."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=0,
                   help="seed for part 1's weights (the post does not give them)")
    args = p.parse_args(argv)
    part1(args.seed)
    part2()


if __name__ == "__main__":
    main()

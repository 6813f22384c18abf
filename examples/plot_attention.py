#!/usr/bin/env python
"""Draw what a trained character GPT attends to: one heatmap per layer and head.

    python examples/train_chars.py --max-iters 500          # writes out-chars/ckpt_best.npz
    python examples/plot_attention.py --prompt "ROMEO: But soft"
    python examples/plot_attention.py --checkpoint out-chars/ckpt_last.npz --out attn.png
    python examples/plot_attention.py --print               # numbers in the terminal instead

The script loads a checkpoint written by ``train_chars.py`` (its "model" state,
"config" and "vocab"), rebuilds the ``models.GPT`` it describes, encodes the
prompt with the checkpoint's vocabulary and runs it once with every
``nn.MultiHeadAttention`` recording its weights (``minigrad.viz.attention_weights``).

Heatmap (layer l, head h) at row i, column j is softmax(q_i . k_j / sqrt(d_head)):
how much position i (the query, a row) reads from position j (a key, a column)
when building its output. Rows sum to 1 and everything right of the diagonal
is 0, because a causal model may not look ahead. Prompts longer than the
model's block_size keep their last block_size characters.

Plotting needs matplotlib (``pip install -e ".[plot]"``); ``--print`` does not.
Exit codes: 0 done, 1 matplotlib missing, 2 bad arguments or checkpoint.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Any

import numpy as np

import minigrad
from minigrad import models
from minigrad.models.gpt import GPTConfig
from minigrad.viz import named_attention_weights

PLOT_HINT = 'matplotlib is not installed; get it with: pip install -e ".[plot]" (or use --print)'


class UsageError(ValueError):
    """A problem with the arguments or the checkpoint (exit code 2)."""


def _py(v: Any) -> Any:
    """A loaded 0-d array or NumPy scalar as a plain Python value."""
    return v.item() if isinstance(v, (np.ndarray, np.generic)) and np.ndim(v) == 0 else v


def load_model(path: Path) -> tuple[models.GPT, str]:
    """The GPT and vocabulary (a string, id = position) stored in a train_chars.py checkpoint."""
    if not path.is_file():
        raise UsageError(f"no checkpoint at {path} (train one with examples/train_chars.py)")
    try:
        ckpt = minigrad.load(str(path))
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise UsageError(f"cannot read checkpoint {path}: {e}") from None
    missing = {"model", "config", "vocab"} - set(ckpt) if isinstance(ckpt, dict) else {"all"}
    if missing:
        raise UsageError(f"{path} is not a train_chars.py checkpoint (missing {sorted(missing)})")
    cfg = {k: _py(v) for k, v in ckpt["config"].items()}
    known = {f.name for f in dataclasses.fields(GPTConfig)}
    try:
        model = models.GPT(config=GPTConfig(**{k: v for k, v in cfg.items() if k in known}))
        model.load_state_dict(ckpt["model"])
    except (TypeError, ValueError, KeyError) as e:
        raise UsageError(f"{path}: the saved model does not load: {e}") from None
    return model, str(_py(ckpt["vocab"]))


def encode(prompt: str, vocab: str, block_size: int) -> np.ndarray:
    """Ids (1, T) of the last ``block_size`` characters of ``prompt``."""
    if not prompt:
        raise UsageError("--prompt is empty")
    unknown = sorted({c for c in prompt if c not in vocab})
    if unknown:
        raise UsageError(f"--prompt has characters not in the vocabulary: "
                         f"{', '.join(repr(c) for c in unknown[:10])}")
    index = {c: i for i, c in enumerate(vocab)}
    return np.array([[index[c] for c in prompt[-block_size:]]], dtype=np.int64)


def char_label(c: str) -> str:
    """A character as a readable tick label (spaces and newlines made visible)."""
    return {" ": "\u2423", "\n": "\\n", "\t": "\\t"}.get(c, c)


def format_weights(weights: list[tuple[str, np.ndarray]], chars: str) -> str:
    """The weights of every layer and head as text tables (rows: queries, columns: keys)."""
    labels = [char_label(c) for c in chars]
    out = []
    for name, w in weights:
        for h in range(w.shape[1]):
            out.append(f"{name}, head {h} (row = query, column = key)")
            out.append("      " + " ".join(f"{lab:>5}" for lab in labels))
            for i, lab in enumerate(labels):
                out.append(f"{lab:>5} " + " ".join(f"{x:5.2f}" for x in w[0, h, i]))
            out.append("")
    return "\n".join(out)


def plot(weights: list[tuple[str, np.ndarray]], chars: str, out: Path) -> None:
    """Save a grid of heatmaps (rows: layers, columns: heads) to ``out`` (PNG)."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no window
    import matplotlib.pyplot as plt

    n_layer, n_head = len(weights), weights[0][1].shape[1]
    T = len(chars)
    size = max(2.2, 0.28 * T + 1.0)
    fig, axes = plt.subplots(n_layer, n_head, figsize=(size * n_head, size * n_layer),
                             squeeze=False)
    labels = [char_label(c) for c in chars]
    for layer, (name, w) in enumerate(weights):
        for h in range(n_head):
            ax = axes[layer][h]
            im = ax.imshow(w[0, h], vmin=0.0, vmax=1.0, cmap="viridis")
            ax.set_title(f"layer {layer} head {h}", fontsize=9)
            ax.set_xticks(range(T))
            ax.set_yticks(range(T))
            ax.set_xticklabels(labels, fontsize=7)
            ax.set_yticklabels(labels, fontsize=7)
            if h == 0:
                ax.set_ylabel("query (reads)", fontsize=8)
            if layer == n_layer - 1:
                ax.set_xlabel("key (is read)", fontsize=8)
    fig.colorbar(im, ax=axes.ravel().tolist(), shrink=0.6, label="attention weight")
    fig.suptitle(f"attention of {n_layer} layers x {n_head} heads on {chars!r}", fontsize=10)
    fig.savefig(out, dpi=110)
    plt.close(fig)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoint", default="out-chars/ckpt_best.npz",
                        help="a checkpoint written by train_chars.py (default: %(default)s)")
    parser.add_argument("--prompt", default="ROMEO: But soft",
                        help="text to run through the model (default: %(default)r)")
    parser.add_argument("--out", default="attention.png",
                        help="PNG file for the heatmaps (default: %(default)s)")
    parser.add_argument("--print", dest="print_weights", action="store_true",
                        help="print the weights as tables instead of plotting")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        model, vocab = load_model(Path(args.checkpoint))
        idx = encode(args.prompt, vocab, model.config.block_size)
    except UsageError as e:
        print(f"plot_attention.py: error: {e}", file=sys.stderr)
        return 2
    chars = "".join(vocab[i] for i in idx[0])
    weights = named_attention_weights(model, idx)  # [(name, (1, H, T, T)), ...]
    if args.print_weights:
        print(format_weights(weights, chars))
        return 0
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print(PLOT_HINT, file=sys.stderr)
        return 1
    out = Path(args.out)
    plot(weights, chars, out)
    print(f"wrote {out}: {len(weights)} layers x {weights[0][1].shape[1]} heads "
          f"over {len(chars)} characters")
    return 0


if __name__ == "__main__":
    sys.exit(main())

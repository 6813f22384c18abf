"""The command line of train_chars.py: every config value is a flag, checked on parsing.

Bad values are rejected by argparse with a message naming the flag and the rule (exit code
2, no traceback): sizes must be positive, probabilities in [0, 1), --n-embd divisible by
--n-head, and so on. :func:`config_from_args` turns the flags into the flat config dict
that checkpoints and metrics.json store.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from pathlib import Path

DEFAULT_TEXT = Path(__file__).resolve().parent / "data" / "tinyshakespeare.txt"

# Flags that may differ on --resume: they change how long the run goes or what it prints,
# not the state being continued. All other config values come from the checkpoint.
RESUMABLE_OVERRIDES = {"max_iters", "eval_interval", "eval_iters", "log_interval"}


# ---------------------------------------------------------------- command line ----------
def _number(kind: type, low: float, low_ok: bool, high: float | None = None,
            high_ok: bool = False):
    """An argparse type accepting ``kind`` values in a range, with a message naming it."""
    lo_txt = f"{'>=' if low_ok else '>'} {low}"
    hi_txt = f" and {'<=' if high_ok else '<'} {high}" if high is not None else ""

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"expected {'an integer' if kind is int else 'a number'}, got {text!r}"
            ) from None
        if kind is float and not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"expected a finite number, got {text!r}")
        ok = (value >= low if low_ok else value > low)
        if high is not None:
            ok = ok and (value <= high if high_ok else value < high)
        if not ok:
            raise argparse.ArgumentTypeError(f"must be {lo_txt}{hi_txt}, got {text}")
        return value

    parse.__name__ = kind.__name__  # argparse names the type in some messages
    return parse


positive_int = _number(int, 0, False)
nonneg_int = _number(int, 0, True)
positive_float = _number(float, 0.0, False)
nonneg_float = _number(float, 0.0, True)
unit_interval = _number(float, 0.0, True, 1.0, False)   # [0, 1): dropout, betas
open_unit = _number(float, 0.0, False, 1.0, False)      # (0, 1): split fraction


class _HelpFormatter(argparse.HelpFormatter):
    """Appends "(default: X)" to a flag's help, except for on/off switches and unset defaults."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        unset = action.default is None or action.default is False \
            or action.default == argparse.SUPPRESS  # (0.0 == False, hence the identity tests)
        if not unset and "default:" not in text:
            text += " (default: %(default)s)"
        return text


def build_parser(suppress_defaults: bool = False) -> argparse.ArgumentParser:
    """The CLI. With ``suppress_defaults`` the namespace holds only flags given explicitly."""
    p = argparse.ArgumentParser(
        prog="train_chars.py",
        description="Train a character-level GPT (minigrad) on a UTF-8 text; defaults are "
        "nanoGPT's CPU config for Tiny Shakespeare.",
        formatter_class=_HelpFormatter,
        argument_default=argparse.SUPPRESS if suppress_defaults else None,
    )

    def add(group, *names, default=None, **kw):
        if not suppress_defaults:
            kw["default"] = default
        group.add_argument(*names, **kw)

    data = p.add_argument_group("data")
    add(data, "--text", default=str(DEFAULT_TEXT), metavar="PATH",
        help="UTF-8 text to train on; the vocabulary is its set of distinct characters "
             "(default: examples/data/tinyshakespeare.txt)")
    add(data, "--val-fraction", type=open_unit, default=0.1,
        help="fraction of the text (its end) held out for validation")

    model = p.add_argument_group("model")
    add(model, "--n-layer", type=positive_int, default=4, help="transformer blocks")
    add(model, "--n-head", type=positive_int, default=4,
        help="attention heads per block (must divide --n-embd)")
    add(model, "--n-embd", type=positive_int, default=128, help="embedding width")
    add(model, "--block-size", type=positive_int, default=64,
        help="context length in characters")
    add(model, "--dropout", type=unit_interval, default=0.0, help="dropout probability")
    add(model, "--bias", action="store_true", default=False,
        help="give Linear and LayerNorm layers biases (nanoGPT's train.py has none)")
    add(model, "--no-tie", action="store_true", default=False,
        help="do not tie the output head to the token embedding")

    opt = p.add_argument_group("optimisation")
    add(opt, "--batch-size", type=positive_int, default=12, help="sequences per step")
    add(opt, "--max-iters", type=positive_int, default=2000, help="optimizer steps")
    add(opt, "--lr", type=positive_float, default=1e-3, help="peak learning rate (AdamW)")
    add(opt, "--min-lr", type=nonneg_float, default=1e-4,
        help="learning rate at the end of the cosine decay")
    add(opt, "--warmup-iters", type=nonneg_int, default=100,
        help="linear warmup steps at the start")
    add(opt, "--lr-decay-iters", type=positive_int, default=None,
        help="step at which the cosine reaches --min-lr (default: --max-iters)")
    add(opt, "--weight-decay", type=nonneg_float, default=0.1,
        help="AdamW decoupled weight decay, applied to 2-D weights only")
    add(opt, "--beta1", type=unit_interval, default=0.9, help="AdamW beta1")
    add(opt, "--beta2", type=unit_interval, default=0.99, help="AdamW beta2")
    add(opt, "--grad-clip", type=nonneg_float, default=1.0,
        help="clip the global gradient norm to this (0 disables)")
    add(opt, "--seed", type=nonneg_int, default=1337,
        help="seeds weight init, dropout, batches and sampling: same seed, same run")

    run = p.add_argument_group("evaluation, checkpoints and output")
    add(run, "--eval-interval", type=positive_int, default=250,
        help="estimate train/val loss (and checkpoint) every this many steps")
    add(run, "--eval-iters", type=positive_int, default=20,
        help="batches per split in each loss estimate")
    add(run, "--log-interval", type=positive_int, default=None,
        help="when output is not a terminal, print a progress line every this many steps "
             "(default: every 10%% of --max-iters)")
    add(run, "--out-dir", default="out-chars",
        help="directory for checkpoints, metrics.json and the loss curve")
    add(run, "--resume", action="store_true", default=False,
        help="continue the run saved in --out-dir/ckpt_last.npz (its config is kept; only "
             "--max-iters, --eval-interval, --eval-iters and --log-interval may change)")
    add(run, "--profile", type=positive_int, default=None, metavar="N",
        help="instead of training, profile N training steps (after one warm-up step) and "
             "print where the time goes per op; no checkpoint or metrics are written")
    add(run, "--backend", choices=("reference", "fast"), default=None,
        help="minigrad backend: 'reference' (plain NumPy, to read and step through) or 'fast' "
             "(Numba kernels) (default: $MINIGRAD_BACKEND, else fast)")
    add(run, "--plot", action="store_true", default=False,
        help="write loss_curve.png at the end (needs matplotlib: pip install -e '.[plot]')")

    gen = p.add_argument_group("sampling")
    add(gen, "--sample", action="store_true", default=False,
        help="only generate text from a checkpoint (no training)")
    add(gen, "--checkpoint", default="best",
        help="for --sample: 'best', 'last' (in --out-dir) or a path to a .npz checkpoint")
    add(gen, "--prompt", default="\n",  # (default shown in the help text: a newline)
        help="text the samples continue (every character must be in the vocabulary; "
             "default: a newline)")
    add(gen, "--num-samples", type=positive_int, default=3, help="samples for --sample")
    add(gen, "--max-new-tokens", type=positive_int, default=500,
        help="characters generated per sample (also for the end-of-training sample)")
    add(gen, "--temperature", type=positive_float, default=0.8,
        help="divide logits by this before sampling (<1: more conservative)")
    add(gen, "--top-k", type=positive_int, default=None,
        help="sample only among the k most likely characters")
    return p


def parse_args(argv: Sequence[str] | None) -> tuple[argparse.Namespace, set[str],
                                                   argparse.ArgumentParser]:
    """(args, names of the flags given explicitly, parser); cross-flag checks done here.

    With --resume the run's configuration comes from the checkpoint (already checked when
    the run started), so only the flags that may change are looked at, in ``train``.
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    explicit = set(vars(build_parser(suppress_defaults=True).parse_args(argv)))
    if args.resume and args.sample:
        parser.error("--resume and --sample exclude each other")
    if getattr(args, "profile", None) and args.sample:
        parser.error("--profile and --sample exclude each other")
    if args.lr_decay_iters is None:
        args.lr_decay_iters = args.max_iters
    if args.resume:
        return args, explicit, parser
    if args.n_embd % args.n_head != 0:
        parser.error(f"--n-embd {args.n_embd} must be divisible by --n-head {args.n_head}")
    if args.min_lr > args.lr:
        parser.error(f"--min-lr {args.min_lr} must not exceed --lr {args.lr}")
    if args.warmup_iters > args.lr_decay_iters:
        parser.error(f"--warmup-iters {args.warmup_iters} exceeds --lr-decay-iters "
                     f"{args.lr_decay_iters} (which defaults to --max-iters): the warmup must "
                     f"end before the decay does; pass a smaller --warmup-iters")
    return args, explicit, parser


def config_from_args(args: argparse.Namespace) -> dict:
    """The run's configuration as a flat dict (stored in checkpoints and metrics.json).

    ``vocab_size`` is filled in once the text is read.
    """
    return {
        "text": str(Path(args.text).resolve()), "val_fraction": args.val_fraction,
        "vocab_size": 0, "n_layer": args.n_layer, "n_head": args.n_head,
        "n_embd": args.n_embd, "block_size": args.block_size, "dropout": args.dropout,
        "bias": args.bias, "tie_weights": not args.no_tie,
        "batch_size": args.batch_size, "max_iters": args.max_iters, "lr": args.lr,
        "min_lr": args.min_lr, "warmup_iters": args.warmup_iters,
        "lr_decay_iters": args.lr_decay_iters, "weight_decay": args.weight_decay,
        "beta1": args.beta1, "beta2": args.beta2, "grad_clip": args.grad_clip,
        "seed": args.seed, "eval_interval": args.eval_interval,
        "eval_iters": args.eval_iters, "log_interval": args.log_interval,
    }


# The config key each flag sets, where the two names differ.
FLAG_TO_KEY = {"no_tie": "tie_weights"}

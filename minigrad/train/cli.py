"""The command line of the character trainer (``minigrad-train``, examples/train_chars.py).

Every config value is a flag, checked on parsing. Bad values are rejected by argparse with a
message naming the flag and the rule (exit code 2, no traceback): sizes must be positive,
probabilities in [0, 1), --n-embd divisible by --n-head, and so on. ``--config run.toml``
sets any flag from a TOML file (keys are flag names, ``max-iters = 500`` or
``max_iters = 500``); flags on the command line win. :func:`config_from_args` turns the
flags into the flat config dict that checkpoints and metrics.json store.
"""

from __future__ import annotations

import argparse
import math
import os
import shlex
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from minigrad.cold_start import COMPILE_ENV, COMPILE_MODES

from .data import TINY_SHAKESPEARE

if sys.version_info >= (3, 11):
    import tomllib
else:  # the same parser, published as tomli before it joined the standard library
    import tomli as tomllib


#: --keep-checkpoints: which of ckpt_last.npz / ckpt_best.npz a run writes
KEEP_CHOICES = ("both", "last", "best")

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


class _OneLineErrors(argparse.ArgumentParser):
    """Usage errors as one line (``prog: error: ...``), exit code 2: the 30-line usage block
    argparse prints first would bury the message; ``--help`` shows it on request."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message}{self._dash_hint(message)}\n")

    def _dash_hint(self, message: str) -> str:
        """For unrecognized flags spelled with underscores (nanoGPT's ``--max_iters``), the
        dashed flag they mean; '' when there is none."""
        if not message.startswith("unrecognized arguments:"):
            return ""
        meant = []
        for word in message.split(":", 1)[1].split():
            flag = word.split("=", 1)[0]
            dashed = flag.replace("_", "-")
            if flag.startswith("--") and dashed != flag and dashed in self._option_string_actions:
                meant.append(f"{dashed} for {flag}")
        return f" (flags are spelled with dashes: {', '.join(meant)})" if meant else ""


def build_parser(suppress_defaults: bool = False) -> argparse.ArgumentParser:
    """The CLI. With ``suppress_defaults`` the namespace holds only flags given explicitly."""
    p = _OneLineErrors(
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
    p.add_argument("--config", metavar="TOML",
                   help="read flags from a TOML file (keys are flag names, e.g. "
                        "max-iters = 500); flags given on the command line win")
    add(data, "--text", default=str(TINY_SHAKESPEARE), metavar="PATH",
        help="UTF-8 text to train on; the vocabulary is its set of distinct characters "
             "(default: Tiny Shakespeare, shipped with minigrad)")
    add(data, "--val-fraction", type=open_unit, default=0.1,
        help="fraction of the text (its end) held out for validation")
    add(data, "--tokenizer", default=None, metavar="char|bpe|PATH",
        help="how text becomes ids: 'char' (one id per distinct character), 'bpe' (a "
             "byte-level BPE of --bpe-vocab-size trained on --text), or a GPT-2 tokenizer: a "
             "tokenizer.json, or a directory with it or vocab.json + merges.txt (BPE needs the "
             "tokenizers package). Default: the --init-from model's tokenizer, else 'char'")
    add(data, "--bpe-vocab-size", type=positive_int, default=1024,
        help="vocabulary size of the BPE that --tokenizer bpe trains")

    model = p.add_argument_group("model")
    add(model, "--init-from", default=None, metavar="PATH",
        help="start from a trained model: a Hugging Face GPT-2 directory, a nanoGPT ckpt.pt "
             "or a checkpoint of this trainer (.npz). Its sizes are kept (--block-size may "
             "shorten the context; --dropout applies)")
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
    add(opt, "--batch-size", type=positive_int, default=12,
        help="sequences per micro-batch (a step sees --grad-accum of them)")
    add(opt, "--grad-accum", type=positive_int, default=1,
        help="micro-batches per optimizer step (gradients accumulated: the step of one "
             "batch this many times larger, in the memory of one micro-batch)")
    add(opt, "--max-iters", type=positive_int, default=2000, help="optimizer steps")
    add(opt, "--lr", type=positive_float, default=1e-3, help="peak learning rate (AdamW)")
    add(opt, "--min-lr", type=nonneg_float, default=1e-4,
        help="learning rate at the end of the cosine decay")
    add(opt, "--warmup-iters", type=nonneg_int, default=100,
        help="linear warmup steps at the start (clamped, with a note, to --lr-decay-iters)")
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
        help="directory for checkpoints, metrics.json and the loss curve. Left at its "
             "default, a run found there moves into out-chars/previous-N/ and a new run "
             "starts; given explicitly, a directory holding a run is refused (--resume or "
             "--overwrite)")
    add(run, "--overwrite", action="store_true", default=False,
        help="start a new run even though --out-dir holds one (its run files are deleted, "
             "once every other check has passed)")
    add(run, "--resume", action="store_true", default=False,
        help="continue the run saved in --out-dir/ckpt_last.npz (its config is kept; only "
             "--max-iters, --eval-interval, --eval-iters and --log-interval may change)")
    add(run, "--keep-checkpoints", choices=KEEP_CHOICES, default="both",
        help="which checkpoints the run writes: 'both' (ckpt_last.npz after every evaluation, "
             "for --resume, and ckpt_best.npz at the lowest val loss), 'last' or 'best' only "
             "(half the disk; 'best' leaves nothing to --resume)")
    add(run, "--save-weights-only", action="store_true", default=False,
        help="checkpoints hold the model, its config and tokenizer but no optimizer state "
             "(a third of the size under AdamW): enough to sample, export or --init-from, "
             "not to --resume")
    add(run, "--final-eval", action=argparse.BooleanOptionalAction, default=True,
        help="score the whole validation split once at the end of the run "
             "(--no-final-eval skips it)")
    add(run, "--capture", action=argparse.BooleanOptionalAction, default=True,
        help="replay each micro-batch's forward and backward from a recording of the first "
             "two (minigrad.capture; exactly the eager arithmetic, less Python per op); "
             "--no-capture runs every step eagerly. A data-parallel run steps eagerly")
    add(run, "--profile", type=positive_int, default=None, metavar="N",
        help="instead of training, profile N training steps (after one untimed step) and "
             "print where the time goes per op; no checkpoint or metrics are written")
    add(run, "--backend", choices=("reference", "fast"), default=None,
        help="minigrad backend: 'reference' (plain NumPy, to read and step through) or 'fast' "
             "(Numba kernels) (default: $MINIGRAD_BACKEND, else fast)")
    add(run, "--compile", choices=COMPILE_MODES, default=os.environ.get(COMPILE_ENV, "background"),
        help="on a cold Numba cache (the first run): 'background' compiles each fast kernel "
             "in a second process while the reference code answers for it; 'wait' compiles "
             "them in this process, so that every run of a seed is bit-for-bit the same "
             "(minigrad.cold_start; default: $MINIGRAD_COMPILE, else background)")
    add(run, "--threads", type=positive_int, default=None,
        help="threads for BLAS and the kernels in each process (minigrad.set_num_threads; "
             "default: as the libraries choose; under mpiexec -n N: this host's cores / its "
             "ranks)")
    add(run, "--plot", action="store_true", default=False,
        help="write loss_curve.png at the end (needs matplotlib: pip install matplotlib)")

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


def config_argv(path: str, parser: argparse.ArgumentParser) -> list[str]:
    """The flags a TOML file sets, as command-line tokens (so each is checked as if typed).

    ``max-iters = 500`` and ``max_iters = 500`` both mean ``--max-iters 500``; a switch
    (``resume = true``) is given when true. Unknown keys, wrong value types and unreadable
    files are usage errors naming the key or the file.
    """
    try:
        with open(path, "rb") as f:
            table = tomllib.load(f)
    except OSError as e:
        parser.error(f"--config {path}: {e.strerror or e}")
    except tomllib.TOMLDecodeError as e:
        parser.error(f"--config {path} is not valid TOML: {e}")
    actions = {a.dest: a for a in parser._actions if a.option_strings}
    argv: list[str] = []
    for key, value in table.items():
        action = actions.get(key.replace("-", "_"))
        if action is None or action.dest in ("help", "config"):
            parser.error(f"--config {path}: unknown key {key!r} (keys are the flag names "
                         f"of --help, e.g. max-iters)")
        flag = action.option_strings[0]
        if isinstance(action, argparse._StoreTrueAction):
            if not isinstance(value, bool):
                parser.error(f"--config {path}: {key} must be true or false, got {value!r}")
            argv += [flag] if value else []
        elif isinstance(value, (bool, dict, list)):
            parser.error(f"--config {path}: {key} must be a number or a string, "
                         f"got {value!r}")
        else:
            argv += [flag, str(value)]
    return argv


def parse_args(argv: Sequence[str] | None) -> tuple[argparse.Namespace, set[str],
                                                   argparse.ArgumentParser]:
    """(args, names of the flags given explicitly, parser); cross-flag checks done here.

    Flags from ``--config`` go before the command line's, so the command line wins; both
    count as explicit. With --resume the run's configuration comes from the checkpoint
    (already checked when the run started), so only the flags that may change are looked
    at, in ``train``.
    """
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    config_path = parser.parse_args(argv).config
    if config_path is not None:
        argv = config_argv(config_path, parser) + argv
    args = parser.parse_args(argv)
    explicit = set(vars(build_parser(suppress_defaults=True).parse_args(argv))) - {"config"}
    if args.compile not in COMPILE_MODES:  # argparse checks given flags, not defaults
        parser.error(f"{COMPILE_ENV}={args.compile!r} must be 'background' or 'wait'")
    if args.resume and args.sample:
        parser.error("--resume and --sample exclude each other")
    if getattr(args, "profile", None) and args.sample:
        parser.error("--profile and --sample exclude each other")
    if args.resume and args.overwrite:
        parser.error("--resume and --overwrite exclude each other")
    if args.prompt == "":
        parser.error("--prompt is empty: the model needs at least one character to continue")
    if args.lr_decay_iters is None:
        args.lr_decay_iters = args.max_iters
    if args.resume:
        return args, explicit, parser
    if args.init_from is not None:
        fixed = sorted(explicit & {"n_layer", "n_head", "n_embd", "bias", "no_tie"})
        if fixed:
            flag = "--" + fixed[0].replace("_", "-")
            parser.error(f"{flag} comes from the --init-from model and cannot be changed")
    elif args.n_embd % args.n_head != 0:
        parser.error(f"--n-embd {args.n_embd} must be divisible by --n-head {args.n_head}")
    if args.min_lr > args.lr:
        parser.error(f"--min-lr {args.min_lr} must not exceed --lr {args.lr}")
    if args.warmup_iters > args.lr_decay_iters and not args.sample:
        # a short trial run should need no extra flag: the warmup ends where the decay does
        print(f"note: --warmup-iters {args.warmup_iters} clamped to {args.lr_decay_iters} "
              f"(the run length, or --lr-decay-iters)")
        args.warmup_iters = args.lr_decay_iters
    return args, explicit, parser


def config_from_args(args: argparse.Namespace) -> dict:
    """The run's configuration as a flat dict (stored in checkpoints and metrics.json).

    ``vocab_size`` is filled in once the text is read; with ``init_from`` the model's sizes
    replace the flags' (and ``tokenizer`` '' means: the init model's, else 'char').
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
        "activation": "gelu", "layer_norm_eps": 1e-5, "grad_accum": args.grad_accum,
        "init_from": str(Path(args.init_from).resolve()) if args.init_from else "",
        "tokenizer": (args.tokenizer if args.tokenizer in (None, "char", "bpe")
                      else str(Path(args.tokenizer).resolve())) or "",
        "bpe_vocab_size": args.bpe_vocab_size,
    }


# The config key each flag sets, where the two names differ.
FLAG_TO_KEY = {"no_tie": "tie_weights"}


# Flags a resumed session takes from its own command line rather than from the checkpoint
# (how it runs and what it prints at the end): a resume command repeats those given.
SESSION_FLAGS = ("backend", "capture", "compile", "plot", "max_new_tokens", "prompt", "temperature",
                 "top_k", "keep_checkpoints", "save_weights_only", "final_eval")


def _shown_path(path: str) -> str:
    """``path`` relative to the working directory when it lies below it, else as given."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def program_command() -> str:
    """How this program was started, ready to type again: ``.venv/bin/python
    examples/train_chars.py`` for the script, ``minigrad-train`` for the installed command
    (its path when it is not the one on PATH)."""
    argv0 = sys.argv[0]
    if argv0.endswith(".py"):
        return f"{shlex.quote(_shown_path(sys.executable))} {shlex.quote(_shown_path(argv0))}"
    name = os.path.basename(argv0)
    on_path = shutil.which(name)
    if on_path and os.path.realpath(on_path) == os.path.realpath(argv0):
        return name
    return shlex.quote(_shown_path(argv0))


def resume_command(args: argparse.Namespace, explicit: set[str],
                   parser: argparse.ArgumentParser, *more: str) -> str:
    """The command that continues the run in ``args.out_dir``: ``--resume``, ``--out-dir``
    unless it is the default, the SESSION_FLAGS given explicitly, then ``more`` (e.g.
    ``--max-iters 4000``). The run's configuration is in its checkpoint, so no other flag
    is needed."""
    words = ["--resume"]
    if args.out_dir != parser.get_default("out_dir"):
        words += ["--out-dir", args.out_dir]
    for dest in SESSION_FLAGS:
        if dest not in explicit:
            continue
        flag = "--" + dest.replace("_", "-")
        value = getattr(args, dest)
        if value is False and dest == "final_eval":
            words.append("--no-final-eval")
        elif value is True:
            words.append(flag)
        elif value not in (None, False):
            words += [flag, str(value)]
    words += more
    return " ".join([program_command(), *(shlex.quote(w) for w in words)])

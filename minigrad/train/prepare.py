"""Setting a run up: configuration, tokenizer, data, model, optimizer and restored state.

Every problem found here is a usage error (one line, exit code 2) raised before any
training: an unusable text, checkpoint, ``--init-from`` model or tokenizer, a tokenizer that
would renumber an ``--init-from`` model's ids, a changed text on ``--resume``, an
``--out-dir`` that holds another run or cannot be written, a context too long for memory.

:func:`prepare_run` decides before it destroys: parse, then every check (reading files,
never writing), then the first writes: ``safety.check_writable`` (create ``--out-dir``,
prove it writable), ``safety.make_room`` (delete or back up the run found there), the token
file. It returns the :class:`~minigrad.train.run.Run` that ``loop.train_loop`` drives.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

import minigrad
from minigrad import cold_start

from .checkpoint import (
    RESUME_KEYS,
    RunState,
    _py,
    build_model,
    load_checkpoint,
    model_from_checkpoint,
    restore_state,
)
from .cli import FLAG_TO_KEY, RESUMABLE_OVERRIDES, config_from_args, resume_command
from .data import (
    CharVocab,
    DataError,
    check_split_lengths,
    read_text,
    split_ids,
)
from .distributed_run import connect, shared_tokenizer, tokenizer_from_shared
from .evaluate import hash_seed
from .generation import resolve_prompt
from .loop import BatchSampler
from .pretrained import config_entries, load_model, reconfigured
from .progress import Progress
from .run import Run
from .safety import (
    check_out_dir,
    check_plot_available,
    check_writable,
    make_room,
    run_is_finished,
    writing,
)
from .tokens import (
    TOKEN_FILE,
    BPETokenizer,
    describe_tokenizer,
    load_bpe,
    read_or_encode,
    same_vocabulary,
    save_token_file,
    tokenizer_from_checkpoint,
    train_bpe,
)

# Config keys of runs saved before they existed, with the value those runs had.
NEW_KEYS = {"activation": "gelu", "layer_norm_eps": 1e-5, "grad_accum": 1, "init_from": "",
            "tokenizer": "", "bpe_vocab_size": 1024}


def resumed_config(saved: dict, args: argparse.Namespace, explicit: set[str],
                   parser: argparse.ArgumentParser) -> dict:
    """The checkpoint's config, with the flags in RESUMABLE_OVERRIDES applied.

    Any other flag given explicitly must agree with the checkpoint: a resumed run continues
    the same experiment, so silently ignoring (or applying) a changed value would mislead.
    """
    cfg = {**NEW_KEYS, **{k: _py(v) for k, v in saved.items()}}
    given = config_from_args(args)
    for flag in sorted(explicit):
        key = FLAG_TO_KEY.get(flag, flag)
        if key in cfg and key not in RESUMABLE_OVERRIDES and given[key] != cfg[key]:
            parser.error(
                f"--{flag.replace('_', '-')} {getattr(args, flag)} differs from the "
                f"checkpoint's {key}={cfg[key]}; a resumed run keeps its configuration "
                f"(start a new run in another --out-dir to change it)")
    for key in RESUMABLE_OVERRIDES & explicit:
        cfg[key] = given[key]
    return cfg


def run_config(args: argparse.Namespace, explicit: set[str], parser: argparse.ArgumentParser,
               out_dir: Path) -> tuple[dict, dict | None]:
    """(config, checkpoint): a new run's from the flags, or a resumed run's from its
    ckpt_last.npz (refusing a finished run and a --max-iters below what is done)."""
    if not args.resume:
        return config_from_args(args), None
    last_path = out_dir / "ckpt_last.npz"
    try:
        ckpt = load_checkpoint(last_path, RESUME_KEYS)
    except DataError as e:
        parser.error(f"--resume: {e}")
    cfg = resumed_config(ckpt["config"], args, explicit, parser)
    done = int(_py(ckpt["iteration"]))
    if cfg["max_iters"] < done:
        parser.error(f"--max-iters {cfg['max_iters']} is below the {done} iterations the "
                     f"checkpoint has already done")
    if run_is_finished(out_dir, done, cfg["max_iters"], int(_py(ckpt["last_eval_iter"]))):
        parser.error(f"--resume: the run in {out_dir} is finished ({done} of --max-iters "
                     f"{cfg['max_iters']} iterations done and scored): nothing left to "
                     f"train. To train it further, give a larger --max-iters: "
                     f"{resume_command(args, explicit, parser, '--max-iters', str(2 * done))}")
    return cfg, ckpt


def init_model(cfg: dict, explicit: set[str]):
    """(model, tokenizer or None) of --init-from, with the run's context and dropout; the
    config takes the model's sizes. DataError when it cannot be loaded or cropped."""
    model, tok, _ = load_model(cfg["init_from"])
    block = int(cfg["block_size"]) if "block_size" in explicit else model.config.block_size
    model = reconfigured(model, block, float(cfg["dropout"]))
    cfg.update(config_entries(model))
    return model, tok


def choose_tokenizer(cfg: dict, ckpt: dict | None, init_tok, text_path: str):
    """The run's tokenizer: a resumed run's own; else --tokenizer (char, bpe: trained here,
    or a file/directory); else the --init-from model's; else characters (None: built from
    the text). An explicit --tokenizer beside an --init-from model that carries a tokenizer
    must be provably the same vocabulary (``tokens.same_vocabulary``): another one would
    renumber the ids the model's embeddings were trained on. DataError when it is not, or
    when BPE is asked for without the tokenizers package. Writes nothing."""
    if ckpt is not None:
        return tokenizer_from_checkpoint(ckpt)
    choice = cfg["tokenizer"]
    if choice == "":
        return init_tok
    if choice == "bpe":
        chosen = train_bpe(text_path, int(cfg["bpe_vocab_size"]))
    elif choice == "char":
        chosen = None if init_tok is None else CharVocab.from_text(read_text(text_path))
    else:
        chosen = load_bpe(choice)
    if init_tok is not None and not same_vocabulary(chosen, init_tok):
        raise DataError(
            f"--tokenizer {choice} gives {describe_tokenizer(chosen)}, not the vocabulary of "
            f"the --init-from model {cfg['init_from']} ({describe_tokenizer(init_tok)}): "
            f"fine-tuning would renumber its embeddings; leave --tokenizer out to keep the "
            f"model's")
    return chosen


def check_memory(cfg: dict) -> None:
    """DataError when one step certainly cannot fit in this machine's memory: every route
    of the attention holds at least one head's (T, T) float32 scores at a time."""
    t = int(cfg["block_size"])
    need = 4 * t * t
    try:
        have = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not a POSIX system: no figure to compare
        return
    if need > have:
        raise DataError(f"--block-size {t} needs a {t:,} x {t:,} float32 attention matrix "
                        f"per head ({need / 2**30:,.1f} GiB), more than this machine's "
                        f"{have / 2**30:,.1f} GiB of memory")


def split_with_context(ids: np.ndarray, val_fraction: float) -> tuple[np.ndarray, ...]:
    """(train ids, validation ids, the validation ids after the last training id): the
    full-split evaluation starts one id early so that the first validation id is scored too
    (predicted from the last training id)."""
    train_ids, val_ids = split_ids(ids, val_fraction)
    return train_ids, val_ids, ids[len(train_ids) - 1:]


def prepare_run(args: argparse.Namespace, explicit: set[str],
                parser: argparse.ArgumentParser) -> Run:
    """Everything a run needs before its first step (see the module docstring)."""
    out_dir = Path(args.out_dir)
    check_plot_available(args, parser)
    cfg, ckpt = run_config(args, explicit, parser, out_dir)
    world, threads = connect(args, parser, int(cfg["batch_size"]))  # the ranks agree on the run
    # Every rank must compute with the same kernels (no primitive answered by the reference
    # code on one rank only), and a profile measures the kernels, not their compilation.
    cold_start.set_compile_mode("wait" if world.size > 1 or args.profile else args.compile)

    # --- tokenizer and data: read only (nothing is written before every check has passed) ----
    check_out_dir(out_dir, args, explicit, parser)
    init, tokens = None, None
    try:
        if ckpt is None and cfg["init_from"]:
            init = init_model(cfg, explicit)
        check_memory(cfg)
        tokenizer = world.from_main(  # trained once, by rank 0, under mpiexec
            lambda: choose_tokenizer(cfg, ckpt, init and init[1], cfg["text"]),
            shared_tokenizer, tokenizer_from_shared)
        if isinstance(tokenizer, BPETokenizer):  # the token file lives in --out-dir
            tokens = read_or_encode(cfg["text"], tokenizer, out_dir)
            ids, text_sha, unit = tokens.ids, tokens.text_sha, "tokens"
        else:
            text = read_text(cfg["text"])
            text_sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
            if tokenizer is None or ckpt is not None:  # a resumed run: its text is checked below
                tokenizer = CharVocab.from_text(text)
            ids, unit = tokenizer.encode(text), "characters"
        check_split_lengths(len(ids), float(cfg["val_fraction"]), int(cfg["block_size"]), unit)
    except (DataError, ValueError) as e:
        parser.error(str(e))
    if ckpt is None and init is None:
        cfg["vocab_size"] = len(tokenizer)
    elif ckpt is not None and str(_py(ckpt["text_sha256"])) != text_sha:
        parser.error(f"--resume: {cfg['text']} changed since the checkpoint was written; "
                     f"an exact resume needs the same text")
    if len(tokenizer) > int(cfg["vocab_size"]):
        parser.error(f"the tokenizer has {len(tokenizer)} ids but the model's vocabulary "
                     f"only {cfg['vocab_size']}")
    prompt = resolve_prompt(args.prompt, tokenizer, explicit, parser)

    train_ids, val_ids, val_seq = split_with_context(ids, float(cfg["val_fraction"]))

    # --- model, optimizer, sampler: fresh from the seed, or restored ----------------------------
    minigrad.manual_seed(int(cfg["seed"]))
    if ckpt is not None:
        try:
            model = model_from_checkpoint(ckpt, out_dir / "ckpt_last.npz")
        except DataError as e:
            parser.error(f"--resume: {e}")
    else:
        model = init[0] if init is not None else build_model(cfg)
    opt = model.configure_optimizers(
        weight_decay=float(cfg["weight_decay"]), learning_rate=float(cfg["lr"]),
        betas=(float(cfg["beta1"]), float(cfg["beta2"])),
    )
    sampler = BatchSampler(train_ids, int(cfg["batch_size"]), int(cfg["block_size"]),
                           seed=hash_seed(int(cfg["seed"]), -1))
    state = RunState()
    if ckpt is not None:
        try:
            opt.load_state_dict(ckpt["optimizer"])
            minigrad.set_rng_state(ckpt["rng"]["minigrad"])
            sampler.set_state(ckpt["rng"]["batches"])
            state = restore_state(ckpt)
        except (ValueError, KeyError, TypeError, IndexError) as e:
            parser.error(f"--resume: {out_dir / 'ckpt_last.npz'} holds an unusable training "
                         f"state: {e}")
        del ckpt
    net = world.wrap(model)  # a collective: no rank writes before every rank has checked
    # --- the first writes: every check has passed ------------------------------------------
    if not args.profile:  # rank 0 makes room first: the others probe what it left
        world.main_first(lambda: (check_writable(out_dir, parser),
                                  make_room(out_dir, args, parser)),
                         lambda: check_writable(out_dir, parser))
    if tokens is not None:  # the same ids, now read from the file rank 0 writes
        with writing(out_dir / TOKEN_FILE):
            ids = world.main_first(lambda: save_token_file(out_dir, tokens), lambda: tokens.ids)
        train_ids, val_ids, val_seq = split_with_context(ids, float(cfg["val_fraction"]))
        sampler.data = train_ids
    run = Run(args, explicit, parser, cfg, world, threads, out_dir, tokenizer, unit, text_sha,
              len(ids), train_ids, val_ids, val_seq, prompt, model, net, opt, sampler, state,
              saved_at=state.iteration if args.resume else None)
    describe(run)
    if args.profile:
        return run
    run.progress = Progress(run.max_iters, plain_every=cfg["log_interval"])
    # The eval history so far (none for a new run): the file always matches the checkpoint.
    with writing(out_dir / "metrics.jsonl"), \
            open(out_dir / "metrics.jsonl" if world.is_main else os.devnull, "w") as f:
        f.writelines(json.dumps(dict(zip(state.history, row))) + "\n"
                     for row in zip(*state.history.values()))
    run.session_start = time.perf_counter()  # this session's wall time starts now
    return run


def describe(run: Run) -> None:
    """The lines a run starts with: text, split, model, data parallelism, resume."""
    cfg, tok = run.cfg, run.tokenizer
    if isinstance(tok, BPETokenizer):
        print(f"text: {cfg['text']} ({run.n_ids:,} tokens, vocabulary of {len(tok)}: "
              f"{tok.source})")
    else:
        print(f"text: {cfg['text']} ({run.n_ids:,} characters, vocabulary of {len(tok)})")
        if len(tok) == 1:
            print(f"warning: the text has a single distinct character ({tok.chars!r}): the "
                  f"model can only learn to repeat it", file=sys.stderr)
    print(f"train/val: {len(run.train_ids):,}/{len(run.val_ids):,} {run.unit}")
    if cfg["init_from"] and not run.args.resume:
        print(f"initialised from {cfg['init_from']}")
    accum = int(cfg["grad_accum"])
    batch = f"batch {cfg['batch_size']}" + (f" x {accum} micro-batches" if accum > 1 else "")
    print(f"model: {run.model.num_parameters():,} parameters | n_layer {cfg['n_layer']} "
          f"n_head {cfg['n_head']} n_embd {cfg['n_embd']} block_size {cfg['block_size']} | "
          f"{batch} ({run.tokens_per_iter} tokens/step)")
    if run.world.size > 1:
        print(f"data parallel: {run.world.size} ranks, "
              f"{int(cfg['batch_size']) // run.world.size} rows each, {run.threads} threads "
              f"per rank")
    if run.args.resume:
        print(f"resuming from {run.last_path} at iteration {run.state.iteration}")

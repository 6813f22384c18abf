"""The run tools decide before they destroy: minigrad-train's usage checks all run before
--overwrite (or the default --out-dir's backup) touches a file, --init-from keeps the model's
tokenizer, token files are checked before re-use, minigrad-export replaces exactly a model's
files, every disk or size failure is a one-line usage error, the README's first command runs
twice, and the checkpoint options a fine-tuner needs.

Runs are tiny (one layer, 16 wide, a few steps) on the suite's 20,000-character text.
"""

from __future__ import annotations

import builtins
import errno
import importlib.util
import json
import os
from pathlib import Path

import numpy as np
import pytest

import minigrad
import minigrad.serialization
from minigrad.train import command as chars
from minigrad.train import export, loop, sample

needs_tokenizers = pytest.mark.skipif(importlib.util.find_spec("tokenizers") is None,
                                      reason="tokenizers is not installed (the hf extra)")

TINY = ["--n-layer", "1", "--n-head", "2", "--n-embd", "16", "--block-size", "16",
        "--batch-size", "4", "--warmup-iters", "2", "--eval-iters", "2",
        "--max-new-tokens", "4", "--compile", "wait"]
FINE_TUNE = ["--block-size", "16", "--batch-size", "4", "--warmup-iters", "2",
             "--eval-iters", "2", "--max-new-tokens", "4", "--compile", "wait"]


def run_main(module, argv: list[str]) -> int:
    """module.main, turning argparse's SystemExit into its code."""
    try:
        return module.main(argv)
    except SystemExit as e:
        return e.code


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file below ``directory`` with its bytes."""
    return {str(p.relative_to(directory)): p.read_bytes()
            for p in sorted(directory.rglob("*")) if p.is_file()}


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


@pytest.fixture(scope="module")
def char_run(small_text, tmp_path_factory) -> Path:
    """A finished 2-step character run (with biases, so that it exports as GPT-2)."""
    out = tmp_path_factory.mktemp("char") / "out"
    assert run_main(chars, [*TINY, "--bias", "--text", str(small_text), "--max-iters", "2",
                            "--eval-interval", "2", "--out-dir", str(out)]) == 0
    return out


# ------------------------------------------------------------ decide before destroy -------
REFUSALS = {
    "char text too short for the context": (["--block-size", "20000"], "block_size + 1"),
    "bpe text too short for the context": (
        ["--tokenizer", "bpe", "--bpe-vocab-size", "300", "--block-size", "20000"],
        "block_size + 1"),
    "context beyond memory": (["--block-size", "1000000"], "GiB of memory"),
    "prompt outside the vocabulary": (["--prompt", "\u20ac"], "--prompt"),
    "init-from that is not a model": (["--init-from", "{tmp}/nothing"], "nothing"),
    "init-from with a longer context": (["--init-from", "{run}/ckpt_last.npz",
                                         "--block-size", "64"], "longer than"),
    "init-from with another vocabulary": (["--init-from", "{run}/ckpt_last.npz",
                                           "--tokenizer", "bpe", "--bpe-vocab-size", "300"],
                                          "not the vocabulary"),
}


@pytest.mark.parametrize("where", ["--overwrite", "default out-dir"])
@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_a_refused_run_leaves_the_old_run_byte_identical(case, where, small_text, char_run,
                                                         tmp_path, monkeypatch, capsys):
    """Both ways a new run makes room (--overwrite deletes, the default --out-dir moves the
    run into previous-N/) come after every check."""
    if "bpe" in " ".join(REFUSALS[case][0]) and importlib.util.find_spec("tokenizers") is None:
        pytest.skip("tokenizers is not installed")
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "out-chars"
    out.mkdir()
    for name in os.listdir(char_run):
        (out / name).write_bytes((char_run / name).read_bytes())
    before = snapshot(out)
    extra, message = REFUSALS[case]
    extra = [a.format(tmp=tmp_path, run=char_run) for a in extra]
    model_flags = [] if "--init-from" in extra else TINY[:10]
    capsys.readouterr()
    where = ["--out-dir", str(out), "--overwrite"] if where == "--overwrite" else []
    assert run_main(chars, [*model_flags, *TINY[10:], "--text", str(small_text),
                            "--max-iters", "2", *where, *extra]) == 2
    assert message in one_line(capsys.readouterr().err)
    assert snapshot(out) == before


# -------------------------------------------------- --init-from keeps the model's tokenizer -----
def test_init_from_keeps_the_models_characters(small_text, char_run, tmp_path, capsys):
    """A character model fine-tuned on a text that lacks one of its characters: without
    --tokenizer (or with one that is provably the same) ids keep their meaning; a
    --tokenizer char that would renumber them is refused, naming both vocabularies."""
    vocab = minigrad.load(char_run / "ckpt_last.npz")["vocab"]
    vocab = str(vocab.item() if isinstance(vocab, np.ndarray) else vocab)
    fewer = tmp_path / "fewer.txt"
    fewer.write_text(small_text.read_text(encoding="utf-8").replace("!", ""), encoding="utf-8")
    init = ["--init-from", str(char_run / "ckpt_last.npz"), *FINE_TUNE, "--max-iters", "1"]
    table = [(fewer, [], 0), (small_text, ["--tokenizer", "char"], 0),
             (fewer, ["--tokenizer", "char"], 2)]
    for i, (text, extra, code) in enumerate(table):
        out = tmp_path / f"out{i}"
        capsys.readouterr()
        assert run_main(chars, [*init, "--text", str(text), "--out-dir", str(out),
                                *extra]) == code, (text, extra)
        if code == 0:
            saved = minigrad.load(out / "ckpt_last.npz")["vocab"]
            assert str(saved.item() if isinstance(saved, np.ndarray) else saved) == vocab
        else:
            err = one_line(capsys.readouterr().err)
            assert "--tokenizer char" in err and "not the vocabulary" in err
            assert str(char_run / "ckpt_last.npz") in err and "leave --tokenizer out" in err
            assert not out.exists()


@needs_tokenizers
def test_same_vocabulary_over_every_pair(small_text, tmp_path):
    from minigrad.train.data import CharVocab
    from minigrad.train.tokens import same_vocabulary, train_bpe

    bpe300, bpe300b, bpe400 = (train_bpe(str(small_text), n) for n in (300, 300, 400))
    chars_a, chars_b = CharVocab("abc!"), CharVocab("!abc")
    same = [(chars_a, CharVocab("abc!")), (bpe300, bpe300b)]
    different = [(chars_a, chars_b), (bpe300, bpe400), (chars_a, bpe300), (bpe300, chars_a),
                 (None, chars_a), (None, bpe300)]
    assert all(same_vocabulary(a, b) for a, b in same)
    assert not any(same_vocabulary(a, b) for a, b in different)


# --------------------------------------------------------- token files checked before re-use --
def _damage(run: Path, how: str) -> None:
    meta_path, bin_path = run / "tokens.json", run / "tokens.bin"
    meta = json.loads(meta_path.read_text())
    ids = np.fromfile(bin_path, dtype=meta["dtype"])
    if how == "id past the vocabulary":
        ids[5] = 60000
        ids.tofile(bin_path)
    elif how == "dtype float16 named":
        meta["dtype"] = "float16"
    elif how == "dtype uint32 named, size still fits":
        meta["dtype"], meta["count"] = "uint32", ids.size // 2
    elif how == "count beyond the file":
        meta["count"] += 1
    elif how == "file truncated":
        ids[:-3].tofile(bin_path)
    elif how == "json not an object":
        meta = [1, 2]
    elif how == "no text hash":
        del meta["text_sha256"]
    meta_path.write_text(json.dumps(meta))


DAMAGES = ["id past the vocabulary", "dtype float16 named", "dtype uint32 named, size still fits",
           "count beyond the file", "file truncated", "json not an object", "no text hash"]


@needs_tokenizers
@pytest.mark.parametrize("how", DAMAGES)
def test_a_damaged_token_file_is_encoded_again(how, small_text, tmp_path, capsys):
    from minigrad.train.tokens import token_file, train_bpe

    tok = train_bpe(str(small_text), 300)
    run = tmp_path / "run"
    fresh, sha = token_file(str(small_text), tok, run)
    fresh = np.array(fresh)
    _damage(run, how)
    capsys.readouterr()
    ids, sha2 = token_file(str(small_text), tok, run)
    said = capsys.readouterr().out
    assert "re-using" not in said.replace("not re-using", ""), said
    np.testing.assert_array_equal(ids, fresh)
    assert sha2 == sha
    again, _ = token_file(str(small_text), tok, run)  # the repaired file is re-used
    assert "re-using" in capsys.readouterr().out
    np.testing.assert_array_equal(again, fresh)


@needs_tokenizers
def test_a_resumed_bpe_run_with_a_damaged_token_file(small_text, tmp_path, capsys):
    """The trainer encodes the text again (no traceback at the first step); when the text is
    gone it is a usage error."""
    text = tmp_path / "t.txt"
    text.write_bytes(small_text.read_bytes())
    out = tmp_path / "out"
    base = [*TINY, "--text", str(text), "--tokenizer", "bpe", "--bpe-vocab-size", "300",
            "--eval-interval", "2", "--out-dir", str(out)]
    assert run_main(chars, [*base, "--max-iters", "2"]) == 0
    _damage(out, "id past the vocabulary")
    assert run_main(chars, ["--resume", "--out-dir", str(out), "--max-iters", "3"]) == 0
    assert "not re-using" in capsys.readouterr().out
    _damage(out, "id past the vocabulary")
    text.unlink()
    assert run_main(chars, ["--resume", "--out-dir", str(out), "--max-iters", "4"]) == 2
    assert "does not exist" in one_line(capsys.readouterr().err)


# ------------------------------------------------------------------------- minigrad-export --
def test_export_refuses_a_file_target(char_run, tmp_path, capsys):
    target = tmp_path / "file"
    target.write_text("mine")
    for out in (target, target / "sub"):
        assert run_main(export, [str(char_run), str(out)]) == 2
        assert "is a file, not a directory" in one_line(capsys.readouterr().err)
    assert target.read_text() == "mine"


def test_export_leaves_no_earlier_models_files(char_run, tmp_path, capsys):
    """An earlier GPT-2 export's tokenizer (and transformers' other model files) beside a
    character model's weights would load as its tokenizer: they go; a user's file stays."""
    from minigrad.train.export import MODEL_FILES

    target = tmp_path / "exported"
    target.mkdir()
    for name in MODEL_FILES:
        (target / name).write_text("from an earlier model")
    (target / "README.md").write_text("mine")
    assert run_main(export, [str(char_run), str(target)]) == 0
    assert sorted(os.listdir(target)) == ["README.md", "config.json", "model.safetensors"]
    assert (target / "README.md").read_text() == "mine"
    assert json.loads((target / "config.json").read_text())["vocab_size"] == 58
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no staging left


# ------------------------------------------------------------------ disk and size failures --
@pytest.fixture
def read_only(monkeypatch):
    """Make a directory read-only for every way the trainer writes (the tests run as root,
    where chmod stops nothing): returns a function that marks a directory."""
    marked: list[Path] = []

    def blocked(path) -> bool:
        p = Path(os.fspath(path)).absolute()
        return any(p == d or d in p.parents for d in marked)

    def refuse(path):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), os.fspath(path))

    real_open, real_os_open = builtins.open, os.open

    def fake_open(file, mode="r", *a, **k):
        if isinstance(file, (str, os.PathLike)) and set(mode) & set("wax+") and blocked(file):
            refuse(file)
        return real_open(file, mode, *a, **k)

    def fake_os_open(path, flags, *a, **k):
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) and blocked(path):
            refuse(path)
        return real_os_open(path, flags, *a, **k)

    monkeypatch.setattr(builtins, "open", fake_open)
    monkeypatch.setattr(os, "open", fake_os_open)
    for name in ("unlink", "remove", "mkdir", "rmdir"):
        real = getattr(os, name)
        monkeypatch.setattr(os, name, lambda p, *a, _real=real, **k:
                            refuse(p) if blocked(p) else _real(p, *a, **k))
    for name in ("replace", "rename"):
        real = getattr(os, name)
        monkeypatch.setattr(os, name, lambda s, d, *a, _real=real, **k:
                            refuse(d) if blocked(s) or blocked(d) else _real(s, d, *a, **k))
    return marked.append


@pytest.mark.parametrize("flags", [[], ["--resume", "--max-iters", "4"], ["--overwrite"]],
                         ids=["new run", "resume", "overwrite"])
def test_a_read_only_out_dir_is_a_usage_error(flags, small_text, char_run, tmp_path,
                                              read_only, capsys):
    out = tmp_path / "out"
    out.mkdir()
    if flags:  # a run to continue or replace
        for name in os.listdir(char_run):
            (out / name).write_bytes((char_run / name).read_bytes())
    before = snapshot(out)
    read_only(out)
    argv = flags if flags[:1] == ["--resume"] else [*TINY, "--text", str(small_text),
                                                    "--max-iters", "2", *flags]
    assert run_main(chars, [*argv, "--out-dir", str(out)]) == 2
    err = one_line(capsys.readouterr().err)
    assert str(out) in err and "Read-only file system" in err
    assert snapshot(out) == before


def test_an_out_dir_below_a_file_is_a_usage_error(small_text, tmp_path, capsys):
    (tmp_path / "file").write_text("mine")
    out = tmp_path / "file" / "run"
    assert run_main(chars, [*TINY, "--text", str(small_text), "--out-dir", str(out)]) == 2
    assert "is a file, not a directory" in one_line(capsys.readouterr().err)


def test_a_full_disk_mid_run_is_a_usage_error_and_keeps_the_last_checkpoint(
        small_text, tmp_path, monkeypatch, capsys):
    real, calls = minigrad.serialization.atomic_write, []

    def fills_up(path, write):
        calls.append(path)
        if len(calls) > 2:  # the evaluation at step 0 writes ckpt_best and ckpt_last
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(path, write)

    monkeypatch.setattr(minigrad.serialization, "atomic_write", fills_up)
    out = tmp_path / "out"
    assert run_main(chars, [*TINY, "--text", str(small_text), "--max-iters", "4",
                            "--eval-interval", "2", "--out-dir", str(out)]) == 2
    err = one_line(capsys.readouterr().err)
    assert f"cannot write {out}{os.sep}ckpt_" in err and ": No space left on device" in err
    assert f"the last checkpoint {out / 'ckpt_last.npz'} (iteration 0) is kept" in err
    monkeypatch.undo()
    assert int(minigrad.load(out / "ckpt_last.npz")["iteration"]) == 0
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]


def test_running_out_of_memory_mid_run_is_a_usage_error(small_text, tmp_path, monkeypatch,
                                                        capsys):
    real, steps = loop.train_step, []

    def step(*a, **k):
        steps.append(1)
        if len(steps) == 3:
            raise MemoryError
        return real(*a, **k)

    monkeypatch.setattr(loop, "train_step", step)
    out = tmp_path / "out"
    assert run_main(chars, [*TINY, "--text", str(small_text), "--max-iters", "4",
                            "--eval-interval", "2", "--out-dir", str(out)]) == 2
    err = one_line(capsys.readouterr().err)
    assert "out of memory with --block-size 16, --batch-size 4" in err
    assert "(iteration 2) is kept" in err
    assert int(minigrad.load(out / "ckpt_last.npz")["iteration"]) == 2


# ------------------------------------------------------- the README's first command, twice --
def test_the_default_command_runs_again_and_keeps_the_previous_run(small_text, tmp_path,
                                                                   monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    argv = [*TINY, "--text", str(small_text), "--max-iters", "2", "--eval-interval", "2"]
    assert run_main(chars, argv) == 0
    first = snapshot(tmp_path / "out-chars")
    (tmp_path / "out-chars" / "notes.txt").write_text("mine")
    for n in (1, 2):
        capsys.readouterr()
        assert run_main(chars, argv) == 0
        said = capsys.readouterr().out
        assert f"out-chars held a run: moved it to out-chars/previous-{n}" in said
    assert snapshot(tmp_path / "out-chars" / "previous-1") == first
    assert (tmp_path / "out-chars" / "notes.txt").read_text() == "mine"
    # the moved run is a run: it resumes where it is
    assert run_main(chars, ["--resume", "--out-dir", "out-chars/previous-1",
                            "--max-iters", "4"]) == 0
    # an --out-dir given explicitly still refuses to replace a run
    assert run_main(chars, [*argv, "--out-dir", "out-chars"]) == 2
    assert "already holds a run" in capsys.readouterr().err


# ------------------------------------------------------------ checkpoint options ------------
@pytest.mark.parametrize("keep, files", [("both", {"ckpt_last.npz", "ckpt_best.npz"}),
                                         ("last", {"ckpt_last.npz"}),
                                         ("best", {"ckpt_best.npz"})])
def test_keep_checkpoints(keep, files, small_text, tmp_path, capsys):
    out = tmp_path / "out"
    assert run_main(chars, [*TINY, "--text", str(small_text), "--max-iters", "4",
                            "--eval-interval", "2", "--out-dir", str(out),
                            "--keep-checkpoints", keep]) == 0
    assert {p.name for p in out.glob("ckpt_*")} == files
    assert run_main(sample, [str(out), "--num-samples", "1", "--max-new-tokens", "3"]) == 0
    assert run_main(chars, ["--sample", "--out-dir", str(out), "--num-samples", "1",
                            "--max-new-tokens", "3"]) == 0


def test_save_weights_only_samples_and_fine_tunes_but_does_not_resume(small_text, tmp_path,
                                                                      capsys):
    full, light = tmp_path / "full", tmp_path / "light"
    base = [*TINY, "--text", str(small_text), "--max-iters", "2", "--eval-interval", "2"]
    assert run_main(chars, [*base, "--out-dir", str(full)]) == 0
    assert run_main(chars, [*base, "--out-dir", str(light), "--save-weights-only"]) == 0
    ckpt = minigrad.load(light / "ckpt_last.npz")
    assert "optimizer" not in ckpt and "rng" not in ckpt
    assert (light / "ckpt_last.npz").stat().st_size < (full / "ckpt_last.npz").stat().st_size / 2
    np.testing.assert_array_equal(ckpt["model"]["wte.weight"],
                                  minigrad.load(full / "ckpt_last.npz")["model"]["wte.weight"])
    capsys.readouterr()
    assert run_main(chars, ["--resume", "--out-dir", str(light), "--max-iters", "4"]) == 2
    err = one_line(capsys.readouterr().err)
    assert "holds weights only" in err and f"--init-from {light / 'ckpt_last.npz'}" in err
    assert run_main(sample, [str(light), "--num-samples", "1", "--max-new-tokens", "3"]) == 0
    assert run_main(chars, ["--init-from", str(light / "ckpt_last.npz"), *FINE_TUNE,
                            "--text", str(small_text), "--max-iters", "1",
                            "--out-dir", str(tmp_path / "tuned")]) == 0


def test_no_final_eval_skips_the_full_validation_pass(small_text, tmp_path, capsys):
    out = tmp_path / "out"
    assert run_main(chars, [*TINY, "--text", str(small_text), "--max-iters", "2",
                            "--out-dir", str(out), "--no-final-eval"]) == 0
    said = capsys.readouterr().out
    assert "scoring the full validation split" not in said and "--no-final-eval" in said
    m = json.loads((out / "metrics.json").read_text())
    assert m["full_val_loss"] is None and m["iterations"] == 2
    assert run_main(chars, ["--resume", "--out-dir", str(out), "--max-iters", "4",
                            "--final-eval"]) == 0
    assert "full val loss" in capsys.readouterr().out


@pytest.mark.parametrize("flags, says", [
    (["--keep-checkpoints", "best"], "nothing saved (--keep-checkpoints best)"),
    (["--save-weights-only"], "start a new run from it with --init-from"),
    ([], "continue with:"),
])
def test_an_interrupted_run_says_what_it_kept(flags, says, small_text, tmp_path, monkeypatch,
                                              capsys):
    monkeypatch.setenv(chars.INTERRUPT_ENV, "3")
    out = tmp_path / "out"
    assert run_main(chars, [*TINY, "--text", str(small_text), "--max-iters", "6",
                            "--eval-interval", "2", "--out-dir", str(out), *flags]) == 130
    said = capsys.readouterr()
    assert says in said.out + said.err
    last = out / "ckpt_last.npz"
    assert last.exists() == ("best" not in flags)
    if last.exists():
        assert int(minigrad.load(last)["iteration"]) == 3

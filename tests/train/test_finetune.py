"""Fine-tuning GPT-2-format models on BPE text: gradient accumulation, --init-from
with a cropped context, BPE token files, minigrad-sample and minigrad-export.

The tests that need no optional package run everywhere; those that read or train a BPE need
``tokenizers``; the comparisons with ``transformers`` (first step's loss, exported directory)
need torch and transformers too, and skip cleanly without them (the README's plain set-up).
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

import minigrad
from minigrad import models
from minigrad.train import command as chars
from minigrad.train import export, sample
from minigrad.train.checkpoint import build_model
from minigrad.train.data import DataError, split_ids
from minigrad.train.evaluate import hash_seed
from minigrad.train.loop import BatchSampler, train_step
from minigrad.train.pretrained import reconfigured


def installed(*names: str) -> bool:
    return all(importlib.util.find_spec(n) is not None for n in names)


needs_tokenizers = pytest.mark.skipif(not installed("tokenizers"),
                                      reason="tokenizers is not installed (the hf extra)")
needs_torch = pytest.mark.skipif(not installed("torch"), reason="PyTorch is not installed")
needs_transformers = pytest.mark.skipif(
    not installed("torch", "transformers", "tokenizers"),
    reason="needs torch, transformers and tokenizers")

TINY = ["--n-layer", "1", "--n-head", "2", "--n-embd", "16", "--block-size", "16",
        "--batch-size", "4", "--warmup-iters", "2", "--eval-iters", "2",
        "--max-new-tokens", "12", "--compile", "wait"]


def run_main(module, argv: list[str]) -> int:
    """module.main, turning argparse's SystemExit into its code."""
    try:
        return module.main(argv)
    except SystemExit as e:
        return e.code


def metrics(out: Path) -> dict:
    return json.loads((out / "metrics.json").read_text())


# ------------------------------------------------------------- gradient accumulation -------
class Batches:
    """A sampler stand-in that hands out given (x, y) batches in order."""

    def __init__(self, batches: list[tuple[np.ndarray, np.ndarray]]) -> None:
        self.batches = list(batches)

    def sample(self) -> tuple[np.ndarray, np.ndarray]:
        return self.batches.pop(0)


def test_grad_accum_equals_one_big_batch_in_float64():
    cfg = {"vocab_size": 23, "block_size": 8, "n_layer": 2, "n_head": 2, "n_embd": 16,
           "dropout": 0.0, "bias": True, "tie_weights": True}
    rng = np.random.default_rng(0)
    micro = [(rng.integers(0, 23, (3, 8)), rng.integers(0, 23, (3, 8))) for _ in range(3 * 4)]
    runs = {}
    for accum in (1, 4):
        minigrad.manual_seed(5)
        model = build_model(cfg).double()
        opt = model.configure_optimizers(weight_decay=0.1, learning_rate=3e-3)
        params = [p for g in opt.param_groups for p in g["params"]]
        if accum == 1:  # each step: the four micro-batches as one (12, 8) batch
            batches = [tuple(np.concatenate([m[i] for m in micro[k:k + 4]]) for i in (0, 1))
                       for k in range(0, len(micro), 4)]
        else:
            batches = micro
        sampler = Batches(batches)
        losses = [train_step(model, opt, params, sampler, 3e-3, 0.5, it, grad_accum=accum)
                  for it in range(3)]
        runs[accum] = losses, {k: v.data.copy() for k, v in model.state_dict().items()}
    np.testing.assert_allclose(runs[4][0], runs[1][0], rtol=0, atol=1e-9)
    for name, w in runs[1][1].items():
        np.testing.assert_allclose(runs[4][1][name], w, rtol=0, atol=1e-9, err_msg=name)
    assert runs[1][0][0] != runs[1][0][2]  # the steps did change the model


def test_grad_accum_flag_trains_and_counts_its_tokens(small_text, tmp_path, capsys):
    out = tmp_path / "out"
    assert run_main(chars, [*TINY, "--text", str(small_text), "--grad-accum", "3",
                            "--max-iters", "2", "--out-dir", str(out)]) == 0
    assert "batch 4 x 3 micro-batches (192 tokens/step)" in capsys.readouterr().out
    m = metrics(out)
    assert m["config"]["grad_accum"] == 3 and len(m["train_loss_per_iter"]) == 2


# ------------------------------------------------------------------ --init-from ------------
def test_reconfigured_crops_the_position_table_and_sets_dropout():
    minigrad.manual_seed(0)
    gpt = models.GPT(vocab_size=30, block_size=32, n_layer=1, n_head=2, n_embd=16,
                     activation="gelu_tanh")
    short = reconfigured(gpt, 12, 0.2)
    assert short.config.block_size == 12 and short.config.dropout == 0.2 and short.training
    np.testing.assert_array_equal(short.wpe.weight.data, gpt.wpe.weight.data[:12])
    x = np.arange(24).reshape(2, 12) % 30
    with minigrad.no_grad():
        np.testing.assert_array_equal(short.eval()(x)[0].data, gpt.eval()(x)[0].data)
    with pytest.raises(DataError, match="longer than the pretrained model's context"):
        reconfigured(gpt, 33, 0.0)


def test_init_from_a_checkpoint_keeps_its_sizes_then_samples(small_text, tmp_path, capsys):
    first, tuned = tmp_path / "first", tmp_path / "tuned"
    assert run_main(chars, [*TINY, "--text", str(small_text), "--max-iters", "2",
                            "--out-dir", str(first)]) == 0
    assert run_main(chars, ["--init-from", str(first / "ckpt_last.npz"), "--n-embd", "32",
                            "--out-dir", str(tuned)]) == 2
    assert "--n-embd comes from the --init-from model" in capsys.readouterr().err
    assert run_main(chars, ["--init-from", str(first / "ckpt_last.npz"), "--block-size", "8",
                            "--dropout", "0.1", "--text", str(small_text), "--max-iters", "2",
                            "--eval-iters", "2", "--max-new-tokens", "5", "--compile", "wait",
                            "--out-dir", str(tuned)]) == 0
    assert "initialised from" in capsys.readouterr().out
    cfg = metrics(tuned)["config"]
    assert (cfg["n_embd"], cfg["block_size"], cfg["dropout"], cfg["n_layer"]) == (16, 8, 0.1, 1)
    assert run_main(chars, ["--init-from", str(first / "ckpt_last.npz"), "--block-size",
                            "17", "--text", str(small_text), "--out-dir",
                            str(tmp_path / "x")]) == 2
    assert "longer than the pretrained model's context (16" in capsys.readouterr().err

    assert run_main(sample, [str(tuned), "--prompt", "ROMEO:", "--num-samples", "2",
                             "--max-new-tokens", "7", "--seed", "3"]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"sampling from {tuned} (minigrad checkpoint")
    assert text.count("ROMEO:") == 2 and "-" * 40 in text
    assert run_main(sample, [str(tuned), "--prompt", "ROMEO:", "--num-samples", "2",
                             "--max-new-tokens", "7", "--seed", "3"]) == 0
    assert capsys.readouterr().out == text  # --seed: the same samples
    (tmp_path / "prompt.txt").write_text("ROMEO:", encoding="utf-8")
    assert run_main(sample, [str(tuned), "--prompt-file", str(tmp_path / "prompt.txt"),
                             "--num-samples", "2", "--max-new-tokens", "7", "--seed", "3"]) == 0
    assert capsys.readouterr().out == text  # the same prompt, from a file
    assert run_main(sample, [str(tuned), "--prompt", "Joë"]) == 2
    assert "not in the vocabulary: 'ë'" in capsys.readouterr().err
    assert run_main(sample, [str(tmp_path / "nothing")]) == 2
    assert "is not a model" in capsys.readouterr().err
    # the character trainer's models have no biases: not GPT-2's layout, and it says so
    assert run_main(export, [str(tuned), str(tmp_path / "hf")]) == 2
    assert "cannot be written as GPT-2" in capsys.readouterr().err


# ------------------------------------------------------------------------ BPE -------------
@needs_tokenizers
def test_pieces_encode_as_the_whole_text(small_text):
    from minigrad.train.tokens import encode_text, text_pieces, train_bpe

    tok = train_bpe(str(small_text), 400)
    text = small_text.read_text(encoding="utf-8")
    pieces = text_pieces(text, 700)
    assert "".join(pieces) == text and len(pieces) > 20
    ids = encode_text(text, tok, "encoding", size=700)
    assert ids.dtype == np.uint16
    np.testing.assert_array_equal(ids, tok.encode(text))


@needs_tokenizers
def test_token_file_is_made_once_and_remade_when_the_text_changes(small_text, tmp_path,
                                                                   capsys):
    from minigrad.train.tokens import token_file, train_bpe

    text = tmp_path / "t.txt"
    text.write_text(small_text.read_text(encoding="utf-8"), encoding="utf-8")
    tok = train_bpe(str(text), 300)
    ids, sha = token_file(str(text), tok, tmp_path / "run")
    assert isinstance(ids, np.memmap) and ids.dtype == np.uint16
    assert "re-using" not in capsys.readouterr().out
    again, sha2 = token_file(str(text), tok, tmp_path / "run")
    assert "re-using" in capsys.readouterr().out and sha2 == sha
    np.testing.assert_array_equal(again, ids)
    with open(text, "a", encoding="utf-8") as f:
        f.write("\nMore text.\n")
    changed, sha3 = token_file(str(text), tok, tmp_path / "run")
    assert "re-using" not in capsys.readouterr().out and sha3 != sha
    assert len(changed) > len(ids)


@needs_tokenizers
def test_a_bpe_run_resumes_and_samples(small_text, tmp_path, capsys):
    out = tmp_path / "out"
    args = [*TINY, "--text", str(small_text), "--tokenizer", "bpe", "--bpe-vocab-size", "300",
            "--eval-interval", "2", "--out-dir", str(out)]
    assert run_main(chars, [*args, "--max-iters", "2"]) == 0
    said = capsys.readouterr().out
    assert "tokens, vocabulary of 300" in said and "sampling 12 tokens..." in said
    assert (out / "tokens.bin").exists()
    assert run_main(chars, ["--resume", "--out-dir", str(out), "--max-iters", "4"]) == 0
    assert "re-using" in capsys.readouterr().out
    assert metrics(out)["iterations"] == 4
    assert run_main(chars, ["--sample", "--out-dir", str(out), "--prompt", "KING",
                            "--num-samples", "1", "--max-new-tokens", "4"]) == 0
    assert "KING" in capsys.readouterr().out


# ------------------------------------------------------ a GPT-2 directory, transformers -----
@needs_transformers
def test_gpt2_directory_fine_tunes_samples_and_exports(small_text, tmp_path, capsys):
    """The issue's done-when: a GPT-2-format directory (random weights, a BPE trained here)
    fine-tuned on Tiny Shakespeare: the first step's loss is transformers' loss on the same
    batch, the validation loss goes down, the model samples, and the exported directory
    loads in transformers with minigrad's logits and the run's tokenizer."""
    import torch
    import transformers

    from minigrad.train.checkpoint import load_checkpoint, model_from_checkpoint
    from minigrad.train.tokens import train_bpe

    tok = train_bpe(str(small_text), 512)
    hf_dir, out, exported = tmp_path / "gpt2", tmp_path / "out", tmp_path / "exported"
    torch.manual_seed(0)
    config = transformers.GPT2Config(n_layer=2, n_head=2, n_embd=32, vocab_size=512,
                                     n_positions=64, resid_pdrop=0.0, embd_pdrop=0.0,
                                     attn_pdrop=0.0)
    transformers.GPT2LMHeadModel(config).save_pretrained(hf_dir)
    (hf_dir / "tokenizer.json").write_text(tok.to_json(), encoding="utf-8")

    assert run_main(chars, ["--init-from", str(hf_dir), "--text", str(small_text),
                            "--block-size", "32", "--batch-size", "4", "--max-iters", "30",
                            "--eval-interval", "30", "--eval-iters", "4", "--lr", "3e-3",
                            "--warmup-iters", "3", "--max-new-tokens", "8", "--compile", "wait",
                            "--out-dir", str(out)]) == 0
    said = capsys.readouterr().out
    assert "tokens, vocabulary of 512" in said and f"initialised from {hf_dir}" in said
    m = metrics(out)
    assert m["config"]["block_size"] == 32 and m["config"]["activation"] == "gelu_tanh"
    assert m["history"]["val"][-1] < m["history"]["val"][0] - 0.1  # fine-tuning helped

    # the first step's batch, drawn again: its loss under transformers
    meta = json.loads((out / "tokens.json").read_text())
    ids = np.fromfile(out / "tokens.bin", dtype=meta["dtype"])
    np.testing.assert_array_equal(ids, tok.encode(small_text.read_text(encoding="utf-8")))
    train, _ = split_ids(ids, 0.1)
    x, y = BatchSampler(train, 4, 32, seed=hash_seed(1337, -1)).sample()
    ref = transformers.GPT2LMHeadModel.from_pretrained(hf_dir).eval()
    with torch.no_grad():
        logits = ref(torch.from_numpy(x)).logits
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, 512),
                                                 torch.from_numpy(y).reshape(-1))
    assert abs(m["train_loss_per_iter"][0] - loss.item()) < 1e-4

    assert run_main(sample, [str(out / "ckpt_last.npz"), "--prompt", "ROMEO:",
                             "--num-samples", "1", "--max-new-tokens", "6"]) == 0
    assert "\nROMEO:" in capsys.readouterr().out

    assert run_main(export, [str(out), str(exported)]) == 0
    assert "tokenizer.json" in capsys.readouterr().out
    ckpt = load_checkpoint(out / "ckpt_best.npz")
    ours = model_from_checkpoint(ckpt, out / "ckpt_best.npz").eval()
    theirs = transformers.GPT2LMHeadModel.from_pretrained(exported).eval()
    with minigrad.no_grad(), torch.no_grad():
        np.testing.assert_allclose(ours(x)[0].data, theirs(torch.from_numpy(x)).logits.numpy(),
                                   atol=1e-4)
    hf_tok = transformers.AutoTokenizer.from_pretrained(exported)
    assert hf_tok.encode("ROMEO: what light") == tok.encode("ROMEO: what light").tolist()


@needs_torch
def test_init_from_a_nanogpt_ckpt_pt_needs_a_tokenizer(small_text, tmp_path, capsys):
    import torch

    minigrad.manual_seed(0)
    gpt = models.GPT(vocab_size=80, block_size=32, n_layer=1, n_head=2, n_embd=16, bias=False)
    c = gpt.config
    torch.save({"model": {k: torch.from_numpy(v) for k, v in gpt.to_nanogpt().items()},
                "model_args": {"n_layer": c.n_layer, "n_head": c.n_head, "n_embd": c.n_embd,
                               "block_size": c.block_size, "bias": c.bias,
                               "vocab_size": c.vocab_size, "dropout": 0.0}},
               tmp_path / "ckpt.pt")
    out = tmp_path / "out"
    assert run_main(chars, ["--init-from", str(tmp_path / "ckpt.pt"), "--tokenizer", "char",
                            "--text", str(small_text), "--block-size", "16", "--max-iters", "2",
                            "--eval-iters", "2", "--max-new-tokens", "4", "--compile", "wait",
                            "--out-dir", str(out)]) == 0
    assert metrics(out)["config"]["vocab_size"] == 80
    assert run_main(sample, [str(tmp_path / "ckpt.pt")]) == 2
    assert "carries no tokenizer: pass --tokenizer" in capsys.readouterr().err


def test_ids_beyond_the_tokenizer_decode_as_replacement_characters():
    from minigrad.train.data import CharVocab
    from minigrad.train.generation import decode_known

    vocab = CharVocab("abc")
    assert decode_known(vocab, [0, 5, 1, 2, 3]) == "a\ufffdbc\ufffd"
    assert decode_known(vocab, np.array([2, 1])) == "cb"

"""examples/generate_gpt2.py end to end on a tiny random GPT-2 directory with a tiny
byte-level BPE tokenizer.json, both made here (no downloads)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import minigrad
from minigrad import models

tokenizers = pytest.importorskip("tokenizers")

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "generate_gpt2.py"
TEXT = ["the cat sat on the mat", "the dog sat on the log", "a cat and a dog met"] * 5


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("gpt2")
    tok = tokenizers.Tokenizer(tokenizers.models.BPE())
    tok.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = tokenizers.decoders.ByteLevel()
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=280, initial_alphabet=tokenizers.pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator(TEXT, trainer)
    tok.save(str(d / "tokenizer.json"))
    minigrad.manual_seed(0)
    gpt = models.GPT(vocab_size=tok.get_vocab_size(), block_size=16, n_layer=2, n_head=2,
                     n_embd=16, activation="gelu_tanh")
    gpt.save_pretrained(d)
    return d


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=300, check=False)


def test_samples_text_and_reports_speed(model_dir):
    args = ("--model-dir", str(model_dir), "--prompt", "the cat", "--max-new-tokens", "20",
            "--temperature", "0.9", "--top-k", "5", "--seed", "3")
    r = run(*args)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert r.stdout.startswith("the cat") and len(r.stdout) > len("the cat\n")
    assert "20 tokens in" in r.stderr and "tokens/s" in r.stderr
    assert run(*args).stdout == r.stdout  # the seed makes it repeatable


def test_the_text_is_what_generate_samples(model_dir):
    tok = tokenizers.Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    gpt = models.GPT.from_pretrained(model_dir)
    prompt = tok.encode("a dog").ids
    minigrad.manual_seed(7)
    ids = gpt.generate([prompt], 12, top_k=1).data[0, len(prompt):].tolist()
    r = run("--model-dir", str(model_dir), "--prompt", "a dog", "--max-new-tokens", "12",
            "--top-k", "1", "--seed", "7")
    assert r.stdout == "a dog" + tok.decode(ids) + "\n"


@pytest.mark.parametrize("args, fragment", [
    (("--prompt", ""), "--prompt must not be empty"),
    (("--prompt", "x", "--temperature", "0"), "--temperature"),
    (("--prompt", "x", "--top-k", "0"), "--top-k"),
])
def test_user_errors_exit_2_with_one_line(model_dir, args, fragment):
    r = run("--model-dir", str(model_dir), *args)
    assert r.returncode == 2 and fragment in r.stderr and "Traceback" not in r.stderr


def test_a_directory_without_a_tokenizer_is_explained(tmp_path):
    minigrad.manual_seed(0)
    models.GPT(vocab_size=50, block_size=8, n_layer=1, n_head=2, n_embd=8).save_pretrained(
        tmp_path)
    r = run("--model-dir", str(tmp_path), "--prompt", "hi")
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert "tokenizer" in r.stderr

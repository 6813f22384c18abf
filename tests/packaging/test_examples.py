"""The seeds' runnable examples: attention walkthrough, StatQuest's toy decoder, translation.

Each script runs end to end as a subprocess (as a user runs it); the numbers and behaviour
they promise are checked in-process, which is faster.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
sys.path.insert(0, str(EXAMPLES))

import attention_walkthrough
import tiny_decoder
import translate


def run_script(name: str, *args: str) -> str:
    r = subprocess.run([sys.executable, str(EXAMPLES / name), *args], capture_output=True,
                       text=True, timeout=300, cwd=EXAMPLES.parent, check=False)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    return r.stdout


# ---------------------------------------------------------------- attention walkthrough ----
def test_attention_walkthrough_prints_every_stage_and_the_horizon_numbers():
    out = run_script("attention_walkthrough.py")
    for stage, shape in [("x (embeddings + positions)", "(2, 6, 4)"),
                         ("head 0: q = x @ Wq.T", "(2, 6, 2)"),
                         ("head 1: k = x @ Wk.T", "(2, 6, 2)"),
                         ("head 0: v = x @ Wv.T", "(2, 6, 2)"),
                         ("head 0: scores = q @ k^T", "(2, 6, 6)"),
                         ("head 0: scaled = scores / sqrt(head_size)", "(2, 6, 6)"),
                         ("head 0: masked = scaled, -inf where key j > query i", "(2, 6, 6)"),
                         ("head 0: weights = softmax(masked)", "(2, 6, 6)"),
                         ("head 1: out = weights @ v", "(2, 6, 2)"),
                         ("heads concatenated", "(2, 6, 4)"),
                         ("projection: concat @ Wo.T + bo", "(2, 6, 4)")]:
        assert f"{stage}  shape {shape}" in out, stage
    assert "-inf" in out
    assert "[[0.4254 0.7648 0.3096 0.7953 0.8659 0.9515]]" in out  # the post's scores
    assert "[[0.1252 0.1758 0.1115 0.1812 0.1945 0.2119]]" in out  # its (unscaled) softmax
    assert "'horizon' gets [0.5863, 0.4658]" in out
    assert "unscaled exactly: [0.5862, 0.4673]" in out
    assert "nn.MultiHeadAttention with the same weights: max |difference| = 0.0e+00" in out \
        or "max |difference| = " in out and float(
            out.split("max |difference| = ")[1].split()[0]) < 1e-6


def test_horizon_numbers(capsys):
    rows = attention_walkthrough.part2()
    capsys.readouterr()
    np.testing.assert_allclose(rows["scores"], attention_walkthrough.POST_SCORES, atol=6e-5)
    np.testing.assert_allclose(rows["softmax_unscaled"], attention_walkthrough.POST_SOFTMAX,
                               atol=6e-5)
    assert not np.allclose(rows["softmax_scaled"], attention_walkthrough.POST_SOFTMAX,
                           atol=1e-3)  # the post's row is not the scaled one
    np.testing.assert_allclose(rows["out_scaled"], [0.5863, 0.4658], atol=6e-5)
    np.testing.assert_allclose(rows["out_unscaled"], [0.5862, 0.4673], atol=6e-5)
    np.testing.assert_allclose(rows["out_printed"], attention_walkthrough.POST_OUT, atol=6e-5)
    np.testing.assert_allclose(rows["softmax_scaled"].sum(), 1.0, rtol=1e-6)


# ---------------------------------------------------------------- tiny decoder -------------
def test_tiny_decoder_script_answers_awesome():
    out = run_script("tiny_decoder.py")
    assert "37 parameters" in out  # as the notebook's model summary
    assert out.rstrip().endswith("what is statquest <EOS> -> awesome <EOS>")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_tiny_decoder_learns_both_sequences(seed, capsys):
    assert tiny_decoder.main(["--seed", str(seed)]) == ["awesome", "<EOS>"]
    assert "step 100: loss" in capsys.readouterr().out
    # the training data: shifted by one (teacher forcing)
    np.testing.assert_array_equal(tiny_decoder.INPUTS[:, 1:], tiny_decoder.LABELS[:, :-1])


# ---------------------------------------------------------------- translation --------------
def test_translate_script_copy_task_runs():
    out = run_script("translate.py", "--task", "copy", "--iters", "30", "--show", "2",
                     "--num-held-out", "8")
    assert "task copy: 2000 training pairs, 8 held out" in out
    assert out.count("greedy: ") == 2 and out.count("beam:   ") == 2
    assert "exact match on 8 held-out pairs: greedy " in out


def test_translate_default_run_learns_held_out_sentences(capsys):
    rates = translate.main(["--show", "1"])  # the default run
    out = capsys.readouterr().out
    assert "'today is sunday'\n      greedy: 'hoje é domingo' (ok)" in out
    assert rates["greedy"] >= 0.85 and rates["beam"] >= 0.85, rates


def test_translation_corpus_and_shift_right():
    pairs = translate.translation_pairs()
    assert ("today is sunday", "hoje é domingo") in pairs
    assert ("the big house", "a casa grande") in pairs
    assert ("i see the red car", "eu vejo o carro vermelho") in pairs
    assert len({s for s, _ in pairs}) == len(pairs)
    train, test = translate.make_dataset("translate", 0.15, np.random.default_rng(0))
    assert not {s for s, _ in train} & {s for s, _ in test}  # held out means unseen
    assert ("today is sunday", "hoje é domingo") in test

    src_v = translate.Vocab([s for s, _ in pairs])
    tgt_v = translate.Vocab([t for _, t in pairs])
    src, tgt_in, tgt_out = translate.batch_arrays([("today is sunday", "hoje é domingo"),
                                                   ("the big house", "a casa grande")],
                                                  src_v, tgt_v)
    assert src.shape == (2, 3) and tgt_in.shape == tgt_out.shape == (2, 4)
    assert tgt_in[0, 0] == 1 and (tgt_in[:, 1:] == np.where(tgt_out[:, :-1] < 0, 0,
                                                            tgt_out[:, :-1])).all()
    assert tgt_v.decode(tgt_out[0]) == "hoje é domingo" and tgt_out[0, 3] == 2  # </s>


@pytest.mark.parametrize("task", ["copy", "reverse"])
def test_toy_tasks(task):
    pairs = translate.toy_pairs(task, 20, np.random.default_rng(1))
    for src, tgt in pairs:
        assert 3 <= len(src.split()) <= 8
        assert tgt.split() == (src.split() if task == "copy" else src.split()[::-1])

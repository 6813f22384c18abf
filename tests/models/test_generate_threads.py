"""Sampling never touches shared module state: ``generate``, the decoders and
``viz.attention_weights`` run in eval semantics in their own thread
(``nn.module.eval_in_this_thread``), so another thread training the same model keeps its
dropout and sees ``.training`` unchanged; and every loader of GPT returns eval mode."""

from __future__ import annotations

import threading

import numpy as np
import pytest

import minigrad
from minigrad import models, nn, viz

V, BLOCK = 11, 8


def make_gpt() -> models.GPT:
    minigrad.manual_seed(0)
    return models.GPT(vocab_size=V, block_size=BLOCK, n_layer=2, n_head=2, n_embd=16,
                      dropout=0.5)


def make_transformer() -> models.Transformer:
    minigrad.manual_seed(0)
    return models.Transformer(src_vocab_size=V, tgt_vocab_size=V, d_model=16, num_heads=2,
                              num_encoder_layers=1, num_decoder_layers=1, d_ff=32, max_len=16,
                              dropout=0.5)


SRC = np.array([[3, 4, 5, 6]])
INFERENCE = {
    "GPT.generate": (make_gpt, lambda m: m.generate(np.array([[1, 2]]), 3)),
    "Transformer.greedy_decode": (make_transformer, lambda m: m.greedy_decode(SRC, 1, 2, 5)),
    "Transformer.beam_search": (make_transformer,
                                lambda m: m.beam_search(SRC, 1, 2, 5, beam_size=2)),
    "viz.attention_weights": (make_gpt, lambda m: viz.attention_weights(m, np.array([[1, 2]]))),
}


@pytest.mark.parametrize("name", list(INFERENCE))
def test_another_thread_sees_train_mode_and_dropout_during_inference(name):
    make, infer = INFERENCE[name]
    model = make()
    drop = next(m for m in model.modules() if isinstance(m, nn.Dropout))
    seen = {}

    def probe_in_another_thread():
        # what a training thread sees while the inference call runs
        seen["modes"] = [m.training for m in model.modules()]
        out = drop(minigrad.ones(1000)).data
        seen["dropped"] = int((out == 0).sum())

    def forward_with_probe(x, _forward=drop.forward):
        if "modes" not in seen:
            seen["here"] = model.training
            t = threading.Thread(target=probe_in_another_thread)
            t.start()
            t.join()
        return _forward(x)

    drop.forward = forward_with_probe
    infer(model)
    assert seen["here"] is False  # the inference call runs in eval semantics
    assert all(seen["modes"])  # ... but only in its own thread
    assert 300 < seen["dropped"] < 700
    assert all(m.training for m in model.modules())


@pytest.mark.parametrize("name", list(INFERENCE))
def test_each_module_keeps_its_own_mode(name):
    make, infer = INFERENCE[name]
    model = make()
    frozen = [m for m in model.modules() if isinstance(m, nn.Dropout)][1:]
    for m in frozen:
        m.eval()
    modes = [m.training for m in model.modules()]
    infer(model)
    assert [m.training for m in model.modules()] == modes


def test_training_forwards_keep_dropout_while_another_thread_generates():
    model = make_gpt()
    ids = np.random.default_rng(1).integers(0, V, size=(2, BLOCK))
    with minigrad.no_grad():
        model.eval()
        plain, _ = model(ids)
        model.train()
    done = threading.Event()
    counts = {"forwards": 0, "without_dropout": 0, "eval_mode_seen": 0}

    def train_loop():
        with minigrad.no_grad():
            while not done.is_set() or counts["forwards"] < 20:
                logits, _ = model(ids)
                counts["forwards"] += 1
                counts["without_dropout"] += bool(np.array_equal(logits.data, plain.data))
                counts["eval_mode_seen"] += not all(m.training for m in model.modules())

    trainer = threading.Thread(target=train_loop)
    trainer.start()
    try:
        for _ in range(30):
            model.generate(np.array([[1, 2]]), 4)
    finally:
        done.set()
        trainer.join()
    assert counts["forwards"] >= 20
    assert counts["without_dropout"] == 0 and counts["eval_mode_seen"] == 0, counts


def test_generate_is_deterministic_per_seed_and_samples_as_in_eval_mode():
    model = make_gpt()
    prompt = np.array([[1, 2], [3, 4]])
    minigrad.manual_seed(5)
    in_train = model.generate(prompt, 6).data
    assert model.training
    minigrad.manual_seed(5)
    np.testing.assert_array_equal(model.generate(prompt, 6).data, in_train)
    model.eval()
    minigrad.manual_seed(5)
    np.testing.assert_array_equal(model.generate(prompt, 6).data, in_train)


def test_eval_in_this_thread_nests_and_restores_on_error():
    model = make_gpt()
    with pytest.raises(KeyError), nn.module.eval_in_this_thread():
        with nn.module.eval_in_this_thread():
            assert not model.training
        assert not model.training
        raise KeyError("inside")
    assert model.training
    model.eval()
    assert not model.training


LOADERS = {
    "from_safetensors": lambda m, d: models.GPT.from_safetensors(_saved(m, d / "w.safetensors")),
    "from_pretrained": lambda m, d: models.GPT.from_pretrained(_pretrained(m, d / "hf")),
    "from_nanogpt": lambda m, d: models.GPT.from_nanogpt(m.to_nanogpt(),
                                                         **_nanogpt_config(m)),
}


def _saved(model, path):
    model.save_safetensors(path)
    return path


def _pretrained(model, path):
    model.save_pretrained(path)
    return path


def _nanogpt_config(model):
    cfg = model.config
    return {"n_head": cfg.n_head}


@pytest.mark.parametrize("loader", list(LOADERS))
def test_every_loader_returns_eval_mode(tmp_path, loader):
    minigrad.manual_seed(0)
    model = models.GPT(vocab_size=V, block_size=BLOCK, n_layer=2, n_head=2, n_embd=16,
                       bias=True, dropout=0.1)
    assert model.training
    loaded = LOADERS[loader](model, tmp_path)
    assert not any(m.training for m in loaded.modules())
    for (name, p), q in zip(model.state_dict().items(), loaded.state_dict().values()):
        np.testing.assert_array_equal(np.asarray(p), np.asarray(q), err_msg=name)

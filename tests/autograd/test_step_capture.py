"""minigrad.capture: a replayed step equals the eager one to the bit, and every guard holds.

Each model family trains N steps twice from the same seed, once eagerly and once through a
captured step (two recorded calls, then replays); every parameter, buffer and loss must be
identical. Then each thing a guard watches is changed between calls, and the step must
record again (or run eagerly, saying why), never replay the old work.
"""

from __future__ import annotations

import threading
import warnings

import numpy as np
import pytest

import minigrad
from minigrad import nn
from minigrad.models import GPT
from minigrad.step_capture import replayed

STEPS = 5


def _digits_cnn() -> nn.Module:
    return nn.Sequential(
        nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Dropout(0.2), nn.Linear(4 * 4 * 4, 10))


class _Recurrent(nn.Module):
    def __init__(self, cell: str) -> None:
        super().__init__()
        self.rnn = getattr(nn, cell)(6, 8, batch_first=True, bidirectional=True)
        self.head = nn.Linear(16, 10)

    def forward(self, x: minigrad.Tensor) -> minigrad.Tensor:
        out = self.rnn(x)[0]
        return self.head(out[:, -1])


class _WithLayerNorm(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 16), nn.LayerNorm(16), nn.GELU(),
                                 nn.Linear(16, 10))

    def forward(self, x: minigrad.Tensor) -> minigrad.Tensor:
        h = self.net(x)
        return h * 0.5 + h.tanh()  # a tensor used twice: its gradients are summed


# name -> (model factory, input shape, dtype)
FAMILIES = {
    "mlp": (lambda: nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 10)), (16, 12)),
    "layernorm": (_WithLayerNorm, (16, 12)),
    "cnn-batchnorm": (_digits_cnn, (8, 1, 8, 8)),
    "conv1d": (lambda: nn.Sequential(nn.Conv1d(1, 5, 5, stride=2), nn.ReLU(), nn.Flatten(),
                                     nn.Linear(5 * 8, 10)), (8, 1, 20)),
    "gru": (lambda: _Recurrent("GRU"), (8, 7, 6)),
    "lstm": (lambda: _Recurrent("LSTM"), (8, 7, 6)),
}


def _batches(shape: tuple, count: int = STEPS) -> list:
    rng = np.random.default_rng(1)
    return [(rng.standard_normal(shape).astype(np.float32),
             rng.integers(0, 10, shape[0]).astype(np.int64)) for _ in range(count)]


def _train(make, batches: list, captured: bool) -> tuple:
    minigrad.manual_seed(0)
    model = make()
    opt = minigrad.optim.Adam(model.parameters(), lr=1e-2)

    def step(x, y):
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        return loss

    run = minigrad.capture(step) if captured else step
    losses = []
    for x, y in batches:
        loss = run(minigrad.tensor(x), minigrad.tensor(y))
        losses.append(loss.item())
        minigrad.optim.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad()
    return model, losses, run


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_replay_equals_eager_bit_for_bit(family: str) -> None:
    make, shape = FAMILIES[family]
    batches = _batches(shape)
    eager, eager_losses, _ = _train(make, batches, captured=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the step must not fall back to eager
        replayed_model, losses, run = _train(make, batches, captured=True)
    assert run.recordings == 2 and run.replays == STEPS - 2, (run.recordings, run.eager_reason)
    assert losses == eager_losses
    want, got = eager.state_dict(), replayed_model.state_dict()
    assert want.keys() == got.keys()
    for name in want:
        assert np.array_equal(np.asarray(want[name]), np.asarray(got[name])), name


def test_gpt_with_dropout_and_gradient_accumulation_replays_equal() -> None:
    """Dropout masks are drawn anew at each replay (the same stream as eager), and two
    micro-batches in one step sum their gradients in .grad as eagerly."""
    rng = np.random.default_rng(0)
    data = [rng.integers(0, 20, (3, 2, 16)) for _ in range(STEPS)]

    def train(captured: bool) -> tuple:
        minigrad.manual_seed(3)
        model = GPT(20, 16, 2, 2, 16, dropout=0.1)
        opt = minigrad.optim.AdamW(model.parameters(), lr=1e-2)

        def step(x, y, x2, y2):
            for a, b in ((x, y), (x2, y2)):
                _, loss = model(a, b, return_logits=False)
                (loss / 2).backward()
            return loss

        run = minigrad.capture(step) if captured else step
        for ids in data:
            run(ids[0], ids[1], ids[1], ids[2])
            opt.step()
            opt.zero_grad()
        return model, run

    eager, _ = train(False)
    replayed_model, run = train(True)
    assert run.replays == STEPS - 2
    for (name, p), (_, q) in zip(eager.named_parameters(), replayed_model.named_parameters()):
        assert np.array_equal(p.data, q.data), name


def _mlp_step():
    minigrad.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.5), nn.Linear(8, 3))

    @minigrad.capture
    def step(x, y):
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        return loss

    x = minigrad.tensor(np.ones((5, 4), np.float32))
    y = minigrad.tensor(np.zeros(5, np.int64))
    for _ in range(3):
        step(x, y)
    assert step.replays == 1
    return model, step, x, y


def test_a_new_shape_or_dtype_records_again_and_keeps_the_old_program() -> None:
    _, step, x, y = _mlp_step()
    x7 = minigrad.tensor(np.ones((7, 4), np.float32))
    y7 = minigrad.tensor(np.zeros(7, np.int64))
    assert step(x7, y7).shape == ()
    assert step.recordings == 3 and step.replays == 1
    step(x7, y7), step(x7, y7)
    assert step.replays == 2
    step(x, y)  # the first shape's program is still there
    assert step.replays == 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # float64 x with float32 weights: eager raises anyway
        with pytest.raises((TypeError, RuntimeError)):
            step(x.to(minigrad.float64), y)


def test_eval_mode_grad_mode_and_replaced_parameters_record_again() -> None:
    model, step, x, y = _mlp_step()
    model.eval()  # dropout off: the recorded masks must not be replayed
    before = step.recordings
    step(x, y)
    assert step.recordings == before + 1
    model.train()
    model[0].weight = nn.Parameter(np.zeros((8, 4), np.float32))
    recordings = step.recordings
    step(x, y)
    assert step.recordings == recordings + 1
    assert np.any(model[0].weight.grad.data != 0) or np.all(model[2].weight.grad.data == 0)
    with minigrad.no_grad():
        step.reset()
        n = step.recordings
        with pytest.raises(RuntimeError, match="does not require grad"):
            step(x, y)  # eager's error: backward under no_grad, and nothing recorded
        assert step.recordings == n
    step(x, y), step(x, y), step(x, y)
    assert step.eager_reason is None and step.replays >= 2


def test_frozen_parameter_changes_the_program() -> None:
    model, step, x, y = _mlp_step()
    model[0].weight.requires_grad_(False)
    model[0].weight.grad = None
    step(x, y)
    assert step.recordings == 3  # recorded again: the graph is different
    assert model[0].weight.grad is None


_OTHER = nn.Parameter(np.ones(2, np.float32))  # a parameter with a gradient, outside the graph
_OTHER.grad = minigrad.tensor(np.ones(2, np.float32))


@pytest.mark.parametrize("body, reason", [
    (lambda loss, p: loss.item(), "item()"),
    (lambda loss, p: bool(loss > 0), "bool()"),
    (lambda loss, p: loss.numpy(), "numpy()"),
    (lambda loss, p: np.asarray(loss), "np.asarray()"),
    (lambda loss, p: minigrad.randn(3), "random numbers"),
    (lambda loss, p: setattr(p, "grad", None), "sets .grad"),
    (lambda loss, p: p.zero_grad(), "sets .grad"),
    (lambda loss, p: minigrad.optim.SGD([_OTHER], lr=0.1).step(), "in place outside an op"),
    (lambda loss, p: p.data.__setitem__(0, 1.0) or loss.detach().tolist(), "tolist()"),
    (lambda loss, p: p.register_hook(lambda g: g), "hook"),
])
def test_what_replay_cannot_repeat_runs_eagerly_and_says_why(body, reason: str) -> None:
    p = nn.Parameter(np.ones(3, np.float32))
    p.grad = minigrad.tensor(np.zeros(3, np.float32))

    @minigrad.capture
    def step(x):
        loss = (p * x).sum()
        body(loss, p)
        loss.backward()
        return loss

    x = minigrad.tensor(np.arange(3, dtype=np.float32))
    with pytest.warns(RuntimeWarning, match="runs eagerly"):
        step(x)
    assert reason in step.eager_reason
    for _ in range(3):
        step(x)
    assert step.replays == 0 and step.eager_calls == 3
    assert step.eager_reason is not None and reason in step.eager_reason


def test_a_host_value_that_changes_between_calls_is_refused_not_baked() -> None:
    p = nn.Parameter(np.ones(3, np.float32))
    calls = {"n": 0}

    @minigrad.capture
    def step(x):
        calls["n"] += 1
        scale = minigrad.tensor(np.full(3, calls["n"], np.float32))  # made outside the ops
        loss = (p * x * scale).sum()
        loss.backward()
        return loss

    x = minigrad.tensor(np.ones(3, np.float32))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(6):
            step(x)
            p.grad = None
    assert any("does not do the same work" in str(w.message) for w in caught)
    assert step.replays == 0
    # the eager steps were right: the last gradient is the last scale
    step(x)
    assert np.array_equal(p.grad.data, np.full(3, calls["n"], np.float32))


def test_a_constant_made_inside_the_step_is_kept_and_a_live_buffer_is_read_live() -> None:
    p = nn.Parameter(np.ones(4, np.float32))
    buffer = minigrad.tensor(np.zeros(4, np.float32))

    @minigrad.capture
    def step(x):
        loss = (p * x * minigrad.arange(4).float() + buffer).sum()
        loss.backward()
        return loss

    x = minigrad.tensor(np.ones(4, np.float32))
    for i in range(4):
        buffer.data[...] = i  # written between calls: replay must see it
        assert step(x).item() == 6 + 4 * i
    assert step.replays == 2


@replayed
def _noise(shape: tuple) -> np.ndarray:
    return minigrad.random.generator().standard_normal(shape).astype(np.float32)


def test_replayed_function_draws_the_same_stream_as_eager() -> None:
    p = nn.Parameter(np.ones(5, np.float32))

    def step(x):
        loss = (p * (x + minigrad.tensor(_noise((5,))))).sum()
        loss.backward()
        return loss

    def run(f) -> list:
        minigrad.manual_seed(11)
        p.grad = None
        out = []
        for _ in range(5):
            out.append(f(minigrad.tensor(np.ones(5, np.float32))).item())
        return out

    captured = minigrad.capture(step)
    assert run(captured) == run(step)
    assert captured.replays == 3


def test_returned_tensor_with_unused_graph_is_refused() -> None:
    p = nn.Parameter(np.ones(3, np.float32))

    @minigrad.capture
    def forward_only(x):
        return (p * x).sum()  # the caller would call backward: replay could not

    with pytest.warns(RuntimeWarning, match="backward has not used"):
        loss = forward_only(minigrad.tensor(np.ones(3, np.float32)))
    loss.backward()
    assert np.array_equal(p.grad.data, np.ones(3, np.float32))


def test_forward_only_step_under_no_grad_replays() -> None:
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh())

    @minigrad.capture
    def predict(x):
        return model(x)

    x = minigrad.tensor(np.ones((2, 3), np.float32))
    with minigrad.no_grad():
        outs = [predict(x).data.copy() for _ in range(4)]
    assert predict.replays == 2
    assert all(np.array_equal(o, outs[0]) for o in outs)


def test_replays_from_two_threads_sum_into_grad() -> None:
    p = nn.Parameter(np.ones(4, np.float32))

    @minigrad.capture
    def step(x):
        loss = (p * x).sum()
        loss.backward()
        return loss

    x = minigrad.tensor(np.ones(4, np.float32))
    step(x), step(x)
    p.grad = None
    threads = [threading.Thread(target=lambda: [step(x) for _ in range(50)]) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert np.array_equal(p.grad.data, np.full(4, 100, np.float32))


def test_out_of_range_targets_still_raise_on_replay() -> None:
    """Host checks of the data (token ids, targets) are replayed: a bad batch raises."""
    model = nn.Sequential(nn.Embedding(5, 3), nn.Flatten(), nn.Linear(6, 4))

    @minigrad.capture
    def step(ids, y):
        loss = nn.functional.cross_entropy(model(ids), y)
        loss.backward()
        return loss

    ids = np.array([[0, 1], [2, 3]])
    y = np.array([0, 3])
    for _ in range(3):
        step(ids, y)
    assert step.replays == 1
    with pytest.raises(IndexError):
        step(np.array([[0, 1], [2, 9]]), y)
    with pytest.raises(IndexError):
        step(ids, np.array([0, 7]))
    ignored = np.array([0, -100])  # a batch with an ignored target: the mean over 1, not 2
    replayed_loss = step(ids, ignored).item()
    model.zero_grad()
    eager = nn.functional.cross_entropy(model(minigrad.tensor(ids)), minigrad.tensor(ignored))
    assert replayed_loss == eager.item()


def test_masks_made_from_the_batch_are_made_again_at_each_replay() -> None:
    """A padding mask equal on the two recorded calls (no padding yet) is still data: a later
    batch with padding must be masked, as eagerly."""
    from minigrad.models import Transformer

    rng = np.random.default_rng(0)

    def losses(captured: bool) -> list:
        minigrad.manual_seed(0)
        model = Transformer(12, 12, 16, 2, 1, 1, 32, 20, pad_id=0)
        mha = nn.MultiheadAttention(16, 2, batch_first=True)

        def step(src, tgt, y, x, kpm):
            logits = model(src, tgt)
            loss = nn.functional.cross_entropy(logits.reshape(-1, 12), minigrad.tensor(y))
            loss = loss + mha(x, x, x, key_padding_mask=kpm, need_weights=False)[0].sum()
            sdpa = nn.functional.scaled_dot_product_attention(x, x, x, attn_mask=~kpm[:, None])
            loss = loss + sdpa.sum()
            loss.backward()
            return loss

        run = minigrad.capture(step) if captured else step
        out = []
        for i in range(5):
            src, tgt = rng.integers(1, 12, (2, 6)), rng.integers(1, 12, (2, 5))
            kpm = np.zeros((2, 4), bool)
            if i >= 3:  # padding from the first replayed call on
                src[0, 4:], tgt[1, 3:] = 0, 0
                kpm[1, 2:] = True
            x = minigrad.tensor(rng.standard_normal((2, 4, 16)).astype(np.float32))
            out.append(run(src, tgt, rng.integers(1, 12, 10), x, minigrad.tensor(kpm)).item())
            model.zero_grad()
            mha.zero_grad()
        if captured:
            assert run.replays == 3, run.eager_reason
        return out

    rng = np.random.default_rng(0)
    eager = losses(False)
    rng = np.random.default_rng(0)
    assert losses(True) == eager


def test_a_backend_switch_records_again_on_the_new_backend() -> None:
    _, step, x, y = _mlp_step()
    replays = step.replays
    other = "reference" if minigrad.get_backend() != "reference" else "fast"
    with minigrad.use_backend(other):
        for _ in range(3):
            step(x, y)
    assert step.recordings == 2 + 2 and step.replays == replays + 1
    step(x, y)  # back on the first backend: its program is still there
    assert step.replays == replays + 2

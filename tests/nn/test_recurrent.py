"""RNN, LSTM, GRU and their cells without PyTorch: gradients and second derivatives by finite
differences, PyTorch's state_dict keys and shapes written out, the errors, dropout between
layers, the cells agreeing with the sequence modules, and a GRU that learns."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.gradcheck import gradcheck, gradgradcheck


def _module(cls: str, *args, **kwargs):
    mg.manual_seed(0)
    return getattr(nn, cls)(*args, **kwargs).double()


def _outputs(out):
    """(output, h_n) or (output, (h_n, c_n)) as a flat tuple."""
    output, states = out
    return (output, *states) if isinstance(states, tuple) else (output, states)


GRAD_CASES = [  # (class, kwargs): every kind, with the options that change the graph
    ("RNN", {}),
    ("RNN", {"nonlinearity": "relu", "bias": False, "batch_first": True}),
    ("LSTM", {"num_layers": 2, "bidirectional": True}),
    ("LSTM", {"proj_size": 1}),
    ("GRU", {"num_layers": 2}),
    ("GRU", {"bidirectional": True, "batch_first": True}),
]


@pytest.mark.parametrize("cls,kwargs", GRAD_CASES)
def test_gradcheck_input_states_and_every_parameter(cls, kwargs):
    m = _module(cls, 2, 2, **kwargs)
    rng = np.random.default_rng(0)
    x = mg.tensor(rng.standard_normal((2, 2, 2)), requires_grad=True)
    rows = kwargs.get("num_layers", 1) * (2 if kwargs.get("bidirectional") else 1)
    h = mg.tensor(rng.standard_normal((rows, 2, kwargs.get("proj_size") or 2)), requires_grad=True)
    states = [h]
    if cls == "LSTM":
        states.append(mg.tensor(rng.standard_normal((rows, 2, 2)), requires_grad=True))
    hx = tuple(states) if cls == "LSTM" else h
    params = list(m.parameters())
    assert gradcheck(lambda x, *rest: _outputs(m(x, hx)), [x, *states, *params])


@pytest.mark.parametrize("cls,kwargs", GRAD_CASES)
def test_gradgradcheck_input_and_recurrent_weight(cls, kwargs):
    m = _module(cls, 2, 2, **kwargs)
    rng = np.random.default_rng(1)
    x = mg.tensor(rng.standard_normal((2, 1, 2)), requires_grad=True)
    assert gradgradcheck(lambda x, *rest: _outputs(m(x)), [x, m.weight_hh_l0])


@pytest.mark.parametrize("cls,kwargs", [("RNNCell", {}), ("RNNCell", {"nonlinearity": "relu"}),
                                        ("LSTMCell", {}), ("GRUCell", {"bias": False})])
def test_cells_gradcheck_and_gradgradcheck(cls, kwargs):
    m = _module(cls, 3, 2, **kwargs)
    rng = np.random.default_rng(2)
    x = mg.tensor(rng.standard_normal((2, 3)), requires_grad=True)
    states = [mg.tensor(rng.standard_normal((2, 2)), requires_grad=True)
              for _ in range(2 if cls == "LSTMCell" else 1)]
    hx = tuple(states) if cls == "LSTMCell" else states[0]
    assert gradcheck(lambda x, *rest: m(x, hx), [x, *states, *m.parameters()])
    assert gradgradcheck(lambda x, *rest: m(x, hx), [x, *states])


def test_state_dict_keys_are_pytorchs():
    m = nn.LSTM(4, 3, num_layers=2, bidirectional=True, proj_size=2)
    assert list(m.state_dict()) == [
        "weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "weight_hr_l0",
        "weight_ih_l0_reverse", "weight_hh_l0_reverse", "bias_ih_l0_reverse",
        "bias_hh_l0_reverse", "weight_hr_l0_reverse",
        "weight_ih_l1", "weight_hh_l1", "bias_ih_l1", "bias_hh_l1", "weight_hr_l1",
        "weight_ih_l1_reverse", "weight_hh_l1_reverse", "bias_ih_l1_reverse",
        "bias_hh_l1_reverse", "weight_hr_l1_reverse",
    ]
    assert [p.shape for p in m.all_weights[2]] == [(12, 4), (12, 2), (12,), (12,), (2, 3)]
    assert m.all_weights[2][0] is m.weight_ih_l1
    assert list(nn.GRU(4, 3, bias=False).state_dict()) == ["weight_ih_l0", "weight_hh_l0"]
    assert [(k, v.shape) for k, v in nn.GRUCell(4, 3).state_dict().items()] == [
        ("weight_ih", (9, 4)), ("weight_hh", (9, 3)), ("bias_ih", (9,)), ("bias_hh", (9,))]
    assert list(nn.RNNCell(4, 3, bias=False).state_dict()) == ["weight_ih", "weight_hh"]


def test_init_is_uniform_within_one_over_sqrt_hidden():
    for m in (nn.LSTM(5, 16, num_layers=2), nn.GRUCell(5, 16)):
        values = np.concatenate([p.data.ravel() for p in m.parameters()])
        assert values.dtype == np.float32
        assert np.abs(values).max() <= 0.25 and np.abs(values).max() > 0.24


SHAPE_CASES = list(itertools.product(("RNN", "LSTM", "GRU"), (1, 2), (False, True),
                                     (False, True), (False, True)))


@pytest.mark.parametrize("cls,layers,bidirectional,batch_first,unbatched", SHAPE_CASES)
def test_output_shapes(cls, layers, bidirectional, batch_first, unbatched):
    m = nn.__dict__[cls](3, 4, num_layers=layers, bidirectional=bidirectional,
                         batch_first=batch_first)
    L, N, D = 5, 2, 2 if bidirectional else 1
    shape = (L, 3) if unbatched else ((N, L, 3) if batch_first else (L, N, 3))
    output, states = m(mg.randn(*shape))
    expected_output = (L, D * 4) if unbatched else ((N, L, D * 4) if batch_first else (L, N, D * 4))
    assert output.shape == expected_output
    hidden = (D * layers, 4) if unbatched else (D * layers, N, 4)
    for h in states if cls == "LSTM" else (states,):
        assert h.shape == hidden


def test_lstm_projection_shapes():
    output, (h, c) = nn.LSTM(3, 4, num_layers=2, proj_size=2, bidirectional=True)(mg.randn(5, 2, 3))
    assert (output.shape, h.shape, c.shape) == ((5, 2, 4), (4, 2, 2), (4, 2, 4))


def test_last_output_is_the_final_state():
    """The forward direction's last step and the reverse direction's first step are h_n."""
    m = nn.GRU(3, 4, num_layers=2, bidirectional=True)
    output, h_n = m(mg.randn(5, 2, 3))
    np.testing.assert_array_equal(output.numpy()[-1, :, :4], h_n.numpy()[2])
    np.testing.assert_array_equal(output.numpy()[0, :, 4:], h_n.numpy()[3])


@pytest.mark.parametrize("cell_cls,seq_cls,kwargs", [
    ("RNNCell", "RNN", {"nonlinearity": "relu"}), ("LSTMCell", "LSTM", {}),
    ("GRUCell", "GRU", {}),
])
def test_cell_stepped_by_hand_equals_the_sequence_module(cell_cls, seq_cls, kwargs):
    seq = _module(seq_cls, 3, 4, **kwargs)
    cell = _module(cell_cls, 3, 4, **kwargs)
    cell.load_state_dict({k[:-3]: v for k, v in seq.state_dict().items()})
    x = mg.tensor(np.random.default_rng(0).standard_normal((5, 2, 3)))
    output, _ = seq(x)
    state = None
    for t in range(5):
        state = cell(x[t], state)
        h = state[0] if isinstance(state, tuple) else state
        np.testing.assert_allclose(h.numpy(), output.numpy()[t], rtol=1e-12, atol=1e-14)


def test_dropout_between_layers_only_in_training():
    m = nn.LSTM(3, 4, num_layers=2, dropout=0.5)
    x = mg.randn(5, 2, 3)
    m.eval()
    a, b = m(x)[0].numpy(), m(x)[0].numpy()
    np.testing.assert_array_equal(a, b)
    m.train()
    mg.manual_seed(1)
    c = m(x)[0].numpy()
    mg.manual_seed(1)
    np.testing.assert_array_equal(c, m(x)[0].numpy())
    assert not np.allclose(a, c)
    with pytest.warns(UserWarning, match="non-zero dropout expects num_layers greater than 1"):
        nn.GRU(3, 4, dropout=0.2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nn.GRU(3, 4, num_layers=2, dropout=0.2)


def test_flatten_parameters_is_a_no_op():
    m = nn.GRU(3, 4)
    before = [p.data.copy() for p in m.parameters()]
    assert m.flatten_parameters() is None
    assert all(np.array_equal(a, p.data) for a, p in zip(before, m.parameters()))


@pytest.mark.parametrize("make,call,error,message", [
    (lambda: nn.GRU(4, 3), lambda m: m(mg.ones(5, 2, 6)), RuntimeError,
     "input.size(-1) must be equal to input_size. Expected 4, got 6"),
    (lambda: nn.GRU(4, 3, 2), lambda m: m(mg.ones(5, 2, 4), mg.ones(2, 3, 3)), RuntimeError,
     "Expected hidden size (2, 2, 3), got [2, 3, 3]"),
    (lambda: nn.LSTM(4, 3), lambda m: m(mg.ones(5, 2, 4), (mg.ones(1, 2, 3), mg.ones(1, 2, 2))),
     RuntimeError, "Expected hidden[1] size (1, 2, 3), got [1, 2, 2]"),
    (lambda: nn.RNN(4, 3), lambda m: m(mg.ones(5, 2, 4), mg.ones(1, 3)), RuntimeError,
     "For batched 3-D input, hx should also be 3-D but got 2-D tensor"),
    (lambda: nn.GRU(4, 3), lambda m: m(mg.ones(5, 2, 4, 1)), ValueError,
     "GRU: Expected input to be 2D or 3D, got 4D instead"),
    (lambda: nn.GRU(4, 3), lambda m: m(mg.ones(5, 2, 4, dtype=np.float64)), ValueError,
     "RNN input dtype (float64) does not match weight dtype (float32)"),
    (lambda: nn.GRUCell(4, 3), lambda m: m(mg.ones(2, 5)), RuntimeError,
     "input has inconsistent input_size: got 5 expected 4"),
    (lambda: nn.LSTMCell(4, 3), lambda m: m(mg.ones(2, 4), (mg.ones(2, 3), mg.ones(2, 5))),
     RuntimeError, "hidden1 has inconsistent hidden_size: got 5, expected 3"),
    (lambda: nn.RNNCell(4, 3), lambda m: m(mg.ones(2, 4), mg.ones(3, 3)), RuntimeError,
     "Input batch size 2 doesn't match hidden0 batch size 3"),
    (lambda: nn.LSTM(4, 3, proj_size=3), None, ValueError,
     "proj_size has to be smaller than hidden_size"),
    (lambda: nn.GRU(4, 3, proj_size=1), None, ValueError,
     "proj_size argument is only supported for LSTM, not RNN or GRU"),
])
def test_errors(make, call, error, message):
    with pytest.raises(error) as info:
        module = make()
        call(module)
    assert str(info.value).startswith(message)


def test_gru_batch_first_learns_a_sequence_task():
    """A GRU over (B, 40, 1) sequences, as MNIST-1D's: a few Adam steps lower the loss."""
    mg.manual_seed(0)
    rng = np.random.default_rng(0)
    x = rng.standard_normal((32, 40, 1)).astype(np.float32)
    y = (x[:, :20, 0].sum(1) > x[:, 20:, 0].sum(1)).astype(np.int64)
    gru, head = nn.GRU(1, 16, batch_first=True), nn.Linear(16, 2)
    opt = mg.optim.Adam(list(gru.parameters()) + list(head.parameters()), lr=0.02)
    losses = []
    for _ in range(15):
        _, h_n = gru(mg.tensor(x))
        loss = nn.functional.cross_entropy(head(h_n[0]), mg.tensor(y))
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert all(p.grad is not None for p in gru.parameters())
    assert losses[-1] < 0.85 * losses[0]


@pytest.mark.parametrize("dtype", [mg.float64, "float64", np.float64])
@pytest.mark.parametrize("cls", ["RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell"])
def test_dtype_argument_makes_every_parameter_that_dtype(cls, dtype):
    m = getattr(nn, cls)(3, 4, dtype=dtype)
    assert {p.dtype for p in m.parameters()} == {np.dtype(np.float64)}

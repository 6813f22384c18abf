"""RNN, LSTM, GRU and their cells against PyTorch: torch's state_dict loads strictly into
minigrad's module, and the forward values (float32 and float64) and the float64 gradients
with respect to the input, the initial states and every parameter agree, over every option."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn

torch = pytest.importorskip("torch")

KINDS = {  # name: (class name, constructor kwargs)
    "rnn_tanh": ("RNN", {}),
    "rnn_relu": ("RNN", {"nonlinearity": "relu"}),
    "lstm": ("LSTM", {}),
    "lstm_proj": ("LSTM", {"proj_size": 2}),
    "gru": ("GRU", {}),
}
IN, HID, SEQ, BATCH = 4, 3, 3, 2


def _pair(cls: str, dtype: str, **kwargs):
    """A torch module and a minigrad module holding torch's weights (loaded strictly)."""
    torch.manual_seed(0)
    t = getattr(torch.nn, cls)(IN, HID, **kwargs).to(getattr(torch, dtype))
    m = getattr(nn, cls)(IN, HID, **kwargs).to(dtype=np.dtype(dtype))
    result = m.load_state_dict({k: v.detach().numpy() for k, v in t.state_dict().items()},
                               strict=True)
    assert result.missing_keys == [] and result.unexpected_keys == []
    assert list(m.state_dict()) == list(t.state_dict())
    return t, m


def _flat(out):
    return list(out) if isinstance(out, tuple) else [out]


def _states(cls, kwargs, rng, dtype, unbatched):
    rows = kwargs.get("num_layers", 1) * (2 if kwargs.get("bidirectional") else 1)
    lead = (rows,) if unbatched else (rows, BATCH)
    h = rng.standard_normal(lead + (kwargs.get("proj_size") or HID,)).astype(dtype)
    if cls == "LSTM":
        return [h, rng.standard_normal(lead + (HID,)).astype(dtype)]
    return [h]


def _compare(t, m, x, states, dtype, rtol):
    """Forward both; compare values, then (float64) gradients of a random projection."""
    grads = dtype == "float64"
    tx = torch.tensor(x, requires_grad=grads)
    mx = mg.tensor(x, requires_grad=grads)
    ts = [torch.tensor(s, requires_grad=grads) for s in states]
    ms = [mg.tensor(s, requires_grad=grads) for s in states]
    thx = None if not states else (tuple(ts) if len(ts) == 2 else ts[0])
    mhx = None if not states else (tuple(ms) if len(ms) == 2 else ms[0])
    t_out, t_h = t(tx, thx)
    m_out, m_h = m(mx, mhx)
    t_all, m_all = [t_out] + _flat(t_h), [m_out] + _flat(m_h)
    for a, b in zip(t_all, m_all):
        assert b.shape == tuple(a.shape)
        assert b.dtype == np.dtype(dtype)
        np.testing.assert_allclose(b.numpy(), a.detach().numpy(), rtol=rtol, atol=rtol)
    if not grads:
        return
    rng = np.random.default_rng(3)
    weights = [rng.standard_normal(a.shape) for a in t_all]
    sum(((a * torch.tensor(w)).sum() for a, w in zip(t_all, weights))).backward()
    total = m_all[0].mul(mg.tensor(weights[0])).sum()
    for b, w in zip(m_all[1:], weights[1:]):
        total = total + b.mul(mg.tensor(w)).sum()
    total.backward()
    np.testing.assert_allclose(mx.grad, tx.grad.numpy(), rtol=1e-9, atol=1e-11)
    for a, b in zip(ts, ms):
        np.testing.assert_allclose(b.grad, a.grad.numpy(), rtol=1e-9, atol=1e-11)
    m_params = dict(m.named_parameters())
    for name, p in t.named_parameters():
        np.testing.assert_allclose(m_params[name].grad, p.grad.numpy(), rtol=1e-9, atol=1e-11,
                                   err_msg=name)


MODULE_CASES = list(itertools.product(
    KINDS, (1, 2), (False, True), (False, True), (True, False), (False, True), (False, True)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kind,layers,bidirectional,batch_first,bias,hx,unbatched", MODULE_CASES)
def test_module_matches_torch(kind, layers, bidirectional, batch_first, bias, hx, unbatched,
                              dtype):
    cls, kwargs = KINDS[kind]
    kwargs = dict(kwargs, num_layers=layers, bidirectional=bidirectional,
                  batch_first=batch_first, bias=bias)
    t, m = _pair(cls, dtype, **kwargs)
    rng = np.random.default_rng(1)
    shape = (SEQ, IN) if unbatched else ((BATCH, SEQ, IN) if batch_first else (SEQ, BATCH, IN))
    x = rng.standard_normal(shape).astype(dtype)
    states = _states(cls, kwargs, rng, dtype, unbatched) if hx else []
    _compare(t, m, x, states, dtype, rtol=1e-5 if dtype == "float32" else 1e-12)


def test_dropout_between_layers_in_eval_is_the_identity_as_torch():
    """dropout > 0 changes nothing in eval mode: equal to torch's eval forward."""
    t, m = _pair("LSTM", "float64", num_layers=2, dropout=0.5)
    t.eval()
    m.eval()
    x = np.random.default_rng(0).standard_normal((SEQ, BATCH, IN))
    _compare(t, m, x, [], "float64", rtol=1e-12)


CELLS = {  # name: (class name, kwargs, number of states)
    "rnn_tanh": ("RNNCell", {}, 1),
    "rnn_relu": ("RNNCell", {"nonlinearity": "relu"}, 1),
    "lstm": ("LSTMCell", {}, 2),
    "gru": ("GRUCell", {}, 1),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("kind,bias,hx,unbatched",
                         list(itertools.product(CELLS, (True, False), (False, True),
                                                (False, True))))
def test_cell_matches_torch(kind, bias, hx, unbatched, dtype):
    cls, kwargs, num_states = CELLS[kind]
    t, m = _pair(cls, dtype, bias=bias, **kwargs)
    rng = np.random.default_rng(2)
    lead = () if unbatched else (BATCH,)
    x = rng.standard_normal(lead + (IN,)).astype(dtype)
    states = [rng.standard_normal(lead + (HID,)).astype(dtype) for _ in range(num_states)]
    grads = dtype == "float64"
    tx, mx = torch.tensor(x, requires_grad=grads), mg.tensor(x, requires_grad=grads)
    ts = [torch.tensor(s, requires_grad=grads) for s in states]
    ms = [mg.tensor(s, requires_grad=grads) for s in states]
    args_t = (tx,) if not hx else (tx, tuple(ts) if num_states == 2 else ts[0])
    args_m = (mx,) if not hx else (mx, tuple(ms) if num_states == 2 else ms[0])
    t_out, m_out = _flat(t(*args_t)), _flat(m(*args_m))
    rtol = 1e-5 if dtype == "float32" else 1e-12
    for a, b in zip(t_out, m_out):
        assert b.shape == tuple(a.shape)
        np.testing.assert_allclose(b.numpy(), a.detach().numpy(), rtol=rtol, atol=rtol)
    if not grads:
        return
    weights = [rng.standard_normal(a.shape) for a in t_out]
    sum((a * torch.tensor(w)).sum() for a, w in zip(t_out, weights)).backward()
    total = m_out[0].mul(mg.tensor(weights[0])).sum()
    if len(m_out) == 2:
        total = total + m_out[1].mul(mg.tensor(weights[1])).sum()
    total.backward()
    pairs = [(mx, tx)] + (list(zip(ms, ts)) if hx else [])
    pairs += [(dict(m.named_parameters())[n], p) for n, p in t.named_parameters()]
    for b, a in pairs:
        np.testing.assert_allclose(b.grad, a.grad.numpy(), rtol=1e-9, atol=1e-11)


@pytest.mark.parametrize("make,call", [
    (lambda lib: lib.GRU(4, 3, 2), lambda lib, m: m(lib.ones(5, 2, 4), lib.ones(2, 3, 3))),
    (lambda lib: lib.GRU(4, 3), lambda lib, m: m(lib.ones(5, 2, 4), lib.ones(2, 3))),
    (lambda lib: lib.GRU(4, 3), lambda lib, m: m(lib.ones(5, 2, 4, 1))),
    (lambda lib: lib.RNN(4, 3), lambda lib, m: m(lib.ones(5, 2, 4, 1))),
    (lambda lib: lib.LSTM(4, 3), lambda lib, m: m(lib.ones(5, 2, 4, 1))),
    (lambda lib: lib.LSTM(4, 3, 2), lambda lib, m: m(lib.ones(5, 2, 6))),
    (lambda lib: lib.LSTM(4, 3, 2),
     lambda lib, m: m(lib.ones(5, 2, 4), (lib.ones(2, 3, 3), lib.ones(2, 2, 3)))),
    (lambda lib: lib.LSTM(4, 3, 2),
     lambda lib, m: m(lib.ones(5, 2, 4), (lib.ones(2, 2, 3), lib.ones(2, 3, 3)))),
    (lambda lib: lib.LSTM(4, 3), lambda lib, m: m(lib.ones(5, 4), (lib.ones(1, 1, 3),) * 2)),
    (lambda lib: lib.RNN(4, 3), lambda lib, m: m(lib.ones(0, 2, 4))),
    (lambda lib: lib.GRUCell(4, 3), lambda lib, m: m(lib.ones(2, 5))),
    (lambda lib: lib.GRUCell(4, 3), lambda lib, m: m(lib.ones(2, 4), lib.ones(3, 3))),
    (lambda lib: lib.RNNCell(4, 3), lambda lib, m: m(lib.ones(2, 4), lib.ones(2, 5))),
    (lambda lib: lib.LSTMCell(4, 3), lambda lib, m: m(lib.ones(2, 4), (lib.ones(2, 3),
                                                                        lib.ones(2, 5)))),
    (lambda lib: lib.LSTMCell(4, 3), lambda lib, m: m(lib.ones(3, 2, 4))),
    (lambda lib: lib.LSTMCell(4, 3), lambda lib, m: m(lib.ones(2, 4), (lib.ones(2, 3),
                                                                        lib.ones(1, 2, 3)))),
    (lambda lib: lib.GRUCell(4, 3), lambda lib, m: m(lib.ones(2, 4), lib.ones(1, 2, 3))),
    (lambda lib: lib.RNNCell(4, 3, nonlinearity="sig"), lambda lib, m: m(lib.ones(2, 4))),
    (lambda lib: lib.GRU(4, 3, proj_size=2), None),
    (lambda lib: lib.RNN(4, 3, nonlinearity="sig"), None),
    (lambda lib: lib.LSTM(4, 3, proj_size=3), None),
    (lambda lib: lib.LSTM(4, 3, dropout=1.5), None),
    (lambda lib: lib.LSTM(4, 3, num_layers=0), None),
    (lambda lib: lib.GRU(4, 0), None),
    (lambda lib: lib.GRU(4, 3, bias=1), None),
])
def test_errors_are_torchs(make, call):
    """The same exception type and message as PyTorch, for construction and forward."""
    def run(lib, tensors):
        module = make(lib)
        if call is not None:
            call(tensors, module)

    with pytest.raises(Exception) as expected:
        run(torch.nn, torch)
    with pytest.raises(type(expected.value)) as got:
        run(nn, mg)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("kwargs", [
    {}, {"num_layers": 2, "bidirectional": True, "proj_size": 2}, {"bias": False},
    {"batch_first": True, "dropout": 0.5, "num_layers": 2},
])
@pytest.mark.parametrize("cls", ["RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell"])
def test_repr_and_parameter_shapes_are_torchs(cls, kwargs):
    if "proj_size" in kwargs and cls != "LSTM":
        kwargs = {k: v for k, v in kwargs.items() if k != "proj_size"}
    if cls.endswith("Cell"):
        kwargs = {k: v for k, v in kwargs.items() if k == "bias"}
    t = getattr(torch.nn, cls)(4, 3, **kwargs)
    m = getattr(nn, cls)(4, 3, **kwargs)
    assert repr(m) == repr(t)
    assert [(n, p.shape) for n, p in m.named_parameters()] == \
        [(n, tuple(p.shape)) for n, p in t.named_parameters()]
    if not cls.endswith("Cell"):
        assert [[tuple(w.shape) for w in ws] for ws in t.all_weights] == \
            [[w.shape for w in ws] for ws in m.all_weights]

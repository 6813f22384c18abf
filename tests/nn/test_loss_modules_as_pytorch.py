"""Loss modules as PyTorch's: every constructor argument of the functional form, the class
weights as buffers in ``state_dict`` (PyTorch's state dicts load strictly), every target
ignored giving nan, and a class weight's gradient where PyTorch gives one."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import minigrad as mg
from minigrad import nn
from minigrad.nn import functional as F

W = np.array([0.5, 2.0, 1.5], np.float32)

# (class, constructor keywords): each takes what its functional form takes
LOSSES = [
    ("CrossEntropyLoss", {"weight": W, "ignore_index": 1, "label_smoothing": 0.1}),
    ("NLLLoss", {"weight": W, "ignore_index": 1}),
    ("BCELoss", {"weight": W}),
    ("BCEWithLogitsLoss", {"weight": W, "pos_weight": W}),
    ("MSELoss", {}),
    ("L1Loss", {}),
    ("CrossEntropyLoss", {"reduce": False}),
    ("NLLLoss", {"size_average": False}),
]


@pytest.mark.parametrize("name, kwargs", LOSSES, ids=[f"{n}-{sorted(k)}" for n, k in LOSSES])
def test_state_dict_and_options_are_pytorchs(name: str, kwargs: dict) -> None:
    ours = getattr(nn, name)(**{k: mg.tensor(v) if isinstance(v, np.ndarray) else v
                                for k, v in kwargs.items()})
    theirs = getattr(torch.nn, name)(**{k: torch.from_numpy(v) if isinstance(v, np.ndarray)
                                        else v for k, v in kwargs.items()})
    assert list(ours.state_dict()) == list(theirs.state_dict())
    ours.load_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()}, strict=True)
    assert ours.reduction == theirs.reduction
    for k, v in theirs.state_dict().items():
        np.testing.assert_array_equal(ours.state_dict()[k].data, v.numpy())


@pytest.mark.parametrize("weight", [None, W])
@pytest.mark.parametrize("smoothing", [0.0, 0.2])
@pytest.mark.parametrize("fn", ["cross_entropy", "nll_loss"])
def test_every_target_ignored_is_nan_with_zero_gradient(weight, smoothing, fn) -> None:
    if fn == "nll_loss" and smoothing:
        pytest.skip("nll_loss has no label_smoothing")
    x = np.random.default_rng(0).standard_normal((4, 3))
    t = np.full(4, -100)
    kw = {"label_smoothing": smoothing} if smoothing else {}
    tx = torch.tensor(x, requires_grad=True)
    tl = getattr(torch.nn.functional, fn)(
        tx, torch.from_numpy(t), None if weight is None else torch.from_numpy(weight).double(),
        **kw)
    tl.backward()
    mx = mg.tensor(x, requires_grad=True)
    ml = getattr(F, fn)(mx, t, None if weight is None else weight.astype(np.float64), **kw)
    ml.backward()
    assert np.isnan(tl.item()) and np.isnan(ml.item())
    np.testing.assert_array_equal(mx.grad.data, tx.grad.numpy())


@pytest.mark.parametrize("smoothing", [0.0, 0.3])
def test_class_weight_gradient_with_probability_targets(smoothing: float) -> None:
    rng = np.random.default_rng(1)
    x, w = rng.standard_normal((5, 3)), rng.random(3)
    p = np.exp(rng.standard_normal((5, 3)))
    p /= p.sum(1, keepdims=True)
    tw = torch.tensor(w, requires_grad=True)
    torch.nn.functional.cross_entropy(torch.tensor(x), torch.tensor(p), tw,
                                      label_smoothing=smoothing).backward()
    mw = mg.tensor(w, requires_grad=True)
    F.cross_entropy(mg.tensor(x), mg.tensor(p), mw, label_smoothing=smoothing).backward()
    np.testing.assert_allclose(mw.grad.data, tw.grad.numpy(), rtol=1e-12)


@pytest.mark.parametrize("fn", ["cross_entropy", "nll_loss"])
def test_class_weight_that_requires_grad_with_class_ids_raises_as_pytorch(fn: str) -> None:
    w = np.ones(3)
    with pytest.raises(RuntimeError, match="not differentiable with respect to argument "
                                           "'weight'"):
        getattr(torch.nn.functional, fn)(torch.zeros(2, 3), torch.tensor([0, 1]),
                                         torch.tensor(w, requires_grad=True))
    with pytest.raises(RuntimeError, match="not differentiable with respect to argument "
                                           "'weight'"):
        getattr(F, fn)(mg.zeros(2, 3, dtype=np.float64), np.array([0, 1]),
                       mg.tensor(w, requires_grad=True))


def _cosine_distance(lib):
    return lambda a, b: 1 - (a * b).sum(-1) / ((a * a).sum(-1) * (b * b).sum(-1)).sqrt()


TRIPLETS = [
    ("TripletMarginLoss", {}), ("TripletMarginLoss", {"p": 1.0, "swap": True}),
    ("TripletMarginLoss", {"margin": 0.5, "reduction": "none"}),
    ("TripletMarginLoss", {"p": 3.0, "reduction": "sum"}),
    ("TripletMarginWithDistanceLoss", {}),
    ("TripletMarginWithDistanceLoss", {"swap": True, "margin": 2.0, "reduction": "sum"}),
    ("TripletMarginWithDistanceLoss", {"distance_function": "cosine"}),
]


@pytest.mark.parametrize("shape", [(5, 4), (4,)])
@pytest.mark.parametrize("name, kwargs", TRIPLETS, ids=[f"{n}-{k}" for n, k in TRIPLETS])
def test_triplet_losses_value_and_gradients(name: str, kwargs: dict, shape: tuple) -> None:
    """module_db has no triplet samples: values and float64 gradients against torch here."""
    rng = np.random.default_rng(3)
    arrays = [rng.standard_normal(shape) for _ in range(3)]
    tk, mk = dict(kwargs), dict(kwargs)
    if kwargs.get("distance_function") == "cosine":
        tk["distance_function"], mk["distance_function"] = (_cosine_distance(torch),
                                                            _cosine_distance(mg))
    ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    ms = [mg.tensor(a, requires_grad=True) for a in arrays]
    t_out = getattr(torch.nn, name)(**tk)(*ts)
    m_out = getattr(nn, name)(**mk)(*ms)
    np.testing.assert_allclose(m_out.data, t_out.detach().numpy(), rtol=1e-10, atol=1e-12)
    up = rng.standard_normal(t_out.shape)
    (t_out * torch.tensor(up)).sum().backward()
    (m_out * mg.tensor(up)).sum().backward()
    for t, m in zip(ts, ms):
        np.testing.assert_allclose(m.grad.data, t.grad.numpy(), rtol=1e-9, atol=1e-12)

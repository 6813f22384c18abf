"""nn additions against PyTorch: init (fans, gains, statistics), activations, RMSNorm,
containers, losses (with label smoothing), F.one_hot/pad/normalize,
devices, and the lr schedulers."""

from __future__ import annotations

import math

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.nn import functional as F
from minigrad.optim import lr_scheduler as mls

torch = pytest.importorskip("torch")
TF = torch.nn.functional


def _check(fn_mg, fn_torch, *arrays, rtol=1e-10):
    ms = [mg.tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]
    ts = [torch.tensor(a, requires_grad=a.dtype.kind == "f") for a in arrays]
    mo, to = fn_mg(*ms), fn_torch(*ts)
    np.testing.assert_allclose(mo.numpy(), to.detach().numpy(), rtol=rtol, atol=1e-12)
    up = np.random.default_rng(1).standard_normal(to.shape)
    mo.backward(mg.tensor(up))
    to.backward(torch.tensor(up))
    for m, t in zip(ms, ts):
        if t.grad is not None:
            np.testing.assert_allclose(m.grad, t.grad.numpy(), rtol=rtol, atol=1e-12)


X = np.random.default_rng(0).standard_normal((3, 5)) * 3
P = np.random.default_rng(1).uniform(0.05, 0.95, (3, 5))
T01 = (np.random.default_rng(2).uniform(size=(3, 5)) > 0.5).astype(np.float64)


@pytest.mark.parametrize("name,args", [
    ("silu", ()), ("leaky_relu", (0.2,)), ("elu", (0.7,)), ("softplus", ()), ("softplus", (2.0, 3.0)),
    ("sigmoid", ()), ("tanh", ()), ("gelu", ()), ("relu", ())])
def test_activations_match_pytorch(name, args):
    _check(lambda x: getattr(F, name)(x, *args), lambda x: getattr(TF, name)(x, *args), X)
    assert mg.gradcheck(lambda x: getattr(F, name)(x, *args), [mg.tensor(X + 0.05, requires_grad=True)])


def test_gelu_tanh_and_modules_match_pytorch():
    _check(lambda x: F.gelu(x, approximate="tanh"), lambda x: TF.gelu(x, approximate="tanh"), X)
    for mine, theirs in [(nn.Tanh(), torch.nn.Tanh()), (nn.Sigmoid(), torch.nn.Sigmoid()),
                         (nn.SiLU(), torch.nn.SiLU()), (nn.LeakyReLU(0.1), torch.nn.LeakyReLU(0.1)),
                         (nn.Softmax(dim=0), torch.nn.Softmax(dim=0)), (nn.Identity(3), torch.nn.Identity(3)),
                         (nn.ELU(), torch.nn.ELU()), (nn.Flatten(), torch.nn.Flatten())]:
        _check(mine, theirs, X.reshape(3, 5, 1))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_pointwise_losses_match_pytorch(reduction):
    _check(lambda a, b: F.mse_loss(a, b, reduction=reduction),
           lambda a, b: TF.mse_loss(a, b, reduction=reduction), X, P)
    _check(lambda a, b: F.l1_loss(a, b, reduction=reduction),
           lambda a, b: TF.l1_loss(a, b, reduction=reduction), X, P)
    _check(lambda a, b: F.binary_cross_entropy(a, b, reduction=reduction),
           lambda a, b: TF.binary_cross_entropy(a, b, reduction=reduction), P, T01)
    _check(lambda a, b: F.binary_cross_entropy_with_logits(a, b, reduction=reduction),
           lambda a, b: TF.binary_cross_entropy_with_logits(a, b, reduction=reduction), X * 10, T01)
    targets = np.array([1, 4, -100])
    _check(lambda a: F.nll_loss(a.log_softmax(-1), targets, reduction=reduction),
           lambda a: TF.nll_loss(a.log_softmax(-1), torch.tensor(targets), reduction=reduction), X)
    for mine, theirs in [(nn.MSELoss, torch.nn.MSELoss), (nn.L1Loss, torch.nn.L1Loss)]:
        _check(mine(reduction=reduction), theirs(reduction=reduction), X, P)


def test_binary_cross_entropy_at_zero_and_one_matches_pytorch():
    p = np.array([0.0, 1.0, 0.0, 1.0, 0.3])
    t = np.array([0.0, 1.0, 1.0, 0.0, 0.5])
    _check(F.binary_cross_entropy, TF.binary_cross_entropy, p, t, rtol=1e-8)  # 1e12-sized grads
    assert mg.gradcheck(F.binary_cross_entropy, [mg.tensor(P, requires_grad=True),
                                                 mg.tensor(T01 * 0.8, requires_grad=True)])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_label_smoothing_matches_pytorch(reduction):
    t = np.array([0, 3, -100])
    _check(lambda a: F.cross_entropy(a, t, reduction=reduction, label_smoothing=0.1),
           lambda a: TF.cross_entropy(a, torch.tensor(t), reduction=reduction, label_smoothing=0.1), X)
    _check(lambda a: nn.CrossEntropyLoss(label_smoothing=0.3)(a, t),
           lambda a: torch.nn.CrossEntropyLoss(label_smoothing=0.3)(a, torch.tensor(t)), X)


def test_rms_norm_matches_pytorch():
    w = np.random.default_rng(3).standard_normal(5)
    _check(lambda x, w: F.rms_norm(x, (5,), w, 1e-6), lambda x, w: TF.rms_norm(x, (5,), w, 1e-6), X, w)
    _check(lambda x: nn.RMSNorm(5).double()(x), lambda x: torch.nn.RMSNorm(5, dtype=torch.float64)(x), X)


def test_one_hot_pad_normalize_match_pytorch():
    ids = np.array([[0, 2], [3, 1]])
    np.testing.assert_array_equal(F.one_hot(mg.tensor(ids)).numpy(), TF.one_hot(torch.tensor(ids)).numpy())
    np.testing.assert_array_equal(F.one_hot(mg.tensor(ids), 6).numpy(),
                                  TF.one_hot(torch.tensor(ids), 6).numpy())
    for pad in [(1, 2), (0, 1, 2, 0), (-1, 2), (1, -2, 1, 1)]:
        _check(lambda x, pad=pad: F.pad(x, pad, value=0.5), lambda x, pad=pad: TF.pad(x, pad, value=0.5), X)
    _check(lambda x: F.normalize(x), lambda x: TF.normalize(x), X)
    _check(lambda x: F.normalize(x, p=1, dim=0), lambda x: TF.normalize(x, p=1, dim=0), X)


def test_module_dict_and_parameter_list():
    d = nn.ModuleDict({"a": nn.Linear(2, 3), "b": nn.ReLU()})
    d["c"] = nn.Linear(3, 1)
    assert list(d) == ["a", "b", "c"] and "b" in d and len(d) == 3
    assert [n for n, _ in d.named_parameters()] == ["a.weight", "a.bias", "c.weight", "c.bias"]
    with pytest.raises(TypeError, match="must be an nn.Module"):
        d.update({"x": 3})
    pl = nn.ParameterList([mg.zeros(2), np.ones(3)])
    pl.append(nn.Parameter(mg.ones(1)))
    assert len(pl) == 3 and [n for n, _ in pl.named_parameters()] == ["0", "1", "2"]
    assert isinstance(pl[1], nn.Parameter) and pl[1].shape == (3,)


def test_devices_cpu_only():
    x = mg.ones(2)
    assert x.to("cpu") is x and x.cpu() is x and x.device == "cpu" and str(x.device) == "cpu"
    assert x.to("cpu", mg.float64).dtype == np.float64 and x.to(torch.device("cpu")) is x
    assert x.to(dtype=mg.long).dtype == np.int64
    lin = nn.Linear(2, 2)
    assert lin.to("cpu") is lin
    for dev in ("cuda", "cuda:0", "mps", torch.device("meta")):
        with pytest.raises(RuntimeError, match="minigrad runs on the CPU"):
            x.to(dev)
        with pytest.raises(RuntimeError, match="minigrad runs on the CPU"):
            lin.to(dev)


@pytest.mark.parametrize("shape", [(6, 4), (8, 3, 2, 2)])
def test_init_fans_and_bounds_match_pytorch(shape):
    from minigrad.nn import init

    tt = torch.empty(shape)
    assert init._calculate_fan_in_and_fan_out(mg.zeros(shape)) == \
        torch.nn.init._calculate_fan_in_and_fan_out(tt)
    for nl, a in [("relu", None), ("leaky_relu", 0.2), ("tanh", None), ("linear", None)]:
        assert init.calculate_gain(nl, a) == pytest.approx(torch.nn.init.calculate_gain(nl, a))
    big = (400, 300)
    fan_in, fan_out = 300, 400
    mg.manual_seed(0)
    w = init.xavier_uniform_(mg.zeros(big), gain=2.0).numpy()
    assert np.abs(w).max() <= 2.0 * math.sqrt(6 / (fan_in + fan_out)) and w.std() == pytest.approx(
        2.0 * math.sqrt(2 / (fan_in + fan_out)), rel=0.02)
    w = init.kaiming_uniform_(mg.zeros(big), a=math.sqrt(5)).numpy()  # nn.Linear's default
    assert np.abs(w).max() <= 1 / math.sqrt(fan_in)
    assert init.kaiming_normal_(mg.zeros(big), mode="fan_out", nonlinearity="relu").numpy().std() == \
        pytest.approx(math.sqrt(2 / fan_out), rel=0.02)
    assert init.xavier_normal_(mg.zeros(big)).numpy().std() == pytest.approx(
        math.sqrt(2 / (fan_in + fan_out)), rel=0.02)
    t = init.trunc_normal_(mg.zeros(big), std=1.0, a=-0.5, b=1.0).numpy()
    assert t.min() >= -0.5 and t.max() <= 1.0 and t.mean() > 0
    assert init.normal_(mg.zeros(big), 3.0, 0.5).numpy().mean() == pytest.approx(3.0, abs=0.01)
    u = init.uniform_(mg.zeros(big), -1.0, 2.0).numpy()
    assert u.min() >= -1.0 and u.max() < 2.0
    assert (init.constant_(mg.zeros(3), 0.3).numpy() == np.float32(0.3)).all()
    assert (init.ones_(mg.zeros(3)).numpy() == 1).all() and (init.zeros_(mg.ones(3)).numpy() == 0).all()


def _schedules(lib, kind, opt):
    s = lib.optim.lr_scheduler if lib is torch else mls
    if kind == "lambda":
        return s.LambdaLR(opt, lambda e: 0.9**e)
    if kind == "step":
        return s.StepLR(opt, step_size=3, gamma=0.5)
    if kind == "cosine":
        return s.CosineAnnealingLR(opt, T_max=7, eta_min=0.01)
    if kind == "linear":
        return s.LinearLR(opt, start_factor=0.1, total_iters=4)
    warm = s.LinearLR(opt, start_factor=1e-3, total_iters=5)
    decay = s.CosineAnnealingLR(opt, T_max=10, eta_min=0.001)
    return s.SequentialLR(opt, [warm, decay], milestones=[5])


@pytest.mark.parametrize("kind", ["lambda", "step", "cosine", "linear", "sequential"])
def test_lr_schedulers_match_pytorch(kind):
    w = torch.zeros(1, requires_grad=True)
    topt = torch.optim.SGD([w], lr=0.5)
    mopt = mg.optim.SGD([mg.zeros(1, requires_grad=True)], lr=0.5)
    ts, ms = _schedules(torch, kind, topt), _schedules(mg, kind, mopt)
    saved = None
    for epoch in range(20):
        assert ms.get_last_lr() == pytest.approx(ts.get_last_lr(), rel=1e-12), epoch
        assert mopt.param_groups[0]["lr"] == pytest.approx(topt.param_groups[0]["lr"], rel=1e-12)
        assert ms.last_epoch == ts.last_epoch
        topt.step()
        mopt.step()
        ts.step()
        ms.step()
        if epoch == 8:
            saved = ms.state_dict()
    # a fresh scheduler restored from epoch 9's state continues identically
    mopt2 = mg.optim.SGD([mg.zeros(1, requires_grad=True)], lr=0.5)
    ms2 = _schedules(mg, kind, mopt2)
    ms2.load_state_dict(saved)
    assert ms2.last_epoch == 9

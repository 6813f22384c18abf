"""Optimizer steps are all-or-nothing: everything is validated before anything changes."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest

import minigrad as mg
from minigrad import optim
from minigrad.optim import SGD, Adam, AdamW

OPTIMIZERS = {
    "SGD": lambda ps: SGD(ps, lr=0.1, momentum=0.9, weight_decay=0.01),
    "Adam": lambda ps: Adam(ps, lr=0.1, weight_decay=0.01),
    "AdamW": lambda ps: AdamW(ps, lr=0.1),
    "Adam amsgrad maximize": lambda ps: Adam(ps, lr=0.1, amsgrad=True, maximize=True),
    "RMSprop": lambda ps: optim.RMSprop(ps, momentum=0.5, centered=True, weight_decay=0.01),
    "Adagrad": lambda ps: optim.Adagrad(ps, weight_decay=0.01),
    "Adadelta": lambda ps: optim.Adadelta(ps, weight_decay=0.01),
    "Adamax": lambda ps: optim.Adamax(ps, weight_decay=0.01),
    "NAdam": lambda ps: optim.NAdam(ps, weight_decay=0.01),
    "RAdam": lambda ps: optim.RAdam(ps, weight_decay=0.01, decoupled_weight_decay=True),
    "ASGD": lambda ps: optim.ASGD(ps, weight_decay=0.01),
    "Rprop": lambda ps: optim.Rprop(ps),
}


def _params():
    rng = np.random.default_rng(0)
    ps = [mg.tensor(rng.standard_normal(s).astype(np.float32), requires_grad=True)
          for s in ((3, 4), (4,), (2, 2))]
    for p in ps:
        p.grad = mg.tensor(rng.standard_normal(p.shape).astype(np.float32))
    return ps


def _snapshot(opt, ps):
    return ([p.data.copy() for p in ps], [p._version for p in ps],
            copy.deepcopy(opt.state_dict()))


def _assert_unchanged(opt, ps, snap):
    datas, versions, state = snap
    for p, d, v in zip(ps, datas, versions):
        assert p.data.tobytes() == d.tobytes() and p._version == v
    now = opt.state_dict()  # param_groups are left out: the breakers edit them on purpose
    assert now["state"].keys() == state["state"].keys()
    for i, entry in state["state"].items():
        for k, val in entry.items():
            if isinstance(val, np.ndarray):
                assert now["state"][i][k].tobytes() == val.tobytes()
            else:
                assert now["state"][i][k] == val


def _break_last_grad_shape(opt, ps):
    ps[-1]._grad = mg.tensor(np.ones(5, np.float32))  # bypass the setter's own check


def _break_last_param_readonly(opt, ps):
    ps[-1].data.flags.writeable = False


def _nan_lr_in_second_group(opt, ps):
    opt.param_groups[-1]["lr"] = float("nan")


def _inf_weight_decay(opt, ps):
    group = opt.param_groups[-1]
    group["weight_decay" if "weight_decay" in group else "lr"] = math.inf


def _string_lr(opt, ps):
    opt.param_groups[-1]["lr"] = "0.1"


BREAKS = [_break_last_grad_shape, _break_last_param_readonly, _nan_lr_in_second_group,
          _inf_weight_decay, _string_lr]


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
@pytest.mark.parametrize("breaker", BREAKS, ids=lambda f: f.__name__)
def test_failing_step_leaves_every_parameter_and_state_bit_for_bit_unchanged(name, breaker):
    ps = _params()
    opt = OPTIMIZERS[name]([{"params": ps[:2]}, {"params": ps[2:]}])
    opt.step()  # some state exists already
    snap = _snapshot(opt, ps)
    breaker(opt, ps)
    with pytest.raises((ValueError, TypeError)):
        opt.step()
    _assert_unchanged(opt, ps, snap)


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_non_finite_grads_are_not_refused_as_in_pytorch(name):
    ps = _params()
    ps[0].grad.data[0, 0] = np.nan
    OPTIMIZERS[name](ps).step()
    assert np.isnan(ps[0].data[0, 0]) and np.isfinite(ps[1].data).all()


@pytest.mark.parametrize("make, key, value", [
    (lambda ps, v: SGD(ps, lr=v), "lr", math.inf),
    (lambda ps, v: SGD(ps, lr=0.1, momentum=v), "momentum", math.inf),
    (lambda ps, v: SGD(ps, lr=0.1, weight_decay=v), "weight_decay", math.nan),
    (lambda ps, v: AdamW(ps, lr=v), "lr", math.nan),
    (lambda ps, v: AdamW(ps, weight_decay=v), "weight_decay", math.inf),
    (lambda ps, v: AdamW(ps, betas=(v, 0.999)), "beta1", math.nan),
    (lambda ps, v: Adam(ps, betas=(0.9, v)), "beta2", math.inf),
    (lambda ps, v: Adam(ps, eps=v), "eps", math.inf),
])
def test_non_finite_hyperparameters_refused_at_construction_and_at_step(make, key, value):
    with pytest.raises(ValueError, match=key):
        make(_params(), value)
    ps = _params()
    opt = make(ps, 0.5 if key.startswith("beta") or key == "momentum" else 0.01)
    snap = _snapshot(opt, ps)
    group_key = {"beta1": "betas", "beta2": "betas"}.get(key, key)
    if group_key == "betas":
        b1, b2 = opt.param_groups[0]["betas"]
        opt.param_groups[0]["betas"] = (value, b2) if key == "beta1" else (b1, value)
    else:
        opt.param_groups[0][group_key] = value
    with pytest.raises(ValueError, match=rf"param group 0: .*{key}"):
        opt.step()
    _assert_unchanged(opt, ps, snap)


def test_step_bumps_every_updated_parameter_once():
    ps = _params()
    ps[1].grad = None
    AdamW(ps).step()
    assert [p._version for p in ps] == [1, 0, 1]


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_state_shapes_are_checked_before_any_buffer_follows_a_new_dtype(name):
    """A step whose last parameter's state no longer fits its shape raises before the first
    parameter's buffers are cast to that parameter's new dtype; once the shape is right again,
    the buffers follow the dtype."""
    ps = _params()
    opt = OPTIMIZERS[name]([{"params": ps[:2]}, {"params": ps[2:]}])
    opt.step()
    ps[0].data = ps[0].data.astype(np.float64)
    ps[0].grad = mg.tensor(ps[0].grad.data.astype(np.float64))
    good_last = ps[-1].data
    ps[-1].data = np.zeros(5, np.float32)
    ps[-1].grad = mg.tensor(np.ones(5, np.float32))
    state = copy.deepcopy(opt.state_dict()["state"])
    datas = [p.data.copy() for p in ps]
    with pytest.raises(ValueError, match="optimizer state"):
        opt.step()
    for p, d in zip(ps, datas):
        assert p.data.dtype == d.dtype and p.data.tobytes() == d.tobytes()
    for i, entry in state.items():
        for k, val in entry.items():
            now = opt.state[i][k]
            if isinstance(val, np.ndarray):
                assert now.dtype == val.dtype == np.float32 and now.tobytes() == val.tobytes()
            else:
                assert now == val
    ps[-1].data = good_last
    ps[-1].grad = mg.tensor(np.ones(good_last.shape, np.float32))
    opt.step()
    buffers = [v for v in opt.state[0].values() if isinstance(v, np.ndarray)]
    assert buffers and all(v.dtype == np.float64 for v in buffers)

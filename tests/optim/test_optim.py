"""Optimizers, gradient clipping and the warmup-cosine schedule.

Hand-computed examples write the expected numbers from the update formulas;
the fused Adam kernel is held equal to its NumPy reference; state dicts must
resume a run exactly.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minigrad as mg
from minigrad.backends.reference import Reference
from minigrad.kernels.adamw import adam_update_fused
from minigrad.optim import SGD, Adam, AdamW, CosineWithWarmup, clip_grad_norm_, cosine_lr
from minigrad.optim.adam import adam_coefficients


def param(values, dtype=np.float64):
    return mg.tensor(np.array(values, dtype=dtype), requires_grad=True)


def as_grad(p, values):
    """A gradient for ``p``: a Tensor of p's dtype (``.grad`` is a Tensor, as in PyTorch)."""
    return mg.tensor(np.array(values, dtype=p.data.dtype))


def run_steps(opt, params, grads_per_step):
    """Set each parameter's grad, then step, once per entry of grads_per_step."""
    for grads in grads_per_step:
        for p, g in zip(params, grads):
            p.grad = None if g is None else as_grad(p, g)
        opt.step()


G1, G2 = [0.5, 1.0], [-0.5, 0.25]  # the two gradients of the two-step examples


# ---- SGD ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "options, p1, p2",
    [
        # p -= lr * g
        ({}, [0.95, -2.1], [1.0, -2.125]),
        # d = g + 0.1 p: d1 = [0.6, 0.8]; d2 = [-0.5 + 0.094, 0.25 - 0.208] = [-0.406, 0.042]
        ({"weight_decay": 0.1}, [0.94, -2.08], [0.9806, -2.0842]),
        # b1 = g1; b2 = 0.9 b1 + g2 = [-0.05, 1.15]
        ({"momentum": 0.9}, [0.95, -2.1], [0.955, -2.215]),
        # b1 = g1 (no dampening on the first step); b2 = 0.9 b1 + 0.5 g2 = [0.2, 1.025]
        ({"momentum": 0.9, "dampening": 0.5}, [0.95, -2.1], [0.93, -2.2025]),
        # d1 = g1 + 0.9 b1 = [0.95, 1.9]; b2 = [-0.05, 1.15]; d2 = g2 + 0.9 b2 = [-0.545, 1.285]
        ({"momentum": 0.9, "nesterov": True}, [0.905, -2.19], [0.9595, -2.3185]),
    ],
)
def test_sgd_two_steps_by_hand(options, p1, p2):
    p = param([1.0, -2.0])
    opt = SGD([p], lr=0.1, **options)
    run_steps(opt, [p], [[G1]])
    np.testing.assert_allclose(p.data, p1, rtol=1e-12)
    run_steps(opt, [p], [[G2]])
    np.testing.assert_allclose(p.data, p2, rtol=1e-12)


def test_sgd_with_momentum_zero_keeps_no_state_and_default_lr_is_pytorchs():
    p = param([1.0])
    opt = SGD([p])
    assert opt.param_groups[0]["lr"] == 1e-3
    run_steps(opt, [p], [[[2.0]]])
    assert opt.state == {}
    np.testing.assert_allclose(p.data, [1.0 - 2e-3])


# ---- Adam / AdamW ----------------------------------------------------------------------------
def adam_by_formula(p0, grads, lr, b1, b2, eps, wd, decoupled):
    """Adam as written in the paper (m-hat, v-hat), one element at a time, in Python floats."""
    p, m, v = float(p0), 0.0, 0.0
    out = []
    for t, g in enumerate(grads, start=1):
        if decoupled:
            p = p * (1 - lr * wd)
        else:
            g = g + wd * p
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        m_hat, v_hat = m / (1 - b1**t), v / (1 - b2**t)
        p = p - lr * m_hat / (math.sqrt(v_hat) + eps)
        out.append(p)
    return out


def test_adam_two_steps_literal_numbers():
    # m1 = 0.05, v1 = 0.00025 -> m_hat 0.5, v_hat 0.25 -> p1 = 1 - 0.1 * 0.5 / 0.5 = 0.9
    # m2 = 0.045 - 0.025 = 0.02, v2 = 0.00024975 + 0.0000625 = 0.00031225
    # m_hat = 0.02 / 0.19, v_hat = 0.00031225 / 0.001999 -> p2 = 0.9 - 0.1 * 0.26634 = 0.873366
    p = param([1.0])
    opt = Adam([p], lr=0.1)
    run_steps(opt, [p], [[[0.5]]])
    assert p.data[0] == pytest.approx(0.9, abs=1e-8)
    run_steps(opt, [p], [[[-0.25]]])
    expected = 0.9 - 0.1 * (0.02 / 0.19) / math.sqrt(0.00031225 / 0.001999)
    assert p.data[0] == pytest.approx(expected, rel=1e-7)
    assert p.data[0] == pytest.approx(0.873366, abs=1e-6)
    assert opt.state[0]["step"] == 2
    np.testing.assert_allclose(opt.state[0]["exp_avg"], [0.02], rtol=1e-12)
    np.testing.assert_allclose(opt.state[0]["exp_avg_sq"], [0.00031225], rtol=1e-12)


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize(
    "cls, wd, decoupled",
    [(Adam, 0.0, False), (Adam, 0.1, False), (AdamW, 0.1, True), (AdamW, 0.0, True)],
)
def test_adam_adamw_two_steps_by_formula(cls, wd, decoupled, fused):
    p0 = [1.0, -2.0]
    p = param(p0)
    opt = cls([p], lr=0.1, betas=(0.8, 0.99), eps=1e-6, weight_decay=wd, fused=fused)
    run_steps(opt, [p], [[G1], [G2]])
    for j in range(2):
        want = adam_by_formula(p0[j], [G1[j], G2[j]], 0.1, 0.8, 0.99, 1e-6, wd, decoupled)
        assert p.data[j] == pytest.approx(want[-1], rel=1e-12)


def test_adamw_decay_differs_from_adam_l2():
    a, b = param([1.0, -2.0]), param([1.0, -2.0])
    run_steps(Adam([a], lr=0.1, weight_decay=0.1), [a], [[G1], [G2]])
    run_steps(AdamW([b], lr=0.1, weight_decay=0.1), [b], [[G1], [G2]])
    assert not np.allclose(a.data, b.data)


def test_pytorch_defaults():
    p = param([1.0])
    g = Adam([p]).param_groups[0]
    assert (g["lr"], g["betas"], g["eps"], g["weight_decay"]) == (1e-3, (0.9, 0.999), 1e-8, 0.0)
    g = AdamW([p]).param_groups[0]
    assert (g["lr"], g["betas"], g["eps"], g["weight_decay"]) == (1e-3, (0.9, 0.999), 1e-8, 1e-2)
    g = SGD([p], lr=0.1).param_groups[0]
    assert (g["momentum"], g["dampening"], g["weight_decay"], g["nesterov"]) == (0, 0, 0, False)


@pytest.mark.parametrize("make", [lambda ps: SGD(ps, lr=0.1, momentum=0.9),
                                  lambda ps: Adam(ps, lr=0.1), lambda ps: AdamW(ps, lr=0.1)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_updates_in_place_keep_dtype_and_skip_none_grads(make, dtype):
    a, b = param([[1.0, 2.0], [3.0, 4.0]], dtype), param([5.0], dtype)
    a_array, b_before = a.data, b.data.copy()
    opt = make([a, b])
    run_steps(opt, [a, b], [[np.ones((2, 2)), None]])
    assert a.data is a_array and a.data.dtype == dtype
    assert not np.array_equal(a.data, [[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(b.data, b_before)
    assert set(opt.state) == {0}
    for buf in opt.state[0].values():
        if isinstance(buf, np.ndarray):
            assert buf.dtype == dtype and buf.shape == (2, 2)


def test_state_follows_a_parameter_cast_to_float64():
    p = param([1.0, 2.0], np.float32)
    opt = Adam([p], lr=0.1)
    run_steps(opt, [p], [[G1]])
    p.data = p.data.astype(np.float64)
    run_steps(opt, [p], [[G2]])
    assert p.data.dtype == np.float64
    assert opt.state[0]["exp_avg"].dtype == np.float64


def test_noncontiguous_param_uses_reference_path_with_same_result():
    base = np.arange(6, dtype=np.float64).reshape(2, 3) / 7
    grads = [np.full((3, 2), 0.3), np.linspace(-1, 1, 6).reshape(3, 2)]
    strided = mg.tensor(base.copy(), requires_grad=True)
    strided.data = strided.data.T  # a transposed view: reshape(-1) would copy
    contiguous = mg.tensor(np.ascontiguousarray(base.T), requires_grad=True)
    for t in (strided, contiguous):
        run_steps(AdamW([t], lr=0.05), [t], [[g] for g in grads])
    assert not strided.data.flags.c_contiguous
    np.testing.assert_array_equal(strided.data, contiguous.data)


def test_autograd_training_loop_fits_a_line():
    mg.manual_seed(0)
    x = mg.randn(64, 3, dtype=np.float64)
    w_true = np.array([[1.5], [-2.0], [0.5]])
    y = mg.tensor(x.data @ w_true)
    w = mg.zeros(3, 1, dtype=np.float64, requires_grad=True)
    opt = AdamW([w], lr=0.1, weight_decay=0.0)
    for _ in range(200):
        loss = ((x @ w - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    np.testing.assert_allclose(w.data, w_true, atol=1e-3)


# ---- fused kernel == NumPy reference -------------------------------------------------------
@given(
    shape=st.lists(st.integers(1, 5), min_size=1, max_size=3).map(tuple),
    dtype=st.sampled_from([np.float32, np.float64]),
    decoupled=st.booleans(),
    wd=st.sampled_from([0.0, 0.01, 0.3]),
    lr=st.floats(1e-5, 1.0),
    beta1=st.floats(0.0, 0.99),
    beta2=st.floats(0.0, 0.9999),
    eps=st.sampled_from([1e-8, 1e-6, 0.0]),
    step=st.integers(1, 50),
    seed=st.integers(0, 2**31 - 1),
)
def test_fused_adam_kernel_equals_reference(shape, dtype, decoupled, wd, lr, beta1, beta2, eps,
                                            step, seed):
    rng = np.random.default_rng(seed)
    p = rng.standard_normal(shape).astype(dtype)
    g = rng.standard_normal(shape).astype(dtype)
    m = rng.standard_normal(shape).astype(dtype)
    v = rng.random(shape).astype(dtype) + dtype(0.01)
    c = adam_coefficients(lr, beta1, beta2, eps, wd, step, decoupled, np.dtype(dtype))
    p2, m2, v2 = p.copy(), m.copy(), v.copy()
    Reference().adam_update(p, g, m, v, c)
    adam_update_fused(p2, g, m2, v2, *c)
    # Same expressions, same order, same dtype, no FMA: bit-identical results.
    np.testing.assert_array_equal(p2, p)
    np.testing.assert_array_equal(m2, m)
    np.testing.assert_array_equal(v2, v)
    assert p2.dtype == m2.dtype == v2.dtype == dtype


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fused_and_unfused_optimizers_agree_over_steps(dtype):
    rng = np.random.default_rng(1)
    init = rng.standard_normal((4, 5))
    grads = [rng.standard_normal((4, 5)) for _ in range(5)]
    a, b = param(init, dtype), param(init, dtype)
    run_steps(AdamW([a], lr=0.01, fused=True), [a], [[g] for g in grads])
    run_steps(AdamW([b], lr=0.01, fused=False), [b], [[g] for g in grads])
    np.testing.assert_array_equal(a.data, b.data)


# ---- parameter groups -------------------------------------------------------------------
def test_parameter_groups_have_their_own_lr_and_weight_decay():
    w, bias = param([1.0, -2.0]), param([0.5])
    opt = AdamW([{"params": [w], "weight_decay": 0.1},
                 {"params": [bias], "weight_decay": 0.0, "lr": 0.01}], lr=0.1)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.01]
    assert opt.param_groups[1]["betas"] == (0.9, 0.999)  # filled from the defaults
    run_steps(opt, [w, bias], [[G1, [0.2]], [G2, [-0.4]]])
    for j in range(2):
        want = adam_by_formula([1.0, -2.0][j], [G1[j], G2[j]], 0.1, 0.9, 0.999, 1e-8, 0.1, True)
        assert w.data[j] == pytest.approx(want[-1], rel=1e-12)
    want = adam_by_formula(0.5, [0.2, -0.4], 0.01, 0.9, 0.999, 1e-8, 0.0, True)
    assert bias.data[0] == pytest.approx(want[-1], rel=1e-12)


def test_add_param_group_later():
    a, b = param([1.0]), param([2.0])
    opt = SGD([a], lr=0.1, momentum=0.9)
    opt.add_param_group({"params": [b], "lr": 0.5})
    assert opt.param_groups[1]["momentum"] == 0.9
    with pytest.raises(ValueError, match="more than once"):
        opt.add_param_group({"params": [a]})
    with pytest.raises(ValueError, match="invalid lr: -1"):
        opt.add_param_group({"params": [param([3.0])], "lr": -1})
    assert len(opt.param_groups) == 2
    run_steps(opt, [a, b], [[[1.0], [1.0]]])
    np.testing.assert_allclose([a.data[0], b.data[0]], [0.9, 1.5])
    assert set(opt.state) == {0, 1}


def test_group_lr_set_by_hand_is_used_on_the_next_step():
    p = param([1.0])
    opt = SGD([p], lr=0.1)
    opt.param_groups[0]["lr"] = 0.5
    run_steps(opt, [p], [[[1.0]]])
    np.testing.assert_allclose(p.data, [0.5])


def test_zero_grad_sets_none_or_zeros():
    a, b = param([1.0]), param([2.0])
    opt = SGD([a, b], lr=0.1)
    a.grad, b.grad = as_grad(a, [3.0]), as_grad(b, [4.0])
    grad_tensor = a.grad
    opt.zero_grad(set_to_none=False)
    assert a.grad is grad_tensor and a.grad.data[0] == 0.0 and a.grad._version == 1
    opt.zero_grad()
    assert a.grad is None and b.grad is None


def test_step_closure_returns_loss():
    p = param([1.0])
    opt = SGD([p], lr=0.1)

    def closure():
        p.grad = as_grad(p, [1.0])
        return 42.0

    assert opt.step(closure) == 42.0
    np.testing.assert_allclose(p.data, [0.9])


# ---- validation ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "make, fragment",
    [
        (lambda ps: SGD(ps, lr=-0.1), "lr: -0.1"),
        (lambda ps: SGD(ps, lr=float("nan")), "lr: nan"),
        (lambda ps: SGD(ps, lr=0.1, momentum=-0.5), "momentum: -0.5"),
        (lambda ps: SGD(ps, lr=0.1, weight_decay=-1.0), "weight_decay: -1.0"),
        (lambda ps: SGD(ps, lr=0.1, nesterov=True), "momentum=0.0"),
        (lambda ps: SGD(ps, lr=0.1, momentum=0.9, dampening=0.1, nesterov=True), "dampening=0.1"),
        (lambda ps: Adam(ps, lr=-1e-3), "lr: -0.001"),
        (lambda ps: Adam(ps, betas=(1.0, 0.999)), "beta1 (betas[0]): 1.0"),
        (lambda ps: Adam(ps, betas=(0.9, -0.1)), "beta2 (betas[1]): -0.1"),
        (lambda ps: AdamW(ps, betas=(0.9, 1.5)), "beta2 (betas[1]): 1.5"),
        (lambda ps: Adam(ps, betas=(0.9,)), "betas must be a pair"),
        (lambda ps: Adam(ps, eps=-1e-8), "eps: -1e-08"),
        (lambda ps: AdamW(ps, weight_decay=-0.01), "weight_decay: -0.01"),
        (lambda ps: AdamW([{"params": ps, "lr": -2.0}]), "lr: -2.0"),
    ],
)
def test_bad_hyperparameters_raise_value_error_naming_the_value(make, fragment):
    with pytest.raises(ValueError) as e:
        make([param([1.0])])
    assert fragment in str(e.value)


def test_bad_params_are_rejected():
    p = param([1.0])
    with pytest.raises(ValueError, match="empty parameter list"):
        SGD([], lr=0.1)
    with pytest.raises(TypeError, match="wrap a single tensor in a list"):
        SGD(p, lr=0.1)
    with pytest.raises(ValueError, match="more than once"):
        SGD([{"params": [p]}, {"params": [p]}], lr=0.1)
    with pytest.raises(TypeError, match="floating-point"):
        SGD([mg.tensor([1, 2])], lr=0.1)
    with pytest.raises(TypeError, match="only update tensors"):
        SGD([np.zeros(3)], lr=0.1)
    with pytest.raises(TypeError, match="mixes tensors and dicts"):
        SGD([p, {"params": [param([2.0])]}], lr=0.1)
    with pytest.raises(TypeError, match="real number"):
        SGD([p], lr="0.1")


def test_bad_grad_shape_raises_before_any_parameter_changes():
    a, b = param([1.0, 2.0]), param([3.0, 4.0])
    opt = Adam([a, b], lr=0.1)
    a.grad = as_grad(a, np.ones(2))
    b._grad = mg.tensor(np.ones(3))  # bypasses the .grad setter's own shape check
    with pytest.raises(ValueError, match=r"parameter 1 has shape \(2,\) but its .grad has shape"):
        opt.step()
    np.testing.assert_array_equal(a.data, [1.0, 2.0])
    assert opt.state == {}
    with pytest.raises(TypeError, match=r"assigned grad expected to be a Tensor or None"):
        b.grad = np.ones(2)


def test_param_data_replaced_with_other_shape_is_caught_before_the_kernel():
    p = param([1.0, 2.0])
    opt = Adam([p], lr=0.1)
    run_steps(opt, [p], [[G1]])
    p.data = np.zeros(5)
    p.grad = mg.tensor(np.ones(5))
    with pytest.raises(ValueError, match="optimizer state 'exp_avg' has shape"):
        opt.step()


# ---- state dicts ----------------------------------------------------------------------------
OPTIMIZERS = {
    "sgd_nesterov": lambda ps: SGD(ps, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01),
    "adam": lambda ps: Adam(ps, lr=0.05, weight_decay=0.01),
    "adamw_groups": lambda ps: AdamW([{"params": ps[:1]},
                                      {"params": ps[1:], "weight_decay": 0.0, "lr": 0.02}],
                                     lr=0.05),
}


def make_run(seed=0):
    rng = np.random.default_rng(seed)
    init = [rng.standard_normal((3, 2)), rng.standard_normal(4)]
    grads = [[rng.standard_normal((3, 2)), rng.standard_normal(4)] for _ in range(6)]
    return init, grads


@pytest.mark.parametrize("name", list(OPTIMIZERS))
@pytest.mark.parametrize("through_file", [False, True])
def test_state_dict_round_trip_resumes_exactly(name, through_file, tmp_path):
    init, grads = make_run()
    make = OPTIMIZERS[name]
    straight = [param(a) for a in init]
    run_steps(make(straight), straight, grads)

    first = [param(a) for a in init]
    opt = make(first)
    run_steps(opt, first, grads[:3])
    sd = opt.state_dict()
    if through_file:
        mg.save({"optimizer": sd, "params": [p.data for p in first]}, tmp_path / "ckpt.npz")
        loaded = mg.load(tmp_path / "ckpt.npz")
        sd, values = loaded["optimizer"], loaded["params"]
    else:
        values = [p.data.copy() for p in first]
    resumed = [param(v) for v in values]
    opt2 = make(resumed)
    opt2.param_groups[0]["lr"] = 123.0  # overwritten by the load
    opt2.load_state_dict(sd)
    run_steps(opt2, resumed, grads[3:])
    for a, b in zip(straight, resumed):
        np.testing.assert_array_equal(a.data, b.data)


def test_state_dict_is_a_snapshot():
    p = param([1.0, 2.0])
    opt = Adam([p], lr=0.1)
    run_steps(opt, [p], [[G1]])
    sd = opt.state_dict()
    saved = sd["state"][0]["exp_avg"].copy()
    run_steps(opt, [p], [[G2]])
    np.testing.assert_array_equal(sd["state"][0]["exp_avg"], saved)
    assert sd["state"][0]["step"] == 1
    assert sd["param_groups"] == [{"lr": 0.1, "betas": (0.9, 0.999), "eps": 1e-8,
                                   "weight_decay": 0.0, "amsgrad": False, "maximize": False,
                                   "foreach": None, "capturable": False, "differentiable": False,
                                   "fused": None, "decoupled_weight_decay": False, "params": [0]}]


def test_load_state_dict_accepts_tensors_and_casts_to_param_dtype():
    p = param([1.0, 2.0], np.float32)
    opt = Adam([p], lr=0.1)
    sd = {"state": {0: {"step": 2, "exp_avg": mg.tensor(np.array([0.1, 0.2])),
                        "exp_avg_sq": np.array([0.01, 0.02])}},
          "param_groups": [{"lr": 0.1, "betas": [0.9, 0.999], "eps": 1e-8, "weight_decay": 0.0,
                            "params": [0]}]}
    opt.load_state_dict(sd)
    assert opt.state[0]["exp_avg"].dtype == np.float32
    assert opt.param_groups[0]["betas"] == (0.9, 0.999)


def _adam_with_state():
    a, b = param([1.0, 2.0]), param([3.0])
    opt = Adam([{"params": [a]}, {"params": [b], "lr": 0.5}], lr=0.1)
    run_steps(opt, [a, b], [[G1, [1.0]]])
    return opt, a, b


def _corrupt(sd, how):
    if how == "groups":
        sd["param_groups"] = sd["param_groups"][:1]
    elif how == "group_size":
        sd["param_groups"][1]["params"] = [1, 2]
    elif how == "shape":
        sd["state"][0]["exp_avg"] = np.zeros(3)
    elif how == "missing_entry":
        del sd["state"][1]["exp_avg_sq"]
    elif how == "index":
        sd["state"][7] = sd["state"].pop(1)
    elif how == "bad_lr":
        sd["param_groups"][1]["lr"] = -1.0
    elif how == "step":
        sd["state"][0]["step"] = -3
    elif how == "other_optimizer":
        for g in sd["param_groups"]:
            del g["betas"]
    elif how == "keys":
        sd["extra"] = 1
    return sd


@pytest.mark.parametrize(
    "how, fragment",
    [
        ("groups", "1 parameter groups, this optimizer has 2"),
        ("group_size", "parameter group 1 has 2 parameters in the state dict but 1"),
        ("shape", "state 'exp_avg' of parameter 0 has shape (3,), the parameter has shape (2,)"),
        ("missing_entry", "state of parameter 1 has entries"),
        ("index", "state key 7 is not a parameter index in [0, 2)"),
        ("bad_lr", "saved parameter group 1: invalid lr: -1.0"),
        ("step", "state 'step' of parameter 0 must be an int >= 0, got -3"),
        ("other_optimizer", "lacks ['betas']"),
        ("keys", "exactly the keys 'state' and 'param_groups'"),
    ],
)
def test_bad_state_dict_raises_and_changes_nothing(how, fragment):
    opt, _, _ = _adam_with_state()
    before = opt.state_dict()
    with pytest.raises(ValueError) as e:
        opt.load_state_dict(_corrupt(opt.state_dict(), how))
    assert fragment in str(e.value)
    after = opt.state_dict()
    assert after["param_groups"] == before["param_groups"]
    for i in before["state"]:
        for k, v in before["state"][i].items():
            np.testing.assert_array_equal(after["state"][i][k], v)


def test_sgd_state_dict_does_not_load_into_adam():
    p = param([1.0])
    sgd = SGD([p], lr=0.1, momentum=0.9)
    run_steps(sgd, [p], [[[1.0]]])
    with pytest.raises(ValueError, match="different optimizer"):
        Adam([p]).load_state_dict(sgd.state_dict())


# ---- clip_grad_norm_ ---------------------------------------------------------------------------
def test_clip_grad_norm_scales_all_grads_by_one_factor():
    a, b, c = param([0.0, 0.0]), param([0.0]), param([0.0])
    a.grad, b.grad = as_grad(a, [3.0, 4.0]), as_grad(b, [12.0])  # global norm sqrt(9+16+144) = 13
    total = clip_grad_norm_([a, b, c], max_norm=1.0)
    assert total == pytest.approx(13.0, rel=1e-12)
    scale = 1.0 / (13.0 + 1e-6)
    np.testing.assert_allclose(a.grad, [3 * scale, 4 * scale], rtol=1e-12)
    np.testing.assert_allclose(b.grad, [12 * scale], rtol=1e-12)
    assert c.grad is None
    assert math.sqrt((a.grad.data**2).sum() + (b.grad.data**2).sum()) == pytest.approx(1.0, abs=1e-6)


def test_clip_grad_norm_leaves_small_grads_alone():
    a = param([0.0, 0.0], np.float32)
    a.grad = as_grad(a, [0.3, 0.4])
    before = a.grad.data.copy()
    assert clip_grad_norm_([a], 1.0) == pytest.approx(0.5, rel=1e-6)
    np.testing.assert_array_equal(a.grad, before)
    assert a.grad.dtype == np.float32


def test_clip_grad_norm_other_norms_and_single_tensor():
    a = param([0.0, 0.0])
    a.grad = as_grad(a, [3.0, -4.0])
    assert clip_grad_norm_(a, 10.0, norm_type=math.inf) == 4.0
    assert clip_grad_norm_(a, 10.0, norm_type=1.0) == pytest.approx(7.0)
    assert clip_grad_norm_([param([1.0])], 1.0) == 0.0  # no grads at all


@pytest.mark.parametrize("bad", [np.inf, np.nan])
def test_clip_grad_norm_returns_non_finite_norm_without_raising(bad):
    a = param([0.0, 0.0])
    a.grad = as_grad(a, [1.0, bad])
    before = a.grad.data.copy()
    total = clip_grad_norm_([a], 1.0)
    assert not math.isfinite(total)
    np.testing.assert_array_equal(a.grad, before)


def test_clip_grad_norm_float32_overflow_is_reported_as_large_not_inf():
    a = param([0.0, 0.0], np.float32)
    a.grad = as_grad(a, [3e30, 4e30])  # squares overflow float32
    total = clip_grad_norm_([a], 1.0)
    assert total == pytest.approx(5e30, rel=1e-6)
    assert np.all(np.isfinite(a.grad))


def test_clip_grad_norm_validates_arguments():
    with pytest.raises(ValueError, match="max_norm: -1"):
        clip_grad_norm_([param([1.0])], -1)
    with pytest.raises(ValueError, match="norm_type: 0.5"):
        clip_grad_norm_([param([1.0])], 1.0, norm_type=0.5)


# ---- warmup + cosine schedule -------------------------------------------------------------------
def test_cosine_lr_values():
    lr, w, m, lo = 1e-3, 10, 110, 1e-4
    assert cosine_lr(0, lr, w, m, lo) == pytest.approx(lr / 11)  # warmup start: lr * 1 / (W + 1)
    assert cosine_lr(9, lr, w, m, lo) == pytest.approx(lr * 10 / 11)  # last warmup iteration
    assert cosine_lr(10, lr, w, m, lo) == pytest.approx(lr)  # warmup end: the full rate
    assert cosine_lr(60, lr, w, m, lo) == pytest.approx((lr + lo) / 2)  # halfway: cos(pi/2) = 0
    # a quarter of the way: min + 0.5 * (1 + cos(pi / 4)) * (lr - min)
    assert cosine_lr(35, lr, w, m, lo) == pytest.approx(lo + 0.5 * (1 + 2**-0.5) * (lr - lo))
    assert cosine_lr(110, lr, w, m, lo) == pytest.approx(lo)  # end
    assert cosine_lr(5000, lr, w, m, lo) == lo  # after
    assert cosine_lr(0, lr, 0, m, lo) == lr  # no warmup
    assert cosine_lr(10, lr, 10, 10, lo) == lo  # no decay phase: no division by zero


def test_cosine_lr_is_monotone_in_each_phase():
    lrs = [cosine_lr(i, 1.0, 20, 200, 0.1) for i in range(250)]
    assert all(x < y for x, y in itertools.pairwise(lrs[:21]))
    assert all(x > y for x, y in itertools.pairwise(lrs[20:201]))
    assert lrs[200:] == [0.1] * 50


def test_schedule_sets_group_lrs_each_step_and_round_trips():
    a, b = param([1.0]), param([2.0])
    opt = AdamW([{"params": [a]}, {"params": [b], "lr": 0.01}], lr=0.1)
    sched = CosineWithWarmup(opt, warmup_iters=4, max_iters=20, min_lr=0.001)
    assert sched.get_last_lr() == [pytest.approx(0.1 / 5), pytest.approx(0.01 / 5)]
    for _ in range(7):
        sched.step()
    assert sched.last_iter == 7
    assert opt.param_groups[0]["lr"] == pytest.approx(cosine_lr(7, 0.1, 4, 20, 0.001))
    assert opt.param_groups[1]["lr"] == pytest.approx(cosine_lr(7, 0.01, 4, 20, 0.001))
    assert sched.get_lr(7) == pytest.approx(cosine_lr(7, 0.1, 4, 20, 0.001))

    opt2 = AdamW([{"params": [a]}, {"params": [b], "lr": 0.01}], lr=0.1)
    sched2 = CosineWithWarmup(opt2, warmup_iters=1, max_iters=2)
    sched2.load_state_dict(sched.state_dict())
    assert sched2.get_last_lr() == sched.get_last_lr()
    sched.step()
    sched2.step()
    assert sched2.get_last_lr() == sched.get_last_lr()


def test_schedule_validation():
    opt = SGD([param([1.0])], lr=0.1)
    with pytest.raises(ValueError, match=r"max_iters \(5\) must be >= warmup_iters \(10\)"):
        CosineWithWarmup(opt, 10, 5)
    with pytest.raises(ValueError, match="warmup_iters must be an int >= 0, got -1"):
        cosine_lr(0, 0.1, -1, 10, 0.0)
    with pytest.raises(ValueError, match="iteration must be an int >= 0, got -2"):
        cosine_lr(-2, 0.1, 1, 10, 0.0)
    with pytest.raises(ValueError, match="min_lr: -0.1"):
        CosineWithWarmup(opt, 1, 5, min_lr=-0.1)
    sched = CosineWithWarmup(opt, 1, 5)
    bad = sched.state_dict()
    bad["base_lrs"] = [0.1, 0.2]
    with pytest.raises(ValueError, match="one rate per parameter group"):
        sched.load_state_dict(bad)
    assert sched.base_lrs == [0.1]


# ---- optional cross-check against PyTorch -----------------------------------------------------
@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-10), (np.float32, 1e-5)])
@pytest.mark.parametrize(
    "name, options",
    [
        ("SGD", {"lr": 0.1, "momentum": 0.9, "dampening": 0.1, "weight_decay": 0.01}),
        ("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True}),
        ("Adam", {"lr": 0.01, "weight_decay": 0.1}),
        ("AdamW", {"lr": 0.01, "betas": (0.8, 0.95)}),
        ("AdamW", {}),
    ],
)
def test_matches_torch_optim(name, options, dtype, tol):
    torch = pytest.importorskip("torch")
    init, grads = make_run(3)
    ours = [param(a, dtype) for a in init]
    run_steps(getattr(mg.optim, name)(ours, **options), ours, grads)
    theirs = [torch.tensor(a.astype(dtype), requires_grad=True) for a in init]
    opt = getattr(torch.optim, name)(theirs, **options)
    for step_grads in grads:
        for t, g in zip(theirs, step_grads):
            t.grad = torch.tensor(g.astype(dtype))
        opt.step()
    for a, t in zip(ours, theirs):
        np.testing.assert_allclose(a.data, t.detach().numpy(), rtol=tol, atol=tol)


@pytest.mark.parametrize("max_norm", [0.5, 1e3])
def test_clip_grad_norm_matches_torch(max_norm):
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(4)
    grads = [rng.standard_normal((4, 3)) * 3, rng.standard_normal(5)]
    ours = [param(np.zeros_like(g)) for g in grads]
    theirs = [torch.zeros(g.shape, dtype=torch.float64, requires_grad=True) for g in grads]
    for p, t, g in zip(ours, theirs, grads):
        p.grad, t.grad = as_grad(p, g), torch.tensor(g)
    total = clip_grad_norm_(ours, max_norm)
    assert total == pytest.approx(torch.nn.utils.clip_grad_norm_(theirs, max_norm).item())
    for p, t in zip(ours, theirs):
        np.testing.assert_allclose(p.grad, t.grad.numpy(), rtol=1e-12)

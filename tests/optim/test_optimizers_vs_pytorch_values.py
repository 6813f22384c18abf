"""Every optimizer beside SGD/Adam/AdamW, without PyTorch: eight steps from fixed gradients
(LBFGS: one step(closure) on a fixed objective) must land where PyTorch 2.13 lands, to 1e-12.
The expected values were computed once with ``torch.optim`` in float64; the differential
run against PyTorch itself is ``tests/optiminfo/``. Also: the options PyTorch accepts are
accepted, and the ones minigrad cannot honour are refused by name."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import optim

P0 = [0.5, -1.5, 2.0]
GRADS = [[0.3, -0.2, 1.0], [-0.1, 0.4, 0.5], [0.2, 0.2, -0.3]] * 3

CASES = [
    ("RMSprop", {'lr': 0.01, 'weight_decay': 0.1, 'centered': True, 'momentum': 0.5},
     [0.006354460400392536, -1.385016640769591, 1.4273992922599574]),
    ("RMSprop", {'maximize': True},
     [0.736250949982823, -1.3963966697672137, 2.2760745577354404]),
    ("Adagrad", {'lr': 0.1, 'lr_decay': 0.5, 'initial_accumulator_value': 0.1, 'weight_decay': 0.1},
     [0.37336697155502546, -1.4515755397078043, 1.8202396566333896]),
    ("Adadelta", {'rho': 0.95, 'weight_decay': 0.1, 'maximize': True},
     [0.5110574590515431, -1.4771402744337405, 2.0138655436754855]),
    ("Adamax", {'lr': 0.1, 'weight_decay': 0.1},
     [0.06505379822545551, -1.3479476794838594, 1.5017805718079125]),
    ("NAdam", {'lr': 0.1, 'weight_decay': 0.1, 'decoupled_weight_decay': True, 'momentum_decay': 0.006},
     [0.1241539526511489, -1.5637606579070826, 1.4490777823741503]),
    ("NAdam", {'lr': 0.1},
     [0.14908205113112405, -1.6817797131570038, 1.5887171908643005]),
    ("RAdam", {'lr': 0.1, 'weight_decay': 0.1, 'betas': (0.5, 0.6)},
     [0.3510403619189194, -1.4606513210995553, 1.446529413856335]),
    ("RAdam", {'lr': 0.1, 'decoupled_weight_decay': True, 'weight_decay': 0.1},
     [0.37864754109582877, -1.411697190106982, 1.539417552141715]),
    ("RAdam", {'lr': 0.1},
     [0.412982553427294, -1.528229810709714, 1.6773225935121763]),
    ("ASGD", {'lr': 0.1, 'lambd': 0.1, 't0': 1, 'weight_decay': 0.1},
     [0.3367240557673541, -1.3734916810802487, 1.3541149956297587]),
    ("Rprop", {'lr': 0.1, 'etas': (0.5, 1.5), 'step_sizes': (0.01, 0.2)},
     [0.18125000000000002, -1.53125, 1.421875]),
    ("Adam", {'lr': 0.1, 'amsgrad': True, 'weight_decay': 0.1, 'maximize': True},
     [0.8482609201291418, -1.1059483142072841, 2.4305492577760095]),
    ("SGD", {'lr': 0.1, 'momentum': 0.9, 'maximize': True},
     [0.902064327, -1.199655518, 3.4299766400000005]),
]


@pytest.mark.parametrize("name, options, expected", CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_eight_steps_land_where_pytorch_does(name, options, expected):
    p = mg.tensor(np.array(P0), requires_grad=True)
    opt = getattr(optim, name)([p], **options)
    for g in GRADS[:8]:
        p.grad = mg.tensor(np.array(g))
        opt.step()
    np.testing.assert_allclose(p.data, expected, rtol=1e-12, atol=1e-14)


LBFGS_CASES = [
    ({}, [0.8688299791675905, 0.9216988631543949, 0.7972810665785378], 9),
    ({'line_search_fn': 'strong_wolfe', 'history_size': 3}, [0.8688294319013462, 0.9216899524404449, 0.7972809352699026], 9),
    ({'lr': 0.1, 'max_iter': 4}, [0.5888709654743062, -0.9470978659371884, 1.7737829294424228], 4),
]


@pytest.mark.parametrize("options, expected, evals", LBFGS_CASES)
def test_lbfgs_step_lands_where_pytorch_does(options, expected, evals):
    p = mg.tensor(np.array(P0), requires_grad=True)
    a = mg.tensor(np.array([1.0, 2.0, 0.5]))
    opt = optim.LBFGS([p], **options)

    def closure():
        opt.zero_grad()
        loss = (a * (p - 1) ** 2).sum() + 0.1 * (p**4).sum()
        loss.backward()
        return loss

    opt.step(closure)
    np.testing.assert_allclose(p.data, expected, rtol=1e-10)
    assert opt.state[0]["func_evals"] == evals


@pytest.mark.parametrize("name", ["RMSprop", "Adadelta", "Adamax", "NAdam", "RAdam", "ASGD",
                                  "Rprop", "Adam", "AdamW"])
@pytest.mark.parametrize("flag", ["capturable", "differentiable"])
def test_capturable_and_differentiable_true_are_refused_by_name(name, flag):
    p = mg.tensor(np.zeros(2), requires_grad=True)
    getattr(optim, name)([p], **{flag: False})  # accepted
    with pytest.raises(ValueError, match=f"{flag}=True is not supported"):
        getattr(optim, name)([p], **{flag: True})


def test_foreach_and_fused_are_accepted_and_change_nothing():
    runs = []
    for options in ({}, {"foreach": True}, {"fused": True}, {"foreach": False, "fused": False}):
        p = mg.tensor(np.array(P0), requires_grad=True)
        opt = optim.Adagrad([p], lr=0.1, **options)
        for g in GRADS[:3]:
            p.grad = mg.tensor(np.array(g))
            opt.step()
        runs.append(p.data.copy())
    for r in runs[1:]:
        np.testing.assert_array_equal(r, runs[0])
    with pytest.raises(RuntimeError, match="cannot be `True` together"):
        optim.Adagrad([mg.tensor(np.zeros(1), requires_grad=True)], foreach=True, fused=True)


def test_adagrad_state_exists_from_construction_as_pytorchs():
    p = mg.tensor(np.zeros(3), requires_grad=True)
    sd = optim.Adagrad([p], initial_accumulator_value=0.5).state_dict()
    assert sd["state"][0]["step"] == 0
    np.testing.assert_array_equal(sd["state"][0]["sum"], [0.5, 0.5, 0.5])


def test_state_names_follow_the_groups_options():
    p = mg.tensor(np.zeros(2), requires_grad=True)
    p.grad = mg.tensor(np.ones(2))
    plain, full = optim.RMSprop([p]), optim.RMSprop([p], momentum=0.9, centered=True)
    plain.step()
    full.step()
    assert set(plain.state[0]) == {"step", "square_avg"}
    assert set(full.state[0]) == {"step", "square_avg", "momentum_buffer", "grad_avg"}
    ams = optim.Adam([p], amsgrad=True)
    ams.step()
    assert set(ams.state[0]) == {"step", "exp_avg", "exp_avg_sq", "max_exp_avg_sq"}
    sd = plain.state_dict()
    del sd["state"][0]["square_avg"]
    with pytest.raises(ValueError, match="expected"):
        plain.load_state_dict(sd)


def test_lbfgs_refuses_groups_and_a_missing_closure():
    a, b = (mg.tensor(np.zeros(2), requires_grad=True) for _ in range(2))
    with pytest.raises(ValueError, match="parameter groups"):
        optim.LBFGS([{"params": [a]}, {"params": [b]}])
    with pytest.raises(RuntimeError, match="needs a closure"):
        optim.LBFGS([a]).step()
    with pytest.raises(ValueError, match="strong_wolfe"):
        optim.LBFGS([a], line_search_fn="backtracking")


def test_a_one_element_tensor_lr_is_its_value_and_a_longer_one_is_refused():
    p = mg.tensor(np.zeros(2), requires_grad=True)
    assert optim.RMSprop([p], lr=mg.tensor(0.5)).param_groups[0]["lr"] == 0.5
    with pytest.raises(ValueError, match="Tensor lr must be 1-element"):
        optim.RMSprop([p], lr=mg.tensor([0.1, 0.2]))

"""BatchNorm, InstanceNorm, GroupNorm and LocalResponseNorm: PyTorch's values, running
statistics, buffers and state_dict keys (tests comparing with torch skip without it), and
torch-free gradcheck / gradgradcheck, state_dict key lists and error cases."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.gradcheck import gradcheck, gradgradcheck
from minigrad.nn import functional as F

# (class name, input shape): every layer over a batched input of its rank
BATCH_NORMS = [("BatchNorm1d", (4, 3)), ("BatchNorm1d", (3, 3, 5)),
               ("BatchNorm2d", (2, 3, 4, 3)), ("BatchNorm3d", (2, 3, 2, 3, 2))]
INSTANCE_NORMS = [("InstanceNorm1d", (2, 3, 5)), ("InstanceNorm1d", (3, 5)),
                  ("InstanceNorm2d", (2, 3, 4, 3)), ("InstanceNorm2d", (3, 4, 3)),
                  ("InstanceNorm3d", (2, 3, 2, 3, 2)), ("InstanceNorm3d", (3, 2, 3, 2))]
# momentum, affine, track_running_stats, bias
# the same layers on the tiniest inputs, for the finite differences of gradcheck
TINY = [("BatchNorm1d", (3, 3)), ("BatchNorm1d", (2, 3, 2)), ("BatchNorm2d", (2, 3, 1, 2)),
        ("BatchNorm3d", (2, 3, 1, 2, 1)), ("InstanceNorm1d", (2, 3, 2)), ("InstanceNorm1d", (3, 3)),
        ("InstanceNorm2d", (1, 3, 2, 2)), ("InstanceNorm2d", (3, 1, 2)),
        ("InstanceNorm3d", (1, 3, 1, 2, 1)), ("InstanceNorm3d", (3, 2, 1, 1))]
OPTIONS = [(m, affine, track, bias) for m, track, (affine, bias) in itertools.product(
    [0.1, 0.5, None], [True, False], [(True, True), (True, False), (False, True)])]


def _torch():
    return pytest.importorskip("torch")


def _pair(name, shape, momentum, affine, track, bias, seed=0):
    """A minigrad layer and the torch layer of the same class and options, with the same
    random affine parameters, in float64."""
    torch = _torch()
    kwargs = {"momentum": momentum, "affine": affine, "track_running_stats": track, "bias": bias}
    ours = getattr(nn, name)(3, **kwargs).double()
    theirs = getattr(torch.nn, name)(3, **kwargs).double()
    _same_random_affine(ours, theirs, np.random.default_rng(seed))
    return ours, theirs


def _same_random_affine(ours, theirs, rng):
    torch = _torch()
    for p in ("weight", "bias"):
        if getattr(theirs, p) is not None:
            v = rng.standard_normal(getattr(theirs, p).shape[0])
            getattr(ours, p).data[...] = v
            with torch.no_grad():
                getattr(theirs, p).copy_(torch.tensor(v))


@pytest.mark.parametrize("name,shape", BATCH_NORMS + INSTANCE_NORMS)
@pytest.mark.parametrize("momentum,affine,track,bias", OPTIONS)
def test_train_eval_running_stats_and_grads_match_torch(name, shape, momentum, affine, track,
                                                        bias):
    torch = _torch()
    ours, theirs = _pair(name, shape, momentum, affine, track, bias)
    rng = np.random.default_rng(1)
    for step in range(3):  # several training steps move the running statistics
        x = rng.standard_normal(shape) * (step + 1) + step
        xm = mg.Tensor(x.copy(), requires_grad=True)
        xt = torch.tensor(x, requires_grad=True)
        y, yt = ours(xm), theirs(xt)
        np.testing.assert_allclose(y.data, yt.detach().numpy(), rtol=1e-10, atol=1e-10)
        g = rng.standard_normal(y.shape)
        (y * mg.Tensor(g)).sum().backward()
        (yt * torch.tensor(g)).sum().backward()
        np.testing.assert_allclose(xm.grad.data, xt.grad.numpy(), rtol=1e-8, atol=1e-10)
        for p in ("weight", "bias"):
            if getattr(theirs, p) is not None:
                np.testing.assert_allclose(getattr(ours, p).grad.data,
                                           getattr(theirs, p).grad.numpy(), rtol=1e-8, atol=1e-10)
        for b in ("running_mean", "running_var", "num_batches_tracked"):
            tb = getattr(theirs, b)
            if tb is None:
                assert getattr(ours, b) is None
            else:
                np.testing.assert_allclose(getattr(ours, b).data, tb.numpy(), rtol=1e-12)
                assert getattr(ours, b).data.dtype == tb.numpy().dtype
    ours.eval()
    theirs.eval()
    x = rng.standard_normal(shape)
    np.testing.assert_allclose(ours(mg.Tensor(x)).data, theirs(torch.tensor(x)).detach().numpy(),
                               rtol=1e-10, atol=1e-10)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("name,shape", BATCH_NORMS + INSTANCE_NORMS)
@pytest.mark.parametrize("affine,track", [(True, True), (False, True), (True, False)])
def test_loads_torch_state_dict_strictly(name, shape, affine, track):
    torch = _torch()
    theirs = getattr(torch.nn, name)(3, affine=affine, track_running_stats=track)
    theirs.train()
    for _ in range(2):
        theirs(torch.randn(*shape) * 3 + 1)
    theirs.eval()
    ours = getattr(nn, name)(3, affine=affine, track_running_stats=track)
    assert ours.load_state_dict(theirs.state_dict()) is not None
    for k, v in theirs.state_dict().items():
        np.testing.assert_array_equal(ours.state_dict()[k].data, v.numpy())
    ours.eval()
    x = torch.randn(*shape)
    np.testing.assert_allclose(ours(mg.Tensor(x.numpy())).data, theirs(x).detach().numpy(),
                               rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("groups", [1, 2, 4])
@pytest.mark.parametrize("shape", [(2, 4), (3, 4, 5), (2, 4, 3, 2), (1, 4, 2, 2, 2)])
@pytest.mark.parametrize("affine,bias", [(True, True), (True, False), (False, True)])
def test_group_norm_matches_torch(groups, shape, affine, bias):
    torch = _torch()
    ours = nn.GroupNorm(groups, 4, affine=affine, bias=bias).double()
    theirs = torch.nn.GroupNorm(groups, 4, affine=affine, bias=bias).double()
    rng = np.random.default_rng(2)
    _same_random_affine(ours, theirs, rng)
    if shape[0] * int(np.prod(shape[2:])) * (4 // groups) == 1:
        return
    x = rng.standard_normal(shape) * 2 + 1
    xm, xt = mg.Tensor(x.copy(), requires_grad=True), torch.tensor(x, requires_grad=True)
    y, yt = ours(xm), theirs(xt)
    np.testing.assert_allclose(y.data, yt.detach().numpy(), rtol=1e-10, atol=1e-10)
    g = rng.standard_normal(shape)
    (y * mg.Tensor(g)).sum().backward()
    (yt * torch.tensor(g)).sum().backward()
    np.testing.assert_allclose(xm.grad.data, xt.grad.numpy(), rtol=1e-8, atol=1e-10)
    for p in ("weight", "bias"):
        if getattr(theirs, p) is not None:
            np.testing.assert_allclose(getattr(ours, p).grad.data, getattr(theirs, p).grad.numpy(),
                                       rtol=1e-8, atol=1e-10)
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("size", [1, 2, 3, 4, 7])
@pytest.mark.parametrize("shape", [(2, 5, 3), (2, 5, 3, 2), (1, 5, 2, 2, 2)])
@pytest.mark.parametrize("alpha,beta,k", [(1e-4, 0.75, 1.0), (0.5, 0.3, 2.0)])
def test_local_response_norm_matches_torch(size, shape, alpha, beta, k):
    torch = _torch()
    x = np.random.default_rng(3).standard_normal(shape) * 3
    xm, xt = mg.Tensor(x.copy(), requires_grad=True), torch.tensor(x, requires_grad=True)
    y = nn.LocalResponseNorm(size, alpha, beta, k)(xm)
    yt = torch.nn.LocalResponseNorm(size, alpha, beta, k)(xt)
    np.testing.assert_allclose(y.data, yt.detach().numpy(), rtol=1e-10, atol=1e-12)
    y.sum().backward()
    yt.sum().backward()
    np.testing.assert_allclose(xm.grad.data, xt.grad.numpy(), rtol=1e-8, atol=1e-12)
    assert repr(nn.LocalResponseNorm(size, alpha, beta, k)) == \
        repr(torch.nn.LocalResponseNorm(size, alpha, beta, k))


@pytest.mark.parametrize("training,momentum", [(True, 0.1), (True, 0.7), (False, 0.1)])
def test_functional_forms_match_torch(training, momentum):
    torch = _torch()
    rng = np.random.default_rng(4)
    x = rng.standard_normal((3, 2, 4))
    rm, rv = rng.standard_normal(2), rng.random(2) + 0.5
    w, b = rng.standard_normal(2), rng.standard_normal(2)
    for name in ("batch_norm", "instance_norm"):  # both move the running statistics
        ours_rm, ours_rv = mg.Tensor(rm.copy()), mg.Tensor(rv.copy())
        t_rm, t_rv = torch.tensor(rm), torch.tensor(rv)
        y = getattr(F, name)(mg.Tensor(x), ours_rm, ours_rv, mg.Tensor(w), mg.Tensor(b),
                             training, momentum, 1e-3)
        yt = getattr(torch.nn.functional, name)(torch.tensor(x), t_rm, t_rv, torch.tensor(w),
                                                torch.tensor(b), training, momentum, 1e-3)
        np.testing.assert_allclose(y.data, yt.numpy(), rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(ours_rm.data, t_rm.numpy(), rtol=1e-12)
        np.testing.assert_allclose(ours_rv.data, t_rv.numpy(), rtol=1e-12)
    y = F.group_norm(mg.Tensor(x), 2, mg.Tensor(w), mg.Tensor(b), 1e-3)
    yt = torch.nn.functional.group_norm(torch.tensor(x), 2, torch.tensor(w), torch.tensor(b), 1e-3)
    np.testing.assert_allclose(y.data, yt.numpy(), rtol=1e-10, atol=1e-12)


# ---- torch-free -------------------------------------------------------------------------


def _layer_cases():
    """(label, module, input shape): every layer and option on a tiny input, float64."""
    cases = []
    for (name, shape), (affine, track), training in itertools.product(
            TINY, [(True, True), (False, False), (True, False)],
            [True, False]):
        m = getattr(nn, name)(3, affine=affine, track_running_stats=track).double()
        cases.append((f"{name}{shape}-affine{affine}-track{track}-train{training}",
                      m.train(training), shape))
    for groups, affine in itertools.product([1, 3], [True, False]):
        cases.append((f"GroupNorm{groups}-affine{affine}",
                      nn.GroupNorm(groups, 3, affine=affine).double(), (2, 3, 2)))
    for size in (1, 2, 3):
        cases.append((f"LocalResponseNorm{size}", nn.LocalResponseNorm(size, 0.3, 0.6, 1.5),
                      (2, 3, 2)))
    return cases


CASES = _layer_cases()


def _perturb(m, rng):
    for p in m.parameters():
        p.data[...] = rng.standard_normal(p.shape)
    if getattr(m, "running_var", None) is not None:
        m.running_mean.data[...] = rng.standard_normal(m.running_mean.shape)
        m.running_var.data[...] = rng.random(m.running_var.shape) + 0.5


@pytest.mark.parametrize("label,module,shape", CASES, ids=[c[0] for c in CASES])
def test_gradcheck_and_gradgradcheck(label, module, shape):
    rng = np.random.default_rng(5)
    _perturb(module, rng)
    x = mg.Tensor(rng.standard_normal(shape), requires_grad=True)
    params = list(module.parameters())

    def fn(x, *ps):  # ps are the module's own Parameters: gradcheck perturbs them in place
        return module(x)

    # the running statistics move on every training call; gradients do not depend on them
    assert gradcheck(fn, [x, *params])
    assert gradgradcheck(fn, [x, *params])


def test_running_stats_by_hand():
    """Momentum and the cumulative average (momentum=None) with the unbiased variance."""
    rng = np.random.default_rng(6)
    batches = [rng.standard_normal((5, 2)) * (i + 1) + i for i in range(4)]
    for momentum in (0.1, 0.6, None):
        m = nn.BatchNorm1d(2, momentum=momentum).double()
        mean, var = np.zeros(2), np.ones(2)
        for t, x in enumerate(batches, 1):
            m(mg.Tensor(x))
            f = 1 / t if momentum is None else momentum
            mean = (1 - f) * mean + f * x.mean(0)
            var = (1 - f) * var + f * x.var(0, ddof=1)
            np.testing.assert_allclose(m.running_mean.data, mean, rtol=1e-12)
            np.testing.assert_allclose(m.running_var.data, var, rtol=1e-12)
            assert m.num_batches_tracked.data == t
            assert m.num_batches_tracked.data.dtype == np.int64
        m.eval()
        x = batches[0]
        np.testing.assert_allclose(m(mg.Tensor(x)).data, (x - mean) / np.sqrt(var + 1e-5),
                                   rtol=1e-12)
        assert m.num_batches_tracked.data == len(batches)  # evaluation does not count


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name, shape", BATCH_NORMS)
@pytest.mark.parametrize("affine, bias", [(True, True), (True, False), (False, True)])
def test_batch_norm_one_op_equals_its_small_op_form(name, shape, affine, bias, dtype):
    """Training BatchNorm runs as one op (minigrad.ops.batchnorm) on a fused kernel; the
    small ops that are its composite give the same output, input/weight/bias gradients and
    running statistics, with values far from zero (the one-pass variance's hard case)."""
    rng = np.random.default_rng(11)
    x0 = (rng.standard_normal(shape) * 3 + 40).astype(dtype)
    r = rng.standard_normal(shape).astype(dtype)
    w0 = rng.standard_normal(3)
    results = []
    for fused in (True, False):
        m = getattr(nn, name)(3, affine=affine, bias=bias, dtype=dtype)
        if affine:
            m.weight.data[:] = w0
        x = mg.tensor(x0, requires_grad=True)
        if fused:
            y = m(x)
            assert y._ctx.fn.__name__ == "BatchNormFunction"
        else:
            dims = (0,) + tuple(range(2, x.ndim))
            y, mean, var = nn.norm_axes.normalize_over(x, dims, m.eps)
            y = nn.norm_axes.channel_affine(y, m.weight, m.bias)
            n = x0.size // 3
            nn.norm_axes.update_running(m.running_mean, mean.data.reshape(3), m.momentum)
            nn.norm_axes.update_running(m.running_var, var.data.reshape(3) * n / (n - 1),
                                        m.momentum)
        (y * mg.tensor(r)).sum().backward()
        params = [p.grad.data for p in (m.weight, m.bias) if p is not None]
        results.append([y.data, x.grad.data, *params, m.running_mean.data, m.running_var.data])
    tol = {np.float32: 2e-4, np.float64: 1e-10}[dtype]
    for got, want in zip(*results):
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("module,keys", [
    (nn.BatchNorm2d(3), ["weight", "bias", "running_mean", "running_var", "num_batches_tracked"]),
    (nn.BatchNorm1d(3, affine=False), ["running_mean", "running_var", "num_batches_tracked"]),
    (nn.BatchNorm3d(3, bias=False),
     ["weight", "running_mean", "running_var", "num_batches_tracked"]),
    (nn.BatchNorm1d(3, track_running_stats=False), ["weight", "bias"]),
    (nn.BatchNorm1d(3, affine=False, track_running_stats=False), []),
    (nn.InstanceNorm2d(3), []),
    (nn.InstanceNorm1d(3, affine=True), ["weight", "bias"]),
    (nn.InstanceNorm3d(3, track_running_stats=True),
     ["running_mean", "running_var", "num_batches_tracked"]),
    (nn.GroupNorm(1, 3), ["weight", "bias"]),
    (nn.GroupNorm(3, 3, affine=False), []),
    (nn.LocalResponseNorm(2), []),
])
def test_state_dict_keys(module, keys):
    assert list(module.state_dict()) == keys


def test_state_without_num_batches_tracked_loads_keeping_the_count():
    m = nn.BatchNorm1d(2)
    m(mg.randn(4, 2))
    m.load_state_dict({"weight": np.ones(2), "bias": np.zeros(2),
                       "running_mean": np.full(2, 3.0), "running_var": np.full(2, 2.0)})
    assert m.running_mean.data.tolist() == [3.0, 3.0] and m.num_batches_tracked.data == 1


def test_no_running_stats_uses_batch_statistics_in_eval():
    x = np.random.default_rng(7).standard_normal((6, 2))
    m = nn.BatchNorm1d(2, track_running_stats=False, affine=False).double().eval()
    np.testing.assert_allclose(m(mg.Tensor(x)).data, (x - x.mean(0)) / np.sqrt(x.var(0) + 1e-5),
                               rtol=1e-12)


def test_eval_mode_uses_no_batch_statistics():
    m = nn.BatchNorm1d(2).eval()
    y = m(mg.Tensor(np.array([[5.0, -1.0]], dtype=np.float32)))  # a batch of one is fine in eval
    np.testing.assert_allclose(y.data, [[5.0 / np.sqrt(1 + 1e-5), -1.0 / np.sqrt(1 + 1e-5)]],
                               rtol=1e-6)


@pytest.mark.parametrize("call,error,match", [
    (lambda: nn.BatchNorm1d(3)(mg.zeros(2, 3, 4, 5)), ValueError, r"expected 2D or 3D input \(got 4D"),
    (lambda: nn.BatchNorm2d(3)(mg.zeros(2, 3, 4)), ValueError, r"expected 4D input \(got 3D"),
    (lambda: nn.BatchNorm3d(3)(mg.zeros(2, 3, 4, 4)), ValueError, r"expected 5D input \(got 4D"),
    (lambda: nn.BatchNorm1d(3)(mg.zeros(1, 3)), ValueError,
     "Expected more than 1 value per channel when training"),
    (lambda: nn.BatchNorm2d(3)(mg.zeros(1, 3, 1, 1)), ValueError,
     "Expected more than 1 value per channel when training"),
    (lambda: nn.BatchNorm1d(4)(mg.zeros(2, 3)), RuntimeError,
     "running_mean should contain 3 elements not 4"),
    (lambda: F.batch_norm(mg.zeros(2, 3), None, None), RuntimeError,
     "running_mean must be defined in evaluation mode"),
    (lambda: nn.InstanceNorm1d(3)(mg.zeros(2, 3, 4, 4)), ValueError,
     r"expected 2D or 3D input \(got 4D"),
    (lambda: nn.InstanceNorm2d(3, affine=True)(mg.zeros(2, 4, 3, 3)), ValueError,
     r"expected input's size at dim=1 to match num_features \(3\), but got: 4"),
    (lambda: nn.InstanceNorm1d(3)(mg.zeros(2, 3, 1)), ValueError,
     "Expected more than 1 spatial element when training"),
    (lambda: F.instance_norm(mg.zeros(2, 3, 4), use_input_stats=False), RuntimeError,
     "Expected running_mean and running_var to be defined"),
    (lambda: nn.GroupNorm(2, 3), ValueError, r"num_channels \(3\) must be divisible by num_groups \(2\)"),
    (lambda: F.group_norm(mg.zeros(2, 3, 4), 2), RuntimeError,
     "Expected number of channels in input to be divisible by num_groups"),
    (lambda: F.group_norm(mg.zeros(3), 1), RuntimeError, "Expected at least 2 dimensions"),
    (lambda: F.group_norm(mg.zeros(1, 2), 2), ValueError,
     "Expected more than 1 value per channel when training"),
    (lambda: F.local_response_norm(mg.zeros(2, 3), 2), ValueError,
     r"Expected 3D or higher dimensionality input \(got 2 dimensions\)"),
])
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_refused_batch_changes_nothing():
    m = nn.BatchNorm1d(3)
    with pytest.raises(ValueError):
        m(mg.ones(1, 3))
    assert m.num_batches_tracked.data == 0
    assert m.running_mean.data.tolist() == [0, 0, 0] and m.running_var.data.tolist() == [1, 1, 1]


def test_instance_norm_mismatched_features_warn_without_affine():
    with pytest.warns(UserWarning, match="does not match num_features"):
        nn.InstanceNorm1d(3)(mg.randn(2, 4, 5))


@pytest.mark.parametrize("module", [nn.BatchNorm1d(3, momentum=None), nn.BatchNorm2d(3),
                                    nn.InstanceNorm1d(3, track_running_stats=True),
                                    nn.GroupNorm(3, 3), nn.LocalResponseNorm(2)])
def test_empty_batch_gives_empty_output_and_keeps_statistics(module):
    shape = (0, 3, 4, 2) if isinstance(module, nn.BatchNorm2d) else (0, 3, 4)
    x = mg.zeros(*shape, requires_grad=True)
    y = module(x)
    assert y.shape == shape
    y.sum().backward()
    assert x.grad.shape == shape
    if getattr(module, "running_mean", None) is not None:
        assert module.running_mean.data.tolist() == [0, 0, 0]
        assert module.running_var.data.tolist() == [1, 1, 1]

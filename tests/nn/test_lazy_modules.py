"""Lazy modules: uninitialized tensors before the first call, the sizes inferred at it (or
taken from a loaded state), the ordinary class afterwards, gradients against finite
differences, and (where installed) PyTorch's state before and after the first call."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn

# (lazy class, constructor arguments, input shape, the eager class and its arguments)
CASES = [
    (nn.LazyLinear, (3,), (2, 5), nn.Linear, (5, 3)),
    (nn.LazyLinear, (4, False), (2, 3, 6), nn.Linear, (6, 4, False)),
    (nn.LazyConv1d, (4, 3), (2, 6, 9), nn.Conv1d, (6, 4, 3)),
    (nn.LazyConv2d, (4, 3, 1, "same", 1, 2), (2, 6, 5, 5), nn.Conv2d, (6, 4, 3, 1, "same", 1, 2)),
    (nn.LazyConv3d, (2, 2), (3, 4, 4, 4), nn.Conv3d, (3, 2, 2)),  # unbatched
    (nn.LazyConvTranspose1d, (4, 3, 2), (2, 6, 5), nn.ConvTranspose1d, (6, 4, 3, 2)),
    (nn.LazyConvTranspose2d, (2, 3), (3, 4, 4), nn.ConvTranspose2d, (3, 2, 3)),
    (nn.LazyConvTranspose3d, (2, 2, 1, 0, 0, 1, False), (1, 2, 3, 3, 3), nn.ConvTranspose3d,
     (2, 2, 2, 1, 0, 0, 1, False)),
    (nn.LazyBatchNorm1d, (), (4, 3), nn.BatchNorm1d, (3,)),
    (nn.LazyBatchNorm2d, (1e-3, 0.2), (2, 3, 4, 4), nn.BatchNorm2d, (3, 1e-3, 0.2)),
    (nn.LazyBatchNorm3d, (1e-5, 0.1, False), (2, 3, 2, 2, 2), nn.BatchNorm3d,
     (3, 1e-5, 0.1, False)),
    (nn.LazyInstanceNorm1d, (), (2, 3, 5), nn.InstanceNorm1d, (3, 1e-5, 0.1, True, True)),
    (nn.LazyInstanceNorm2d, (1e-5, 0.1, True, False), (2, 3, 4, 4), nn.InstanceNorm2d,
     (3, 1e-5, 0.1, True, False)),
    (nn.LazyInstanceNorm3d, (), (2, 3, 2, 3, 2), nn.InstanceNorm3d,
     (3, 1e-5, 0.1, True, True)),
]
IDS = [c[0].__name__ for c in CASES]


@pytest.mark.parametrize("lazy_cls, args, shape, eager_cls, eager_args", CASES, ids=IDS)
def test_before_the_first_call(lazy_cls, args, shape, eager_cls, eager_args) -> None:
    """Same state_dict keys as the eager module, the learned and running tensors
    uninitialized (no shape: PyTorch's ValueError)."""
    m = lazy_cls(*args)
    state = m.state_dict()
    assert list(state) == list(eager_cls(*eager_args).state_dict())
    lazy = [k for k, v in state.items() if isinstance(v, nn.UninitializedParameter | nn.UninitializedBuffer)]
    assert lazy == [k for k in state if k != "num_batches_tracked"] and lazy
    assert m.has_uninitialized_params()
    with pytest.raises(ValueError, match="Can't access the shape of an uninitialized"):
        _ = getattr(m, lazy[0]).shape


@pytest.mark.parametrize("lazy_cls, args, shape, eager_cls, eager_args", CASES, ids=IDS)
def test_the_first_call_infers_the_sizes(lazy_cls, args, shape, eager_cls, eager_args) -> None:
    """After the first call: the eager class, its shapes, its init (the same draws), and
    the eager module's output for the same parameters."""
    x = mg.tensor(np.random.default_rng(0).standard_normal(shape).astype(np.float32))
    mg.manual_seed(3)
    m = lazy_cls(*args)
    y = m(x)
    assert type(m) is eager_cls
    assert not any(isinstance(v, nn.UninitializedParameter | nn.UninitializedBuffer)
                   for v in m.state_dict().values())
    mg.manual_seed(3)
    eager = eager_cls(*eager_args)
    assert {k: v.shape for k, v in m.state_dict().items()} == \
        {k: v.shape for k, v in eager.state_dict().items()}
    for k, v in m.named_parameters():
        np.testing.assert_array_equal(v.data, dict(eager.named_parameters())[k].data)
    eager.load_state_dict(m.state_dict())
    np.testing.assert_allclose(y.data, eager.eval().train()(x).data, rtol=1e-6, atol=1e-6)
    assert repr(m) == repr(eager)


@pytest.mark.parametrize("lazy_cls, args, shape, eager_cls, eager_args", CASES, ids=IDS)
def test_a_loaded_state_materializes(lazy_cls, args, shape, eager_cls, eager_args) -> None:
    """load_state_dict gives each uninitialized tensor the loaded shape; the first call then
    reads the sizes off them and turns the module into the eager class."""
    eager = eager_cls(*eager_args).double()
    state = {k: v.data + 0.5 for k, v in eager.state_dict().items()}
    m = lazy_cls(*args).double()
    m.load_state_dict(state)
    assert not m.has_uninitialized_params()
    x = mg.tensor(np.random.default_rng(1).standard_normal(shape))
    eager.load_state_dict(state)
    np.testing.assert_allclose(m(x).data, eager(x).data, rtol=1e-12)
    assert type(m) is eager_cls and repr(m) == repr(eager)


@pytest.mark.parametrize("index", [0, 3, 5, 9, 12])
def test_gradients_match_finite_differences(index: int) -> None:
    lazy_cls, args, shape, _, _ = CASES[index]
    m = lazy_cls(*args).double()
    x = mg.tensor(np.random.default_rng(2).standard_normal(shape), requires_grad=True)
    m(x)  # materialize
    params = [p for p in m.parameters()]
    assert mg.gradcheck(lambda t, *ps: m(t), [x, *params])


def test_an_optimizer_built_before_the_first_call_sees_the_weights() -> None:
    m = nn.LazyLinear(2)
    opt = mg.optim.SGD(m.parameters(), lr=0.1)
    x = mg.tensor(np.ones((3, 4), np.float32))
    m(x).sum().backward()
    before = m.weight.data.copy()
    opt.step()
    np.testing.assert_allclose(m.weight.data, before - 0.1 * 3, rtol=1e-6)


def test_errors_at_the_first_call() -> None:
    with pytest.raises(RuntimeError, match="Expected 3D \\(unbatched\\) or 4D \\(batched\\) "
                                           "input to LazyConv2d"):
        nn.LazyConv2d(4, 3)(mg.tensor(np.zeros((2, 3, 4, 4, 4), np.float32)))
    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        nn.LazyConv1d(4, 3, groups=2)(mg.tensor(np.zeros((2, 3, 5), np.float32)))


def test_dtype_and_to() -> None:
    m = nn.LazyLinear(3, dtype=np.float64)
    m(mg.tensor(np.zeros((1, 2))))
    assert m.weight.dtype == np.float64
    m = nn.LazyBatchNorm1d().to(np.float64)
    m(mg.tensor(np.ones((4, 2))))
    assert m.running_mean.dtype == np.float64 and m.weight.dtype == np.float64


def test_state_matches_pytorch_before_and_after_the_first_call() -> None:
    torch = pytest.importorskip("torch")
    for lazy_cls, args, shape, eager_cls, _ in CASES:
        theirs = getattr(torch.nn, lazy_cls.__name__)(*args)
        ours = lazy_cls(*args)
        before = theirs.state_dict()
        assert list(ours.state_dict()) == list(before)
        for k, v in ours.state_dict().items():
            uninit = isinstance(before[k], torch.nn.parameter.UninitializedTensorMixin)
            assert isinstance(v, nn.UninitializedParameter | nn.UninitializedBuffer) == uninit
        x = np.random.default_rng(4).standard_normal(shape).astype(np.float32)
        theirs(torch.tensor(x))
        ours(mg.tensor(x))
        assert type(ours).__name__ == type(theirs).__name__ == eager_cls.__name__
        assert {k: tuple(v.shape) for k, v in ours.state_dict().items()} == \
            {k: tuple(v.shape) for k, v in theirs.state_dict().items()}

"""Max, average, LP, adaptive pooling and max unpooling 1-3d, and the padding layers:
first and second derivatives over a table of every option (stride, padding, dilation,
ceil_mode, count_include_pad, divisor_override, return_indices, unbatched), PyTorch's tie
rule (the first maximum of a window takes the gradient), values, gradients and indices
against PyTorch where it is installed, and PyTorch's errors."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import gradcheck, gradgradcheck, nn
from minigrad.nn import functional as F

rng = np.random.default_rng(0)
SPACE = {1: (7,), 2: (5, 6), 3: (3, 4, 3)}
UNIFORM = {1: (7,), 2: (5, 3), 3: (3, 2, 1)}  # output sizes that divide SPACE


def _t(*shape, low=None):
    a = rng.standard_normal(shape) if low is None else rng.uniform(low, low + 1, shape)
    return mg.tensor(a, requires_grad=True)


def _x(d, batch=True, low=None):
    return _t(*((1,) if batch else ()), 2, *SPACE[d], low=low)


POOLS = [(d, kind, opts) for d in (1, 2, 3) for kind, opts in (
    ("max", {"kernel_size": 2}),
    ("max", {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True}),
    ("max", {"kernel_size": 2, "stride": 1, "dilation": 2, "return_indices": True}),
    ("avg", {"kernel_size": 2, "stride": 1}),
    ("avg", {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True}),
    ("avg", {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True,
             "count_include_pad": False}),
    ("avg", {"kernel_size": 2, "divisor_override": 3} if d > 1 else {"kernel_size": 2}),
    ("lp", {"norm_type": 2.0, "kernel_size": 2}),
    ("lp", {"norm_type": 3.0, "kernel_size": 3, "stride": 2, "ceil_mode": True}),
    ("adaptive_avg", {"output_size": 3}),
    ("adaptive_avg", {"output_size": (5, None, 2)[:d]}),
    ("adaptive_max", {"output_size": 3}),
    ("adaptive_max", {"output_size": (5, None, 3)[:d], "return_indices": True}),
    # every output size dividing its input's: ordinary pooling's windows
    ("adaptive_avg", {"output_size": 1}),
    ("adaptive_max", {"output_size": UNIFORM[d], "return_indices": True}),
)]


def _pool(kind, d):
    return getattr(F, f"{kind}_pool{d}d")


def _first(out):
    return out[0] if isinstance(out, tuple) else out


@pytest.mark.parametrize("d, kind, opts", POOLS, ids=lambda v: str(v))
def test_pool_first_and_second_derivatives(d, kind, opts):
    # LP pooling takes x^p: positive inputs keep it away from its kink at 0
    x = _x(d, low=0.5 if kind == "lp" else None)
    if kind == "lp":
        rest = {k: v for k, v in opts.items() if k != "norm_type"}
        fn = lambda x: _pool(kind, d)(x, opts["norm_type"], **rest)
    else:
        fn = lambda x: _first(_pool(kind, d)(x, **opts))
    assert gradcheck(fn, [x]) and gradgradcheck(lambda x: fn(x) ** 2, [x])


@pytest.mark.parametrize("d, kind, opts", POOLS, ids=lambda v: str(v))
def test_unbatched_input_is_one_sample(d, kind, opts):
    x = _x(d, batch=False, low=0.5)
    args = (opts["norm_type"],) if kind == "lp" else ()
    opts = {k: v for k, v in opts.items() if k != "norm_type"}
    one, batch = _pool(kind, d)(x, *args, **opts), _pool(kind, d)(x[None], *args, **opts)
    for a, b in zip(one if isinstance(one, tuple) else (one,),
                    batch if isinstance(batch, tuple) else (batch,)):
        np.testing.assert_array_equal(a.numpy(), b.numpy()[0])


@pytest.mark.parametrize("d", [1, 2, 3])
def test_max_unpool_first_and_second_derivatives(d):
    # windows that do not overlap: each index once (a repeated one is written once, so
    # finite differences see only its last value; PyTorch's gradient reads it for both)
    y, idx = _pool("max", d)(_x(d), 2, return_indices=True)
    y = mg.tensor(y.numpy(), requires_grad=True)
    unpool = getattr(F, f"max_unpool{d}d")
    fn = lambda y: unpool(y, idx, 2, output_size=SPACE[d])
    assert gradcheck(fn, [y]) and gradgradcheck(lambda y: fn(y) ** 2, [y])


def test_max_pool_ties_send_the_gradient_to_the_first_maximum():
    # windows [1 3 3], [3 3 2], [3 2 3]: the first 3 of each window takes its gradient
    x = mg.tensor([[[1.0, 3, 3, 2, 3]]], requires_grad=True)
    y, idx = F.max_pool1d(x, 3, 1, return_indices=True)
    y.sum().backward()
    assert idx.numpy().tolist() == [[[1, 1, 2]]]
    assert x.grad.numpy().tolist() == [[[0.0, 2.0, 1.0, 0.0, 0.0]]]
    # the same in 2-D, row-major within the window (each window's top-left), for adaptive
    # windows too
    x = mg.tensor(np.ones((1, 1, 3, 3)), requires_grad=True)
    F.max_pool2d(x, 2, 1).sum().backward()
    assert x.grad.numpy()[0, 0].tolist() == [[1, 1, 0], [1, 1, 0], [0, 0, 0]]
    x.grad = None
    F.adaptive_max_pool2d(x, 2).sum().backward()
    assert x.grad.numpy()[0, 0].tolist() == [[1, 1, 0], [1, 1, 0], [0, 0, 0]]


def test_max_pool_propagates_nan():
    y, idx = F.max_pool1d(mg.tensor([[[1.0, np.nan, 3.0, 0.0]]]), 2, return_indices=True)
    assert np.isnan(y.numpy()[0, 0, 0]) and y.numpy()[0, 0, 1] == 3.0
    assert idx.numpy().tolist() == [[[1, 2]]]


def test_integer_pooling_keeps_the_dtype_and_rounds_toward_zero():
    x = mg.tensor(np.array([[[-3, 5, 7, -8, 2]]], np.int64))
    assert F.avg_pool1d(x, 2, 1).numpy().tolist() == [[[1, 6, 0, -3]]]
    assert F.avg_pool1d(x, 2, 1).dtype == np.int64
    got = F.max_pool1d(x, 2, 1, padding=1)
    assert got.dtype == np.int64 and got.numpy().tolist() == [[[-3, 5, 7, 7, 2, 2]]]
    assert F.adaptive_max_pool1d(x, 3).numpy().tolist() == [[[5, 7, 2]]]


def test_an_empty_batch_pools_to_an_empty_batch():
    x = mg.zeros((0, 1, 5, 5))
    assert F.max_pool2d(x, 2, 1, 1, 2).shape == (0, 1, 5, 5)
    assert F.avg_pool2d(x, 2).shape == (0, 1, 2, 2)
    assert F.adaptive_avg_pool2d(x, 3).shape == (0, 1, 3, 3)


def test_max_unpool_writes_a_repeated_index_once():
    # overlapping windows name one maximum twice: written, not added (PyTorch's)
    x = mg.tensor([[[1.0, 5.0, 2.0]]])
    y, idx = F.max_pool1d(x, 2, 1, return_indices=True)
    assert F.max_unpool1d(y, idx, 2, 1, output_size=[3]).numpy().tolist() == [[[0, 5, 0]]]


@pytest.mark.parametrize("call, match", [
    (lambda: F.max_pool2d(_t(1, 1, 5, 5), 2, padding=2), ("pad should be at most half of "
     "effective kernel size, but got pad=2, kernel_size=2 and dilation=1")),
    (lambda: F.max_pool2d(_t(1, 1, 5, 5), 7), "Calculated output size: \\(1x0x0\\)"),
    (lambda: F.max_pool2d(_t(1, 1, 5, 5), 2, stride=0), "stride should not be zero"),
    (lambda: F.avg_pool2d(_t(1, 1, 5, 5), 2, divisor_override=0), "divisor must be not zero"),
    (lambda: F.max_pool2d(_t(2, 1, 1, 5, 5), 2), "Expected 3D or 4D \\(batch mode\\)"),
    (lambda: F.max_unpool1d(_t(1, 1, 2), mg.tensor(np.array([[[0, 9]]])), 2),
     "Found an invalid max index: 9 \\(output volumes are of size 4\\)"),
])
def test_pool_errors(call, match):
    with pytest.raises(RuntimeError, match=match):
        call()


def test_unpool_output_size_error():
    y, idx = F.max_pool1d(_t(1, 1, 6), 2, return_indices=True)
    with pytest.raises(ValueError, match="dim 0 must be between 4 and 8"):
        F.max_unpool1d(y, idx, 2, output_size=[9])


PAD_LAYERS = [(name, d, arg) for d in (1, 2, 3) for name, arg in (
    ("ZeroPad", (1, 2, 0, 1, 2, 1)[:2 * d]), ("ConstantPad", 2), ("ReflectionPad", 1),
    ("ReplicationPad", (2, 1, 1, 0, 1, 2)[:2 * d]), ("CircularPad", (1, 2, 2, 1, 0, 1)[:2 * d]))]
NUMPY_MODE = {"ZeroPad": "constant", "ConstantPad": "constant", "ReflectionPad": "reflect",
              "ReplicationPad": "edge", "CircularPad": "wrap"}


@pytest.mark.parametrize("name, d, arg", PAD_LAYERS, ids=lambda v: str(v))
def test_padding_layers_match_numpy_and_differentiate(name, d, arg):
    layer = getattr(nn, f"{name}{d}d")(arg, 3.5) if name == "ConstantPad" else \
        getattr(nn, f"{name}{d}d")(arg)
    x = _t(1, 2, *(3,) * d)
    amounts = (arg,) * 2 * d if isinstance(arg, int) else arg
    widths = [(0, 0), (0, 0)] + [amounts[2 * i: 2 * i + 2] for i in reversed(range(d))]
    kw = {"constant_values": 3.5} if name == "ConstantPad" else {}
    np.testing.assert_array_equal(layer(x).numpy(),
                                  np.pad(x.numpy(), widths, mode=NUMPY_MODE[name], **kw))
    assert gradcheck(layer, [x]) and gradgradcheck(lambda x: layer(x) ** 2, [x])


# ---------------------------------------------------------------- against PyTorch


def _torch():
    return pytest.importorskip("torch")


def _torch_pool(torch, kind, d):
    return getattr(torch.nn.functional, f"{kind}_pool{d}d")


@pytest.mark.parametrize("d, kind, opts", POOLS, ids=lambda v: str(v))
@pytest.mark.parametrize("batch", [True, False])
@pytest.mark.parametrize("ties", [False, True])
def test_pool_matches_pytorch(d, kind, opts, batch, ties):
    torch = _torch()
    shape = ((2,) if batch else ()) + (3,) + SPACE[d]
    # ties: small integers, so that windows share their maximum
    x = rng.integers(0, 3, shape).astype(float) if ties else rng.uniform(0.1, 2, shape)
    xo, xt = mg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)
    if kind == "lp":
        args = (opts["norm_type"],)
        opts = {k: v for k, v in opts.items() if k != "norm_type"}
    else:
        args = ()
    ours, theirs = _pool(kind, d)(xo, *args, **opts), _torch_pool(torch, kind, d)(xt, *args,
                                                                                 **opts)
    if isinstance(ours, tuple):
        np.testing.assert_array_equal(ours[1].numpy(), theirs[1].numpy())
        ours, theirs = ours[0], theirs[0]
    np.testing.assert_allclose(ours.numpy(), theirs.detach().numpy(), rtol=1e-12, atol=1e-12)
    g = rng.standard_normal(ours.shape)
    (ours * mg.tensor(g)).sum().backward()
    (theirs * torch.tensor(g)).sum().backward()
    np.testing.assert_allclose(xo.grad.numpy(), xt.grad.numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("d", [1, 2, 3])
def test_max_unpool_matches_pytorch(d):
    torch = _torch()
    x = rng.standard_normal((2, 3) + SPACE[d])
    y, idx = _pool("max", d)(mg.tensor(x), 2, stride=1, return_indices=True)
    yo, yt = mg.tensor(y.numpy(), requires_grad=True), torch.tensor(y.numpy(),
                                                                    requires_grad=True)
    ours = getattr(F, f"max_unpool{d}d")(yo, idx, 2, 1, output_size=SPACE[d])
    theirs = getattr(torch.nn.functional, f"max_unpool{d}d")(
        yt, torch.tensor(idx.numpy()), 2, 1, output_size=SPACE[d])
    np.testing.assert_array_equal(ours.numpy(), theirs.detach().numpy())
    g = rng.standard_normal(ours.shape)
    (ours * mg.tensor(g)).sum().backward()
    (theirs * torch.tensor(g)).sum().backward()
    np.testing.assert_array_equal(yo.grad.numpy(), yt.grad.numpy())


LAYERS = [
    ("MaxPool2d", (3,), {"stride": 2, "padding": 1, "ceil_mode": True}),
    ("MaxPool1d", (2,), {"return_indices": True}),
    ("AvgPool3d", (2,), {"count_include_pad": False, "padding": 1}),
    ("AvgPool1d", (3,), {"stride": 2, "ceil_mode": True}),
    ("LPPool2d", (2.0, 2), {}),
    ("AdaptiveAvgPool2d", ((2, 3),), {}),
    ("AdaptiveMaxPool3d", (2,), {"return_indices": True}),
]


@pytest.mark.parametrize("name, args, kw", LAYERS, ids=lambda v: str(v))
def test_pool_layers_match_pytorch(name, args, kw):
    torch = _torch()
    d = int(name[-2])
    x = rng.uniform(0.1, 2, (2, 3) + SPACE[d])
    ours, theirs = getattr(nn, name)(*args, **kw), getattr(torch.nn, name)(*args, **kw)
    got, want = ours(mg.tensor(x)), theirs(torch.tensor(x))
    if isinstance(want, tuple):
        np.testing.assert_array_equal(got[1].numpy(), want[1].numpy())
        got, want = got[0], want[0]
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)
    assert repr(ours) == repr(theirs)


ERRORS = [
    lambda F, t: F.max_pool2d(t(1, 1, 5, 5), 2, padding=2),
    lambda F, t: F.avg_pool2d(t(1, 1, 5, 5), 2, padding=2),
    lambda F, t: F.max_pool2d(t(1, 1, 5, 5), 7),
    lambda F, t: F.max_pool2d(t(1, 1, 5, 5), 2, stride=0),
    lambda F, t: F.avg_pool2d(t(1, 1, 5, 5), 2, divisor_override=0),
]


@pytest.mark.parametrize("call", ERRORS)
def test_pool_errors_are_pytorchs(call):
    torch = _torch()
    with pytest.raises(Exception) as want:
        call(torch.nn.functional, lambda *s: torch.zeros(s, dtype=torch.float64))
    with pytest.raises(type(want.value)) as got:
        call(F, lambda *s: mg.zeros(s, dtype=np.float64))
    assert str(got.value).split(": ", 1)[-1] == str(want.value)


@pytest.mark.parametrize("name, d, arg", PAD_LAYERS, ids=lambda v: str(v))
def test_padding_layers_match_pytorch(name, d, arg):
    torch = _torch()
    args = (arg, 3.5) if name == "ConstantPad" else (arg,)
    ours, theirs = getattr(nn, f"{name}{d}d")(*args), getattr(torch.nn, f"{name}{d}d")(*args)
    x = rng.standard_normal((2, 3) + (4,) * d)
    np.testing.assert_array_equal(ours(mg.tensor(x)).numpy(), theirs(torch.tensor(x)).numpy())
    assert repr(ours) == repr(theirs)

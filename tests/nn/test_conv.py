"""Convolution 1-3d and its transpose, unfold/fold, and the Conv layers: first and second
derivatives over a table of every option (stride, padding incl. 'same' and 'valid',
dilation, groups, bias, output_padding, unbatched), values and gradients against PyTorch
where it is installed, PyTorch's init and errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

import minigrad as mg
from minigrad import gradcheck, gradgradcheck, nn
from minigrad.nn import functional as F

rng = np.random.default_rng(0)
SPACE = {1: (6,), 2: (5, 4), 3: (4, 3, 4)}
KERNEL = {1: (3,), 2: (2, 3), 3: (2, 2, 3)}
SPACE_T = {1: (4,), 2: (3, 3), 3: (2, 3, 2)}  # a transposed convolution's output is larger


def _t(*shape, seed=None):
    r = rng if seed is None else np.random.default_rng(seed)
    return mg.tensor(r.standard_normal(shape), requires_grad=True)


# (dims, options): every option in every dim count, small enough for gradgradcheck
CONV = [(d, opts) for d in (1, 2, 3) for opts in (
    {},
    {"stride": 2, "padding": 1},
    {"padding": "same", "dilation": 2},
    {"padding": "valid", "groups": 2},
    {"stride": (2, 1, 1)[:d] if d > 1 else 2, "padding": (1, 0, 1)[:d], "dilation": 1,
     "groups": 2, "bias": False},
    {"padding": "same"},  # even kernels put the extra padding on the high side
)]


def _conv_inputs(d, opts, transposed=False):
    groups = opts.get("groups", 1)
    c_in, c_out = 2, 4
    x = _t(1, c_in, *(SPACE_T if transposed else SPACE)[d])
    w = _t(c_in, c_out // groups, *KERNEL[d]) if transposed else \
        _t(c_out, c_in // groups, *KERNEL[d])
    b = _t(c_out) if opts.get("bias", True) else None
    kw = {k: v for k, v in opts.items() if k != "bias"}
    return x, w, b, kw


@pytest.mark.parametrize("d, opts", CONV, ids=lambda v: str(v))
def test_conv_first_and_second_derivatives(d, opts):
    x, w, b, kw = _conv_inputs(d, opts)
    conv = getattr(F, f"conv{d}d")
    inputs = [x, w] + ([b] if b is not None else [])
    fn = lambda x, w, b=None: conv(x, w, b, **kw)
    assert gradcheck(fn, inputs) and gradgradcheck(fn, inputs)


@pytest.mark.parametrize("per_sample", [True, False])
@pytest.mark.parametrize("d, opts", CONV, ids=lambda v: str(v))
def test_the_one_op_convolution_equals_its_small_op_form(d, opts, per_sample):
    """conv runs as one op (minigrad.ops.convolution) whose composite is the convolution in
    small ops (nn/conv.py's _conv_ops): both give the same values and first gradients, on
    both product layouts, with only some inputs needing a gradient too."""
    x, w, b, kw = _conv_inputs(d, opts)
    x = mg.tensor(np.concatenate([x.data, x.data[::-1] * 0.5]), requires_grad=True)  # batch 2
    stride = nn.windowing.ntuple(kw.get("stride", 1), d, "stride", "t")
    dilation = nn.windowing.ntuple(kw.get("dilation", 1), d, "dilation", "t")
    pads = tuple(nn.conv.conv_padding(kw.get("padding", 0), KERNEL[d], stride, dilation, "t"))
    groups = kw.get("groups", 1)
    fused = F.__dict__[f"conv{d}d"]
    for wanted in ((x, w, b), (w,), (x,)):
        results = []
        for form in ("one op", "small ops"):
            leaves = [None if t is None else mg.tensor(
                t.data, requires_grad=any(t is u for u in wanted)) for t in (x, w, b)]
            if form == "one op":
                nn.conv.ONE_PRODUCT_PER_SAMPLE_FROM, saved = (
                    1 if per_sample else 10**9), nn.conv.ONE_PRODUCT_PER_SAMPLE_FROM
                try:
                    y = fused(*leaves, **kw)
                finally:
                    nn.conv.ONE_PRODUCT_PER_SAMPLE_FROM = saved
            else:
                y = nn.conv._conv_ops(*leaves, pads, stride, dilation, groups, per_sample)
            r = np.random.default_rng(1).standard_normal(y.shape)
            (y * mg.tensor(r)).sum().backward()
            results.append([y.data] + [t.grad.data if t is not None and t.requires_grad
                                       else None for t in leaves])
        for got, want in zip(*results):
            if want is None:
                assert got is None
            else:
                np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_mixed_dtypes_take_the_small_ops_rule():
    """Operands of different dtypes do not take the one op: the small ops' product refuses
    them, naming both dtypes, as before the op existed."""
    x = mg.tensor(rng.standard_normal((2, 2, 5, 4)).astype(np.float32), requires_grad=True)
    w = mg.tensor(rng.standard_normal((3, 2, 2, 2)), requires_grad=True)
    with pytest.raises(TypeError, match="float32, float64|float64, float32"):
        F.conv2d(x, w, padding=1)


TRANSPOSED = [(d, opts) for d in (1, 2, 3) for opts in (
    {},
    {"stride": 2, "padding": 1, "output_padding": 1},
    {"dilation": 2, "groups": 2, "bias": False},
    # output_padding past the stride (allowed below the dilation): col2im's target reaches
    # beyond its last window
    {"stride": 2, "dilation": 3, "output_padding": 2},
    {"stride": (2, 3, 1)[:d], "padding": (0, 1, 1)[:d], "output_padding": (1, 2, 0)[:d],
     "dilation": 2},
)]


@pytest.mark.parametrize("d, opts", TRANSPOSED, ids=lambda v: str(v))
def test_conv_transpose_first_and_second_derivatives(d, opts):
    x, w, b, kw = _conv_inputs(d, opts, transposed=True)
    conv_t = getattr(F, f"conv_transpose{d}d")
    inputs = [x, w] + ([b] if b is not None else [])
    fn = lambda x, w, b=None: conv_t(x, w, b, **kw)
    assert gradcheck(fn, inputs) and gradgradcheck(fn, inputs)


@pytest.mark.parametrize("d, opts", [
    (1, {"stride": 2, "padding": 1}), (2, {"groups": 2, "dilation": (1, 2), "padding": (2, 1)}),
    (3, {"stride": (1, 2, 1), "padding": 1}), (2, {"padding": "same", "groups": 4})])
def test_the_product_per_sample_and_the_product_for_the_batch_agree(monkeypatch, d, opts):
    """Few output positions a sample run one product for the whole batch, many run one per
    sample (nn/conv.py): both routes give the same values and gradients."""
    rng = np.random.default_rng(d)
    x0 = rng.standard_normal((3, 4) + (6,) * d)
    w0 = rng.standard_normal((8, 4 // opts.get("groups", 1)) + (3,) * d)
    b0, r0 = rng.standard_normal(8), None
    results = []
    for threshold in (1, 10**9):  # every shape per sample; every shape as one product
        monkeypatch.setattr(mg.nn.conv, "ONE_PRODUCT_PER_SAMPLE_FROM", threshold)
        x, w, b = (mg.tensor(a.copy(), requires_grad=True) for a in (x0, w0, b0))
        y = F.__dict__[f"conv{d}d"](x, w, b, **opts)
        r0 = rng.standard_normal(y.shape) if r0 is None else r0
        (y * mg.tensor(r0)).sum().backward()
        results.append([y.data, x.grad.data, w.grad.data, b.grad.data])
    for per_sample, batched in zip(*results):
        np.testing.assert_allclose(per_sample, batched, rtol=1e-12, atol=1e-12)


def test_conv_transpose_is_the_input_gradient_of_conv():
    # <conv(x, w), y> = <x, conv_transpose(y, w)>: the adjoint in x, with the same options
    x, w = _t(2, 4, 7, 6), _t(6, 2, 3, 2)
    opts = {"stride": (2, 1), "padding": (1, 1), "dilation": (1, 2), "groups": 2}
    y = F.conv2d(x, w, **opts)
    g = mg.tensor(rng.standard_normal(y.shape))
    back = F.conv_transpose2d(g, w, output_padding=(0, 0), **opts)
    assert back.shape == x.shape
    np.testing.assert_allclose((y * g).sum().item(), (x * back).sum().item(), rtol=1e-12)


@pytest.mark.parametrize("d", [1, 2, 3])
def test_unbatched_input_is_one_sample(d):
    x, w, b = _t(3, *SPACE[d]), _t(2, 3, *KERNEL[d]), _t(2)
    conv = getattr(F, f"conv{d}d")
    np.testing.assert_allclose(conv(x, w, b, padding=1).numpy(),
                               conv(x[None], w, b, padding=1)[0].numpy())
    wt = _t(3, 2, *KERNEL[d])
    conv_t = getattr(F, f"conv_transpose{d}d")
    np.testing.assert_allclose(conv_t(x, wt, b, stride=2).numpy(),
                               conv_t(x[None], wt, b, stride=2)[0].numpy())


@pytest.mark.parametrize("call, error, match", [
    (lambda: F.conv2d(_t(1, 3, 5, 5), _t(4, 2, 3, 3)), RuntimeError,
     (r"Given groups=1, weight of size \[4, 2, 3, 3\], expected input\[1, 3, 5, 5\] to have 2 "
     "channels, but got 3 channels instead")),
    (lambda: F.conv2d(_t(1, 4, 5, 5), _t(3, 2, 3, 3), groups=2), RuntimeError,
     "expected weight to be divisible by 2 at dimension 0"),
    (lambda: F.conv1d(_t(1, 2, 5), _t(4, 2, 3), _t(3)), RuntimeError,
     "expected bias to be 1-dimensional with 4 elements"),
    (lambda: F.conv2d(_t(2, 1, 3, 5, 5), _t(4, 1, 3, 3)), RuntimeError,
     (r"Expected 3D \(unbatched\) or 4D \(batched\) input to conv2d, but got input of size: "
     r"\[2, 1, 3, 5, 5\]")),
    (lambda: F.conv2d(_t(1, 1, 2, 2), _t(1, 1, 3, 3)), RuntimeError,
     "Kernel size can't be greater than actual input size"),
    (lambda: F.conv1d(_t(1, 1, 5), _t(1, 1, 3), stride=2, padding="same"), RuntimeError,
     "padding='same' is not supported for strided convolutions"),
    (lambda: nn.Conv1d(1, 1, 3, stride=2, padding="same"), ValueError,
     "padding='same' is not supported for strided convolutions"),
    (lambda: F.conv1d(_t(1, 1, 5), _t(1, 1, 3), padding="full"), RuntimeError,
     "Invalid padding string: 'full'"),
    (lambda: nn.Conv1d(1, 1, 3, padding="full"), ValueError,
     "Invalid padding string 'full', should be one of {'same', 'valid'}"),
    (lambda: F.conv1d(_t(1, 1, 5), _t(1, 1, 3), stride=0), RuntimeError,
     "non-positive stride is not supported"),
    (lambda: F.conv1d(_t(1, 1, 5), _t(1, 1, 3), padding=-1), RuntimeError,
     "negative padding is not supported"),
    (lambda: F.conv_transpose1d(_t(1, 2, 5), _t(3, 1, 3)), RuntimeError,
     (r"Given transposed=1, weight of size \[3, 1, 3\], expected input\[1, 2, 5\] to have 3 "
     "channels")),
    (lambda: F.conv_transpose1d(_t(1, 2, 5), _t(2, 1, 3), stride=2, output_padding=2),
     RuntimeError, "output padding must be smaller than either stride or dilation"),
    (lambda: nn.Conv2d(3, 4, 3, groups=2), ValueError, "in_channels must be divisible by groups"),
    (lambda: nn.Conv2d(4, 3, 3, groups=2), ValueError, "out_channels must be divisible by groups"),
    (lambda: nn.Conv2d(4, 4, 3, padding_mode="mirror"), ValueError, "padding_mode must be one of"),
    (lambda: nn.ConvTranspose2d(4, 4, 3, padding_mode="reflect"), ValueError,
     'Only "zeros" padding mode is supported for ConvTranspose2d'),
    (lambda: nn.ConvTranspose1d(1, 1, 3, stride=2)(_t(1, 1, 4), output_size=[20]), ValueError,
     r"requested an output size of \[20\], but valid sizes range from \[9\] to \[10\]"),
])
def test_errors_name_what_is_wrong(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("cls, transposed", [(nn.Conv1d, False), (nn.Conv2d, False),
                                             (nn.Conv3d, False), (nn.ConvTranspose1d, True),
                                             (nn.ConvTranspose2d, True),
                                             (nn.ConvTranspose3d, True)])
def test_layers_have_pytorchs_parameters_and_init(cls, transposed):
    # kaiming_uniform(a=sqrt(5)) is U(-1/sqrt(fan_in), 1/sqrt(fan_in)), the bias too
    d = int(cls.__name__[-2])
    layer = cls(6, 4, 3, groups=2)
    shape = (6, 2) if transposed else (4, 3)
    assert layer.weight.shape == shape + (3,) * d and layer.bias.shape == (4,)
    assert [n for n, _ in layer.named_parameters()] == ["weight", "bias"]
    bound = 1 / math.sqrt(shape[1] * 3 ** d)
    w = np.abs(layer.weight.numpy())
    assert w.max() <= bound and w.max() > 0.8 * bound
    assert np.abs(layer.bias.numpy()).max() <= bound
    assert cls(6, 4, 3, bias=False).bias is None


def test_integer_operands_are_refused_and_an_empty_batch_works():
    with pytest.raises(TypeError, match="conv2d: needs floating-point input and weight"):
        F.conv2d(mg.tensor(np.ones((1, 1, 3, 3), np.int64)), mg.tensor(np.ones((1, 1, 2, 2))))
    assert F.conv2d(mg.zeros((0, 2, 4, 4)), mg.zeros((3, 2, 2, 2))).shape == (0, 3, 3, 3)
    assert F.conv_transpose1d(mg.zeros((0, 2, 4)), mg.zeros((2, 3, 2))).shape == (0, 3, 5)
    assert F.unfold(mg.zeros((0, 2, 4, 4)), 2).shape == (0, 8, 9)


def test_unfold_and_fold_derivatives():
    x = _t(1, 2, 4, 5)
    opts = {"kernel_size": (2, 3), "dilation": (1, 2), "padding": 1, "stride": (2, 1)}
    assert gradcheck(lambda x: F.unfold(x, **opts), [x])
    assert gradgradcheck(lambda x: F.unfold(x, **opts) ** 2, [x])
    cols = F.unfold(x, **opts)
    g = _t(*cols.shape)
    assert gradcheck(lambda g: F.fold(g, (4, 5), **opts), [g])
    assert gradgradcheck(lambda g: F.fold(g * g, (4, 5), **opts), [g])
    # fold is unfold's adjoint
    np.testing.assert_allclose((cols * g).sum().item(),
                               (x * F.fold(g, (4, 5), **opts)).sum().item(), rtol=1e-12)


def test_fold_errors():
    with pytest.raises(RuntimeError, match="divisible by the product of kernel_size"):
        F.fold(_t(1, 5, 9), (4, 4), 2)
    with pytest.raises(RuntimeError, match="calculated number of sliding blocks 3 \\* 3 = 9"):
        F.fold(_t(1, 4, 8), (4, 4), 2)
    with pytest.raises(RuntimeError, match="Only 3D or 4D input"):
        F.unfold(_t(1, 1, 1, 4, 4), 2)


# ---------------------------------------------------------------- against PyTorch


def _torch():
    return pytest.importorskip("torch")


def _compare(ours, theirs, inputs, torch_inputs):
    np.testing.assert_allclose(ours.numpy(), theirs.detach().numpy(), rtol=1e-10, atol=1e-12)
    g = rng.standard_normal(ours.shape)
    (ours * mg.tensor(g)).sum().backward()
    (theirs * __import__("torch").tensor(g)).sum().backward()
    for a, b in zip(inputs, torch_inputs):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-10, atol=1e-12)


def _pair(*arrays):
    torch = _torch()
    ours = [mg.tensor(a, requires_grad=True) for a in arrays]
    theirs = [torch.tensor(a, requires_grad=True) for a in arrays]
    return ours, theirs


TORCH_CONV = [(d, batch, opts) for d in (1, 2, 3) for batch in (True, False) for opts in (
    {"stride": 2, "padding": 1, "dilation": 2, "groups": 2},
    {"padding": "same", "dilation": (2, 1, 3)[:d]},
    {"padding": "valid", "stride": (1, 2, 2)[:d]},
)]


@pytest.mark.parametrize("d, batch, opts", TORCH_CONV, ids=lambda v: str(v))
def test_conv_matches_pytorch(d, batch, opts):
    torch = _torch()
    groups = opts.get("groups", 1)
    x = rng.standard_normal(((2,) if batch else ()) + (4,) + (7,) * d)
    w, b = rng.standard_normal((6, 4 // groups, *(3,) * d)), rng.standard_normal(6)
    (xo, wo, bo), (xt, wt, bt) = _pair(x, w, b)
    _compare(getattr(F, f"conv{d}d")(xo, wo, bo, **opts),
             getattr(torch.nn.functional, f"conv{d}d")(xt, wt, bt, **opts),
             [xo, wo, bo], [xt, wt, bt])


TORCH_CONV_T = [(d, batch, opts) for d in (1, 2, 3) for batch in (True, False) for opts in (
    {"stride": 2, "padding": 1, "output_padding": 1, "groups": 2},
    {"stride": (3, 1, 2)[:d], "dilation": 2, "output_padding": (2, 0, 1)[:d]},
)]


@pytest.mark.parametrize("d, batch, opts", TORCH_CONV_T, ids=lambda v: str(v))
def test_conv_transpose_matches_pytorch(d, batch, opts):
    torch = _torch()
    groups = opts.get("groups", 1)
    x = rng.standard_normal(((2,) if batch else ()) + (4,) + (5,) * d)
    w, b = rng.standard_normal((4, 6 // groups, *(3,) * d)), rng.standard_normal(6)
    (xo, wo, bo), (xt, wt, bt) = _pair(x, w, b)
    _compare(getattr(F, f"conv_transpose{d}d")(xo, wo, bo, **opts),
             getattr(torch.nn.functional, f"conv_transpose{d}d")(xt, wt, bt, **opts),
             [xo, wo, bo], [xt, wt, bt])


@pytest.mark.parametrize("mode", ["zeros", "reflect", "replicate", "circular"])
@pytest.mark.parametrize("padding", [1, (1, 2), "same"])
def test_conv_layer_padding_modes_match_pytorch(mode, padding):
    torch = _torch()
    theirs = torch.nn.Conv2d(4, 6, (3, 4), padding=padding, padding_mode=mode, groups=2,
                             dtype=torch.float64)
    ours = nn.Conv2d(4, 6, (3, 4), padding=padding, padding_mode=mode, groups=2,
                     dtype=np.float64)
    ours.load_state_dict({k: v.detach().numpy() for k, v in theirs.state_dict().items()})
    x = rng.standard_normal((2, 4, 6, 7))
    (xo,), (xt,) = _pair(x)
    _compare(ours(xo), theirs(xt), [xo, ours.weight, ours.bias],
             [xt, theirs.weight, theirs.bias])


def test_conv_transpose_layer_output_size_matches_pytorch():
    torch = _torch()
    theirs = torch.nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, dtype=torch.float64)
    ours = nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, dtype=np.float64)
    ours.load_state_dict({k: v.detach().numpy() for k, v in theirs.state_dict().items()})
    x = rng.standard_normal((1, 3, 4, 5))
    (xo,), (xt,) = _pair(x)
    _compare(ours(xo, output_size=[8, 10]), theirs(xt, output_size=[8, 10]),
             [xo, ours.weight], [xt, theirs.weight])


@pytest.mark.parametrize("batch", [True, False])
def test_unfold_fold_match_pytorch(batch):
    torch = _torch()
    x = rng.standard_normal(((2,) if batch else ()) + (3, 6, 5))
    opts = {"kernel_size": (2, 3), "dilation": (2, 1), "padding": (1, 0), "stride": (1, 2)}
    (xo,), (xt,) = _pair(x)
    _compare(F.unfold(xo, **opts), torch.nn.functional.unfold(xt, **opts), [xo], [xt])
    cols = rng.standard_normal(F.unfold(xo, **opts).shape)
    (co,), (ct,) = _pair(cols)
    _compare(F.fold(co, (6, 5), **opts), torch.nn.functional.fold(ct, (6, 5), **opts), [co], [ct])
    assert nn.Unfold(**opts)(xo).shape == tuple(torch.nn.Unfold(**opts)(xt).shape)
    assert nn.Fold((6, 5), **opts)(co).shape == tuple(torch.nn.Fold((6, 5), **opts)(ct).shape)


ERRORS = [  # (ours, PyTorch's) the same mistake
    (lambda F, t: F.conv2d(t(1, 3, 5, 5), t(4, 2, 3, 3))),
    (lambda F, t: F.conv1d(t(1, 1, 5), t(1, 1, 3), padding="full")),
    (lambda F, t: F.conv1d(t(1, 1, 5), t(1, 1, 3), padding="same", stride=2)),
    (lambda F, t: F.conv1d(t(1, 1, 5), t(1, 1, 3), stride=0)),
    (lambda F, t: F.conv1d(t(1, 1, 5), t(1, 1, 3), padding=-1)),
    (lambda F, t: F.conv1d(t(1, 2, 5), t(4, 1, 3), groups=2, bias=t(3))),
    (lambda F, t: F.conv2d(t(2, 1, 3, 5, 5), t(4, 1, 3, 3))),
]


@pytest.mark.parametrize("call", ERRORS)
def test_conv_errors_are_pytorchs(call):
    torch = _torch()
    with pytest.raises(Exception) as want:
        call(torch.nn.functional, lambda *s: torch.zeros(s, dtype=torch.float64))
    with pytest.raises(type(want.value)) as got:
        call(F, lambda *s: mg.zeros(s, dtype=np.float64))
    assert str(got.value) == str(want.value)

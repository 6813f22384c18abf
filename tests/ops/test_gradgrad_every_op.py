"""Every Function of minigrad/ops, first and second derivatives, at chosen points.

One table, ``CASES``, keyed by Function class name: each entry lists small float64
cases that put the op in the graph (broadcasting, keepdims both ways, non-contiguous
inputs, ties for max/min, values exactly at clamp bounds and at zero). For each case:

- ``smooth`` cases: ``gradcheck`` (the one backward on arrays) and ``gradgradcheck``
  (the same backward recorded under ``create_graph``, or the op's composite), and the
  first derivatives of both modes agree;
- ``kink`` cases (a point where the function has a corner, so finite differences mean
  nothing there): the first derivatives of both modes agree and equal minigrad's stated
  convention (PyTorch's), given by the case.

``test_every_function_has_cases`` walks the Function subclasses, so a new op without an
entry fails; every case also checks that its op is really in the graph it builds.
Shapes are tiny on purpose: gradgradcheck evaluates the function twice per element of
every input and grad_output.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
import pytest
from strategies import with_layout

import minigrad as mg
from minigrad import autograd, gradcheck, gradgradcheck
from minigrad.engine import topological_order
from minigrad.function import Function
from minigrad.nn import conv as conv_module
from minigrad.nn import functional as F
from minigrad.nn.rnn import fused_recurrence
from minigrad.ops import (  # noqa: F401 (every op module, so that every Function is defined)
    attention,
    batchnorm,
    binary_cross_entropy,
    binary_math,
    convolution,
    cross_entropy,
    diagonal,
    dropout,
    einsum,
    elementwise,
    elu,
    embedding,
    index_put,
    indexing,
    layernorm,
    linear,
    masking,
    matmul,
    nuclear_norm,
    piecewise,
    pooling,
    reductions,
    scans,
    scatter,
    self_gated,
    shapes,
    softmax,
    unary_math,
    window_select,
    windows,
)


def arr(*shape, lo=-1.5, hi=1.5, seed=0):
    return np.random.default_rng(seed).uniform(lo, hi, shape)


def leaf(x, layout="contiguous"):
    """A float64 Tensor that requires grad, its values stored in ``layout``."""
    return mg.Tensor(with_layout(np.asarray(x, dtype=np.float64), layout), requires_grad=True)


def L(*shape, lo=-1.5, hi=1.5, seed=0):
    return leaf(arr(*shape, lo=lo, hi=hi, seed=seed))


def T(*shape, lo=-1.5, hi=1.5, seed=0):
    """Like L, stored transposed (a non-contiguous view)."""
    return leaf(arr(*shape, lo=lo, hi=hi, seed=seed), "transposed")


class Case(NamedTuple):
    name: str
    fn: object          # the function of the inputs
    inputs: object      # () -> list of Tensors (fresh for every use)
    expect: object = None  # kink cases: () -> list of the expected first derivatives (sum of outputs)


def smooth(name, fn, inputs):
    return Case(name, fn, inputs)


def kink(name, fn, inputs, expect):
    return Case(name, fn, inputs, expect)


# ConvFunction's options for a product per sample (what nn's conv picks for large maps)
_CONV_GEOMETRY = {"pads": ((1, 0),), "stride": (1,), "dilation": (2,), "groups": 1,
                  "per_sample": True}
CONV_PER_SAMPLE = {**_CONV_GEOMETRY, "form": functools.partial(conv_module._conv_ops,
                                                               **_CONV_GEOMETRY)}


def sq(f):
    """f's output squared: the gradient reaching the op then depends on the inputs, so its
    recorded backward is differentiated in every direction."""
    return lambda *xs: f(*xs) ** 2


ROWS = np.array([0, 2, 2, -1])      # repeated and negative indices
SELECT_ARG = np.array([[[1, 0, 0, 1], [0, 1, 1, 0]]])  # input 1 is read by two windows
IDS = np.array([[1, 0], [1, 3]])    # embedding ids, one repeated
SPD = np.einsum("bij,bkj->bik", arr(2, 3, 3, seed=3), arr(2, 3, 3, seed=3)) + np.eye(3)
MASK = np.array([[True, False, True], [False, False, True]])
DROP = np.array([[2.0, 0.0, 2.0], [0.0, 2.0, 2.0]])
TARGETS = np.array([0, 2, -100, 1])


def _reduce_cases(method, gen=L, **kw):
    """Axis None / int / tuple, keepdims both ways, a non-contiguous input."""
    out = []
    for axis in (None, 1, (0, 2)):
        for keep in (False, True):
            out.append(smooth(f"axis={axis},keepdims={keep}",
                              sq(lambda a, axis=axis, keep=keep: getattr(a, method)(
                                  axis, keepdim=keep, **kw)),
                              lambda: [T(2, 3, 2, seed=3) if gen is T else gen(2, 3, 2, seed=3)]))
    return out


def _ties(method):
    """max/min over two equal copies of a: every element ties, and stays tied when a moves,
    so finite differences are meaningful; each copy gets half the gradient."""
    return [smooth(f"ties,keepdims={keep}",
                   sq(lambda a, keep=keep: getattr(mg.cat([a, a * 1.0], 0), method)(0, keep)),
                   lambda: [L(1, 3)])
            for keep in (False, True)] + [
        kink("tie_with_a_constant",
             lambda a: getattr(mg.stack([a, mg.tensor(np.array([0.5, -0.25]))]), method)(0),
             lambda: [leaf([0.5, -0.25])], lambda: [np.array([0.5, 0.5])]),
    ]


def _log_softmax_grad():
    """d sum(log_softmax(x))/dx = 1 - 3 softmax(x) for x = (0.5, -inf, 1): 1 at -inf."""
    p = np.exp([0.5, 1.0]) / np.exp([0.5, 1.0]).sum()
    return np.array([[1 - 3 * p[0], 1.0, 1 - 3 * p[1]]])


def _index_put_fn(a, v):
    t = a * a
    t[1] = v * v  # the in-place write is an IndexPut in the graph
    return t * a


def _sdpa(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)


CASES: dict[str, list[Case]] = {
    "Add": [smooth("broadcast", sq(lambda a, b: a + b), lambda: [T(2, 3), L(3, seed=1)])],
    "Sub": [smooth("broadcast", sq(lambda a, b: a - b), lambda: [L(2, 1), T(2, 3, seed=1)])],
    "Mul": [smooth("broadcast", lambda a, b: a * b * a, lambda: [T(2, 3), L(1, 3, seed=1)])],
    "Div": [smooth("broadcast", lambda a, b: a / b,
                   lambda: [T(2, 3), L(3, lo=0.5, hi=2, seed=1)])],
    "Pow": [smooth("tensor exponent", lambda a, b: a**b,
                   lambda: [L(2, 3, lo=0.5, hi=2), T(2, 3, seed=1)]),
            smooth("b exactly 0", lambda a, b: a**b * a,
                   lambda: [L(3, lo=0.5, hi=2), leaf([0.0, 0.0, 1.5])]),
            kink("a=0,b=0 and a=0,b>0", lambda a, b: a**b,
                 lambda: [leaf([0.0, 0.0, 2.0]), leaf([0.0, 2.0, 0.0])],
                 lambda: [np.array([0.0, 0.0, 0.0]), np.array([0.0, 0.0, np.log(2.0)])])],
    "PowScalar": [smooth(f"p={p}", lambda a, p=p: a**p, lambda: [T(2, 3, lo=0.5, hi=2)])
                  for p in (3, 0.5, -2, 0)],
    "Neg": [smooth("neg", sq(lambda a: -a), lambda: [T(2, 3)])],
    "Exp": [smooth("exp", lambda a: a.exp(), lambda: [T(2, 3)])],
    "Log": [smooth("log", lambda a: a.log(), lambda: [T(2, 3, lo=0.3, hi=2)])],
    "Sqrt": [smooth("sqrt", lambda a: a.sqrt(), lambda: [T(2, 3, lo=0.3, hi=2)])],
    "Tanh": [smooth("tanh", lambda a: a.tanh(), lambda: [T(2, 3)])],
    "Sigmoid": [smooth("sigmoid", lambda a: a.sigmoid(), lambda: [T(2, 3)])],
    "ReLU": [smooth("away from 0", sq(lambda a: a.relu()), lambda: [leaf([[-1.0, 0.5, 2.0]])]),
             kink("at 0", lambda a: a.relu(), lambda: [leaf([0.0, 1.0])],
                  lambda: [np.array([0.0, 1.0])])],
    "GELU": [smooth(f"approximate={m}", lambda a, m=m: F.gelu(a, approximate=m),
                    lambda: [T(2, 3)]) for m in ("none", "tanh")],
    "Abs": [smooth("away from 0", sq(lambda a: a.abs()), lambda: [leaf([[-1.0, 0.5, 2.0]])]),
            kink("at 0", lambda a: a.abs(), lambda: [leaf([0.0, -1.0])],
                 lambda: [np.array([0.0, -1.0])])],
    "Clamp": [smooth("inside and outside", sq(lambda a: a.clamp(-0.5, 0.75)),
                     lambda: [leaf([[-1.0, 0.25, 2.0], [0.7, -0.4, -0.6]])]),
              kink("at the bounds", lambda a: a.clamp(-0.5, 0.75),
                   lambda: [leaf([-0.5, 0.75, -0.6, 0.8, 0.0])],
                   lambda: [np.array([1.0, 1.0, 0.0, 0.0, 1.0])]),
              kink("one bound", lambda a: a.clamp(min=-0.5),
                   lambda: [leaf([-0.5, -0.6, 3.0])], lambda: [np.array([1.0, 0.0, 1.0])])],
    "Maximum": [smooth("broadcast", lambda a, b: a.maximum(b) * a,
                       lambda: [T(2, 3), L(3, seed=1)]),
                kink("ties split in half", lambda a, b: a.maximum(b),
                     lambda: [leaf([1.0, 2.0, 0.0]), leaf([1.0, 1.0, 3.0])],
                     lambda: [np.array([0.5, 1.0, 0.0]), np.array([0.5, 0.0, 1.0])])],
    "Minimum": [smooth("broadcast", lambda a, b: a.minimum(b) * b,
                       lambda: [L(2, 1), T(2, 3, seed=1)]),
                kink("ties split in half", lambda a, b: a.minimum(b),
                     lambda: [leaf([1.0, 2.0]), leaf([1.0, 1.0])],
                     lambda: [np.array([0.5, 0.0]), np.array([0.5, 1.0])])],
    "Sin": [smooth("sin", lambda a: a.sin(), lambda: [T(2, 3)])],
    "Cos": [smooth("cos", lambda a: a.cos(), lambda: [T(2, 3)])],
    "Erf": [smooth("erf", lambda a: a.erf(), lambda: [T(2, 3)])],
    "Remainder": [smooth("away from the jumps", lambda a, b: (a * a) % b * a,
                         lambda: [L(2, 3, lo=1.5, hi=1.6), L(3, lo=0.95, hi=1.05, seed=1)]),
                  smooth("fmod, negative dividends", lambda a, b: (-a * a).fmod(b) * a,
                         lambda: [L(2, 3, lo=1.5, hi=1.6), L(3, lo=0.95, hi=1.05, seed=1)])],
    "StepFunction": [smooth(name, lambda a, name=name: getattr(a, name)() * a * a,
                            lambda: [leaf([[-1.3, 0.2, 2.7]])])
                     for name in ("sign", "floor", "ceil", "round", "trunc")],
    "RoundedDiv": [smooth(f"{mode} away from the jumps",
                          lambda a, b, mode=mode: a.div(b, rounding_mode=mode) * a * b,
                          lambda: [L(2, 3, lo=1.2, hi=1.4), L(3, lo=0.4, hi=0.45, seed=1)])
                   for mode in ("floor", "trunc")],
    # the smooth unary functions of ops/unary_math.py's table, each on its domain
    **{name.capitalize(): [smooth(name, lambda a, name=name: unary_math.FUNCTIONS[name].apply(a),
                                  lambda lo=lo, hi=hi: [T(2, 3, lo=lo, hi=hi)])]
       for name, lo, hi in (
           ("asin", -0.9, 0.9), ("acos", -0.9, 0.9), ("atan", -2, 2),
           ("sinh", -2, 2), ("cosh", -2, 2), ("tan", -1.2, 1.2),
           ("asinh", -2, 2), ("acosh", 1.1, 3), ("atanh", -0.9, 0.9),
           ("log1p", -0.9, 2), ("expm1", -2, 2), ("log2", 0.2, 3),
           ("log10", 0.2, 3), ("exp2", -2, 2), ("rsqrt", 0.2, 3),
           ("reciprocal", 0.3, 3))},
    "Logsigmoid": [smooth("logsigmoid", lambda a: F.logsigmoid(a), lambda: [T(2, 3, lo=-3, hi=3)]),
                   smooth("logsigmoid far out", lambda a: F.logsigmoid(a),
                          lambda: [leaf([-40.0, 40.0])])],
    "SelfGated": [smooth(name, lambda a, name=name: self_gated.SelfGated.apply(a, name=name) * a,
                         lambda: [T(2, 3, lo=-2.5, hi=2.5)]) for name in self_gated.GATES] + [
        smooth("hardswish outside its middle", lambda a: F.hardswish(a) * a,
               lambda: [leaf([-5.0, -3.5, 3.5, 5.0])])],
    "ELU": [smooth(f"alpha={al},scale={sc},input_scale={s}", lambda a, al=al, sc=sc, s=s:
                   elu.ELU.apply(a, alpha=al, scale=sc, input_scale=s) * a,
                   lambda: [T(2, 3)]) for al, sc, s in ((1.0, 1.0, 1.0), (1.5, 1.05, 0.5))] + [
        kink("at 0: the negative slope, and no curvature (PyTorch's)",
             lambda a: mg.autograd.grad(F.celu(a, 2.0).sum(), [a], create_graph=True)[0]
             * (a + 1) + F.celu(a, 2.0),  # d/da: celu''(a) (a + 1) + 2 celu'(a)
             lambda: [leaf([0.0, -1.0])], lambda: [np.array([2.0, 2 * np.exp(-0.5)])])],
    "Atan2": [smooth("broadcast", lambda a, b: mg.atan2(a, b) * a,
                     lambda: [T(2, 3), L(3, lo=0.5, hi=2, seed=1)]),
              kink("at the origin: 0, as PyTorch", lambda a, b: mg.atan2(a, b),
                   lambda: [leaf([0.0, 1.0]), leaf([0.0, 0.0])],
                   lambda: [np.array([0.0, 0.0]), np.array([0.0, -1.0])])],
    "CopySign": [smooth("broadcast, away from 0", lambda a, b: mg.copysign(a, b) * a,
                        lambda: [leaf([[-1.0, 0.5, 2.0], [0.7, -0.4, -0.6]]), L(3, seed=1)]),
                 kink("a = 0 and b = -0.0", lambda a, b: mg.copysign(a, b),
                      lambda: [leaf([0.0, 2.0, -2.0]), leaf([1.0, -0.0, -0.0])],
                      lambda: [np.array([0.0, -1.0, 1.0]), np.zeros(3)])],
    "Sum": _reduce_cases("sum", T),
    "Mean": _reduce_cases("mean"),
    "Max": [smooth("distinct", sq(lambda a: a.amax(1)), lambda: [T(2, 3)]), *_ties("amax")],
    "Min": [smooth("distinct,keepdims", sq(lambda a: a.amin((0, 1), True)), lambda: [T(2, 3)]),
            *_ties("amin")],
    "Var": [smooth(f"correction={c},keepdims={k}",
                   lambda a, c=c, k=k: a.var(1, keepdim=k, correction=c), lambda: [T(2, 3)])
            for c in (0, 1) for k in (False, True)] + _reduce_cases("var"),
    "Prod": [*_reduce_cases("prod"),
             smooth("with a zero", lambda a: a.prod(1) * a.sum(),
                    lambda: [leaf([[0.0, 1.5, -2.0], [0.5, 0.0, 0.0]])])],
    "LogSumExp": _reduce_cases("logsumexp"),
    "CumSum": [smooth(f"axis={ax}", sq(lambda a, ax=ax: a.cumsum(ax)), lambda: [T(2, 3)])
               for ax in (0, -1)],
    "Norm2": [smooth(f"axis={ax}", lambda a, ax=ax: a.norm(dim=ax), lambda: [T(2, 3)])
              for ax in (None, 1)] + [
        kink("zero norm", lambda a: a.norm(dim=1), lambda: [leaf([[0.0, 0.0], [3.0, 4.0]])],
             lambda: [np.array([[0.0, 0.0], [0.6, 0.8]])])],
    "Reshape": [smooth("reshape", sq(lambda a: a.reshape(3, 2)), lambda: [T(2, 3)])],
    "Transpose": [smooth("dims", sq(lambda a: a.transpose(0, 2)), lambda: [T(2, 1, 3)]),
                  smooth("1-d", sq(lambda a: shapes.Transpose.apply(a)), lambda: [L(3)])],
    "Permute": [smooth("permute", sq(lambda a: a.permute(2, 0, 1)), lambda: [T(2, 1, 3)])],
    "Cast": [smooth("to float64", sq(lambda a: shapes.Cast.apply(a * a, dtype=np.float64)),
                    lambda: [T(2, 3)])],
    "GetItem": [smooth("basic", sq(lambda a: a[1:, ::-1]), lambda: [T(3, 3)]),
                smooth("repeated rows", sq(lambda a: a[ROWS]), lambda: [T(3, 2)]),
                smooth("bool mask", sq(lambda a: a[MASK]), lambda: [T(2, 3)]),
                smooth("one element", sq(lambda a: a[1, 2]), lambda: [T(2, 3)])],
    "IndexAdd": [smooth("repeated rows", sq(lambda g: shapes.IndexAdd.apply(
        g, shape=(3, 2), index=ROWS)), lambda: [T(4, 2)])],
    "Cat": [smooth(f"axis={ax}", lambda a, b, ax=ax: mg.cat([a * a, b], axis=ax) * mg.cat(
        [a, b * b], axis=ax), lambda: [T(2, 3), L(2, 3, seed=1)]) for ax in (0, -1)],
    "Stack": [smooth(f"axis={ax}", lambda a, b, ax=ax: mg.stack([a * a, b], axis=ax) * mg.stack(
        [a, b * b], axis=ax), lambda: [T(2, 3), L(2, 3, seed=1)]) for ax in (0, 2)],
    "Gather": [smooth("dim 1", sq(lambda a: a.gather(1, np.array([[0, 0, 2], [1, 2, 1]]))),
                      lambda: [T(2, 3)])],
    "ScatterAdd": [smooth("dim 1", lambda a, s: (a * a).scatter_add(
        1, np.array([[0, 0], [2, 1]]), s * a[:, :2]), lambda: [T(2, 3), L(2, 2, seed=1)])],
    "Expand": [smooth("expand", sq(lambda a: a.expand(2, 3, 3)), lambda: [T(3, 1)])],
    "Repeat": [smooth("repeat", sq(lambda a: a.repeat(2, 1, 2)), lambda: [T(2, 3)])],
    "Flip": [smooth("flip", sq(lambda a: a.flip(0, 1)), lambda: [T(2, 3)])],
    "IndexPut": [smooth("x[1] = v", _index_put_fn, lambda: [T(3, 2), L(2, seed=1)])],
    # the window view (im2col) and col2im, each the other's backward; max unpooling
    "Windows": [smooth("2-d, stride and dilation", sq(lambda a: windows.Windows.apply(
        a, kernel=(2, 2), stride=(2, 1), dilation=(1, 2))), lambda: [T(1, 5, 4)])],
    "WindowSum": [smooth("overlapping windows", sq(lambda g: windows.WindowSum.apply(
        g, shape=(1, 4, 4), stride=(1, 1), dilation=(1, 1))), lambda: [T(1, 3, 3, 2, 2)])],
    "MaxUnpool": [smooth("scattered", sq(lambda a: pooling.MaxUnpool.apply(
        a, indices=np.array([[[3, 0, 5]]]), size=6)), lambda: [T(1, 1, 3)])],
    "MaskedFill": [smooth("mask", sq(lambda a: a.masked_fill(MASK, 2.0)), lambda: [T(2, 3)])],
    "Where": [smooth("broadcast", lambda a, b: mg.where(MASK, a * b, b * b),
                     lambda: [T(2, 3), L(3, seed=1)])],
    "MatMul": [smooth("batch broadcast", lambda a, b: a @ b * (a @ b),
                      lambda: [T(2, 1, 2, 3), L(3, 3, 2, seed=1)]),
               smooth("rows @ 2-d", lambda a, b: (a @ b) * (a @ b),
                      lambda: [T(2, 2, 3), T(3, 2, seed=1)]),
               smooth("vectors", lambda a, b: (a @ b) ** 2, lambda: [L(3), L(3, seed=1)])],
    "Einsum": [smooth(eq, lambda a, b, eq=eq: mg.einsum(eq, a * a, b) * mg.einsum(eq, a, b),
                      lambda shapes=shapes: [T(*shapes[0]), L(*shapes[1], seed=1)])
               for eq, shapes in (("ij,jk->ik", ((2, 3), (3, 2))), ("ij,j->i", ((2, 3), (3,))),
                                  ("bij,bjk->bik", ((2, 2, 3), (2, 3, 2))),
                                  ("...i,i->...", ((2, 3), (3,))))] + [
        smooth("ij->j", sq(lambda a: mg.einsum("ij->j", a)), lambda: [T(2, 3)])],
    "Softmax": [smooth(f"axis={ax}", lambda a, ax=ax: mg.softmax(a, ax) * a, lambda: [T(2, 3)])
                for ax in (0, -1)] + [
        kink("-inf entries and a row of -inf", lambda a: mg.softmax(a, -1) * 1.0,
             lambda: [leaf([[0.5, -np.inf, 1.0], [-np.inf, -np.inf, -np.inf]])],
             lambda: [np.zeros((2, 3))])],
    "LogSoftmax": [smooth(f"axis={ax}", lambda a, ax=ax: mg.log_softmax(a, ax) * a,
                          lambda: [T(2, 3)]) for ax in (0, -1)] + [
        kink("-inf entries", lambda a: mg.log_softmax(a, -1) * 1.0,
             lambda: [leaf([[0.5, -np.inf, 1.0]])], lambda: [_log_softmax_grad()])],
    "LinearFunction": [smooth("bias", lambda x, w, b: F.linear(x * x, w, b) * F.linear(x, w),
                              lambda: [T(2, 2, 3), L(2, 3, seed=1), L(2, seed=2)])],
    "GELULinearFunction": [smooth(f"approximate={m}", lambda x, w, b, m=m: F.gelu_linear(
        x, w, b, m) * F.gelu_linear(x * x, w, None, m), lambda: [T(2, 2, 3), L(2, 3, seed=1),
                                                             L(2, seed=2)])
                           for m in ("none", "tanh")],
    "BatchNormFunction": [smooth("channels of maps, running statistics moved", sq(
        lambda x, w, b: F.batch_norm(x, mg.zeros(2, dtype=np.float64),
                                     mg.ones(2, dtype=np.float64), w, b, training=True)),
        lambda: [T(3, 2, 2), L(2, seed=1), L(2, seed=2)])],
    "ConvFunction": [
        smooth("2-d, padding, stride, groups, bias", sq(lambda x, w, b: F.conv2d(
            x, w, b, stride=(2, 1), padding=1, groups=2)),
               lambda: [T(1, 2, 3, 3), L(2, 1, 2, 2, seed=1), L(2, seed=2)]),
        smooth("1-d, one product per sample, dilation", sq(
            lambda x, w: convolution.ConvFunction.apply(x, w, **CONV_PER_SAMPLE)),
               lambda: [T(2, 1, 4), L(2, 1, 2, seed=1)])],
    "LayerNormFunction": [smooth("rows", lambda x, w, b: F.layer_norm(x, (3,), w, b),
                                 lambda: [T(2, 3), L(3, seed=1), L(3, seed=2)])],
    "CrossEntropyFunction": [smooth(f"reduction={r}", lambda x, r=r: F.cross_entropy(
        x * x, TARGETS, reduction=r), lambda: [T(4, 3)]) for r in ("mean", "sum", "none")],
    "LinearCrossEntropyFunction": [smooth(f"reduction={r}", lambda x, w, b, r=r:
                                          F.linear_cross_entropy(x * x, w, TARGETS, linear_bias=b,
                                                                 reduction=r),
                                          lambda: [T(4, 3), L(5, 3, seed=1), L(5, seed=2)])
                                   for r in ("mean", "sum")],
    "BinaryCrossEntropy": [smooth("p, t", lambda p, t: F.binary_cross_entropy(p, t),
                                  lambda: [L(2, 3, lo=0.2, hi=0.8), L(2, 3, lo=0, hi=1, seed=1)])],
    "EmbeddingFunction": [smooth("repeated ids", sq(lambda w: F.embedding(mg.tensor(IDS), w)),
                                 lambda: [T(4, 2)])],
    "DropoutFunction": [smooth("mask", sq(lambda x: dropout.DropoutFunction.apply(
        x, scaled_mask=DROP)), lambda: [T(2, 3)])],
    "AttentionFunction": [smooth("causal", _sdpa,
                                 lambda: [T(1, 2, 2), L(1, 3, 2, seed=1), L(1, 3, 2, seed=2)])],
    # shapes, scans and scatters (tests/ops/test_shape_more.py has the fuller cases)
    "CumProd": [smooth(f"axis={ax}", sq(lambda a, ax=ax: a.cumprod(ax)), lambda: [T(2, 3)])
                for ax in (0, -1)] + [
        smooth("with zeros", lambda a: a.cumprod(1) * a.sum(),
               lambda: [leaf([[0.0, 1.5, -2.0], [0.5, 0.0, 0.0]])])],
    "LogCumSumExp": [smooth(f"axis={ax}", sq(lambda a, ax=ax: a.logcumsumexp(ax)),
                            lambda: [T(2, 3)]) for ax in (0, -1)],
    "Scatter": [smooth("dim 1", lambda a, s: (a * a).scatter(1, np.array([[0, 2], [1, 0]]),
                                                             s * a[:, :2]),
                       lambda: [T(2, 3), L(2, 2, seed=1)])],
    "ScatterReduce": [smooth(f"{r}, repeated indices", lambda a, s, r=r: (a * a).scatter_reduce(
        1, np.array([[0, 0, 2], [1, 2, 1]]), s * a, r) * a, lambda: [T(2, 3), L(2, 3, seed=1)])
        for r in ("sum", "prod", "mean", "amax", "amin")],
    "Diagonal": [smooth("offset 1, dims (2, 0)", sq(lambda a: a.diagonal(1, 2, 0)),
                        lambda: [T(2, 3, 4)])],
    # norm(p="nuc") (tests/ops/test_nuclear_norm.py has the fuller cases)
    "NuclearNorm": [smooth("square", sq(lambda a: a.norm("nuc")), lambda: [T(3, 3)]),
                    smooth("tall", sq(lambda a: a.norm("nuc")), lambda: [L(4, 2)]),
                    smooth("wide, dims (2, 0), keepdim", sq(lambda a: a.norm("nuc", (2, 0), True)),
                           lambda: [T(2, 3, 4)])],
    "PolarFactor": [smooth(name, sq(lambda a: nuclear_norm.PolarFactor.apply(a)),
                           lambda shape=shape: [T(*shape)])
                    for name, shape in (("square", (3, 3)), ("tall", (4, 2)),
                                        ("wide, batched", (2, 2, 3)))],
    "SymSylvester": [smooth("batched", lambda p, y: nuclear_norm.SymSylvester.apply(p, y) ** 2,
                            lambda: [leaf(SPD), L(2, 3, 3, seed=1)])],
    "CTCNegLogLikelihood": [smooth(f"reduction={r}, a repeated label", lambda x, r=r: F.ctc_loss(
        x, np.array([[1, 1], [2, 0]]), (4, 3), (2, 1), reduction=r), lambda: [T(4, 2, 3)])
        for r in ("mean", "none")],
    # max pooling's gather at each window's offset and its scatter-add, each the other's backward
    "WindowSelect": [smooth("overlapping windows, repeated offsets", sq(
        lambda a: window_select.WindowSelect.apply(a, arg=SELECT_ARG, kernel=(2,), stride=(1,),
                                                   dilation=(1,))), lambda: [T(1, 2, 5)])],
    "WindowSelectBackward": [smooth("overlapping windows, repeated offsets", sq(
        lambda g: window_select.WindowSelectBackward.apply(
            g, arg=SELECT_ARG, shape=(1, 2, 5), kernel=(2,), stride=(1,), dilation=(1,))),
        lambda: [T(1, 2, 4)])],
    # the recurrence's time loop as one op; its composite is the cells' unrolled loop
    "Recurrence": [
        smooth("GRU", lambda gi, h0, w, b: fused_recurrence("GRU", gi, (h0,), w, b)[0] ** 2,
               lambda: [T(3, 2, 6), L(2, 2, seed=1), L(6, 2, seed=2), L(6, seed=3)]),
        smooth("LSTM", lambda gi, h0, c0, w, b: fused_recurrence(
            "LSTM", gi, (h0, c0), w, b)[0] ** 2,
               lambda: [T(3, 2, 8), L(2, 2, seed=1), L(2, 2, seed=4), L(8, 2, seed=2),
                        L(8, seed=3)]),
        smooth("tanh, reversed, no bias", lambda gi, h0, w: fused_recurrence(
            "RNN_TANH", gi, (h0,), w, None, reverse=True)[0] ** 2,
               lambda: [T(3, 2, 2), L(2, 2, seed=1), L(2, 2, seed=2)])],
}


def _functions() -> dict:
    """Every concrete Function subclass defined in minigrad/ops, by name."""
    out, todo = {}, [Function]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("minigrad.ops") and not sub.__name__.startswith("_"):
                out[sub.__name__] = sub
    return out


def test_every_function_has_cases():
    """A new op without an entry fails here; so does an entry whose op is gone."""
    functions = _functions()
    missing = sorted(set(functions) - set(CASES))
    stale = sorted(set(CASES) - set(functions))
    assert not missing, f"Functions without a case in CASES: {missing}"
    assert not stale, f"CASES entries naming no Function of minigrad/ops: {stale}"


def _outputs(fn, xs) -> list:
    out = fn(*xs)
    return [o for o in (out if isinstance(out, tuple) else (out,)) if o.requires_grad]


def _weights(outs) -> list:
    rng = np.random.default_rng(7)
    return [rng.standard_normal(o.shape) for o in outs]


def _weighted_sum(outs, weights):
    total = None
    for o, w in zip(outs, weights):
        term = (o * mg.tensor(w)).sum()
        total = term if total is None else total + term
    return total


def _first_derivatives(fn, inputs, create_graph):
    """d<fn(x), w>/dx for fixed random w, with or without create_graph, and every Function
    class in the graph (forward and, with create_graph, the recorded backward)."""
    outs = _outputs(fn, inputs)
    # the forward graph is read before a plain backward takes it apart
    seen = {t._ctx.fn.__name__ for t in topological_order(outs) if t._ctx is not None}
    total = _weighted_sum(outs, _weights(outs))
    grads = autograd.grad(total, inputs, create_graph=create_graph, allow_unused=True)
    roots = [g for g in grads if g is not None and g.requires_grad]
    seen |= {t._ctx.fn.__name__ for t in topological_order(roots) if t._ctx is not None}
    values = [np.zeros(x.shape) if g is None else np.asarray(g.data, dtype=np.float64)
              for x, g in zip(inputs, grads)]
    return values, seen


PARAMS = [pytest.param(op, case, id=f"{op}-{case.name}") for op, cases in CASES.items()
          for case in cases]


@pytest.mark.parametrize("op, case", PARAMS)
def test_first_and_second_derivatives(op, case):
    plain, seen = _first_derivatives(case.fn, case.inputs(), create_graph=False)
    assert op in seen, f"the case does not put {op} in its graph (saw {sorted(seen)})"
    recorded, _ = _first_derivatives(case.fn, case.inputs(), create_graph=True)
    for p, r in zip(plain, recorded):  # the one backward gives the same numbers in both modes
        np.testing.assert_allclose(r, p, rtol=1e-10, atol=1e-12, equal_nan=True)
    if case.expect is not None:  # a kink: minigrad's stated derivative there, in both modes
        for create_graph in (False, True):
            xs = case.inputs()
            outs = _outputs(case.fn, xs)
            total = _weighted_sum(outs, [np.ones(o.shape) for o in outs])
            grads = autograd.grad(total, xs, create_graph=create_graph, allow_unused=True)
            for g, e in zip(grads, case.expect()):
                np.testing.assert_allclose(g.data, e, rtol=1e-12, atol=1e-12)
        return
    assert gradcheck(case.fn, case.inputs())
    assert gradgradcheck(case.fn, case.inputs())

"""Autodiff of autodiff: double backward of every op, gradgradcheck, autograd.grad,
Hessians and Hessian-vector products, gradient penalties.

The property test draws shapes (broadcasting included) for every case of
``CASES`` and checks second derivatives against finite differences of first
derivatives (``minigrad.gradgradcheck``, float64). ``test_every_op_has_a_case``
walks the graphs the cases build (forward and create_graph backward) and fails
if some Function of ``minigrad/ops`` appears in none: a new op cannot be
forgotten. The unary and binary elementwise cases are the first-order tests'
own tables (``test_ops_grad.UNARY``, ``BINARY``).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from strategies import (
    away_from_zero_arrays,
    broadcastable_shapes,
    distinct_arrays,
    float_arrays,
    leaf,
    matmul_shapes,
    positive_arrays,
    shapes,
)
from test_ops_grad import BINARY, UNARY

import minigrad as mg
from minigrad import GradcheckError, autograd, gradcheck, gradgradcheck, nn
from minigrad.autograd import functional as AF
from minigrad.engine import topological_order
from minigrad.function import Function
from minigrad.nn import functional as F
from minigrad.nn.rnn import fused_recurrence
from minigrad.ops.attention import AttentionFunction
from minigrad.ops.dropout import DropoutFunction
from minigrad.ops.nuclear_norm import PolarFactor

# gradgradcheck costs (elements) x (forward + create_graph backward): few, small examples
FEW = settings(max_examples=max(4, settings.default.max_examples // 5), deadline=None)
SMALL = {"max_side": 3}


def _shape(draw, **kw):
    return draw(shapes(**{**SMALL, **kw}))


def _axis(draw, ndim):
    if ndim == 0:
        return None
    return draw(st.one_of(st.none(), st.integers(-ndim, ndim - 1)))


# ---- the cases: name -> draw -> (fn, inputs) --------------------------------------------


def _binary(name):
    def case(draw):
        fn, gen_a, gen_b = BINARY[name]
        sa, sb = draw(broadcastable_shapes(2, max_side=3))
        return fn, [leaf(draw(gen_a(sa))), leaf(draw(gen_b(sb)))]
    return case


def _unary(name):
    def case(draw):
        fn, gen = UNARY[name]
        return fn, [leaf(draw(gen(_shape(draw))))]
    return case


def _one(fn_of_draw, gen=float_arrays, **shape_kw):
    """A case of one input drawn by ``gen``; ``fn_of_draw(draw, shape)`` gives the function."""
    def case(draw):
        shape = _shape(draw, **shape_kw)
        return fn_of_draw(draw, shape), [leaf(draw(gen(shape)))]
    return case


def _reduce(name, gen=float_arrays):
    def fn_of(draw, shape):
        axis, keep = _axis(draw, len(shape)), draw(st.booleans())
        return lambda t: getattr(t * t if name in ("sum", "mean") else t, name)(axis, keep)
    return _one(fn_of, gen)


def _matmul(draw):
    sa, sb = draw(matmul_shapes(max_side=3))
    return (lambda a, b: a @ b), [leaf(draw(float_arrays(sa))), leaf(draw(float_arrays(sb)))]


def _cat_stack(draw):
    shape = _shape(draw, min_dims=1)
    ax = draw(st.integers(-len(shape), len(shape) - 1))
    a, b = (leaf(draw(float_arrays(shape))) for _ in range(2))
    return (lambda x, y: (mg.cat([x * x, y], axis=ax), mg.stack([x, y * y], axis=ax),
                          x.sum(ax, keepdim=True).expand(*shape) * y)), [a, b]


def _indexing(draw):
    shape = _shape(draw, min_dims=2)
    n = shape[0]
    idx = np.asarray(draw(st.lists(st.integers(-n, n - 1), min_size=1, max_size=n + 2)))
    basic = draw(hnp.basic_indices(shape))
    return (lambda t: (t * t)[idx].sum(0) + (t * t)[basic].sum() + t.flip(0)[0]
            + t.repeat(*([1] * (len(shape) - 1) + [2]))[..., : shape[-1]].sum(0)), \
        [leaf(draw(float_arrays(shape)))]


def _gather_scatter(draw):
    shape = _shape(draw, min_dims=2)
    idx = draw(hnp.arrays(np.int64, shape, elements=st.integers(0, shape[1] - 1)))
    a, s = leaf(draw(float_arrays(shape))), leaf(draw(float_arrays(shape)))
    return (lambda x, y: (x * x).gather(1, idx) + (x * y).scatter_add(1, idx, y * y)), [a, s]


def _index_put(draw):
    shape = _shape(draw, min_dims=1)
    a, v = leaf(draw(float_arrays(shape))), leaf(draw(float_arrays(shape[1:])))

    def fn(x, y):
        t = x * x
        t[0] = y * y  # the in-place write is an IndexPut in the graph
        return t * x
    return fn, [a, v]


def _masks(draw):
    sa, sm = draw(broadcastable_shapes(2, max_side=3))
    x_shape = np.broadcast_shapes(sa, sm)
    mask = draw(hnp.arrays(np.bool_, sm))
    a, b = leaf(draw(float_arrays(x_shape))), leaf(draw(float_arrays(sa)))
    return (lambda x, y: (x * x).masked_fill(mask, 2.0) + mg.where(mask, x * y, y * y)), [a, b]


def _softmax(name):
    def fn_of(draw, shape):
        ax = draw(st.integers(-len(shape), len(shape) - 1))
        return lambda t: getattr(t, name)(ax) * t
    return _one(fn_of, min_dims=1)


def _tril(draw):
    shape = _shape(draw, min_dims=2)
    k = draw(st.integers(-1, 1))
    return (lambda t: mg.tril(t * t, k) + mg.triu(t, k) * t), [leaf(draw(float_arrays(shape)))]


def _pairwise(draw):
    sa, sb = draw(broadcastable_shapes(2, max_side=3))
    a = leaf(draw(float_arrays(sa)))
    b = leaf(draw(float_arrays(sb)) + 5.0 * draw(st.sampled_from([-1, 1])))  # far from a
    return (lambda x, y: x.maximum(y) * x + x.minimum(y) * y), [a, b]


def _einsum(draw):
    i, j, k = (draw(st.integers(1, 3)) for _ in range(3))
    a, b = leaf(draw(float_arrays((i, j)))), leaf(draw(float_arrays((j, k))))
    return (lambda x, y: (mg.einsum("ij,jk->ik", x * x, y), mg.einsum("ij->j", x))), [a, b]


def _fused_linear(draw):
    rows, n_in, n_out = (draw(st.integers(1, 3)) for _ in range(3))
    x, w, b = (leaf(draw(float_arrays(s))) for s in ((rows, n_in), (n_out, n_in), (n_out,)))
    approximate = draw(st.sampled_from(["none", "tanh"]))
    return (lambda x, w, b: F.linear(x * x, w, b).sum(-1)
            + F.gelu_linear(x, w, b, approximate).sum(-1)), [x, w, b]


def _fused_layernorm(draw):
    rows, d = draw(st.integers(1, 3)), draw(st.integers(2, 4))
    x, w, b = (leaf(draw(float_arrays(s))) for s in ((rows, d), (d,), (d,)))
    return (lambda x, w, b: F.layer_norm(x, (d,), w, b)), [x, w, b]


def _fused_batchnorm(draw):
    n, c, s = draw(st.integers(2, 3)), draw(st.integers(1, 2)), draw(st.integers(2, 3))
    x, w, b = (leaf(draw(float_arrays(sh))) for sh in ((n, c, s), (c,), (c,)))
    return (lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True)), [x, w, b]


def _fused_attention(draw):
    tq, tk, hs = (draw(st.integers(1, 3)) for _ in range(3))
    # the Function's (B, T, H, hs) layout: 2 batch entries of 1 head, then 1 of 2 heads
    q, k, v = (leaf(draw(float_arrays(s))) for s in ((2, tq, 1, hs), (2, tk, 1, hs),
                                                      (2, tk, 1, 2)))
    mask = np.where(draw(hnp.arrays(np.bool_, (tq, tk))), -np.inf, 0.0)
    qkv = leaf(draw(float_arrays((1, tq, 3, 2, 1))))  # views of one packed projection
    drop = draw(hnp.arrays(np.float64, (2, 1, tq, tk), elements=st.sampled_from([0.0, 2.0])))
    return (lambda q, k, v, qkv: AttentionFunction.apply(q, k, v, mask=mask, scale=0.6, drop=drop)
            .sum(-1, keepdim=True)
            * AttentionFunction.apply(qkv[:, :, 0], qkv[:, :, 1], qkv[:, :, 2], causal=True,
                                      scale=0.6).sum()), \
        [q, k, v, qkv]


def _fused_losses(draw):
    n, c = draw(st.integers(1, 4)), draw(st.integers(2, 4))
    logits = leaf(draw(float_arrays((n, c))))
    targets = np.asarray(draw(st.lists(st.sampled_from(list(range(c)) + [-100]), min_size=n,
                                       max_size=n)))
    p = leaf(draw(float_arrays((n,), min_value=0.2, max_value=0.8)))
    t = leaf(draw(float_arrays((n,), min_value=0.0, max_value=1.0)))
    red = draw(st.sampled_from(["mean", "sum", "none"]))
    w = leaf(draw(float_arrays((c + 1, c))))  # the head of F.linear_cross_entropy: c+1 classes
    head_red = "sum" if red == "sum" else "mean"
    return (lambda x, p, t, w: F.cross_entropy(x * x, targets, reduction=red).sum()
            + F.binary_cross_entropy(p, t)
            + F.linear_cross_entropy(x * x, w, targets, reduction=head_red)), \
        [logits, p, t, w]


def _ctc(draw):
    """ctc_loss of log_softmax(x): targets of length at most T // 2 always fit."""
    t, n, c = draw(st.integers(2, 4)), draw(st.integers(1, 2)), draw(st.integers(2, 3))
    x = leaf(draw(float_arrays((t, n, c))))
    lengths = [draw(st.integers(0, t // 2)) for _ in range(n)]
    targets = np.asarray(draw(st.lists(st.integers(1, c - 1), min_size=sum(lengths),
                                       max_size=sum(lengths))), dtype=np.int64)
    red = draw(st.sampled_from(["mean", "sum", "none"]))
    return (lambda x: F.ctc_loss(x.log_softmax(-1), targets, (t,) * n, lengths,
                                 reduction=red)), [x]


def _embedding_dropout(draw):
    v, d = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    ids = mg.tensor(np.asarray(draw(st.lists(st.integers(0, v - 1), min_size=1, max_size=5))))
    keep = draw(hnp.arrays(np.float64, (d,), elements=st.sampled_from([0.0, 2.0])))
    w = leaf(draw(float_arrays((v, d))))
    return (lambda w: DropoutFunction.apply(F.embedding(ids, w), scaled_mask=keep) ** 2), [w]


def _conv_pool(draw):
    """conv, conv_transpose, avg pooling (the window view and col2im) and max unpooling."""
    h, w = draw(st.integers(3, 5)), draw(st.integers(3, 5))
    stride, dilation = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    x, k = leaf(draw(float_arrays((1, 2, h, w)))), leaf(draw(float_arrays((2, 2, 2, 2))))
    idx = np.array([[[0, 3]]])

    def fn(x, k):
        y = F.conv2d(x, k, stride=stride, padding=1, dilation=dilation)
        return (F.conv_transpose2d(y * y, k, stride=stride).sum()
                + F.avg_pool2d(x * x, 2, 1, ceil_mode=True).sum()
                + (F.max_unpool1d((x * x)[:, :1, 0, :2], idx, 2) ** 2).sum())
    return fn, [x, k]


def _max_pool_recurrence(draw):
    """max pooling (the gather at each window's maximum, and its scatter) on distinct values
    (no tie for a finite difference to flip), and a GRU's time loop as one op."""
    x = leaf(np.random.default_rng(draw(st.integers(0, 9))).permutation(16).reshape(1, 1, 4, 4)
             * 0.25)
    gi, h0 = leaf(draw(float_arrays((3, 2, 6)))), leaf(draw(float_arrays((2, 2))))
    w, b = leaf(draw(float_arrays((6, 2)))), leaf(draw(float_arrays((6,))))

    def fn(x, gi, h0, w, b):
        return ((F.max_pool2d(x * x, 2, 1) ** 2).sum()
                + (fused_recurrence("GRU", gi, (h0,), w, b)[0] ** 2).sum())
    return fn, [x, gi, h0, w, b]


def _misc_math(draw):
    shape = _shape(draw, min_dims=1)
    x = leaf(draw(away_from_zero_arrays(shape, min_abs=0.2)))
    y = leaf(draw(positive_arrays(shape)))
    # kinks and jumps kept out of reach: |a| >= 0.2, a * a < b + 4.5, odd clamp bounds
    return (lambda a, b: (a.sin() * a.cos() + a.erf() + (a * a) % (b + 4.5)
                          + (a * 0.1).floor() * a + (a * 0.1) // 1.0 * b
                          + a.clamp(-0.7071, 1.3337) * a
                          + a.abs() * a + a**3 + a.clone() * b + (a * b).cumsum(-1))), [x, y]


def _smooth_math(draw):
    """Issue 27's smooth functions of one and two tensors, each inside its domain: |a| in
    [0.2, 2] squashed to (-0.7, 0.7) by tanh (away from copysign's jump at 0), b in [0.2, 3]."""
    shape = _shape(draw, min_dims=1)

    def fn(a, b):
        t = (a * 0.5).tanh() * 0.7
        return (t.asin() + t.acos() * t + t.atan() + t.sinh() + t.cosh() + t.tan() + t.asinh()
                + (b + 1).acosh() + t.atanh() + t.log1p() + t.expm1() + b.log2() + b.log10()
                + t.exp2() + b.rsqrt() + b.reciprocal() + F.logsigmoid(a) + mg.atan2(t, b)
                + mg.copysign(b, t) * t + a.lerp(b, t) + F.celu(a, 0.7) + F.selu(a))
    return fn, [leaf(draw(away_from_zero_arrays(shape, min_abs=0.2))),
                leaf(draw(positive_arrays(shape)))]


def _reductions(draw):
    shape = _shape(draw, min_dims=1, max_dims=2, min_side=2)
    axis = _axis(draw, len(shape))
    x = leaf(draw(distinct_arrays(shape)))  # no ties for max/min
    return (lambda t: t.amax(axis) + t.amin(axis) + t.var(axis) + t.prod(axis)
            + t.logsumexp(axis) + t.norm(dim=axis) + t.std(axis)), [x]


def _shapes_ops(draw):
    shape = _shape(draw, min_dims=2)
    perm = tuple(draw(st.permutations(range(len(shape)))))
    return (lambda t: (t * t).transpose(0, 1).permute(*perm).reshape(-1)
            * t.permute(*perm).reshape(-1)), [leaf(draw(float_arrays(shape)))]


def _running_scatter_diagonal(draw):
    """Scans and scatters: cumprod, logcumsumexp, cummax, scatter (no repeated index: smooth),
    scatter_reduce (repeats), diagonal."""
    shape = _shape(draw, min_dims=2)
    idx = draw(hnp.arrays(np.int64, shape, elements=st.integers(0, shape[1] - 1)))
    rev = np.broadcast_to(np.arange(shape[1])[::-1].reshape(
        (1, -1) + (1,) * (len(shape) - 2)), shape).copy()
    v = draw(distinct_arrays(shape))  # no ties for cummax
    # and no value within 0.05 of 0: scatter_reduce('prod')'s backward divides by src (as
    # PyTorch's), so its recorded second derivative cancels terms of size 1/x (Hypothesis
    # found x = 3e-151); the one value near 0 moves 0.05 away (neighbours are 0.2 apart)
    x = leaf(v + np.where(np.abs(v) < 0.05, np.where(v < 0, -0.05, 0.05), 0.0))
    return (lambda t: t.cumprod(1) + t.logcumsumexp(0) + t.cummax(1).values
            + (t * t).scatter(1, rev, t) + t.scatter_reduce(1, idx, t * t, "mean")
            + t.scatter_reduce(1, idx, t, "prod") + t.diagonal().sum()), [x]


def _nuclear_norm(draw):
    """norm(p="nuc") of (b, m, n) matrices kept at full rank (a rank-deficient
    matrix is a kink): entries in [-0.5, 0.5] plus 3 on the diagonal give singular values
    of at least 3 - 0.5 * 3 = 1.5. Its gradient, the polar factor, is an output too, so
    that the Sylvester solve of the polar factor's backward is differentiated as well."""
    b, m, n = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    x = leaf(draw(float_arrays((b, m, n), min_value=-0.5, max_value=0.5)))
    keepdim = draw(st.booleans())
    shift = 3 * np.eye(m, n)
    return (lambda t: ((t + shift).norm("nuc", (1, 2), keepdim) ** 2,
                       PolarFactor.apply(t + shift))), [x]


CASES = {
    **{f"binary_{k}": _binary(k) for k in BINARY},
    "running_scatter_diagonal": _running_scatter_diagonal,
    "nuclear_norm": _nuclear_norm,
    **{f"unary_{k}": _unary(k) for k in UNARY},
    **{f"reduce_{k}": _reduce(k) for k in ("sum", "mean")},
    "reductions": _reductions,
    "matmul": _matmul,
    "cat_stack_expand": _cat_stack,
    "indexing": _indexing,
    "gather_scatter_add": _gather_scatter,
    "index_put": _index_put,
    "masked_fill_where": _masks,
    "softmax": _softmax("softmax"),
    "log_softmax": _softmax("log_softmax"),
    "tril_triu": _tril,
    "maximum_minimum": _pairwise,
    "einsum": _einsum,
    "shapes": _shapes_ops,
    "misc_math": _misc_math,
    "smooth_math": _smooth_math,
    "fused_linear": _fused_linear,
    "fused_layernorm": _fused_layernorm,
    "fused_batchnorm": _fused_batchnorm,
    "fused_attention": _fused_attention,
    "fused_losses": _fused_losses,
    "ctc": _ctc,
    "embedding_dropout": _embedding_dropout,
    "conv_pool": _conv_pool,
    "max_pool_recurrence": _max_pool_recurrence,
}


@pytest.mark.parametrize("name", sorted(CASES))
@FEW
@given(data=st.data())
def test_every_op_passes_gradgradcheck(name, data):
    fn, inputs = CASES[name](data.draw)
    assert gradgradcheck(fn, inputs)


def _all_functions() -> set:
    out, todo = set(), [Function]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("minigrad.ops") and not sub.__name__.startswith("_"):
                out.add(sub)
    return out


@settings(max_examples=1, derandomize=True, deadline=None)
@given(data=st.data())
def test_every_op_has_a_case(data):
    """Every Function of minigrad/ops appears in the graph of some case (forward or the
    create_graph backward): a new op without a double-backward case fails here."""
    seen = set()
    for case in CASES.values():
        fn, inputs = case(data.draw)
        out = fn(*inputs)
        outs = [o for o in (out if isinstance(out, tuple) else (out,)) if o.requires_grad]
        grads = autograd.grad([o.sum() for o in outs], inputs, create_graph=True,
                              allow_unused=True)
        roots = outs + [g for g in grads if g is not None and g.requires_grad]
        seen |= {t._ctx.fn for t in topological_order(roots) if t._ctx is not None}
    missing = sorted(c.__name__ for c in _all_functions() - seen)
    assert not missing, f"ops without a double-backward case in CASES: {missing}"


# ---- chains and higher orders ------------------------------------------------------------


def test_third_derivative_of_tanh_squared_matches_closed_form():
    x0 = np.linspace(-1.5, 1.5, 7)
    x = mg.tensor(x0, requires_grad=True)
    (d1,) = autograd.grad((x.tanh() ** 2).sum(), x, create_graph=True)
    (d2,) = autograd.grad(d1.sum(), x, create_graph=True)
    (d3,) = autograd.grad(d2.sum(), x)
    t = np.tanh(x0)
    s = 1 - t**2  # sech^2
    np.testing.assert_allclose(d1.data, 2 * t * s, rtol=1e-12)
    np.testing.assert_allclose(d2.data, 2 * s**2 - 4 * t**2 * s, rtol=1e-12)
    np.testing.assert_allclose(d3.data, -16 * t * s**2 + 8 * t**3 * s, rtol=1e-10, atol=1e-12)


def test_backward_create_graph_gives_grads_with_a_graph_and_accumulates():
    x = mg.tensor(np.array([1.0, 2.0]), requires_grad=True)
    (x**3).sum().backward(create_graph=True)
    g = x.grad
    assert g.requires_grad and g._ctx is not None
    np.testing.assert_allclose(g.data, 3 * x.data**2)
    (x**3).sum().backward(create_graph=True)  # accumulates: old + new, with a graph
    np.testing.assert_allclose(x.grad.data, 6 * x.data**2)
    x.grad = None
    y = mg.tensor(np.array([0.5, -1.0]), requires_grad=True)
    gy = autograd.grad((x**3).sum(), x, create_graph=True)[0]
    (gy * y).sum().backward()  # d/dx (3 x^2 . y) = 6 x y; d/dy = 3 x^2
    np.testing.assert_allclose(x.grad.data, 6 * x.data * y.data)
    np.testing.assert_allclose(y.grad.data, 3 * x.data**2)


def test_retain_graph_defaults_to_create_graph():
    x = mg.tensor(np.array([0.3, 0.4]), requires_grad=True)
    y = x.exp().sum()
    y.backward(create_graph=True)
    y.backward()  # the graph was kept
    np.testing.assert_allclose(x.grad.data, 2 * np.exp(x.data))
    z = x.exp().sum()
    z.backward()
    with pytest.raises(RuntimeError, match="second time"):
        z.backward()


def test_backward_inputs_accumulates_only_into_those():
    a = mg.tensor(np.array([1.0, 2.0]), requires_grad=True)
    b = mg.tensor(np.array([3.0, 4.0]), requires_grad=True)
    (a * b).sum().backward(inputs=[a])
    np.testing.assert_array_equal(a.grad.data, b.data)
    assert b.grad is None


def test_plain_backward_grads_carry_no_graph():
    x = mg.tensor(np.array([1.0, 2.0]), requires_grad=True)
    (x * x).sum().backward()
    assert x.grad._ctx is None and not x.grad.requires_grad
    (g,) = autograd.grad((x * x).sum(), x)
    assert g._ctx is None and not g.requires_grad


# ---- autograd.grad: options and errors ---------------------------------------------------


def test_grad_does_not_touch_dot_grad_and_handles_sequences():
    a = mg.tensor(np.array([1.0, 2.0]), requires_grad=True)
    b = mg.tensor(np.array([3.0]), requires_grad=True)
    ga, gb = autograd.grad([(a * a).sum(), (a * b).sum()], [a, b])
    np.testing.assert_array_equal(ga.data, 2 * a.data + b.data)
    np.testing.assert_array_equal(gb.data, [a.data.sum()])
    assert a.grad is None and b.grad is None
    (gv,) = autograd.grad(a * 2, a, grad_outputs=mg.tensor(np.array([1.0, -1.0])))
    np.testing.assert_array_equal(gv.data, [2.0, -2.0])


def test_grad_of_an_intermediate_tensor():
    x = mg.tensor(np.array([1.0, 2.0]), requires_grad=True)
    h = x * 3
    (gh,) = autograd.grad((h * h).sum(), h)
    np.testing.assert_array_equal(gh.data, 2 * h.data)


def test_allow_unused():
    a = mg.tensor(np.array([1.0]), requires_grad=True)
    b = mg.tensor(np.array([2.0]), requires_grad=True)
    with pytest.raises(RuntimeError, match="input 1 .*not used.*allow_unused"):
        autograd.grad((a * a).sum(), [a, b])
    ga, gb = autograd.grad((a * a).sum(), [a, b], allow_unused=True)
    assert gb is None and ga.item() == 2.0


def test_grad_error_paths():
    a = mg.tensor(np.array([1.0, 2.0]), requires_grad=True)
    c = mg.tensor(np.array([1.0, 2.0]))
    with pytest.raises(RuntimeError, match="output 0 .*does not require grad"):
        autograd.grad(c.sum(), a)
    with pytest.raises(RuntimeError, match="input 0 .*does not require grad"):
        autograd.grad((a * c).sum(), c)
    with pytest.raises(RuntimeError, match="implicitly created only for scalar"):
        autograd.grad(a * 2, a)
    with pytest.raises(ValueError, match="shape"):
        autograd.grad(a * 2, a, grad_outputs=mg.tensor(np.ones(3)))
    with pytest.raises(ValueError, match="2 grad_outputs for 1 outputs"):
        autograd.grad(a.sum(), a, grad_outputs=[None, None])
    with pytest.raises(TypeError, match="not a Tensor"):
        autograd.grad(a.sum(), [np.ones(2)])


def test_op_with_an_array_only_backward_refuses_create_graph():
    class Square(Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, grad):
            (a,) = ctx.saved_tensors
            return 2 * a * grad

    x = mg.tensor(np.array([1.0, 2.0]), requires_grad=True)
    (g,) = autograd.grad(Square.apply(x).sum(), x)  # first order works
    np.testing.assert_array_equal(g.data, [2.0, 4.0])
    with pytest.raises(RuntimeError, match="double backward is not implemented for Square"):
        autograd.grad(Square.apply(x).sum(), x, create_graph=True)


def test_create_graph_checks_in_place_writes():
    x = mg.tensor(np.array([1.0, 2.0]), requires_grad=True)
    h = x * 1
    y = (h.exp()).sum()
    with mg.no_grad():
        h.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        autograd.grad(y, x, create_graph=True)


def test_gradgradcheck_catches_a_wrong_second_derivative():
    class BadCube(Function):
        """x**3 whose one backward reads one factor of a as a constant (``.data``): right
        on arrays, so its first derivative is right; the recorded one misses a term."""

        differentiable_backward = True

        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a**3

        @staticmethod
        def backward(ctx, grad):
            (a,) = ctx.saved_tensors
            return 3 * a * a.data * grad  # d/da of this loses half under create_graph

    x = leaf(np.array([0.5, -1.0, 2.0]))
    assert gradcheck(lambda t: BadCube.apply(t), [x])
    with pytest.raises(GradcheckError, match=r"gradgradcheck .*input 0 .*element \(\d+,\)"
                                             r".*analytic .* vs numeric"):
        gradgradcheck(lambda t: BadCube.apply(t), [x])


@pytest.mark.parametrize("numpy_read", [
    lambda a, grad: grad * np.square(a),           # the incoming grad keeps a graph
    lambda a, grad: 2 * a * np.asarray(a) * grad,  # one factor read as an array
    lambda a, grad: grad * np.exp(a),              # a ufunc on the saved input
    lambda a, grad: grad * np.where(a > 0, a, 0),  # NumPy's where on a Tensor
], ids=["square", "asarray-factor", "exp", "where"])
def test_numpy_reading_a_graph_tensor_in_a_recorded_backward_refuses(numpy_read):
    """A differentiable backward that hands a Tensor with a graph to NumPy would give a second
    derivative that silently misses that factor: the read raises, naming the fix, while the
    same backward still serves a plain (first-order) backward, where it runs on arrays."""

    class NumpyInside(Function):
        differentiable_backward = True

        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a**3

        @staticmethod
        def backward(ctx, grad):
            (a,) = ctx.saved_tensors
            return numpy_read(a, grad)

    x = leaf(np.array([0.5, -1.0, 2.0]))
    NumpyInside.apply(x).sum().backward()  # first order: arrays, nothing to refuse
    assert x.grad is not None
    before = x.grad.data.copy()
    with pytest.raises(RuntimeError, match=r"NumPy function read a Tensor that requires grad"
                                           r".*create_graph=True.*ctx\.xp"):
        mg.autograd.grad(NumpyInside.apply(x).sum(), [x], create_graph=True)
    np.testing.assert_array_equal(x.grad.data, before)
    assert np.asarray(x).shape == (3,)  # outside a recorded backward NumPy reads Tensors


def test_one_backward_serves_create_graph_with_inputs_and_output_as_tensors():
    """Under create_graph the saved arrays come back as the op's input and output Tensors
    (cast back to the dtype forward computed in), so the one rule records a graph."""
    seen = []

    class Cube(Function):
        differentiable_backward = True

        @staticmethod
        def forward(ctx, a):
            out = a**3
            ctx.save_for_backward(a, out)
            return out

        @staticmethod
        def backward(ctx, grad):
            # d(a^3)/da = 3 out / a
            a, out = ctx.saved_tensors
            seen.append((type(a).__name__, type(out).__name__))
            return 3 * out / a * grad

    x = leaf(np.array([0.5, -1.0, 2.0]))
    (g,) = autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
    (h,) = autograd.grad(g.sum(), x)
    np.testing.assert_allclose(h.data, 6 * x.data)
    assert seen[0] == ("Tensor", "Tensor")
    assert gradgradcheck(lambda t: Cube.apply(t), [x])
    x32 = mg.tensor(np.array([0.5, 2.0], dtype=np.float32), requires_grad=True)
    y64 = mg.tensor(np.array([1.5, -1.0]), requires_grad=True)
    (gx,) = autograd.grad((x32 * y64).sum(), x32, create_graph=True)  # x32 promoted in forward
    assert gx.dtype == np.float32 and gx.requires_grad
    np.testing.assert_allclose(gx.data, [1.5, -1.0])


def test_a_saved_intermediate_refuses_create_graph():
    class Square(Function):
        """a**2 saving 2a, an array forward computed: fine on arrays, and under
        create_graph it would be a constant, so the engine refuses it by name."""

        differentiable_backward = True

        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(2 * a)
            return a * a

        @staticmethod
        def backward(ctx, grad):
            (two_a,) = ctx.saved_tensors
            return two_a * grad

    x = leaf(np.array([0.5, -1.0]))
    (g,) = autograd.grad(Square.apply(x).sum(), x)
    np.testing.assert_allclose(g.data, [1.0, -2.0])
    with pytest.raises(RuntimeError, match="Square.backward reads an array its forward computed"):
        autograd.grad(Square.apply(x).sum(), x, create_graph=True)


# ---- functional: jacobian, hessian, hvp, vhp -----------------------------------------------


def _fd_grad(f, x0, eps=1e-6):
    """Central differences of a scalar function of an ndarray."""
    g = np.zeros_like(x0)
    for i in np.ndindex(x0.shape):
        e = np.zeros_like(x0)
        e[i] = eps
        g[i] = (f(x0 + e) - f(x0 - e)) / (2 * eps)
    return g


def test_jacobian_and_hessian_shapes_and_values():
    x = mg.tensor(np.array([0.5, -1.0, 2.0]))
    J = AF.jacobian(lambda t: t * t, x)
    np.testing.assert_allclose(J.data, np.diag(2 * x.data))
    H = AF.hessian(lambda t: (t**3).sum(), x)
    np.testing.assert_allclose(H.data, np.diag(6 * x.data))
    y = mg.tensor(np.array([[1.0, 2.0]]))
    (ja, jb), = (AF.jacobian(lambda a, b: (a * b.sum(), ), (x, y)))
    assert ja.shape == (3, 3) and jb.shape == (3, 1, 2)
    hs = AF.hessian(lambda a, b: (a * a).sum() * b.sum(), (x, y))
    assert hs[0][1].shape == (3, 1, 2)
    np.testing.assert_allclose(hs[0][1].data, np.broadcast_to((2 * x.data)[:, None, None],
                                                              (3, 1, 2)))
    assert not H.requires_grad
    w = mg.tensor(np.array([0.5, -1.0]), requires_grad=True)  # create_graph: back to w
    AF.hessian(lambda t: (t**3).sum(), w, create_graph=True).sum().backward()
    np.testing.assert_allclose(w.grad.data, [6.0, 6.0])


def _mlp_params(rng, dims=(3, 4, 2)):
    return [mg.tensor(rng.standard_normal((o, i)) * 0.7) for i, o in itertools.pairwise(dims)]


def _mlp_loss(x, W1, W2):
    return ((x @ W1.T).tanh() @ W2.T).sigmoid().sum()


def test_hvp_of_a_small_mlp_matches_finite_differences():
    rng = np.random.default_rng(0)
    x = mg.tensor(rng.standard_normal((5, 3)))
    W1, W2 = _mlp_params(rng)
    v1, v2 = (mg.tensor(rng.standard_normal(w.shape)) for w in (W1, W2))
    _, (h1, h2) = AF.hvp(lambda a, b: _mlp_loss(x, a, b), (W1, W2), (v1, v2))
    _, (k1, k2) = AF.vhp(lambda a, b: _mlp_loss(x, a, b), (W1, W2), (v1, v2))

    def grads_at(w1, w2):
        a, b = mg.tensor(w1, requires_grad=True), mg.tensor(w2, requires_grad=True)
        return [g.data for g in autograd.grad(_mlp_loss(x, a, b), [a, b])]

    eps = 1e-5
    plus = grads_at(W1.data + eps * v1.data, W2.data + eps * v2.data)
    minus = grads_at(W1.data - eps * v1.data, W2.data - eps * v2.data)
    for h, k, p, m in zip((h1, h2), (k1, k2), plus, minus):
        numeric = (p - m) / (2 * eps)
        np.testing.assert_allclose(h.data, numeric, rtol=1e-6, atol=1e-8)
        np.testing.assert_allclose(k.data, h.data, rtol=1e-10, atol=1e-12)


def test_hvp_of_a_tiny_gpt_loss_matches_finite_differences():
    mg.manual_seed(0)
    model = mg.models.GPT(vocab_size=7, block_size=4, n_layer=1, n_head=2, n_embd=8)
    model.double()
    rng = np.random.default_rng(1)
    idx = mg.tensor(rng.integers(0, 7, (2, 4)))
    tgt = mg.tensor(rng.integers(0, 7, (2, 4)))
    params = [p for _, p in model.named_parameters()]
    vs = [rng.standard_normal(p.shape) for p in params]

    def grads():
        return autograd.grad(model(idx, tgt)[1], params, create_graph=True, allow_unused=True)

    gs = grads()
    dot = sum((g * mg.tensor(v)).sum() for g, v in zip(gs, vs) if g is not None)
    hv = autograd.grad(dot, params, allow_unused=True)
    eps = 1e-6  # v moves ~1000 parameters at once: a small step keeps the O(eps^2) error small
    originals = [p.data.copy() for p in params]

    def grads_shifted(sign):
        for p, o, v in zip(params, originals, vs):
            p.data[...] = o + sign * eps * v
        out = [g.data.copy() if g is not None else None for g in
               autograd.grad(model(idx, tgt)[1], params, allow_unused=True)]
        for p, o in zip(params, originals):
            p.data[...] = o
        return out

    plus, minus = grads_shifted(1), grads_shifted(-1)
    for name_p, h, p, m in zip(model.named_parameters(), hv, plus, minus):
        if p is None:
            continue
        numeric = (p - m) / (2 * eps)
        np.testing.assert_allclose(h.data, numeric, rtol=1e-4, atol=1e-7, err_msg=name_p[0])


def test_gradient_penalty_backpropagates_into_the_weights():
    """loss = ||d f(x)/dx||^2 (a WGAN-GP style penalty): its gradient in the weights, through
    create_graph, against finite differences (gradcheck over the weights)."""
    rng = np.random.default_rng(2)
    x = mg.tensor(rng.standard_normal((4, 3)), requires_grad=True)

    @mg.enable_grad()  # gradcheck evaluates fn under no_grad; this fn needs a graph inside
    def penalty(W1, W2):
        out = ((x @ W1.T).tanh() @ W2.T).sum()
        (gx,) = autograd.grad(out, x, create_graph=True)
        return (gx * gx).sum(axis=1).sqrt().sub(1.0).pow(2).mean()

    W1, W2 = (leaf(w.data) for w in _mlp_params(rng, (3, 5, 1)))
    assert mg.gradcheck(penalty, [W1, W2])
    net = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1)).double()
    (gx,) = autograd.grad(net(x).sum(), x, create_graph=True)
    ((gx * gx).sum()).backward()
    assert all(p.grad is not None and np.abs(p.grad.data).sum() > 0
               for p in net.parameters() if p.ndim == 2)


# ---- float32 fused kernels under create_graph ---------------------------------------------------


@pytest.mark.parametrize("backend", ["fast", "reference"])
def test_fused_float32_ops_double_backward_equal_float64_reference(backend):
    mg.manual_seed(3)
    rng = np.random.default_rng(3)
    model = mg.models.GPT(vocab_size=11, block_size=6, n_layer=1, n_head=2, n_embd=16)
    idx = mg.tensor(rng.integers(0, 11, (2, 6)))
    tgt = mg.tensor(rng.integers(0, 11, (2, 6)))
    vs = {n: rng.standard_normal(p.shape) for n, p in model.named_parameters()}

    def hvp_of(m, dtype):
        params = [p for _, p in m.named_parameters()]
        gs = autograd.grad(m(idx, tgt)[1], params, create_graph=True, allow_unused=True)
        dot = sum((g * mg.tensor(vs[n].astype(dtype))).sum()
                  for (n, _), g in zip(m.named_parameters(), gs) if g is not None)
        return [g.data for g in autograd.grad(dot, params, allow_unused=True)], gs

    with mg.use_backend(backend):
        h32, g32 = hvp_of(model, np.float32)
    ref = mg.models.GPT(vocab_size=11, block_size=6, n_layer=1, n_head=2, n_embd=16)
    ref.load_state_dict({k: np.asarray(getattr(v, "data", v), dtype=np.float64)
                         for k, v in model.state_dict().items()})
    ref.double()
    with mg.use_backend("reference"):
        h64, g64 = hvp_of(ref, np.float64)
    # float32 rounding, compared per parameter as a whole (norms), not element by element
    for a, b in zip(g32, g64):
        assert a.dtype == np.float32
        assert np.linalg.norm(a.data - b.data) <= 1e-4 * np.linalg.norm(b.data) + 1e-7
    for a, b in zip(h32, h64):
        assert np.linalg.norm(a - b) <= 1e-3 * np.linalg.norm(b) + 1e-6


# ---- PyTorch cross-checks ---------------------------------------------------------------------


def test_pytorch_hessian_hvp_and_double_grad_agree():
    torch = pytest.importorskip("torch")
    TF = torch.autograd.functional
    rng = np.random.default_rng(4)
    x0, v0 = rng.standard_normal(4), rng.standard_normal(4)
    W0 = rng.standard_normal((3, 4))

    def f_mg(x):
        return ((mg.tensor(W0) @ x).tanh() ** 2).sum() + x.softmax(-1).log().mean() * x.sum()

    def f_t(x):
        return ((torch.tensor(W0) @ x).tanh() ** 2).sum() + x.softmax(-1).log().mean() * x.sum()

    H = AF.hessian(f_mg, mg.tensor(x0))
    np.testing.assert_allclose(H.data, TF.hessian(f_t, torch.tensor(x0)).numpy(), rtol=1e-10,
                               atol=1e-12)
    _, hv = AF.hvp(f_mg, mg.tensor(x0), mg.tensor(v0))
    _, hv_t = TF.hvp(f_t, torch.tensor(x0), torch.tensor(v0))
    np.testing.assert_allclose(hv.data, hv_t.numpy(), rtol=1e-10, atol=1e-12)
    _, vh = AF.vhp(f_mg, mg.tensor(x0), mg.tensor(v0))
    np.testing.assert_allclose(vh.data, TF.vhp(f_t, torch.tensor(x0), torch.tensor(v0))[1]
                               .numpy(), rtol=1e-10, atol=1e-12)
    J = AF.jacobian(lambda x: (mg.tensor(W0) @ x).sigmoid(), mg.tensor(x0))
    np.testing.assert_allclose(J.data, TF.jacobian(lambda x: (torch.tensor(W0) @ x).sigmoid(),
                                                   torch.tensor(x0)).numpy(), rtol=1e-12)
    # grad(create_graph=True) then grad again, through layer norm and GELU
    xm = mg.tensor(x0.reshape(2, 2), requires_grad=True)
    xt = torch.tensor(x0.reshape(2, 2), requires_grad=True)
    (gm,) = autograd.grad(F.gelu(F.layer_norm(xm, (2,))).pow(3).sum(), xm, create_graph=True)
    (gt,) = torch.autograd.grad(torch.nn.functional.gelu(torch.nn.functional.layer_norm(
        xt, (2,))).pow(3).sum(), xt, create_graph=True)
    np.testing.assert_allclose(gm.data, gt.detach().numpy(), rtol=1e-10, atol=1e-12)
    (ggm,) = autograd.grad((gm * gm).sum(), xm)
    (ggt,) = torch.autograd.grad((gt * gt).sum(), xt)
    np.testing.assert_allclose(ggm.data, ggt.numpy(), rtol=1e-8, atol=1e-10)

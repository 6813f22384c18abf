"""Every differentiable op's gradient against central finite differences.

Each test draws shapes (broadcasting pairs, size-1 axes, small sizes), values
kept away from the op's kinks, and a memory layout (inputs may be transposed
or strided views), then runs ``minigrad.gradcheck`` in float64 at its default
tolerances (eps=1e-6, atol=1e-5, rtol=1e-3).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from strategies import (
    away_from_arrays,
    away_from_zero_arrays,
    broadcastable_shapes,
    distinct_arrays,
    float_arrays,
    layouts,
    leaf,
    matmul_shapes,
    positive_arrays,
    shapes,
)

import minigrad as mg
from minigrad import gradcheck


def _axis_args(draw, ndim: int):
    """(axis, keepdims) for a reduction over a tensor of ``ndim`` dims: None,
    one axis (maybe negative) or a tuple of axes."""
    if ndim == 0:
        return None, draw(st.booleans())
    kind = draw(st.sampled_from(["none", "int", "tuple"]))
    if kind == "none":
        axis = None
    elif kind == "int":
        axis = draw(st.integers(-ndim, ndim - 1))
    else:
        axes = st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True)
        axis = tuple(draw(axes))
    return axis, draw(st.booleans())


# ---- binary elementwise ops with broadcasting ----------------------------------

BINARY = {
    "add": (lambda a, b: a + b, float_arrays, float_arrays),
    "sub": (lambda a, b: a - b, float_arrays, float_arrays),
    "mul": (lambda a, b: a * b, float_arrays, float_arrays),
    "div": (lambda a, b: a / b, float_arrays, away_from_zero_arrays),
    "pow": (lambda a, b: a**b, positive_arrays, float_arrays),
}


@pytest.mark.parametrize("name", sorted(BINARY))
@given(data=st.data(), pair=broadcastable_shapes(2), la=layouts(), lb=layouts())
def test_binary_ops_broadcast(name, data, pair, la, lb):
    fn, gen_a, gen_b = BINARY[name]
    a = leaf(data.draw(gen_a(pair[0])), la)
    b = leaf(data.draw(gen_b(pair[1])), lb)
    assert gradcheck(fn, [a, b])


@pytest.mark.parametrize(
    "name, fn",
    [
        ("radd", lambda x: 2.0 + x),
        ("rsub", lambda x: 2 - x),
        ("rmul", lambda x: 3.0 * x),
        ("rtruediv", lambda x: 1.0 / x),
        ("rpow", lambda x: 2.0**x),
        ("sub_scalar", lambda x: x - 0.5),
        ("div_scalar", lambda x: x / 4),
        ("neg", lambda x: -x),
    ],
)
@given(data=st.data(), shape=shapes(), layout=layouts())
def test_reflected_and_scalar_operators(name, fn, data, shape, layout):
    x = leaf(data.draw(away_from_zero_arrays(shape, min_abs=0.3)), layout)
    assert gradcheck(fn, [x])


@given(
    data=st.data(), shape=shapes(), layout=layouts(),
    p=st.sampled_from([2, 3, 0.5, -1.5, 1.7, -2]),
)
def test_pow_scalar_exponent(data, shape, layout, p):
    x = leaf(data.draw(positive_arrays(shape)), layout)
    assert gradcheck(lambda t: t**p, [x])


@given(data=st.data(), shape=shapes(min_dims=1), layout=layouts())
def test_pow_array_exponent_is_elementwise(data, shape, layout):
    x = leaf(data.draw(positive_arrays(shape)), layout)
    p = data.draw(float_arrays(shape[-1:], min_value=-2, max_value=2))
    assert gradcheck(lambda t: t**p, [x])


def test_binary_op_with_both_inputs_the_same_tensor():
    x = leaf(np.array([0.5, -1.5, 2.0]))
    assert gradcheck(lambda t: t * t + t / (t * t), [x])


# ---- unary elementwise ops ------------------------------------------------------

UNARY = {
    "exp": (lambda x: x.exp(), float_arrays),
    "log": (lambda x: x.log(), positive_arrays),
    "sqrt": (lambda x: x.sqrt(), positive_arrays),
    "tanh": (lambda x: x.tanh(), float_arrays),
    "sigmoid": (lambda x: x.sigmoid(), float_arrays),
    "relu": (lambda x: x.relu(), away_from_zero_arrays),
    "gelu": (lambda x: x.gelu(), float_arrays),
    "gelu_tanh": (lambda x: x.gelu(approximate="tanh"), float_arrays),
    "abs": (lambda x: x.abs(), away_from_zero_arrays),
}


@pytest.mark.parametrize("name", sorted(UNARY))
@given(data=st.data(), shape=shapes(), layout=layouts())
def test_unary_ops(name, data, shape, layout):
    fn, gen = UNARY[name]
    x = leaf(data.draw(gen(shape)), layout)
    assert gradcheck(fn, [x])


@given(data=st.data(), shape=shapes(), layout=layouts())
def test_sigmoid_large_inputs(data, shape, layout):
    x = leaf(data.draw(float_arrays(shape, min_value=-30, max_value=30)), layout)
    assert gradcheck(lambda t: t.sigmoid(), [x])


@given(data=st.data(), shape=shapes(), layout=layouts(),
       bounds=st.sampled_from([(-0.5, 0.5), (None, 0.3), (-0.3, None)]))
def test_clamp(data, shape, layout, bounds):
    lo, hi = bounds
    x = leaf(data.draw(away_from_arrays(shape, tuple(b for b in bounds if b is not None))), layout)
    assert gradcheck(lambda t: t.clamp(lo, hi), [x])


# ---- reductions ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["sum", "mean"])
@given(data=st.data(), shape=shapes(), layout=layouts())
def test_sum_mean(name, data, shape, layout):
    axis, keepdims = _axis_args(data.draw, len(shape))
    x = leaf(data.draw(float_arrays(shape)), layout)
    assert gradcheck(lambda t: getattr(t, name)(axis=axis, keepdims=keepdims), [x])


@given(data=st.data(), shape=shapes(), layout=layouts())
def test_max_without_ties(data, shape, layout):
    axis, keepdims = _axis_args(data.draw, len(shape))
    x = leaf(data.draw(distinct_arrays(shape)), layout)
    assert gradcheck(lambda t: t.amax(axis, keepdim=keepdims), [x])
    assert gradcheck(lambda t: t.amin(axis, keepdim=keepdims), [x])


def test_max_ties_share_the_gradient():
    x = mg.tensor([1.0, 3.0, 3.0, 2.0], requires_grad=True)
    x.max().backward()
    np.testing.assert_array_equal(x.grad, [0.0, 0.5, 0.5, 0.0])


@given(data=st.data(), shape=shapes(min_dims=1, min_side=2), layout=layouts(),
       correction=st.sampled_from([0, 1]))
def test_var(data, shape, layout, correction):
    axis, keepdims = _axis_args(data.draw, len(shape))
    x = leaf(data.draw(float_arrays(shape)), layout)
    assert gradcheck(lambda t: t.var(axis=axis, keepdims=keepdims, correction=correction), [x])


# ---- matmul ------------------------------------------------------------------------------


@given(data=st.data(), pair=matmul_shapes(), la=layouts(), lb=layouts())
def test_matmul_batched_broadcast_and_vectors(data, pair, la, lb):
    a = leaf(data.draw(float_arrays(pair[0])), la)
    b = leaf(data.draw(float_arrays(pair[1])), lb)
    assert gradcheck(lambda x, y: x @ y, [a, b])


@given(data=st.data(), pair=matmul_shapes(vectors=False), which=st.sampled_from(["a", "b", "both"]))
def test_matmul_transposed_operands(data, pair, which):
    """``q @ k.transpose(-2, -1)``: operands that are transposed views inside the graph."""
    sa, sb = pair
    ta = sa[:-2] + sa[-2:][::-1] if which in ("a", "both") else sa
    tb = sb[:-2] + sb[-2:][::-1] if which in ("b", "both") else sb
    a = leaf(data.draw(float_arrays(ta)))
    b = leaf(data.draw(float_arrays(tb)))

    def fn(x, y):
        x = x.transpose(-2, -1) if which in ("a", "both") else x
        y = y.transpose(-2, -1) if which in ("b", "both") else y
        return x @ y

    assert gradcheck(fn, [a, b])


def test_matmul_with_constant_operand():
    a = leaf(np.arange(6.0).reshape(2, 3) / 5)
    w = np.linspace(-1, 1, 12).reshape(3, 4)
    assert gradcheck(lambda x: x @ w, [a])
    assert gradcheck(lambda x: w.T @ x.T, [a])


# ---- shape ops -----------------------------------------------------------------------------


@given(data=st.data(), shape=shapes(min_dims=1), layout=layouts())
def test_reshape_view_flatten(data, shape, layout):
    x = leaf(data.draw(float_arrays(shape)), layout)
    n = int(np.prod(shape))
    assert gradcheck(lambda t: t.reshape(n, 1) * t.reshape(-1)[:1], [x])
    assert gradcheck(lambda t: t.view(-1).reshape(shape[::-1]), [x])
    assert gradcheck(lambda t: t.flatten(), [x])


@given(data=st.data(), shape=shapes(min_dims=2, max_dims=4), layout=layouts())
def test_transpose_permute_T(data, shape, layout):
    x = leaf(data.draw(float_arrays(shape)), layout)
    nd = len(shape)
    d0, d1 = data.draw(st.integers(-nd, nd - 1)), data.draw(st.integers(-nd, nd - 1))
    perm = tuple(data.draw(st.permutations(range(nd))))
    w = np.linspace(-1, 1, int(np.prod(shape)))  # make the outputs' order matter
    assert gradcheck(lambda t: t.transpose(d0, d1).reshape(-1) * w, [x])
    assert gradcheck(lambda t: t.permute(perm).reshape(-1) * w, [x])
    assert gradcheck(lambda t: t.T.reshape(-1) * w, [x])


@given(data=st.data(), shape=shapes(min_dims=1), layout=layouts())
def test_unsqueeze_squeeze(data, shape, layout):
    x = leaf(data.draw(float_arrays(shape)), layout)
    assert gradcheck(lambda t: t.unsqueeze(0).unsqueeze(-1).squeeze(), [x])


@given(data=st.data(), shape=shapes(min_dims=1), layout=layouts())
def test_basic_indexing(data, shape, layout):
    x = leaf(data.draw(float_arrays(shape)), layout)
    index = data.draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True))
    assert gradcheck(lambda t: t[index], [x])


@given(data=st.data(), shape=shapes(min_dims=1), layout=layouts())
def test_integer_array_gather_with_repeats(data, shape, layout):
    x = leaf(data.draw(float_arrays(shape)), layout)
    n = shape[0]
    # more indices than rows: repeats are certain when n is small, and their
    # gradients must add up
    idx = np.asarray(data.draw(st.lists(st.integers(-n, n - 1), min_size=n + 1, max_size=n + 4)))
    as_tensor = data.draw(st.booleans())
    index = mg.tensor(idx) if as_tensor else idx
    assert gradcheck(lambda t: t[index], [x])


def test_gather_repeated_indices_accumulate():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x[np.array([0, 0, 2, 0])].sum().backward()
    np.testing.assert_array_equal(x.grad, [3.0, 0.0, 1.0])


@given(data=st.data(), shape=shapes(min_dims=2, max_dims=3), layout=layouts())
def test_advanced_indexing_2d_and_bool(data, shape, layout):
    x = leaf(data.draw(float_arrays(shape)), layout)
    rows = np.asarray(data.draw(st.lists(st.integers(0, shape[0] - 1), min_size=1, max_size=5)))
    cols = np.asarray(data.draw(st.lists(st.integers(0, shape[1] - 1), min_size=len(rows),
                                         max_size=len(rows))))
    mask = data.draw(hnp.arrays(np.bool_, shape[:1]))
    assert gradcheck(lambda t: t[rows, cols], [x])
    assert gradcheck(lambda t: t[:, cols], [x])
    assert gradcheck(lambda t: t[mask], [x])


@given(data=st.data(), shape=shapes(min_dims=1), n=st.integers(1, 3), layout=layouts())
def test_cat(data, shape, n, layout):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    parts = []
    for _ in range(n):
        s = list(shape)
        s[axis] = data.draw(st.integers(1, 3))
        parts.append(leaf(data.draw(float_arrays(tuple(s))), layout))
    assert gradcheck(lambda *ts: mg.cat(ts, axis=axis), parts)


@given(data=st.data(), shape=shapes(), n=st.integers(1, 3), layout=layouts())
def test_stack(data, shape, n, layout):
    axis = data.draw(st.integers(-len(shape) - 1, len(shape)))
    parts = [leaf(data.draw(float_arrays(shape)), layout) for _ in range(n)]
    assert gradcheck(lambda *ts: mg.stack(ts, axis=axis), parts)


@given(data=st.data(), shape=shapes(min_dims=1, max_side=6), layout=layouts())
def test_split(data, shape, layout):
    axis = data.draw(st.integers(0, len(shape) - 1))
    size = data.draw(st.integers(1, shape[axis]))
    x = leaf(data.draw(float_arrays(shape)), layout)
    assert gradcheck(lambda t: t.split(size, axis=axis), [x])
    assert gradcheck(lambda t: mg.split(t, [1, shape[axis] - 1], axis=axis)[1:], [x])


# ---- masks, where, softmax, triangles, casts ----------------------------------------------------


@given(data=st.data(), pair=broadcastable_shapes(2), layout=layouts(), as_tensor=st.booleans())
def test_masked_fill(data, pair, layout, as_tensor):
    x_shape = np.broadcast_shapes(*pair)  # the mask must broadcast to x's shape
    mask = data.draw(hnp.arrays(np.bool_, pair[1]))
    x = leaf(data.draw(float_arrays(x_shape)), layout)
    m = mg.tensor(mask) if as_tensor else mask
    assert gradcheck(lambda t: t.masked_fill(m, -3.0), [x])


@given(data=st.data(), shapes3=broadcastable_shapes(3), la=layouts(), lb=layouts())
def test_where(data, shapes3, la, lb):
    cond = data.draw(hnp.arrays(np.bool_, shapes3[0]))
    a = leaf(data.draw(float_arrays(shapes3[1])), la)
    b = leaf(data.draw(float_arrays(shapes3[2])), lb)
    assert gradcheck(lambda x, y: mg.where(cond, x, y), [a, b])
    assert gradcheck(lambda x: mg.where(mg.tensor(cond), x, 0.0), [a])


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
@given(data=st.data(), shape=shapes(min_dims=1), layout=layouts())
def test_softmax_any_axis(name, data, shape, layout):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    x = leaf(data.draw(float_arrays(shape, min_value=-4, max_value=4)), layout)
    assert gradcheck(lambda t: getattr(t, name)(axis), [x])
    assert gradcheck(lambda t: getattr(mg, name)(t, axis=axis), [x])


@given(data=st.data(), shape=shapes(min_dims=2, max_dims=3), layout=layouts())
def test_softmax_with_masked_logits(data, shape, layout):
    """Masked (-inf) logits get zero gradient; an all-masked row gives zeros, never NaN."""
    x = leaf(data.draw(float_arrays(shape)), layout)
    mask = data.draw(hnp.arrays(np.bool_, shape[-2:]))
    assert gradcheck(lambda t: t.masked_fill(mask, -np.inf).softmax(-1), [x])


@pytest.mark.parametrize("name", ["tril", "triu"])
@given(data=st.data(), shape=shapes(min_dims=2, max_dims=3), layout=layouts(), k=st.integers(-2, 2))
def test_tril_triu(name, data, shape, layout, k):
    x = leaf(data.draw(float_arrays(shape)), layout)
    assert gradcheck(lambda t: getattr(mg, name)(t, diagonal=k), [x])


@given(data=st.data(), shape=shapes(), layout=layouts())
def test_casts(data, shape, layout):
    x = leaf(data.draw(float_arrays(shape)), layout)
    assert gradcheck(lambda t: t.double() * 2, [x])
    assert gradcheck(lambda t: t.to(np.float64).exp(), [x])
    # Through float32 and back the values are rounded to ~1e-7, so the finite
    # difference needs a larger step than the default 1e-6 (the function is linear).
    assert gradcheck(lambda t: t.float().double() * 3, [x], eps=1e-3)


def test_cast_to_float32_gives_float64_gradient_to_a_float64_leaf():
    x = mg.tensor(np.array([1.0, 2.0]), requires_grad=True)
    (x.float() * 2).sum().backward()
    assert x.grad.dtype == np.float64
    np.testing.assert_array_equal(x.grad, [2.0, 2.0])


def test_cast_to_integer_is_cut_from_the_graph():
    x = mg.tensor(np.array([1.7, 2.2]), requires_grad=True)
    i = x.to(np.int64)
    assert i.dtype == np.int64 and not i.requires_grad
    np.testing.assert_array_equal(i.numpy(), [1, 2])


# ---- a composite: attention-shaped graph ---------------------------------------------------------


@given(data=st.data(), t=st.integers(1, 4), d=st.integers(1, 3))
def test_attention_composite(data, t, d):
    """softmax(q k^T / sqrt(d) masked causally) v, every op chained as in nn."""
    q, k, v = (leaf(data.draw(float_arrays((2, t, d)))) for _ in range(3))
    mask = mg.causal_mask(t)

    def attn(q, k, v):
        s = (q @ k.transpose(-2, -1)) / np.sqrt(d)
        return s.masked_fill(mask, -np.inf).softmax(-1) @ v

    assert gradcheck(attn, [q, k, v])

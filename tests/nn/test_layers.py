"""Layers: Linear, Embedding, LayerNorm, Dropout, ReLU/GELU, PositionalEncoding.

Gradients against finite differences (float64, Hypothesis over sizes), init
ranges, behaviour, and error paths.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minigrad as mg
from minigrad import nn

sizes = st.integers(1, 4)


def to_float64(module: nn.Module) -> list:
    """Cast every parameter to float64 in place (as gradcheck needs); return them."""
    params = list(module.parameters())
    for p in params:
        p.data = p.data.astype(np.float64)
    return params


def check_module_grads(module: nn.Module, *inputs: mg.Tensor) -> None:
    """gradcheck w.r.t. the inputs and every parameter of the module."""
    params = to_float64(module)
    n = len(inputs)
    assert mg.gradcheck(lambda *a: module(*a[:n]), list(inputs) + params)


def leaf(rng, *shape, scale=1.0):
    return mg.tensor(scale * rng.standard_normal(shape), requires_grad=True)


# ---- Linear ------------------------------------------------------------------------
@given(b=sizes, t=sizes, fin=sizes, fout=sizes, bias=st.booleans(), seed=st.integers(0, 99))
def test_linear_gradcheck(b, t, fin, fout, bias, seed):
    rng = np.random.default_rng(seed)
    check_module_grads(nn.Linear(fin, fout, bias=bias), leaf(rng, b, t, fin))


def test_linear_shapes_values_and_init_range():
    mg.manual_seed(0)
    lin = nn.Linear(64, 3)
    assert lin.weight.shape == (3, 64) and lin.bias.shape == (3,)
    assert lin.weight.dtype == np.float32
    bound = 1 / math.sqrt(64)
    assert np.abs(lin.weight.data).max() <= bound and np.abs(lin.bias.data).max() <= bound
    assert np.abs(lin.weight.data).max() > 0.8 * bound  # actually spread over the range
    x = mg.randn(2, 5, 64)
    y = lin(x)
    assert y.shape == (2, 5, 3)
    np.testing.assert_allclose(y.data, x.data @ lin.weight.data.T + lin.bias.data, rtol=1e-5,
                               atol=1e-6)
    assert lin(mg.randn(64)).shape == (3,)
    mg.manual_seed(0)
    np.testing.assert_array_equal(nn.Linear(64, 3).weight.data, lin.weight.data)  # seeded


def test_linear_errors():
    lin = nn.Linear(4, 2)
    with pytest.raises(ValueError, match=r"\(3, 5\).*\(2, 4\)"):
        lin(mg.randn(3, 5))
    with pytest.raises(TypeError):
        lin(mg.tensor(np.arange(4)))
    with pytest.raises(ValueError):
        nn.Linear(0, 2)
    with pytest.raises(ValueError):
        nn.functional.linear(mg.randn(2, 4), lin.weight, mg.zeros(3))


# ---- Embedding -----------------------------------------------------------------------
@given(n=sizes, d=sizes, b=sizes, t=sizes, seed=st.integers(0, 99))
def test_embedding_gradcheck_with_repeated_ids(n, d, b, t, seed):
    rng = np.random.default_rng(seed)
    emb = nn.Embedding(n, d)
    ids = rng.integers(0, n, (b, t))
    check_module_grads(emb, ids)


def test_embedding_lookup_accumulating_backward_and_init():
    mg.manual_seed(0)
    emb = nn.Embedding(1000, 8)
    w = emb.weight.data
    assert abs(w.mean()) < 0.05 and abs(w.std() - 1) < 0.05  # N(0, 1), as PyTorch
    ids = mg.tensor(np.array([[3, 3, 7], [0, 3, 999]]))
    out = emb(ids)
    assert out.shape == (2, 3, 8)
    np.testing.assert_array_equal(out.data[1, 2], w[999])
    np.testing.assert_array_equal(emb(np.array(5)).data, w[5])  # a 0-d id
    out.sum().backward()
    counts = np.zeros(1000)
    np.add.at(counts, ids.data.ravel(), 1)
    np.testing.assert_array_equal(emb.weight.grad, np.repeat(counts[:, None], 8, 1))
    assert emb.weight.grad[3, 0] == 3


@pytest.mark.parametrize("ids", [np.array([0, 5]), np.array([-1]), mg.tensor(np.array([[2, 9]]))])
def test_embedding_out_of_range_ids_raise_index_error(ids):
    emb = nn.Embedding(5, 2)
    with pytest.raises(IndexError, match="out of range"):
        emb(ids)


def test_embedding_non_integer_ids_raise_type_error():
    emb = nn.Embedding(5, 2)
    for bad in (np.array([0.0, 1.0]), mg.tensor([1.0]), np.array([True])):
        with pytest.raises(TypeError, match="integers"):
            emb(bad)


# ---- LayerNorm --------------------------------------------------------------------------
@given(b=sizes, t=sizes, d=st.integers(2, 5), seed=st.integers(0, 99))
def test_layernorm_gradcheck(b, t, d, seed):
    rng = np.random.default_rng(seed)
    ln = nn.LayerNorm(d)
    ln.weight.data[...] = rng.standard_normal(d)  # non-trivial affine part
    ln.bias.data[...] = rng.standard_normal(d)
    check_module_grads(ln, leaf(rng, b, t, d))


def test_layernorm_values_match_definition_and_pytorch_defaults():
    rng = np.random.default_rng(0)
    ln = nn.LayerNorm(6)
    assert np.all(ln.weight.data == 1) and np.all(ln.bias.data == 0) and ln.eps == 1e-5
    x = rng.standard_normal((3, 4, 6)).astype(np.float32) * 5 + 2
    y = ln(mg.tensor(x)).data
    mu, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)  # biased variance
    np.testing.assert_allclose(y, (x - mu) / np.sqrt(var + 1e-5), rtol=1e-5, atol=1e-5)


def test_layernorm_constant_row_is_finite():
    ln = nn.LayerNorm(4)
    ln.bias.data[...] = [1, 2, 3, 4]
    x = mg.tensor(np.full((2, 4), 7.0, dtype=np.float32), requires_grad=True)
    y = ln(x)
    np.testing.assert_allclose(y.data, [[1, 2, 3, 4]] * 2)
    y.sum().backward()
    assert np.all(np.isfinite(x.grad))


def test_layernorm_without_affine_and_multi_dim_shape():
    rng = np.random.default_rng(1)
    ln = nn.LayerNorm(3, elementwise_affine=False)
    assert list(ln.parameters()) == []
    assert mg.gradcheck(lambda x: ln(x), [leaf(rng, 2, 3)])
    ln2 = nn.LayerNorm((2, 3))
    x = leaf(rng, 4, 2, 3)
    check_module_grads(ln2, x)
    flat = x.data.reshape(4, 6)
    expect = (flat - flat.mean(1, keepdims=True)) / np.sqrt(flat.var(1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(ln2(x).data.reshape(4, 6), expect, rtol=1e-6)


def test_layernorm_errors():
    with pytest.raises(ValueError, match="normalized_shape"):
        nn.LayerNorm(4)(mg.randn(2, 5))
    with pytest.raises(ValueError):
        nn.LayerNorm(0)
    with pytest.raises(ValueError, match="weight"):
        nn.functional.layer_norm(mg.randn(2, 4), 4, weight=mg.ones(3))


# ---- Dropout -----------------------------------------------------------------------------
def test_dropout_statistics_scale_and_eval_identity():
    mg.manual_seed(0)
    drop = nn.Dropout(0.25)
    x = mg.ones(200, 500)
    y = drop(x).data
    kept = y != 0
    assert abs(kept.mean() - 0.75) < 0.01  # 100k draws: std of the mean ~0.0014
    np.testing.assert_allclose(y[kept], 1 / 0.75, rtol=1e-6)  # inverted dropout
    assert abs(y.mean() - 1.0) < 0.02  # expectation preserved
    drop.eval()
    assert drop(x) is x


def test_dropout_backward_uses_the_same_mask_and_seed_repeats():
    mg.manual_seed(3)
    x = mg.randn(50, 40, requires_grad=True)
    y = nn.functional.dropout(x, 0.5, training=True)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad != 0, y.data != 0)
    np.testing.assert_allclose(x.grad[x.grad != 0], 2.0)
    mg.manual_seed(3)
    x2 = mg.randn(50, 40)
    np.testing.assert_array_equal(nn.functional.dropout(x2, 0.5).data, y.data)


def test_dropout_gradcheck_with_fixed_mask():
    x = mg.tensor(np.random.default_rng(0).standard_normal((3, 4)), requires_grad=True)

    def f(x):
        mg.manual_seed(7)  # the same mask on every evaluation
        return nn.functional.dropout(x, 0.3, training=True)

    assert mg.gradcheck(f, [x])


def test_dropout_edge_probabilities():
    x = mg.randn(4, 4)
    assert nn.functional.dropout(x, 0.0) is x
    assert np.all(nn.Dropout(1.0)(x).data == 0)
    for p in (-0.1, 1.5, "0.5"):
        with pytest.raises(ValueError, match="probability"):
            nn.Dropout(p)


# ---- activations -----------------------------------------------------------------------------
@given(shape=st.lists(sizes, min_size=1, max_size=3), approximate=st.sampled_from(["none", "tanh"]),
       seed=st.integers(0, 99))
def test_activation_modules_gradcheck(shape, approximate, seed):
    rng = np.random.default_rng(seed)
    x = mg.tensor(rng.standard_normal(shape) + 0.05, requires_grad=True)  # keep off relu's kink
    x.data[np.abs(x.data) < 1e-3] = 0.5
    assert mg.gradcheck(nn.ReLU(), [x])
    assert mg.gradcheck(nn.GELU(approximate), [x])


def test_activation_values():
    x = mg.tensor([-2.0, 0.0, 1.5])
    np.testing.assert_array_equal(nn.ReLU()(x).data, [0, 0, 1.5])
    # exact GELU(1.5) = 1.5 * Phi(1.5) = 1.5 * 0.9331928
    np.testing.assert_allclose(nn.GELU()(x).data[2], 1.5 * 0.9331928, rtol=1e-6)
    np.testing.assert_allclose(nn.GELU("tanh")(x).data, nn.functional.gelu(x, "tanh").data)
    with pytest.raises(ValueError):
        nn.GELU("fast")


# ---- PositionalEncoding ------------------------------------------------------------------------
def test_positional_encoding_entries_by_hand():
    pe = nn.PositionalEncoding(4, max_len=10)
    table = pe.pe.data
    assert table.shape == (10, 4) and not pe.pe.requires_grad
    assert list(pe.parameters()) == [] and "pe" not in pe.state_dict()
    # pos 0: sin(0) = 0, cos(0) = 1
    np.testing.assert_allclose(table[0], [0, 1, 0, 1])
    # pos 1, i = 0: sin(1), cos(1); i = 1: angle 1 / 10000^(2/4) = 0.01
    np.testing.assert_allclose(table[1], [math.sin(1), math.cos(1), math.sin(0.01),
                                          math.cos(0.01)], rtol=1e-6)
    np.testing.assert_allclose(table[7, 2], math.sin(7 / 100), rtol=1e-6)


def test_positional_encoding_matches_formula_and_adds():
    d, n = 6, 12
    table = nn.PositionalEncoding(d, n).pe.data
    for pos in range(n):
        for i in range(d // 2):
            angle = pos / 10000 ** (2 * i / d)
            assert table[pos, 2 * i] == pytest.approx(math.sin(angle), abs=1e-6)
            assert table[pos, 2 * i + 1] == pytest.approx(math.cos(angle), abs=1e-6)
    x = mg.randn(2, 5, d, requires_grad=True)
    pe = nn.PositionalEncoding(d, n)
    y = pe(x)
    np.testing.assert_allclose(y.data, x.data + table[:5], rtol=1e-6)
    y.sum().backward()
    np.testing.assert_array_equal(x.grad, np.ones((2, 5, d)))


def test_positional_encoding_odd_width_and_errors():
    table = nn.PositionalEncoding(5, 3).pe.data
    assert table.shape == (3, 5)
    assert table[2, 4] == pytest.approx(math.sin(2 / 10000 ** (4 / 5)), abs=1e-7)
    pe = nn.PositionalEncoding(4, max_len=8)
    with pytest.raises(ValueError, match="max_len"):
        pe(mg.zeros(1, 9, 4))
    with pytest.raises(ValueError):
        pe(mg.zeros(1, 3, 5))
    x64 = mg.zeros(1, 3, 4, dtype=np.float64)
    assert pe(x64).dtype == np.float64

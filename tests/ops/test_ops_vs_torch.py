"""The ops added for PyTorch users: a float64 gradcheck (Hypothesis) of each, and its values
and gradients against PyTorch on the same inputs.

Each case is one function written once for both libraries (minigrad follows
PyTorch's method names), the number of inputs, and the strategy of their values.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import away_from_zero_arrays, distinct_arrays, float_arrays, leaf, positive_arrays

import minigrad as mg

torch = pytest.importorskip("torch")

S = (2, 3)


def _ids(like, values):
    """An int64 index tensor of the library of ``like`` (torch's ops want torch indices)."""
    return torch.tensor(values) if isinstance(like, torch.Tensor) else mg.tensor(values)


def quarters(shape):
    """Values at odd multiples of 1/4: away from the jumps of floor, round, sign and % 2."""
    return float_arrays(shape).map(lambda x: np.floor(x * 2) / 2 + 0.25)


def halves(shape):
    """0 and +-1/2 (never equal to a ``quarters`` value: no ties for maximum/minimum)."""
    return st.just(np.resize(np.array([0.0, 0.5, -0.5]), shape))


def powers_of_two(shape):
    """Divisors 2, 4, 8...: with ``quarters`` numerators, a / b never lands on an integer."""
    return st.just(2.0 ** (1 + np.arange(int(np.prod(shape))).reshape(shape)))

CASES = {
    # name: (fn(*tensors), input shapes, value strategy)
    "maximum": (lambda a, b: a.maximum(b), [S, (3,)], [quarters, halves]),
    "minimum": (lambda a, b: a.minimum(b), [S, (1, 3)], [quarters, halves]),
    "sin": (lambda a: a.sin(), [S], float_arrays),
    "cos": (lambda a: a.cos(), [S], float_arrays),
    "erf": (lambda a: a.erf(), [S], float_arrays),
    "remainder": (lambda a, b: a % b, [S, (3,)], [quarters, powers_of_two]),
    "remainder_scalar": (lambda a: a % 2.0, [S], quarters),
    "floor_times_x": (lambda a: a.floor() * a + a.round() + a.ceil() + a.trunc() + a.sign(), [S],
                      quarters),
    "std": (lambda a: a.std(1), [S], distinct_arrays),
    "std_all_keepdim": (lambda a: a.std(dim=(0, 1), keepdim=True), [S], distinct_arrays),
    "prod": (lambda a: a.prod(1), [S], away_from_zero_arrays),
    "prod_all": (lambda a: a.prod(), [(2, 2)], away_from_zero_arrays),
    "prod_with_zeros": (lambda a: (a * (a > 0)).prod(1), [S], away_from_zero_arrays),
    "logsumexp": (lambda a: a.logsumexp(-1), [S], float_arrays),
    "cumsum": (lambda a: a.cumsum(1), [S], float_arrays),
    "norm": (lambda a: a.norm(), [S], away_from_zero_arrays),
    "norm_dim": (lambda a: a.norm(dim=1, keepdim=True), [S], away_from_zero_arrays),
    "norm_p1": (lambda a: a.norm(p=1, dim=0), [S], away_from_zero_arrays),
    "norm_p3": (lambda a: a.norm(p=3), [S], positive_arrays),
    "max_dim": (lambda a: a.max(1).values, [S], distinct_arrays),
    "min_dim_keepdim": (lambda a: a.min(0, keepdim=True).values, [S], distinct_arrays),
    "amax": (lambda a: a.amax((0, 1)), [S], distinct_arrays),
    "sort": (lambda a: a.sort(1, descending=True).values * a, [S], distinct_arrays),
    "topk": (lambda a: a.topk(2, dim=1).values, [S], distinct_arrays),
    "topk_smallest": (lambda a: a.topk(1, dim=0, largest=False).values, [S], distinct_arrays),
    "clone": (lambda a: a.clone() * 2, [S], float_arrays),
    "contiguous": (lambda a: a.transpose(0, 1).contiguous(), [S], float_arrays),
    "expand": (lambda a: a.expand(4, 2, 3), [(2, 1)], float_arrays),
    "expand_minus1": (lambda a: a.expand(-1, 3) * 1.5, [(2, 1)], float_arrays),
    "repeat": (lambda a: a.repeat(2, 1, 2), [S], float_arrays),
    "flip": (lambda a: a.flip(0, 1), [S], float_arrays),
    "chunk": (lambda a: a.chunk(2, 1)[1] * 3, [(2, 5)], float_arrays),
    "flatten": (lambda a: a.flatten(1), [(2, 3, 2)], float_arrays),
    "unflatten": (lambda a: a.unflatten(1, (2, 3)), [(2, 6)], float_arrays),
    "masked_select": (lambda a: a.masked_select(a > 0), [S], away_from_zero_arrays),
    "tril_triu": (lambda a: a.tril() + a.triu(1) * 2, [(3, 3)], float_arrays),
    "methods": (lambda a, b: a.add(b, alpha=2).sub(b).mul(a).div(b.abs() + 1).neg().pow(2),
                [S, S], positive_arrays),
    "exp_log_matmul": (lambda a, b: a.exp().matmul(b.abs().log().T), [S, S], positive_arrays),
    "split_dim": (lambda a: a.split(1, dim=1)[2] * 2, [S], float_arrays),
    "softmax_dim": (lambda a: a.softmax(dim=0), [S], float_arrays),
    "index_select": (lambda a: a.index_select(1, _ids(a, [2, 0, 2])), [S], float_arrays),
    "narrow": (lambda a: a.narrow(1, 1, 2) * 2, [S], float_arrays),
    "bmm": (lambda a, b: a.bmm(b), [(2, 2, 3), (2, 3, 2)], float_arrays),
    "outer": (lambda a, b: a.outer(b), [(3,), (2,)], float_arrays),
}


def _values(fn, arrays, lib):
    if lib is torch:
        ts = [torch.tensor(a, requires_grad=True) for a in arrays]
    else:
        ts = [mg.tensor(a, requires_grad=True) for a in arrays]
    return ts, fn(*ts)


@pytest.mark.parametrize("name", sorted(CASES))
@given(data=st.data())
def test_gradcheck_and_pytorch(name, data):
    fn, shapes, strategy = CASES[name]
    strategies = strategy if isinstance(strategy, list) else [strategy] * len(shapes)
    arrays = [data.draw(make(s)) for make, s in zip(strategies, shapes)]
    assert mg.gradcheck(fn, [leaf(a) for a in arrays])
    mts, mout = _values(fn, arrays, mg)
    tts, tout = _values(fn, arrays, torch)
    np.testing.assert_allclose(mout.numpy(), tout.detach().numpy(), rtol=1e-10, atol=1e-12)
    upstream = np.random.default_rng(0).standard_normal(tout.shape)
    mout.backward(mg.tensor(upstream))
    tout.backward(torch.tensor(upstream))
    for m, t in zip(mts, tts):
        np.testing.assert_allclose(np.asarray(m.grad), t.grad.numpy(), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_gather_and_scatter_add_match_pytorch(dim):
    rng = np.random.default_rng(dim + 5)
    a = rng.standard_normal((3, 4))
    index = rng.integers(0, a.shape[dim], size=(2, 3))  # smaller than a in both dims
    src = rng.standard_normal((2, 3))  # torch's backward fails when src is larger than index
    assert mg.gradcheck(lambda x, s: x.scatter_add(dim, index, s),
                        [leaf(a), leaf(rng.standard_normal((3, 4)))])
    assert mg.gradcheck(lambda x: x.gather(dim, index), [leaf(a)])
    assert mg.gradcheck(lambda x, s: x.scatter_add(dim, index, s), [leaf(a), leaf(src)])
    for fn in (lambda lib, x, s: x.gather(dim, lib.tensor(index)) * 2,
               lambda lib, x, s: x.scatter_add(dim, lib.tensor(index), s) ** 2):
        (mx, ms), (tx, ts) = ([lib.tensor(v, requires_grad=True) for v in (a, src)]
                              for lib in (mg, torch))
        mo, to = fn(mg, mx, ms), fn(torch, tx, ts)
        np.testing.assert_allclose(mo.numpy(), to.detach().numpy())
        mo.sum().backward()
        to.sum().backward()
        np.testing.assert_allclose(mx.grad, tx.grad.numpy())
        if ms.grad is not None or ts.grad is not None:
            np.testing.assert_allclose(ms.grad, ts.grad.numpy())


EINSUMS = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    ("bhqd,bhkd->bhqk", [(1, 2, 3, 4), (1, 2, 2, 4)]),
    ("ij->i", [(2, 3)]),
    ("ij->ji", [(2, 3)]),
    ("i,j->ij", [(2,), (3,)]),
    ("i,i->", [(3,), (3,)]),
    ("ij,ij->i", [(2, 3), (2, 3)]),
    ("ij,jk", [(2, 3), (3, 4)]),  # implicit output
    ("...ij,...jk->...ik", [(2, 2, 3), (3, 4)]),
    ("bij,jk->bk", [(2, 2, 3), (3, 4)]),
]


@pytest.mark.parametrize("eq,shapes", EINSUMS)
def test_einsum_matches_pytorch_with_gradients(eq, shapes):
    rng = np.random.default_rng(len(eq))
    arrays = [rng.standard_normal(s) for s in shapes]
    assert mg.gradcheck(lambda *xs: mg.einsum(eq, *xs), [leaf(a) for a in arrays])
    mts = [mg.tensor(a, requires_grad=True) for a in arrays]
    tts = [torch.tensor(a, requires_grad=True) for a in arrays]
    mo, to = mg.einsum(eq, *mts), torch.einsum(eq, *tts)
    np.testing.assert_allclose(mo.numpy(), to.detach().numpy(), rtol=1e-10)
    (mo * mo).sum().backward()
    (to * to).sum().backward()
    for m, t in zip(mts, tts):
        np.testing.assert_allclose(m.grad, t.grad.numpy(), rtol=1e-10)


def test_einsum_refuses_a_wrong_operand_count_clearly():
    # (diagonals, "ii->i", are supported: tests/ops/test_einsum_diagonals.py)
    with pytest.raises(ValueError, match="operands"):
        mg.einsum("ij,jk->ik", mg.ones(2, 2))


def test_floor_divide_and_comparisons_match_pytorch():
    a = np.array([[-3.5, -1.0, 0.0], [0.5, 2.0, 7.25]])
    b = np.array([2.0, -1.5, 0.75])
    for fn in (lambda x, y: x // y, lambda x, y: x % y, lambda x, y: x.div(y, rounding_mode="floor"),
               lambda x, y: x.div(y, rounding_mode="trunc"), lambda x, y: (x > 0) & (y < 1),
               lambda x, y: (x > 0) | (y < 1), lambda x, y: (x > 0) ^ (y < 1), lambda x, y: ~(x > 0),
               lambda x, y: x.logical_and(y), lambda x, y: x.logical_or(y), lambda x, y: x.logical_xor(y),
               lambda x, y: x.logical_not(), lambda x, y: (x / 0).isnan(), lambda x, y: (x / 0).isinf(),
               lambda x, y: (x / 0).isfinite(), lambda x, y: x.eq(0) | x.ne(1) & x.lt(y),
               lambda x, y: x.le(y).logical_or(x.ge(y)), lambda x, y: x.argmin(1),
               lambda x, y: x.argmax(dim=0, keepdim=True), lambda x, y: (x > 0).any(1),
               lambda x, y: (x > -5).all(), lambda x, y: x.argsort(1, descending=True)):
        got = fn(mg.tensor(a), mg.tensor(b))
        want = fn(torch.tensor(a), torch.tensor(b))
        np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_multinomial_draws_by_weight_and_respects_the_seed():
    probs = mg.tensor([[0.0, 1.0, 3.0], [5.0, 0.0, 0.0]])
    mg.manual_seed(3)
    first = mg.multinomial(probs, 1)
    mg.manual_seed(3)
    assert np.array_equal(first.numpy(), mg.multinomial(probs, 1).numpy())
    assert first.shape == (2, 1) and first.dtype == np.int64 and first.numpy()[1, 0] == 0
    two = mg.multinomial(probs[0], 2)  # without replacement: both nonzero classes, once each
    assert sorted(two.tolist()) == [1, 2]
    counts = np.bincount(mg.multinomial(mg.tensor([1.0, 3.0]), 4000, replacement=True).numpy(),
                         minlength=2)
    assert 0.7 < counts[1] / 4000 < 0.8
    with pytest.raises(ValueError, match="without replacement"):
        mg.multinomial(probs, 3)
    with pytest.raises(ValueError, match="not a distribution"):
        mg.multinomial(mg.tensor([np.nan, 1.0]), 1)

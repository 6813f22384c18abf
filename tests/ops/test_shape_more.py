"""Issue 27's shape, reduction and linear-algebra ops: cumprod, cummax, cummin,
logcumsumexp, roll, scatter, scatter_reduce, repeat_interleave, unbind, movedim, tile,
hstack, vstack, diag, diagonal, meshgrid, broadcast_to, mm, addmm, baddbmm, dot, mv,
var_mean, std_mean.

Values against NumPy written out here (no torch needed), first and second derivatives
against finite differences (``gradcheck``, ``gradgradcheck``) at the hard points (ties,
zeros, repeated indices, 0-d and empty tensors), views that write through and share the
version counter, and the errors. Comparisons with PyTorch itself run when it is installed
(and every PyTorch OpInfo sample of these ops runs in tests/opinfo).
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad import gradcheck, gradgradcheck

try:
    import torch
except ImportError:  # the README's default set-up
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")


def leaf(x):
    return mg.tensor(np.asarray(x, dtype=np.float64), requires_grad=True)


def rnd(*shape, seed=0, lo=-1.5, hi=1.5):
    return np.random.default_rng(seed).uniform(lo, hi, shape)


def check_grads(fn, *arrays):
    """gradcheck and gradgradcheck of fn at float64 leaves made from ``arrays``."""
    assert gradcheck(fn, [leaf(a) for a in arrays])
    assert gradgradcheck(fn, [leaf(a) for a in arrays])


# ---- running ops ---------------------------------------------------------------------------
@pytest.mark.parametrize("dim", [0, 1, -1])
def test_cumprod_values_and_gradients(dim):
    a = rnd(3, 4)
    np.testing.assert_allclose(mg.cumprod(mg.tensor(a), dim).numpy(), np.cumprod(a, axis=dim))
    check_grads(lambda x: x.cumprod(dim), a)


@pytest.mark.parametrize("a", [
    [0.0, 1.5, -2.0, 0.5],               # a leading zero
    [1.5, 0.0, -2.0, 0.0],               # two zeros
    [[0.5, 2.0, 0.0], [0.0, 0.0, 0.0]],  # a row of zeros
])
def test_cumprod_gradient_is_exact_with_zeros(a):
    """The division formula (out / a) would give 0/0 = nan here."""
    a = np.asarray(a)
    check_grads(lambda x: x.cumprod(-1), a)
    x = leaf(a)
    x.cumprod(-1).sum().backward()
    assert np.isfinite(x.grad.numpy()).all()
    # d/da_i sum_j prod_{k<=j} a_k, term by term
    flat = a.reshape(-1, a.shape[-1])
    want = np.zeros_like(flat)
    for r, row in enumerate(flat):
        for i in range(len(row)):
            for j in range(i, len(row)):
                want[r, i] += np.prod(np.delete(row[: j + 1], i))
    np.testing.assert_allclose(x.grad.numpy(), want.reshape(a.shape))


def test_cumprod_integers_multiply_in_int64_and_dtype_keyword():
    x = mg.tensor(np.array([2, 3, 4], dtype=np.int32))
    assert mg.cumprod(x, 0).dtype == np.int64
    np.testing.assert_array_equal(mg.cumprod(x, 0).numpy(), [2, 6, 24])
    assert x.cumprod(0, dtype=mg.float64).dtype == np.float64


def _logcumsumexp(a, axis):
    return np.log(np.cumsum(np.exp(a), axis=axis))


@pytest.mark.parametrize("dim", [0, -1])
def test_logcumsumexp_values_and_gradients(dim):
    a = rnd(3, 4, seed=1)
    np.testing.assert_allclose(mg.logcumsumexp(mg.tensor(a), dim).numpy(), _logcumsumexp(a, dim))
    check_grads(lambda x: x.logcumsumexp(dim), a)


def test_logcumsumexp_does_not_overflow():
    a = np.array([1000.0, 1000.0, -1000.0, 2000.0])
    x = leaf(a)
    out = x.logcumsumexp(0)
    np.testing.assert_allclose(out.numpy(), [1000.0, 1000.0 + np.log(2), 1000.0 + np.log(2),
                                             2000.0])
    out.sum().backward()
    # d out_j/d a_i = exp(a_i - out_j): the first two share out_0, out_1, out_2 equally
    np.testing.assert_allclose(x.grad.numpy(), [1.0 + 0.5 + 0.5, 1.0, 0.0, 1.0], atol=1e-12)


def _running(a, axis, largest):
    """cummax/cummin by a loop: the later index wins a tie."""
    a = np.moveaxis(a, axis, -1)
    vals, idx = np.empty_like(a), np.empty(a.shape, np.int64)
    for pos in np.ndindex(a.shape[:-1]):
        best = 0
        for j in range(a.shape[-1]):
            x = a[pos + (j,)]
            if (x >= a[pos + (best,)]) if largest else (x <= a[pos + (best,)]):
                best = j
            vals[pos + (j,)], idx[pos + (j,)] = a[pos + (best,)], best
    return np.moveaxis(vals, -1, axis), np.moveaxis(idx, -1, axis)


@pytest.mark.parametrize("name", ["cummax", "cummin"])
@pytest.mark.parametrize("dim", [0, 1])
def test_cummax_cummin_values_indices_with_ties(name, dim):
    a = np.array([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, 1.0, 2.0], [2.0, -1.0, 3.0, 0.0]])
    values, indices = getattr(mg, name)(mg.tensor(a), dim)
    want_v, want_i = _running(a, dim, name == "cummax")
    np.testing.assert_array_equal(values.numpy(), want_v)
    np.testing.assert_array_equal(indices.numpy(), want_i)
    assert indices.dtype == np.int64


@pytest.mark.parametrize("name", ["cummax", "cummin"])
def test_cummax_cummin_gradients(name):
    check_grads(lambda x: getattr(x, name)(1).values, rnd(3, 4, seed=2))
    # ties that stay ties when x moves: [x, x] along the dim; the later copy is chosen, and
    # since both copies are x the derivative is smooth and finite differences see it
    check_grads(lambda x: getattr(mg.stack([x, x * 1.0], 1), name)(1).values ** 2,
                rnd(2, 3, seed=3))


def test_cummax_gradient_goes_to_the_chosen_index():
    x = leaf([1.0, 3.0, 3.0, 2.0])
    x.cummax(0).values.backward(mg.tensor(np.array([1.0, 10.0, 100.0, 1000.0])))
    np.testing.assert_array_equal(x.grad.numpy(), [1.0, 10.0, 1100.0, 0.0])


def test_cummax_nan_propagates():
    v, i = mg.cummax(mg.tensor(np.array([1.0, np.nan, 5.0, np.nan])), 0)
    np.testing.assert_array_equal(v.numpy(), [1.0, np.nan, np.nan, np.nan])
    np.testing.assert_array_equal(i.numpy(), [0, 1, 1, 3])


@pytest.mark.parametrize("op", ["cumprod", "logcumsumexp", "cummax", "cummin", "cumsum"])
def test_running_ops_of_0d_and_empty_tensors(op):
    def f(x):
        out = getattr(x, op)(0)
        return out.values if op in ("cummax", "cummin") else out

    x = leaf(1.25)
    out = f(x)
    assert out.shape == ()
    check_grads(f, np.array(0.75))
    check_grads(lambda x: getattr(x, op)(-1) if op not in ("cummax", "cummin") else
                getattr(x, op)(-1).values, np.array(-0.5))
    e = f(leaf(np.zeros((0, 3))))
    assert e.shape == (0, 3)
    e.sum().backward()
    with pytest.raises(IndexError, match="out of range"):
        getattr(leaf(np.ones(3)), op)(1)


# ---- scatter, scatter_reduce --------------------------------------------------------------
def test_scatter_values_src_and_value_forms():
    a = np.zeros((3, 4))
    index = np.array([[0, 3], [2, 1], [1, 1]])
    src = np.arange(12.0).reshape(3, 4)
    out = mg.scatter(mg.tensor(a), 1, mg.tensor(index), mg.tensor(src))
    want = a.copy()
    for i in range(3):
        for j in range(2):
            want[i, index[i, j]] = src[i, j]
    np.testing.assert_array_equal(out.numpy(), want)
    v = mg.tensor(a).scatter(0, np.array([[2, 0, 1, 0]]), value=7.0)
    np.testing.assert_array_equal(v.numpy(), [[0, 7, 0, 7], [0, 0, 7, 0], [7, 0, 0, 0]])
    assert np.array_equal(mg.scatter(mg.tensor(a), 0, np.array([[2, 0, 1, 0]]), 7.0).numpy(),
                          v.numpy())


def test_scatter_gradients():
    index = np.array([[0, 3], [2, 1], [1, 0]])  # no repeats within a row: a smooth function
    check_grads(lambda x, s: (x * x).scatter(1, index, s * x[:, :3]), rnd(3, 4), rnd(3, 3, seed=1))


def test_scatter_reduce_add_multiply_forms():
    a, index, src = rnd(2, 3), np.array([[0, 0], [2, 1]]), rnd(2, 2, seed=1)
    x = mg.tensor(a)
    np.testing.assert_allclose(x.scatter(1, index, mg.tensor(src), reduce="add").numpy(),
                               x.scatter_reduce(1, index, mg.tensor(src), "sum").numpy())
    np.testing.assert_allclose(x.scatter(1, index, mg.tensor(src), reduce="multiply").numpy(),
                               x.scatter_reduce(1, index, mg.tensor(src), "prod").numpy())


def _scatter_reduce_loop(a, dim, index, src, reduce, include_self):
    """PyTorch's scatter_reduce by a loop over index's elements (2-d)."""
    groups = {pos: ([a[pos]] if include_self else []) for pos in np.ndindex(a.shape)}
    for i, j in np.ndindex(index.shape):
        pos = (index[i, j], j) if dim == 0 else (i, index[i, j])
        groups[pos].append(src[i, j])
    sent = {pos for i, j in np.ndindex(index.shape)
            for pos in [(index[i, j], j) if dim == 0 else (i, index[i, j])]}
    fn = {"sum": np.sum, "prod": np.prod, "mean": np.mean, "amax": np.max, "amin": np.min}
    out = a.copy()
    for pos in sent:
        out[pos] = fn[reduce](groups[pos])
    return out


REDUCES = ["sum", "prod", "mean", "amax", "amin"]
INDEX = np.array([[0, 0, 2], [1, 2, 1], [0, 0, 0]])  # repeats; position (x, 1) of dim 1 unhit


@pytest.mark.parametrize("reduce", REDUCES)
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("dim", [0, 1])
def test_scatter_reduce_values_and_gradients(reduce, include_self, dim):
    a, src = rnd(3, 3), rnd(3, 3, seed=1)
    out = mg.scatter_reduce(mg.tensor(a), dim, INDEX, mg.tensor(src), reduce,
                            include_self=include_self)
    np.testing.assert_allclose(out.numpy(),
                               _scatter_reduce_loop(a, dim, INDEX, src, reduce, include_self))
    check_grads(lambda x, s: x.scatter_reduce(dim, INDEX, s, reduce, include_self=include_self),
                a, src)


@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_prod_gradient_is_exact_with_a_zero(include_self):
    a = np.array([[0.0, 2.0, 1.5]])
    src = np.array([[0.5, -2.0, 3.0, 0.0]])
    index = np.array([[0, 0, 2, 1]])  # position 0: a's zero (when included), 0.5, -2.0
    check_grads(lambda x, s: x.scatter_reduce(1, index, s, "prod", include_self=include_self),
                a, src)


def test_scatter_reduce_prod_refuses_double_backward_with_two_zeros_of_src_at_a_position():
    """One zero of src with a zero of the tensor is fine (second derivatives included); two
    zeros of src at one position have no second derivative here, as in PyTorch."""
    check_grads(lambda x, s: x.scatter_reduce(1, np.array([[0, 0]]), s, "prod"),
                np.array([[0.0, 1.0]]), np.array([[0.0, 2.0]]))
    x, s = leaf([[1.5, 1.0]]), leaf([[0.0, 0.0, 2.0]])
    index = np.array([[0, 0, 1]])
    g = mg.autograd.grad(x.scatter_reduce(1, index, s, "prod").sum(), [x, s])
    np.testing.assert_array_equal(g[0].numpy(), [[0.0, 2.0]])  # first derivatives are fine
    np.testing.assert_array_equal(g[1].numpy(), [[0.0, 0.0, 1.0]])
    with pytest.raises(RuntimeError, match="two or more zeros"):
        mg.autograd.grad(x.scatter_reduce(1, index, s, "prod").sum(), [x, s], create_graph=True)


def test_scatter_reduce_amax_ties_share_the_gradient():
    x, s = leaf([[1.0, 5.0]]), leaf([[1.0, 1.0, 0.0]])
    out = x.scatter_reduce(1, np.array([[0, 0, 1]]), s, "amax")
    out.backward(mg.tensor(np.array([[3.0, 1.0]])))
    np.testing.assert_allclose(x.grad.numpy(), [[1.0, 1.0]])      # 3 shared by three equal members
    np.testing.assert_allclose(s.grad.numpy(), [[1.0, 1.0, 0.0]])


def test_scatter_reduce_amax_without_self_ignores_self_even_where_equal():
    """include_self=False: the tensor's value is no member, so src's 2.0 is the maximum alone
    and gets the whole gradient (finite differences agree). PyTorch 2.13 still counts the
    equal self value as a tie and gives src half (a deliberate difference)."""
    x, s = leaf([[2.0, 1.0]]), leaf([[2.0, 0.5]])
    out = x.scatter_reduce(1, np.array([[0, 0]]), s, "amax", include_self=False)
    out.backward(mg.tensor(np.array([[1.0, 1.0]])))
    np.testing.assert_array_equal(s.grad.numpy(), [[1.0, 0.0]])
    np.testing.assert_array_equal(x.grad.numpy(), [[0.0, 1.0]])
    assert gradcheck(lambda s: mg.tensor(np.array([[2.0, 1.0]])).scatter_reduce(
        1, np.array([[0, 0]]), s, "amax", include_self=False), [leaf([[2.0, 0.5]])])


def test_scatter_reduce_integer_mean_rounds_down():
    x = mg.tensor(np.array([1, 2, 3]))
    out = x.scatter_reduce(0, np.array([0, 0]), mg.tensor(np.array([4, 6])), "mean")
    np.testing.assert_array_equal(out.numpy(), [3, 2, 3])  # (1 + 4 + 6) // 3


def test_scatter_of_0d_and_empty_tensors():
    x, s = leaf(2.0), leaf(5.0)
    assert mg.scatter(x, 0, np.array(0), s).item() == 5.0
    check_grads(lambda x, s: x.scatter_reduce(0, np.array(0), s, "prod"), np.array(2.0),
                np.array(5.0))
    e = leaf(np.zeros((2, 0)))
    out = e.scatter_reduce(1, np.zeros((2, 0), np.int64), leaf(np.zeros((2, 0))), "sum")
    assert out.shape == (2, 0)


def test_scatter_errors():
    x = mg.tensor(np.zeros((2, 3)))
    with pytest.raises(IndexError, match=r"index values must lie in \[-3, 3\)"):
        x.scatter(1, np.array([[3]]), value=1.0)
    with pytest.raises(ValueError, match="reduce must be one of"):
        x.scatter_reduce(1, np.array([[0]]), x, "max")
    with pytest.raises(TypeError, match="src has dtype int64"):
        x.scatter(1, np.array([[0]]), mg.tensor(np.array([[1]])))
    with pytest.raises(ValueError, match="exceeds src shape"):
        x.scatter(1, np.array([[0, 1]]), mg.tensor(np.zeros((1, 1))))
    with pytest.raises(IndexError, match="out of range"):
        x.scatter(2, np.array([[0]]), value=1.0)


# ---- composed shapes ---------------------------------------------------------------------
@pytest.mark.parametrize("shifts, dims", [(1, 0), (-2, 1), ((1, 5), (0, 1)), (7, None),
                                          ((2, 2), (1, 1))])
def test_roll(shifts, dims):
    a = rnd(3, 4)
    np.testing.assert_array_equal(mg.roll(mg.tensor(a), shifts, dims).numpy(),
                                  np.roll(a, shifts, dims))
    check_grads(lambda x: x.roll(shifts, dims) * x, a)


def test_roll_0d_empty_and_zero_shift_is_a_copy():
    x = leaf(1.5)
    assert x.roll(3).item() == 1.5 and x.roll(1, 0).shape == ()
    assert mg.roll(leaf(np.zeros((0, 2))), 1, 0).shape == (0, 2)
    y = leaf([1.0, 2.0])
    z = y.roll(2, 0)
    assert z is not y and not np.shares_memory(z.numpy(), y.numpy())
    with pytest.raises(ValueError, match="2 shifts for 1 dims"):
        y.roll((1, 2), 0)


@pytest.mark.parametrize("repeats, dim", [(2, None), (2, 0), (np.array([1, 0, 3]), 1),
                                          (mg.tensor([2]), 1)])
def test_repeat_interleave(repeats, dim):
    a = rnd(2, 3)
    want = np.repeat(a, np.asarray(getattr(repeats, "data", repeats)), axis=dim)
    np.testing.assert_array_equal(mg.repeat_interleave(mg.tensor(a), repeats, dim).numpy(), want)
    check_grads(lambda x: x.repeat_interleave(repeats, dim) ** 2, a)


def test_repeat_interleave_errors_and_0d():
    assert mg.repeat_interleave(leaf(2.0), 3).shape == (3,)
    x = mg.tensor(np.ones((2, 3)))
    with pytest.raises(ValueError, match="one int or one per slice"):
        x.repeat_interleave(np.array([1, 2]), 1)
    with pytest.raises(ValueError, match="non-negative"):
        x.repeat_interleave(-1, 0)
    with pytest.raises(ValueError, match="output_size=5"):
        x.repeat_interleave(2, 0, output_size=5)


def test_unbind_movedim_tile_broadcast_to_values_and_gradients():
    a = rnd(2, 3, 4)
    parts = mg.unbind(mg.tensor(a), 1)
    assert len(parts) == 3 and all(np.array_equal(p.numpy(), a[:, k]) for k, p in enumerate(parts))
    check_grads(lambda x: mg.stack(x.unbind(-1), 0) * x.unbind(0)[1].sum(), a)
    for src, dst in [(0, 2), (-1, 0), ((0, 1), (2, 0))]:
        np.testing.assert_array_equal(mg.movedim(mg.tensor(a), src, dst).numpy(),
                                      np.moveaxis(a, src, dst))
        check_grads(lambda x, src=src, dst=dst: x.movedim(src, dst) ** 2, a)
    np.testing.assert_array_equal(mg.moveaxis(mg.tensor(a), 0, 1).numpy(), np.moveaxis(a, 0, 1))
    for dims in [(2,), (1, 2, 1), (2, 1, 1, 2)]:
        np.testing.assert_array_equal(mg.tile(mg.tensor(a), dims).numpy(), np.tile(a, dims))
        check_grads(lambda x, dims=dims: x.tile(dims) ** 2, a)
    b = rnd(3, 1)
    np.testing.assert_array_equal(mg.broadcast_to(mg.tensor(b), (2, 3, 4)).numpy(),
                                  np.broadcast_to(b, (2, 3, 4)))
    check_grads(lambda x: x.broadcast_to(2, -1, 4) ** 2, b)


def test_composed_shapes_of_0d_and_empty_tensors():
    z = leaf(3.0)
    assert z.movedim(0, 0).shape == () and z.tile(2).shape == (2,) and z.tile(()).shape == ()
    with pytest.raises(IndexError, match="0-d"):
        z.unbind()
    e = leaf(np.zeros((0, 3)))
    assert e.unbind(0) == () and len(e.unbind(1)) == 3 and e.unbind(1)[0].shape == (0,)
    assert e.movedim(0, 1).shape == (3, 0) and e.tile(2, 1).shape == (0, 3)


def test_hstack_vstack():
    a, b = rnd(2, 3), rnd(2, 1, seed=1)
    np.testing.assert_array_equal(mg.hstack([mg.tensor(a), mg.tensor(b)]).numpy(),
                                  np.hstack([a, b]))
    u, v = rnd(3), rnd(2, seed=1)
    np.testing.assert_array_equal(mg.hstack([mg.tensor(u), mg.tensor(v)]).numpy(), np.hstack([u, v]))
    np.testing.assert_array_equal(mg.vstack([mg.tensor(u), mg.tensor(a)]).numpy(), np.vstack([u, a]))
    np.testing.assert_array_equal(mg.vstack([mg.tensor(2.0), mg.tensor(np.array([[1.0]]))]).numpy(),
                                  [[2.0], [1.0]])
    check_grads(lambda x, y: mg.hstack([x, y]) ** 2, a, b)
    check_grads(lambda x, y: mg.vstack([x, y]) ** 2, u, a)
    with pytest.raises(ValueError, match="at least one"):
        mg.vstack([])
    with pytest.raises(ValueError, match="do not match"):
        mg.vstack([mg.tensor(u), mg.tensor(v)])


@pytest.mark.parametrize("indexing", ["ij", "xy"])
def test_meshgrid(indexing):
    u, v, w = rnd(2), rnd(3, seed=1), rnd(4, seed=2)
    outs = mg.meshgrid(mg.tensor(u), mg.tensor(v), mg.tensor(w), indexing=indexing)
    for o, want in zip(outs, np.meshgrid(u, v, w, indexing=indexing)):
        np.testing.assert_array_equal(o.numpy(), want)
    assert [o.shape for o in mg.meshgrid([mg.tensor(u), mg.tensor(v)], indexing=indexing)] == \
        [(2, 3) if indexing == "ij" else (3, 2)] * 2
    check_grads(lambda x, y: mg.meshgrid(x, y, indexing=indexing)[0] *
                mg.meshgrid(x, y, indexing=indexing)[1] ** 2, u, v)
    assert mg.meshgrid(mg.tensor(1.0), mg.tensor(v))[0].shape == (1, 3)
    with pytest.raises(ValueError, match="0-d or 1-d"):
        mg.meshgrid(mg.tensor(np.ones((2, 2))))
    with pytest.raises(ValueError, match="'ij' or 'xy'"):
        mg.meshgrid(mg.tensor(u), indexing="xx")


# ---- diagonals -----------------------------------------------------------------------------
@pytest.mark.parametrize("offset", [0, 1, -2, 5])
def test_diag_both_ways(offset):
    v = rnd(3)
    np.testing.assert_array_equal(mg.diag(mg.tensor(v), offset).numpy(), np.diag(v, offset))
    check_grads(lambda x: x.diag(offset) ** 2, v)
    m = rnd(3, 4)
    np.testing.assert_array_equal(mg.diag(mg.tensor(m), offset).numpy(), np.diag(m, offset))
    check_grads(lambda x: x.diag(offset) ** 2, m)


@pytest.mark.parametrize("offset, dim1, dim2", [(0, 0, 1), (1, 0, 2), (-1, 2, 0), (0, -1, -2),
                                                (4, 1, 2)])
def test_diagonal(offset, dim1, dim2):
    a = rnd(3, 4, 5)
    np.testing.assert_array_equal(mg.diagonal(mg.tensor(a), offset, dim1, dim2).numpy(),
                                  np.diagonal(a, offset, dim1, dim2))
    check_grads(lambda x: x.diagonal(offset, dim1, dim2) ** 2, a)
    check_grads(lambda x: x.T.diagonal(offset, dim1, dim2) ** 2, a)  # a non-contiguous input


def test_diag_diagonal_errors():
    with pytest.raises(ValueError, match="1-d or 2-d"):
        mg.diag(mg.tensor(np.ones((2, 2, 2))))
    with pytest.raises(ValueError, match="at least 2 dims"):
        mg.diagonal(mg.tensor(np.ones(3)))
    with pytest.raises(ValueError, match="same dimension"):
        mg.diagonal(mg.tensor(np.ones((2, 2))), 0, 1, -1)
    with pytest.raises(IndexError, match="out of range"):
        mg.diagonal(mg.tensor(np.ones((2, 2))), 0, 0, 2)


# ---- views: writes go through and bump the base's version counter ---------------------------
VIEWS = {
    "movedim": lambda b: b.movedim(0, 1),
    "diagonal": lambda b: b.diagonal(),
    "unbind": lambda b: b.unbind(1)[2],
}


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_a_write_through_a_view_reaches_the_base_and_its_version(name):
    x = leaf(rnd(3, 4) + 2.0)
    b = x * 1.0
    s = (b * b).sum()           # saves b
    v = VIEWS[name](b)
    assert np.shares_memory(v.numpy(), b.numpy()) and v._version == b._version
    before = b._version
    with mg.no_grad():
        v.add_(5.0)
    assert b._version == before + 1
    np.testing.assert_array_equal(VIEWS[name](b).numpy(), v.numpy())  # the base changed too
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        s.backward()


def test_diagonal_fill_sets_the_matrix_diagonal():
    m = mg.zeros(3, 3)
    m.diagonal().fill_(1.0)
    np.testing.assert_array_equal(m.numpy(), np.eye(3))


def test_broadcast_views_are_read_only():
    b = mg.tensor(rnd(3, 1))
    for v in (b.broadcast_to(3, 4), mg.meshgrid(mg.tensor(rnd(3)), mg.tensor(rnd(2)))[0]):
        assert not v.numpy().flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            v.add_(1.0)


# ---- fixed-rank products -------------------------------------------------------------------
def test_products_values_and_gradients():
    a, b, c = rnd(2, 3), rnd(3, 4, seed=1), rnd(2, 4, seed=2)
    np.testing.assert_allclose(mg.mm(mg.tensor(a), mg.tensor(b)).numpy(), a @ b)
    check_grads(lambda x, y: x.mm(y) ** 2, a, b)
    u, v = rnd(3, seed=3), rnd(3, seed=4)
    np.testing.assert_allclose(mg.mv(mg.tensor(a), mg.tensor(u)).numpy(), a @ u)
    check_grads(lambda x, y: x.mv(y) ** 2, a, u)
    d = mg.dot(mg.tensor(u), mg.tensor(v))
    assert d.shape == () and np.isclose(d.item(), u @ v)
    check_grads(lambda x, y: x.dot(y) ** 2, u, v)
    np.testing.assert_allclose(mg.addmm(mg.tensor(c), mg.tensor(a), mg.tensor(b), beta=0.5,
                                        alpha=2.0).numpy(), 0.5 * c + 2.0 * (a @ b))
    check_grads(lambda i, x, y: i.addmm(x, y, beta=0.5, alpha=-2.0) ** 2, c[0], a, b)
    p, q, r = rnd(2, 2, 3), rnd(2, 3, 2, seed=1), rnd(2, 1, 2, seed=2)
    np.testing.assert_allclose(mg.baddbmm(mg.tensor(r), mg.tensor(p), mg.tensor(q), beta=2.0,
                                          alpha=0.5).numpy(), 2.0 * r + 0.5 * (p @ q))
    check_grads(lambda i, x, y: i.baddbmm(x, y, alpha=3.0) ** 2, r, p, q)


def test_addmm_beta_zero_ignores_nan_in_input():
    out = mg.addmm(mg.tensor(np.full((2, 2), np.nan)), mg.eye(2, dtype=mg.float64),
                   mg.tensor(np.ones((2, 2))), beta=0)
    np.testing.assert_array_equal(out.numpy(), np.ones((2, 2)))


def test_products_name_both_shapes():
    a, b = mg.tensor(np.ones((2, 3))), mg.tensor(np.ones((4, 5)))
    with pytest.raises(ValueError, match=r"mm: shapes \(2, 3\) and \(4, 5\) cannot be multiplied"):
        mg.mm(a, b)
    with pytest.raises(ValueError, match=r"mm: needs two 2-d tensors, got shapes \(3,\)"):
        mg.mm(mg.tensor(np.ones(3)), b)
    with pytest.raises(ValueError, match=r"mv: shapes \(2, 3\) and \(4,\)"):
        mg.mv(a, mg.tensor(np.ones(4)))
    with pytest.raises(ValueError, match=r"dot: shapes \(3,\) and \(4,\)"):
        mg.dot(mg.tensor(np.ones(3)), mg.tensor(np.ones(4)))
    with pytest.raises(ValueError, match=r"bmm: needs \(B, n, m\)"):
        mg.baddbmm(mg.tensor(np.ones((2, 2, 2))), a, b)
    with pytest.raises(ValueError, match=r"addmm: input of shape \(3, 3\) does not broadcast"):
        mg.addmm(mg.tensor(np.ones((3, 3))), a, mg.tensor(np.ones((3, 2))))
    with pytest.raises(TypeError, match="floating-point"):
        mg.mm(mg.tensor(np.ones((2, 2), np.int64)), mg.tensor(np.ones((2, 2), np.int64)))


def test_products_of_empty_tensors():
    out = mg.mm(leaf(np.ones((2, 0))), leaf(np.ones((0, 3))))
    np.testing.assert_array_equal(out.numpy(), np.zeros((2, 3)))
    assert mg.dot(leaf(np.ones(0)), leaf(np.ones(0))).item() == 0.0
    check_grads(lambda x, y: x.mm(y), np.ones((2, 0)), np.ones((0, 3)))


# ---- var_mean, std_mean --------------------------------------------------------------------
def test_var_mean_std_mean():
    a = rnd(3, 4)
    x = mg.tensor(a)
    v, m = mg.var_mean(x, 1)
    np.testing.assert_allclose(v.numpy(), a.var(1, ddof=1))
    np.testing.assert_allclose(m.numpy(), a.mean(1))
    v, m = mg.var_mean(x, 0, False, True)  # PyTorch's positional (dim, unbiased, keepdim)
    np.testing.assert_allclose(v.numpy(), a.var(0, keepdims=True))
    assert m.shape == (1, 4)
    np.testing.assert_allclose(mg.var_mean(x, False)[0].numpy(), a.var())
    s, m = mg.std_mean(x, (0, 1), correction=None)
    np.testing.assert_allclose(s.numpy(), a.std(ddof=1))
    np.testing.assert_allclose(mg.std_mean(x, 1, correction=2)[0].numpy(), a.std(1, ddof=2))
    check_grads(lambda t: mg.var_mean(t, 1, correction=0), a)
    check_grads(lambda t: mg.std_mean(t, 0, keepdim=True), a)
    with pytest.raises(TypeError, match="not both"):
        mg.var_mean(x, 0, True, correction=1)


# ---- against PyTorch -----------------------------------------------------------------------
@needs_torch
@pytest.mark.parametrize("name", ["cummax", "cummin"])
def test_running_extrema_match_torch_with_ties_and_nan(name):
    a = np.array([[1.0, 3.0, 3.0, 0.0, 3.0], [2.0, np.nan, 1.0, np.nan, 5.0]])
    for dim in (0, 1):
        tv, ti = getattr(torch, name)(torch.tensor(a), dim)
        mv, mi = getattr(mg, name)(mg.tensor(a), dim)
        np.testing.assert_array_equal(mv.numpy(), tv.numpy())
        np.testing.assert_array_equal(mi.numpy(), ti.numpy())
    t = torch.tensor(a[:1], requires_grad=True)
    getattr(torch, name)(t, 1).values.sum().backward()
    x = leaf(a[:1])
    getattr(mg, name)(x, 1).values.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), t.grad.numpy())


@needs_torch
@pytest.mark.parametrize("reduce", REDUCES)
@pytest.mark.parametrize("include_self", [True, False])
def test_scatter_reduce_matches_torch_with_ties_and_zeros(reduce, include_self):
    a = np.array([[0.0, 2.5, 1.0], [3.5, 0.0, -1.0]])
    src = np.array([[2.0, 2.0, 2.0, 5.0], [1.0, 3.0, 0.0, -1.0]])
    index = np.array([[0, 1, 1, 2], [1, 1, 0, 1]])
    w = np.random.default_rng(0).standard_normal(a.shape)
    ta, ts = torch.tensor(a, requires_grad=True), torch.tensor(src, requires_grad=True)
    tout = ta.scatter_reduce(1, torch.tensor(index), ts, reduce, include_self=include_self)
    (tout * torch.tensor(w)).sum().backward()
    ma, ms = leaf(a), leaf(src)
    mout = ma.scatter_reduce(1, index, ms, reduce, include_self=include_self)
    (mout * mg.tensor(w)).sum().backward()
    np.testing.assert_allclose(mout.numpy(), tout.detach().numpy())
    np.testing.assert_allclose(ma.grad.numpy(), ta.grad.numpy(), atol=1e-12)
    np.testing.assert_allclose(ms.grad.numpy(), ts.grad.numpy(), atol=1e-12)


@needs_torch
def test_cumprod_with_zeros_and_logcumsumexp_match_torch():
    a = np.array([[0.5, 0.0, 2.0, -1.0], [0.0, 0.0, 3.0, 1.0]])
    for name in ("cumprod", "logcumsumexp"):
        t = torch.tensor(a, requires_grad=True)
        getattr(torch, name)(t, 1).pow(2).sum().backward()
        x = leaf(a)
        (getattr(mg, name)(x, 1) ** 2).sum().backward()
        np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=1e-12, atol=1e-12)


def test_cumprod_second_derivative_of_tiny_values():
    # Hypothesis found it: through the division form, d/da of (a * rest) / a cancels two
    # terms of size rest / a (here 1e36) and the second derivative came out as -2.3e18
    import minigrad as _mg
    from minigrad import gradgradcheck as _ggc

    x = _mg.tensor(np.array([[2.50851102e-36, 0.7], [1e-30, 3.0]]), requires_grad=True)
    assert _ggc(lambda t: t.cumprod(1), (x,))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_cumprod_gradient_where_the_product_underflows(dtype):
    # Hypothesis found it through prod's backward (a cumprod of [1, 5e-324]): the division
    # form (g * out) / a lost the answer when g * out underflowed to 0 (0 / a = 0, not g)
    tiny = np.finfo(dtype).smallest_subnormal
    a = np.array([[1.0, tiny, 3.0], [0.5, 0.25, 2.0]], dtype=dtype)
    g = np.array([[-0.35, 0.6, 0.1], [1.0, -2.0, 0.5]], dtype=dtype)
    x = mg.tensor(a, requires_grad=True)
    x.cumprod(1).backward(mg.tensor(g))
    # d(sum_j g_j out_j)/da_i = sum_{j >= i} g_j prod_{k <= j, k != i} a_k, in float64
    a64, g64 = a.astype(np.float64), g.astype(np.float64)
    want = np.zeros_like(a64)
    for r in range(2):
        for i in range(3):
            want[r, i] = sum(g64[r, j] * np.prod(np.delete(a64[r, :j + 1], i))
                             for j in range(i, 3))
    # (a true value below the dtype's smallest normal number may round to 0: atol covers it)
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-6, atol=np.finfo(dtype).tiny)
    assert x.grad.numpy()[0, 1] != 0  # the lost term: g_1 + g_2 * 3 = 0.9

"""PyTorch's argument rules, checked as tables: dims in range, where indexed dims land,
``view(dtype)``, and which dtypes a factory can generate.

Each table is torch-free (the expected answers are PyTorch 2.13's, written out); where torch
is installed the same rows are also run against it, so a row that drifts from PyTorch fails.
"""

import numpy as np
import pytest

import minigrad as mg

# ---- dims: [-n, n) or IndexError, for every op that takes one -------------------------
DIM_OPS = {
    "unsqueeze": lambda t, d: t.unsqueeze(d),       # takes [-(n+1), n]
    "flatten start": lambda t, d: t.flatten(d),
    "flatten end": lambda t, d: t.flatten(0, d),
    "softmax": lambda t, d: t.softmax(d),
    "log_softmax": lambda t, d: t.log_softmax(d),
    "sum": lambda t, d: t.sum(d),
    "mean": lambda t, d: t.mean(d),
    "logsumexp": lambda t, d: t.logsumexp(d),
    "cumsum": lambda t, d: t.cumsum(d),
    "transpose": lambda t, d: t.transpose(0, d),
    "squeeze": lambda t, d: t.squeeze(d),
    "narrow": lambda t, d: t.narrow(d, 0, 1),
    "flip": lambda t, d: t.flip(d),
    "argmax": lambda t, d: t.argmax(d),
    "split": lambda t, d: t.split(1, d),
}
IN_RANGE = {"unsqueeze": (-3, 2)}  # (lowest, highest) valid dim of a 2-d tensor


@pytest.mark.parametrize("name", DIM_OPS)
@pytest.mark.parametrize("dim", [-4, -3, -2, -1, 0, 1, 2, 3, 5])
def test_a_dim_out_of_range_raises_index_error(name, dim):
    lo, hi = IN_RANGE.get(name, (-2, 1))
    x = mg.randn(2, 3)
    if lo <= dim <= hi:
        DIM_OPS[name](x, dim)
    else:
        with pytest.raises(IndexError, match=str(dim)):
            DIM_OPS[name](x, dim)


@pytest.mark.parametrize("name", DIM_OPS)
@pytest.mark.parametrize("dim", [-4, -3, 2, 3, 5])
def test_dim_table_agrees_with_torch(name, dim):
    torch = pytest.importorskip("torch")
    lo, hi = IN_RANGE.get(name, (-2, 1))
    raised = False
    try:
        DIM_OPS[name](torch.randn(2, 3), dim)
    except IndexError:
        raised = True
    assert raised == (not lo <= dim <= hi)


def test_flatten_start_after_end_and_repeated_reduction_dims():
    with pytest.raises(RuntimeError, match="start_dim cannot come after end_dim"):
        mg.zeros(2, 3, 4).flatten(1, 0)
    with pytest.raises(RuntimeError, match="appears multiple times"):
        mg.zeros(2, 3).sum((0, -2))
    assert mg.zeros(2, 3).sum((1, 0)).shape == ()
    assert mg.tensor(3.0).sum(0).shape == () and mg.tensor(3.0).softmax(-1).shape == ()


# ---- where indexed dims land: an integer selects first, as in PyTorch -------------------
S = slice(None)
IDX = np.array([0, 2, 1])
MASK = np.array([True, False, True, False, False, False, False])
# (index on a (5, 6, 12, 7, 3) tensor, PyTorch's result shape); NumPy would give another
# shape for each row where an integer and an array are separated by a slice
INDEX_ROWS = [
    ((1, S, slice(3, 11, 2), IDX, slice(0, 2)), (6, 4, 3, 2)),
    ((1, S, None, S, IDX), (6, 1, 12, 3, 3)),
    ((IDX, S, 1), (3, 6, 7, 3)),
    ((Ellipsis, 1, IDX, 0), (5, 6, 3)),
    ((1, Ellipsis, MASK, 0), (6, 12, 2)),
    ((np.array(2), S, S, IDX), (6, 12, 3, 3)),
    ((IDX, 1, IDX), (3, 7, 3)),
    ((S, IDX[:, None], 2, IDX), (5, 3, 3, 3)),
    ((1, 2), (12, 7, 3)),
    ((IDX, IDX), (3, 12, 7, 3)),
]


@pytest.mark.parametrize("index,shape", INDEX_ROWS)
def test_indexed_dims_land_where_pytorch_puts_them(index, shape):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((5, 6, 12, 7, 3))
    x = mg.tensor(a, requires_grad=True)
    y = x[index]
    assert y.shape == shape
    # read, write and backward address the same elements
    w = rng.standard_normal(shape)
    (y * mg.tensor(w)).sum().backward()
    z = mg.tensor(np.zeros_like(a))
    z[index] = w
    np.testing.assert_array_equal(x.grad.numpy() != 0, z.numpy() != 0)
    np.testing.assert_allclose(x.grad.numpy(), z.numpy())
    np.testing.assert_allclose((x.detach() * z).sum().item(), (y.detach() * mg.tensor(w)).sum().item())


@pytest.mark.parametrize("index,shape", INDEX_ROWS)
def test_indexing_rows_agree_with_torch(index, shape):
    torch = pytest.importorskip("torch")
    a = np.random.default_rng(1).standard_normal((5, 6, 12, 7, 3))
    tindex = tuple(torch.as_tensor(i) if isinstance(i, np.ndarray) else i for i in index)
    t = torch.tensor(a)[tindex]
    assert tuple(t.shape) == shape
    np.testing.assert_array_equal(mg.tensor(a)[index].numpy(), t.numpy())


# ---- view(dtype): the same memory read as another dtype ----------------------------------
def test_view_dtype_reinterprets_and_shares_memory():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x.view(mg.int32)
    assert y.tolist() == [1065353216, 1073741824] and not y.requires_grad
    assert y._version == x._version
    with mg.no_grad():
        x.data[0] = 3.0
    assert y.tolist()[0] == np.float32(3.0).view(np.int32)
    assert mg.tensor([[1.0, 2.0], [3.0, 4.0]]).view(mg.float64).shape == (2, 1)
    assert mg.tensor([1.0, 2.0]).view("int16").shape == (4,)
    assert mg.randn(2, 3).view(3, 2).shape == (3, 2)


@pytest.mark.parametrize("make,dtype,message", [
    (lambda: mg.tensor([1.0, 2.0, 3.0]), "float64", "size\\(-1\\) must be divisible by 2"),
    (lambda: mg.tensor([[1.0, 2.0], [3.0, 4.0]]).T, "int16", "stride\\(-1\\) must be 1"),
    (lambda: mg.tensor(1.0), "int16", "dim\\(\\) cannot be 0"),
])
def test_view_dtype_refuses_what_pytorch_refuses(make, dtype, message):
    with pytest.raises(RuntimeError, match=message):
        make().view(dtype)


# ---- factories make values only in dtypes where values have a meaning --------------------
FACTORIES = {
    "linspace": (lambda m, d: m.linspace(0, 1, 5, dtype=d), "iuf"),
    "arange": (lambda m, d: m.arange(0, 3, dtype=d), "iuf"),
    "randn": (lambda m, d: m.randn(2, dtype=d), "f"),
    "rand": (lambda m, d: m.rand(2, dtype=d), "f"),
    "randint": (lambda m, d: m.randint(0, 3, (2,), dtype=d), "iuf"),
}
DTYPES = ["bool", "uint8", "int32", "int64", "float32", "float64"]


@pytest.mark.parametrize("name", FACTORIES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_factory_dtypes(name, dtype):
    make, kinds = FACTORIES[name]
    if np.dtype(dtype).kind in kinds:
        assert make(mg, dtype).dtype == np.dtype(dtype)
    else:
        with pytest.raises(NotImplementedError, match=dtype):
            make(mg, dtype)


@pytest.mark.parametrize("name", FACTORIES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_factory_dtype_table_agrees_with_torch(name, dtype):
    torch = pytest.importorskip("torch")
    make, kinds = FACTORIES[name]
    try:
        make(torch, getattr(torch, dtype))
        ok = True
    except RuntimeError:  # NotImplementedError is one
        ok = False
    assert ok == (np.dtype(dtype).kind in kinds)


# ---- products take operands of one float dtype: float64 data never silently promotes a
# float32 model --------------------------------------------------------------------------
def _products(m, F):
    return {
        "matmul": lambda a, b: a @ b.T,
        "mm": lambda a, b: m.mm(a, b.T),
        "bmm": lambda a, b: m.bmm(a[None], b.T[None]),
        "mv": lambda a, b: m.mv(a, b[0]),
        "dot": lambda a, b: m.dot(a[0], b[0]),
        "linear": lambda a, b: F.linear(a, b),
        "linear bias": lambda a, b: F.linear(b, b, a[:, 0]),
        "linear_cross_entropy": lambda a, b: F.linear_cross_entropy(
            a, b, m.tensor([0, 1])),
    }


@pytest.mark.parametrize("name", list(_products(mg, mg.nn.functional)))
def test_products_refuse_mixed_float_dtypes(name):
    f = _products(mg, mg.nn.functional)[name]
    a = mg.randn(2, 3, requires_grad=True)
    b = mg.randn(2, 3, dtype="float64", requires_grad=True)
    with pytest.raises(TypeError, match="one dtype"):
        f(a, b)
    assert f(a, a.detach().requires_grad_()).dtype == np.float32
    assert a.grad is None and b.grad is None


def test_a_float32_layer_refuses_float64_data():
    layer = mg.nn.Linear(3, 2)
    with pytest.raises(TypeError, match="float64, float32"):
        layer(mg.tensor(np.ones((2, 3))))  # NumPy's default float64, as PyTorch refuses it
    assert layer.double()(mg.tensor(np.ones((2, 3)))).dtype == np.float64


@pytest.mark.parametrize("name", list(_products(mg, mg.nn.functional)))
def test_product_dtype_rule_agrees_with_torch(name):
    torch = pytest.importorskip("torch")
    f = _products(torch, torch.nn.functional)[name]
    with pytest.raises(RuntimeError):
        f(torch.randn(2, 3), torch.randn(2, 3, dtype=torch.float64))

"""Tensor construction, dtype rules, properties and error messages."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import float_arrays, shapes

import minigrad as mg


@pytest.mark.parametrize(
    "data, dtype",
    [
        (1.5, np.float32),
        ([1.0, 2.0], np.float32),
        ([[1.0], [2.0]], np.float32),
        ([1, 2.5], np.float32),
        (3, np.int64),
        ([1, 2], np.int64),
        (True, np.bool_),
        ([True, False], np.bool_),
        (np.zeros(2), np.float64),
        (np.zeros(2, np.float32), np.float32),
        (np.zeros(2, np.int32), np.int32),
        (np.float64(2.0), np.float64),
    ],
)
def test_constructor_dtype_rules(data, dtype):
    assert mg.tensor(data).dtype == dtype
    assert mg.Tensor(data).dtype == dtype


def test_dtype_argument_overrides():
    assert mg.tensor([1, 2], dtype=np.float64).dtype == np.float64
    assert mg.tensor(np.zeros(2), dtype=np.float32).dtype == np.float32
    assert mg.tensor(1.5, dtype="float64").dtype == np.float64
    assert mg.tensor([1.0], dtype=mg.float64).dtype == np.float64
    assert mg.tensor(np.ones(2), dtype=mg.int64).dtype == np.int64


def test_tensor_copies_as_tensor_and_from_numpy_share_memory_unless_cast():
    a = np.zeros(3)
    t = mg.tensor(a)
    a[0] = 5.0  # torch.tensor copies: the caller's later write does not reach the tensor
    assert t.tolist() == [0.0, 0.0, 0.0] and not np.shares_memory(t.data, a)
    assert not np.shares_memory(mg.tensor(mg.as_tensor(a)).data, a)
    assert np.shares_memory(mg.as_tensor(a).data, a)
    assert np.shares_memory(mg.from_numpy(a).data, a)
    assert not np.shares_memory(mg.as_tensor(a, dtype=np.float32).data, a)
    x = mg.tensor([1.0])
    assert mg.as_tensor(x) is x


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_python_numbers_go_straight_to_the_requested_dtype(dtype):
    for value in (0.7, [0.7, 0.1], [[0.7], [1e-40]]):
        expected = np.array(value, dtype=np.float64).astype(dtype)  # one rounding
        np.testing.assert_array_equal(mg.tensor(value, dtype=dtype).data, expected)
        assert mg.tensor(value, dtype=dtype).dtype == np.dtype(dtype)
    assert mg.tensor(0.7, dtype="float64").item() == 0.7
    np.testing.assert_array_equal(mg.full((2,), 0.7, dtype=dtype).data, np.full(2, 0.7, dtype))
    if dtype == "int64":  # PyTorch truncates start, end and step to integers: step 0
        with pytest.raises(ValueError, match="step must be nonzero"):
            mg.arange(0, 1, 0.1, dtype=dtype)
        return
    np.testing.assert_array_equal(mg.arange(0, 1, 0.1, dtype=dtype).data,
                                  np.arange(0, 1, 0.1).astype(dtype))


def test_full_infers_its_dtype_from_the_value_as_pytorch():
    assert mg.full((2, 2), 4).dtype == np.int64
    assert mg.full((2, 2), True).dtype == np.bool_
    assert mg.full((2, 2), 4.0).dtype == np.float32
    assert mg.full((2, 2), 4, dtype="float64").dtype == np.float64


@pytest.mark.parametrize("make", [mg.zeros, mg.ones, mg.randn, mg.rand])
def test_shape_constructors_take_tuple_or_numbers(make):
    assert make(2, 3).shape == (2, 3)
    assert make((2, 3)).shape == (2, 3)
    assert make([4]).shape == (4,)
    assert make(5).shape == (5,)
    assert make().shape == ()
    assert make(2, 3).dtype == np.float32
    assert make(2, dtype=np.float64).dtype == np.float64
    t = make(2, requires_grad=True)
    assert t.requires_grad and t.is_leaf


@pytest.mark.parametrize("bad", [(-1,), (2.5,), ("3",)])
def test_shape_constructors_reject_bad_shapes(bad):
    with pytest.raises(ValueError, match="shape"):
        mg.zeros(*bad)


def test_like_constructors_and_full_and_arange():
    x = mg.tensor(np.ones((2, 3)))
    assert mg.zeros_like(x).dtype == np.float64 and mg.zeros_like(x).shape == (2, 3)
    assert mg.ones_like(x, dtype=np.dtype(np.float32)).dtype == np.float32
    assert mg.zeros_like(x, dtype=np.dtype(np.float32)).dtype == np.float32
    np.testing.assert_array_equal(mg.full((2, 2), 7.0).numpy(), np.full((2, 2), 7.0))
    assert mg.full((2,), 1.0).dtype == np.float32
    assert mg.arange(5).dtype == np.int64
    np.testing.assert_array_equal(mg.arange(1, 7, 2).numpy(), [1, 3, 5])
    assert mg.arange(0.0, 1.0, 0.25).dtype == np.float32


def test_manual_seed_makes_draws_repeatable():
    mg.manual_seed(123)
    a = mg.randn(4).numpy().copy()
    mg.manual_seed(123)
    np.testing.assert_array_equal(mg.randn(4).numpy(), a)


def test_ragged_lists_raise():
    with pytest.raises(ValueError, match="ragged"):
        mg.tensor([[1.0, 2.0], [3.0]])
    with pytest.raises(TypeError):
        mg.tensor("abc")
    with pytest.raises(TypeError):
        mg.tensor([object()])


def test_zero_dim_tensor_and_item():
    t = mg.tensor(2.5)
    assert t.shape == () and t.ndim == 0 and t.numel() == 1 and t.size() == ()
    assert t.item() == 2.5 and isinstance(t.item(), float)
    assert isinstance(mg.tensor(3).item(), int)
    assert float(t) == 2.5 and int(mg.tensor(3)) == 3
    assert mg.tensor([[4.0]]).item() == 4.0
    with pytest.raises(ValueError, match=r"one element.*\(2,\)"):
        mg.tensor([1.0, 2.0]).item()
    with pytest.raises(TypeError, match="0-d"):
        len(t)


def test_zero_dim_tensor_gradients():
    x = mg.tensor(np.float64(1.5), requires_grad=True)
    y = (x * x + 2 * x).exp()
    y.backward()
    assert x.grad.shape == () and x.grad.dtype == np.float64
    np.testing.assert_allclose(x.grad, np.exp(1.5**2 + 3) * (2 * 1.5 + 2))


def test_properties_and_conversions():
    x = mg.tensor(np.arange(6.0).reshape(2, 3))
    assert x.shape == (2, 3) and x.ndim == 2 and x.dim() == 2 and x.numel() == 6
    assert x.dtype == np.float64 and len(x) == 2
    assert x.numpy() is x.data
    assert x.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert [r.shape for r in x] == [(3,), (3,)]
    assert x.float().dtype == np.float32 and x.double().dtype == np.float64
    assert x.long().dtype == np.int64
    assert "tensor(" in repr(x) and "float64" in repr(x)
    y = mg.tensor([1.0], requires_grad=True)
    assert "requires_grad=True" in repr(y) and "grad_fn=<Mul>" in repr(y * 2)


def test_bool_of_tensor():
    assert bool(mg.tensor(1.0)) and not bool(mg.tensor([0.0]))
    with pytest.raises(ValueError, match="ambiguous"):
        bool(mg.tensor([1.0, 2.0]))


def test_data_and_grad_are_settable():
    p = mg.tensor(np.ones(2, np.float32), requires_grad=True)
    p.data = p.data.astype(np.float64)
    (p * p).sum().backward()
    assert p.grad.dtype == np.float64
    p.data[...] = 3.0
    p.grad = None
    (p * p).sum().backward()
    np.testing.assert_array_equal(p.grad, [6.0, 6.0])


@given(data=st.data(), shape=shapes(min_dims=1))
def test_operators_match_numpy(data, shape):
    a = data.draw(float_arrays(shape, min_value=0.5, max_value=2))
    b = data.draw(float_arrays(shape[-1:], min_value=0.5, max_value=2))
    ta, tb = mg.tensor(a), mg.tensor(b)
    for got, want in [
        (ta + tb, a + b), (ta - tb, a - b), (ta * tb, a * b), (ta / tb, a / b),
        (ta**tb, a**b), (-ta, -a), (ta.exp(), np.exp(a)), (ta.log(), np.log(a)),
        (ta.sqrt(), np.sqrt(a)), (ta.tanh(), np.tanh(a)), (ta.relu(), np.maximum(a, 0)),
        (ta.sum(-1), a.sum(-1)), (ta.mean(0), a.mean(0)), (ta.max(), a.max()),
        (ta.amin(-1, keepdim=True), a.min(-1, keepdims=True)),
        (ta.var(), a.var(ddof=1) if a.size > 1 else np.nan),
        (ta.T, a.T), (ta.reshape(-1), a.reshape(-1)), (ta.argmax(-1), a.argmax(-1)),
    ]:
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)


def test_elementwise_and_matmul_errors_name_shapes():
    a, b = mg.tensor(np.ones((2, 3))), mg.tensor(np.ones((4,)))
    for op in (lambda: a + b, lambda: a - b, lambda: a * b, lambda: a / b, lambda: a**b):
        with pytest.raises(ValueError, match=r"\(2, 3\).*\(4,\)"):
            op()
    with pytest.raises(ValueError, match=r"inner dimensions 3 != 4"):
        a @ mg.tensor(np.ones((4, 2)))
    with pytest.raises(ValueError, match="batch dimensions"):
        mg.tensor(np.ones((2, 2, 3))) @ mg.tensor(np.ones((3, 3, 2)))
    with pytest.raises(ValueError, match="at least 1 dimension"):
        mg.tensor(2.0) @ mg.tensor([1.0])
    with pytest.raises(TypeError, match="floating-point"):
        mg.tensor([1, 2]) @ mg.tensor([1, 2])


def test_shape_op_errors():
    x = mg.tensor(np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(4,\)"):
        x.reshape(4)
    with pytest.raises(ValueError, match="permutation"):
        x.permute(0, 0)
    with pytest.raises(IndexError):
        x.transpose(0, 5)
    with pytest.raises(IndexError, match="out of range"):
        x[5]
    with pytest.raises(IndexError, match="out of range"):
        x[np.array([0, 7])]
    with pytest.raises(IndexError, match="integer or bool"):
        x[np.array([0.0])]
    with pytest.raises(IndexError, match="axis 2"):
        x.sum(axis=2)
    with pytest.raises(ValueError, match="do not add up"):
        x.split([1, 1], axis=1)
    with pytest.raises(ValueError, match="positive"):
        x.split(0)
    with pytest.raises(ValueError, match="cat"):
        mg.cat([x, mg.tensor(np.ones((2, 2)))], axis=0)
    with pytest.raises(ValueError, match="same shape"):
        mg.stack([x, mg.tensor(np.ones((3, 2)))])
    with pytest.raises(ValueError, match="at least one"):
        mg.cat([])


def test_mask_errors():
    x = mg.tensor(np.ones((2, 3)))
    with pytest.raises(TypeError, match="boolean"):
        x.masked_fill(np.ones((2, 3)), 0.0)
    with pytest.raises(ValueError, match=r"\(3, 3\).*\(2, 3\)"):
        x.masked_fill(np.ones((3, 3), bool), 0.0)
    with pytest.raises(ValueError, match="cannot be broadcast"):
        mg.where(np.ones(4, bool), x, 0.0)
    with pytest.raises(ValueError, match="2 dimensions"):
        mg.tril(mg.tensor([1.0, 2.0]))
    with pytest.raises(ValueError, match="approximate"):
        x.gelu(approximate="fast")
    with pytest.raises(TypeError, match="floating-point"):
        mg.tensor([1, 2]).softmax()


def test_masks_accept_tensors_and_arrays():
    x = mg.tensor(np.arange(4.0))
    m = np.array([True, False, True, False])
    np.testing.assert_array_equal(x.masked_fill(m, -1.0).numpy(), [-1, 1, -1, 3])
    np.testing.assert_array_equal(x.masked_fill(mg.tensor(m), -1.0).numpy(), [-1, 1, -1, 3])
    np.testing.assert_array_equal(mg.where(mg.tensor(m), x, 9.0).numpy(), [0, 9, 2, 9])


def test_tril_triu_and_causal_mask():
    ones = mg.ones(3, 3)
    np.testing.assert_array_equal(mg.tril(ones).numpy(), np.tril(np.ones((3, 3))))
    np.testing.assert_array_equal(mg.triu(ones, 1).numpy(), np.triu(np.ones((3, 3)), 1))
    b = mg.triu(mg.tensor(np.ones((3, 3), bool)), 1)
    assert b.dtype == np.bool_
    np.testing.assert_array_equal(b.numpy(), mg.causal_mask(3))
    np.testing.assert_array_equal(mg.causal_mask(2, 4), [[0, 0, 0, 1], [0, 0, 0, 0]])


def test_softmax_of_fully_masked_row_is_zero_not_nan():
    x = mg.tensor(np.zeros((2, 3)), requires_grad=True)
    mask = np.array([[True, True, True], [False, True, False]])
    y = x.masked_fill(mask, -np.inf).softmax(-1)
    np.testing.assert_allclose(y.numpy(), [[0, 0, 0], [0.5, 0, 0.5]])
    (y * mg.tensor(np.arange(6.0).reshape(2, 3))).sum().backward()
    assert np.isfinite(x.grad).all()
    np.testing.assert_array_equal(x.grad[0], 0.0)


def test_softmax_extreme_logits():
    x = mg.tensor(np.array([[1000.0, -1000.0, 0.0], [-1000.0, -1000.0, -1000.0]]))
    y = x.softmax(-1).numpy()
    np.testing.assert_allclose(y, [[1, 0, 0], [1 / 3, 1 / 3, 1 / 3]])
    ls = x.log_softmax(-1).numpy()
    np.testing.assert_allclose(ls, [[0, -2000, -1000], [-np.log(3)] * 3])

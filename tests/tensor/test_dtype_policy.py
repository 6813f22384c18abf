"""The dtype policy (minigrad/dtypes.py): what is refused, and promotion as torch.result_type."""

from __future__ import annotations

import re

import numpy as np
import pytest

import minigrad as mg

UNSUPPORTED = [np.float16, np.longdouble, np.complex64, np.complex128, object, "U3", "S2",
               "datetime64[s]", "timedelta64[ms]"]


@pytest.mark.parametrize("dtype", UNSUPPORTED, ids=str)
def test_unsupported_dtypes_refused_at_creation_naming_the_dtype(dtype):
    name = str(np.dtype(dtype))
    arr = np.zeros(2, dtype=dtype)
    makers = [(lambda: mg.tensor(arr), name), (lambda: mg.Tensor(arr), name),
              (lambda: mg.tensor([1.0, 2.0], dtype=dtype), name)]
    if isinstance(arr[0], np.generic):  # a NumPy scalar (an object array's element is not)
        makers.append((lambda: mg.tensor(arr[0]), str(np.asarray(arr[0]).dtype)))
    for make, expected in makers:
        with pytest.raises(TypeError, match=re.escape(f"unsupported dtype {expected}")):
            make()


@pytest.mark.parametrize("dtype", [np.float16, np.longdouble, np.complex64], ids=str)
def test_unsupported_dtypes_refused_at_op_entry_naming_op_and_dtype(dtype):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    name = str(np.dtype(dtype))
    with pytest.raises(TypeError, match=f"Mul: tensor: unsupported dtype {name}"):
        x * np.ones(2, dtype=dtype)
    with pytest.raises(TypeError, match=f"Add: tensor: unsupported dtype {name}"):
        x + dtype(1) if dtype is not np.complex64 else x + np.complex64(1j)
    with pytest.raises(TypeError, match=f"unsupported dtype {name}"):
        x.to(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.int32, np.int64, np.uint8,
                                   np.uint64, np.bool_], ids=str)
def test_supported_dtypes_accepted(dtype):
    assert mg.tensor(np.zeros(2, dtype=dtype)).dtype == dtype


def _operands():
    """(name, minigrad operands, torch operands) for the promotion table."""
    torch = pytest.importorskip("torch")
    i64 = np.array([1, 2, 3, 4])
    i32 = i64.astype(np.int32)
    u8 = i64.astype(np.uint8)
    i8 = i64.astype(np.int8)
    f32 = i64.astype(np.float32)
    f64 = i64.astype(np.float64)
    b = np.array([True, False, True, True])

    def t(a):
        return torch.from_numpy(np.array(a))

    return torch, [
        ("int64 * 1.5", mg.tensor(i64), 1.5, t(i64), 1.5),
        ("int64 * 2", mg.tensor(i64), 2, t(i64), 2),
        ("int64 + int64", mg.tensor(i64), mg.tensor(i64), t(i64), t(i64)),
        ("int32 + int64", mg.tensor(i32), mg.tensor(i64), t(i32), t(i64)),
        ("uint8 + int8", mg.tensor(u8), mg.tensor(i8), t(u8), t(i8)),
        ("int64 + float32", mg.tensor(i64), mg.tensor(f32), t(i64), t(f32)),
        ("float32 + float64", mg.tensor(f32), mg.tensor(f64), t(f32), t(f64)),
        ("float32 * 2.5", mg.tensor(f32), 2.5, t(f32), 2.5),
        ("float32 (4,) + float64 0-d", mg.tensor(f32), mg.tensor(np.float64(2.0)), t(f32),
         t(np.float64(2.0))),
        ("int64 (4,) + float64 0-d", mg.tensor(i64), mg.tensor(np.float64(2.0)), t(i64),
         t(np.float64(2.0))),
        ("int32 (4,) + int64 0-d", mg.tensor(i32), mg.tensor(np.int64(2)), t(i32),
         t(np.int64(2))),
        ("bool + int64", mg.tensor(b), mg.tensor(i64), t(b), t(i64)),
        ("bool + bool", mg.tensor(b), mg.tensor(b), t(b), t(b)),
        ("int64 + True", mg.tensor(i64), True, t(i64), True),
        ("float64 * 3", mg.tensor(f64), 3, t(f64), 3),
    ]


def _torch_dtype_name(dt) -> str:
    return str(dt).replace("torch.", "")


def test_binary_promotion_matches_torch_result_type():
    torch, cases = _operands()
    for name, a, b, ta, tb in cases:
        expected = _torch_dtype_name(torch.result_type(ta, tb))
        for op, top in ((lambda x, y: x + y, torch.add), (lambda x, y: x * y, torch.mul)):
            if expected == "bool" and op(ta, tb).dtype != torch.bool:
                continue
            got = op(a, b)
            assert str(got.dtype) == _torch_dtype_name(top(ta, tb).dtype), name
            np.testing.assert_allclose(got.data.astype(np.float64),
                                       top(ta, tb).double().numpy(), rtol=1e-6, err_msg=name)


def test_true_division_unary_float_ops_and_float_powers_match_torch():
    torch = pytest.importorskip("torch")
    i = mg.tensor([1, 2, 3, 4])
    ti = torch.tensor([1, 2, 3, 4])
    pairs = [
        ("i / i", i / i, ti / ti), ("i / 2", i / 2, ti / 2), ("3 / i", 3 / i, 3 / ti),
        ("i ** 0.5", i ** 0.5, ti ** 0.5), ("i ** 2", i ** 2, ti ** 2),
        ("2.5 ** i", 2.5 ** i, 2.5 ** ti), ("2 ** i", 2 ** i, 2 ** ti),
        ("exp", i.exp(), ti.exp()), ("log", i.log(), ti.log()), ("sqrt", i.sqrt(), ti.sqrt()),
        ("tanh", i.tanh(), ti.tanh()), ("sigmoid", i.sigmoid(), ti.sigmoid()),
        ("int64 / float64 0-d", i / mg.tensor(np.float64(2.0)),
         ti / torch.tensor(2.0, dtype=torch.float64)),
    ]
    for name, ours, theirs in pairs:
        assert str(ours.dtype) == _torch_dtype_name(theirs.dtype), name
        np.testing.assert_allclose(ours.data, theirs.numpy(), rtol=1e-6, err_msg=name)


def test_int_pow_half_is_computed_in_float():
    np.testing.assert_allclose((mg.tensor([1, 2, 3, 4]) ** 0.5).data, np.sqrt([1, 2, 3, 4]),
                               rtol=1e-6)


def test_gradients_flow_through_promoted_ops_in_the_input_dtype():
    x = mg.tensor(np.array([1.0, 2.0], np.float32), requires_grad=True)
    y = mg.tensor(np.array([3.0, 4.0]), requires_grad=True)  # float64
    z = x * y
    assert z.dtype == np.float64
    z.sum().backward()
    assert x.grad.dtype == np.float32 and y.grad.dtype == np.float64
    np.testing.assert_allclose(x.grad.data, [3.0, 4.0])
    ids = mg.tensor([1, 2])
    w = mg.tensor(np.array([0.5, 0.25], np.float32), requires_grad=True)
    (w * ids).sum().backward()
    assert w.grad.dtype == np.float32 and w.grad.data.tolist() == [1.0, 2.0]


def test_result_type_function_is_the_documented_table():
    rt = mg.dtypes.result_type
    assert rt(np.zeros(2, np.int64), np.zeros(2, np.float32)) == np.float32
    assert rt(np.zeros(2, np.float32), np.zeros((), np.float64)) == np.float32
    assert rt(np.zeros(2, np.int64), np.zeros((), np.float64)) == np.float64
    assert rt(np.zeros((), np.int64), np.zeros((), np.float32)) == np.float32

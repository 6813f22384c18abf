"""Python numbers given a dtype (tensor(v, dtype=), full, full_like) are converted as PyTorch
converts them (minigrad.dtypes.cast_numbers): checked against the range, negative ints
wrapping in unsigned dtypes, floats truncated. PyTorch comparisons skip without torch."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

CASES = [(-9, "uint8"), (-255, "uint8"), (255, "uint8"), (-9, "uint16"), (-9, "uint32"),
         (-1, "uint64"), (-128, "int8"), (127, "int8"), (2.7, "uint8"), (-2.7, "int32"),
         (1.0, "int64"), (True, "uint8"), (2.5, "bool"), (0, "bool"), (3, "float32"),
         (-9, "float64")]
REFUSED = [(256, "uint8"), (-256, "uint8"), (-1.5, "uint8"), (128, "int8"), (-129, "int8"),
           (2**40, "int32"), (float("nan"), "int64"), (float("inf"), "int16"), (300.0, "uint8")]


def _makers(value, dtype):
    return {
        "tensor": lambda: mg.tensor(value, dtype=dtype),
        "list": lambda: mg.tensor([value, 0], dtype=dtype)[:1].reshape(()),
        "full": lambda: mg.full((2,), value, dtype=dtype)[0],
        "full_like": lambda: mg.full_like(mg.zeros(2, dtype=dtype), value)[0],
    }


@pytest.mark.parametrize("value,dtype", CASES)
def test_numbers_convert_as_pytorch(value, dtype):
    dt = np.dtype(dtype)
    if dt.kind == "u" and isinstance(value, int) and not isinstance(value, bool) and value < 0:
        want = value % 2 ** (8 * dt.itemsize)  # two's complement
    elif dt.kind in "iu":
        want = int(value)  # toward zero
    else:
        want = dt.type(value)
    for name, make in _makers(value, dtype).items():
        t = make()
        assert t.dtype == dt, name
        assert t.item() == want, (name, t.item(), want)


@pytest.mark.parametrize("value,dtype", REFUSED)
def test_numbers_out_of_range_raise_and_name_the_value(value, dtype):
    for make in _makers(value, dtype).values():
        with pytest.raises(OverflowError, match=f"cannot be converted to {dtype}"):
            make()


def test_arrays_are_cast_as_numpy_arrays_are():
    # an ndarray is data already typed: .to()-like casting (wraps), as torch.tensor(ndarray)
    assert mg.tensor(np.array([300]), dtype="uint8").tolist() == [44]


@pytest.mark.parametrize("value,dtype", CASES + REFUSED)
def test_same_as_torch(value, dtype):
    torch = pytest.importorskip("torch")
    tdt = getattr(torch, dtype)
    try:
        want = torch.full((2,), value, dtype=tdt)
    except RuntimeError:
        with pytest.raises(OverflowError):
            mg.full((2,), value, dtype=dtype)
        return
    assert mg.full((2,), value, dtype=dtype).tolist() == want.tolist()
    if dtype != "uint64":  # (torch.tensor(-1, dtype=uint64) raises in PyTorch's own conversion)
        assert mg.tensor(value, dtype=dtype).item() == torch.tensor(value, dtype=tdt).item()


# ---- a Python number as an operand: PyTorch's wrapped number ----------------------------
@pytest.mark.parametrize("shape", [(), (2,)])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "int32"])
def test_a_python_number_never_changes_an_integer_tensors_dtype(shape, dtype):
    # a 0-d int8 tensor times 2 was int64: the number ranked as a 0-d tensor, not below it
    x = mg.tensor(np.full(shape, 3, dtype))
    for out in (x * 2, x + 1, 2 - x, x**2, x.square(), x & 1, x ^ 1, x // 2, x % 2,
                x.clamp(0, 2), mg.maximum(x, mg.tensor(np.full(shape, 1, dtype)))):
        assert out.dtype == np.dtype(dtype), out
    assert (x * 1.5).dtype == np.float32  # a float number: its category is higher
    assert (mg.tensor(np.full(shape, True)) + 2).dtype == np.int64  # an int above bool
    assert (x + 300).dtype == np.dtype(dtype)  # wraps around, as PyTorch's


def test_wrapped_numbers_match_torch():
    torch = pytest.importorskip("torch")
    for dtype in ("int8", "uint8", "int32", "int64", "bool", "float32", "float64"):
        for shape in ((), (3,)):
            a = np.ones(shape, dtype)
            for number in (2, -1, 300, 1.5, True):
                for op in ("__add__", "__mul__", "__rsub__"):
                    if dtype == "bool" and op == "__rsub__":
                        continue  # PyTorch refuses subtraction with bool
                    try:
                        want = getattr(torch.tensor(a), op)(number)
                    except RuntimeError:
                        continue
                    got = getattr(mg.tensor(a), op)(number)
                    assert str(got.dtype) == str(want.dtype).replace("torch.", ""), \
                        (dtype, shape, number, op)
                    np.testing.assert_array_equal(got.numpy(), want.numpy())


@pytest.mark.parametrize("args", [(0.0, -8.000001, -4.0), (1.0, 5.000001, 2.0), (-0.9, 2.1, 2.0),
                                  (2.1, -2.9, -1.0), (0, 3.1, 1), (0.5, 3.7, 1.5), (5,)])
def test_arange_of_small_integer_dtypes_counts_as_pytorch(args):
    # int8/16/32/uint8: PyTorch counts ceil((end - start) / step) from the arguments as
    # given, then steps from int(start) by int(step); int64 truncates all three first
    expected = {  # from torch 2.13
        (0.0, -8.000001, -4.0): ([0, -4, -8], [0, -4]), (1.0, 5.000001, 2.0): ([1, 3, 5], [1, 3]),
        (-0.9, 2.1, 2.0): ([0, 2], [0]), (2.1, -2.9, -1.0): ([2, 1, 0, -1, -2], [2, 1, 0, -1]),
        (0, 3.1, 1): ([0, 1, 2, 3], [0, 1, 2]), (0.5, 3.7, 1.5): ([0, 1, 2], [0, 1, 2]),
        (5,): ([0, 1, 2, 3, 4], [0, 1, 2, 3, 4])}
    small, int64 = expected[args]
    for dtype in ("int8", "int16", "int32"):
        assert mg.arange(*args, dtype=dtype).tolist() == small
    assert mg.arange(*args, dtype="int64").tolist() == int64

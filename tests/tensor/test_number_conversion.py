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

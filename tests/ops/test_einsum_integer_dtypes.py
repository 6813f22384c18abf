"""einsum of integer operands: PyTorch's dtypes (an axis summed within one operand goes
through sum, so int64 without wrap-around; contractions keep the dtype)."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg

A = np.full((2, 3), 100, np.int8)
B = np.ones((3, 4), np.int8)
V = np.ones(3, np.int8)
CASES = [("ij,jk->ik", (A, B), "int8"), ("ij,j->i", (A, V), "int8"), ("ij->ji", (A,), "int8"),
         ("ij,ij->ij", (A, A), "int8"), ("ij->i", (A,), "int64"), ("i->", (V,), "int64"),
         ("ij,k->ik", (A, V), "int64"), ("...ik,...j->ij", (A[None], V), "int64"),
         ("ij->i", (A.astype(np.uint8),), "int64"), ("ij->i", (A > 0,), "int64"),
         ("ij,j->i", (A.astype(np.int16), V.astype(np.int32)), "int32")]


@pytest.mark.parametrize("eq,ops,dtype", CASES)
def test_integer_einsum_dtypes(eq, ops, dtype):
    out = mg.einsum(eq, *[mg.tensor(o) for o in ops])
    assert out.dtype == np.dtype(dtype)
    if dtype == "int64":  # summed in int64: 100 * 3 does not wrap around
        want = mg.einsum(eq, *[mg.tensor(o.astype(np.float64)) for o in ops])
        np.testing.assert_array_equal(out.numpy(), want.numpy())


def test_float_einsum_unchanged():
    a = mg.tensor(np.ones((2, 3), np.float32))
    assert mg.einsum("ij->i", a).dtype == np.float32


@pytest.mark.parametrize("eq,ops,dtype", CASES[:-1])
def test_same_as_torch(eq, ops, dtype):
    torch = pytest.importorskip("torch")
    want = torch.einsum(eq, *[torch.tensor(o) for o in ops])
    got = mg.einsum(eq, *[mg.tensor(o) for o in ops])
    assert str(got.dtype) == str(want.dtype).replace("torch.", "")
    np.testing.assert_array_equal(got.numpy(), want.numpy())

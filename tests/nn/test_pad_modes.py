"""Issue 27: nn.functional.pad's modes reflect, replicate and circular, each a gather (its
gradient an index_add), against NumPy's np.pad."""

from __future__ import annotations

import numpy as np
import pytest

from minigrad import Tensor
from minigrad.gradcheck import gradcheck, gradgradcheck
from minigrad.nn import functional as F

rng = np.random.default_rng(2)
NUMPY_MODE = {"reflect": "reflect", "replicate": "edge", "circular": "wrap"}


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
@pytest.mark.parametrize("amounts", [(1, 2), (0, 2, 2, 1), (1, 1, 1, 1, 1, 1)])
def test_pad_modes_match_numpy(mode, amounts):
    x = rng.standard_normal((2, 3, 4, 5))
    got = F.pad(Tensor(x), amounts, mode=mode)
    widths = [(0, 0)] * x.ndim
    for i in range(len(amounts) // 2):
        widths[x.ndim - 1 - i] = amounts[2 * i: 2 * i + 2]
    np.testing.assert_array_equal(got.numpy(), np.pad(x, widths, mode=NUMPY_MODE[mode]))


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_pad_modes_gradients(mode):
    x = Tensor(rng.standard_normal((2, 3, 4)), requires_grad=True)
    f = lambda t: F.pad(t, (2, 1, 1, 2), mode=mode)
    assert gradcheck(f, [x]) and gradgradcheck(f, [x])


def test_pad_negative_amounts_crop():
    x = np.arange(4.0).reshape(1, 1, 4)
    assert F.pad(Tensor(x), (-2, 1), mode="replicate").numpy().ravel().tolist() == [2, 3, 3]
    assert F.pad(Tensor(x), (-1, 1), mode="reflect").numpy().ravel().tolist() == [1, 2, 3, 2]
    # circular crops first, then wraps around what is left
    assert F.pad(Tensor(x), (-1, 1), mode="circular").numpy().ravel().tolist() == [1, 2, 3, 1]
    assert F.pad(Tensor(x), (2, -1), mode="circular").numpy().ravel().tolist() == [1, 2, 0, 1, 2]


def test_pad_mode_errors():
    x = Tensor(np.zeros((1, 3)))
    with pytest.raises(ValueError, match="smaller"):
        F.pad(x, (3, 0), mode="reflect")
    with pytest.raises(ValueError, match="exceeds"):
        F.pad(x, (4, 0), mode="circular")
    with pytest.raises(ValueError, match="mode"):
        F.pad(x, (1, 1), mode="symmetric")


@pytest.mark.parametrize("kind", ["Reflection", "Replication", "Circular"])
@pytest.mark.parametrize("d", [1, 2, 3])
def test_pad_layers_reading_the_input_take_no_value(kind, d):
    """As PyTorch's: only the constant pads have a fill value."""
    from minigrad import nn

    with pytest.raises(TypeError):
        getattr(nn, f"{kind}Pad{d}d")(1, value=2.0)
    assert getattr(nn, f"{kind}Pad{d}d")(1).padding == (1,) * (2 * d)

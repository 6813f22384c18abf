"""Every factory takes PyTorch's ``device=`` (the CPU only), ``dtype=`` and ``requires_grad=``:
code written for PyTorch passes ``device=...`` everywhere, and the one device
check (``minigrad.device.check_device``) accepts None, ``"cpu"``, ``"cpu:N"`` and CPU device
objects, and refuses anything else with an error naming the device."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.device import DeviceError, check_device

try:
    import torch
except ImportError:  # the README's default set-up
    torch = None

needs_torch = pytest.mark.skipif(torch is None, reason="PyTorch is not installed")

X = mg.ones(2, 3)

# name -> a call taking the keyword arguments under test
FACTORIES = {
    "tensor": lambda **k: mg.tensor([1.0, 2.0], **k),
    "as_tensor": lambda **k: mg.as_tensor(np.arange(3.0), **k),
    "zeros": lambda **k: mg.zeros(2, 3, **k),
    "ones": lambda **k: mg.ones((2, 3), **k),
    "empty": lambda **k: mg.empty(2, **k),
    "full": lambda **k: mg.full((2,), 1.5, **k),
    "eye": lambda **k: mg.eye(3, **k),
    "arange": lambda **k: mg.arange(0.0, 3.0, 0.5, **k),
    "linspace": lambda **k: mg.linspace(0.0, 1.0, 5, **k),
    "zeros_like": lambda **k: mg.zeros_like(X, **k),
    "ones_like": lambda **k: mg.ones_like(X, **k),
    "full_like": lambda **k: mg.full_like(X, 2.0, **k),
    "empty_like": lambda **k: mg.empty_like(X, **k),
    "randn": lambda **k: mg.randn(2, 2, **k),
    "rand": lambda **k: mg.rand(2, 2, **k),
    "randint": lambda **k: mg.randint(0, 5, (3,), **k),
}
# factories with PyTorch's requires_grad= (as_tensor has none, randint's is for floats only)
WITH_GRAD = sorted(set(FACTORIES) - {"as_tensor", "randint"})


@pytest.mark.parametrize("name", sorted(FACTORIES))
@pytest.mark.parametrize("device", [None, "cpu", "cpu:0", mg.device("cpu")])
def test_every_factory_accepts_the_cpu(name, device):
    out = FACTORIES[name](device=device)
    assert isinstance(out, mg.Tensor) and out.device == "cpu"


@pytest.mark.parametrize("name", sorted(FACTORIES))
@pytest.mark.parametrize("device", ["cuda", "cuda:0", "mps", "cpu:x", "gpu"])
def test_every_factory_refuses_other_devices_naming_them(name, device):
    with pytest.raises(ValueError, match=f"device '{device}' is not available"):
        FACTORIES[name](device=device)


@pytest.mark.parametrize("name", WITH_GRAD)
def test_requires_grad_and_dtype_keywords(name):
    out = FACTORIES[name](dtype=mg.float64, requires_grad=True)
    assert out.dtype == np.float64 and out.requires_grad and out.is_leaf


def test_randint_dtype_and_two_argument_form():
    mg.manual_seed(0)
    a = mg.randint(0, 5, (4,), dtype=mg.int32)
    b = mg.randint(7, (2, 3))
    assert a.dtype == np.int32 and b.shape == (2, 3) and b.dtype == np.int64
    assert 0 <= int(b.numpy().min()) and int(b.numpy().max()) < 7
    with pytest.raises(TypeError, match="needs a size"):
        mg.randint(5)


def test_the_one_check_is_a_value_error_and_a_runtime_error():
    """ValueError (a bad argument), and RuntimeError as PyTorch's, so either ``except`` works;
    ``Tensor.to`` and ``Module.to`` use the same check."""
    for bad in ("cuda", "meta", 0):
        with pytest.raises(DeviceError) as info:
            check_device(bad)
        assert isinstance(info.value, ValueError) and isinstance(info.value, RuntimeError)
        assert repr(str(bad)) in str(info.value)
    for good in (None, "cpu", "cpu:0", "cpu:3", mg.device("cpu")):
        check_device(good)
    with pytest.raises(RuntimeError, match="minigrad runs on the CPU"):
        X.to("cuda:1")
    with pytest.raises(ValueError, match="'cuda:1'"):
        mg.nn.Linear(2, 2).to("cuda:1")


def test_to_takes_pytorchs_positional_non_blocking_and_copy():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    assert x.to("cpu", mg.float32, True) is x           # non_blocking: nothing on the CPU
    y = x.to("cpu", mg.float32, False, True)             # copy=True: a new tensor in the graph
    assert y is not x and not np.shares_memory(y.numpy(), x.numpy())
    (y * 3).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])
    assert x.to(copy=True) is not x
    assert x.to("cpu", mg.float64, False, False).dtype == np.float64


@needs_torch
def test_torch_device_objects():
    for name in ("zeros", "eye", "arange", "full_like", "tensor"):
        assert FACTORIES[name](device=torch.device("cpu")).device == "cpu"
        with pytest.raises(ValueError, match="meta"):
            FACTORIES[name](device=torch.device("meta"))

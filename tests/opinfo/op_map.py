"""Which minigrad callable answers each PyTorch OpInfo, and how torch arguments convert.

An OpInfo is named ``name`` or ``name.variant`` (its ``full_name``; e.g. ``div.trunc_rounding``
is ``torch.div`` with samples that pass ``rounding_mode="trunc"``). Its minigrad counterpart
is found by name, in this order:

1. ``OVERRIDES``: ops whose torch form is not a plain function or method (``T``, ``mT``);
2. ``nn.functional.X`` -> ``minigrad.nn.functional.X``;
3. ``minigrad.X`` when it is a function (module form, as ``torch.X``);
4. the Tensor method ``X`` (``__radd__``, ``__getitem__``, ``float``, ...), called on the input.

Names under ``linalg.``, ``special.``, ``fft.``, ``masked.``, ... have no counterpart yet.
``EXCLUDED`` lists ops minigrad has but that cannot be compared sample by sample (random
ops), with the reason. Discovery is by name, so a new minigrad op with PyTorch's name
enters the run by itself.
"""

from __future__ import annotations

import sys
import types
import unittest
from collections.abc import Callable
from typing import Any

import numpy as np
import torch

import minigrad
from minigrad import Tensor
from minigrad.nn import functional as F

# OpInfo names whose minigrad counterpart is not found by name, or whose OpInfo ``op`` is a
# lambda that reorders torch's arguments (the same reordering is done here).
OVERRIDES: dict[str, Callable[..., Any]] = {
    "T": lambda x: x.T,
    "__rdiv__": lambda x, *a, **k: x.__rtruediv__(*a, **k),
    "einsum": lambda tensors, equation: minigrad.einsum(equation, tensors),
    "where": lambda x, condition, other, **k: minigrad.where(condition, x, other, **k),
    "nn.functional.embedding": lambda weight, idx, **k: F.embedding(idx, weight, **k),
    "zero_": lambda x: x.clone().zero_(),
    # elementwise ops and activations. No entry needed: asin ... reciprocal,
    # square, atan2, copysign, fmod, lerp, isclose, __rand__/__ror__/__rxor__ and
    # nn.functional.{celu,selu,softsign,logsigmoid,hardsigmoid,hardswish,relu6,hardtanh,mish,
    # softmin,glu} all resolve by name.
}

# Ops minigrad has that a sample-by-sample comparison cannot judge: values drawn at random.
EXCLUDED: dict[str, str] = {
    name: "random values: no sample-by-sample comparison"
    for name in ("bernoulli", "multinomial", "randint", "randint_like", "rand_like",
                 "randn_like", "normal", "normal.in_place", "normal.number_mean", "uniform",
                 "nn.functional.dropout", "nn.functional.dropout2d", "nn.functional.dropout3d",
                 "nn.functional.alpha_dropout", "nn.functional.feature_alpha_dropout.with_train",
                 "nn.functional.rrelu", "randn", "empty", "empty_like", "empty_strided",
                 "empty_permuted", "new_empty", "new_empty_strided")
}

# torch dtype -> NumPy dtype, for every dtype minigrad supports (dtypes.py).
DTYPES: dict[torch.dtype, np.dtype] = {
    torch.float32: np.dtype(np.float32), torch.float64: np.dtype(np.float64),
    torch.bool: np.dtype(np.bool_), torch.int8: np.dtype(np.int8),
    torch.int16: np.dtype(np.int16), torch.int32: np.dtype(np.int32),
    torch.int64: np.dtype(np.int64), torch.uint8: np.dtype(np.uint8),
    torch.uint16: np.dtype(np.uint16), torch.uint32: np.dtype(np.uint32),
    torch.uint64: np.dtype(np.uint64),
}


class Unconvertible(Exception):
    """A sample holds something minigrad has no form of (a float16 tensor, a complex number)."""


def stand_in_for_expecttest() -> None:
    """PyTorch's test databases import ``expecttest`` (a test-only dependency of PyTorch's
    own suite) for its TestCase base class alone; when it is not installed, register a
    stand-in module with unittest's TestCase so the databases can still load."""
    try:
        import expecttest  # noqa: F401
    except ImportError:
        shim = types.ModuleType("expecttest")
        shim.TestCase = unittest.TestCase
        sys.modules["expecttest"] = shim


def load_op_db() -> list:
    """PyTorch's OpInfo list (see :func:`stand_in_for_expecttest`)."""
    stand_in_for_expecttest()
    from torch.testing._internal.common_methods_invocations import op_db

    return op_db


def _method(name: str) -> Callable[..., Any]:
    def call(x: Any, *args: Any, **kwargs: Any) -> Any:
        if not isinstance(x, Tensor):
            raise TypeError(f"Tensor.{name}: the input is a {type(x).__name__}, not a Tensor")
        return getattr(x, name)(*args, **kwargs)

    call.__name__ = name
    return call


def resolve(full_name: str, name: str) -> Callable[..., Any] | None:
    """minigrad's callable for the OpInfo ``full_name`` (``name`` without the variant), or
    None when minigrad has no op of that name."""
    if full_name in OVERRIDES:
        return OVERRIDES[full_name]
    if name in OVERRIDES:
        return OVERRIDES[name]
    if name.startswith("nn.functional."):
        fn = getattr(F, name[len("nn.functional."):], None)
        return fn if callable(fn) else None
    if "." in name:
        return None
    fn = getattr(minigrad, name, None)
    if isinstance(fn, (types.FunctionType, types.BuiltinFunctionType)):
        return fn
    if callable(getattr(Tensor, name, None)):
        return _method(name)
    return None


def to_numpy_dtype(dtype: torch.dtype) -> np.dtype:
    """The NumPy dtype minigrad uses for ``dtype``; Unconvertible when it has none."""
    if dtype not in DTYPES:
        raise Unconvertible(f"minigrad has no {dtype}")
    return DTYPES[dtype]


# Samples drawn at random (dropout inside attention): not comparable value by value.
RANDOM_SAMPLES: dict[str, Callable[[Any], bool]] = {
    "nn.functional.scaled_dot_product_attention": lambda s: s.kwargs.get("dropout_p", 0.0) > 0,
}


def _fractional_samples(pool_dims: int) -> Callable[[Any], dict]:
    """Fractional max pooling places its windows by random numbers (``_random_samples``, one
    per batch row, channel and pooled dim, uniform in [0, 1)) that each library would draw
    from its own generator: the sample gets one fixed draw, given to both."""
    import torch

    def draw(sample: Any) -> dict:
        if sample.kwargs.get("_random_samples") is not None:
            return dict(sample.kwargs)
        x = sample.input
        rows = 1 if x.dim() == pool_dims + 1 else x.shape[0]
        u = torch.from_numpy(np.random.default_rng(x.numel()).uniform(
            0.0, 1.0, (rows, x.shape[-pool_dims - 1], pool_dims))).to(x.dtype)
        return {**sample.kwargs, "_random_samples": u}
    return draw


# Options a sample leaves to a random draw, fixed here for both libraries: op -> the
# sample's keyword arguments with the draw made.
FIXED_DRAWS: dict[str, Callable[[Any], dict]] = {
    "nn.functional.fractional_max_pool2d": _fractional_samples(2),
    "nn.functional.fractional_max_pool3d": _fractional_samples(3),
}


def convert(obj: Any, leaves: list) -> tuple[Any, Any]:
    """``(torch_obj, minigrad_obj)`` for one sample argument. Tensors are copied (the torch
    side too: an op may write into its input). A tensor OpInfo marked ``requires_grad``
    (``sample_inputs(..., requires_grad=True)`` marks those torch can differentiate) becomes
    a leaf that requires grad on both sides, appended to ``leaves`` as a
    ``(torch_leaf, minigrad_leaf)`` pair."""
    if isinstance(obj, torch.Tensor):
        if obj.is_complex() or obj.dtype not in DTYPES or obj.layout != torch.strided:
            raise Unconvertible(f"a {obj.dtype} {obj.layout} tensor")
        t = obj.detach().clone()
        m = minigrad.tensor(t.numpy().copy(), dtype=DTYPES[obj.dtype])
        if obj.requires_grad:
            t.requires_grad_(True)
            m.requires_grad_(True)
            leaves.append((t, m))
        return t, m
    if isinstance(obj, torch.dtype):
        return obj, to_numpy_dtype(obj)
    if isinstance(obj, torch.Size):
        return obj, tuple(obj)
    if isinstance(obj, torch.device):
        return obj, str(obj)
    if isinstance(obj, complex):
        raise Unconvertible("a complex number")
    if isinstance(obj, torch.nn.Module):  # e.g. a distance_function=nn.PairwiseDistance()
        raise Unconvertible(f"a torch module {type(obj).__name__}")
    if callable(obj) and getattr(torch.nn.functional, getattr(obj, "__name__", ""), None) is obj:
        # a torch.nn.functional function passed as an argument (activation=F.gelu): minigrad's
        # function of the same name, or none
        ours = getattr(F, obj.__name__, None)
        if ours is None:
            raise Unconvertible(f"torch.nn.functional.{obj.__name__}")
        return obj, ours
    if isinstance(obj, (list, tuple)):
        pairs = [convert(o, leaves) for o in obj]
        ts, ms = [p[0] for p in pairs], [p[1] for p in pairs]
        kind = type(obj) if type(obj) in (list, tuple) else tuple
        return kind(ts), kind(ms)
    if isinstance(obj, dict):
        pairs = {k: convert(v, leaves) for k, v in obj.items()}
        return {k: p[0] for k, p in pairs.items()}, {k: p[1] for k, p in pairs.items()}
    if isinstance(obj, slice):
        (start, mstart), (stop, mstop), (step, mstep) = (
            convert(obj.start, leaves), convert(obj.stop, leaves), convert(obj.step, leaves))
        return slice(start, stop, step), slice(mstart, mstop, mstep)
    return obj, obj


def sample_dim(full_name: str, sample: Any) -> int | None:
    """The dimension an index-returning op works along (sort, topk, max(dim), ...), so that
    indices that differ only where values tie can be recognised as equally right; None for
    ops whose indices must match exactly."""
    args, kwargs = sample.args, sample.kwargs
    position = {"sort": 0, "argsort": 0, "msort": None, "max.reduction_with_dim": 0,
                "min.reduction_with_dim": 0, "kthvalue": 1, "mode": 0, "median": 0,
                "nanmedian": 0, "cummax": 0, "cummin": 0, "topk": 1}
    if full_name not in position:
        return None
    if full_name == "msort":
        return 0
    pos = position[full_name]
    if len(args) > pos:
        return int(args[pos])
    return int(kwargs.get("dim", -1))

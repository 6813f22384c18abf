"""Fractional max pooling: values and indices against a loop over PyTorch's definition,
gradients against finite differences (float64), the NaN rule, errors, the module's buffer,
and (where installed) PyTorch."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.nn import functional as F


def _starts(u: float, n: int, o: int, k: int, dtype: type) -> list:
    """PyTorch's interval sequence, in the input's dtype."""
    u = dtype(u)
    alpha = dtype(n - k) / dtype(o - 1) if o > 1 else dtype(0)
    seq = [int((dtype(i) + u) * alpha) - int(u * alpha) for i in range(o - 1)]
    return seq + [n - k] if o > 0 else seq


def loop_reference(x: np.ndarray, kernel: tuple, out: tuple, samples: np.ndarray) -> tuple:
    """(values, flat indices) of batched x (N, C, *S): one plane, one output at a time; a
    value wins when it is greater than the best so far or NaN, as PyTorch's loop."""
    d = len(kernel)
    order = (1, 0) if d == 2 else (0, 1, 2)  # which sample drives each spatial dim
    n_, c_ = x.shape[:2]
    y = np.empty((n_, c_, *out), x.dtype)
    idx = np.empty((n_, c_, *out), np.int64)
    for n, c in itertools.product(range(n_), range(c_)):
        seqs = [_starts(samples[n, c, j], size, o, k, x.dtype.type) for j, size, o, k
                in zip(order, x.shape[2:], out, kernel)]
        for pos in itertools.product(*(range(o) for o in out)):
            best, arg = -np.inf, -1
            for off in itertools.product(*(range(k) for k in kernel)):
                at = tuple(s[p] + f for s, p, f in zip(seqs, pos, off))
                v = x[(n, c, *at)]
                if arg < 0 or v > best or np.isnan(v):
                    best, arg = v, int(np.ravel_multi_index(at, x.shape[2:]))
            y[(n, c, *pos)], idx[(n, c, *pos)] = best, arg
    return y, idx


# (input shape, kernel, output_size, output_ratio)
CASES = [
    ((2, 3, 7, 6), (2, 3), (4, 3), None),
    ((1, 2, 9, 9), 3, None, 0.5),
    ((2, 1, 5, 8), (1, 2), (5, 3), None),
    ((3, 8, 10), 2, (4, 4), None),  # unbatched
    ((2, 2, 6, 7, 5), (2, 3, 2), (3, 2, 3), None),
    ((1, 3, 8, 8, 8), 2, None, (0.5, 0.4, 0.6)),
    ((2, 5, 6, 7), (3, 2, 2), (2, 4, 1), None),  # unbatched 3-d
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("case", range(len(CASES)))
def test_values_and_indices_follow_the_definition(case: int, dtype: type) -> None:
    shape, kernel, size, ratio = CASES[case]
    d = 3 if len(shape) == 5 or case == 6 else 2
    rng = np.random.default_rng(case)
    x = rng.standard_normal(shape).astype(dtype)
    batched = x if x.ndim == d + 2 else x[None]
    samples = rng.random((batched.shape[0], batched.shape[1], d)).astype(dtype)
    fn = F.fractional_max_pool2d if d == 2 else F.fractional_max_pool3d
    y, idx = fn(mg.tensor(x), kernel, output_size=size, output_ratio=ratio,
                return_indices=True, _random_samples=mg.tensor(samples))
    kernel = kernel if isinstance(kernel, tuple) else (kernel,) * d
    out = tuple(y.shape[-d:])
    if ratio is not None:
        ratios = ratio if isinstance(ratio, tuple) else (ratio,) * d
        assert out == tuple(int(n * r) for n, r in zip(x.shape[-d:], ratios))
    want_y, want_idx = loop_reference(batched, kernel, out, samples)
    if x.ndim == d + 1:
        want_y, want_idx = want_y[0], want_idx[0]
    np.testing.assert_array_equal(y.data, want_y)
    np.testing.assert_array_equal(idx.data, want_idx)
    assert y.dtype == dtype and idx.dtype == np.int64


@pytest.mark.parametrize("case", [0, 3, 4, 6])
def test_gradient_matches_finite_differences(case: int) -> None:
    shape, kernel, size, ratio = CASES[case]
    d = 3 if len(shape) == 5 or case == 6 else 2
    rng = np.random.default_rng(10 + case)
    x = mg.tensor(rng.standard_normal(shape), requires_grad=True)
    batch = shape[0] if len(shape) == d + 2 else 1
    samples = mg.tensor(rng.random((batch, shape[-d - 1], d)))
    fn = F.fractional_max_pool2d if d == 2 else F.fractional_max_pool3d
    assert mg.gradcheck(lambda t: fn(t, kernel, size, ratio, _random_samples=samples), [x])


def test_a_later_nan_wins() -> None:
    x = np.zeros((1, 1, 2, 2))
    x[0, 0, 0, 1] = x[0, 0, 1, 0] = np.nan
    y, idx = F.fractional_max_pool2d(mg.tensor(x), 2, output_size=1, return_indices=True,
                                     _random_samples=mg.tensor(np.full((1, 1, 2), 0.5)))
    assert np.isnan(y.data).all() and idx.data.item() == 2


def test_random_samples_come_from_the_global_generator() -> None:
    x = mg.tensor(np.random.default_rng(0).standard_normal((2, 3, 9, 9)))
    mg.manual_seed(4)
    a = F.fractional_max_pool2d(x, 2, output_size=4)
    mg.manual_seed(4)
    b = F.fractional_max_pool2d(x, 2, output_size=4)
    assert a.shape == (2, 3, 4, 4) and np.array_equal(a.data, b.data)


X = np.zeros((2, 3, 7, 6))
ERRORS = [
    ({"_random_samples": np.zeros((1, 3, 2))}, RuntimeError, "no less then input batch size"),
    ({"_random_samples": np.zeros((2, 2, 2))}, RuntimeError, "equals to input channel size"),
    ({"_random_samples": np.zeros((2, 3, 3))}, RuntimeError, "size\\(2\\) equals to 2; got 3"),
    ({"_random_samples": np.zeros((2, 3, 2), np.float32)}, RuntimeError, "the same dtype"),
    ({"output_size": (7, 3)}, RuntimeError, "pool height 2 too large relative to input height"),
    ({"output_size": (4, 6)}, RuntimeError, "pool width 2 too large relative to input width"),
    ({"output_size": None}, ValueError, "requires specifying either"),
    ({"input": X[0, 0]}, RuntimeError, "Expected 3D or 4D tensor"),
    ({"input": np.zeros((1, 1, 4, 5, 6)), "output_size": (3, 2, 2)}, RuntimeError,
     "pool3d_out\\(\\): pool time 2 too large relative to input time 4"),
    ({"input": np.zeros((1, 1, 4, 5, 6)), "output_size": (2, 3, 5)}, RuntimeError,
     "pool width 2 too large relative to input width 6"),
    ({"input": X.astype(np.int64)}, NotImplementedError, "floating-point input"),
]


@pytest.mark.parametrize("change, error, message", ERRORS)
def test_errors(change: dict, error: type, message: str) -> None:
    args = {"input": X, "kernel_size": 2, "output_size": (4, 3),
            "_random_samples": np.zeros((2, 3, 2))}
    args.update(change)
    args["input"] = mg.tensor(args["input"])
    fn = F.fractional_max_pool3d if args["input"].ndim == 5 else F.fractional_max_pool2d
    if args["input"].ndim == 5:
        args["_random_samples"] = np.zeros((1, 1, 3))
    with pytest.raises(error, match=message):
        fn(**args)


MODULE_ERRORS = [
    ({}, "requires specifying either an output size, or a pooling ratio"),
    ({"output_size": 2, "output_ratio": 0.5}, "only one of output_size and output_ratio"),
    ({"output_ratio": 1.5}, "output_ratio must be between 0 and 1"),
    ({"output_ratio": (0.5, 0.0)}, "output_ratio must be between 0 and 1"),
]


@pytest.mark.parametrize("kwargs, message", MODULE_ERRORS)
def test_module_errors(kwargs: dict, message: str) -> None:
    for cls in (nn.FractionalMaxPool2d, nn.FractionalMaxPool3d):
        with pytest.raises(ValueError, match=message):
            cls(2, **kwargs)


def test_module_keeps_the_samples_as_a_buffer() -> None:
    samples = mg.tensor(np.random.default_rng(1).random((1, 2, 3)))
    m = nn.FractionalMaxPool3d(2, output_ratio=0.5, _random_samples=samples,
                               return_indices=True)
    assert list(m.state_dict()) == ["_random_samples"]
    assert nn.FractionalMaxPool2d(2, output_size=3).state_dict() == {}
    x = mg.tensor(np.random.default_rng(2).standard_normal((1, 2, 6, 6, 6)))
    y, idx = m(x)
    ref = F.fractional_max_pool3d(x, 2, output_ratio=0.5, return_indices=True,
                                  _random_samples=samples)
    assert np.array_equal(y.data, ref[0].data) and np.array_equal(idx.data, ref[1].data)
    m.to(np.float32)
    assert m._random_samples.dtype == np.float32


@pytest.mark.parametrize("d", [2, 3])
def test_matches_pytorch(d: int) -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(d)
    for trial in range(6):
        space = tuple(int(v) for v in rng.integers(4, 12, d))
        kernel = tuple(int(v) for v in rng.integers(1, 4, d))
        # PyTorch's 3-d pooling needs o + k - 1 < n, its 2-d one o + k - 1 <= n
        out = tuple(int(rng.integers(1, n - k + 4 - d)) for n, k in zip(space, kernel))
        dtype = (np.float32, np.float64)[trial % 2]
        x = rng.standard_normal((2, 3, *space)).astype(dtype)
        samples = rng.random((2, 3, d)).astype(dtype)
        t_fn = getattr(torch.nn.functional, f"fractional_max_pool{d}d")
        t_y, t_idx = t_fn(torch.tensor(x), kernel, output_size=out, return_indices=True,
                          _random_samples=torch.tensor(samples))
        m_fn = getattr(F, f"fractional_max_pool{d}d")
        m_y, m_idx = m_fn(mg.tensor(x), kernel, output_size=out, return_indices=True,
                          _random_samples=mg.tensor(samples))
        np.testing.assert_array_equal(m_y.data, t_y.numpy())
        np.testing.assert_array_equal(m_idx.data, t_idx.numpy())

"""Every primitive the fast backend overrides returns arrays of the same form on both backends.

On a cold Numba cache a fast primitive whose kernel is still compiling is answered by the
reference method (``kernels/runtime/background_compile.py``), and what it returns flows into
the next primitives. Numba compiles one version of a kernel per argument type: dtype,
number of dimensions and layout (C-contiguous, F-contiguous or neither). A reference answer
of another form than the kernel's makes later kernels compile versions that a fully fast
run never asks for. So, for every override (the table fails for one it does not list), both
backends run on the same float32 inputs of a small GPT's shapes, through each route the fast
backend chooses between, and every array they return, or write in place, has one dtype,
shape and contiguity. Values are tests/kernels/test_backends.py's business.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest

from minigrad.backends import Fast, Reference
from minigrad.optim.adam import adam_coefficients

FB, RB = Fast(), Reference()
F32 = np.float32
B, T, H, HS = 4, 16, 2, 8  # the trainer's tiny GPT: batch 4, block 16, 2 heads of 8
C = H * HS


def form(result: object) -> object:
    """What a kernel's signature sees of a result: for each array its dtype, shape and
    (C-contiguous, F-contiguous); tuples and lists item by item; other values by type."""
    if isinstance(result, np.ndarray):
        return str(result.dtype), result.shape, result.flags.c_contiguous, \
            result.flags.f_contiguous
    if isinstance(result, (tuple, list)):
        return type(result).__name__, tuple(form(r) for r in result)
    return type(result).__name__


def _rand(*shape: int, scale: float = 1.0, seed: int = 0) -> np.ndarray:
    return (np.random.default_rng(seed).standard_normal(shape) * scale).astype(F32)


def _packed_qkv(t: int = T) -> tuple:
    """q, k, v (B, t, H, hs) as strided views of one (B, t, 3C) projection, as a GPT gives."""
    views = _rand(B, t, 3 * C).reshape(B, t, 3, H, HS)
    return views[:, :, 0], views[:, :, 1], views[:, :, 2]


def _copies(args: tuple) -> tuple:
    """The arrays among ``args`` copied with their layout (for primitives that write in place)."""
    return tuple(np.copy(a, order="K") if isinstance(a, np.ndarray) else a for a in args)


#: the primitives that write into arguments they are given
WRITE_IN_PLACE = {"add_weight_grad", "adam_update", "cross_entropy", "embedding_backward"}

# name -> calls: each yields (label, method name, args); the arguments of a backward are
# made by the same backend's forward (what an autograd step hands it)
Call = tuple[str, str, Callable[[object], tuple]]


def _softmax_family() -> Iterator[Call]:
    x, g = _rand(B, H, T, T, scale=3), _rand(B, H, T, T, seed=1)
    for fwd in ("softmax", "log_softmax"):
        yield fwd, fwd, lambda be, f=fwd: (x,)
        yield fwd, f"{fwd}_backward", lambda be, f=fwd: (getattr(be, f)(x), g)


def _matmul_and_linear() -> Iterator[Call]:
    x, w, b = _rand(B, T, C), _rand(3 * C, C, seed=1), _rand(3 * C, seed=2)
    g = _rand(B, T, 3 * C, seed=3)
    yield "batched", "matmul", lambda be: (x, w.T)
    yield "transposed rows", "matmul", lambda be: (g.reshape(-1, 3 * C).T, x.reshape(-1, C))
    yield "bias", "linear", lambda be: (x, w, b)
    yield "no bias", "linear", lambda be: (x, w, None)
    yield "one row (decoding)", "linear", lambda be: (x[:1, -1:], w, b)
    for need in ((True, True, True), (True, False, False), (False, True, True)):
        yield f"needs {need}", "linear_backward", lambda be, n=need: (g, x, w, *n)
    yield "into dw", "add_weight_grad", lambda be: (g.reshape(-1, 3 * C), x.reshape(-1, C),
                                                    np.zeros((3 * C, C), F32))


def _layer_norm() -> Iterator[Call]:
    x, w, b, g = _rand(B, T, C, scale=2), _rand(C, seed=1), _rand(C, seed=2), _rand(B, T, C, seed=3)
    yield "rows", "layer_norm", lambda be: (x, w, b, 1e-5)
    yield "one row (decoding)", "layer_norm", lambda be: (x[:1, -1:], w, b, 1e-5)
    yield "rows", "layer_norm_backward", lambda be: (
        g, x, w, *be.layer_norm(x, w, b, 1e-5)[1:])


def _batch_norm() -> Iterator[Call]:
    for label, shape in (("channels of maps", (B, C, 4 * 4)), ("features", (B, C, 1))):
        x, g = _rand(*shape, scale=2), _rand(*shape, seed=3)
        w, b = _rand(C, seed=1), _rand(C, seed=2)
        yield label, "batch_norm", lambda be, x=x, w=w, b=b: (x, w, b, 1e-5)
        yield label, "batch_norm_backward", lambda be, x=x, g=g, w=w, b=b: (
            g, x, w, be.batch_norm(x, w, b, 1e-5)[1],
            1.0 / np.sqrt(be.batch_norm(x, w, b, 1e-5)[2] + 1e-5))


def _gelu() -> Iterator[Call]:
    x, g = _rand(B, T, 4 * C, scale=3), _rand(B, T, 4 * C, seed=1)
    for approximate in ("none", "tanh"):
        yield approximate, "gelu", lambda be, a=approximate: (x, True, a)
        yield f"{approximate}, no grad", "gelu", lambda be, a=approximate: (x, False, a)
        yield approximate, "gelu_backward", lambda be, a=approximate: (g, be.gelu(x, True, a)[1])


def _attention() -> Iterator[Call]:
    q, k, v = _packed_qkv()
    g = _rand(B, T, H, HS, seed=5)
    mask = np.where(np.random.default_rng(6).random((B, 1, T, T)) < 0.3, -np.inf, 0).astype(F32)
    drop = ((np.random.default_rng(7).random((B, H, T, T)) > 0.1) / 0.9).astype(F32)
    scale = 1 / np.sqrt(HS)
    routes = {"fused, P kept": (None, None, True), "fused, P recomputed": (None, None, False),
              "mask": (mask, None, True), "dropout": (None, drop, True)}
    for label, (m, d, keep) in routes.items():
        args = (q, k, v, m, True, scale, d, keep)
        yield label, "attention", lambda be, a=args: a
        yield label, "attention_backward", lambda be, a=args, d=d: (
            g, be.attention(*a)[2], scale, d, (True, True, True), True, (q, k, v))
    # decoding: one new query against a key/value cache of C-contiguous arrays
    cache = tuple(np.ascontiguousarray(a) for a in (k[:1], v[:1]))
    yield "decoding", "attention", lambda be: (q[:1, -1:], *cache, None, True, scale, None, True)


def _cross_entropy() -> Iterator[Call]:
    vocab = 65
    logits = _rand(B * T, vocab, scale=3)
    targets = np.random.default_rng(1).integers(0, vocab, B * T)
    targets[::7] = -100
    yield "targets", "count_targets", lambda be: (targets, vocab, -100)
    yield "fresh gradient", "cross_entropy", lambda be: (logits, targets, -100, 0.5)
    yield "in place", "cross_entropy", lambda be: (logits.copy(), targets, -100, 0.5, True)


def _embedding_mask_optimizer() -> Iterator[Call]:
    vocab = 65
    ids, g = np.random.default_rng(1).integers(0, vocab, (B, T)), _rand(B, T, C)
    yield "zeros", "embedding_backward", lambda be: (ids, g, vocab)
    yield "into out", "embedding_backward", lambda be: (ids, g, vocab, _rand(vocab, C, seed=2))
    yield "causal", "masked_fill", lambda be: (_rand(B, H, T, T), np.triu(np.ones((T, T), bool), 1),
                                               -np.inf)
    yield "gradient", "sum_of_squares", lambda be: (_rand(3 * C, C),)
    c = adam_coefficients(1e-3, 0.9, 0.99, 1e-8, 0.1, 3, True, F32)
    for fused in (True, False):
        yield f"fused={fused}", "adam_update", lambda be, f=fused: (
            _rand(3 * C, C), _rand(3 * C, C, seed=1), np.zeros((3 * C, C), F32),
            np.zeros((3 * C, C), F32), c, f)


def _windows() -> Iterator[Call]:
    x = _rand(2, 3, 8, 8)
    k, s, r = (2, 2), (2, 2), (1, 1)
    g_cols = _rand(2, 3, 4, 4, 2, 2, seed=1)
    yield "conv", "windows_backward", lambda be: (g_cols, x.shape, s, r)
    pads = ((1, 1), (1, 1))
    yield "conv rows", "window_rows", lambda be: (x, (3, 3), (1, 1), (1, 1), pads)
    yield "conv rows", "window_rows_backward", lambda be: (
        _rand(*be.window_rows(x, (3, 3), (1, 1), (1, 1), pads).shape, seed=3), x.shape, (1, 1),
        (1, 1), pads)
    yield "conv columns", "window_columns", lambda be: (x, (3, 3), (1, 1), (1, 1), pads)
    yield "conv columns", "window_columns_backward", lambda be: (
        _rand(*be.window_columns(x, (3, 3), (1, 1), (1, 1), pads).shape, seed=3), x.shape,
        (1, 1), (1, 1), pads)
    yield "bias gradient", "reduce_sum", lambda be: (_rand(B * T, 4 * C), 0)
    yield "conv bias gradient", "reduce_sum", lambda be: (_rand(B, C, T), (0, 2))
    yield "whole", "reduce_sum", lambda be: (_rand(B, C, T),)
    yield "last axis", "reduce_sum", lambda be: (_rand(B, C, T), -1, True)
    yield "activation", "relu", lambda be: (_rand(B, T, C),)
    yield "activation", "relu_backward", lambda be: (_rand(B, T, C, seed=1),
                                                     be.relu(_rand(B, T, C)))
    yield "conv bias", "channels_first", lambda be: (_rand(1, 2, 64, 5), _rand(5, seed=4))
    yield "conv", "channels_first", lambda be: (_rand(1, 2, 64, 5), None)
    yield "conv bias", "channels_last", lambda be: (_rand(2, 1, 5, 64), True)
    yield "conv", "channels_last", lambda be: (_rand(2, 1, 5, 64), False)
    yield "pool", "window_max", lambda be: (x, k, s, r)
    yield "pool", "window_select", lambda be: (x, be.window_max(x, k, s, r)[1], k, s, r)
    yield "pool", "window_select_backward", lambda be: (
        _rand(2, 3, 4, 4, seed=2), be.window_max(x, k, s, r)[1], x.shape, k, s, r)


def _recurrence() -> Iterator[Call]:
    L, N, hid = 5, B, C
    for kind, gates in (("RNN_TANH", 1), ("LSTM", 4), ("GRU", 3)):
        gi, h0 = _rand(L, N, gates * hid), _rand(N, hid, seed=1)
        c0 = _rand(N, hid, seed=2) if kind == "LSTM" else None
        w, b = _rand(gates * hid, hid, scale=0.1, seed=3), _rand(gates * hid, seed=4)
        args = (kind, gi, h0, c0, w, b, False)
        yield kind, "recurrence", lambda be, a=args: a
        yield kind, "recurrence_backward", lambda be, a=args, kind=kind: (
            kind, _rand(*be.recurrence(*a)[0].shape, seed=5), *be.recurrence(*a), a[2], a[3],
            a[4], False)


CALLS = [call for family in (_softmax_family, _matmul_and_linear, _layer_norm, _batch_norm,
                             _gelu, _attention,
                             _cross_entropy, _embedding_mask_optimizer, _windows, _recurrence)
         for call in family()]


def test_every_fast_override_is_in_the_table():
    overrides = {n for n, f in vars(Fast).items() if callable(f) and not n.startswith("_")}
    missing = sorted(overrides - {name for _, name, _ in CALLS})
    assert not missing, f"Fast overrides {missing}: add their calls to CALLS"


@pytest.mark.parametrize(("label", "name", "make"), CALLS,
                         ids=[f"{name}-{label}" for label, name, _ in CALLS])
def test_both_backends_return_arrays_of_one_form(label, name, make):
    fast_args, ref_args = make(FB), make(RB)
    if name in WRITE_IN_PLACE:  # each backend writes its own copy; what it wrote counts too
        fast_args, ref_args = _copies(fast_args), _copies(ref_args)
    fast = getattr(FB, name)(*fast_args)
    ref = getattr(RB, name)(*ref_args)
    assert form(ref) == form(fast), f"{name} ({label}): the reference answers another form"
    assert form(ref_args) == form(fast_args), f"{name} ({label}): arguments written differently"

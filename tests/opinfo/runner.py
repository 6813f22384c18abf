"""One OpInfo sample through torch and minigrad -> one outcome.

For each sample both libraries get equal copies of ``input``, ``args`` and ``kwargs``.
torch runs first: a sample torch itself refuses is ``not applicable`` (OpInfo keeps a few
error samples). Then, in this order, the first difference decides the outcome:

- ``refused argument``: minigrad's callable does not take an argument torch accepts
  (a ``TypeError`` about an unexpected keyword or too many positional arguments);
- ``crash``: minigrad raised anything else, in the forward or in a backward;
- ``wrong shape`` / ``wrong dtype`` / ``wrong value``: some output differs (values within
  ``torch.testing.assert_close``'s default tolerances for the output's dtype; NaN equals NaN;
  indices of sort/topk/max(dim)/... may differ where the values they pick tie);
- ``wrong gradient``: for float64 samples of an op with ``supports_autograd``, the
  gradient of ``L = sum_k <w_k, out_k>`` (``w_k`` random, one per floating output) with
  respect to every floating tensor in the sample;
- ``wrong second derivative``: where OpInfo says ``supports_gradgrad``, the gradient of
  ``sum_i <v_i, dL/dx_i>`` (``v_i`` random) with respect to the same inputs, through
  ``create_graph=True``;
- ``pass``.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

import minigrad
from minigrad import Tensor

from .op_map import (
    DTYPES,
    EXCLUDED,
    FIXED_DRAWS,
    RANDOM_SAMPLES,
    Unconvertible,
    convert,
    resolve,
    sample_dim,
)

PASS = "pass"
WRONG_VALUE = "wrong value"
WRONG_GRAD = "wrong gradient"
WRONG_GRADGRAD = "wrong second derivative"
WRONG_DTYPE = "wrong dtype"
WRONG_SHAPE = "wrong shape"
CRASH = "crash"
REFUSED = "refused argument"
NOT_APPLICABLE = "not applicable"  # torch raised, or the sample has no minigrad form
CATEGORIES = (PASS, WRONG_VALUE, WRONG_GRAD, WRONG_GRADGRAD, WRONG_DTYPE, WRONG_SHAPE, CRASH,
              REFUSED)

# The dtypes of the default run, and of the exhaustive (slow) one.
FAST_DTYPES = (torch.float32, torch.float64, torch.int64, torch.bool)
ALL_DTYPES = tuple(DTYPES)

# torch.testing.assert_close's defaults (rtol, atol) per dtype; integers and bool: exact.
TOLERANCES = {torch.float32: (1.3e-6, 1e-5), torch.float64: (1e-7, 1e-7)}
# Plus, for floats, an absolute allowance of this many units of the output's largest
# magnitude: a sum of products loses that much to rounding in whatever order it is added, so
# an element that cancels to nearly 0 may differ by more than its own rtol.
CANCELLATION = {torch.float32: 8 * 2.0 ** -23, torch.float64: 8 * 2.0 ** -52}

_REFUSAL = re.compile(r"unexpected keyword argument|positional argument|takes \d+ positional"
                      r"|takes from \d+ to \d+ positional|got multiple values")


@dataclass(frozen=True)
class Outcome:
    """What happened to sample ``index`` (its position in ``sample_inputs(dtype)``) of ``op``."""

    op: str
    dtype: str
    index: int
    category: str
    detail: str
    sample: str
    kwargs: tuple[str, ...] = ()


class _Mismatch(Exception):
    def __init__(self, category: str, detail: str) -> None:
        super().__init__(detail)
        self.category = category


def dtype_name(dtype: torch.dtype) -> str:
    """``torch.float32`` -> ``"float32"``."""
    return str(dtype).removeprefix("torch.")


def describe(sample: Any, dtype: torch.dtype) -> str:
    """A one-line summary of a SampleInput: ``T(shape)`` for a tensor of ``dtype`` (the
    sample's), ``T(shape):int32`` for one of another dtype; other values as they are."""
    def show(x: Any) -> str:
        if isinstance(x, torch.Tensor):
            stride = "" if x.is_contiguous() else ",noncontig"
            other = "" if x.dtype == dtype else ":" + dtype_name(x.dtype)
            return f"T{tuple(x.shape)}{stride}{other}"
        if isinstance(x, (list, tuple)):
            inner = ", ".join(show(v) for v in x)
            return f"[{inner}]" if isinstance(x, list) else f"({inner})"
        if isinstance(x, dict):
            return "{" + ", ".join(f"{k}={show(v)}" for k, v in x.items()) + "}"
        return repr(x)

    text = show(sample.input)
    if sample.args:
        text += ", " + ", ".join(show(a) for a in sample.args)
    if sample.kwargs:
        text += ", " + ", ".join(f"{k}={show(v)}" for k, v in sample.kwargs.items())
    return text[:200]


def _leaves(out: Any) -> list:
    """An op's outputs as a flat list (tuples, named tuples and lists flattened)."""
    if isinstance(out, (tuple, list)):
        return [leaf for o in out for leaf in _leaves(o)]
    return [out]


def _numpy(t: torch.Tensor) -> np.ndarray:
    """A torch tensor's values; torch returns some zero gradients as a lazy ZeroTensor."""
    if t._is_zerotensor():
        return np.zeros(tuple(t.shape), DTYPES[t.dtype])
    return t.detach().numpy()


def _ties_equal(x: np.ndarray, dim: int, idx_t: np.ndarray, idx_m: np.ndarray) -> bool:
    """Whether two index arrays pick equal values of ``x`` along ``dim`` (ties)."""
    if x.ndim == 0 or idx_t.shape != idx_m.shape:
        return False
    if idx_m.ndim < x.ndim:  # keepdim=False: the reduced dimension was dropped
        idx_t, idx_m = np.expand_dims(idx_t, dim), np.expand_dims(idx_m, dim)
    try:
        a = np.take_along_axis(x, idx_t, dim)
        b = np.take_along_axis(x, idx_m.astype(np.int64), dim)
    except (IndexError, ValueError):
        return False
    return bool(np.array_equal(a, b, equal_nan=x.dtype.kind == "f"))


def _compare(t_out: Any, m_out: Any, what: str, value_category: str,
             tie_check: Callable[[np.ndarray, np.ndarray], bool] | None = None) -> None:
    """Raise _Mismatch at the first output that differs in shape, dtype or value."""
    t_leaves, m_leaves = _leaves(t_out), _leaves(m_out)
    if len(t_leaves) != len(m_leaves):
        raise _Mismatch(WRONG_SHAPE, f"{what}: {len(m_leaves)} outputs, torch {len(t_leaves)}")
    for k, (t, m) in enumerate(zip(t_leaves, m_leaves)):
        name = f"{what} {k}" if len(t_leaves) > 1 else what
        if not isinstance(t, torch.Tensor):
            if isinstance(m, Tensor):
                raise _Mismatch(WRONG_DTYPE, f"{name}: a Tensor where torch gives {type(t)}")
            both_nan = isinstance(t, float) and isinstance(m, float) and np.isnan(t) and np.isnan(m)
            if t != m and not both_nan:
                raise _Mismatch(value_category, f"{name}: {m!r}, torch {t!r}")
            continue
        if not isinstance(m, Tensor):
            raise _Mismatch(WRONG_DTYPE, f"{name}: a {type(m).__name__}, torch a Tensor")
        if tuple(t.shape) != tuple(m.shape):
            raise _Mismatch(WRONG_SHAPE, f"{name}: shape {tuple(m.shape)}, torch {tuple(t.shape)}")
        if t.dtype not in DTYPES:
            raise _Mismatch(WRONG_DTYPE, f"{name}: dtype {m.dtype}, torch {t.dtype}")
        if DTYPES[t.dtype] != m.dtype:
            raise _Mismatch(WRONG_DTYPE, f"{name}: dtype {m.dtype}, torch {dtype_name(t.dtype)}")
        tv, mv = _numpy(t), np.asarray(m.data)
        rtol, atol = TOLERANCES.get(t.dtype, (0.0, 0.0))
        if t.dtype in CANCELLATION and tv.size:
            finite = np.abs(tv[np.isfinite(tv)])
            atol += CANCELLATION[t.dtype] * float(finite.max() if finite.size else 0.0)
        if np.allclose(mv, tv, rtol=rtol, atol=atol, equal_nan=True):
            continue
        if tie_check is not None and t.dtype == torch.int64 and tie_check(tv, mv):
            continue
        diff = np.abs(mv.astype(np.float64) - tv.astype(np.float64))
        where = np.unravel_index(np.nanargmax(np.where(np.isnan(diff), np.inf, diff)), diff.shape)
        raise _Mismatch(value_category, f"{name} at {tuple(int(i) for i in where)}: "
                                        f"{mv[where]!r}, torch {tv[where]!r}")


def _weighted_sum(outs: list, weights: list) -> Any:
    """sum_k <outs[k], weights[k]>, in the outputs' own library."""
    total = None
    for o, w in zip(outs, weights):
        term = (o * w).sum()
        total = term if total is None else total + term
    return total


def _gradients(t_out: Any, m_out: Any, pairs: list, gradgrad: bool, rng: np.random.Generator,
               ) -> None:
    """Compare d<w, out>/d(inputs) (and the second derivatives when ``gradgrad``)."""
    t_outs = [o for o in _leaves(t_out) if isinstance(o, torch.Tensor) and o.requires_grad]
    if not t_outs:
        return
    t_leaves = [p[0] for p in pairs]
    m_leaves = [p[1] for p in pairs]
    by_id = {id(t): m for t, m in zip(_leaves(t_out), _leaves(m_out))}
    m_outs = [by_id[id(o)] for o in t_outs]
    weights = [rng.standard_normal(tuple(o.shape)) for o in t_outs]
    t_loss = _weighted_sum(t_outs, [torch.from_numpy(w) for w in weights])
    try:
        t_grads = torch.autograd.grad(t_loss, t_leaves, allow_unused=True, create_graph=gradgrad)
    except RuntimeError:  # e.g. "derivative for ... is not implemented": nothing to compare
        return
    for k, m in enumerate(m_outs):
        if not isinstance(m, Tensor) or not m.requires_grad:
            raise _Mismatch(WRONG_GRAD, f"output {k} has no graph (requires_grad=False)")
    m_loss = _weighted_sum(m_outs, [minigrad.tensor(w) for w in weights])
    try:
        m_grads = minigrad.autograd.grad(m_loss, m_leaves, allow_unused=True,
                                         create_graph=gradgrad)
    except Exception as e:
        raise _Mismatch(CRASH, f"backward: {type(e).__name__}: {e}") from e
    t_dense = [torch.zeros_like(x) if g is None else g for x, g in zip(t_leaves, t_grads)]
    m_dense = [minigrad.zeros_like(x) if g is None else g for x, g in zip(m_leaves, m_grads)]
    for i, (tg, mg) in enumerate(zip(t_dense, m_dense)):
        _compare(tg, mg, f"d/d(input {i})", WRONG_GRAD)
    if not gradgrad:
        return
    t_terms = [(g, i) for i, g in enumerate(t_dense) if g.requires_grad]
    if not t_terms:
        return
    vs = [rng.standard_normal(tuple(x.shape)) for x in t_leaves]
    t_loss2 = _weighted_sum([g for g, _ in t_terms], [torch.from_numpy(vs[i]) for _, i in t_terms])
    try:
        t_gg = torch.autograd.grad(t_loss2, t_leaves, allow_unused=True)
    except RuntimeError:
        return
    m_terms = [(g, i) for i, g in enumerate(m_dense) if isinstance(g, Tensor) and g.requires_grad]
    if m_terms:
        m_loss2 = _weighted_sum([g for g, _ in m_terms],
                                [minigrad.tensor(vs[i]) for _, i in m_terms])
        try:
            m_gg = minigrad.autograd.grad(m_loss2, m_leaves, allow_unused=True)
        except Exception as e:
            raise _Mismatch(CRASH, f"double backward: {type(e).__name__}: {e}") from e
    else:
        m_gg = [None] * len(m_leaves)
    for i, (x, tg, mg) in enumerate(zip(t_leaves, t_gg, m_gg)):
        tg = torch.zeros_like(x) if tg is None else tg
        mg = minigrad.zeros_like(m_leaves[i]) if mg is None else mg
        _compare(tg.detach(), mg, f"d2/d(input {i})", WRONG_GRADGRAD)


def classify_raise(e: Exception) -> tuple[str, str]:
    """``(category, detail)`` of an exception minigrad raised on a call torch accepted: a
    TypeError about an unexpected keyword or too many positional arguments is a refused
    argument, anything else a crash (named with the file and line it came from)."""
    if isinstance(e, TypeError) and _REFUSAL.search(str(e)):
        return REFUSED, f"TypeError: {e}"
    where = traceback.extract_tb(e.__traceback__)[-1]
    return CRASH, f"{type(e).__name__}: {e} ({where.filename.split('/')[-1]}:{where.lineno})"


def run_sample(info: Any, fn: Callable[..., Any], sample: Any, dtype: torch.dtype,
               index: int) -> Outcome:
    """The outcome of one sample of OpInfo ``info`` with minigrad callable ``fn``."""
    name = info.full_name
    desc = describe(sample, dtype)

    def outcome(category: str, detail: str = "") -> Outcome:
        return Outcome(name, dtype_name(dtype), index, category, detail[:300], desc,
                       tuple(sample.kwargs))

    if name in RANDOM_SAMPLES and RANDOM_SAMPLES[name](sample):
        return outcome(NOT_APPLICABLE, "random: values drawn at random")
    pairs: list = []
    try:
        t_in, m_in = convert(sample.input, pairs)
        t_args, m_args = convert(tuple(sample.args), pairs)
        kwargs = FIXED_DRAWS[name](sample) if name in FIXED_DRAWS else dict(sample.kwargs)
        t_kwargs, m_kwargs = convert(kwargs, pairs)
    except Unconvertible as e:
        return outcome(NOT_APPLICABLE, f"no minigrad form: {e}")
    try:
        t_out = info.op(t_in, *t_args, **t_kwargs)
    except Exception as e:  # noqa: BLE001 - torch refusing the sample makes it not applicable
        return outcome(NOT_APPLICABLE, f"torch raised {type(e).__name__}: {e}")
    try:
        m_out = fn(m_in, *m_args, **m_kwargs)
    except Exception as e:  # noqa: BLE001 - every raise is a refusal or a crash
        return outcome(*classify_raise(e))
    dim = sample_dim(name, sample)
    x = sample.input.detach().numpy() if isinstance(sample.input, torch.Tensor) else None
    tie_check = None
    if dim is not None and x is not None:
        def tie_check(tv: np.ndarray, mv: np.ndarray) -> bool:
            return _ties_equal(x, dim, tv, mv)
    try:
        _compare(t_out, m_out, "output", WRONG_VALUE, tie_check)
        if pairs:
            rng = np.random.default_rng(index)
            _gradients(t_out, m_out, pairs, bool(info.supports_gradgrad), rng)
    except _Mismatch as e:
        return outcome(e.category, str(e))
    except Exception as e:  # noqa: BLE001 - a raise while reading minigrad's outputs
        return outcome(CRASH, f"reading the outputs: {type(e).__name__}: {e}")
    return outcome(PASS)


def ops_to_run(op_db: list) -> Iterator[tuple[Any, Callable[..., Any]]]:
    """Every OpInfo that has a minigrad counterpart, with that counterpart."""
    for info in op_db:
        if info.full_name in EXCLUDED:
            continue
        fn = resolve(info.full_name, info.name)
        if fn is not None:
            yield info, fn


def run_op(info: Any, fn: Callable[..., Any], dtypes: tuple = FAST_DTYPES) -> list[Outcome]:
    """The outcomes of every sample of ``info`` for each of ``dtypes`` that torch supports
    on CPU (a failure to build the samples is one crash-free ``not applicable`` outcome)."""
    supported = info.supported_dtypes("cpu")
    results = []
    for dtype in dtypes:
        if dtype not in supported:
            continue
        differentiable = dtype == torch.float64 and info.supports_autograd
        try:
            samples = list(info.sample_inputs("cpu", dtype, requires_grad=differentiable))
        except Exception as e:  # noqa: BLE001
            results.append(Outcome(info.full_name, dtype_name(dtype), -1, NOT_APPLICABLE,
                                   f"sample_inputs raised {type(e).__name__}: {e}", ""))
            continue
        for index, sample in enumerate(samples):
            results.append(run_sample(info, fn, sample, dtype, index))
    return results

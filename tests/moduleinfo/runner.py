"""One ModuleInfo sample through torch and minigrad -> one outcome.

A sample (``ModuleInput``) is a constructor call and a forward call. For each dtype
(float32, float64) and mode (train, eval):

1. torch builds its module (``module_cls(*args, **kwargs).to(dtype)``, ``train(mode)``); a
   sample torch itself refuses is ``not applicable``;
2. minigrad builds its module of the same name with the same arguments (tensors converted),
   casts it to the dtype and loads torch's ``state_dict`` with ``strict=True``: a constructor
   argument minigrad does not take is a ``refused argument``, any other raise (a missing or
   unexpected state key included) a ``crash``;
3. both run the forward on equal copies of the inputs; then, as ``tests/opinfo``, the first
   difference decides: refused argument, crash, wrong shape / dtype / value (the outputs,
   then every entry of the two ``state_dict``s, e.g. running statistics a forward updates),
   and in float64 wrong gradient: d<w, out>/d(inputs and parameters), ``w`` random.

A module whose training-mode forward is random (``module_map.RANDOM_IN_TRAINING``) is not
compared in training mode.
"""

from __future__ import annotations

import types
from typing import Any

import numpy as np
import torch
from opinfo.op_map import DTYPES, Unconvertible, convert
from opinfo.runner import (
    CRASH,
    NOT_APPLICABLE,
    PASS,
    REFUSED,
    WRONG_VALUE,
    Outcome,
    _compare,
    _gradients,
    _Mismatch,
    classify_raise,
    describe,
    dtype_name,
)
from torch.nn.modules.lazy import LazyModuleMixin
from torch.nn.parameter import UninitializedTensorMixin as UninitializedTensorMixinT

from minigrad.nn import functional as F
from minigrad.nn.lazy import is_lazy

from .module_map import RANDOM_IN_TRAINING, THROUGH_LOG_SOFTMAX, class_name

DTYPES_RUN = (torch.float32, torch.float64)
MODES = (True, False)  # training, eval
# Samples run per class, dtype and mode by default: a class with more (LinearCrossEntropyLoss
# has 857, CrossEntropyLoss 105) runs this many spread evenly over its list, so the whole
# run stays under a minute; ``limit=None`` (``report.py --all``) runs every sample.
SAMPLE_LIMIT = 40


def _describe_call(call: Any, dtype: torch.dtype) -> str:
    """``(T(3, 4), 5), key=value`` for a FunctionInput."""
    return describe(types.SimpleNamespace(input=tuple(call.args), args=(), kwargs=call.kwargs),
                    dtype)


def _first_call(t_mod: Any, cls: type, m_ctor: tuple, fwd: Any, dtype: torch.dtype,
                training: bool) -> str:
    """A lazy module (``LazyConv2d``, ...) before and at its first call: minigrad's has
    torch's state_dict keys, each uninitialized; a first call infers the same shapes and
    the same class to become. Materializes torch's module (a call in eval mode, without a
    graph) so that its state can be loaded. Returns what differs ('' when nothing)."""
    t_before = t_mod.state_dict()
    m_mod = cls(*m_ctor[0], **m_ctor[1])
    m_mod.to(DTYPES[dtype])
    m_before = m_mod.state_dict()
    if list(m_before) != list(t_before):
        return f"state_dict keys before the first call: {list(m_before)}, torch's {list(t_before)}"
    for k, v in t_before.items():
        if is_lazy(m_before[k]) != isinstance(v, UninitializedTensorMixinT):
            return f"state_dict entry {k!r} before the first call: {m_before[k]!r}, torch's {v!r}"
    t_args, m_args = convert(tuple(fwd.args), [])
    t_kwargs, m_kwargs = convert(dict(fwd.kwargs), [])
    t_mod.eval()
    with torch.no_grad():
        t_mod(*t_args, **t_kwargs)
    t_mod.train(training)
    m_mod.eval()
    m_mod(*m_args, **m_kwargs)
    if type(m_mod).__name__ != type(t_mod).__name__:
        return f"after the first call the module is a {type(m_mod).__name__}, torch's a " \
               f"{type(t_mod).__name__}"
    shapes = {k: tuple(v.shape) for k, v in m_mod.state_dict().items()}
    t_shapes = {k: tuple(v.shape) for k, v in t_mod.state_dict().items()}
    if shapes != t_shapes:
        return f"shapes inferred at the first call: {shapes}, torch's {t_shapes}"
    return ""


def run_sample(info: Any, cls: type, sample: Any, dtype: torch.dtype, training: bool,
               index: int) -> Outcome:
    """The outcome of ModuleInput ``sample`` (position ``index``) of ModuleInfo ``info``,
    with minigrad's class ``cls``, in ``dtype`` and train (``training``) or eval mode."""
    name = class_name(info)
    ctor, fwd = sample.constructor_input, sample.forward_input
    desc = (f"{'train' if training else 'eval'}: {name}{_describe_call(ctor, dtype)}"
            f"{_describe_call(fwd, dtype)}")[:240]

    def outcome(category: str, detail: str = "") -> Outcome:
        return Outcome(name, dtype_name(dtype), index, category, detail[:300], desc,
                       tuple(ctor.kwargs) + tuple(fwd.kwargs))

    if training and name in RANDOM_IN_TRAINING:
        return outcome(NOT_APPLICABLE, "random in training mode")
    try:
        t_ctor_args, m_ctor_args = convert(tuple(ctor.args), [])
        t_ctor_kwargs, m_ctor_kwargs = convert(dict(ctor.kwargs), [])
    except Unconvertible as e:
        return outcome(NOT_APPLICABLE, f"no minigrad form: {e}")
    try:
        t_mod = info.module_cls(*t_ctor_args, **t_ctor_kwargs).to(dtype).train(training)
    except Exception as e:  # noqa: BLE001 - torch refusing the sample makes it not applicable
        return outcome(NOT_APPLICABLE, f"torch raised {type(e).__name__}: {e}")
    try:
        m_mod = cls(*m_ctor_args, **m_ctor_kwargs)
        m_mod.to(DTYPES[dtype])
        m_mod.train(training)
    except Exception as e:  # noqa: BLE001
        category, detail = classify_raise(e)
        return outcome(category, f"constructor: {detail}")
    if isinstance(t_mod, LazyModuleMixin):
        try:
            problem = _first_call(t_mod, cls, (m_ctor_args, m_ctor_kwargs), fwd, dtype,
                                  training)
        except Exception as e:  # noqa: BLE001
            return outcome(CRASH, f"lazy first call: {type(e).__name__}: {e}")
        if problem:
            return outcome(CRASH, problem)
    state = {k: v.detach().numpy().copy() for k, v in t_mod.state_dict().items()}
    try:
        m_mod.load_state_dict(state, strict=True)
    except Exception as e:  # noqa: BLE001 - PyTorch's names and shapes are the contract
        return outcome(CRASH, f"load_state_dict: {type(e).__name__}: {e}")
    pairs: list = []
    differentiable = dtype == torch.float64
    if differentiable:
        m_params = dict(m_mod.named_parameters())
        pairs += [(p, m_params[k]) for k, p in t_mod.named_parameters() if p.requires_grad]
    try:
        t_args, m_args = convert(tuple(fwd.args), pairs if differentiable else [])
        t_kwargs, m_kwargs = convert(dict(fwd.kwargs), pairs if differentiable else [])
    except Unconvertible as e:
        return outcome(NOT_APPLICABLE, f"no minigrad form: {e}")
    if name in THROUGH_LOG_SOFTMAX:
        t_args = (t_args[0].log_softmax(-1), *t_args[1:])
        m_args = (F.log_softmax(m_args[0], -1), *m_args[1:])
    try:
        t_out = t_mod(*t_args, **t_kwargs)
    except Exception as e:  # noqa: BLE001
        return outcome(NOT_APPLICABLE, f"torch raised {type(e).__name__}: {e}")
    try:
        m_out = m_mod(*m_args, **m_kwargs)
    except Exception as e:  # noqa: BLE001 - every raise is a refusal or a crash
        return outcome(*classify_raise(e))
    try:
        _compare(t_out, m_out, "output", WRONG_VALUE)
        m_state = m_mod.state_dict()
        for k, v in t_mod.state_dict().items():
            _compare(v.detach(), m_state[k], f"state {k!r} after forward", WRONG_VALUE)
        if differentiable and pairs:
            _gradients(t_out, m_out, pairs, False, np.random.default_rng(index))
    except _Mismatch as e:
        return outcome(e.category, str(e))
    except Exception as e:  # noqa: BLE001 - a raise while reading minigrad's outputs
        return outcome(CRASH, f"reading the outputs: {type(e).__name__}: {e}")
    return outcome(PASS)


def run_module(info: Any, cls: type, dtypes: tuple = DTYPES_RUN, seed: int = 0,
               limit: int | None = SAMPLE_LIMIT) -> list[Outcome]:
    """The outcomes of every sample of ModuleInfo ``info`` in each of ``dtypes`` and both
    modes (a failure to build the samples is one ``not applicable`` outcome). The samples'
    values and torch's initial parameters are drawn from torch's generator, seeded with
    ``seed`` first: the same run every time. At most ``limit`` samples per dtype and mode,
    evenly spread (their indices are their positions in the full list)."""
    results = []
    for dtype in dtypes:
        for training in MODES:
            torch.manual_seed(seed)
            try:
                samples = info.module_inputs_func(info, device="cpu", dtype=dtype,
                                                  requires_grad=dtype == torch.float64,
                                                  training=training)
            except Exception as e:  # noqa: BLE001
                results.append(Outcome(class_name(info), dtype_name(dtype), -1, NOT_APPLICABLE,
                                       f"module_inputs_func raised {type(e).__name__}: {e}", ""))
                continue
            picked = range(len(samples))
            if limit is not None and len(samples) > limit:
                picked = np.linspace(0, len(samples) - 1, limit).round().astype(int)
            for index in picked:
                results.append(run_sample(info, cls, samples[index], dtype, training,
                                          int(index)))
    return results


__all__ = ["CRASH", "PASS", "REFUSED", "run_module", "run_sample"]

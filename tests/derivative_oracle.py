"""Values, first and second derivatives of one case, computed the same way in minigrad and
in PyTorch, so that PyTorch's numbers can be recorded once as literals and checked without it.

A case is ``fn(lib, *inputs)`` written once for both libraries: ``lib.F`` is
``minigrad.nn.functional`` or ``torch.nn.functional``, ``lib.m`` is ``minigrad`` or
``torch``, and the inputs are built from a spec, a list of ``X(values)`` (float64, requires
grad), ``C(values)`` (float64 constant) and ``I(values)`` (int64 constant).

:func:`derivatives` returns, for fixed weights w_k = 1 + k/4 and v_k = 0.7 - 0.3 k:

- ``value``: fn(x), every output flattened;
- ``grad``: g_i = d<fn(x), w>/dx_i for each X input, by the plain backward;
- ``grad_graph``: the same through ``create_graph=True`` (the recorded backward, or the op's
  composite), which must give the same numbers;
- ``gradgrad``: d<g, v>/dx_i, the second derivatives along v (0 where g has no graph;
  None where PyTorch implements no second derivative, and then it is not compared).

:func:`record` prints these as Python literals (inf and nan included) and
:func:`assert_recorded` compares with them: equal within 1e-10 relative, NaN for NaN and
an infinity of the same sign for an infinity.
"""

from __future__ import annotations

import math
from pathlib import Path
from types import SimpleNamespace
from typing import Any, NamedTuple

import numpy as np


class Spec(NamedTuple):
    kind: str      # "x" float64 requiring grad, "c" float64 constant, "i" int64 constant
    values: Any


def X(values: Any) -> Spec:
    return Spec("x", values)


def C(values: Any) -> Spec:
    return Spec("c", values)


def I(values: Any) -> Spec:
    return Spec("i", values)


def minigrad_lib() -> SimpleNamespace:
    import minigrad as mg
    from minigrad import autograd
    from minigrad.nn import functional as F

    def make(spec: Spec):
        dtype = np.int64 if spec.kind == "i" else np.float64
        return mg.tensor(np.array(spec.values, dtype=dtype), requires_grad=spec.kind == "x")

    return SimpleNamespace(name="minigrad", m=mg, F=F, make=make, grad=autograd.grad,
                           numpy=lambda t: np.array(t.data, dtype=np.float64))


def torch_lib() -> SimpleNamespace:
    import torch
    import torch.nn.functional as F

    def make(spec: Spec):
        dtype = torch.int64 if spec.kind == "i" else torch.float64
        return torch.tensor(spec.values, dtype=dtype, requires_grad=spec.kind == "x")

    return SimpleNamespace(name="torch", m=torch, F=F, make=make, grad=torch.autograd.grad,
                           numpy=lambda t: (t.to_dense() if t.is_sparse else t).detach().numpy(
                               force=True).astype(np.float64))


def _tensor_like(lib: SimpleNamespace, values: np.ndarray):
    return lib.make(Spec("c", values.tolist()))


def _outputs(out) -> list:
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _weights(outs: list, lib: SimpleNamespace, start: float, step: float) -> list:
    weights, k = [], 0
    for o in outs:
        n = int(np.prod(o.shape))
        weights.append(_tensor_like(lib, (start + step * np.arange(k, k + n)).reshape(o.shape)))
        k += n
    return weights


def _dot(outs: list, weights: list):
    total = None
    for o, w in zip(outs, weights):
        term = (o * w).sum()
        total = term if total is None else total + term
    return total


def _grads(lib, outs, weights, xs, create_graph: bool) -> list:
    gs = lib.grad(_dot(outs, weights), xs, create_graph=create_graph, allow_unused=True)
    return [g if g is not None else None for g in gs]


def derivatives(lib: SimpleNamespace, fn: Any, spec: list) -> dict:
    """value, grad, grad_graph and gradgrad of ``fn`` at ``spec`` (see the module docstring)."""
    def fresh():
        inputs = [lib.make(s) for s in spec]
        return inputs, [t for t, s in zip(inputs, spec) if s.kind == "x"]

    def flat(ts, xs):
        return [(np.zeros(x.shape) if t is None else lib.numpy(t)).ravel().tolist()
                for t, x in zip(ts, xs)]

    inputs, xs = fresh()
    outs = _outputs(fn(lib, *inputs))
    value = [v for o in outs for v in lib.numpy(o).ravel().tolist()]
    plain = flat(_grads(lib, outs, _weights(outs, lib, 1.0, 0.25), xs, False), xs)

    inputs, xs = fresh()
    outs = _outputs(fn(lib, *inputs))
    gs = _grads(lib, outs, _weights(outs, lib, 1.0, 0.25), xs, True)
    graph = flat(gs, xs)
    live = [g for g in gs if g is not None and g.requires_grad]
    if not live:
        return {"value": value, "grad": plain, "grad_graph": graph,
                "gradgrad": flat([None] * len(xs), xs)}
    try:
        hs = lib.grad(_dot(live, _weights(live, lib, 0.7, -0.3)), xs, allow_unused=True)
    except RuntimeError as e:  # PyTorch has no second derivative for a few ops
        if "not implemented" not in str(e):
            raise
        return {"value": value, "grad": plain, "grad_graph": graph, "gradgrad": None}
    return {"value": value, "grad": plain, "grad_graph": graph, "gradgrad": flat(hs, xs)}


def _literal(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_literal(e) for e in v) + "]"
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v == math.inf else
                                            "-inf" if v == -math.inf else repr(v))
    return repr(v)


def record(table: dict, results: dict) -> str:
    """The literal ``EXPECTED = {...}`` block for ``results`` (name -> derivatives()), in the
    order of ``table``; value, grad and gradgrad only (grad_graph must equal grad)."""
    lines = ["EXPECTED = {"]
    for name in table:
        r = results[name]
        lines.append(f"    {name!r}: {{")
        for key in ("value", "grad", "gradgrad"):
            lines.append(f"        {key!r}: {_literal(r[key])},")
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines) + "\n"


def assert_recorded(got: dict, expected: dict, rtol: float = 1e-10, atol: float = 1e-12) -> None:
    """``got`` (derivatives()) equals ``expected`` (a recorded entry); names what differs."""
    pairs = [("value", got["value"], expected["value"])]
    keys = [("grad", "grad"), ("grad_graph", "grad")]
    if expected["gradgrad"] is not None:
        keys.append(("gradgrad", "gradgrad"))
    for key, exp_key in keys:
        assert len(got[key]) == len(expected[exp_key]), f"{key}: number of inputs differs"
        pairs += [(f"{key}[input {i}]", g, e)
                  for i, (g, e) in enumerate(zip(got[key], expected[exp_key]))]
    for what, g, e in pairs:
        np.testing.assert_allclose(np.array(g, dtype=np.float64), np.array(e, dtype=np.float64),
                                   rtol=rtol, atol=atol, equal_nan=True,
                                   err_msg=f"{what} differs from PyTorch's")


def with_differences(expected: dict, difference: tuple | None) -> dict:
    """``expected`` with its second derivatives replaced by minigrad's own where the test
    file lists a deliberate difference ``(reason, gradgrad)`` for the case."""
    return expected if difference is None else {**expected, "gradgrad": difference[1]}


def assert_differs(difference: tuple, expected: dict) -> None:
    """A listed difference whose numbers equal PyTorch's is stale."""
    ours, theirs = difference[1], expected["gradgrad"]
    assert theirs is None or not all(
        np.allclose(np.array(a), np.array(b), rtol=1e-10, atol=1e-12, equal_nan=True)
        for a, b in zip(ours, theirs)), "minigrad now agrees with PyTorch: remove the entry"


MARKER = "# recorded from PyTorch by running this file:"


def regenerate(path: str, cases: dict) -> None:
    """Rewrite the ``EXPECTED`` block that ends the test file ``path`` (after the line
    MARKER) with PyTorch's numbers for ``cases`` (name -> (fn, spec))."""
    import torch

    lib = torch_lib()
    results = {}
    for name, (fn, spec) in cases.items():
        try:
            results[name] = derivatives(lib, fn, spec)
        except Exception as e:
            raise RuntimeError(f"PyTorch fails case {name!r}: {e}") from e
    rewrite_expected(path, f"# torch {torch.__version__}\n" + record(cases, results))


def rewrite_expected(path: str, block: str) -> None:
    """Replace everything after the line MARKER in the file ``path`` with ``block``."""
    file = Path(path)
    text = file.read_text()
    head = text[: text.index("\n" + MARKER + "\n") + 1]
    file.write_text(f"{head}{MARKER}\n{block}")

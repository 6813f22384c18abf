"""See what minigrad builds: the computation graph and a model's attention.

The graph behind a tensor is the chain of :class:`~minigrad.function.Context`
objects reached through ``t._ctx.parents``. Each Context names its op
(``ctx.fn``, a Function class) and its inputs (``ctx.parents``). Those two
fields stay after ``backward()`` (which only frees the arrays an op saved), so a
graph can be drawn before or after backward. Nothing is recorded under
``no_grad()`` or when no input requires grad: such a tensor is a lone node.

- :func:`to_dot` returns Graphviz DOT text (no dependency needed);
- :func:`render` writes it to SVG/PNG/PDF with the optional ``graphviz`` package;
- :func:`graph_summary` prints the same graph as a listing for a terminal;
- :func:`attention_weights` returns the softmax weights each attention layer
  used for an input (see ``examples/plot_attention.py``).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from .function import no_grad
from .tensor import Tensor


def _graph(root: Tensor) -> list[Tensor]:
    """Every tensor ``root`` was computed from (constants included), inputs first.

    Iterative post-order depth-first walk, parents in argument order, so the
    order (and thus every node id) is the same each time for the same graph.
    """
    if not isinstance(root, Tensor):
        raise TypeError(f"expected a minigrad Tensor, got {type(root).__name__}")
    order: list[Tensor] = []
    visited: set[int] = set()
    stack: list[tuple[Tensor, bool]] = [(root, False)]
    while stack:
        t, parents_done = stack.pop()
        if parents_done:
            order.append(t)
            continue
        if id(t) in visited:
            continue
        visited.add(id(t))
        stack.append((t, True))
        if t._ctx is not None:
            # Reversed so that the first argument is popped (and numbered) first.
            for p in reversed(t._ctx.parents):
                if id(p) not in visited:
                    stack.append((p, False))
    return order


def _names_by_id(names: Mapping[str, Tensor] | Iterable[tuple[str, Tensor]] | None) -> dict:
    if names is None:
        return {}
    items = names.items() if isinstance(names, Mapping) else names
    out: dict[int, str] = {}
    for name, t in items:
        if not isinstance(t, Tensor):
            raise TypeError(f"names[{name!r}] must be a Tensor, got {type(t).__name__}")
        out.setdefault(id(t), name)
    return out


def _shape(t: Tensor) -> str:
    return "(" + ", ".join(str(s) for s in t.shape) + ("," if t.ndim == 1 else "") + ")"


def _kind(t: Tensor) -> str:
    """'op' for op outputs, 'leaf' for leaves that need grad, 'const' for the rest."""
    if t._ctx is not None:
        return "op"
    return "leaf" if t.requires_grad else "const"


def _quote(text: str) -> str:
    """A DOT double-quoted string; newlines become DOT's \\n line breaks."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(
    tensor: Tensor,
    names: Mapping[str, Tensor] | Iterable[tuple[str, Tensor]] | None = None,
    rankdir: str = "TB",
) -> str:
    """Graphviz DOT text of the computation graph that produced ``tensor``.

    One box per tensor (shape, dtype; blue if it is a leaf that requires grad,
    white for constants, grey for op outputs, bold border for ``tensor``
    itself) and one ellipse per op application (the Function's name). Edges go
    input tensor -> op -> output tensor; an op with several inputs labels each
    edge with the argument position. Node ids are ``t<i>`` and ``op<i>``,
    numbered inputs first, so the same graph always gives the same text.

    ``names`` (e.g. ``dict(model.named_parameters())``) labels those tensors.
    ``rankdir`` is 'TB' (top to bottom) or 'LR'.
    """
    if rankdir not in ("TB", "LR", "BT", "RL"):
        raise ValueError(f"rankdir must be one of TB, LR, BT, RL; got {rankdir!r}")
    order = _graph(tensor)
    named = _names_by_id(names)
    tid = {id(t): f"t{i}" for i, t in enumerate(order)}
    lines = [
        "digraph minigrad {",
        f"  rankdir={rankdir};",
        '  node [fontname="Helvetica", fontsize=10];',
        '  edge [fontname="Helvetica", fontsize=8];',
    ]
    n_op = 0
    for t in order:
        kind = _kind(t)
        label = f"{_shape(t)} {t.dtype}"
        if id(t) in named:
            label = f"{named[id(t)]}\n{label}"
        if kind == "leaf":
            label += "\nrequires_grad"
        fill = {"leaf": "lightblue", "const": "white", "op": "gray90"}[kind]
        pen = ", penwidth=2" if t is tensor else ""
        lines.append(
            f"  {tid[id(t)]} [label={_quote(label)}, shape=box, style=filled, "
            f"fillcolor={fill}{pen}];"
        )
        if kind != "op":
            continue
        ctx = t._ctx
        op = f"op{n_op}"
        n_op += 1
        lines.append(
            f"  {op} [label={_quote(ctx.fn.__name__)}, shape=ellipse, style=filled, "
            "fillcolor=lightyellow];"
        )
        many = len(ctx.parents) > 1
        for pos, p in enumerate(ctx.parents):
            lines.append(f"  {tid[id(p)]} -> {op}" + (f' [label="{pos}"];' if many else ";"))
        lines.append(f"  {op} -> {tid[id(t)]};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render(
    tensor: Tensor,
    path: str,
    format: str | None = None,
    names: Mapping[str, Tensor] | Iterable[tuple[str, Tensor]] | None = None,
) -> str:
    """Draw :func:`to_dot` of ``tensor`` to ``path``; returns the path.

    The format is the one ``path``'s extension names (``.svg``, ``.png`` or ``.pdf``);
    ``format=`` may say it too, but must agree: a file never holds one format under
    another's name. Any other extension is a ValueError, raised before anything is drawn
    or written. Needs the optional ``graphviz`` Python package (``pip install -e ".[viz]"``)
    and the Graphviz ``dot`` program it calls.
    """
    formats = ("svg", "png", "pdf")
    ext = os.path.splitext(str(path))[1].lower().lstrip(".")
    if ext not in formats:
        raise ValueError(f"render(path={str(path)!r}): the extension must name the format: "
                         f"one of {', '.join('.' + f for f in formats)}")
    if format is not None and format != ext:
        raise ValueError(f"render(path={str(path)!r}, format={format!r}): the extension asks "
                         f"for {ext}; give a path ending in .{format}, or leave format out")
    try:
        import graphviz
    except ImportError:
        raise ImportError(
            "minigrad.viz.render needs the graphviz Python package: "
            'pip install -e ".[viz]"  (and the Graphviz \'dot\' program, e.g. apt install '
            "graphviz); minigrad.viz.to_dot() works without it"
        ) from None
    dot = to_dot(tensor, names=names)
    not_found = getattr(graphviz, "ExecutableNotFound", ())
    try:
        data = graphviz.Source(dot).pipe(format=ext)
    except not_found:
        raise RuntimeError(
            "the graphviz package is installed but the Graphviz 'dot' program is not on PATH "
            "(install it, e.g. apt install graphviz / brew install graphviz)"
        ) from None
    with open(path, "wb") as f:
        f.write(data)
    return path


def graph_summary(
    tensor: Tensor,
    names: Mapping[str, Tensor] | Iterable[tuple[str, Tensor]] | None = None,
    max_rows: int | None = 60,
) -> str:
    """The graph behind ``tensor`` as a listing that reads like a program.

    One row per tensor, inputs first: ``%3 = Mul(%1, %2)   (2, 3) float32``;
    leaves are shown as ``leaf`` (requires grad), ``const`` or their name from
    ``names``. A header counts ops and tensors and a footer counts ops by
    name. With more than ``max_rows`` rows, the middle rows are elided (None
    shows all).
    """
    if max_rows is not None and (not isinstance(max_rows, int) or max_rows < 2):
        raise ValueError(f"graph_summary(max_rows={max_rows!r}): expected an int >= 2 or None")
    order = _graph(tensor)
    named = _names_by_id(names)
    idx = {id(t): i for i, t in enumerate(order)}
    kinds = Counter(_kind(t) for t in order)
    op_counts = Counter(t._ctx.fn.__name__ for t in order if t._ctx is not None)

    rows = []
    for i, t in enumerate(order):
        kind = _kind(t)
        if kind == "op":
            args = ", ".join(f"%{idx[id(p)]}" for p in t._ctx.parents)
            what = f"{t._ctx.fn.__name__}({args})"
        else:
            what = named.get(id(t), kind)
        flag = "  requires_grad" if kind == "leaf" else ""
        rows.append((f"%{i}", what, _shape(t), f"{t.dtype}{flag}"))

    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    w2 = max(len(r[2]) for r in rows)
    text = [f"{r[0]:<{w0}} = {r[1]:<{w1}}  {r[2]:<{w2}}  {r[3]}" for r in rows]
    if max_rows is not None and len(text) > max_rows:
        head = max_rows // 2
        tail = max_rows - head
        text = text[:head] + [f"... {len(text) - max_rows} rows not shown ..."] + text[-tail:]

    header = (
        f"graph of a {_shape(tensor)} {tensor.dtype} tensor: {kinds['op']} ops, "
        f"{len(order)} tensors ({kinds['leaf']} leaves requiring grad, "
        f"{kinds['const']} constants)"
    )
    counts = ", ".join(f"{name} {n}" for name, n in sorted(op_counts.items()))
    footer = "ops by name: " + (counts if counts else "none (nothing was recorded)")
    return "\n".join([header] + text + [footer])


def named_attention_weights(model: Any, *inputs: Any, **kwargs: Any) -> list[tuple[str, np.ndarray]]:
    """Run ``model(*inputs, **kwargs)`` once and return each attention layer's weights.

    Every sub-module with a ``record_weights`` attribute (``nn.MultiHeadAttention``)
    is asked to keep its post-softmax weights, shape (B, H, T_q, T_k), in
    ``last_attn_weights``. The model runs in eval semantics (no dropout) in this thread
    only, under ``no_grad``: its mode is never changed; the layers' flags are restored
    afterwards.
    Returns ``[(module name, weights), ...]`` in module registration order.
    """
    if not hasattr(model, "named_modules"):
        raise TypeError(f"expected an nn.Module, got {type(model).__name__}")
    layers = [(n, m) for n, m in model.named_modules() if hasattr(m, "record_weights")]
    if not layers:
        raise ValueError(
            f"{type(model).__name__} has no attention layer with a record_weights flag"
        )
    from minigrad.nn.module import eval_in_this_thread  # nn builds on this package

    flags = [m.record_weights for _, m in layers]
    try:
        for _, m in layers:
            m.record_weights = True
            m.last_attn_weights = None
        with eval_in_this_thread(), no_grad():
            model(*inputs, **kwargs)
        out = []
        for name, m in layers:
            w = m.last_attn_weights
            if w is None:
                raise RuntimeError(f"attention layer {name!r} was not called by the forward pass")
            out.append((name, np.array(getattr(w, "data", w))))
        return out
    finally:
        for (_, m), flag in zip(layers, flags):
            m.record_weights = flag


def attention_weights(model: Any, *inputs: Any, **kwargs: Any) -> list[np.ndarray]:
    """Per attention layer, the (B, H, T_q, T_k) softmax weights for this input.

    ``attention_weights(gpt, idx)`` gives one array per block, in order; each
    row (a query position) sums to 1 and, in a causal model, is zero to the
    right of the diagonal. See :func:`named_attention_weights`.
    """
    return [w for _, w in named_attention_weights(model, *inputs, **kwargs)]

"""Random computation graphs, checked against finite differences.

Hypothesis draws a small program: a few float64 leaf tensors, then a sequence of steps,
each applying one op to nodes already made (so intermediate nodes are reused, sometimes
twice by one op, as in ``a @ a.T`` or ``x * x``). The op set covers binary ops with
broadcasting, unary ops on safe domains, reductions, reshapes and transposes, basic and
integer-array indexing, matmul, softmax, masked_fill, where and cat. ``minigrad.gradcheck``
then compares the backward pass of every node with central differences.

A graph is drawn by running it: each step's output shape is known from the value it
produced, so later steps pick operands that fit (a shape that broadcasts, a matching inner
dimension). ``max`` has a kink where two values tie, so it only reads nodes whose values are
distinct almost surely (random leaves and what strictly monotone ops make of them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg

MAX_SIDE = 3


@dataclass
class Step:
    """One graph node: ``apply(pool)`` computes it from earlier nodes (``pool``)."""

    text: str
    apply: Callable[[list], mg.Tensor] | None  # None: the next leaf input


@dataclass
class Graph:
    """Leaf values (float64 arrays) and the steps that build every other node."""

    leaves: list[np.ndarray] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)

    def run(self, *inputs: mg.Tensor) -> list[mg.Tensor]:
        """Every node computed from ``inputs`` (the leaves, in order); returns the non-leaves."""
        pool = list(inputs[:1])
        leaf = iter(inputs[1:])
        made = []
        for step in self.steps:
            if step.apply is None:
                pool.append(next(leaf))
                continue
            pool.append(step.apply(pool))
            made.append(pool[-1])
        return made

    def __repr__(self) -> str:
        shapes = [leaf.shape for leaf in self.leaves]
        lines = [f"leaves {shapes}"] + [f"  n{i + 1} = {s.text}" for i, s in
                                        enumerate(self.steps)]
        return "\n".join(lines)


def _broadcasts(s1: tuple, s2: tuple) -> bool:
    try:
        np.broadcast_shapes(s1, s2)
        return True
    except ValueError:
        return False


def _squeezed_shape(draw, shape: tuple) -> tuple:
    """A shape that broadcasts to ``shape``: a suffix of it with some axes set to 1."""
    keep = draw(st.integers(0, len(shape)))
    tail = shape[len(shape) - keep:]
    return tuple(1 if draw(st.booleans()) else s for s in tail)


UNARY: dict[str, tuple[Callable[[mg.Tensor], mg.Tensor], bool]] = {
    # name: (function on a safe domain, strictly monotone: keeps distinct values distinct)
    "tanh": (lambda x: x.tanh(), True),
    "sigmoid": (lambda x: x.sigmoid(), True),
    "gelu": (lambda x: x.gelu(), False),
    "gelu_tanh": (lambda x: x.gelu(approximate="tanh"), False),
    "exp(tanh)": (lambda x: x.tanh().exp(), True),
    "log(x*x+1)": (lambda x: (x * x + 1.0).log(), False),
    "sqrt(x*x+0.5)": (lambda x: (x * x + 0.5).sqrt(), False),
    "(x*x+1)**1.5": (lambda x: (x * x + 1.0) ** 1.5, False),
    "neg": (lambda x: -x, True),
    "x*2.5-1": (lambda x: x * 2.5 - 1.0, True),
}

BINARY: dict[str, Callable[[mg.Tensor, mg.Tensor], mg.Tensor]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/ (b*b+1)": lambda a, b: a / (b * b + 1.0),
}


@st.composite
def graphs(draw, max_steps: int = 7) -> Graph:
    """A random Graph (see the module docstring)."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    g = Graph()
    values: list[np.ndarray] = []   # the value of every node, to pick fitting operands
    distinct: list[bool] = []

    def add_leaf(shape: tuple) -> int:
        x = rng.standard_normal(shape)
        g.leaves.append(x)
        if values:  # the first leaf is the pool's start; later ones are "leaf" steps
            g.steps.append(Step(f"leaf {shape}", None))
        values.append(x)
        distinct.append(x.size <= 12)  # a few random normals: no near-ties within eps
        return len(values) - 1

    def add(text: str, fn: Callable[[list], mg.Tensor], is_distinct: bool) -> None:
        with mg.no_grad():
            out = fn([mg.Tensor(v) for v in values])
        assert out.dtype == np.float64, (text, out.dtype)
        g.steps.append(Step(text, fn))
        values.append(out.data)
        distinct.append(is_distinct)

    shape_st = st.lists(st.integers(1, MAX_SIDE), min_size=1, max_size=3).map(tuple)
    add_leaf(draw(shape_st))
    if draw(st.booleans()):
        add_leaf(draw(shape_st))

    n_steps = draw(st.integers(1, max_steps))
    for _ in range(n_steps):
        n = len(values)
        i = draw(st.integers(0, n - 1))
        a = values[i]
        nm = f"n{i}"
        kind = draw(st.sampled_from(["binary", "binary", "unary", "reduce", "shape", "index",
                                     "matmul", "softmax", "mask", "cat"]))
        if a.ndim == 0 and kind in ("index", "matmul"):
            kind = "unary"
        if kind == "binary":
            op = draw(st.sampled_from(sorted(BINARY)))
            f = BINARY[op]
            partners = [j for j in range(n) if _broadcasts(values[j].shape, a.shape)
                        and values[j].size <= 27 and np.broadcast_shapes(
                            values[j].shape, a.shape).__len__() <= 4]
            if draw(st.booleans()) or not partners:
                c = rng.standard_normal(_squeezed_shape(draw, a.shape))
                add(f"{nm} {op} const{c.shape}", lambda p, i=i, c=c, f=f: f(p[i], c),
                    distinct[i])
            else:
                j = draw(st.sampled_from(partners))
                if draw(st.booleans()):
                    i, j = j, i
                add(f"n{i} {op} n{j}", lambda p, i=i, j=j, f=f: f(p[i], p[j]),
                    distinct[i] and distinct[j] and i != j and values[i].shape == values[j].shape)
        elif kind == "unary":
            op = draw(st.sampled_from(sorted(UNARY)))
            f, mono = UNARY[op]
            add(f"{op}({nm})", lambda p, i=i, f=f: f(p[i]), distinct[i] and mono)
        elif kind == "reduce":
            # amax, not max: max(dim) returns (values, indices), as PyTorch
            op = draw(st.sampled_from(["sum", "mean", "var", "amax"]))
            axes = [None] + list(range(-a.ndim, a.ndim))
            axis = draw(st.sampled_from(axes))
            keep = draw(st.booleans())
            size = a.size if axis is None else a.shape[axis]
            if op == "amax" and not distinct[i]:
                op = "sum"
            if op == "var" and size < 2:
                op = "mean"
            add(f"{nm}.{op}(axis={axis}, keepdims={keep})",
                lambda p, i=i, op=op, axis=axis, keep=keep: getattr(p[i], op)(axis, keep),
                False)
        elif kind == "shape":
            choice = draw(st.sampled_from(["flatten", "reverse-shape", "permute", "transpose",
                                           "unsqueeze"]))
            if choice == "unsqueeze":
                add(f"{nm}.unsqueeze(0)", lambda p, i=i: p[i].unsqueeze(0), distinct[i])
            elif choice == "flatten" or a.ndim < 2:
                add(f"{nm}.reshape(-1)", lambda p, i=i: p[i].reshape(-1), distinct[i])
            elif choice == "reverse-shape":
                shape = a.shape[::-1]
                add(f"{nm}.reshape{shape}", lambda p, i=i, s=shape: p[i].reshape(s), distinct[i])
            elif choice == "permute":
                perm = tuple(draw(st.permutations(range(a.ndim))))
                add(f"{nm}.permute{perm}", lambda p, i=i, perm=perm: p[i].permute(perm),
                    distinct[i])
            else:
                add(f"{nm}.T", lambda p, i=i: p[i].T, distinct[i])
        elif kind == "index":
            choice = draw(st.sampled_from(["slice", "reverse", "int", "gather", "bool"]))
            if choice == "slice" and a.shape[-1] >= 2:
                add(f"{nm}[..., 1:]", lambda p, i=i: p[i][..., 1:], distinct[i])
            elif choice == "reverse":
                add(f"{nm}[::-1]", lambda p, i=i: p[i][::-1], distinct[i])
            elif choice == "int" and a.ndim >= 2:
                k = draw(st.integers(-a.shape[0], a.shape[0] - 1))
                add(f"{nm}[{k}]", lambda p, i=i, k=k: p[i][k], distinct[i])
            elif choice == "bool":
                m = rng.random(a.shape) < 0.6
                m.flat[0] = True  # never empty
                add(f"{nm}[bool mask]", lambda p, i=i, m=m: p[i][m], distinct[i])
            else:  # gather with repeated ids: the backward must add, not assign
                ids = draw(st.lists(st.integers(0, a.shape[0] - 1), min_size=1, max_size=3))
                idx = np.asarray(ids + ids[:1])  # always one id twice
                as_tensor = draw(st.booleans())
                add(f"{nm}[{idx.tolist()}]",
                    lambda p, i=i, idx=idx, t=as_tensor: p[i][mg.tensor(idx) if t else idx],
                    False)
        elif kind == "matmul":
            k = a.shape[-1]
            fits = [j for j in range(n) if values[j].ndim >= 2 and values[j].shape[-2] == k
                    and _broadcasts(a.shape[:-2], values[j].shape[:-2])]
            if a.ndim == 2 and draw(st.booleans()):
                add(f"{nm} @ {nm}.T", lambda p, i=i: p[i] @ p[i].T, False)
            elif fits and draw(st.booleans()):
                j = draw(st.sampled_from(fits))
                add(f"{nm} @ n{j}", lambda p, i=i, j=j: p[i] @ p[j], False)
            else:
                w = add_leaf((k, draw(st.integers(1, MAX_SIDE))))
                add(f"{nm} @ n{w}", lambda p, i=i, w=w: p[i] @ p[w], False)
        elif kind == "softmax":
            axis = draw(st.integers(-a.ndim, a.ndim - 1)) if a.ndim else -1
            log = draw(st.booleans())
            fn = mg.log_softmax if log else mg.softmax
            add(f"{fn.__name__}({nm}, axis={axis})",
                lambda p, i=i, axis=axis, fn=fn: fn(p[i], axis=axis), False)
        elif kind == "mask":
            m = rng.random(_squeezed_shape(draw, a.shape)) < 0.4
            if draw(st.booleans()):
                value = float(rng.standard_normal())
                add(f"{nm}.masked_fill(mask{m.shape}, {value:.3f})",
                    lambda p, i=i, m=m, v=value: p[i].masked_fill(m, v), False)
            else:
                partners = [j for j in range(n) if _broadcasts(values[j].shape, a.shape)
                            and len(np.broadcast_shapes(values[j].shape, a.shape)) <= 4]
                j = draw(st.sampled_from(partners))
                add(f"where(mask{m.shape}, {nm}, n{j})",
                    lambda p, i=i, j=j, m=m: mg.where(m, p[i], p[j]), False)
        else:  # cat along axis 0 with a node of matching trailing shape (maybe itself)
            partners = [j for j in range(n) if values[j].shape[1:] == a.shape[1:]
                        and values[j].ndim == a.ndim and a.ndim >= 1]
            if not partners:
                add(f"{nm} * {nm}", lambda p, i=i: p[i] * p[i], False)
            else:
                j = draw(st.sampled_from(partners))
                add(f"cat([{nm}, n{j}])", lambda p, i=i, j=j: mg.cat([p[i], p[j]]), False)
    return g


@settings(max_examples=60)
@given(graphs())
def test_random_graph_matches_finite_differences(graph: Graph) -> None:
    inputs = [mg.Tensor(x.copy(), requires_grad=True) for x in graph.leaves]
    assert mg.gradcheck(graph.run, inputs)


@settings(max_examples=30)
@given(graphs(max_steps=4))
def test_random_graph_backward_twice_with_retain_graph_doubles_grads(graph: Graph) -> None:
    """retain_graph keeps every saved array: a second backward adds the same gradient again."""
    inputs = [mg.Tensor(x.copy(), requires_grad=True) for x in graph.leaves]
    total = sum((node * 1.0).sum() for node in graph.run(*inputs))
    if not isinstance(total, mg.Tensor) or not total.requires_grad:
        return
    total.backward(retain_graph=True)
    first = [None if x.grad is None else x.grad.data.copy() for x in inputs]
    total.backward()
    for x, g in zip(inputs, first):
        if g is not None:
            np.testing.assert_allclose(x.grad, 2 * g, rtol=1e-12, atol=1e-12)

"""einsum: Einstein summation over named axes, e.g. ``"bij,bjk->bik"``.

The gradient of an einsum with respect to one operand is itself an einsum:
swap that operand's subscripts with the output's. For ``"ij,jk->ik"``,
``dA = einsum("ik,jk->ij", dOut, B)``. An axis summed away that appears in no
other operand (``"ij->i"``) is absent from the swapped inputs: the gradient is
computed without it and then broadcast along it. ``...`` is accepted (it names
the same leading axes in every operand, with NumPy broadcasting).

A letter repeated inside one operand reads a diagonal (``"ii->i"``, ``"ii"`` the trace,
``"bii->b"``). :func:`einsum` takes those diagonals first with the ``diagonal`` view op
(``"iij->j"`` becomes ``diagonal(a, 0, 0, 1)`` with subscripts ``"ji"``), then runs
:class:`Einsum` on operands whose letters are all distinct. That is the smallest correct
design: the gradient (and every higher one) comes by composition, ``Diagonal``'s backward
placing each diagonal gradient back on the diagonal, so ``Einsum``'s swapped-subscripts rule
never has to scatter onto a diagonal itself.
"""

from __future__ import annotations

import string
from typing import Any

import numpy as np

from .. import dtypes
from ..function import Function
from .broadcast import unbroadcast
from .diagonal import diagonal


def parse(equation: str, shapes: list) -> tuple[list, str]:
    """Explicit subscripts: (one letter string per operand, output letters), ``...`` spelled
    out with capital letters; raises when the subscripts do not fit the shapes."""
    eq = equation.replace(" ", "")
    lhs, arrow, out = eq.partition("->")
    ins = lhs.split(",")
    if len(ins) != len(shapes):
        raise ValueError(f"einsum: {equation!r} names {len(ins)} operands, got {len(shapes)}")
    n_ell = max((len(s) - len(i.replace("...", "")) for i, s in zip(ins, shapes) if "..." in i),
                default=0)
    spare = [c for c in string.ascii_uppercase if c not in eq][:n_ell]
    explicit = []
    for sub, shape in zip(ins, shapes):
        if "..." in sub:
            k = len(shape) - len(sub.replace("...", ""))
            sub = sub.replace("...", "".join(spare[n_ell - k:]))
        if len(sub) != len(shape):
            raise ValueError(f"einsum: subscripts {sub!r} do not match an operand of shape {shape}")
        for c in set(sub):
            sizes = {shape[k] for k, d in enumerate(sub) if d == c}
            if len(sizes) > 1:
                raise ValueError(f"einsum: letter {c!r} is repeated in subscripts {sub!r} over "
                                 f"dimensions of different sizes {sorted(sizes)} (shape {shape})")
        explicit.append(sub)
    if arrow:
        out = out.replace("...", "".join(spare))
    else:  # implicit output: the broadcast axes, then letters used once, alphabetically
        counts = {c: "".join(explicit).count(c) for c in "".join(explicit)}
        out = "".join(spare) + "".join(sorted(c for c, n in counts.items()
                                              if n == 1 and c not in spare))
    return explicit, out


def _integer_dtypes(arrays: tuple, ins: list, out: str) -> list:
    """PyTorch's einsum dtypes for integer or bool operands: an operand with an axis of its
    own summed away (a letter in no other operand and not in the output) is summed by
    ``sum`` first, so it goes int64 by the "sum" rule (no wrap-around); then the operands
    meet at their result type (int8 "ij->i" gives int64, int8 "ij,jk->ik" stays int8)."""
    cast = []
    for i, (sub, a) in enumerate(zip(ins, arrays)):
        elsewhere = set(out).union(*[set(s) for j, s in enumerate(ins) if j != i])
        if not set(sub) <= elsewhere:
            a = dtypes.promote("sum", [a])[0]
        cast.append(a)
    return dtypes.promote("binary", cast, "einsum")


def take_diagonals(t: Any, sub: str) -> tuple:
    """(t, sub) with every letter repeated in ``sub`` read as a diagonal: each pair of equal
    letters at dims p < q becomes ``diagonal(t, 0, p, q)``, which drops both dims and appends
    the diagonal last, so the letter moves to the end of the subscripts."""
    while True:
        c = next((c for c in sub if sub.count(c) > 1), None)
        if c is None:
            return t, sub
        p = sub.index(c)
        q = sub.index(c, p + 1)
        t = diagonal(t, 0, p, q)
        sub = sub[:p] + sub[p + 1:q] + sub[q + 1:] + c


def einsum(equation: str, *operands: Any) -> Any:
    """Einstein summation of Tensors, diagonals included (see the module docstring)."""
    ins, out = parse(equation, [t.shape for t in operands])
    pairs = [take_diagonals(t, sub) for t, sub in zip(operands, ins)]
    explicit = ",".join(sub for _, sub in pairs) + "->" + out
    return Einsum.apply(*[t for t, _ in pairs], equation=explicit)


class Einsum(Function):
    """out = einsum(equation, *operands), each operand's letters distinct (:func:`einsum`
    takes the diagonals first); see the module docstring."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, *arrays, equation):
        ins, out = parse(equation, [a.shape for a in arrays])
        if any(len(set(sub)) != len(sub) for sub in ins):
            # the swapped-subscripts backward below has no diagonal scatter
            raise ValueError(f"Einsum: a letter repeated within one operand ({equation!r}); "
                             "call minigrad.einsum, which takes the diagonals first")
        if any(a.dtype.kind in "biu" for a in arrays):
            arrays = _integer_dtypes(arrays, ins, out)
        ctx.save_for_backward(*arrays)
        ctx.subs = (ins, out)
        return np.asarray(np.einsum(",".join(ins) + "->" + out, *arrays))

    @staticmethod
    def backward(ctx, grad):
        # d out/d op_i = einsum(output subs and the other operands -> op_i's subs)
        operands = ctx.saved_tensors
        xp = ctx.xp
        ins, out = ctx.subs
        grads = []
        for i, (sub, a) in enumerate(zip(ins, operands)):
            if not ctx.needs_input_grad[i]:
                grads.append(None)
                continue
            others = [(s, b) for j, (s, b) in enumerate(zip(ins, operands)) if j != i]
            known = set(out).union(*[set(s) for s, _ in others])
            target = "".join(c for c in sub if c in known)
            eq = ",".join([out] + [s for s, _ in others]) + "->" + target
            g = xp.einsum(eq, grad, *[b for _, b in others])
            # put back the axes summed only within this operand, spread g along the axes where
            # only this operand is longer than 1 (the others broadcast there), then sum it back
            # along the axes this operand was broadcast on
            dims = iter(g.shape)
            g = g.reshape([next(dims) if c in known else 1 for c in sub])
            full = tuple(max(n, a.shape[k]) for k, n in enumerate(g.shape))
            grads.append(unbroadcast(xp.broadcast_to(g, full), a.shape))
        return tuple(grads)

"""Check analytic gradients against central finite differences.

For a function f of tensors x_1..x_n we reduce the output to a scalar with a
fixed random weighting, L = sum(w * f(x)), so that one backward pass gives
dL/dx for every input. The numeric estimate for element i of input x is

    (L(x + eps e_i) - L(x - eps e_i)) / (2 eps),

computed in float64. A mismatch beyond ``atol + rtol * |numeric|`` raises
:class:`GradcheckError` naming the input, the element and both values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .autograd import grad
from .function import enable_grad, no_grad
from .tensor import Tensor


class GradcheckError(AssertionError):
    """Raised by :func:`gradcheck` when analytic and numeric gradients differ."""


def _outputs(out) -> list:
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    return [o for o in outs if isinstance(o, Tensor)]


def gradcheck(
    fn: Callable[..., Tensor],
    inputs: Sequence[Tensor],
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    seed: int = 0,
) -> bool:
    """True when ``fn``'s backward matches finite differences for every element
    of every input that requires grad; otherwise raises GradcheckError. The inputs'
    ``.grad`` is left as it was (the analytic gradients come from ``autograd.grad``).

    Inputs should be float64 (float32 finite differences are too noisy);
    a float32 input raises a TypeError rather than giving a vague failure.
    Inputs may be non-contiguous (transposed or strided views): each element
    is perturbed in place where it lives. ``seed`` fixes the random weights
    that reduce a non-scalar output to a scalar.
    """
    inputs = list(inputs)
    for i, x in enumerate(inputs):
        if isinstance(x, Tensor) and x.requires_grad and x.dtype != np.float64:
            raise TypeError(f"gradcheck: input {i} has dtype {x.dtype}; use float64 inputs")
    checked = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    if not checked:
        raise ValueError("gradcheck: no input requires grad")

    rng = np.random.default_rng(seed)
    outs = _outputs(fn(*inputs))
    weights = [rng.standard_normal(o.shape) for o in outs]

    def loss_value() -> float:
        with no_grad():
            outs_now = _outputs(fn(*inputs))
            terms = [(o.data.astype(np.float64) * w).sum() for o, w in zip(outs_now, weights)]
            return float(sum(terms))

    total = None
    for o, w in zip(outs, weights):
        if o.requires_grad:
            term = (o * Tensor(w.astype(o.dtype))).sum()
            total = term if total is None else total + term
    if total is None:
        raise GradcheckError(
            "gradcheck: the output does not depend on any input that requires grad"
        )
    # autograd.grad, not backward(): the inputs' .grad is the caller's and stays untouched
    found = grad([total], [inputs[i] for i in checked], allow_unused=True)

    for i, g in zip(checked, found):
        x = inputs[i]
        analytic = g.data if g is not None else np.zeros_like(x.data)
        if not x.data.flags.writeable:
            raise TypeError(f"gradcheck: input {i} is a read-only array; pass a writable copy")
        # Perturb x.data in place, element by element: this works for any
        # strided layout (a transposed or sliced input is checked as it is).
        for idx in np.ndindex(x.shape):
            orig = x.data[idx]
            x.data[idx] = orig + eps
            plus = loss_value()
            x.data[idx] = orig - eps
            minus = loss_value()
            x.data[idx] = orig
            numeric = (plus - minus) / (2 * eps)
            a = float(analytic[idx])
            if not abs(a - numeric) <= atol + rtol * abs(numeric):
                raise GradcheckError(
                    f"gradcheck failed for input {i} (shape {x.shape}) at element "
                    f"{tuple(int(v) for v in idx)}: analytic {a:.8g} vs numeric {numeric:.8g} "
                    f"(|diff| {abs(a - numeric):.3g} > atol {atol} + rtol {rtol} * |numeric|)"
                )
    return True


def gradgradcheck(
    fn: Callable[..., Tensor],
    inputs: Sequence[Tensor],
    grad_outputs: Sequence[Tensor] | None = None,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    seed: int = 0,
) -> bool:
    """True when ``fn``'s second derivatives match finite differences of its first
    derivatives; otherwise raises GradcheckError naming the input, element and values.

    PyTorch's approach: the first derivative contracted with ``grad_outputs`` v
    (random float64 when not given), g(x, v) = d<fn(x), v>/dx, computed with
    ``create_graph=True``, is itself checked with :func:`gradcheck`, with respect to
    the inputs and to v. A pass means the backward of every op on the way records
    a correct graph of its own."""
    inputs = list(inputs)
    diff = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    if not diff:
        raise ValueError("gradgradcheck: no input requires grad")
    with enable_grad():
        outs = _outputs(fn(*inputs))
    outs = [o for o in outs if o.requires_grad]
    if grad_outputs is None:
        rng = np.random.default_rng(seed + 1)
        grad_outputs = [Tensor(rng.standard_normal(o.shape).astype(o.dtype)) for o in outs]
    vs = [Tensor(np.array(getattr(v, "data", v), dtype=np.float64), requires_grad=True)
          for v in grad_outputs]
    if len(vs) != len(outs):
        raise ValueError(f"gradgradcheck: {len(vs)} grad_outputs for {len(outs)} outputs that "
                         "require grad")
    n = len(inputs)

    def first_derivative(*args):
        xs, v = list(args[:n]), args[n:]
        with enable_grad():
            ys = [o for o in _outputs(fn(*xs)) if o.requires_grad]
            gs = grad(ys, [xs[i] for i in diff], v, create_graph=True, allow_unused=True)
        return tuple(g for g in gs if g is not None)

    try:
        return gradcheck(first_derivative, inputs + vs, eps=eps, atol=atol, rtol=rtol, seed=seed)
    except GradcheckError as e:
        raise GradcheckError(
            f"gradgradcheck (second derivatives; inputs {n} and up are the grad_outputs): {e}"
        ) from None

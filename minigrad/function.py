"""Function and Context: the unit of the autodiff graph.

Every differentiable op is a subclass of :class:`Function` with two static
methods side by side, as in PyTorch's ``autograd.Function``::

    class Mul(Function):
        @staticmethod
        def forward(ctx, a, b):            # a, b: np.ndarray
            ctx.save_for_backward(a, b)
            return a * b
        @staticmethod
        def backward(ctx, grad):           # d(a*b)/da = b, d(a*b)/db = a
            a, b = ctx.saved_tensors
            return grad * b, grad * a

``Mul.apply(x, y)`` unwraps the Tensors, runs ``forward`` on their arrays and,
when a gradient is needed, records a :class:`Context` on the output so that
``Tensor.backward`` can later call ``backward`` with the output's gradient.
Positional arguments of ``apply`` are the differentiable inputs (Tensors);
keyword arguments are plain options (axes, masks, indices) that never get a
gradient.
"""

from __future__ import annotations

from typing import Any

import numpy as np

_grad_enabled = True


class no_grad:
    """Context manager (and decorator) that turns graph recording off.

    Inside ``with minigrad.no_grad():`` ops compute values only: no Context is
    saved, so nothing is kept alive for a backward pass (evaluation, sampling,
    optimizer updates).
    """

    def __enter__(self) -> None:
        global _grad_enabled
        self._prev = _grad_enabled
        _grad_enabled = False

    def __exit__(self, *exc: object) -> None:
        global _grad_enabled
        _grad_enabled = self._prev

    def __call__(self, fn):
        def wrapper(*args, **kwargs):
            with no_grad():
                return fn(*args, **kwargs)

        wrapper.__name__ = getattr(fn, "__name__", "wrapper")
        wrapper.__doc__ = fn.__doc__
        return wrapper


def is_grad_enabled() -> bool:
    """True unless inside ``no_grad()``."""
    return _grad_enabled


class Context:
    """What one op application remembers for its backward pass.

    ``fn``: the Function class; ``parents``: the input Tensors (graph edges);
    ``needs_input_grad``: one bool per input; ``saved_tensors``: arrays saved by
    ``save_for_backward``. Backward frees the saved arrays after use (unless
    ``retain_graph=True``); reading them afterwards raises a clear error.
    """

    __slots__ = ("__dict__", "_freed", "_saved", "fn", "needs_input_grad", "parents")

    def __init__(self, fn: type, parents: tuple, needs_input_grad: tuple) -> None:
        self.fn = fn
        self.parents = parents
        self.needs_input_grad = needs_input_grad
        self._saved: tuple = ()
        self._freed = False

    def save_for_backward(self, *arrays: Any) -> None:
        """Keep ``arrays`` (ndarrays or None) until backward has used them."""
        self._saved = arrays

    @property
    def saved_tensors(self) -> tuple:
        if self._freed:
            raise RuntimeError(
                f"Trying to backward through the graph a second time: the arrays saved by "
                f"{self.fn.__name__} were freed after the first backward(). "
                "Pass retain_graph=True to the first backward() to keep them."
            )
        return self._saved

    def free(self) -> None:
        """Drop saved arrays and any extra attributes (they can be large)."""
        self._saved = ()
        self.__dict__.clear()
        self._freed = True


class Function:
    """Base class of every differentiable op (see the module docstring)."""

    @staticmethod
    def forward(ctx: Context, *arrays: np.ndarray, **options: Any) -> np.ndarray:
        raise NotImplementedError

    @staticmethod
    def backward(ctx: Context, grad: np.ndarray):
        raise NotImplementedError

    @classmethod
    def apply(cls, *inputs: Any, **options: Any):
        """Run ``forward`` on the inputs' arrays and record the graph edge."""
        Tensor = _tensor.Tensor
        tensors = inputs
        if not all(isinstance(x, Tensor) for x in inputs):
            # Non-Tensor inputs (Python numbers, arrays) become constants, matched
            # to the dtype of the first Tensor so that float32 stays float32.
            ref = next((x for x in inputs if isinstance(x, Tensor)), None)
            tensors = tuple(
                x if isinstance(x, Tensor) else _tensor.as_tensor_like(x, ref) for x in inputs
            )
        needs = tuple([t._requires_grad for t in tensors])
        if _grad_enabled and True in needs:
            ctx = Context(cls, tensors, needs)
            return Tensor._from_op(cls.forward(ctx, *[t.data for t in tensors], **options), ctx)
        try:  # nothing to record: forward gets the shared throwaway context
            out = cls.forward(_NO_CTX, *[t.data for t in tensors], **options)
            return Tensor._from_op(out, None)
        finally:  # drop whatever forward saved on it, even if forward raised
            _NO_CTX.__dict__.clear()
            _NO_CTX._saved = ()


# A throwaway context for ops run without recording: forward may still call
# ctx.save_for_backward, which then costs nothing.
_NO_CTX = Context(Function, (), ())

# Imported last: tensor.py imports this module, and its op modules need Function.
from . import tensor as _tensor

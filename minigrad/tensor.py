"""The Tensor: a NumPy array that remembers how it was made.

A Tensor holds ``.data`` (an ndarray) and, after ``backward()``, ``.grad`` (a
Tensor of the same shape and dtype, as in PyTorch; ``.data`` stays the ndarray,
a documented difference from PyTorch). A Tensor produced by an op while grad
mode is on and some input requires grad also holds ``_ctx``: the op's
:class:`~minigrad.function.Context`, whose ``parents`` are the op's inputs.
Following ``_ctx.parents`` from a loss back to the leaves is the graph that
``backward`` walks (see ``engine.py``).

dtype rules (as PyTorch): Python floats and lists become float32, Python ints
int64, bools bool; NumPy arrays keep their dtype unless ``dtype=`` says
otherwise. Only floating tensors can require grad. The supported dtypes and
the promotion rules are written down once, in ``minigrad/dtypes.py``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from . import engine
from .dtypes import check_dtype

DEFAULT_FLOAT = np.float32


def _to_array(data: Any, dtype: Any = None) -> np.ndarray:
    """Convert user data to an ndarray following the dtype rules above."""
    if isinstance(data, Tensor):
        arr = data.data
    elif isinstance(data, np.ndarray):
        arr = data
    elif isinstance(data, np.generic):
        arr = np.asarray(data)
    else:
        try:
            arr = np.array(data)
        except ValueError as e:  # ragged nested lists
            raise ValueError(f"cannot build a tensor from ragged nested sequences: {e}") from None
        if arr.dtype == object:
            raise TypeError(f"cannot build a tensor from data of type {type(data).__name__}")
        if arr.dtype == np.float64:  # Python floats -> float32, as PyTorch
            arr = arr.astype(DEFAULT_FLOAT)
    if dtype is not None:
        arr = arr.astype(check_dtype(dtype), copy=False)
    if not check_dtype(arr.dtype).isnative:  # e.g. big-endian data from a file: kernels need native
        arr = arr.astype(arr.dtype.newbyteorder("="))
    return arr


def as_tensor_like(value: Any, ref: Tensor | None) -> Tensor:
    """Wrap a constant operand (number or array) for an op with Tensor ``ref``.

    A Python number takes ``ref``'s dtype so that ``x * 2.0`` stays float32.
    """
    if isinstance(value, (int, float, bool)) and ref is not None and ref.data.dtype.kind == "f":
        return Tensor(np.asarray(value, dtype=ref.data.dtype))
    return Tensor(value)


def _shape_args(shape: tuple) -> tuple:
    """Accept ``f(2, 3)`` and ``f((2, 3))`` like PyTorch."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    for s in shape:
        if not isinstance(s, (int, np.integer)) or s < 0:
            raise ValueError(f"shape must be non-negative integers, got {shape}")
    return tuple(int(s) for s in shape)


class Tensor:
    """An n-dimensional array with reverse-mode automatic differentiation.

    ``Tensor(data, dtype=None, requires_grad=False)``; ``data`` may be a number,
    a nested list, an ndarray or another Tensor (see the dtype rules above).
    """

    __slots__ = ("__weakref__", "_ctx", "_grad", "_is_view", "_requires_grad", "_vc", "data")
    __array_priority__ = 1000  # ndarray (op) Tensor defers to Tensor's operators

    def __init__(self, data: Any, dtype: Any = None, requires_grad: bool = False) -> None:
        self.data = _to_array(data, dtype)
        self._grad: Tensor | None = None
        self._ctx = None
        self._vc = [0]
        self._is_view = False
        self._requires_grad = False
        self.requires_grad = requires_grad

    @classmethod
    def _from_op(cls, data: np.ndarray, ctx) -> Tensor:
        """Fast path for op outputs: no dtype conversion, graph edge attached."""
        t = object.__new__(cls)
        t.data = data
        t._grad = None
        t._ctx = ctx
        t._vc = [0]
        t._is_view = False
        t._requires_grad = ctx is not None
        return t

    # ---- version counter (PyTorch's) -------------------------------------
    # ``_vc`` is a one-element list, shared by a tensor and every view of its
    # array; each in-place write adds 1. Saved arrays remember the version they
    # were saved at (function.Context), so backward can refuse stale ones.
    @property
    def _version(self) -> int:
        """How many in-place writes this tensor's array (or a view of it) has had."""
        return self._vc[0]

    def _share_version(self, base: Tensor) -> None:
        """Called by view ops: when ``self.data`` views ``base.data``, share its counter."""
        if self.data is base.data or np.may_share_memory(self.data, base.data):
            self._vc = base._vc
            self._is_view = self.data is not base.data or base._is_view

    def _bump_version(self) -> None:
        """Record an in-place write to ``self.data`` (optimizers, ``copy_``, ``x[i] = v``)."""
        self._vc[0] += 1

    # ---- .grad: a Tensor or None ---------------------------------------------
    @property
    def grad(self) -> Tensor | None:
        """d(loss)/d(self) after ``backward()``: a Tensor of self's shape and dtype, or None."""
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(
                    f"assigned grad expected to be a Tensor or None but got grad of type "
                    f"{type(value).__name__} (wrap an array with minigrad.tensor(...))"
                )
            if value.data.shape != self.data.shape or value.data.dtype != self.data.dtype:
                raise ValueError(
                    f"assigned grad has shape {value.data.shape} and dtype {value.data.dtype}, "
                    f"but the tensor has shape {self.data.shape} and dtype {self.data.dtype}"
                )
        self._grad = value

    # ---- autograd flags ---------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if value and self.data.dtype.kind != "f":
            raise TypeError(
                f"only floating-point tensors can require grad; this tensor has dtype "
                f"{self.data.dtype} (integer tensors hold ids and never get gradients)"
            )
        self._requires_grad = bool(value)

    def requires_grad_(self, value: bool = True) -> Tensor:
        """Set ``requires_grad`` in place and return self."""
        self.requires_grad = value
        return self

    @property
    def is_leaf(self) -> bool:
        """True for tensors not produced by a recorded op (parameters, inputs)."""
        return self._ctx is None

    def backward(self, grad: Any = None, retain_graph: bool = False) -> None:
        """Accumulate d(self)/d(leaf) into ``.grad`` of every leaf requiring grad.

        ``grad`` defaults to 1 for a scalar; a non-scalar output needs an explicit
        ``grad`` of its shape. The graph's saved arrays are freed afterwards
        unless ``retain_graph=True``.
        """
        engine.backward(self, grad, retain_graph)

    def detach(self) -> Tensor:
        """A new leaf sharing ``data`` (and the version counter) with self, cut from the graph."""
        t = Tensor._from_op(self.data, None)
        t._vc = self._vc
        return t

    def zero_grad(self) -> None:
        """Forget the accumulated gradient (sets ``.grad`` to None)."""
        self._grad = None

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        """``np.asarray(t)`` gives ``t.data`` (as PyTorch's CPU tensors do)."""
        if dtype is not None and np.dtype(dtype) != self.data.dtype:
            return self.data.astype(dtype)
        return self.data.copy() if copy else self.data

    # ---- array-like properties ------------------------------------------
    @property
    def shape(self) -> tuple:
        return self.data.shape

    @property
    def dtype(self) -> np.dtype:
        return self.data.dtype

    @property
    def ndim(self) -> int:
        return self.data.ndim

    @property
    def size(self) -> int:
        return self.data.size

    def numel(self) -> int:
        """Number of elements."""
        return self.data.size

    def dim(self) -> int:
        """Number of dimensions (PyTorch's name for ndim)."""
        return self.data.ndim

    def numpy(self) -> np.ndarray:
        """The underlying ndarray (shared, not copied)."""
        return self.data

    def item(self) -> Any:
        """The single value of a one-element tensor as a Python number."""
        if self.data.size != 1:
            raise ValueError(f"item() needs a tensor with one element, got shape {self.shape}")
        return self.data.item()

    def tolist(self) -> Any:
        """Nested Python lists of the values."""
        return self.data.tolist()

    def __len__(self) -> int:
        if self.data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.data.shape[0]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __repr__(self) -> str:
        body = np.array2string(self.data, precision=4, separator=", ", prefix="tensor(")
        extra = ""
        if self.data.dtype != DEFAULT_FLOAT:
            extra += f", dtype={self.data.dtype}"
        if self._ctx is not None:
            extra += f", grad_fn=<{self._ctx.fn.__name__}>"
        elif self._requires_grad:
            extra += ", requires_grad=True"
        return f"tensor({body}{extra})"

    def __bool__(self) -> bool:
        if self.data.size != 1:
            raise ValueError(
                f"the truth value of a tensor with {self.data.size} elements is ambiguous"
            )
        return bool(self.data)

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    __hash__ = object.__hash__

    # ---- dtype casts -------------------------------------------------------
    def to(self, dtype: Any) -> Tensor:
        """Cast to ``dtype``; differentiable between float types. A cast to an
        integer or bool type gives a tensor cut from the graph (no gradient)."""
        dtype = check_dtype(dtype, "to")
        if dtype.kind != "f":
            return Tensor(self.data.astype(dtype))
        return shape_ops.Cast.apply(self, dtype=dtype)

    def float(self) -> Tensor:
        """Cast to float32."""
        return self.to(np.float32)

    def double(self) -> Tensor:
        """Cast to float64."""
        return self.to(np.float64)

    def long(self) -> Tensor:
        """Cast to int64 (no gradient)."""
        return Tensor(self.data.astype(np.int64))

    # ---- arithmetic (elementwise, broadcasting) ---------------------------
    def __add__(self, other: Any) -> Tensor:
        return elementwise.Add.apply(self, other)

    def __radd__(self, other: Any) -> Tensor:
        return elementwise.Add.apply(other, self)

    def __sub__(self, other: Any) -> Tensor:
        return elementwise.Sub.apply(self, other)

    def __rsub__(self, other: Any) -> Tensor:
        return elementwise.Sub.apply(as_tensor_like(other, self), self)

    def __mul__(self, other: Any) -> Tensor:
        return elementwise.Mul.apply(self, other)

    def __rmul__(self, other: Any) -> Tensor:
        return elementwise.Mul.apply(other, self)

    def __truediv__(self, other: Any) -> Tensor:
        return elementwise.Div.apply(self, other)

    def __rtruediv__(self, other: Any) -> Tensor:
        return elementwise.Div.apply(as_tensor_like(other, self), self)

    def __pow__(self, exponent: Any) -> Tensor:
        if isinstance(exponent, Tensor) or np.ndim(exponent) > 0:  # elementwise exponents
            return elementwise.Pow.apply(self, exponent)
        if self.data.dtype.kind != "f" and not isinstance(exponent, (int, np.integer)):
            return self.to(DEFAULT_FLOAT) ** exponent  # int ** 0.5 is computed in float, as PyTorch
        return elementwise.PowScalar.apply(self, exponent=exponent)

    def __rpow__(self, base: Any) -> Tensor:
        return elementwise.Pow.apply(as_tensor_like(base, self), self)

    def __neg__(self) -> Tensor:
        return elementwise.Neg.apply(self)

    def __matmul__(self, other: Any) -> Tensor:
        return matmul_ops.matmul(self, other)

    def __rmatmul__(self, other: Any) -> Tensor:
        return matmul_ops.matmul(as_tensor_like(other, self), self)

    # ---- comparisons: boolean tensors, never differentiable ---------------
    def __lt__(self, other: Any) -> Tensor:
        return Tensor(self.data < _data(other))

    def __le__(self, other: Any) -> Tensor:
        return Tensor(self.data <= _data(other))

    def __gt__(self, other: Any) -> Tensor:
        return Tensor(self.data > _data(other))

    def __ge__(self, other: Any) -> Tensor:
        return Tensor(self.data >= _data(other))

    def __eq__(self, other: object) -> Tensor:  # type: ignore[override]
        return Tensor(self.data == _data(other))

    def __ne__(self, other: object) -> Tensor:  # type: ignore[override]
        return Tensor(self.data != _data(other))

    # ---- unary math ----------------------------------------------------------
    def exp(self) -> Tensor:
        """e**x."""
        return elementwise.Exp.apply(self)

    def log(self) -> Tensor:
        """Natural log; log(0) = -inf (no exception), so non-finite checks can catch it."""
        return elementwise.Log.apply(self)

    def sqrt(self) -> Tensor:
        """Square root."""
        return elementwise.Sqrt.apply(self)

    def tanh(self) -> Tensor:
        """Hyperbolic tangent."""
        return elementwise.Tanh.apply(self)

    def sigmoid(self) -> Tensor:
        """1 / (1 + e**-x)."""
        return elementwise.Sigmoid.apply(self)

    def relu(self) -> Tensor:
        """max(x, 0)."""
        return elementwise.ReLU.apply(self)

    def gelu(self, approximate: str = "none") -> Tensor:
        """x * Phi(x) (exact, erf-based) or its tanh approximation."""
        return elementwise.GELU.apply(self, approximate=approximate)

    def abs(self) -> Tensor:
        """|x| (gradient sign(x), 0 at 0)."""
        return elementwise.Abs.apply(self)

    def clamp(self, min: float | None = None, max: float | None = None) -> Tensor:
        """Clip values to [min, max]; gradient 1 inside, 0 where clipped."""
        return elementwise.Clamp.apply(self, lo=min, hi=max)

    # ---- reductions -----------------------------------------------------------
    def sum(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        """Sum over ``axis`` (int, tuple or None for all)."""
        return reduce_ops.Sum.apply(self, axis=axis, keepdims=keepdims)

    def mean(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        """Mean over ``axis``."""
        return reduce_ops.Mean.apply(self, axis=axis, keepdims=keepdims)

    def max(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        """Maximum over ``axis``; ties share the gradient equally."""
        return reduce_ops.Max.apply(self, axis=axis, keepdims=keepdims)

    def min(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        """Minimum over ``axis``; ties share the gradient equally."""
        return -reduce_ops.Max.apply(-self, axis=axis, keepdims=keepdims)

    def var(self, axis: Any = None, keepdims: bool = False, correction: int = 1) -> Tensor:
        """Variance, sum((x - mean)**2) / (N - correction); PyTorch's default correction=1."""
        return reduce_ops.Var.apply(self, axis=axis, keepdims=keepdims, correction=correction)

    def argmax(self, axis: int | None = None, keepdims: bool = False) -> Tensor:
        """Index of the maximum (an int64 tensor, no gradient)."""
        return Tensor(np.argmax(self.data, axis=axis, keepdims=keepdims))

    def softmax(self, axis: int = -1) -> Tensor:
        """exp(x) / sum(exp(x)) along ``axis`` (Numba kernel)."""
        return softmax_ops.softmax(self, axis)

    def log_softmax(self, axis: int = -1) -> Tensor:
        """x - logsumexp(x) along ``axis``."""
        return softmax_ops.log_softmax(self, axis)

    # ---- shape ------------------------------------------------------------------
    def reshape(self, *shape: Any) -> Tensor:
        """Same data, new shape (one dimension may be -1)."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return shape_ops.Reshape.apply(self, shape=shape)

    view = reshape

    def flatten(self, start_dim: int = 0, end_dim: int = -1) -> Tensor:
        """Merge dims start_dim..end_dim into one."""
        shp = self.shape
        s, e = start_dim % max(len(shp), 1), end_dim % max(len(shp), 1)
        return self.reshape(shp[:s] + (-1,) + shp[e + 1:])

    def transpose(self, dim0: int = -2, dim1: int = -1) -> Tensor:
        """Swap two axes (defaults: the last two)."""
        return shape_ops.Transpose.apply(self, dim0=dim0, dim1=dim1)

    def permute(self, *dims: Any) -> Tensor:
        """Reorder all axes."""
        if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
            dims = tuple(dims[0])
        return shape_ops.Permute.apply(self, dims=dims)

    @property
    def T(self) -> Tensor:
        """All axes reversed (a matrix's transpose)."""
        return self.permute(tuple(range(self.ndim - 1, -1, -1)))

    def unsqueeze(self, dim: int) -> Tensor:
        """Insert a size-1 axis at ``dim``."""
        shp = list(self.shape)
        dim = dim if dim >= 0 else dim + len(shp) + 1
        shp.insert(dim, 1)
        return self.reshape(tuple(shp))

    def squeeze(self, dim: int | None = None) -> Tensor:
        """Remove size-1 axes (all, or only ``dim``)."""
        if dim is None:
            return self.reshape(tuple(s for s in self.shape if s != 1))
        if self.shape[dim] != 1:
            return self
        shp = list(self.shape)
        del shp[dim]
        return self.reshape(tuple(shp))

    def __getitem__(self, index: Any) -> Tensor:
        return shape_ops.getitem(self, index)

    def split(self, split_size: int | list, axis: int = 0) -> tuple:
        """Chunks of ``split_size`` along ``axis`` (or sizes given as a list)."""
        return shape_ops.split(self, split_size, axis)

    def masked_fill(self, mask: Any, value: float) -> Tensor:
        """Copy of self with ``value`` where ``mask`` is True (mask broadcasts)."""
        return masking.masked_fill(self, mask, value)

    # ---- in-place writes ---------------------------------------------------------
    # Each one computes the new value with an out-of-place op and writes it into
    # ``self.data`` (so every view of the array sees it), then bumps the version.
    # When a graph is being recorded, the tensor's history is rebased onto that
    # op, whose input is a copy of the old value: consumers that saved the old
    # array then fail the version check instead of reading the new values.
    def _inplace(self, name: str, op, other: Any = None) -> Tensor:
        """Run ``op(old_value_tensor)`` and write its result into self (see above)."""
        from .function import is_grad_enabled

        recording = is_grad_enabled() and (
            self._requires_grad or (isinstance(other, Tensor) and other._requires_grad)
        )
        if recording and self._ctx is None and self._requires_grad:
            raise RuntimeError(
                f"{name}: a leaf Variable that requires grad is being used in an in-place "
                f"operation (tensor of shape {self.shape}, dtype {self.dtype}); wrap the "
                "update in `with minigrad.no_grad():`"
            )
        if recording and self._is_view:
            raise RuntimeError(
                f"{name}: in-place write to a view (shape {self.shape}) while recording a graph; "
                "minigrad cannot rebase the history of the tensor it views. Write to the base "
                "tensor, or use the out-of-place op."
            )
        if not self.data.flags.writeable:
            raise ValueError(f"{name}: the tensor's array (shape {self.shape}) is read-only")
        if recording:
            old = Tensor._from_op(self.data.copy(), self._ctx)
            old._requires_grad = self._requires_grad
            result = op(old)
        else:
            with no_grad():
                result = op(self)
        if result.data.shape != self.data.shape:
            raise RuntimeError(
                f"{name}: output with shape {self.shape} doesn't match the broadcast shape "
                f"{result.shape}"
            )
        if result.data.dtype != self.data.dtype:
            if self.data.dtype.kind != "f" and result.data.dtype.kind == "f":
                raise TypeError(
                    f"{name}: result type {result.dtype} can't be cast to the desired output "
                    f"type {self.dtype}"
                )
            result = result.to(self.data.dtype)
        self.data[...] = result.data
        self._bump_version()
        if recording:
            self._ctx = result._ctx
            self._requires_grad = True
        return self

    def __setitem__(self, index: Any, value: Any) -> None:
        """``x[index] = value`` in place (basic slices, integer or bool arrays)."""
        idx = shape_ops._index_to_numpy(index)
        if not self._requires_grad and not getattr(value, "_requires_grad", False):
            # no graph can be involved: write the region directly instead of copying
            # the whole array (a loop filling a buffer row by row stays O(row))
            v = _to_array(value)
            if not self.data.flags.writeable:
                raise ValueError(f"x[index] = v: the tensor's array (shape {self.shape}) is "
                                 "read-only")
            try:
                self.data[idx] = v
            except ValueError:
                raise ValueError(
                    f"x[index] = v: a value of shape {v.shape} cannot be broadcast to the indexed "
                    f"region of shape {np.shape(self.data[idx])} (tensor of shape {self.shape})"
                ) from None
            self._bump_version()
            return
        self._inplace("x[index] = v",
                      lambda t: index_put.IndexPut.apply(t, value, index=idx), value)

    def copy_(self, src: Any) -> Tensor:
        """Copy ``src`` (broadcast to self's shape, cast to self's dtype) into self."""
        return self._inplace("copy_", lambda t: index_put.IndexPut.apply(t, src, index=...), src)

    def fill_(self, value: float) -> Tensor:
        """Set every element to ``value``."""
        return self._inplace("fill_", lambda t: index_put.IndexPut.apply(t, value, index=...))

    def zero_(self) -> Tensor:
        """Set every element to 0."""
        return self.fill_(0)

    def add_(self, other: Any, alpha: float = 1) -> Tensor:
        """self += alpha * other."""
        o = other if alpha == 1 else other * alpha
        return self._inplace("add_", lambda t: t + o, other)

    def sub_(self, other: Any, alpha: float = 1) -> Tensor:
        """self -= alpha * other."""
        o = other if alpha == 1 else other * alpha
        return self._inplace("sub_", lambda t: t - o, other)

    def mul_(self, other: Any) -> Tensor:
        """self *= other."""
        return self._inplace("mul_", lambda t: t * other, other)

    def div_(self, other: Any) -> Tensor:
        """self /= other."""
        return self._inplace("div_", lambda t: t / other, other)

    def clamp_(self, min: float | None = None, max: float | None = None) -> Tensor:
        """Clip self to [min, max] in place."""
        return self._inplace("clamp_", lambda t: t.clamp(min, max))


def _data(x: Any) -> Any:
    return x.data if isinstance(x, Tensor) else x


# ---- constructors -------------------------------------------------------------


def tensor(data: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """Build a Tensor from a number, nested list or ndarray (see dtype rules)."""
    return Tensor(data, dtype=dtype, requires_grad=requires_grad)


def _float_dtype(dtype: Any) -> np.dtype:
    return np.dtype(DEFAULT_FLOAT if dtype is None else dtype)


def zeros(*shape: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """A tensor of zeros; ``zeros(2, 3)`` or ``zeros((2, 3))``."""
    return Tensor(np.zeros(_shape_args(shape), _float_dtype(dtype)), requires_grad=requires_grad)


def ones(*shape: Any, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """A tensor of ones."""
    return Tensor(np.ones(_shape_args(shape), _float_dtype(dtype)), requires_grad=requires_grad)


def full(shape: Iterable, value: float, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """A tensor filled with ``value``."""
    arr = np.full(_shape_args((tuple(shape),)), value, _float_dtype(dtype))
    return Tensor(arr, requires_grad=requires_grad)


def zeros_like(t: Tensor, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """Zeros with the shape (and dtype) of ``t``."""
    dt = t.dtype if dtype is None else dtype
    return Tensor(np.zeros(t.shape, dt), requires_grad=requires_grad)


def ones_like(t: Tensor, dtype: Any = None, requires_grad: bool = False) -> Tensor:
    """Ones with the shape (and dtype) of ``t``."""
    dt = t.dtype if dtype is None else dtype
    return Tensor(np.ones(t.shape, dt), requires_grad=requires_grad)


def arange(start: float, end: float | None = None, step: float = 1, dtype: Any = None) -> Tensor:
    """Evenly spaced values in [start, end); int64 for integer arguments, as PyTorch."""
    if end is None:
        start, end = 0, start
    if step == 0:
        raise ValueError(f"arange: step must be nonzero, got {step!r}")
    arr = np.arange(start, end, step)
    if dtype is not None:
        arr = arr.astype(dtype)
    elif arr.dtype == np.float64:
        arr = arr.astype(DEFAULT_FLOAT)
    return Tensor(arr)


# Imported last: the op modules import Tensor from this module.
from .function import no_grad
from .ops import elementwise, index_put, masking, reduce_ops, shape_ops, softmax_ops
from .ops import matmul as matmul_ops

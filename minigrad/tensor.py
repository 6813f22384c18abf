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

import operator
import weakref
from typing import Any, NamedTuple

import numpy as np

from . import engine, function, inplace_writes
from .backends.tensor_namespace import TensorNamespace
from .device import CPU, Device, check_device, is_device
from .dtypes import (
    cast_numbers,
    check_dtype,
    check_same_float,
    python_scalar,
    result_type,
    wrapped_number,
)
from .grad_mode import _mode, is_grad_enabled, is_recording_backward, no_grad
from .host_calls import cannot_replay, replayed
from .ops import (
    binary_math,
    elementwise,
    index_put,
    indexing,
    masking,
    piecewise,
    products,
    rearrange,
    reductions,
    scans,
    shapes,
    softmax,
    unary_math,
)
from .ops import diagonal as _diagonal_ops
from .ops import matmul as matmul_ops
from .ops import scatter as scatter_ops
from .ops.dims import check_dim as _check_dim
from .ops.nuclear_norm import nuclear_norm

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
        # Python floats -> float32, as PyTorch; with dtype= they go straight to it
        # (from float64, which holds them exactly: one rounding, never via float32)
        if dtype is not None:
            arr = cast_numbers(arr, dtype)
        elif arr.dtype == np.float64:
            arr = arr.astype(DEFAULT_FLOAT)
    if dtype is not None:
        arr = arr.astype(check_dtype(dtype), copy=False)
    if not check_dtype(arr.dtype).isnative:  # e.g. big-endian data from a file: kernels need native
        arr = arr.astype(arr.dtype.newbyteorder("="))
    return arr


def _copied(data: Any, dtype: Any = None) -> np.ndarray:
    """``data`` as an array of its own (:func:`_to_array`, copied if it shares the caller's
    memory): what ``tensor()`` and ``new_tensor`` hold, so later writes on either side never
    show on the other."""
    arr = _to_array(data, dtype)
    if isinstance(data, (np.ndarray, Tensor)) and np.may_share_memory(arr, _data(data)):
        arr = arr.copy()
    if _mode.recorder is not None and isinstance(data, (np.ndarray, Tensor)):
        _mode.recorder.copies(data, arr)  # a captured step: a copy or conversion is work
    return arr


def as_tensor_like(value: Any, ref: Tensor | None) -> Tensor:
    """Wrap a constant operand (number or array) for an op with Tensor ``ref``.

    A Python number is PyTorch's wrapped number (:func:`minigrad.dtypes.wrapped_number`):
    ``x * 2.0`` stays float32 and ``int8 x * 2`` int8, 0-d or not. A Tensor is returned as
    it is: wrapping it again would cut it from its graph (``x.__rsub__(y)`` with a Tensor
    ``y`` must still differentiate ``y``).
    """
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (int, float, bool)) and ref is not None:
        return Tensor(wrapped_number(value, ref.data.dtype))
    return Tensor(value)


def _shape_args(shape: tuple) -> tuple:
    """Accept ``f(2, 3)`` and ``f((2, 3))`` like PyTorch."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    for s in shape:
        if not isinstance(s, (int, np.integer)) or s < 0:
            raise ValueError(f"shape must be non-negative integers, got {shape}")
    return tuple(int(s) for s in shape)


def module_form(method: Any) -> Any:
    """Mark a Tensor method as also a function of the ``minigrad`` module, as PyTorch's
    ``torch.exp(x)`` beside ``x.exp()``: ``minigrad.functional`` derives ``minigrad.<name>(input,
    ...)`` from the method (its parameters, ``self`` named ``input``, and its docstring), so the
    signature is written once, here."""
    method.module_form = True
    return method


class RemovableHandle:
    """What ``register_hook`` and ``register_post_accumulate_grad_hook`` return: ``.remove()``
    unregisters the hook (removing twice is harmless)."""

    _next_id = 0

    def __init__(self, hooks: dict, hook: Any) -> None:
        RemovableHandle._next_id += 1
        self.id = RemovableHandle._next_id
        self._hooks = hooks
        hooks[self.id] = hook

    def remove(self) -> None:
        self._hooks.pop(self.id, None)


class Tensor:
    """An n-dimensional array with reverse-mode automatic differentiation.

    ``Tensor(data, dtype=None, requires_grad=False)``; ``data`` may be a number,
    a nested list, an ndarray or another Tensor (see the dtype rules above).
    """

    __slots__ = (
        "__weakref__",
        "_ctx",
        "_grad",
        "_grad_hooks",
        "_is_view",
        "_overwritten",
        "_post_accumulate_grad_hooks",
        "_requires_grad",
        "_retains_grad",
        "_vc",
        "_view_of",
        "data",
    )
    __array_priority__ = 1000  # ndarray (op) Tensor defers to Tensor's operators
    # ``ctx.xp`` of a backward recorded under create_graph: NumPy's names as recorded ops
    graph_ops = TensorNamespace

    def __init__(self, data: Any, dtype: Any = None, requires_grad: bool = False) -> None:
        self.data = _to_array(data, dtype)
        if _mode.recorder is not None and isinstance(data, (np.ndarray, Tensor)):
            _mode.recorder.copies(data, self.data)  # a captured step: a conversion is work
        self._grad: Tensor | None = None
        self._ctx = None
        self._vc = [0]
        self._is_view = False
        self._requires_grad = False
        self._grad_hooks = self._post_accumulate_grad_hooks = None  # see _from_op
        self._retains_grad = False
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
        # no hooks: set, not left unset, because the backward walk reads these slots on every
        # tensor it visits, and a set slot reads in a tenth of the time a missing one fails
        t._grad_hooks = t._post_accumulate_grad_hooks = None
        t._retains_grad = False
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
        """Called by Function.apply: when ``self.data`` views ``base.data``, share its counter."""
        if self.data is base.data or np.may_share_memory(self.data, base.data):
            self._vc = base._vc
            self._is_view = self.data is not base.data or base._is_view
            # an in-place write to self is a write to base; a weak reference, so that a view
            # never keeps a base (and the graph it holds) alive
            self._view_of = weakref.ref(base)

    def _bump_version(self) -> None:
        """Record an in-place write to ``self.data`` (optimizers, ``copy_``, ``x[i] = v``)."""
        if _mode.recorder is not None:  # a captured step being recorded: minigrad/step_capture/
            _mode.recorder.bumps(self)
        self._vc[0] += 1

    # ---- .grad: a Tensor or None ---------------------------------------------
    @property
    def grad(self) -> Tensor | None:
        """d(loss)/d(self) after ``backward()``: a Tensor of self's shape and dtype, or None.
        Each later backward adds into this same Tensor in place (with ``create_graph=True`` it
        is replaced by ``grad + new``, a Tensor with a graph), as PyTorch's."""
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if _mode.recorder is not None:
            _mode.recorder.sets_grad(self)
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
            if not value.data.flags.writeable:
                raise ValueError(
                    f"assigned grad's array (shape {value.data.shape}) is read-only; backward "
                    "adds into .grad in place, so assign a writeable copy (value.clone())"
                )
        self._grad = value

    # ---- autograd flags ---------------------------------------------------
    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        # An op's output requires grad because an input does; turning it off would silently
        # drop its branch from every backward, so only a leaf's flag can change (PyTorch's rule;
        # the engine and the in-place writes set the slot itself).
        if self._ctx is not None and not value:
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use a "
                "computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach()."
            )
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

    def backward(self, grad: Any = None, retain_graph: bool | None = None,
                 create_graph: bool = False, inputs: Any = None) -> None:
        """Accumulate d(self)/d(leaf) into ``.grad`` of every leaf requiring grad
        (of ``inputs`` only, when given).

        ``grad`` defaults to 1 for a scalar; a non-scalar output needs an explicit
        ``grad`` of its shape. The graph's saved arrays are freed afterwards
        unless ``retain_graph=True`` (the default when ``create_graph``).
        ``create_graph=True`` records the backward pass itself: each ``.grad`` is then
        a Tensor with a graph, which can be differentiated again.
        """
        engine.backward(self, grad, retain_graph, create_graph, inputs)

    def detach(self) -> Tensor:
        """A new leaf sharing ``data`` (and the version counter) with self, cut from the graph."""
        t = Tensor._from_op(self.data, None)
        t._vc = self._vc
        return t

    def register_post_accumulate_grad_hook(self, hook: Any) -> RemovableHandle:
        """Call ``hook(self)`` in every backward, right after this leaf's ``.grad`` received
        the backward's gradient (PyTorch's name and meaning). Returns a handle whose
        ``.remove()`` unregisters the hook. Data-parallel training uses it to send a
        gradient to the other processes as soon as it is ready (minigrad/distributed/)."""
        if self._ctx is not None or not self._requires_grad:
            raise RuntimeError(
                "post accumulate grad hooks can only be registered on a leaf tensor that "
                f"requires grad; this tensor of shape {self.shape} is "
                + ("the output of an op" if self._ctx is not None else
                   "a leaf with requires_grad=False")
            )
        if not callable(hook):
            raise TypeError(f"hook must be callable, got {type(hook).__name__}")
        hooks = getattr(self, "_post_accumulate_grad_hooks", None)
        if hooks is None:
            hooks = self._post_accumulate_grad_hooks = {}
        return RemovableHandle(hooks, hook)

    def register_hook(self, hook: Any) -> RemovableHandle:
        """Call ``hook(grad)`` each time the gradient with respect to this tensor is computed,
        before it is used (passed on to the op that made it, or accumulated into a leaf's
        ``.grad``); a hook that returns a Tensor replaces the gradient. PyTorch's name and
        meaning, in ``backward()`` and ``autograd.grad`` alike. Returns a handle whose
        ``.remove()`` unregisters the hook."""
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if not callable(hook):
            raise TypeError(f"hook must be callable, got {type(hook).__name__}")
        hooks = getattr(self, "_grad_hooks", None)
        if hooks is None:
            hooks = self._grad_hooks = {}
        return RemovableHandle(hooks, hook)

    def retain_grad(self) -> None:
        """Keep this non-leaf's gradient in ``.grad`` after backward (a leaf keeps it anyway);
        as in PyTorch, retained gradients accumulate over backward calls."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._ctx is not None:
            self._retains_grad = True

    @property
    def retains_grad(self) -> bool:
        """True for a non-leaf whose ``.grad`` is kept (see :meth:`retain_grad`)."""
        return getattr(self, "_retains_grad", False)

    @property
    def grad_fn(self) -> Any:
        """The graph node that made this tensor (its ``Context``: ``.fn`` is the Function,
        ``.parents`` its inputs), or None for a leaf. PyTorch's grad_fn is the backward
        Node; minigrad's node is the forward's Context, which holds that backward."""
        return self._ctx

    def detach_(self) -> Tensor:
        """Cut self from the graph in place: it becomes a leaf that does not require grad."""
        if self._ctx is not None and self._is_view:
            raise RuntimeError("Can't detach views in-place. Use detach() instead.")
        self._ctx = None
        self._requires_grad = False
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget the accumulated gradient: ``.grad = None`` (PyTorch's default), or, with
        ``set_to_none=False``, zero the Tensor ``.grad`` is in place (cut from any graph), so
        whoever holds it sees zeros; what ``Module.zero_grad`` and ``Optimizer.zero_grad`` do
        for each parameter."""
        g = self._grad
        if g is None:
            return
        if _mode.recorder is not None:
            _mode.recorder.sets_grad(self)
        if set_to_none:
            self._grad = None
            return
        if g._ctx is not None:
            g.detach_()
        else:
            g.requires_grad_(False)
        g.zero_()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        """``np.asarray(t)`` gives ``t.data`` (as PyTorch's CPU tensors do).

        Refused inside a backward recorded as a graph (``create_graph``) when ``t`` requires
        grad: the array has no graph, so a second derivative through it would silently be
        zero. A ``backward`` written for ``differentiable_backward`` uses ``ctx.xp`` and
        Tensor operators on such values, and ``t.data`` where no derivative is wanted."""
        if _mode.recorder is not None:
            _mode.recorder.reads(self, "np.asarray()")
        if self.requires_grad and is_recording_backward():
            raise RuntimeError(
                "a NumPy function read a Tensor that requires grad inside a backward recorded "
                "with create_graph=True: its result has no graph, so the second derivative "
                "would silently miss it. Use ctx.xp (or Tensor operators) for values that "
                "need a derivative, and .data or .detach() for values (masks, shapes) that "
                "do not."
            )
        if dtype is not None and np.dtype(dtype) != self.data.dtype:
            return self.data.astype(dtype)
        # an op may leave a 0-d result as a NumPy scalar: __array__ must give an array
        return np.array(self.data) if copy else np.asarray(self.data)

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

    def size(self, dim: int | None = None) -> Any:
        """The shape as a tuple, or the length of dimension ``dim`` (PyTorch's ``size``; for the
        number of elements use ``numel()``)."""
        if dim is None:
            return self.data.shape
        return self.data.shape[_check_dim(dim, self.ndim, "size")]

    @property
    def device(self) -> Device:
        """Always the CPU: minigrad runs on NumPy."""
        return CPU

    def numel(self) -> int:
        """Number of elements."""
        return self.data.size

    def dim(self) -> int:
        """Number of dimensions (PyTorch's name for ndim)."""
        return self.data.ndim

    def numpy(self) -> np.ndarray:
        """The underlying ndarray (shared, not copied)."""
        if _mode.recorder is not None:
            _mode.recorder.reads(self, "numpy()")
        return self.data

    def item(self) -> Any:
        """The single value of a one-element tensor as a Python number."""
        if self.data.size != 1:
            raise ValueError(f"item() needs a tensor with one element, got shape {self.shape}")
        if _mode.recorder is not None:
            _mode.recorder.reads(self, "item()")
        return self.data.item()

    def tolist(self) -> Any:
        """Nested Python lists of the values."""
        if _mode.recorder is not None:
            _mode.recorder.reads(self, "tolist()")
        return self.data.tolist()

    def __len__(self) -> int:
        if self.data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.data.shape[0]

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __repr__(self) -> str:
        if _mode.recorder is not None:
            _mode.recorder.reads(self, "repr()")
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
        if _mode.recorder is not None:
            _mode.recorder.reads(self, "bool()")
        return bool(self.data)

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    __hash__ = object.__hash__

    # ---- dtype casts -------------------------------------------------------
    def to(self, *args: Any, dtype: Any = None, device: Any = None, non_blocking: bool = False,
           copy: bool = False, **_ignored: Any) -> Tensor:
        """Cast to a dtype and/or move to a device, as PyTorch: ``x.to(dtype)``, ``x.to("cpu")``,
        ``x.to("cpu", dtype, non_blocking, copy)``, ``x.to(other_tensor)``. The only device is
        the CPU (any other raises). Differentiable between float types; a cast to an integer
        or bool type gives a tensor cut from the graph (no gradient). Returns self when
        nothing changes, as PyTorch, unless ``copy=True``."""
        flags = []
        for a in args:
            if isinstance(a, Tensor):
                dtype = a.dtype
            elif isinstance(a, bool):  # PyTorch's positional non_blocking, then copy
                flags.append(a)
            elif is_device(a):
                device = a
            else:
                dtype = a
        if len(flags) > 2:
            raise TypeError(f"to: at most two bools (non_blocking, copy), got {len(flags)}")
        copy = flags[1] if len(flags) == 2 else copy  # non_blocking means nothing on the CPU
        check_device(device)
        if dtype is None or np.dtype(dtype) == self.dtype:
            return self.clone() if copy else self
        dtype = check_dtype(dtype, "to")
        if dtype.kind != "f":
            return Tensor(_host(_astype, self.data, dtype))
        return shapes.Cast.apply(self, dtype=dtype)

    def cpu(self) -> Tensor:
        """self: minigrad tensors always live on the CPU."""
        return self

    def int(self) -> Tensor:
        """Cast to int32 (no gradient)."""
        return self.to(np.int32)

    def bool(self) -> Tensor:
        """Cast to bool (no gradient)."""
        return self.to(np.bool_)

    def type(self, dtype: Any = None) -> Any:
        """Without an argument, the type name (``"minigrad.FloatTensor"``); with one, ``to(dtype)``."""
        if dtype is None:
            return "minigrad." + _TYPE_NAMES.get(self.dtype.name, self.dtype.name) + "Tensor"
        return self.to(dtype)

    def float(self) -> Tensor:
        """Cast to float32."""
        return self.to(np.float32)

    def double(self) -> Tensor:
        """Cast to float64."""
        return self.to(np.float64)

    def long(self) -> Tensor:
        """Cast to int64 (no gradient)."""
        return self.to(np.int64)

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
        return elementwise.PowScalar.apply(self, exponent=exponent)

    def __rpow__(self, base: Any) -> Tensor:
        return elementwise.Pow.apply(as_tensor_like(base, self), self)

    def __neg__(self) -> Tensor:
        return elementwise.Neg.apply(self)

    def __matmul__(self, other: Any) -> Tensor:
        return self.matmul(other)

    def __rmatmul__(self, other: Any) -> Tensor:
        return as_tensor_like(other, self).matmul(self)

    # ---- comparisons: boolean tensors, never differentiable ---------------
    def __lt__(self, other: Any) -> Tensor:
        return Tensor(_host(operator.lt, self.data, _data(other)))

    def __le__(self, other: Any) -> Tensor:
        return Tensor(_host(operator.le, self.data, _data(other)))

    def __gt__(self, other: Any) -> Tensor:
        return Tensor(_host(operator.gt, self.data, _data(other)))

    def __ge__(self, other: Any) -> Tensor:
        return Tensor(_host(operator.ge, self.data, _data(other)))

    def __eq__(self, other: object) -> Tensor:  # type: ignore[override]
        return Tensor(_host(operator.eq, self.data, _data(other)))

    def __ne__(self, other: object) -> Tensor:  # type: ignore[override]
        return Tensor(_host(operator.ne, self.data, _data(other)))

    # ---- unary math ----------------------------------------------------------
    @module_form
    def exp(self) -> Tensor:
        """e**x."""
        return unary_math.FUNCTIONS["exp"].apply(self)

    @module_form
    def log(self) -> Tensor:
        """Natural log; log(0) = -inf (no exception), so non-finite checks can catch it."""
        return unary_math.FUNCTIONS["log"].apply(self)

    @module_form
    def sqrt(self) -> Tensor:
        """Square root."""
        return unary_math.FUNCTIONS["sqrt"].apply(self)

    @module_form
    def tanh(self) -> Tensor:
        """Hyperbolic tangent."""
        return unary_math.FUNCTIONS["tanh"].apply(self)

    @module_form
    def sigmoid(self) -> Tensor:
        """1 / (1 + e**-x)."""
        return unary_math.FUNCTIONS["sigmoid"].apply(self)

    @module_form
    def relu(self) -> Tensor:
        """max(x, 0)."""
        return elementwise.ReLU.apply(self)

    def gelu(self, approximate: str = "none") -> Tensor:
        """x * Phi(x) (exact, erf-based) or its tanh approximation."""
        return elementwise.GELU.apply(self, approximate=approximate)

    @module_form
    def abs(self) -> Tensor:
        """|x| (gradient sign(x), 0 at 0)."""
        return elementwise.Abs.apply(self)

    @module_form
    def clamp(self, min: float | None = None, max: float | None = None) -> Tensor:
        """Clip values to [min, max] = min(max(self, min), max); gradient 1 inside, 0 where
        clipped. Tensor bounds that require grad get the gradient where they are the result
        (composed from ``where``; a value on a bound itself passes its gradient to self, as
        PyTorch)."""
        if min is None and max is None:
            raise ValueError("clamp: at least one of min and max must be given (as PyTorch)")
        if any(isinstance(b, Tensor) and b.requires_grad for b in (min, max)):
            # bounds that need a gradient: min(max(x, lo), hi) as two selections, so each
            # bound receives the gradient where it was chosen (x keeps it at a tie)
            out = self
            if min is not None:
                out = masking.where(out.data < _data(min), min, out)
            if max is not None:
                out = masking.where(out.data > _data(max), max, out)
            return out
        return elementwise.Clamp.apply(self, lo=_data(min), hi=_data(max))

    # ---- reductions (``dim``/``keepdim`` and NumPy's ``axis``/``keepdims`` both accepted) ----
    @module_form
    def sum(self, dim: Any = None, keepdim: bool | None = None, *, axis: Any = None,
            keepdims: bool | None = None, dtype: Any = None) -> Tensor:
        """Sum over ``dim`` (int, tuple or None for all); bool and integer tensors sum in
        int64, as PyTorch; ``dtype=`` casts the input first."""
        d, k = _reduce_args("sum", dim, keepdim, axis, keepdims)
        return reductions.Sum.apply(self if dtype is None else self.to(dtype), axis=d, keepdims=k)

    @module_form
    def mean(self, dim: Any = None, keepdim: bool | None = None, *, axis: Any = None,
             keepdims: bool | None = None) -> Tensor:
        """Mean over ``dim``; the mean of no elements is nan, as PyTorch."""
        d, k = _reduce_args("mean", dim, keepdim, axis, keepdims)
        with np.errstate(invalid="ignore"):
            return reductions.Mean.apply(self, axis=d, keepdims=k)

    @module_form
    def max(self, dim: Any = None, keepdim: bool | None = None, *, axis: Any = None,
            keepdims: bool | None = None) -> Any:
        """Without ``dim``: the maximum (ties share the gradient). With an int ``dim``:
        ``(values, indices)`` as PyTorch (a named tuple; the gradient goes to the index).
        ``max(other_tensor)`` is ``maximum``."""
        if isinstance(dim, Tensor):
            return self.maximum(dim)
        return _extremum(self, reductions.Max, "max", dim, keepdim, axis, keepdims)

    @module_form
    def min(self, dim: Any = None, keepdim: bool | None = None, *, axis: Any = None,
            keepdims: bool | None = None) -> Any:
        """As :meth:`max`, for the minimum."""
        if isinstance(dim, Tensor):
            return self.minimum(dim)
        return _extremum(self, reductions.Min, "min", dim, keepdim, axis, keepdims)

    @module_form
    def amax(self, dim: Any = None, keepdim: bool | None = None, *, axis: Any = None,
             keepdims: bool | None = None) -> Tensor:
        """Maximum over ``dim`` (int or tuple), values only; ties share the gradient."""
        d, k = _reduce_args("amax", dim, keepdim, axis, keepdims)
        return reductions.Max.apply(self, axis=d, keepdims=k)

    @module_form
    def amin(self, dim: Any = None, keepdim: bool | None = None, *, axis: Any = None,
             keepdims: bool | None = None) -> Tensor:
        """Minimum over ``dim`` (int or tuple), values only; ties share the gradient."""
        d, k = _reduce_args("amin", dim, keepdim, axis, keepdims)
        return reductions.Min.apply(self, axis=d, keepdims=k)

    @module_form
    def var(self, dim: Any = None, unbiased: bool | None = None, keepdim: bool | None = None, *,
            correction: int | None = None, axis: Any = None, keepdims: bool | None = None
            ) -> Tensor:
        """Variance, sum((x - mean)**2) / (N - correction), with PyTorch's arguments: the
        second positional is ``unbiased`` (``x.var(1, False)`` is correction 0), the third
        ``keepdim``; ``correction`` defaults to 1, and is given instead of ``unbiased``, not
        with it. A bool in the place of ``dim`` is ``unbiased`` over all elements
        (``x.var(False)``). Too few elements give nan, as PyTorch."""
        if isinstance(dim, (bool, np.bool_)):
            if unbiased is not None:
                raise TypeError("var: unbiased given twice (a bool dim and unbiased)")
            dim, unbiased = None, bool(dim)
        if unbiased is not None:
            if correction is not None:
                raise TypeError("var: give unbiased or correction, not both")
            correction = int(bool(unbiased))
        d, k = _reduce_args("var", dim, keepdim, axis, keepdims)
        return reductions.Var.apply(self, axis=d, keepdims=k,
                                    correction=1 if correction is None else correction)

    @module_form
    def std(self, dim: Any = None, unbiased: bool | None = None, keepdim: bool | None = None, *,
            correction: int | None = None, axis: Any = None, keepdims: bool | None = None
            ) -> Tensor:
        """Standard deviation, sqrt(var) (the arguments of :meth:`var`); gradient 0 where it
        is 0, as PyTorch."""
        return _root(self.var(dim, unbiased, keepdim, correction=correction, axis=axis,
                              keepdims=keepdims), 2)

    @module_form
    def prod(self, dim: Any = None, keepdim: bool | None = None, *, dtype: Any = None,
             axis: Any = None, keepdims: bool | None = None) -> Tensor:
        """Product over ``dim`` (exact gradient even with zeros), computed in ``dtype`` when
        given."""
        d, k = _reduce_args("prod", dim, keepdim, axis, keepdims)
        x = self if dtype is None else self.to(dtype)
        out = reductions.Prod.apply(x, axis=d, keepdims=k)
        # the product of small ints is int64 (the dtype rule); an asked-for dtype wins
        return out if dtype is None or out.dtype == dtype else out.to(dtype)

    @module_form
    def logsumexp(self, dim: Any = None, keepdim: bool | None = None, *, axis: Any = None,
                  keepdims: bool | None = None) -> Tensor:
        """log(sum(exp(x))) over ``dim``, without overflow."""
        d, k = _reduce_args("logsumexp", dim, keepdim, axis, keepdims)
        return reductions.LogSumExp.apply(self, axis=d, keepdims=k)

    @module_form
    def cumsum(self, dim: int, *, dtype: Any = None) -> Tensor:
        """Running sum along ``dim``; ``dtype=`` is the result's dtype (the input is cast
        first, and integers summed in int64 are cast back, wrapping around as PyTorch's)."""
        t = self if dtype is None else self.to(dtype)
        out = _along(t, dim, "cumsum", lambda x, d: reductions.CumSum.apply(x, axis=d))
        return out if dtype is None else out.to(dtype)

    @module_form
    def norm(self, p: Any = 2, dim: Any = None, keepdim: bool = False) -> Tensor:
        """The p-norm over ``dim`` (all elements by default): 2 or "fro" (gradient 0 at the
        origin, as PyTorch), 1, ``inf`` (max |x|), ``-inf`` (min |x|), 0 (the number of
        non-zeros, gradient 0), or any other number: sum(|x|**p)**(1/p). ``"nuc"``: the
        nuclear norm (sum of singular values) of the matrices over the two dims ``dim``
        (see ``ops/nuclear_norm.py``)."""
        if p == "nuc":
            return nuclear_norm(self, dim, keepdim)
        if isinstance(p, str) and p != "fro":
            raise ValueError(f"norm: p={p!r} is not supported (numbers, inf, -inf, 'fro' or "
                             "'nuc')")
        if p == 2 or p == "fro":
            return reductions.Norm2.apply(self, axis=dim, keepdims=keepdim)
        if p == 1:
            return self.abs().sum(dim, keepdim)
        if p == float("inf"):
            return self.abs().amax(dim, keepdim)
        if p == float("-inf"):
            return self.abs().amin(dim, keepdim)
        if p == 0:  # sign is a step (gradient 0): |sign(x)| counts the non-zeros in the graph
            return self.sign().abs().sum(dim, keepdim)
        return _root((self.abs() ** p).sum(dim, keepdim), p)

    @module_form
    def argmax(self, dim: int | None = None, keepdim: bool | None = None, *, axis: Any = None,
               keepdims: bool | None = None) -> Tensor:
        """Index of the maximum (an int64 tensor, no gradient); over all elements without ``dim``."""
        d, k = _reduce_args("argmax", dim, keepdim, axis, keepdims)
        return Tensor(_host(np.argmax, self.data, axis=d, keepdims=k and d is not None))

    @module_form
    def argmin(self, dim: int | None = None, keepdim: bool | None = None, *, axis: Any = None,
               keepdims: bool | None = None) -> Tensor:
        """Index of the minimum (an int64 tensor, no gradient)."""
        d, k = _reduce_args("argmin", dim, keepdim, axis, keepdims)
        return Tensor(_host(np.argmin, self.data, axis=d, keepdims=k and d is not None))

    @module_form
    def any(self, dim: Any = None, keepdim: bool | None = None, *, axis: Any = None,
            keepdims: bool | None = None, out: None = None) -> Tensor:
        """True where any element along ``dim`` is nonzero (a bool tensor). NumPy's spelling
        is accepted too, so ``np.any(t)`` works."""
        return _any_all(self, np.any, "any", dim, keepdim, axis, keepdims, out)

    @module_form
    def all(self, dim: Any = None, keepdim: bool | None = None, *, axis: Any = None,
            keepdims: bool | None = None, out: None = None) -> Tensor:
        """True where every element along ``dim`` is nonzero (a bool tensor). NumPy's
        spelling is accepted too, so ``np.all(t)`` works."""
        return _any_all(self, np.all, "all", dim, keepdim, axis, keepdims, out)

    @module_form
    def softmax(self, dim: int | None = None, dtype: Any = None, *,
                axis: int | None = None) -> Tensor:
        """exp(x) / sum(exp(x)) along ``dim`` (Numba kernel); ``dtype`` casts the input first,
        as PyTorch."""
        x = self if dtype is None else self.to(dtype)
        return softmax.softmax(x, _pick("softmax", dim, axis, "dim", "axis", -1))

    @module_form
    def log_softmax(self, dim: int | None = None, dtype: Any = None, *,
                    axis: int | None = None) -> Tensor:
        """x - logsumexp(x) along ``dim``; ``dtype`` casts the input first, as PyTorch."""
        x = self if dtype is None else self.to(dtype)
        return softmax.log_softmax(x, _pick("log_softmax", dim, axis, "dim", "axis", -1))

    # ---- shape ------------------------------------------------------------------
    @module_form
    def reshape(self, *shape: Any) -> Tensor:
        """Same data, new shape (one dimension may be -1)."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return shapes.Reshape.apply(self, shape=shape)

    def view(self, *shape: Any) -> Tensor:
        """Same data, new shape (as :meth:`reshape`); or, given one dtype, the same memory
        read as that dtype (PyTorch's ``view(dtype)``: no graph, shares the version counter;
        a different element size rescales the last dim, which must then be contiguous)."""
        if len(shape) == 1 and _is_dtype_argument(shape[0]):
            return self._view_as_dtype(check_dtype(shape[0], "view"))
        return self.reshape(*shape)

    def _view_as_dtype(self, dt: np.dtype) -> Tensor:
        src = self.data.dtype
        if dt.itemsize != src.itemsize:
            what = f"to view {src} as {dt} (different element sizes)"
            if self.ndim == 0:
                raise RuntimeError(f"self.dim() cannot be 0 {what}")
            if self.shape[-1] != 1 and self.data.strides[-1] != src.itemsize:
                raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got "
                                   f"{self.data.strides[-1] // src.itemsize}")
            if (self.shape[-1] * src.itemsize) % dt.itemsize:
                raise RuntimeError(f"self.size(-1) must be divisible by "
                                   f"{dt.itemsize // src.itemsize} {what}, but got "
                                   f"{self.shape[-1]}")
        out = Tensor(self.data.view(dt))
        out._vc, out._is_view = self._vc, True
        return out

    @module_form
    def flatten(self, start_dim: int = 0, end_dim: int = -1) -> Tensor:
        """Merge dims start_dim..end_dim into one."""
        shp = self.shape
        s, e = _check_dim(start_dim, self.ndim, "flatten"), _check_dim(end_dim, self.ndim, "flatten")
        if s > e:
            raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
        return self.reshape(shp[:s] + (-1,) + shp[e + 1:])

    @module_form
    def transpose(self, dim0: int = -2, dim1: int = -1) -> Tensor:
        """Swap two axes (defaults: the last two). A 0-d tensor accepts dims 0 and -1 and
        is its own transpose, as PyTorch."""
        if self.ndim == 0 and (dim0, dim1) != (-2, -1):
            _check_dim(dim0, 0, "transpose"), _check_dim(dim1, 0, "transpose")
            return self
        return shapes.Transpose.apply(self, dim0=dim0, dim1=dim1)

    @module_form
    def permute(self, *dims: Any) -> Tensor:
        """Reorder all axes."""
        if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
            dims = tuple(dims[0])
        return shapes.Permute.apply(self, dims=dims)

    @property
    def T(self) -> Tensor:
        """All axes reversed (a matrix's transpose)."""
        return self.permute(tuple(range(self.ndim - 1, -1, -1)))

    @property
    def mT(self) -> Tensor:
        """The last two axes swapped: a batch of matrices (..., M, N) -> (..., N, M)."""
        if self.ndim < 2:
            raise RuntimeError(f"tensor.mT is only supported on matrices or batches of matrices. "
                               f"Got {self.ndim}-D tensor.")
        return self.transpose(-2, -1)

    def new_zeros(self, *size: Any, dtype: Any = None, device: Any = None,
                  requires_grad: bool = False) -> Tensor:
        """Zeros of ``size``, with self's dtype unless ``dtype`` says otherwise."""
        return self.new_full(_shape_args(size), 0, dtype=dtype, device=device,
                             requires_grad=requires_grad)

    def new_ones(self, *size: Any, dtype: Any = None, device: Any = None,
                  requires_grad: bool = False) -> Tensor:
        """Ones of ``size``, with self's dtype unless ``dtype`` says otherwise."""
        return self.new_full(_shape_args(size), 1, dtype=dtype, device=device,
                             requires_grad=requires_grad)

    def new_empty(self, *size: Any, dtype: Any = None, device: Any = None,
                  requires_grad: bool = False) -> Tensor:
        """A tensor of ``size`` (filled with zeros: NumPy's uninitialised memory would make
        runs irreproducible), with self's dtype unless ``dtype`` says otherwise."""
        return self.new_zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad)

    def new_full(self, size: Any, fill_value: Any, *, dtype: Any = None, device: Any = None,
                 requires_grad: bool = False) -> Tensor:
        """``fill_value`` everywhere in ``size``, with self's dtype unless ``dtype`` says."""
        check_device(device)
        dt = self.data.dtype if dtype is None else check_dtype(dtype)
        return Tensor(np.full(_shape_args((size,)), _fill_value(fill_value, dt)),
                      requires_grad=requires_grad)

    def new_tensor(self, data: Any, *, dtype: Any = None, device: Any = None,
                   requires_grad: bool = False) -> Tensor:
        """A copy of ``data`` as a leaf, with self's dtype unless ``dtype`` says otherwise."""
        check_device(device)
        arr = _copied(data, self.data.dtype if dtype is None else dtype)
        return Tensor._from_op(arr, None).requires_grad_(requires_grad)

    @module_form
    def unsqueeze(self, dim: int) -> Tensor:
        """Insert a size-1 axis at ``dim``."""
        shp = list(self.shape)
        shp.insert(_check_dim(dim, self.ndim + 1, "unsqueeze"), 1)
        return self.reshape(tuple(shp))

    @module_form
    def squeeze(self, dim: Any = None) -> Tensor:
        """Remove size-1 axes (all, or only those in ``dim``, an int or a tuple of ints)."""
        if dim is None:
            dims = range(self.ndim)
        else:
            dims = dim if isinstance(dim, (tuple, list)) else (dim,)
            dims = {_check_dim(d, self.ndim, "squeeze") for d in dims}
        if self.ndim == 0:  # PyTorch allows dim 0 or -1 on a 0-d tensor: nothing to remove
            return self
        drop = {d for d in dims if self.shape[d] == 1}
        if not drop:
            return self
        return self.reshape(tuple(s for d, s in enumerate(self.shape) if d not in drop))

    def __getitem__(self, index: Any) -> Tensor:
        """``x[index]``: basic slicing, or gather by integer/bool arrays (Tensors accepted)."""
        idx = index
        if not (type(index) is tuple and _PLAIN_INDEX_TYPES.issuperset(map(type, index))
                or type(index) in _PLAIN_INDEX_TYPES):
            idx = _torch_order_index(_index_to_numpy(index), self.data.shape)
        return shapes.GetItem.apply(self, index=idx)

    @module_form
    def split(self, split_size: int | list, dim: int | None = None, *,
              axis: int | None = None) -> tuple:
        """Chunks of ``split_size`` along ``dim`` (or sizes given as a list)."""
        return shapes.split(self, split_size, _pick("split", dim, axis, "dim", "axis", 0))

    def masked_fill(self, mask: Any, value: float) -> Tensor:
        """Copy of self with ``value`` where ``mask`` is True (mask broadcasts)."""
        return masking.masked_fill(self, mask, value)

    # ---- PyTorch's method spellings of the operators ----------------------------------
    @module_form
    def add(self, other: Any, alpha: float = 1) -> Tensor:
        """self + alpha * other."""
        return self + (other if alpha == 1 else other * alpha)

    @module_form
    def sub(self, other: Any, alpha: float = 1) -> Tensor:
        """self - alpha * other."""
        return self - (other if alpha == 1 else other * alpha)

    @module_form
    def mul(self, other: Any) -> Tensor:
        """self * other."""
        return self * other

    @module_form
    def div(self, other: Any, rounding_mode: str | None = None) -> Tensor:
        """self / other; ``rounding_mode="floor"`` is ``//``, ``"trunc"`` rounds toward 0."""
        if rounding_mode is None:
            return self / other
        if rounding_mode in ("floor", "trunc"):
            return piecewise.RoundedDiv.apply(self, other, mode=rounding_mode)
        raise ValueError(f"div: rounding_mode must be None, 'floor' or 'trunc', got {rounding_mode!r}")

    @module_form
    def pow(self, exponent: Any) -> Tensor:
        """self ** exponent."""
        return self**exponent

    @module_form
    def matmul(self, other: Any) -> Tensor:
        """``self @ other`` as ``torch.matmul``: a 1-D operand is treated as a row (left) or
        column (right) vector and that axis is removed from the result."""
        a = self
        b = other if isinstance(other, Tensor) else as_tensor_like(other, self)
        if a.ndim == 0 or b.ndim == 0:
            raise ValueError(
                f"matmul: both operands need at least 1 dimension, got shapes {a.shape} and {b.shape}"
            )
        check_same_float([a.data, b.data], "matmul")
        squeeze_a, squeeze_b = a.ndim == 1, b.ndim == 1
        shape_a, shape_b = a.shape, b.shape  # the caller's shapes, for error messages
        if squeeze_a:
            a = a.reshape(1, -1)
        if squeeze_b:
            b = b.reshape(-1, 1)
        if a.shape[-1] != b.shape[-2]:
            raise ValueError(
                f"matmul: shapes {shape_a} and {shape_b} do not align "
                f"(inner dimensions {a.shape[-1]} != {b.shape[-2]})"
            )
        try:
            np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        except ValueError:
            raise ValueError(
                f"matmul: batch dimensions of {a.shape} and {b.shape} cannot be broadcast"
            ) from None
        out = matmul_ops.MatMul.apply(a, b)
        if squeeze_a:
            out = out.reshape(out.shape[:-2] + (out.shape[-1],))
        if squeeze_b:
            out = out.reshape(out.shape[:-1])
        return out

    @module_form
    def neg(self) -> Tensor:
        """-self."""
        return -self

    @module_form
    def __mod__(self, other: Any) -> Tensor:
        return piecewise.Remainder.apply(self, other)

    def __rmod__(self, other: Any) -> Tensor:
        return piecewise.Remainder.apply(as_tensor_like(other, self), self)

    @module_form
    def __floordiv__(self, other: Any) -> Tensor:
        """floor(self / other), in integers for integer operands; gradient 0."""
        return piecewise.RoundedDiv.apply(self, other, mode="floor")

    def __rfloordiv__(self, other: Any) -> Tensor:
        return piecewise.RoundedDiv.apply(as_tensor_like(other, self), self, mode="floor")

    remainder = __mod__
    floor_divide = __floordiv__

    # bitwise operators: bool and integer tensors only, in PyTorch's result dtype (no graph)
    def __and__(self, other: Any) -> Tensor:
        return _bitwise(np.bitwise_and, "&", self, other)

    def __rand__(self, other: Any) -> Tensor:
        return _bitwise(np.bitwise_and, "&", other, self)

    def __or__(self, other: Any) -> Tensor:
        return _bitwise(np.bitwise_or, "|", self, other)

    def __ror__(self, other: Any) -> Tensor:
        return _bitwise(np.bitwise_or, "|", other, self)

    def __xor__(self, other: Any) -> Tensor:
        return _bitwise(np.bitwise_xor, "^", self, other)

    def __rxor__(self, other: Any) -> Tensor:
        return _bitwise(np.bitwise_xor, "^", other, self)

    def __lshift__(self, other: Any) -> Tensor:
        """self * 2**other in integers (bits shifted out are lost; a count past the width
        gives 0), PyTorch's ``bitwise_left_shift``."""
        return _bitwise(np.left_shift, "<<", self, other)

    def __rlshift__(self, other: Any) -> Tensor:
        return _bitwise(np.left_shift, "<<", other, self)

    def __rshift__(self, other: Any) -> Tensor:
        """floor(self / 2**other) in integers (arithmetic shift: the sign is kept),
        PyTorch's ``bitwise_right_shift``."""
        return _bitwise(np.right_shift, ">>", self, other)

    def __rrshift__(self, other: Any) -> Tensor:
        return _bitwise(np.right_shift, ">>", other, self)

    bitwise_and, bitwise_or, bitwise_xor = __and__, __or__, __xor__
    bitwise_left_shift, bitwise_right_shift = __lshift__, __rshift__

    def __invert__(self) -> Tensor:
        return Tensor(_host(operator.invert, self.data))

    bitwise_not = __invert__

    @module_form
    def eq(self, other: Any) -> Tensor:
        """self == other elementwise (bool)."""
        return self == other

    @module_form
    def ne(self, other: Any) -> Tensor:
        """self != other elementwise (bool)."""
        return self != other

    @module_form
    def lt(self, other: Any) -> Tensor:
        """self < other elementwise (bool)."""
        return self < other

    @module_form
    def le(self, other: Any) -> Tensor:
        """self <= other elementwise (bool)."""
        return self <= other

    @module_form
    def gt(self, other: Any) -> Tensor:
        """self > other elementwise (bool)."""
        return self > other

    @module_form
    def ge(self, other: Any) -> Tensor:
        """self >= other elementwise (bool)."""
        return self >= other

    @module_form
    def logical_and(self, other: Any) -> Tensor:
        """self and other elementwise."""
        return _boolean(np.logical_and, self, other)

    @module_form
    def logical_or(self, other: Any) -> Tensor:
        """self or other elementwise."""
        return _boolean(np.logical_or, self, other)

    @module_form
    def logical_xor(self, other: Any) -> Tensor:
        """self xor other elementwise."""
        return _boolean(np.logical_xor, self, other)

    @module_form
    def logical_not(self) -> Tensor:
        """not self elementwise."""
        return _boolean(np.logical_not, self)

    @module_form
    def isnan(self) -> Tensor:
        """True where NaN."""
        return _boolean(np.isnan, self)

    @module_form
    def isinf(self) -> Tensor:
        """True where infinite."""
        return _boolean(np.isinf, self)

    @module_form
    def isfinite(self) -> Tensor:
        """True where finite."""
        return _boolean(np.isfinite, self)

    # ---- more elementwise math (ops/piecewise.py, ops/unary_math.py) -------------------
    @module_form
    def maximum(self, other: Any) -> Tensor:
        """Elementwise max(self, other); ties split the gradient in half."""
        return piecewise.Maximum.apply(self, other)

    @module_form
    def minimum(self, other: Any) -> Tensor:
        """Elementwise min(self, other); ties split the gradient in half."""
        return piecewise.Minimum.apply(self, other)

    @module_form
    def sin(self) -> Tensor:
        """sin(x)."""
        return unary_math.FUNCTIONS["sin"].apply(self)

    @module_form
    def cos(self) -> Tensor:
        """cos(x)."""
        return unary_math.FUNCTIONS["cos"].apply(self)

    @module_form
    def erf(self) -> Tensor:
        """The error function."""
        return unary_math.FUNCTIONS["erf"].apply(self)

    @module_form
    def sign(self) -> Tensor:
        """-1, 0 or 1 (gradient 0); a bool tensor is its own sign, as PyTorch."""
        if self.dtype == np.bool_:
            return Tensor(_host(np.copy, self.data))
        return piecewise.StepFunction.apply(self, name="sign")

    @module_form
    def floor(self) -> Tensor:
        """Round down (gradient 0)."""
        return piecewise.StepFunction.apply(self, name="floor")

    @module_form
    def ceil(self) -> Tensor:
        """Round up (gradient 0)."""
        return piecewise.StepFunction.apply(self, name="ceil")

    @module_form
    def round(self, *, decimals: int = 0) -> Tensor:
        """Round half to even (gradient 0), as PyTorch; to ``decimals`` places after the point
        (negative: before it), computed as round(x * 10**decimals) / 10**decimals."""
        if decimals == 0:
            return piecewise.StepFunction.apply(self, name="round")
        if self.dtype.kind != "f":
            raise TypeError(f"round: decimals= needs a float tensor, got dtype {self.dtype}")
        scale = 10.0 ** decimals
        return piecewise.StepFunction.apply(self * scale, name="round") / scale

    @module_form
    def trunc(self) -> Tensor:
        """Round toward zero (gradient 0)."""
        return piecewise.StepFunction.apply(self, name="trunc")

    @module_form
    def fmod(self, other: Any) -> Tensor:
        """self - trunc(self / other) * other: C's remainder, with the sign of self
        (``remainder`` and ``%`` take the sign of other); integer division by zero raises."""
        return piecewise.Remainder.apply(self, other, mode="trunc")

    # ---- smooth unary math (minigrad/ops/unary_math.py): integers compute in float32 --------
    @module_form
    def asin(self) -> Tensor:
        """arcsin(x), in [-pi/2, pi/2]; NaN outside [-1, 1]."""
        return unary_math.FUNCTIONS["asin"].apply(self)

    @module_form
    def acos(self) -> Tensor:
        """arccos(x), in [0, pi]; NaN outside [-1, 1]."""
        return unary_math.FUNCTIONS["acos"].apply(self)

    @module_form
    def atan(self) -> Tensor:
        """arctan(x), in (-pi/2, pi/2)."""
        return unary_math.FUNCTIONS["atan"].apply(self)

    @module_form
    def sinh(self) -> Tensor:
        """(e**x - e**-x) / 2."""
        return unary_math.FUNCTIONS["sinh"].apply(self)

    @module_form
    def cosh(self) -> Tensor:
        """(e**x + e**-x) / 2."""
        return unary_math.FUNCTIONS["cosh"].apply(self)

    @module_form
    def tan(self) -> Tensor:
        """sin(x) / cos(x)."""
        return unary_math.FUNCTIONS["tan"].apply(self)

    @module_form
    def asinh(self) -> Tensor:
        """The inverse of sinh."""
        return unary_math.FUNCTIONS["asinh"].apply(self)

    @module_form
    def acosh(self) -> Tensor:
        """The inverse of cosh, in [0, inf); NaN below 1."""
        return unary_math.FUNCTIONS["acosh"].apply(self)

    @module_form
    def atanh(self) -> Tensor:
        """The inverse of tanh; +-inf at +-1, NaN outside [-1, 1]."""
        return unary_math.FUNCTIONS["atanh"].apply(self)

    @module_form
    def log1p(self) -> Tensor:
        """log(1 + x), exact for tiny x (where 1 + x would round to 1)."""
        return unary_math.FUNCTIONS["log1p"].apply(self)

    @module_form
    def expm1(self) -> Tensor:
        """e**x - 1, exact for tiny x."""
        return unary_math.FUNCTIONS["expm1"].apply(self)

    @module_form
    def log2(self) -> Tensor:
        """Base-2 logarithm."""
        return unary_math.FUNCTIONS["log2"].apply(self)

    @module_form
    def log10(self) -> Tensor:
        """Base-10 logarithm."""
        return unary_math.FUNCTIONS["log10"].apply(self)

    @module_form
    def exp2(self) -> Tensor:
        """2**x."""
        return unary_math.FUNCTIONS["exp2"].apply(self)

    @module_form
    def rsqrt(self) -> Tensor:
        """1 / sqrt(x)."""
        return unary_math.FUNCTIONS["rsqrt"].apply(self)

    @module_form
    def reciprocal(self) -> Tensor:
        """1 / x (integers give float32, as PyTorch)."""
        return unary_math.FUNCTIONS["reciprocal"].apply(self)

    @module_form
    def square(self) -> Tensor:
        """x ** 2 (integers stay integers and bool gives int64, as PyTorch's pow(x, 2))."""
        return self**2

    # ---- functions of two tensors (minigrad/ops/binary_math.py) ------------------------------
    @module_form
    def atan2(self, other: Any) -> Tensor:
        """The angle of the point (other, self), in [-pi, pi] (gradient NaN at (0, 0), as
        PyTorch)."""
        return binary_math.Atan2.apply(self, other)

    @module_form
    def copysign(self, other: Any) -> Tensor:
        """|self| with the sign of other (-0.0 counts as negative); always floating."""
        return binary_math.CopySign.apply(self, other)

    @module_form
    def lerp(self, end: Any, weight: Any) -> Tensor:
        """self + weight * (end - self) (self, end and a tensor weight broadcast together);
        gradients 1 - weight, weight and end - self. Floating tensors of one dtype only, as
        PyTorch; composed of +, - and *, so every derivative comes from theirs."""
        end = end if isinstance(end, Tensor) else as_tensor_like(end, self)
        for what, t in (("end", end), ("weight", weight)):
            dt = t.dtype if isinstance(t, (Tensor, np.ndarray)) else None
            if self.dtype.kind != "f" or (dt is not None and dt != self.dtype):
                raise RuntimeError(f"lerp: needs floating tensors of one dtype: self is "
                                   f"{self.dtype}, {what} is {dt}")
        return self + weight * (end - self)

    @module_form
    def isclose(self, other: Any, rtol: float = 1e-05, atol: float = 1e-08,
                equal_nan: bool = False) -> Tensor:
        """True where self == other or |self - other| <= atol + rtol * |other| (broadcasting;
        a bool tensor, no gradient), as ``torch.isclose``: infinities are close only to
        themselves, NaN only to NaN and only with ``equal_nan``. Both must have one dtype (a
        Python number takes self's); integers are compared in float64."""
        return Tensor(_host(_isclose, _data(self), _data(other), rtol, atol, equal_nan))

    # ---- copies, shapes, indexing and sorting (minigrad/ops/indexing.py; helpers below) -
    @module_form
    def clone(self) -> Tensor:
        """A copy with its own memory, still in the graph (gradient flows through)."""
        return shapes.Cast.apply(self, dtype=self.dtype)

    def contiguous(self) -> Tensor:
        """self when already C-contiguous, else a contiguous copy (same values, same graph)."""
        return self if self.data.flags.c_contiguous else self.clone()

    @module_form
    def expand(self, *sizes: Any) -> Tensor:
        """A broadcast view to ``sizes``; -1 keeps a dimension."""
        sizes = _shape_tuple(sizes)
        lead = len(sizes) - self.ndim
        if lead < 0:
            raise ValueError(f"expand: {sizes} has fewer dims than the tensor's {self.shape}")
        shape = tuple(self.shape[i - lead] if n == -1 and i >= lead else n
                      for i, n in enumerate(sizes))
        return indexing.Expand.apply(self, shape=shape)

    def expand_as(self, other: Tensor) -> Tensor:
        """``expand(other.shape)``."""
        return self.expand(other.shape)

    @module_form
    def repeat(self, *repeats: Any) -> Tensor:
        """Tile the tensor ``repeats[d]`` times along each dimension d."""
        return indexing.Repeat.apply(self, repeats=_shape_tuple(repeats))

    @module_form
    def flip(self, *dims: Any, **kw: Any) -> Tensor:
        """Reverse the order of elements along ``dims`` (``x.flip(0, 1)``, ``x.flip((0, 1))``
        or ``x.flip(dims=(0, 1))``, as PyTorch)."""
        if kw:
            if dims or set(kw) != {"dims"}:
                raise TypeError(f"flip: takes dims positionally or as dims=, got {dims} and "
                                f"{sorted(kw)}")
            d = kw["dims"]
            dims = tuple(d) if isinstance(d, (tuple, list)) else (d,)
        dims = tuple(_check_dim(d, self.ndim, "flip") for d in _shape_tuple(dims))
        return indexing.Flip.apply(self, dims=dims)

    @module_form
    def chunk(self, chunks: int, dim: int = 0) -> tuple:
        """Split into ``chunks`` pieces of ceil(n / chunks) along ``dim`` (the last may be
        smaller and there may be fewer pieces, as PyTorch)."""
        if chunks <= 0:
            raise ValueError(f"chunk: chunks must be positive, got {chunks}")
        n = self.shape[_check_dim(dim, self.ndim, "chunk")]
        return self.split(max(-(-n // chunks), 1), dim)

    @module_form
    def unflatten(self, dim: int, sizes: Any) -> Tensor:
        """Split dimension ``dim`` into ``sizes`` (one may be -1)."""
        d = _check_dim(dim, self.ndim, "unflatten")
        return self.reshape(self.shape[:d] + tuple(sizes) + self.shape[d + 1:])

    def view_as(self, other: Tensor) -> Tensor:
        """``reshape(other.shape)``."""
        return self.reshape(other.shape)

    @module_form
    def gather(self, dim: int, index: Any) -> Tensor:
        """out[i][j] = self[i][index[i][j]] for dim=1 (PyTorch's gather). A 0-d tensor reads
        as one element; an empty index gives an empty result of its shape."""
        d = _check_dim(dim, self.ndim, "gather")
        idx = np.asarray(_data(index))
        if idx.size == 0:  # PyTorch checks no shapes then: nothing is read
            return self.reshape(-1)[np.zeros(idx.shape, np.intp)]
        if self.ndim == 0:
            return indexing.Gather.apply(self.reshape(1), dim=0,
                                         index=idx.reshape(-1)).reshape(idx.shape)
        return indexing.Gather.apply(self, dim=d, index=idx)

    @module_form
    def scatter_add(self, dim: int, index: Any, src: Any) -> Tensor:
        """A copy of self with out[i][index[i][j]] += src[i][j] for dim=1 (PyTorch's
        scatter_add); a 0-d tensor is one element."""
        d = _check_dim(dim, self.ndim, "scatter_add")
        if self.ndim == 0:
            idx = np.asarray(_data(index)).reshape(-1)
            s = src if isinstance(src, Tensor) else Tensor(np.asarray(src, dtype=self.dtype))
            return indexing.ScatterAdd.apply(self.reshape(1), s.reshape(-1), dim=0,
                                             index=idx).reshape(())
        return indexing.ScatterAdd.apply(self, src, dim=d, index=_data(index))

    @module_form
    def masked_select(self, mask: Any) -> Tensor:
        """The elements where ``mask`` (broadcast with self) is True, as a 1-d tensor."""
        m = np.asarray(_data(mask))
        if m.dtype != np.bool_:
            raise TypeError(f"masked_select: mask must be boolean, got dtype {m.dtype}")
        shape = np.broadcast_shapes(self.shape, m.shape)
        return self.expand(shape)[np.broadcast_to(m, shape)]

    @module_form
    def sort(self, dim: int = -1, descending: bool = False, *, stable: bool = False) -> Any:
        """``(values, indices)`` sorted along ``dim``. Always stable (equal elements keep
        their order), so ``stable=`` is accepted and changes nothing."""
        return _sort(self, _check_dim(dim, self.ndim, "sort"), descending)

    @module_form
    def argsort(self, dim: int = -1, descending: bool = False, *, stable: bool = False) -> Tensor:
        """Indices that sort along ``dim`` (always stable, ``stable=`` accepted; int64, no
        gradient)."""
        return Tensor(_host(sort_indices, self.data, _check_dim(dim, self.ndim, "argsort"),
                            descending))

    @module_form
    def topk(self, k: int, dim: int = -1, largest: bool = True, sorted: bool = True) -> Any:
        """``(values, indices)`` of the ``k`` largest (or smallest) along ``dim``."""
        return _topk(self, k, _check_dim(dim, self.ndim, "topk"), largest)

    @module_form
    def index_select(self, dim: int, index: Any) -> Tensor:
        """The slices ``index`` (1-d ints) along ``dim``, in that order (repeats allowed)."""
        idx = np.asarray(_data(index))
        if idx.ndim > 1:
            raise ValueError(f"index_select: index must be 1-d, got shape {idx.shape}")
        d = _check_dim(dim, self.ndim, "index_select")
        if self.ndim == 0:  # one element: the result is 0-d, as PyTorch
            if idx.size != 1:
                raise IndexError(f"index_select: a 0-d tensor takes one index, got {idx.size}")
            return self.reshape(1)[idx.reshape(-1)].reshape(())
        return self[(slice(None),) * d + (idx.reshape(-1),)]

    @module_form
    def narrow(self, dim: int, start: int, length: int) -> Tensor:
        """The slice [start, start + length) along ``dim`` (``start`` may be a 0-d integer
        tensor, as PyTorch)."""
        d = _check_dim(dim, self.ndim, "narrow")
        start = operator.index(start.item() if isinstance(start, Tensor) else start)
        if not 0 <= start % max(self.shape[d], 1) + length <= self.shape[d] or length < 0:
            raise IndexError(f"narrow: [{start}, {start} + {length}) is out of range for dim {d} "
                             f"of size {self.shape[d]}")
        start %= max(self.shape[d], 1)
        return self[(slice(None),) * d + (slice(start, start + length),)]

    @module_form
    def nonzero(self, *, as_tuple: bool = False) -> Any:
        """(n, ndim) int64 indices of the nonzero elements (no gradient); with
        ``as_tuple=True`` a tuple of ndim 1-d index tensors, one per dimension (a 0-d tensor
        gives one, as PyTorch)."""
        cannot_replay("nonzero: the shape of its result depends on the values")
        if not as_tuple:
            return Tensor(np.argwhere(self.data).astype(np.int64))
        return tuple(Tensor(i.astype(np.int64)) for i in np.nonzero(np.atleast_1d(self.data)))

    @module_form
    def bmm(self, other: Any) -> Tensor:
        """Batched matrix product of (B, n, m) and (B, m, p) (``@`` without broadcasting)."""
        return products.bmm(self, _operand(other, self))

    def mm(self, other: Any) -> Tensor:
        """Matrix product of (n, m) and (m, p) (2-d only; a mismatch names both shapes)."""
        return products.mm(self, _operand(other, self))

    @module_form
    def mv(self, vec: Any) -> Tensor:
        """Matrix-vector product of (n, m) and (m,) -> (n,)."""
        return products.mv(self, _operand(vec, self))

    @module_form
    def dot(self, other: Any) -> Tensor:
        """sum_i self_i other_i of two 1-d tensors of one length (a 0-d tensor)."""
        return products.dot(self, _operand(other, self))

    @module_form
    def addmm(self, mat1: Any, mat2: Any, *, beta: float = 1, alpha: float = 1) -> Tensor:
        """beta * self + alpha * (mat1 @ mat2), mat1 (n, m), mat2 (m, p), self broadcast to
        (n, p); beta = 0 ignores self (its nan and inf too), as PyTorch."""
        prod = products.mm(_operand(mat1, self), _operand(mat2, self))
        return products.add_scaled("addmm", self, prod, beta, alpha)

    @module_form
    def baddbmm(self, batch1: Any, batch2: Any, *, beta: float = 1, alpha: float = 1) -> Tensor:
        """beta * self + alpha * (batch1 @ batch2), batch1 (B, n, m), batch2 (B, m, p), self
        broadcast to (B, n, p) (see :meth:`addmm`)."""
        prod = products.bmm(_operand(batch1, self), _operand(batch2, self))
        return products.add_scaled("baddbmm", self, prod, beta, alpha)

    @module_form
    def outer(self, other: Tensor) -> Tensor:
        """Outer product of two 1-d tensors: out[i, j] = self[i] * other[j]."""
        if self.ndim != 1 or other.ndim != 1:
            raise ValueError(f"outer: needs two 1-d tensors, got {self.shape} and {other.shape}")
        return self.reshape(-1, 1) * other.reshape(1, -1)

    # ---- running ops, scatter, diagonals, composed shapes (ops/scans.py, scatter.py,
    # diagonal.py, rearrange.py) ----------------------------------------------------------
    @module_form
    def cumprod(self, dim: int, *, dtype: Any = None) -> Tensor:
        """Running product along ``dim`` (the gradient is exact where the input has zeros);
        ``dtype=`` as in :meth:`cumsum`."""
        t = self if dtype is None else self.to(dtype)
        out = _along(t, dim, "cumprod", lambda x, d: scans.CumProd.apply(x, axis=d))
        return out if dtype is None else out.to(dtype)

    @module_form
    def logcumsumexp(self, dim: int) -> Tensor:
        """out_i = log(exp(x_0) + ... + exp(x_i)) along ``dim``, without overflow."""
        return _along(self, dim, "logcumsumexp", lambda x, d: scans.LogCumSumExp.apply(x, axis=d))

    @module_form
    def cummax(self, dim: int) -> ValuesIndices:
        """``(values, indices)`` of the running maximum along ``dim``: a tie takes the later
        index, as PyTorch; the gradient goes to the element each index names."""
        return _running_extremum(self, dim, largest=True)

    @module_form
    def cummin(self, dim: int) -> ValuesIndices:
        """``(values, indices)`` of the running minimum along ``dim`` (see :meth:`cummax`)."""
        return _running_extremum(self, dim, largest=False)

    @module_form
    def scatter(self, dim: int, index: Any, src: Any = None, *, value: Any = None,
                reduce: str | None = None) -> Tensor:
        """A copy of self with ``src`` (a tensor of self's dtype, or a number: ``value``)
        written at ``index`` along ``dim``: out[i][index[i][j]] = src[i][j] for dim=1.
        ``reduce="add"``/``"multiply"`` combine instead (:meth:`scatter_reduce`'s sum/prod)."""
        if (src is None) == (value is None):
            raise TypeError("scatter: give exactly one of src (a tensor) and value (a number)")
        if value is None and not isinstance(src, Tensor):
            value = src  # torch.scatter(x, dim, index, 1.5): a number is the value form
        reduction = {None: None, "add": "sum", "multiply": "prod"}
        if reduce not in reduction:
            raise ValueError(f"scatter: reduce must be None, 'add' or 'multiply', got {reduce!r}")
        if value is not None:
            index = np.asarray(_data(index))
            src = Tensor(_host(np.full, index.shape, _data(value), dtype=self.dtype))
        if reduce is not None:
            return self.scatter_reduce(dim, index, src, reduction[reduce])
        return _scattered(self, dim, index, src, "scatter", scatter_ops.scatter)

    @module_form
    def scatter_reduce(self, dim: int, index: Any, src: Any, reduce: str, *,
                       include_self: bool = True) -> Tensor:
        """A copy of self where each position ``index`` names along ``dim`` is reduced
        (``"sum" "prod" "mean" "amax" "amin"``) with the ``src`` values sent to it, and with
        its own value unless ``include_self=False`` (PyTorch's scatter_reduce). Gradients:
        mean shares 1/N, amax/amin share equally among the members equal to the result,
        prod is the product of the other members (exact with zeros)."""
        def op(t, d, idx, s):
            return scatter_ops.scatter_reduce(t, d, idx, s, reduce, include_self)
        return _scattered(self, dim, index, _operand(src, self), "scatter_reduce", op)

    @module_form
    def repeat_interleave(self, repeats: Any, dim: int | None = None, *,
                          output_size: int | None = None) -> Tensor:
        """Each slice along ``dim`` repeated ``repeats`` times (an int, or one count per
        slice) in place: [a, b] -> [a, a, b, b]; without ``dim``, of the flattened tensor."""
        if dim is None:
            t, d = self.reshape(-1), 0
        else:
            d = _check_dim(dim, self.ndim, "repeat_interleave")
            t = self.reshape(1) if self.ndim == 0 else self
        out = rearrange.repeat_interleave(t, repeats, d)
        if output_size is not None and out.shape[d] != output_size:
            raise ValueError(f"repeat_interleave: output_size={output_size}, but the repeats "
                             f"give {out.shape[d]}")
        return out

    @module_form
    def roll(self, shifts: Any, dims: Any = None) -> Tensor:
        """Rotate by ``shifts[k]`` positions along ``dims[k]`` (out[i] = self[i - s mod n]);
        without ``dims``, the flattened tensor by one int, then the shape restored."""
        if dims is None:
            s = _int_tuple(shifts)
            if len(s) != 1:
                raise ValueError(f"roll: without dims, shifts must be one int, got {shifts!r}")
            return rearrange.roll(self.reshape(-1), s, (0,)).reshape(self.shape)
        s, d = _int_tuple(shifts), _int_tuple(dims)
        if len(s) != len(d):
            raise ValueError(f"roll: {len(s)} shifts for {len(d)} dims ({shifts!r}, {dims!r})")
        d = tuple(_check_dim(k, self.ndim, "roll") for k in d)
        if self.ndim == 0:
            return rearrange.roll(self.reshape(1), s, d).reshape(())
        return rearrange.roll(self, s, d)

    @module_form
    def unbind(self, dim: int = 0) -> tuple:
        """The slices along ``dim``, that dim removed (views of self)."""
        if self.ndim == 0:
            raise IndexError("unbind: a 0-d tensor has no dimension to unbind")
        return rearrange.unbind(self, _check_dim(dim, self.ndim, "unbind"))

    @module_form
    def movedim(self, source: Any, destination: Any) -> Tensor:
        """Dims ``source`` (an int or a sequence) moved to positions ``destination``, the
        others keeping their order (a view)."""
        src, dst = _int_tuple(source), _int_tuple(destination)
        if len(src) != len(dst):
            raise ValueError(f"movedim: source {src} and destination {dst} differ in length")
        src = tuple(_check_dim(d, self.ndim, "movedim") for d in src)
        dst = tuple(_check_dim(d, self.ndim, "movedim") for d in dst)
        if len(set(src)) != len(src) or len(set(dst)) != len(dst):
            raise ValueError(f"movedim: repeated dim in source {src} or destination {dst}")
        if self.ndim == 0:
            return self.reshape(())
        return rearrange.movedim(self, src, dst)

    moveaxis = movedim

    def tile(self, *dims: Any) -> Tensor:
        """Repeat ``dims[k]`` times along each dim (fewer dims than the tensor's are padded
        with 1s in front, as PyTorch)."""
        return rearrange.tile(self, _shape_tuple(dims))

    def broadcast_to(self, *size: Any) -> Tensor:
        """A broadcast view of shape ``size`` (``expand``)."""
        return self.expand(*size)

    @module_form
    def diagonal(self, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
        """The ``offset``-th diagonal over dims ``dim1``, ``dim2``, appended as the last dim
        (a view: writing to it writes to self)."""
        if self.ndim < 2:
            raise ValueError(f"diagonal: needs at least 2 dims, got shape {self.shape}")
        return _diagonal_ops.diagonal(self, offset, _check_dim(dim1, self.ndim, "diagonal"),
                                 _check_dim(dim2, self.ndim, "diagonal"))

    @module_form
    def diag(self, diagonal: int = 0) -> Tensor:
        """1-d -> the matrix with self on its ``diagonal``-th diagonal; 2-d -> a copy of that
        diagonal."""
        return _diagonal_ops.diag(self, int(diagonal))

    @module_form
    def tril(self, diagonal: int = 0) -> Tensor:
        """Keep the lower triangle (j <= i + diagonal) of the last two dims, zero the rest:
        ``ones(T, T).tril()`` is the causal "may attend" matrix."""
        return _triangle(self, diagonal, lower=True)

    @module_form
    def triu(self, diagonal: int = 0) -> Tensor:
        """Keep the upper triangle (j >= i + diagonal) of the last two dims, zero the rest:
        ``ones(T, T, dtype=bool).triu(1)`` is the causal mask "may not attend"."""
        return _triangle(self, diagonal, lower=False)

    # ---- in-place writes ---------------------------------------------------------
    # Each one computes the new value with an out-of-place op and writes it into
    # ``self.data`` (so every view of the array sees it), then bumps the version.
    # When a graph is being recorded, the tensor's history is rebased onto that
    # op, whose input is a copy of the old value: consumers that saved the old
    # array then fail the version check instead of reading the new values.
    # The named in-place methods and the augmented assignments (``x += y``, ...)
    # are generated from one table, _INPLACE_OPS, below the class.
    def _inplace(self, name: str, op, *others: Any) -> Tensor:
        """Run ``op(old_value_tensor)`` and write its result into self (see above).
        ``others`` are the op's other operands: one that requires grad records the write."""
        grad_mode = is_grad_enabled()
        recording = grad_mode and (
            self._requires_grad or any(isinstance(o, Tensor) and o._requires_grad
                                       for o in others)
        )
        # a view of such a leaf made under no_grad() does not require grad itself, but writing
        # it writes the leaf all the same
        if (grad_mode and (self._requires_grad or self._is_view)
                and inplace_writes.viewed_leaf(self) is not None):
            raise RuntimeError(
                ("a view of a leaf Variable" if self._is_view else "a leaf Variable")
                + " that requires grad is being used in an in-place operation. "
                f"({name} on a tensor of shape {self.shape}, dtype {self.dtype}; write under "
                "`with minigrad.no_grad():` to update a parameter)"
            )
        if not self.data.flags.writeable:
            raise ValueError(f"{name}: the tensor's array (shape {self.shape}) is read-only")
        base = inplace_writes.view_base(self) if recording and self._is_view else self
        if base is None:
            raise RuntimeError(
                f"{name}: in-place write to a view (shape {self.shape}) while recording a graph, "
                "and minigrad cannot find the tensor it views. Write to the base tensor, or use "
                "the out-of-place op (v = v + 1, not v += 1)."
            )
        if not recording:
            with no_grad():
                result = self._written_value(name, op(self))
        elif base is self:
            old_base = self._old_value()
            result = new = self._written_value(name, op(old_base))
        else:
            # a write through a view is the recorded write base[index] = op(base[index]) on
            # the old base, after which the view is base[index] of the new one (see
            # minigrad/inplace_writes.py)
            index = inplace_writes.view_index(self.data, base.data)
            old_base = base._old_value()
            result = self._written_value(name, op(shapes.GetItem.apply(old_base, index=index)))
            new = index_put.IndexPut.apply(old_base, result, index=index)
        if _mode.recorder is not None:  # a captured step being recorded: minigrad/step_capture/
            _mode.recorder.writes(self, result, recording)
        self.data[...] = result.data  # a view's write lands in its base's array
        self._bump_version()
        if recording:
            inplace_writes.repoint_earlier_uses(new, base, old_base)
            inplace_writes.remember_old_value(base, new._ctx, old_base)
            base._ctx = new._ctx
            base._requires_grad = new._ctx is not None
            if base is not self:
                self._ctx = shapes.GetItem.apply(base, index=index)._ctx
                self._requires_grad = True
        return self

    def _old_value(self) -> Tensor:
        """A copy of self's value with self's history: what an in-place op reads, so that the
        history stays correct once self is rebased onto the op."""
        old = Tensor._from_op(self.data.copy(), self._ctx)
        old._requires_grad = self._requires_grad
        return old

    def _written_value(self, name: str, result: Tensor) -> Tensor:
        """``result`` of an in-place op, checked to fit self (PyTorch's rules: no shape change
        by broadcasting, no cast down the order bool < integer < float) and cast to its dtype."""
        if result.data.shape != self.data.shape:
            raise RuntimeError(
                f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                f"{list(result.shape)} ({name})"
            )
        if result.data.dtype != self.data.dtype:
            if not _can_cast(result.data.dtype, self.data.dtype):
                raise RuntimeError(
                    f"result type {_torch_type_name(result.data.dtype)} can't be cast to the "
                    f"desired output type {_torch_type_name(self.data.dtype)} ({name})"
                )
            result = result.to(self.data.dtype)
        return result

    def __setitem__(self, index: Any, value: Any) -> None:
        """``x[index] = value`` in place (basic slices, integer or bool arrays)."""
        idx = _torch_order_index(_index_to_numpy(index), self.data.shape)
        if isinstance(value, Tensor) and value._vc is self._vc and _same_elements(
                value.data, self.data[idx]):
            # x[i] = x[i], the second half of ``x[i] += v``: the view was already written in
            # place, so the values are there and the graph already says how they were made
            self._bump_version()
            return
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
        return self._inplace("fill_", lambda t: index_put.IndexPut.apply(t, value, index=...),
                             value)

    def zero_(self) -> Tensor:
        """Set every element to 0."""
        return self.fill_(0)


def _data(x: Any) -> Any:
    return x.data if isinstance(x, Tensor) else x


def _pick(name: str, new: Any, old: Any, new_name: str, old_name: str, default: Any) -> Any:
    """PyTorch's keyword (``dim``) or NumPy's (``axis``): either, never both."""
    if new is not None and old is not None:
        raise TypeError(f"{name}: got both {new_name}= and {old_name}=; pass one")
    if new is not None:
        return new
    return default if old is None else old


def _root(s: Tensor, p: float) -> Tensor:
    """s ** (1/p) for s >= 0 with PyTorch's subgradient at s = 0: the chain rule there
    would give inf * 0 = nan (s's own gradient is 0 where s is); PyTorch masks the
    gradient to 0, so its higher derivatives are 0 there too. The root is taken of 1 where
    s is 0, so that no inf enters this or a higher derivative."""
    def root(t: Tensor) -> Tensor:
        return t.sqrt() if p == 2 else t ** (1.0 / p)

    zero = s.data == 0
    if not zero.any():
        return root(s)
    return masking.where(zero, s * 0, root(masking.where(zero, 1.0, s)))


def _reduce_args(name: str, dim: Any, keepdim: Any, axis: Any, keepdims: Any) -> tuple:
    """(axis, keepdims) from either spelling (``dim``/``keepdim`` or ``axis``/``keepdims``)."""
    return (_pick(name, dim, axis, "dim", "axis", None),
            bool(_pick(name, keepdim, keepdims, "keepdim", "keepdims", False)))


def _any_all(t: Tensor, op: Any, name: str, dim: Any, keepdim: Any, axis: Any, keepdims: Any,
             out: Any) -> Tensor:
    if out is not None:
        raise TypeError(f"{name}: out= is not supported")
    d, k = _reduce_args(name, dim, keepdim, axis, keepdims)
    return Tensor(_host(op, t.data, axis=d, keepdims=k))


def _operand(x: Any, ref: Tensor) -> Tensor:
    """A second operand as a Tensor: itself, or a constant of ``ref``'s float dtype."""
    return x if isinstance(x, Tensor) else as_tensor_like(x, ref)


def _int_tuple(x: Any) -> tuple:
    """An int or a sequence of ints as a tuple."""
    return (x,) if isinstance(x, (int, np.integer)) else tuple(x)


def _along(t: Tensor, dim: Any, name: str, op: Any) -> Tensor:
    """``op(t, dim)`` for a running op along one checked dim; a 0-d tensor (dim 0 or -1,
    as PyTorch) runs as shape (1,) and comes back 0-d."""
    d = _check_dim(dim, t.ndim, name)
    if t.ndim == 0:
        return op(t.reshape(1), 0).reshape(())
    return op(t, d)


def _running_extremum(t: Tensor, dim: Any, largest: bool) -> ValuesIndices:
    """cummax / cummin: the indices from NumPy, the values a differentiable gather there."""
    d = _check_dim(dim, t.ndim, "cummax" if largest else "cummin")
    x = t.reshape(1) if t.ndim == 0 else t
    idx = scans.running_extremum_indices(x.data, d, largest)
    values = indexing.Gather.apply(x, dim=d, index=idx)
    if t.ndim == 0:
        values, idx = values.reshape(()), idx.reshape(())
    return ValuesIndices(values, Tensor(idx))


def _scattered(t: Tensor, dim: Any, index: Any, src: Tensor, name: str, op: Any) -> Tensor:
    """``op(t, dim, index, src)`` with ``dim`` checked; a 0-d tensor runs as shape (1,)."""
    d = _check_dim(dim, t.ndim, name)
    index = np.asarray(_data(index))
    if t.ndim == 0:
        return op(t.reshape(1), 0, index.reshape(-1), src.reshape(-1)).reshape(())
    return op(t, d, index, src)


def _shape_tuple(args: tuple) -> tuple:
    """``f(2, 3)`` or ``f((2, 3))`` as a tuple of ints (-1 allowed)."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    return tuple(int(a) for a in args)


def _extremum(t: Tensor, op: Any, name: str, dim: Any, keepdim: Any, axis: Any,
              keepdims: Any) -> Any:
    """``max``/``min``: all elements -> a Tensor; one ``dim`` -> (values, indices)."""
    d, k = _reduce_args(name, dim, keepdim, axis, keepdims)
    if d is None:
        return op.apply(t, axis=None, keepdims=False)
    if not isinstance(d, (int, np.integer)):
        raise TypeError(f"{name}: dim must be one int (got {d!r}); for several use a{name}")
    d = _check_dim(d, t.ndim, name)
    if t.data.size == 0:
        raise ValueError(f"{name}() of an empty tensor of shape {t.shape}")
    data = t.data.reshape(1) if t.ndim == 0 else t.data
    idx = (np.argmax if name == "max" else np.argmin)(data, axis=d, keepdims=True)
    values = indexing.Gather.apply(t.reshape(data.shape), dim=d, index=idx)
    if t.ndim == 0 or not k:
        values, idx = values.squeeze(d), idx.squeeze(d) if t.ndim else idx.reshape(())
    return ValuesIndices(values, Tensor(idx))


_TYPE_NAMES = {"float32": "Float", "float64": "Double", "int64": "Long", "int32": "Int",
               "bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short"}


# ---- in-place methods and augmented assignments: one rule (Tensor._inplace) for all ------
# PyTorch's in-place name -> the out-of-place method whose result it writes into self, and
# the augmented assignment meaning the same (``x += y`` is ``x.add_(y)``: same object, same
# version counter, PyTorch's autograd and dtype rules). ``x @= y`` is absent on purpose:
# PyTorch has no in-place matmul either, so Python rebinds ``x`` to the new ``x @ y``.
_INPLACE_OPS = {
    "add_": ("add", "__iadd__"), "sub_": ("sub", "__isub__"), "mul_": ("mul", "__imul__"),
    "div_": ("div", "__itruediv__"), "pow_": ("pow", "__ipow__"),
    "floor_divide_": ("floor_divide", "__ifloordiv__"), "remainder_": ("remainder", "__imod__"),
    "bitwise_and_": ("__and__", "__iand__"), "bitwise_or_": ("__or__", "__ior__"),
    "bitwise_xor_": ("__xor__", "__ixor__"),
    "bitwise_left_shift_": ("__lshift__", "__ilshift__"),
    "bitwise_right_shift_": ("__rshift__", "__irshift__"),
    "bitwise_not_": ("__invert__", None),
    **{f"{name}_": (name, None) for name in (
        "fmod", "atan2", "copysign", "lerp", "clamp", "masked_fill",
        "neg", "abs", "sign", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt",
        "rsqrt", "reciprocal", "square", "sigmoid", "tanh", "relu", "erf", "sin", "cos", "tan",
        "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh",
        "floor", "ceil", "round", "trunc")},
}


def _inplace_method(name: str, out_of_place: str) -> Any:
    """The Tensor method ``name``: ``self.<out_of_place>(*args, **kwargs)`` written into self
    by :meth:`Tensor._inplace`."""
    op = getattr(Tensor, out_of_place)

    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        return self._inplace(name, lambda t: op(t, *args, **kwargs), *args, *kwargs.values())

    method.__name__ = name
    method.__qualname__ = f"Tensor.{name}"
    method.__doc__ = (f"``self.{out_of_place}(...)`` written into self in place (PyTorch's "
                      f"``{name}``): version bumped, refused on a leaf that requires grad "
                      "while grad mode is on, recorded in the graph otherwise.")
    return method


for _name, (_out_of_place, _augmented) in _INPLACE_OPS.items():
    setattr(Tensor, _name, _inplace_method(_name, _out_of_place))
    if _augmented is not None:
        setattr(Tensor, _augmented, getattr(Tensor, _name))


def _same_elements(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two arrays are the same elements of one memory, in the same order."""
    return (a.shape == b.shape and a.strides == b.strides
            and a.__array_interface__["data"][0] == b.__array_interface__["data"][0])


_CAST_RANK = {"b": 0, "u": 1, "i": 1, "f": 2}  # bool < integer < floating point


def _can_cast(result: np.dtype, out: np.dtype) -> bool:
    """PyTorch's rule for writing a result into a tensor in place: any cast within or up the
    order bool < integer < floating point, none down it (a float result into an int tensor)."""
    return _CAST_RANK.get(result.kind, 3) <= _CAST_RANK.get(out.kind, 3)


def _torch_type_name(dt: np.dtype) -> str:
    """PyTorch's name of a dtype in its messages (Float, Double, Long, Bool, ...)."""
    return _TYPE_NAMES.get(dt.name, dt.name)



def _fill_value(value: Any, dtype: Any) -> np.ndarray:
    """``full``'s value as a 0-d array of ``dtype``: a Python number converted as PyTorch
    (:func:`minigrad.dtypes.cast_numbers`), anything else (an array, a Tensor) cast."""
    if isinstance(value, (bool, int, float)):
        return cast_numbers(np.asarray(value), dtype)
    return np.asarray(_to_array(value), dtype=check_dtype(dtype))


# ---- helpers of the methods above ------------------------------------------------------


# Comparisons, logical ops and value tests give bool tensors without a graph, as in PyTorch
# (a comparison has no useful derivative); each takes Tensors, arrays or Python numbers.
def _boolean(np_fn: Any, *args: Any) -> Tensor:
    """``Tensor(np_fn(*arrays))``: the one wrapper behind logical_* and isnan/isinf/isfinite."""
    return Tensor(_host(np_fn, *[_data(a) for a in args]))


def _bitwise(np_fn: Any, symbol: str, a: Any, b: Any) -> Tensor:
    """``a symbol b`` for bool and integer operands (Tensors, arrays, Python ints or bools) in
    PyTorch's result dtype (``minigrad.dtypes.result_type``: int32 tensor & Python int is
    int32, bool & int is int64); a Python int wraps around to that type as in PyTorch
    (``-1 ^ uint8`` flips every bit); float operands raise TypeError, as in PyTorch."""
    values = [v.data if isinstance(v, Tensor) else v for v in (a, b)]
    target = result_type(*[v for v in values if isinstance(v, np.ndarray)],
                         numbers=tuple(v for v in values if not isinstance(v, np.ndarray)))
    x, y = (v if isinstance(v, np.ndarray) else python_scalar(v) for v in values)
    integers = "iu" if symbol in ("<<", ">>") else "biu"  # PyTorch shifts no bools
    if x.dtype.kind not in "biu" or y.dtype.kind not in "biu" or target.kind not in integers:
        kinds = "integer" if integers == "iu" else "bool or integer"
        raise TypeError(f"bitwise {symbol}: needs {kinds} operands of a common integer "
                        f"type, got {x.dtype} and {y.dtype}")
    return Tensor(_host(_in_dtype, np_fn, x, y, target))



@replayed
def _isclose(values: Any, other: Any, rtol: float, atol: float, equal_nan: bool) -> np.ndarray:
    """Tensor.isclose's values (see there; ``other`` an array or a Python number): replayed
    by a captured step."""
    x = np.asarray(values)
    y = np.asarray(other)
    if (not isinstance(other, np.ndarray)
            and result_type(x, numbers=(other,)) == x.dtype):
        y = y.astype(x.dtype)  # a Python number self's dtype can hold (2 for a float tensor)
    if x.dtype != y.dtype:
        raise RuntimeError(f"isclose: input and other must have one dtype, got {x.dtype} and "
                           f"{y.dtype}")
    if rtol < 0 or atol < 0:
        raise RuntimeError(f"isclose: rtol and atol must be >= 0, got rtol={rtol}, "
                           f"atol={atol}")
    close = x == y
    if x.dtype.kind == "f" and equal_nan:
        close |= np.isnan(x) & np.isnan(y)
    if rtol == 0 and atol == 0:
        return np.asarray(close)
    if x.dtype.kind != "f":  # no wrap-around of unsigned differences
        x, y = x.astype(np.float64), y.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf is not finite: not close
        err = np.abs(x - y)
        close |= np.isfinite(err) & (err <= atol + rtol * np.abs(y))
    return np.asarray(close)


@replayed
def _host(fn: Any, *args: Any, **kwargs: Any) -> np.ndarray:
    """``fn(*args, **kwargs)`` as an array: the values without a gradient that Tensor methods
    compute with NumPy on the host (comparisons, logical and bitwise ops, argmax, argsort, a
    cast to an integer dtype). A captured step calls it again at each replay, on that
    replay's arrays (``minigrad/host_calls.py``)."""
    return np.asarray(fn(*args, **kwargs))


def _astype(a: np.ndarray, dtype: np.dtype) -> np.ndarray:
    return a.astype(dtype)


def _in_dtype(np_fn: Any, x: Any, y: Any, dtype: np.dtype) -> np.ndarray:
    """np_fn on x and y cast to ``dtype`` (the bitwise ops' common type)."""
    return np_fn(x.astype(dtype, copy=False), y.astype(dtype, copy=False))

class ValuesIndices(NamedTuple):
    """``(values, indices)`` as PyTorch's ``torch.return_types`` (``max(dim)``, ``sort``, ``topk``)."""

    values: object
    indices: object


def sort_indices(a: np.ndarray, dim: int, descending: bool) -> np.ndarray:
    """Indices that sort ``a`` along ``dim`` (stable; NaN sorts as the largest, as PyTorch);
    a 0-d ``a`` is one element, index 0."""
    if a.ndim == 0:
        return np.zeros((), np.int64)
    if descending:
        # stable descending: sort the reversed array ascending, reverse, map indices back
        n = a.shape[dim]
        rev = np.flip(np.argsort(np.flip(a, dim), axis=dim, kind="stable"), dim)
        return (n - 1 - rev).astype(np.int64)
    return np.argsort(a, axis=dim, kind="stable").astype(np.int64)


def _sort(t: Tensor, dim: int, descending: bool) -> ValuesIndices:
    """Sorted values along ``dim`` and the indices they came from."""
    idx = sort_indices(t.data, dim, descending)
    return ValuesIndices(t.gather(dim, idx), Tensor(idx))


def _topk(t: Tensor, k: int, dim: int, largest: bool) -> ValuesIndices:
    """The ``k`` largest (or smallest) values along ``dim``, largest first, and their indices."""
    n = t.shape[dim] if t.ndim else 1
    if not 0 <= k <= n:
        raise ValueError(f"topk: k={k} out of range for {n} elements along dim {dim} of {t.shape}")
    if t.ndim == 0:  # one element: k is 0 or 1
        idx = np.zeros(() if k else (0,), np.int64)
    else:
        idx = np.take(sort_indices(t.data, dim, largest), np.arange(k), axis=dim)
    return ValuesIndices(t.gather(dim, idx), Tensor(idx))


def _triangle(x: Any, diagonal: int, lower: bool) -> Tensor:
    t = x if isinstance(x, Tensor) else Tensor(x)
    if t.ndim < 2:
        raise ValueError(f"tril/triu need at least 2 dimensions, got shape {t.shape}")
    n, m = t.shape[-2:]
    keep = np.tri(n, m, diagonal, dtype=bool) if lower else ~np.tri(n, m, diagonal - 1, dtype=bool)
    if t.dtype == np.bool_:
        return Tensor(_host(operator.and_, t.data, keep))
    return masking.masked_fill(t, ~keep, 0)


# An index made of these alone (x[:, 2:5], x[..., 0]) is NumPy's basic index, PyTorch's too:
# _index_to_numpy and _torch_order_index would give it back as it is.
_PLAIN_INDEX_TYPES = frozenset({int, slice, type(None), type(Ellipsis)})


def _index_to_numpy(index: Any) -> Any:
    """Replace Tensors inside an index by arrays of their own (copies: the op keeps them for
    backward and the caller may reuse its buffer) and check dtypes and int ranges."""
    def conv(i):
        if isinstance(i, Tensor):
            i = i.data
        if isinstance(i, (list, np.ndarray)):
            i = np.array(i)
            if i.dtype.kind == "f":
                raise IndexError(f"tensors used as indices must be integer or bool, got {i.dtype}")
            if i.dtype.kind == "u" and i.size and int(i.max()) > np.iinfo(np.int64).max:
                # NumPy would cast such an index to int64 and wrap it to a negative one
                raise IndexError(f"index {int(i.max())} is out of range (larger than int64)")
        return i

    if isinstance(index, tuple):
        return tuple(conv(i) for i in index)
    return conv(index)


def _is_dtype_argument(x: Any) -> bool:
    """Whether ``view``'s one argument names a dtype (a NumPy dtype, scalar type or name)
    rather than a shape."""
    return isinstance(x, (np.dtype, str)) or (isinstance(x, type) and issubclass(x, np.generic))


def _is_scalar_index(i: Any) -> bool:
    """An integer that selects one position (a Python or NumPy int, or a 0-d integer array)."""
    if isinstance(i, (bool, np.bool_)):
        return False
    return isinstance(i, (int, np.integer)) or (
        isinstance(i, np.ndarray) and i.ndim == 0 and i.dtype.kind in "iu")


def _torch_order_index(index: Any, shape: tuple) -> Any:
    """``index`` with PyTorch's placement of indexed dims, as one NumPy index.

    NumPy counts an integer as an advanced index, so in ``x[1, :, idx]`` the two are
    "separated by a slice" and the indexed dim moves to the front ((3, 6) for x of (5, 6, 7)
    and three indices); PyTorch selects with the integer first and keeps idx's dim in place
    ((6, 3)). When integers and index arrays mix, the integers are applied first and the
    result is expressed as one coordinate array per dim (views of ``arange``, so memory is
    the result's size), which reads, writes and scatters (backward) the same elements."""
    if not isinstance(index, tuple) or not any(map(_is_scalar_index, index)):
        return index
    if not any(isinstance(i, np.ndarray) and i.ndim > 0 for i in index):
        return index  # integers and slices only: NumPy's basic indexing is PyTorch's
    first = tuple(i if _is_scalar_index(i) or i is Ellipsis else slice(None)
                  for i in index if i is not None
                  for _ in range(i.ndim if isinstance(i, np.ndarray) and i.dtype == bool
                                 else 1))
    rest = tuple(i for i in index if not _is_scalar_index(i))
    coords = []
    for d, n in enumerate(shape):
        along = np.arange(n).reshape([n if k == d else 1 for k in range(len(shape))])
        coords.append(np.broadcast_to(along, shape)[first][rest])
    return tuple(coords)


# Function (minigrad/function.py) wraps every op's result in this class.
function.use_tensor_class(Tensor, as_tensor_like)


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
gradient. ``forward`` may return a tuple of arrays: ``apply`` then returns one
Tensor per array, all recorded by one Context, and ``backward`` receives one
gradient per output, as PyTorch's ``autograd.Function``. What ``backward`` may
return (one gradient per input, of its shape or one it broadcasts to) is
checked by the engine: see :mod:`minigrad.backward_results`.

Each derivative is written once. ``backward`` above uses only operations that
NumPy arrays and minigrad Tensors spell alike, so with ``differentiable_backward =
True`` the engine also runs it under ``create_graph=True``, where
``ctx.saved_tensors`` gives back the Tensors those arrays are the values of (the
op's inputs or its output) and every operation records a graph that can be
differentiated again. Functions the two spell differently come from ``ctx.xp``
(``ctx.xp.exp(a)``): :class:`~minigrad.backends.array_namespace.ArrayNamespace` (NumPy) on
the plain path, :class:`~minigrad.backends.tensor_namespace.TensorNamespace` under
``create_graph``. A fused op whose backward calls a tuned kernel instead names its ``composite`` (the same
function in small ops), and ``create_graph`` differentiates that.
"""

from __future__ import annotations

import itertools
import operator
import weakref
from typing import Any

import numpy as np

# Grad mode lives in a leaf module; its names are still importable from here.
from . import dtypes as _dtypes
from .backends.array_namespace import ArrayNamespace
from .grad_mode import (  # noqa: F401
    _mode,
    enable_grad,
    is_grad_enabled,
    no_grad,
    set_grad_enabled,
)

# Every Context gets the next number: a parent's producing op is always older
# than its consumer, unless an in-place op replaced the parent's history after
# the consumer used it (the engine checks this; see Tensor._inplace).
_sequence = itertools.count()


class Context:
    """What one op application remembers for its backward pass.

    ``fn``: the Function class; ``parents``: the input Tensors (graph edges);
    ``needs_input_grad``: one bool per input; ``saved_tensors``: arrays saved by
    ``save_for_backward``; ``xp``: the namespace of the functions a backward calls
    (:class:`ArrayNamespace`, NumPy's, here; ``graph_backward.GraphContext`` swaps in Tensor
    ops under ``create_graph``). Backward frees the saved arrays after use (unless
    ``retain_graph=True``); reading them afterwards raises a clear error.

    Version check (PyTorch's): a saved array that is an input's or the
    output's ``.data`` is recorded with that tensor's version counter and its
    version at save time; reading ``saved_tensors`` after an in-place write
    to that tensor (or to a view sharing its counter) raises RuntimeError.
    """

    __slots__ = ("__dict__", "_freed", "_saved", "_versions", "fn", "needs_input_grad",
                 "parents", "seq")
    xp = ArrayNamespace
    # Set on the Context of a forward that returned several outputs (``apply``): a weak
    # reference to each output Tensor, with its shape and dtype (for zero gradients).
    _outs: tuple | None = None
    _out_meta: tuple = ()
    _materialize_grads = True

    def __init__(self, fn: type, parents: tuple, needs_input_grad: tuple) -> None:
        self.fn = fn
        self.parents = parents
        self.needs_input_grad = needs_input_grad
        self._saved: tuple = ()
        self._versions: tuple = ()
        self._freed = False
        self.seq = next(_sequence)

    def save_for_backward(self, *arrays: Any) -> None:
        """Keep ``arrays`` (ndarrays or None) until backward has used them."""
        self._saved = arrays

    def set_materialize_grads(self, value: bool) -> None:
        """For a forward with several outputs: whether ``backward`` receives zeros (True, the
        default, PyTorch's) or None (False) as the gradient of an output the loss did not use."""
        self._materialize_grads = bool(value)

    def _record_versions(self, outs: tuple, inputs: list) -> None:
        """Snapshot what the version check needs: each output's counter, array id and
        version, and every input's version (matching saved arrays to tensors waits for
        backward); ``inputs`` are the arrays forward received (after dtype promotion), so
        that :meth:`saved_as_tensors` can tell which input a saved array is.

        ``outs`` holds None where a forward with several outputs returned a non-array.
        An output's counter is its shared one-element list, not the output, so the output
        is not kept alive by its own Context (no reference cycle); the id stays unique
        while the saved array it names is alive.
        """
        self._versions = (tuple([(None, None, None) if o is None else (o._vc, id(o.data), o._vc[0])
                                 for o in outs]),
                          [p._vc[0] for p in self.parents], inputs)

    def saved_as_tensors(self, outs: tuple) -> tuple:
        """``saved_tensors`` as the Tensors they are the values of, for a backward run under
        ``create_graph``: a saved input array is that input (cast back to the dtype forward
        computed in, differentiably), a saved output array is that output of ``outs`` (the
        op's outputs, None for one that no longer exists).
        Anything else is an intermediate forward computed: as a constant its derivative
        would be silently lost, so it raises."""
        saved = self.saved_tensors
        if not saved:
            return saved
        out_ids, _, inputs = self._versions
        found = []
        for i, arr in enumerate(saved):
            if arr is None:
                found.append(None)
                continue
            k = next((k for k, (_, oid, _) in enumerate(out_ids) if oid == id(arr)), None)
            if k is not None:
                if outs[k] is None or outs[k].data is not arr:
                    raise RuntimeError(
                        f"{self.fn.__name__}.backward reads output {k}, which no longer "
                        "exists; under create_graph its graph is needed. Keep every output "
                        "of the op alive until backward has run."
                    )
                found.append(outs[k])
                continue
            for p, a in zip(self.parents, inputs):
                if arr is a:
                    found.append(p if p.data.dtype == arr.dtype else p.to(arr.dtype))
                    break
            else:
                raise RuntimeError(
                    f"{self.fn.__name__}.backward reads an array its forward computed (saved "
                    f"value {i}, shape {arr.shape}); under create_graph it would be a constant "
                    "and the second derivative silently wrong. Save the op's inputs or output "
                    "instead, or give the op a composite."
                )
        return tuple(found)

    def _check_versions(self) -> None:
        """Raise PyTorch's error if a saved array's tensor was written in place since."""
        outs, versions, _ = self._versions
        for arr in self._saved:
            if arr is None:
                continue
            arr_id = id(arr)
            for k, (out_vc, oid, then) in enumerate(outs):
                if oid == arr_id:
                    now, role = out_vc[0], ("output", k)
                    break
            else:
                for j, p in enumerate(self.parents):
                    if arr is p.data:
                        now, then, role = p._vc[0], versions[j], ("input", j)
                        break
                else:
                    continue  # an intermediate array: no tensor can write to it
            if now != then:
                role = f"{role[0]} {role[1]}"
                raise RuntimeError(
                    "one of the variables needed for gradient computation has been modified by "
                    f"an inplace operation: [tensor of shape {arr.shape}, dtype {arr.dtype}], "
                    f"which is {role} of {self.fn.__name__}, is at version {now}; expected "
                    f"version {then} instead. Do not write in place (optimizer step, copy_, "
                    "x[i] = v, ...) to a tensor between the forward and the backward that uses it."
                )

    @property
    def saved_tensors(self) -> tuple:
        if self._freed:
            raise RuntimeError(
                f"Trying to backward through the graph a second time: the arrays saved by "
                f"{self.fn.__name__} were freed after the first backward(). "
                "Pass retain_graph=True to the first backward() to keep them."
            )
        if self._versions:
            self._check_versions()
        return self._saved

    def free(self) -> None:
        """Drop saved arrays, any extra attributes (they can be large) and the edges to the
        inputs: backward has passed their gradients on, and an input that nothing else
        holds (an activation) can then be freed at once, while backward still runs."""
        self.parents = ()
        self._saved = ()
        self._versions = ()
        self.__dict__.clear()
        self._freed = True


RECOMPUTE_ABOVE_BYTES = 4 << 20


def recompute_in_backward(nbytes: int) -> bool:
    """The one memory/time rule of the fused ops: whether an intermediate array of ``nbytes``
    that the backward needs is computed again there (True) or kept from the forward pass.

    Above 4 MB (GPT-2 124M at block 256, batch 4: 12.6 MB a layer for attention's P, for
    GELU's dy/da and for the GELU output the MLP's second Linear needs, ``ops/gelu_linear.py``)
    keeping it costs memory that the step's peak feels (P with its head tiles 264 MB, dy/da
    151 MB and the GELU outputs 151 MB over 12 layers), against one more pass of the work that
    made it;
    below (the baby config: under 1.6 MB a layer) the memory is small and the second pass
    would cost a measurable part of a 35 ms step (bench/README's baby step)."""
    return nbytes > RECOMPUTE_ABOVE_BYTES


class Function:
    """Base class of every differentiable op (see the module docstring).

    Views are found, not declared: when the output's array shares memory with an
    input's array (reshape, transpose, basic indexing, flip, expand, some einsums
    return views), ``apply`` gives the output that input's version counter, so an
    in-place write through either is seen by arrays saved from the other.

    ``promote`` names the dtype rule applied to the input arrays before ``forward``
    (``None``, ``"float"``, ``"float_only"``, ``"sum"``, ``"binary"`` or ``"divide"``;
    see :func:`minigrad.dtypes.promote`); ``promote_options`` names keyword options
    (Python numbers or arrays) that take part in a binary promotion.

    How ``backward(create_graph=True)`` differentiates an op's gradient, declared once:

    - ``differentiable_backward = True``: ``backward`` itself is written in operations
      that arrays and Tensors share (``ctx.xp`` for the rest), so the engine runs it
      again on Tensors and records it; there NumPy may not read a Tensor that requires grad
      (it would drop the graph): ``ctx.xp.constant(t)`` gives values with no derivative;
    - ``composite(ctx, *inputs)``: for a fused op whose backward calls a tuned kernel,
      the same function written in small ops; the engine differentiates that (PyTorch's
      ``once_differentiable``, turned into "differentiate the decomposition");
    - neither (a Function whose backward works on arrays only): ``create_graph`` refuses.
    """

    promote: str | None = None
    differentiable_backward = False
    composite: Any = None
    promote_options: tuple = ()

    @staticmethod
    def forward(ctx: Context, *arrays: np.ndarray, **options: Any) -> np.ndarray:
        raise NotImplementedError

    @staticmethod
    def backward(ctx: Context, grad: np.ndarray):
        raise NotImplementedError

    @classmethod
    def apply(cls, *inputs: Any, **options: Any):
        """Run ``forward(ctx, *arrays, **options)`` on the inputs' arrays and record the
        graph edge: a Tensor, or a tuple with one Tensor per array when ``forward`` returns
        a tuple (see :func:`_several_outputs`)."""
        recorder = _mode.recorder
        if recorder is not None and not recorder.inside:  # a captured step being recorded
            return recorder.apply(cls, inputs, options)
        Tensor = _Tensor
        tensors = inputs
        for x in inputs:
            if not isinstance(x, Tensor):
                tensors = _constant_inputs(cls, inputs)
                break
        needs = tuple(map(_requires_grad_of, tensors))
        if options and _mode.enabled:
            for value in options.values():
                if isinstance(value, Tensor):  # the rare case: the full check
                    _refuse_tensor_options(cls, options)
                    break
        arrays = list(map(_data_of, tensors))
        if cls.promote is not None:
            arrays = promoted(cls, arrays, options)
        if _mode.enabled and True in needs:
            ctx = Context(cls, tensors, needs)
            result = cls.forward(ctx, *arrays, **options)
            if type(result) is tuple:
                return _several_outputs(result, ctx, tensors, arrays)
            out = Tensor._from_op(result, ctx)
            _link_view(out, tensors)  # first: a saved output that is a view checks the shared counter
            if ctx._saved:
                ctx._record_versions((out,), arrays)
            return out
        scratch = _mode.scratch
        if scratch is None:  # this thread's first op without a graph
            scratch = _mode.scratch = Context(Function, (), ())
        try:  # nothing to record: forward gets this thread's throwaway context
            result = cls.forward(scratch, *arrays, **options)
            if type(result) is tuple:
                return _several_outputs(result, None, tensors, arrays)
            out = Tensor._from_op(result, None)
            _link_view(out, tensors)
            return out
        finally:  # drop whatever forward saved on it, even if forward raised
            scratch.__dict__.clear()
            scratch._saved = ()


def promoted(cls: type, arrays: list, options: dict) -> list:
    """The arrays ``cls.forward`` receives: ``arrays`` after PyTorch's type promotion by the
    rule ``cls.promote`` names (see minigrad/dtypes.py), with the options it names."""
    d0 = arrays[0].dtype  # common case, checked inline: all of one float dtype
    if d0.kind != "f" or len(arrays) > 2 or (len(arrays) == 2 and arrays[1].dtype != d0) \
            or cls.promote_options:
        scalars = tuple(_option_value(options.get(k)) for k in cls.promote_options
                        if options.get(k) is not None)
        arrays = _dtypes.promote(cls.promote, arrays, cls.__name__.lower(), scalars)
    return arrays


def _several_outputs(results: tuple, ctx: Context | None, inputs: tuple, arrays: list) -> tuple:
    """The outputs of a forward that returned a tuple, as PyTorch's ``Function``: each array
    becomes a Tensor recorded by the one ``ctx`` (``backward`` then receives one gradient
    per output, in order); any other value (None, a Python number) is returned as it is and
    its gradient slot is None. ``ctx`` None: nothing is recorded."""
    outs = []
    for r in results:
        if isinstance(r, np.generic):
            r = np.asarray(r)
        if isinstance(r, np.ndarray):
            r = _Tensor._from_op(r, ctx)
            _link_view(r, inputs)
        outs.append(r)
    if ctx is not None:
        tensors = [o if isinstance(o, _Tensor) else None for o in outs]
        ctx._outs = tuple(None if t is None else weakref.ref(t) for t in tensors)
        ctx._out_meta = tuple(None if t is None else (t.data.shape, t.data.dtype)
                              for t in tensors)
        if ctx._saved:
            ctx._record_versions(tensors, arrays)
    return tuple(outs)


_requires_grad_of = operator.attrgetter("_requires_grad")
_data_of = operator.attrgetter("data")


def _constant_inputs(cls: type, inputs: tuple) -> tuple:
    """``inputs`` with each non-Tensor (a Python number, an array) made a constant Tensor,
    matched to the dtype of the first Tensor so that float32 stays float32."""
    ref = next((x for x in inputs if isinstance(x, _Tensor)), None)
    try:
        return tuple(x if isinstance(x, _Tensor) else _as_tensor_like(x, ref) for x in inputs)
    except TypeError as e:  # e.g. a float16 array: name the op it was given to
        raise TypeError(f"{cls.__name__}: {e}") from None


def _refuse_tensor_options(cls: type, options: dict) -> None:
    """Options are constants: a Tensor that requires grad passed as one would lose its
    gradient without a word, so it is refused (the op must take it as an input)."""
    for name, value in options.items():
        if isinstance(value, _Tensor) and value._requires_grad:
            raise TypeError(
                f"{cls.__name__}: {name}= is a Tensor that requires grad, but {cls.__name__} "
                "takes it as a constant and its gradient would be lost; pass it detached "
                "(.detach()) or use an op that differentiates it"
            )


def _option_value(value: Any) -> Any:
    """An option that joins the promotion: a Tensor as its array, anything else as given."""
    return value.data if isinstance(value, _Tensor) else value


def _link_view(out: Any, inputs: tuple) -> None:
    """Give ``out`` the version counter of the input whose memory its array shares.

    A fresh array (``base`` None, not an input's array itself) is the common case and
    costs two attribute reads. A view's ``base`` is the array that owns the memory (NumPy
    collapses views of views), so a view of an input, or of what the input is a view of,
    is found by identity, as PyTorch's views share their base's counter. Only when that
    fails and the memory may be shared otherwise (an owner that is not an owning ndarray:
    a buffer, a memory map) does the memory-bounds check run."""
    arr = out.data
    base = arr.base
    if base is None:
        for t in inputs:
            if arr is t.data:
                out._share_version(t)
                return
        return
    for t in inputs:
        data = t.data
        if base is data or base is data.base:
            out._share_version(t)
            return
    owner = type(base) is np.ndarray and base.flags.owndata
    for t in inputs:
        data = t.data
        if owner:
            root = data if data.base is None else data.base  # what owns the input's memory
            if type(root) is np.ndarray and root.flags.owndata:
                continue  # two arrays under different owning arrays never overlap
        if np.may_share_memory(arr, data):
            out._share_version(t)
            return


# Function sits below Tensor in the import tree (tensor.py and the ops import this module,
# never the reverse): tensor.py hands over the class that wraps results, and its rule for
# constant operands, once Tensor exists (see tensor.py's last lines).
_Tensor: Any = None
_as_tensor_like: Any = None


def use_tensor_class(tensor_class: type, as_tensor_like: Any) -> None:
    """Called once by tensor.py: ``apply`` wraps arrays in ``tensor_class`` and turns constant
    operands into tensors with ``as_tensor_like(value, reference_tensor)``."""
    global _Tensor, _as_tensor_like
    _Tensor, _as_tensor_like = tensor_class, as_tensor_like

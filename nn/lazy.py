"""Lazy modules: layers whose input size is inferred from the first input, as PyTorch's.

A lazy layer (``LazyLinear(out_features)``, ``LazyConv2d(out_channels, kernel_size)``,
``LazyBatchNorm1d()``, ...) is built without its input size: its weights are
:class:`UninitializedParameter` (and its running statistics :class:`UninitializedBuffer`),
which have a dtype but no shape. The first call reads the size from the input (the last
dim for Linear, the channel dim otherwise), *materializes* them with their shapes, runs the
layer's ``reset_parameters`` (PyTorch's init) and turns the module into the ordinary class
(``cls_to_become``: a ``LazyLinear`` becomes a ``Linear``). Loading a state dict into a lazy
module materializes each entry with the shape it is given instead.

Before the first call an uninitialized tensor has no shape: reading it raises PyTorch's
ValueError, and ``state_dict()`` holds the uninitialized tensors themselves.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad.device import check_device
from minigrad.random import generator
from minigrad.tensor import Tensor

from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .linear import Linear
from .module import Module, Parameter

_NO_SHAPE = ("Can't access the shape of an uninitialized parameter or buffer. This error "
             "usually happens in `load_state_dict` when trying to load an uninitialized "
             "parameter into an initialized one. Call `forward` to initialize the parameters "
             "before accessing their attributes.")


class UninitializedTensorMixin:
    """What an uninitialized parameter and buffer share: a dtype, no shape, ``materialize``."""

    __slots__ = ()
    cls_to_become: type = Tensor

    @property
    def shape(self) -> tuple:
        raise ValueError(_NO_SHAPE)

    @property
    def ndim(self) -> int:
        raise ValueError(_NO_SHAPE)

    def size(self, dim: int | None = None) -> Any:
        raise ValueError(_NO_SHAPE)

    def numel(self) -> int:
        raise ValueError(_NO_SHAPE)

    def detach(self) -> Any:
        # it holds no values to detach: state_dict keeps the uninitialized tensor itself
        return self

    def materialize(self, shape: Any, device: Any = None, dtype: Any = None) -> None:
        """Give it ``shape`` (its values are uninitialized memory until the owner's init
        runs) and turn it into the ordinary class (``cls_to_become``)."""
        check_device(device)
        dt = self.data.dtype if dtype is None else np.dtype(dtype)
        self.data = np.empty(tuple(int(n) for n in shape), dtype=dt)
        self.__class__ = self.cls_to_become

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A Parameter whose shape is not known yet (see the module docstring)."""

    cls_to_become = Parameter

    def __init__(self, requires_grad: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        check_device(device)
        super().__init__(np.empty(0, dtype=np.float32 if dtype is None else dtype),
                         requires_grad)


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer whose shape is not known yet (see the module docstring)."""

    __slots__ = ()
    cls_to_become = Tensor

    def __init__(self, requires_grad: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        check_device(device)
        super().__init__(np.empty(0, dtype=np.float32 if dtype is None else dtype),
                         requires_grad=requires_grad)


def is_lazy(value: Any) -> bool:
    """Whether ``value`` is an uninitialized parameter or buffer."""
    return isinstance(value, UninitializedTensorMixin)


class LazyModuleMixin:
    """Shape inference on the first call (see the module docstring). A subclass names
    ``cls_to_become`` and defines ``initialize_parameters(input)``, which materializes its
    uninitialized tensors from the input and calls ``reset_parameters``."""

    cls_to_become: type | None = None

    def has_uninitialized_params(self) -> bool:
        """Whether a parameter or buffer is still uninitialized."""
        return any(is_lazy(v) for v in (*self._parameters.values(), *self._buffers.values()))

    def initialize_parameters(self, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} does not define "
                                  "initialize_parameters()")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # the first call (a module still of its lazy class): materialize from the input, or
        # read the sizes off the tensors a load_state_dict materialized; then become the
        # ordinary class, whose __call__ no longer comes here
        self.initialize_parameters(*args, **kwargs)
        if self.has_uninitialized_params():
            raise RuntimeError(f"module {type(self).__name__} has not been fully initialized")
        if self.cls_to_become is not None:
            self.__class__ = self.cls_to_become
        return Module.__call__(self, *args, **kwargs)

    def _convert_old_state(self, state: Any, prefix: str) -> Any:
        # load_state_dict's look at the state before it compares shapes: an uninitialized
        # tensor takes the shape of the initialized entry it is about to receive
        parent = getattr(super(), "_convert_old_state", None)
        if parent is not None:
            state = parent(state, prefix)
        for name, value in (*self._parameters.items(), *self._buffers.items()):
            key = prefix + name
            if is_lazy(value) and key in state and not is_lazy(state[key]):
                given = state[key]
                value.materialize(given.shape if hasattr(given, "shape")
                                  else np.shape(given))
        return state


def _channels(module: Module, input: Tensor, d: int) -> int:
    """A convolution's input channels: dim 1 of a batched input, 0 of an unbatched one."""
    if input.ndim not in (d + 1, d + 2):
        raise RuntimeError(f"Expected {d + 1}D (unbatched) or {d + 2}D (batched) input to "
                           f"{type(module).__name__}, but got input of size: "
                           f"{list(input.shape)}")
    return input.shape[1] if input.ndim == d + 2 else input.shape[0]


class _LazyFromInput(LazyModuleMixin):
    """A lazy layer with one size read from its first input (``_size`` names it:
    in_features, in_channels or num_features). A subclass says how the input gives it
    (``_input_size``), how loaded tensors give it (``_loaded_size``) and the shapes that
    follow from it (``_shapes``)."""

    _size = "in_features"

    def _shapes_known(self) -> bool:
        """Whether every tensor has its shape and the size is known (the eager class's
        constructor runs its init with a size of 0, before the lazy tensors exist)."""
        return not self.has_uninitialized_params() and getattr(self, self._size) != 0

    def reset_parameters(self) -> None:
        """The layer's own init, once the shapes are known."""
        if self._shapes_known():
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor, *args: Any, **kwargs: Any) -> None:
        """The size from ``input``; the uninitialized tensors get their shapes and the
        layer's init (or, when a state dict materialized them already, the size from them)."""
        if not self.has_uninitialized_params():
            setattr(self, self._size, self._loaded_size())
            return
        setattr(self, self._size, self._input_size(input))
        for tensor, shape in self._shapes():
            tensor.materialize(shape)
        self.reset_parameters()


class _LazyConvMixin(_LazyFromInput):
    """A convolution (or its transpose) whose ``in_channels`` is the input's channels."""

    _size = "in_channels"

    def _lazy_init(self, out_channels: int, bias: bool, dtype: Any) -> None:
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def _loaded_size(self) -> int:
        w = self.weight.shape
        return w[0] if self.transposed else w[1] * self.groups

    def _input_size(self, input: Tensor) -> int:
        channels = _channels(self, input, self.d)
        if channels % self.groups:
            raise ValueError("in_channels must be divisible by groups")
        return channels

    def _shapes(self) -> list:
        first, second = ((self.in_channels, self.out_channels // self.groups)
                         if self.transposed else
                         (self.out_channels, self.in_channels // self.groups))
        return [(self.weight, (first, second, *self.kernel_size))] + (
            [] if self.bias is None else [(self.bias, (self.out_channels,))])


class _LazyConv(_LazyConvMixin):
    def __init__(self, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros", dtype: Any = np.float32) -> None:
        super().__init__(0, 0, kernel_size, stride, padding, dilation, groups, False,
                         padding_mode, dtype=dtype)
        self._lazy_init(out_channels, bias, dtype)


class _LazyConvTranspose(_LazyConvMixin):
    def __init__(self, out_channels: int, kernel_size: Any, stride: Any = 1, padding: Any = 0,
                 output_padding: Any = 0, groups: int = 1, bias: bool = True,
                 dilation: Any = 1, padding_mode: str = "zeros",
                 dtype: Any = np.float32) -> None:
        super().__init__(0, 0, kernel_size, stride, padding, output_padding, groups, False,
                         dilation, padding_mode, dtype=dtype)
        self._lazy_init(out_channels, bias, dtype)


class LazyConv1d(_LazyConv, Conv1d):
    """A :class:`Conv1d` whose ``in_channels`` is inferred from the first input."""

    cls_to_become = Conv1d


class LazyConv2d(_LazyConv, Conv2d):
    """A :class:`Conv2d` whose ``in_channels`` is inferred from the first input."""

    cls_to_become = Conv2d


class LazyConv3d(_LazyConv, Conv3d):
    """A :class:`Conv3d` whose ``in_channels`` is inferred from the first input."""

    cls_to_become = Conv3d


class LazyConvTranspose1d(_LazyConvTranspose, ConvTranspose1d):
    """A :class:`ConvTranspose1d` whose ``in_channels`` is inferred from the first input."""

    cls_to_become = ConvTranspose1d


class LazyConvTranspose2d(_LazyConvTranspose, ConvTranspose2d):
    """A :class:`ConvTranspose2d` whose ``in_channels`` is inferred from the first input."""

    cls_to_become = ConvTranspose2d


class LazyConvTranspose3d(_LazyConvTranspose, ConvTranspose3d):
    """A :class:`ConvTranspose3d` whose ``in_channels`` is inferred from the first input."""

    cls_to_become = ConvTranspose3d


class LazyLinear(_LazyFromInput, Linear):
    """A :class:`Linear` whose ``in_features`` is the last dim of the first input; weight and
    bias then drawn as Linear's, U(-1/sqrt(in_features), 1/sqrt(in_features))."""

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, dtype: Any = np.float32) -> None:
        Module.__init__(self)
        self.in_features = 0
        self.out_features = out_features
        self.weight = UninitializedParameter(dtype=dtype)
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)
        else:
            self.register_parameter("bias", None)

    def reset_parameters(self) -> None:
        """Linear's init (see the class docstring), once the shapes are known."""
        if not self._shapes_known():
            return
        bound = 1.0 / math.sqrt(self.in_features)
        rng = generator()
        for p in (self.weight, self.bias):
            if p is not None:
                p.data[...] = rng.uniform(-bound, bound, p.data.shape)

    def _loaded_size(self) -> int:
        return self.weight.shape[1]

    def _input_size(self, input: Tensor) -> int:
        return input.shape[-1]

    def _shapes(self) -> list:
        return [(self.weight, (self.out_features, self.in_features))] + (
            [] if self.bias is None else [(self.bias, (self.out_features,))])


class _LazyNormBase(_LazyFromInput):
    """A batch or instance norm whose ``num_features`` is dim 1 of the first input (as
    PyTorch's, for an unbatched input too). As PyTorch's, the lazy instance norms too default
    to ``affine=True`` and ``track_running_stats=True`` (the eager ones to False)."""

    _size = "num_features"

    def __init__(self, eps: float = 1e-5, momentum: float | None = 0.1, affine: bool = True,
                 track_running_stats: bool = True, device: Any = None, dtype: Any = None, *,
                 bias: bool = True) -> None:
        super().__init__(0, eps, momentum, False, False, device, dtype, bias=False)
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(dtype=dtype)
        if track_running_stats:
            self.register_buffer("running_mean", UninitializedBuffer(dtype=dtype))
            self.register_buffer("running_var", UninitializedBuffer(dtype=dtype))
            self.register_buffer("num_batches_tracked", np.array(0, dtype=np.int64))

    def _loaded_size(self) -> int:
        loaded = [t for t in (self.weight, self.running_mean) if t is not None]
        return loaded[0].shape[0] if loaded else self.num_features

    def _input_size(self, input: Tensor) -> int:
        return input.shape[1]

    def _shapes(self) -> list:
        tensors = (self.weight, self.bias, self.running_mean, self.running_var)
        return [(t, (self.num_features,)) for t in tensors if t is not None]


class LazyBatchNorm1d(_LazyNormBase, BatchNorm1d):
    """A :class:`BatchNorm1d` whose ``num_features`` is inferred from the first input."""

    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNormBase, BatchNorm2d):
    """A :class:`BatchNorm2d` whose ``num_features`` is inferred from the first input."""

    cls_to_become = BatchNorm2d


class LazyBatchNorm3d(_LazyNormBase, BatchNorm3d):
    """A :class:`BatchNorm3d` whose ``num_features`` is inferred from the first input."""

    cls_to_become = BatchNorm3d


class LazyInstanceNorm1d(_LazyNormBase, InstanceNorm1d):
    """An :class:`InstanceNorm1d` whose ``num_features`` is inferred from the first input."""

    cls_to_become = InstanceNorm1d


class LazyInstanceNorm2d(_LazyNormBase, InstanceNorm2d):
    """An :class:`InstanceNorm2d` whose ``num_features`` is inferred from the first input."""

    cls_to_become = InstanceNorm2d


class LazyInstanceNorm3d(_LazyNormBase, InstanceNorm3d):
    """An :class:`InstanceNorm3d` whose ``num_features`` is inferred from the first input."""

    cls_to_become = InstanceNorm3d

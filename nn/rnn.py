"""Multi-layer, optionally bidirectional recurrent networks: ``RNN``, ``LSTM``, ``GRU``, as PyTorch's.

Shapes (PyTorch's): input (L, N, H_in), or (N, L, H_in) with ``batch_first``, or unbatched
(L, H_in); output (L, N, D * H_out) in the input's layout; h_n (and LSTM's c_n)
(D * num_layers, N, H_out), D = 2 if bidirectional else 1, H_out = proj_size or hidden_size.

Per layer and direction the input projection of all time steps is one matmul,
``x @ W_ih^T + b_ih`` over the whole (L, N, H_in) sequence, and each step only adds
``h @ W_hh^T + b_hh`` and applies the cell of :mod:`nn.rnn_cells`. The time loop is one op,
:func:`fused_recurrence` (``minigrad.ops.recurrence``: the backend runs the loop and its
backpropagation through time, as cuDNN does; the cell's step function in small ops is its
composite, for higher derivatives). An LSTM with ``proj_size`` runs the step functions one
by one instead, through :func:`recur`. Layer k > 0 reads the concatenated outputs of both directions of layer
k - 1, through dropout in training. Parameters are named and shaped as PyTorch's
(``weight_ih_l0``, ``weight_hh_l0_reverse``, ``weight_hr_l1`` ...), so its state_dicts load.
PackedSequence inputs are not supported: pad the batch and pass a plain Tensor.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from minigrad.ops.recurrence import Recurrence
from minigrad.ops.shape_ops import cat, stack
from minigrad.tensor import Tensor, zeros

from .dropout import dropout
from .linear import linear
from .module import Module, Parameter
from .rnn_cells import CELL_KINDS, State, check_size, uniform_parameter


def recur(step: Callable[..., State], inputs: Sequence[Tensor], state: State,
          weights: Sequence[Tensor | None], reverse: bool = False) -> tuple[list[Tensor], State]:
    """Run ``state = step(inputs[t], state, *weights)`` over t (backwards if ``reverse``);
    return the output ``state[0]`` of every step, in time order, and the last state."""
    outputs: list[Tensor] = [None] * len(inputs)  # type: ignore[list-item]
    for t in (reversed(range(len(inputs))) if reverse else range(len(inputs))):
        state = step(inputs[t], state, *weights)
        outputs[t] = state[0]
    return outputs, state


def fused_recurrence(mode: str, gi: Tensor, state: State, w_hh: Tensor, b_hh: Tensor | None,
                     reverse: bool = False) -> tuple[Tensor, State]:
    """The steps of cell ``mode`` over gi (L, N, G H) from ``state`` ((h0,) or (h0, c0), each
    (N, H)) as one op: (every step's h (L, N, H) in time order, the last state)."""
    inputs = (gi, *state, w_hh) + (() if b_hh is None else (b_hh,))
    y = Recurrence.apply(*inputs, kind=mode, reverse=reverse, step=CELL_KINDS[mode].step)
    hidden = state[0].shape[-1]
    last = y[0] if reverse else y[-1]
    return y[..., :hidden], tuple(last[..., k * hidden:(k + 1) * hidden]
                                  for k in range(len(state)))


def _as_tensor(x: Any) -> Tensor:
    return x if isinstance(x, Tensor) else Tensor(x)


class RNNBase(Module):
    """The layers, parameters and forward shared by RNN, LSTM and GRU (``mode`` picks the
    cell: 'RNN_TANH', 'RNN_RELU', 'LSTM' or 'GRU')."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        if mode not in CELL_KINDS:
            raise ValueError("Unrecognized RNN mode: " + mode)
        if (not isinstance(dropout, numbers.Number) or isinstance(dropout, bool)
                or not 0 <= dropout <= 1):
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so "
                          "non-zero dropout expects num_layers greater than 1, but got "
                          f"dropout={dropout} and num_layers={num_layers}", stacklevel=3)
        for name, flag in (("bias", bias), ("batch_first", batch_first)):
            if not isinstance(flag, bool):
                raise TypeError(f"{name} should be of type bool, got: {type(flag).__name__}")
        self.mode = mode
        self.input_size = check_size("input_size", input_size)
        self.hidden_size = check_size("hidden_size", hidden_size)
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        self.num_layers = int(num_layers)
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = int(proj_size)
        gate_rows = CELL_KINDS[mode].gates * self.hidden_size
        out_size = self.proj_size or self.hidden_size
        directions = 2 if bidirectional else 1
        self._flat_weights_names: list[str] = []
        self._all_weights: list[list[str]] = []
        for layer in range(self.num_layers):
            in_size = self.input_size if layer == 0 else out_size * directions
            for direction in range(directions):
                suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
                shapes = {"weight_ih": (gate_rows, in_size), "weight_hh": (gate_rows, out_size)}
                if bias:
                    shapes.update(bias_ih=(gate_rows,), bias_hh=(gate_rows,))
                if self.proj_size:
                    shapes["weight_hr"] = (self.proj_size, self.hidden_size)
                names = [kind + suffix for kind in shapes]
                for name, shape in zip(names, shapes.values()):
                    setattr(self, name, uniform_parameter(shape, self.hidden_size, dtype))
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)

    @property
    def all_weights(self) -> list[list[Parameter]]:
        """The parameters of each layer and direction, in PyTorch's order
        ([w_ih, w_hh, b_ih, b_hh, w_hr] without the absent ones)."""
        return [[getattr(self, name) for name in names] for names in self._all_weights]

    def flatten_parameters(self) -> None:
        """Does nothing: PyTorch packs weights into one buffer for cuDNN; minigrad needs no
        packing. Kept so code written for PyTorch runs unchanged."""

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    def _layer_weights(self, index: int) -> tuple[Tensor, Tensor | None, list[Tensor | None]]:
        """(w_ih, b_ih, [w_hh, b_hh, w_hr]) of layer-direction ``index`` (None where absent)."""
        suffix = self._all_weights[index][0][len("weight_ih"):]
        get = lambda kind: getattr(self, kind + suffix, None)
        return get("weight_ih"), get("bias_ih"), [get("weight_hh"), get("bias_hh"), get("weight_hr")]

    def _check_input(self, x: Tensor) -> None:
        weight = self.weight_ih_l0
        if x.dtype != weight.dtype:
            raise ValueError(f"RNN input dtype ({x.dtype}) does not match weight dtype "
                             f"({weight.dtype}). Convert input: input.to({weight.dtype}), "
                             f"or convert model: model.to({x.dtype})")
        if x.shape[-1] != self.input_size:
            raise RuntimeError("input.size(-1) must be equal to input_size. "
                               f"Expected {self.input_size}, got {x.shape[-1]}")

    def _initial_states(self, x: Tensor, hx: Any, batched: bool) -> State:
        """The (D * num_layers, N, H) initial states, checked with PyTorch's messages
        (zeros if hx is None)."""
        kind = CELL_KINDS[self.mode]
        lstm = kind.num_states == 2
        n = x.shape[1]
        rows = self.num_layers * (2 if self.bidirectional else 1)
        sizes = [self.proj_size or self.hidden_size, self.hidden_size][:kind.num_states]
        if hx is None:
            return tuple(zeros(rows, n, size, dtype=x.dtype) for size in sizes)
        if lstm and not (isinstance(hx, (tuple, list)) and len(hx) == 2):
            raise TypeError("LSTM: hx must be a tuple (h_0, c_0) of Tensors")
        if not lstm and isinstance(hx, (tuple, list)):
            raise TypeError(f"{type(self).__name__}: hx must be a Tensor, not a tuple")
        states = tuple(_as_tensor(h) for h in (hx if lstm else (hx,)))
        want = 3 if batched else 2
        if any(h.ndim != want for h in states):
            dims = ", ".join(f"{h.ndim}-D" for h in states)
            what = ("hx and cx", f"({dims}) tensors") if lstm else ("hx", f"{dims} tensor")
            raise RuntimeError(f"For {'batched 3-D' if batched else 'unbatched 2-D'} input, "
                               f"{what[0]} should also be {want}-D but got {what[1]}")
        if not batched:
            states = tuple(h.unsqueeze(1) for h in states)
        for index, (h, size) in enumerate(zip(states, sizes)):
            expected = (rows, n, size)
            if tuple(h.shape) != expected:
                label = f"hidden[{index}] size" if lstm else "hidden size"
                raise RuntimeError(f"Expected {label} {expected}, got {list(h.shape)}")
        return states

    def _run(self, input: Any, hx: Any) -> tuple[Tensor, State]:
        """The forward of every kind: (output, final states), shapes in the module docstring."""
        name = type(self).__name__
        x = _as_tensor(input)
        if x.ndim not in (2, 3):
            tensor = " tensor" if name == "RNN" else ""
            raise ValueError(f"{name}: Expected input to be 2D or 3D, got {x.ndim}D{tensor} instead")
        batched = x.ndim == 3
        if not batched:
            x = x.unsqueeze(1)
        elif self.batch_first:
            x = x.transpose(0, 1)
        self._check_input(x)
        states = self._initial_states(x, hx, batched)
        if x.shape[0] == 0:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        step = CELL_KINDS[self.mode].step
        directions = 2 if self.bidirectional else 1
        finals: list[State] = []
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(directions):
                index = layer * directions + direction
                w_ih, b_ih, recurrent = self._layer_weights(index)
                projected = linear(x, w_ih, b_ih)
                state = tuple(s[index] for s in states)
                if self.proj_size:
                    steps, last = recur(step, projected.unbind(0), state, recurrent,
                                        reverse=direction == 1)
                    outputs.append(stack(steps, 0))
                else:
                    out, last = fused_recurrence(self.mode, projected, state, *recurrent[:2],
                                                 reverse=direction == 1)
                    outputs.append(out)
                finals.append(last)
            x = outputs[0] if directions == 1 else cat(outputs, -1)
            if self.training and self.dropout > 0 and layer < self.num_layers - 1:
                x = dropout(x, self.dropout, True)
        h_n = tuple(stack(list(s), 0) for s in zip(*finals))
        if not batched:
            return x.squeeze(1), tuple(h.squeeze(1) for h in h_n)
        return (x.transpose(0, 1) if self.batch_first else x), h_n


class RNN(RNNBase):
    """Elman RNN, h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh) (or relu), stacked
    ``num_layers`` deep: ``RNN(input_size, hidden_size, num_layers=1, nonlinearity='tanh',
    bias=True, batch_first=False, dropout=0.0, bidirectional=False)``.
    ``forward(input, hx=None) -> (output, h_n)`` (shapes in the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            nonlinearity, args = args[3], args[:3] + args[4:]
        else:
            nonlinearity = kwargs.pop("nonlinearity", "tanh")
        modes = {"tanh": "RNN_TANH", "relu": "RNN_RELU"}
        if nonlinearity not in modes:
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(modes[nonlinearity], *args, **kwargs)
        self.nonlinearity = nonlinearity

    def forward(self, input: Any, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:
        output, (h_n,) = self._run(input, hx)
        return output, h_n


class LSTM(RNNBase):
    """Long short-term memory (gates i, f, g, o; :func:`nn.rnn_cells.lstm_step`), stacked
    ``num_layers`` deep: ``LSTM(input_size, hidden_size, num_layers=1, bias=True,
    batch_first=False, dropout=0.0, bidirectional=False, proj_size=0)``.
    ``forward(input, (h_0, c_0)=None) -> (output, (h_n, c_n))``; with ``proj_size`` > 0 each
    layer's h is projected to proj_size by ``weight_hr_l{k}`` (c_n keeps hidden_size)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def forward(self, input: Any, hx: tuple[Tensor, Tensor] | None = None,
                ) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        output, (h_n, c_n) = self._run(input, hx)
        return output, (h_n, c_n)


class GRU(RNNBase):
    """Gated recurrent unit (gates r, z, n; :func:`nn.rnn_cells.gru_step`), stacked
    ``num_layers`` deep: ``GRU(input_size, hidden_size, num_layers=1, bias=True,
    batch_first=False, dropout=0.0, bidirectional=False)``.
    ``forward(input, hx=None) -> (output, h_n)``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input: Any, hx: Tensor | None = None) -> tuple[Tensor, Tensor]:
        output, (h_n,) = self._run(input, hx)
        return output, h_n

"""Recurrent cells: one time step of an Elman RNN, an LSTM and a GRU, as PyTorch's.

Each cell kind is a *step function* ``step(gi, state, w_hh, b_hh, w_hr) -> state``: ``gi`` is
the input's contribution ``x @ W_ih^T + b_ih`` (computed for a whole sequence at once by
:mod:`nn.rnn`), ``state`` a tuple whose first entry is the output ``h``. Only the recurrence
``h @ W_hh^T + b_hh`` happens per step. Gate order and formulas are PyTorch's, so its weights
load unchanged (``W_ih`` stacks the gates' rows in this order):

- RNN:  h' = tanh(gi + W_hh h + b_hh)  (or relu)
- LSTM: [i, f, g, o] = gi + W_hh h + b_hh;  c' = σ(f) c + σ(i) tanh(g);  h' = σ(o) tanh(c'),
  projected by h' = W_hr h' when the layer has ``proj_size``
- GRU:  [r, z, n]: r = σ(gi_r + gh_r), z = σ(gi_z + gh_z), n = tanh(gi_n + r (W_hn h + b_hn)),
  h' = (1 - z) n + z h

Backpropagation through time is the engine's: every step is a composition of existing ops,
so gradients of any order work.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from minigrad.constructors import zeros
from minigrad.dtypes import check_dtype
from minigrad.random import generator
from minigrad.tensor import Tensor

from .linear import linear
from .module import Module, Parameter

State = tuple  # (h,) for RNN and GRU, (h, c) for LSTM


def _elman(activation: Callable[[Tensor], Tensor]) -> Callable[..., State]:
    def step(gi: Tensor, state: State, w_hh: Tensor, b_hh: Tensor | None,
             w_hr: Tensor | None = None) -> State:
        return (activation(gi + linear(state[0], w_hh, b_hh)),)
    return step


def lstm_step(gi: Tensor, state: State, w_hh: Tensor, b_hh: Tensor | None,
              w_hr: Tensor | None = None) -> State:
    """(h, c) -> (h', c') with gates i, f, g, o (module docstring); h' projected by w_hr if given."""
    h, c = state
    i, f, g, o = (gi + linear(h, w_hh, b_hh)).chunk(4, -1)
    c = f.sigmoid() * c + i.sigmoid() * g.tanh()
    h = o.sigmoid() * c.tanh()
    return (h if w_hr is None else linear(h, w_hr), c)


def gru_step(gi: Tensor, state: State, w_hh: Tensor, b_hh: Tensor | None,
             w_hr: Tensor | None = None) -> State:
    """h -> h' with gates r, z, n; b_hn stays inside r * (...), as PyTorch and cuDNN."""
    h = state[0]
    i_r, i_z, i_n = gi.chunk(3, -1)
    h_r, h_z, h_n = linear(h, w_hh, b_hh).chunk(3, -1)
    r = (i_r + h_r).sigmoid()
    z = (i_z + h_z).sigmoid()
    n = (i_n + r * h_n).tanh()
    return ((1 - z) * n + z * h,)


class CellKind(NamedTuple):
    """What distinguishes one recurrence from another: gates per unit, the step, the states."""

    gates: int
    step: Callable[..., State]
    num_states: int


CELL_KINDS: dict[str, CellKind] = {
    "RNN_TANH": CellKind(1, _elman(lambda x: x.tanh()), 1),
    "RNN_RELU": CellKind(1, _elman(lambda x: x.relu()), 1),
    "LSTM": CellKind(4, lstm_step, 2),
    "GRU": CellKind(3, gru_step, 1),
}


def uniform_parameter(shape: tuple, hidden_size: int, dtype: Any) -> Parameter:
    """U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), PyTorch's init of every recurrent weight,
    in ``dtype`` (float32 when None)."""
    dtype = np.float32 if dtype is None else check_dtype(dtype, "recurrent weight")
    bound = 1.0 / math.sqrt(hidden_size)
    return Parameter(generator().uniform(-bound, bound, shape).astype(dtype))


def check_size(name: str, value: Any) -> int:
    if not isinstance(value, (int, np.integer)) or isinstance(value, bool):
        raise TypeError(f"{name} should be of type int, got: {type(value).__name__}")
    if value <= 0:
        raise ValueError(f"{name} must be greater than zero")
    return int(value)


def _as_tensor(x: Any) -> Tensor:
    return x if isinstance(x, Tensor) else Tensor(x)


class RNNCellBase(Module):
    """The parameters shared by the three cells, PyTorch's ``RNNCellBase(input_size,
    hidden_size, bias, num_chunks)``: weight_ih (G*H, in), weight_hh (G*H, H), bias_ih and
    bias_hh (G*H,), G = ``num_chunks`` gates (1 RNN, 4 LSTM, 3 GRU)."""

    mode = ""  # the subclass's key in CELL_KINDS: which step its forward runs

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.input_size = check_size("input_size", input_size)
        self.hidden_size = check_size("hidden_size", hidden_size)
        self.bias = bias
        rows = num_chunks * self.hidden_size
        self.weight_ih = uniform_parameter((rows, self.input_size), self.hidden_size, dtype)
        self.weight_hh = uniform_parameter((rows, self.hidden_size), self.hidden_size, dtype)
        if bias:
            self.bias_ih = uniform_parameter((rows,), self.hidden_size, dtype)
            self.bias_hh = uniform_parameter((rows,), self.hidden_size, dtype)
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        nonlinearity = getattr(self, "nonlinearity", "tanh")
        if nonlinearity != "tanh":
            s += f", nonlinearity={nonlinearity}"
        return s

    def _check_state(self, x: Tensor, h: Tensor, index: int) -> None:
        """PyTorch's checks of an (N, H) hidden state against an (N, in) input."""
        if h.shape[0] != x.shape[0]:
            raise RuntimeError(f"Input batch size {x.shape[0]} doesn't match hidden{index} "
                               f"batch size {h.shape[0]}")
        if h.shape[1] != self.hidden_size:
            raise RuntimeError(f"hidden{index} has inconsistent hidden_size: got {h.shape[1]}, "
                               f"expected {self.hidden_size}")

    def _step(self, x: Any, hx: Any) -> tuple[State, bool]:
        """One step on x (N, in) or unbatched (in,); returns the new state (batched) and
        whether the input was batched."""
        name = type(self).__name__
        x = _as_tensor(x)
        if x.ndim not in (1, 2):
            raise ValueError(f"{name}: Expected input to be 1D or 2D, got {x.ndim}D instead")
        states = None if hx is None else tuple(_as_tensor(h) for h in (
            hx if isinstance(hx, (tuple, list)) else (hx,)))
        kind = CELL_KINDS[self.mode]
        if states is not None:
            if len(states) != kind.num_states:
                raise TypeError(f"{name}: hx must be " + (
                    "a tuple (h, c) of Tensors" if kind.num_states == 2 else "one Tensor"))
            for index, h in enumerate(states):
                if h.ndim not in (1, 2):
                    what = f"hx[{index}]" if kind.num_states == 2 else "hidden"
                    raise ValueError(f"{name}: Expected {what} to be 1D or 2D, got {h.ndim}D instead")
        batched = x.ndim == 2
        if not batched:
            x = x.unsqueeze(0)
            states = None if states is None else tuple(h.unsqueeze(0) for h in states)
        if x.shape[1] != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {x.shape[1]} "
                               f"expected {self.input_size}")
        if states is None:
            state0 = zeros(x.shape[0], self.hidden_size, dtype=x.dtype)
            states = (state0,) * kind.num_states
        for index, h in enumerate(states):
            self._check_state(x, h, index)
        gi = linear(x, self.weight_ih, self.bias_ih)
        return kind.step(gi, states, self.weight_hh, self.bias_hh), batched


class RNNCell(RNNCellBase):
    """h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (``nonlinearity='relu'``: relu).

    x (N, input_size) or (input_size,), hx the same with hidden_size (zeros if omitted) ->
    h' of hx's shape."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    @property
    def mode(self) -> str:  # an unknown nonlinearity fails at the forward, as PyTorch's
        return {"tanh": "RNN_TANH", "relu": "RNN_RELU"}.get(self.nonlinearity, "RNN_TANH")

    def forward(self, input: Any, hx: Any = None) -> Tensor:
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        (h,), batched = self._step(input, hx)
        return h if batched else h.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step (gates i, f, g, o; :func:`lstm_step`): x (N, input_size) or unbatched,
    hx = (h, c) each (N, hidden_size) (zeros if omitted) -> (h', c')."""

    mode = "LSTM"

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input: Any, hx: Any = None) -> tuple[Tensor, Tensor]:
        (h, c), batched = self._step(input, hx)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step (gates r, z, n; :func:`gru_step`): x (N, input_size) or unbatched,
    hx (N, hidden_size) (zeros if omitted) -> h'."""

    mode = "GRU"

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input: Any, hx: Any = None) -> Tensor:
        (h,), batched = self._step(input, hx)
        return h if batched else h.squeeze(0)

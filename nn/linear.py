"""Linear (fully connected) layer: y = x @ W.T + b.

``W`` has shape (out_features, in_features), as in PyTorch, so each output
unit's weights are one contiguous row. The op is one graph node: BLAS is
handed ``W.T`` as a transposed view (no copy) and the bias is added in place.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from minigrad import Function, Tensor
from minigrad.kernels import matmul as K
from minigrad.random import generator

from .module import Module, Parameter


def affine(x: np.ndarray, w: np.ndarray, b: np.ndarray | None) -> np.ndarray:
    """x @ w.T + b on arrays: BLAS takes w.T as a transposed view (no copy), the bias
    is added by the threads into the fresh product."""
    if b is None or x.ndim < 2 or b.dtype != x.dtype:
        y = K.matmul(x, w.T)
        if b is not None:
            y += b
        return y
    y = K.matmul_bias(np.ascontiguousarray(x).reshape(-1, x.shape[-1]), w.T, b)
    return y.reshape(x.shape[:-1] + (w.shape[0],))


def affine_grads(grad: np.ndarray, x: np.ndarray, w: np.ndarray, need_x: bool, need_w: bool,
                 need_b: bool = False) -> tuple[Any, Any, Any]:
    """(dx, dw, db) of y = x @ w.T + b for grad = dL/dy (..., out), x (..., in), w (out, in):
    dx = grad @ w (x's shape), dw = grad^T x and db = grad summed, over all leading rows;
    None where not needed. dx and dw together go to one kernel that gives each product a
    thread of its own (and sums db on the way)."""
    g2 = grad.reshape(-1, grad.shape[-1])
    x2 = x.reshape(-1, x.shape[-1])
    if need_x and need_w and g2.flags.c_contiguous and x2.flags.c_contiguous \
            and w.flags.c_contiguous and g2.dtype == x2.dtype == w.dtype:
        dx, dw, db = K.linear_grads(g2, w, x2, need_b)
        return dx.reshape(x.shape), dw, db
    dx = K.matmul(grad, w) if need_x else None
    dw = K.matmul(g2.T, x2) if need_w else None
    return dx, dw, (g2.sum(axis=0) if need_b else None)


class LinearFunction(Function):
    """y = x @ w.T (+ b) for x (..., in), w (out, in), b (out,)."""

    @staticmethod
    def forward(ctx, x, w, b=None):
        ctx.save_for_backward(x, w)
        return affine(x, w, b)

    @staticmethod
    def backward(ctx, grad):
        # dx = g @ W,  dW = g^T @ x (over all leading rows),  db = sum of g over rows
        x, w = ctx.saved_tensors
        needs = ctx.needs_input_grad
        has_bias = len(needs) == 3
        dx, dw, db = affine_grads(grad, x, w, needs[0], needs[1], has_bias and needs[2])
        return (dx, dw, db) if has_bias else (dx, dw)


class PackedLinearFunction(Function):
    """Several Linear layers on the same input as one product: for weights
    W_1..W_n (out_i, in) and biases b_1..b_n (or none), y = x @ [W_1; ..; W_n].T + [b_1, .., b_n]
    -> (..., sum out_i), the outputs side by side (e.g. q, k, v of self-attention).

    Inputs: x, then the n weights, then the n biases (if any); option ``n``.
    One (rows, in) @ (in, sum out_i) product keeps BLAS busier than n narrow
    ones, and the backward gives x one gradient instead of n to add up.
    """

    @staticmethod
    def forward(ctx, x, *params, n):
        w = np.concatenate(params[:n])                  # (sum out_i, in), a fresh copy
        b = np.concatenate(params[n:]) if len(params) > n else None
        ctx.save_for_backward(x, w)
        ctx.rows = [p.shape[0] for p in params[:n]]
        return affine(x, w, b)

    @staticmethod
    def backward(ctx, grad):
        # dx = g @ [W_i], d[W_i] = g^T x split by rows, d[b_i] = sum of g over rows, split
        x, w = ctx.saved_tensors
        needs = ctx.needs_input_grad
        n = len(ctx.rows)
        has_bias = len(needs) > n + 1
        dx, dw, db = affine_grads(grad, x, w, needs[0], any(needs[1:n + 1]),
                                  has_bias and any(needs[n + 1:]))
        cuts = np.cumsum(ctx.rows)[:-1]
        dws = [None] * n if dw is None else np.split(dw, cuts, axis=0)
        dbs = ([None] * n if db is None else np.split(db, cuts)) if has_bias else []
        return (dx, *dws, *dbs)


def linear_packed(x: Tensor, weights: list, biases: list | None = None) -> Tensor:
    """[linear(x, W_1, b_1), .., linear(x, W_n, b_n)] concatenated on the last axis,
    computed as one product (see :class:`PackedLinearFunction`). All weights take
    x's last dimension; ``biases`` is None or one per weight."""
    if not weights or any(w.ndim != 2 or w.shape[1] != x.shape[-1] for w in weights):
        raise ValueError(
            f"linear_packed: every weight must be (out_i, {x.shape[-1]}) for an input of shape "
            f"{x.shape}, got {[tuple(w.shape) for w in weights]}"
        )
    if biases is not None and [tuple(b.shape) for b in biases] != [(w.shape[0],) for w in weights]:
        raise ValueError(
            f"linear_packed: biases {[tuple(b.shape) for b in biases]} do not match weights "
            f"{[tuple(w.shape) for w in weights]}"
        )
    return PackedLinearFunction.apply(x, *weights, *(biases or ()), n=len(weights))


def linear(x: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """y = x @ weight.T + bias for x (..., in), weight (out, in), bias (out,) -> (..., out)."""
    x = x if isinstance(x, Tensor) else Tensor(x)
    if x.dtype.kind != "f":
        raise TypeError(f"linear: the input must be floating-point, got dtype {x.dtype}")
    if weight.ndim != 2:
        raise ValueError(f"linear: weight must be 2-D (out, in), got shape {weight.shape}")
    if x.ndim == 0 or x.shape[-1] != weight.shape[1]:
        raise ValueError(
            f"linear: input of shape {x.shape} does not match weight of shape {weight.shape} "
            f"(expected last dimension {weight.shape[1]})"
        )
    if bias is not None and bias.shape != (weight.shape[0],):
        raise ValueError(f"linear: bias of shape {bias.shape} does not match weight {weight.shape}")
    if x.ndim == 1:  # a single vector: treat it as one row
        return linear(x.reshape(1, -1), weight, bias).reshape(-1)
    if bias is None:
        return LinearFunction.apply(x, weight)
    return LinearFunction.apply(x, weight, bias)


class Linear(Module):
    """y = x @ W.T + b for x (..., in_features) -> (..., out_features).

    Init as PyTorch: W and b ~ U(-1/sqrt(in_features), 1/sqrt(in_features)),
    drawn from ``minigrad.random.generator()``.
    """

    def __init__(self, in_features: int, out_features: int, bias: bool = True,
                 dtype: Any = np.float32) -> None:
        super().__init__()
        for name, v in (("in_features", in_features), ("out_features", out_features)):
            if not isinstance(v, (int, np.integer)) or v <= 0:
                raise ValueError(f"Linear: {name} must be a positive integer, got {v!r}")
        self.in_features = int(in_features)
        self.out_features = int(out_features)
        bound = 1.0 / math.sqrt(in_features)
        rng = generator()
        self.weight = Parameter(rng.uniform(-bound, bound, (out_features, in_features)).astype(dtype))
        if bias:
            self.bias = Parameter(rng.uniform(-bound, bound, out_features).astype(dtype))
        else:
            self.register_parameter("bias", None)

    def forward(self, x: Tensor) -> Tensor:
        return linear(x, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")

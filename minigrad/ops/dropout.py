"""Dropout as an autograd Function: out = x * m for a scaled keep-mask m."""

from __future__ import annotations

from ..function import Function


class DropoutFunction(Function):
    """out = x * scaled_mask, scaled_mask = keep / (1 - p) (an option, owned by the op:
    ``nn.dropout.dropout_mask`` draws it fresh)."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, x, scaled_mask):
        ctx.mask = scaled_mask
        return x * scaled_mask

    @staticmethod
    def backward(ctx, grad):
        # d(x * m)/dx = m
        return grad * ctx.mask

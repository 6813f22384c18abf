"""The arguments every window op shares (convolution, pooling, fold): per-dim tuples,
the optional batch dim, and PyTorch's output-size rule.

A window op over d spatial dims takes x (N, C, *S) or, unbatched, (C, *S); its integer
options (kernel_size, stride, padding, dilation) are an int for every dim or a d-tuple.
"""

from __future__ import annotations

from typing import Any

from minigrad.tensor import Tensor


def ntuple(value: Any, d: int, name: str, op: str) -> tuple:
    """``value`` as a d-tuple of ints: an int repeated, or a sequence of length d (a
    length-1 sequence is repeated, as PyTorch's pooling accepts)."""
    if isinstance(value, (tuple, list)):
        if len(value) == 1:
            value = tuple(value) * d
        if len(value) != d:
            raise ValueError(f"{op}: {name} must be an int or a tuple of {d} ints, got {value!r}")
        return tuple(int(v) for v in value)
    return (int(value),) * d


def batched(x: Any, d: int, op: str, pool: bool = False) -> tuple[Tensor, bool]:
    """(x with a batch dim, whether it came without one): x (C, *S) or (N, C, *S); a wrong
    rank gets PyTorch's message (the convolutions' or, ``pool``, the poolings')."""
    x = x if isinstance(x, Tensor) else Tensor(x)
    if x.ndim not in (d + 1, d + 2):
        if pool:
            raise RuntimeError(f"{op}: Expected {d + 1}D or {d + 2}D (batch mode) tensor with "
                               f"optional 0 dim batch size for input, but got:{list(x.shape)}")
        raise RuntimeError(f"Expected {d + 1}D (unbatched) or {d + 2}D (batched) input to {op}, "
                           f"but got input of size: {list(x.shape)}")
    return (x.unsqueeze(0), True) if x.ndim == d + 1 else (x, False)


def unbatched(y: Tensor, was_unbatched: bool) -> Tensor:
    """y without the batch dim that :func:`batched` added."""
    return y.squeeze(0) if was_unbatched else y


def pad_pairs(pairs: list) -> tuple:
    """Per-dim (low, high) amounts, first spatial dim first, in ``F.pad``'s order (last dim
    first)."""
    return tuple(v for lo_hi in reversed(pairs) for v in lo_hi)


def check_positive(op: str, **options: tuple) -> None:
    """PyTorch's errors for a stride, dilation or kernel size below 1."""
    for name, values in options.items():
        if any(v <= 0 for v in values):
            what = "kernel size" if name == "kernel_size" else name
            raise RuntimeError(f"{op}: {what} should be greater than zero, but got "
                               f"{name}: {values}")


def too_small(op: str, x: Tensor, out: tuple) -> None:
    """PyTorch's error when an output size is below 1."""
    if any(o < 1 for o in out):
        size = "x".join(str(n) for n in x.shape[1:])
        calc = "x".join(str(n) for n in (x.shape[1], *out))
        raise RuntimeError(f"{op}: Given input size: ({size}). Calculated output size: "
                           f"({calc}). Output size is too small")

"""The connectionist temporal classification loss: ``ctc_loss`` and ``CTCLoss``, as PyTorch's.

log_probs (T, N, C) (or unbatched (T, C)) are per-step log-probabilities over C classes, one
of which is the ``blank``; targets are label sequences, padded (N, S) or concatenated into
one 1-d tensor of sum(target_lengths) labels. The loss of sequence n is
-log p(targets_n | log_probs[:input_lengths[n], n]), the sum over every alignment of the
target (blanks between and around the labels, labels repeated) of the product of the step
probabilities; the forward-backward recursion that computes it and its gradient is
:class:`minigrad.ops.ctc.CTCNegLogLikelihood`. 'mean' divides each loss by its target length
(at least 1), then averages over the batch; 'sum' adds the losses; ``zero_infinity`` turns
the infinite loss of a target no alignment fits (input too short) into 0, with no gradient.
A target label equal to the blank raises a ValueError (no alignment can produce it, so the
loss is undefined; PyTorch's kernel returns a number for it).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.ops.ctc import CTCNegLogLikelihood
from minigrad.tensor import Tensor

from .loss_module import Loss

REDUCTIONS = ("mean", "sum", "none")


def _lengths(value: Any, name: str, batch: int) -> np.ndarray:
    """int64 (batch,) lengths from an int, a sequence of ints or an integer tensor."""
    arr = np.asarray(value.data if isinstance(value, Tensor) else value)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"ctc_loss: {name} must be integers (a tuple or an integer tensor), "
                        f"got dtype {arr.dtype}")
    arr = arr.reshape(-1).astype(np.int64)
    if arr.shape[0] != batch:
        raise RuntimeError(f"{name} must be of size batch_size")
    return arr


def _check_range(values: np.ndarray, name: str, high: int | None) -> None:
    """PyTorch's errors for a length below 0 or above the size it indexes."""
    if values.size and values.min() < 0:
        raise RuntimeError(f"Expected {name} to have value at least 0, but got value "
                           f"{int(values.min())} (while checking arguments for ctc_loss)")
    if high is not None and values.size and values.max() > high:
        raise RuntimeError(f"Expected {name} to have value at most {high}, but got value "
                           f"{int(values.max())} (while checking arguments for ctc_loss)")


def _extended(targets: np.ndarray, target_lengths: np.ndarray, blank: int) -> np.ndarray:
    """l' (N, 2 S_max + 1): each target with a blank before, between and after its labels
    (blank past its own length). ``targets`` is padded (N, S) or concatenated (sum S_n,)."""
    n, s_max = len(target_lengths), int(target_lengths.max(initial=0))
    labels = np.full((n, s_max), blank, dtype=np.int64)
    if targets.ndim == 2:
        if s_max > targets.shape[1]:
            raise RuntimeError(f"Expected tensor to have size at least {s_max} at dimension 1, "
                               f"but got size {targets.shape[1]} for argument #2 'targets' "
                               "(while checking arguments for ctc_loss)")
        for i, k in enumerate(target_lengths):
            labels[i, :k] = targets[i, :k]
    else:
        total = int(target_lengths.sum())
        if targets.shape[0] != total:
            raise RuntimeError(f"Expected tensor to have size {total} at dimension 0, but got "
                               f"size {targets.shape[0]} for argument #2 'targets' (while "
                               "checking arguments for ctc_loss)")
        starts = np.concatenate([[0], np.cumsum(target_lengths)[:-1]])
        for i, (start, k) in enumerate(zip(starts, target_lengths)):
            labels[i, :k] = targets[start:start + k]
    ext = np.full((n, 2 * s_max + 1), blank, dtype=np.int64)
    ext[:, 1::2] = labels
    return ext


def ctc_loss(log_probs: Tensor, targets: Any, input_lengths: Any, target_lengths: Any,
             blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> Tensor:
    """The CTC loss of log_probs (T, N, C) or (T, C) for targets (N, S), (sum S_n,) or, unbatched,
    (S,), with input_lengths and target_lengths (N,) (see the module docstring): (N,) with
    reduction='none' (a scalar unbatched), else a scalar."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    lp = log_probs if isinstance(log_probs, Tensor) else Tensor(log_probs)
    if lp.dtype.kind != "f":
        raise NotImplementedError(f'"ctc_loss" not implemented for {lp.dtype}: log_probs must '
                                  "be floating point")
    if lp.ndim not in (2, 3):
        raise RuntimeError(f"ctc_loss: expected log_probs of 2 (unbatched) or 3 dimensions "
                           f"(T, N, C), got {list(lp.shape)}")
    unbatched = lp.ndim == 2
    t = np.asarray(targets.data if isinstance(targets, Tensor) else targets)
    if unbatched:
        lp, t = lp.unsqueeze(1), t[None]
    t_max, n, c = lp.shape
    if not 0 <= blank < c:
        raise RuntimeError("blank must be in label range")
    if t.dtype.kind not in "iuf" or t.ndim not in (1, 2):
        raise RuntimeError(f"ctc_loss: targets must be a 1-d (concatenated) or 2-d (N, S) "
                           f"tensor of class indices, got {t.dtype} of shape {list(t.shape)}")
    t = t.astype(np.int64)
    ins = _lengths(input_lengths, "input_lengths", n)
    outs = _lengths(target_lengths, "target_lengths", n)
    _check_range(ins, "input_lengths", t_max)
    _check_range(outs, "target_lengths", None)
    ext = _extended(t, outs, blank)
    if ext.size and (ext.min() < 0 or ext.max() >= c):
        raise IndexError(f"ctc_loss: target labels must be in [0, {c}), got values from "
                         f"{int(ext.min())} to {int(ext.max())}")
    labels = ext[:, 1::2][np.arange(ext.shape[1] // 2) < outs[:, None]]
    if (labels == blank).any():
        # no alignment's labelling holds the blank: the loss is undefined, not a number
        raise ValueError(f"ctc_loss: a target holds the blank index {blank} (targets are "
                         "labels other than the blank)")
    nll = CTCNegLogLikelihood.apply(lp, ext=ext, input_lengths=ins, target_lengths=outs,
                                    zero_infinity=bool(zero_infinity))
    if reduction == "mean":
        return (nll / Tensor(np.maximum(outs, 1).astype(nll.dtype))).mean()
    if reduction == "sum":
        return nll.sum()
    return nll[0] if unbatched else nll


class CTCLoss(Loss):
    """The CTC loss (see :func:`ctc_loss`): ``CTCLoss(blank=0, reduction='mean',
    zero_infinity=False)(log_probs, targets, input_lengths, target_lengths)``."""

    def __init__(self, blank: int = 0, reduction: str = "mean",
                 zero_infinity: bool = False) -> None:
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(self, log_probs: Tensor, targets: Any, input_lengths: Any,
                target_lengths: Any) -> Tensor:
        return ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank,
                        self.reduction, self.zero_infinity)

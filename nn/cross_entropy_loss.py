"""Cross-entropy and negative log-likelihood against class targets, as PyTorch.

loss_i = logsumexp(logits_i) - logits_i[target_i], averaged over the rows
whose target is not ``ignore_index`` (reduction='mean'), summed ('sum') or
returned per row ('none'). The plain case runs :class:`minigrad.ops.cross_entropy.CrossEntropyFunction`
(one fused kernel); class weights, label smoothing, probability targets and PyTorch's
(N, C, d1, ...) layout are composed from log_softmax and gather.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from minigrad.dtypes import check_same_float
from minigrad.grad_mode import is_grad_enabled
from minigrad.ops.cross_entropy import CrossEntropyFunction, check_targets
from minigrad.ops.linear_cross_entropy import LinearCrossEntropyFunction
from minigrad.step_capture import replayed
from minigrad.tensor import Tensor

from .linear import Linear, linear
from .loss_module import WeightedLoss, resolve_reduction


def cross_entropy(input: Tensor, target: Any, weight: Any = None,
                  size_average: bool | None = None, ignore_index: int = -100,
                  reduce: bool | None = None, reduction: str = "mean",
                  label_smoothing: float = 0.0) -> Tensor:
    """Cross-entropy of logits ``input`` against class ``target``, with PyTorch's meanings.

    Layouts: (N, C) logits with integer targets (N,); unbatched (C,) with a 0-d target;
    PyTorch's K-dim (N, C, d1, ...) with targets (N, d1, ...); and minigrad's class-last
    (B, T, C) with targets (B, T) (a shape that fits both K-dim readings raises). A float
    ``target`` of the logits' shape holds class probabilities: loss = -sum_c w_c p_c
    log_softmax(x)_c. Integer targets must lie in [0, C) or equal ``ignore_index``
    (IndexError otherwise, raised before anything runs). ``weight`` (C,) scales each
    class (with probability targets a weight that requires grad gets its gradient; with
    class ids it raises, as PyTorch);
    ``reduction='mean'`` divides by the summed weights of the non-ignored targets (their
    count without ``weight``; the number of rows for probabilities); if every target is
    ignored the loss is nan (0/0, as PyTorch), with a zero gradient. ``label_smoothing`` = e
    mixes in the uniform target, as PyTorch: loss = (1 - e) CE + e/C sum_c(-w_c
    log_softmax(x)_c). The plain case (integer targets, no weight, no smoothing, class
    last) runs the fused kernel. ``size_average``/``reduce``: PyTorch's deprecated spelling
    of ``reduction``.
    """
    reduction = resolve_reduction(size_average, reduce, reduction)
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"cross_entropy: reduction must be 'mean', 'sum' or 'none', got {reduction!r}")
    if not isinstance(input, Tensor) or input.dtype.kind != "f":
        raise TypeError("cross_entropy: logits must be a floating-point Tensor, got "
                        f"{getattr(input, 'dtype', type(input).__name__)}")
    t = target.data if isinstance(target, Tensor) else np.asarray(target)
    if t.dtype.kind == "f" and t.shape == input.shape:
        return _probability_targets(input, target, weight, reduction, label_smoothing)
    if t.dtype.kind not in "iu":
        raise TypeError(f"cross_entropy: targets must be integer class ids (or class "
                        f"probabilities of the logits' shape), got dtype {t.dtype} {t.shape}")
    if isinstance(ignore_index, (bool, np.bool_)) or not isinstance(ignore_index, (int, np.integer)):
        raise TypeError(f"cross_entropy: ignore_index must be an integer, got {ignore_index!r}")
    ignore_index = int(ignore_index)
    if not -2**63 <= ignore_index < 2**63:
        raise ValueError(f"cross_entropy: ignore_index {ignore_index} does not fit in int64")
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"cross_entropy: label_smoothing must be in [0, 1], got {label_smoothing}")
    rows, lead = class_rows(input, t.shape, "cross_entropy", class_last=True)
    if weight is None and not label_smoothing:
        return _fused(rows, lead, t, ignore_index, reduction)
    tr = _checked_targets(t, rows.shape[1], ignore_index)
    logp = rows.log_softmax(-1)
    w, kept = _target_weights(tr, weight, ignore_index, rows)
    nll = _reduce_weighted(-logp.gather(1, np.where(tr == ignore_index, 0, tr)[:, None])[:, 0]
                           * Tensor(kept), kept, reduction, lead, empty_mean=np.nan)
    if not label_smoothing:
        return nll
    per_class = -logp if w is None else -logp * _factor(w)
    smooth = _reduce_weighted(per_class.sum(-1) * Tensor((tr != ignore_index).astype(rows.dtype)),
                              kept, reduction, lead, empty_mean=np.nan)
    return nll * (1 - label_smoothing) + smooth * (label_smoothing / rows.shape[1])


@replayed
def _op_targets(t: np.ndarray, C: int, ignore_index: int,
                name: str = "cross_entropy") -> tuple[np.ndarray, np.ndarray]:
    """(targets as an int64 (M,) copy the op owns (the caller may reuse t), the count of those
    that are not ignore_index as a 0-d int64 array); IndexError for one outside [0, C) that
    is not ignore_index. Replayed in a captured step: each batch's targets are checked and
    counted again."""
    if C == 0:
        raise ValueError(f"{name}: logits have zero classes")
    if t.dtype.kind == "u" and t.size:  # a huge unsigned id would wrap in int64: check first
        kept = t[t != ignore_index] if ignore_index >= 0 else t
        if kept.size and int(kept.max()) >= C:
            raise IndexError(f"{name}: target {int(kept.max())} is out of range for {C} "
                             f"classes (valid: 0..{C - 1}, or ignore_index={ignore_index})")
    t = np.array(t.reshape(-1), dtype=np.int64)
    return t, np.array(check_targets(t, C, ignore_index), dtype=np.int64)


def _fused(rows: Tensor, lead: tuple, t: np.ndarray, ignore_index: int, reduction: str) -> Tensor:
    """The plain case on the fused kernel: (M, C) logits, integer targets, no weight."""
    t, count = _op_targets(t, rows.shape[1], ignore_index)
    out = CrossEntropyFunction.apply(rows, targets=t, count=count, ignore_index=ignore_index,
                                     reduction=reduction)
    if reduction == "none" and len(lead) != 1:
        out = out.reshape(lead)
    return out


def linear_cross_entropy(input: Tensor, linear_weight: Tensor, target: Any, *,
                         linear_bias: Tensor | None = None, weight: Any = None,
                         reduction: str = "mean", ignore_index: int | None = None,
                         label_smoothing: float = 0.0, options: Any = None) -> Tensor:
    """cross_entropy(linear(input, linear_weight, linear_bias), target, ...), as PyTorch's.

    input (N, in) or (in,); linear_weight (C, in), or (C, d1, ..., in) for PyTorch's K-dim
    loss (logits (N, C, d1, ...)); linear_bias of linear_weight's leading shape or None;
    ``weight``, ``reduction``, ``label_smoothing`` and integer or probability targets as
    :func:`cross_entropy`; ``ignore_index`` None means -100.

    The plain case, a language model's (N, in) rows against integer targets with a (C, in)
    weight, no class weight, no smoothing and reduction 'mean' or 'sum', runs as one op
    (:class:`~minigrad.ops.linear_cross_entropy.LinearCrossEntropyFunction`) that computes
    the head's gradients in its forward pass and keeps those instead of the (N, C) logits
    and their gradient: two (B*T, V) arrays less in a training step (``GPT.forward(...,
    return_logits=False)`` uses it). Every other case is the composed pair, PyTorch's
    reference implementation. ``options`` (PyTorch's LinearCrossEntropyOptions: how to
    chunk, a memory strategy that does not change the result) is accepted and not used.
    """
    name = "linear_cross_entropy"
    del options  # a memory strategy only: the result is the same without it
    if not isinstance(input, Tensor) or input.dtype.kind != "f":
        raise TypeError(f"{name}: input must be a floating-point Tensor, got "
                        f"{getattr(input, 'dtype', type(input).__name__)}")
    if not isinstance(linear_weight, Tensor) or linear_weight.ndim < 2 or input.ndim not in (1, 2) \
            or input.shape[-1] != linear_weight.shape[-1]:
        raise ValueError(f"{name}: input of shape {getattr(input, 'shape', None)} (expected (N, in) "
                         f"or (in,)) does not match linear_weight of shape "
                         f"{getattr(linear_weight, 'shape', None)} (expected (C, ..., in))")
    check_same_float([input.data, linear_weight.data]
                     + ([] if linear_bias is None else [linear_bias.data]), name)
    out_shape = linear_weight.shape[:-1]
    if linear_bias is not None and linear_bias.shape != out_shape:
        raise ValueError(f"{name}: linear_bias of shape {linear_bias.shape} does not match "
                         f"linear_weight {linear_weight.shape} (expected {out_shape})")
    ignore_index = -100 if ignore_index is None else ignore_index
    t = target.data if isinstance(target, Tensor) else np.asarray(target)
    if (input.ndim == 2 and linear_weight.ndim == 2 and weight is None and not label_smoothing
            and reduction in ("mean", "sum") and t.dtype.kind in "iu"
            and t.shape == input.shape[:1] and isinstance(ignore_index, (int, np.integer))
            and not isinstance(ignore_index, (bool, np.bool_))):
        t, count = _op_targets(t, linear_weight.shape[0], int(ignore_index), name)
        inputs = (input, linear_weight) if linear_bias is None else \
            (input, linear_weight, linear_bias)
        return LinearCrossEntropyFunction.apply(*inputs, targets=t, count=count,
                                                ignore_index=int(ignore_index),
                                                reduction=reduction)
    # PyTorch's reference implementation: the logits, then cross_entropy
    w2 = linear_weight.reshape(-1, linear_weight.shape[-1])
    b2 = None if linear_bias is None else linear_bias.reshape(-1)
    logits = linear(input, w2, b2).reshape(input.shape[:-1] + out_shape)
    options = {"ignore_index": ignore_index, "reduction": reduction,
               "label_smoothing": label_smoothing}
    if logits.ndim <= 2:
        return cross_entropy(logits, target, weight, **options)
    # (N, C, d1, ...): classes in dim 1, as PyTorch reads it; made rows here, so that
    # cross_entropy's class-last reading of (B, T, C) is never a candidate
    c = out_shape[0]
    rows = logits.movedim(1, -1).reshape(-1, c)
    if t.dtype.kind == "f" and t.shape == logits.shape:  # class probabilities
        probs = target if isinstance(target, Tensor) else Tensor(t)
        loss = cross_entropy(rows, probs.movedim(1, -1).reshape(-1, c), weight, **options)
        lead = logits.shape[:1] + logits.shape[2:]
    else:
        lead = logits.shape[:1] + logits.shape[2:]
        if t.shape != lead:
            raise ValueError(f"{name}: target of shape {t.shape} does not match the logits "
                             f"{logits.shape} (expected {lead}, classes in dim 1)")
        loss = cross_entropy(rows, t.reshape(-1), weight, **options)
    return loss.reshape(lead) if reduction == "none" else loss


def class_rows(input: Tensor, target_shape: tuple, name: str, class_last: bool = False) -> tuple:
    """``(rows, lead)``: ``x`` as (M, C) rows of class scores and the shape ``lead`` of one
    target per row, for PyTorch's layouts (C,) + (), (N, C) + (N,), (N, C, d1, ...) +
    (N, d1, ...), and with ``class_last`` also (..., C) + (...). ValueError when the
    targets fit no layout, or fit both K-dim readings (the class dim would be a guess)."""
    if input.ndim == 1 and target_shape == ():
        return input.reshape(1, -1), ()
    if input.ndim == 2 and target_shape == input.shape[:1]:
        return input, input.shape[:1]
    channels = input.ndim >= 3 and target_shape == input.shape[:1] + input.shape[2:]
    last = class_last and input.ndim >= 3 and target_shape == input.shape[:-1]
    if channels and last:
        raise ValueError(f"{name}: input {input.shape} with targets {target_shape} is ambiguous: "
                         f"classes in dim 1 (PyTorch's (N, C, d1, ...)) or in the last dim "
                         f"((B, T, C)); reshape to (N, C) rows first")
    if channels:
        perm = (0,) + tuple(range(2, input.ndim)) + (1,)
        return input.permute(perm).reshape(-1, input.shape[1]), target_shape
    if last:
        return input.reshape(-1, input.shape[-1]), target_shape
    need = [input.shape[:0] if input.ndim == 1 else input.shape[:1] + input.shape[2:]]
    if class_last and input.ndim >= 3:
        need.append(input.shape[:-1])
    raise ValueError(f"{name}: input of shape {input.shape} needs targets of shape "
                     + " or ".join(map(str, need)) + f" (one class id per row), got {target_shape}")


def _checked_targets(t: np.ndarray, C: int, ignore_index: int) -> np.ndarray:
    """The targets as int64 (M,); IndexError for one outside [0, C) that is not ignore_index."""
    if t.dtype.kind == "u" and t.size and int(t.max()) >= 2**63:
        raise IndexError(f"target {int(t.max())} is out of range for {C} classes")
    tr = np.array(t.reshape(-1), dtype=np.int64)
    bad = (tr != ignore_index) & ((tr < 0) | (tr >= C))
    if bad.any():
        raise IndexError(f"target {int(tr[bad][0])} is out of range for {C} classes (valid: "
                         f"0..{C - 1}, or ignore_index={ignore_index})")
    return tr


def _target_weights(tr: np.ndarray, weight: Any, ignore_index: int, rows: Tensor,
                    differentiable: bool = False) -> tuple:
    """``(w, kept)``: the class weights (C,) (None without ``weight``) and each row's weight
    w[t_i], 0 where the target is ignored. With ``differentiable`` (probability targets) a
    ``weight`` Tensor stays a Tensor, so a weight that requires grad gets its gradient, as
    PyTorch's; with class ids, PyTorch's nll_loss refuses a weight that requires grad, and so
    does this (RuntimeError, PyTorch's wording)."""
    keep = tr != ignore_index
    if weight is None:
        return None, keep.astype(rows.dtype)
    w = weight.data if isinstance(weight, Tensor) else np.asarray(weight)
    if w.shape != (rows.shape[1],):
        raise ValueError(f"weight must have one entry per class ({rows.shape[1]},), got {w.shape}")
    if isinstance(weight, Tensor) and weight.requires_grad and is_grad_enabled():
        if differentiable:
            return (weight if weight.dtype == rows.dtype else weight.to(rows.dtype)), None
        raise RuntimeError("The function 'nll_loss_forward' is not differentiable with respect "
                           "to argument 'weight'. This input cannot have requires_grad True.")
    w = w.astype(rows.dtype)
    return w, np.where(keep, w[np.where(keep, tr, 0)], 0).astype(rows.dtype)


def _factor(x: Any) -> Tensor:
    """An array or a Tensor of weights, as a Tensor factor."""
    return x if isinstance(x, Tensor) else Tensor(x)


def _reduce_weighted(losses: Tensor, kept: np.ndarray, reduction: str, lead: tuple,
                     empty_mean: float | None) -> Tensor:
    """Per-row ``losses`` (M,) reduced as PyTorch: 'none' in the targets' shape ``lead``,
    'sum', or 'mean' = sum / sum(kept) (the row weights). When the weights sum to 0 'mean'
    gives ``empty_mean`` with a zero gradient (None: sum / 0, as PyTorch's 0/0)."""
    if reduction == "none":
        return losses.reshape(lead)
    if reduction == "sum":
        return losses.sum()
    if reduction != "mean":
        raise ValueError(f"reduction must be 'mean', 'sum' or 'none', got {reduction!r}")
    total = kept.sum(dtype=np.float64)
    if total == 0 and empty_mean is not None:
        return losses.sum() * 0.0 + empty_mean
    with np.errstate(invalid="ignore", divide="ignore"):
        return losses.sum() / losses.dtype.type(total)


def _probability_targets(logits: Tensor, targets: Any, weight: Any, reduction: str,
                         eps: float) -> Tensor:
    """Cross-entropy against class probabilities ``targets`` (the logits' shape), classes in
    dim 1 (dim 0 unbatched): -sum_c w_c p_c log_softmax(x)_c, the targets smoothed to
    (1 - eps) p + eps / C first; 'mean' divides by the number of rows."""
    if not 0.0 <= eps <= 1.0:
        raise ValueError(f"cross_entropy: label_smoothing must be in [0, 1], got {eps}")
    p = targets if isinstance(targets, Tensor) else Tensor(np.asarray(targets, logits.dtype))
    lead = () if logits.ndim == 1 else logits.shape[:1] + logits.shape[2:]
    rows, _ = class_rows(logits, lead, "cross_entropy")
    prob, _ = class_rows(p, lead, "cross_entropy")
    C = rows.shape[1]
    if eps:
        prob = prob * (1 - eps) + eps / C
    w, _ = _target_weights(np.zeros(rows.shape[0], np.int64), weight, -1, rows, True)
    terms = -rows.log_softmax(-1) * prob
    if w is not None:
        terms = terms * _factor(w)
    losses = terms.sum(-1)
    return _reduce_weighted(losses, np.ones(rows.shape[0]), reduction, lead, empty_mean=None)


def nll_loss(input: Tensor, target: Any, weight: Any = None, size_average: bool | None = None,
             ignore_index: int = -100, reduce: bool | None = None,
             reduction: str = "mean") -> Tensor:
    """-w[t_i] input[i, t_i] for log-probabilities ``input`` in PyTorch's layouts ((N, C)
    with targets (N,), unbatched (C,) with a 0-d target, (N, C, d1, ...) with (N, d1, ...));
    ignored targets give 0. 'mean' divides by the summed weights w[t_i] of the targets
    that are not ``ignore_index`` (their count without ``weight``; none kept gives nan, as
    PyTorch). ``cross_entropy`` is ``nll_loss(log_softmax(x))``. ``size_average``/``reduce``:
    PyTorch's deprecated spelling of ``reduction``."""
    reduction = resolve_reduction(size_average, reduce, reduction)
    t = np.asarray(getattr(target, "data", target))
    if t.dtype.kind not in "iu":
        raise ValueError(f"nll_loss: needs integer targets, got dtype {t.dtype}")
    rows, lead = class_rows(input, t.shape, "nll_loss")
    tr = _checked_targets(t, rows.shape[1], ignore_index)
    _, kept = _target_weights(tr, weight, ignore_index, rows)
    picked = rows.gather(1, np.where(tr == ignore_index, 0, tr)[:, None])[:, 0]
    return _reduce_weighted(-picked * Tensor(kept), kept, reduction, lead, empty_mean=np.nan)


class CrossEntropyLoss(WeightedLoss):
    """Module form of :func:`cross_entropy`: ``CrossEntropyLoss()(input, target)``; ``weight``
    is a buffer (in ``state_dict``, as PyTorch's)."""

    def __init__(self, weight: Any = None, size_average: bool | None = None,
                 ignore_index: int = -100, reduce: bool | None = None, reduction: str = "mean",
                 label_smoothing: float = 0.0) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Any) -> Tensor:
        return cross_entropy(input, target, self.weight, ignore_index=self.ignore_index,
                             reduction=self.reduction, label_smoothing=self.label_smoothing)

    def extra_repr(self) -> str:
        return f"ignore_index={self.ignore_index}, reduction={self.reduction!r}"


class NLLLoss(WeightedLoss):
    """Module form of :func:`nll_loss` (negative log-likelihood of log-probabilities)."""

    def __init__(self, weight: Any = None, size_average: bool | None = None,
                 ignore_index: int = -100, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Any) -> Tensor:
        return nll_loss(input, target, self.weight, ignore_index=self.ignore_index,
                        reduction=self.reduction)


class LinearCrossEntropyLoss(WeightedLoss):
    """A classification head and its loss in one, as PyTorch's: ``linear_cross_entropy``
    of ``input`` (N, in_features) through ``self.linear`` (a :class:`Linear` to
    num_classes * prod(out_features), no bias by default) against ``target``; the class
    ``weight`` is a buffer. ``out_features`` (d1, ...) gives PyTorch's K-dim logits
    (N, num_classes, d1, ...)."""

    def __init__(self, in_features: int, num_classes: int, *, out_features: tuple = (),
                 bias: bool = False, device: Any = None, dtype: Any = None,
                 reduction: str = "mean", weight: Any = None, ignore_index: int | None = None,
                 label_smoothing: float = 0.0, options: Any = None) -> None:
        if weight is not None and tuple(np.shape(getattr(weight, "data", weight))) != (
                num_classes,):
            raise RuntimeError(f"expected weight shape to be {(num_classes,)}, got "
                               f"{tuple(np.shape(getattr(weight, 'data', weight)))}")
        if not 0.0 <= label_smoothing <= 1.0:
            raise RuntimeError(f"expected label_smoothing to be in range [0, 1], got "
                               f"{label_smoothing}")
        super().__init__(weight, reduction=reduction)
        del device  # CPU only
        self.num_classes, self.out_features = num_classes, tuple(out_features)
        self.ignore_index, self.label_smoothing, self.options = (ignore_index, label_smoothing,
                                                                 options)
        self.linear = Linear(in_features, int(np.prod(out_features, dtype=np.int64))
                             * num_classes, bias=bias, dtype=dtype or np.float32)

    def forward(self, input: Tensor, target: Any) -> Tensor:
        w = self.linear.weight.reshape((self.num_classes, *self.out_features,
                                        self.linear.in_features))
        b = None if self.linear.bias is None else self.linear.bias.reshape(
            (self.num_classes, *self.out_features))
        return linear_cross_entropy(input, w, target, linear_bias=b, weight=self.weight,
                                    reduction=self.reduction, ignore_index=self.ignore_index,
                                    label_smoothing=self.label_smoothing, options=self.options)

    def extra_repr(self) -> str:
        return (f"in_features={self.linear.in_features}, num_classes={self.num_classes}, "
                f"out_features={self.out_features}")

"""The connectionist temporal classification (CTC) negative log-likelihood, one Function.

For one sequence, the target l (length S) is extended with blanks, l' = (b, l_1, b, l_2, ...,
l_S, b) of length 2 S + 1. A path through l' advances 0 or 1 position per time step, or 2 when
it skips a blank between two different labels. The forward variables (log space) are

    alpha_0(s) = lp[0, l'_s] for s in {0, 1}, else -inf
    alpha_t(s) = lp[t, l'_s] + logsumexp(alpha_{t-1}(s), alpha_{t-1}(s-1),
                                         alpha_{t-1}(s-2) if l'_s != b and l'_s != l'_{s-2})

and -log p(l | x) = -logsumexp(alpha_{T-1}(2S), alpha_{T-1}(2S - 1)). The backward variables
beta run the same recursion from the end; alpha_t(s) + beta_t(s) - lp[t, l'_s] is the log of
the probability mass of the paths through (t, s), so

    d nll / d lp[t, c] = -exp(logsumexp_{s: l'_s = c}(alpha_t(s) + beta_t(s)) - lp[t, c] + nll)

for t below the sequence's input length (0 past it). This is the gradient with respect to
``lp`` itself. PyTorch's kernel returns it plus exp(lp[t, c]) (the gradient with respect to
the logits, assuming ``lp`` is their log_softmax); through a log_softmax the two agree exactly,
since log_softmax's backward removes any per-step term proportional to exp(lp).
"""

from __future__ import annotations

import numpy as np

from ..function import Function
from .masking import where


def _shifted(a: np.ndarray, k: int) -> np.ndarray:
    """a moved k positions along the last axis: out[..., s] = a[..., s - k] (-inf where
    s - k is outside; k < 0 moves the other way)."""
    out = np.full_like(a, -np.inf)
    if k > 0:
        out[..., k:] = a[..., :-k]
    else:
        out[..., :k] = a[..., -k:]
    return out


def _alphas(lp_ext: np.ndarray, skip: np.ndarray, input_lengths: np.ndarray,
            target_lengths: np.ndarray) -> np.ndarray:
    """alpha (T, N, L') in log space; past a sequence's input length its last alpha is kept."""
    t_max = lp_ext.shape[0]
    alpha = np.full(lp_ext.shape, -np.inf)
    if t_max == 0:
        return alpha
    first = np.full(lp_ext.shape[1:], -np.inf)
    first[:, 0] = lp_ext[0, :, 0]
    if lp_ext.shape[2] > 1:
        first[:, 1] = np.where(target_lengths > 0, lp_ext[0, :, 1], -np.inf)
    alpha[0] = first
    for t in range(1, t_max):
        prev = alpha[t - 1]
        step = np.logaddexp(prev, _shifted(prev, 1))
        step = np.logaddexp(step, np.where(skip, _shifted(prev, 2), -np.inf))
        alpha[t] = np.where((t < input_lengths)[:, None], step + lp_ext[t], prev)
    return alpha


def _betas(lp_ext: np.ndarray, skip: np.ndarray, input_lengths: np.ndarray,
           target_lengths: np.ndarray) -> np.ndarray:
    """beta (T, N, L') in log space (-inf at and past a sequence's input length)."""
    t_max, n, width = lp_ext.shape
    beta = np.full(lp_ext.shape, -np.inf)
    s = np.arange(width)
    ends = (s == 2 * target_lengths[:, None]) | (s == 2 * target_lengths[:, None] - 1)
    skip_from = _shifted(skip.astype(float), -2) > 0  # may s jump to s + 2
    for t in range(t_max - 1, -1, -1):
        last = (t == input_lengths - 1)[:, None]
        nxt = beta[t + 1] if t + 1 < t_max else np.full((n, width), -np.inf)
        step = np.logaddexp(nxt, _shifted(nxt, -1))
        step = np.logaddexp(step, np.where(skip_from, _shifted(nxt, -2), -np.inf))
        inside = (t < input_lengths - 1)[:, None]
        beta[t] = np.where(last & ends, lp_ext[t],
                           np.where(inside, step + lp_ext[t], -np.inf))
    return beta


def _log_add(terms: list) -> object:
    """log(sum(exp(term))) of same-shape Tensors, in ops that differentiate to every order:
    the largest term is taken out as a constant, and an all -inf position (no path) gives
    -inf with a zero gradient instead of the nan of log(0)'s derivative times 0."""
    stacked = np.stack([t.data for t in terms])
    m = np.max(stacked, axis=0)
    m = np.where(np.isfinite(m), m, 0.0)
    total = sum((t - m).exp() for t in terms)
    alive = total.data > 0
    return where(alive, where(alive, total, 1.0).log() + m, -np.inf)


def _composite_nll(log_probs: object, ext: np.ndarray, skip: np.ndarray,
                   input_lengths: np.ndarray, target_lengths: np.ndarray,
                   zero_infinity: bool) -> object:
    """The same nll as CTCNegLogLikelihood, as a recursion of ordinary ops (what
    ``backward(create_graph=True)`` differentiates)."""
    t_max, n = log_probs.shape[:2]
    width = ext.shape[1]
    rows = np.arange(n)[:, None]
    lp_ext = log_probs[:, rows, ext]  # (T, N, L')
    s = np.arange(width)
    before1, before2 = np.maximum(s - 1, 0), np.maximum(s - 2, 0)
    start = (s == 0) | ((s == 1) & (target_lengths[:, None] > 0))
    alpha = where(start, lp_ext[0], -np.inf)
    for t in range(1, t_max):
        terms = [alpha, where(s >= 1, alpha[:, before1], -np.inf),
                 where(skip, alpha[:, before2], -np.inf)]
        step = _log_add(terms) + lp_ext[t]
        alpha = where((t < input_lengths)[:, None], step, alpha)
    ends = [alpha[np.arange(n), 2 * target_lengths],
            where(target_lengths > 0, alpha[np.arange(n), np.maximum(2 * target_lengths - 1, 0)],
                  -np.inf)]
    nll = -_log_add(ends)
    empty = np.where(target_lengths == 0, 0.0, np.inf)
    nll = where(input_lengths == 0, empty, nll)
    infinite = np.isinf(nll.data)
    if zero_infinity:
        return where(infinite, 0.0, nll)
    if infinite.any():
        # an infinite loss's gradient is nan at every live step, as the plain backward's
        live = (np.arange(t_max)[:, None] < input_lengths[None, :])[..., None]
        steps = where(live, log_probs, 0.0)
        for r in np.flatnonzero(infinite):
            # 0 in value; nan in gradient, for row r's steps alone
            nll = nll + where(np.arange(n) == r, _NanGradient.apply(steps[:, r].sum()) * 0.0,
                              0.0)
    return nll


class _NanGradient(Function):
    """The identity, whose gradient is nan (an undefined derivative, made visible)."""

    differentiable_backward = True

    @staticmethod
    def forward(ctx, x):
        return x.copy()

    @staticmethod
    def backward(ctx, grad):
        return grad * np.nan


class CTCNegLogLikelihood(Function):
    """nll (N,) of log_probs (T, N, C) for the extended targets ``ext`` (N, L') (see the
    module docstring); ``zero_infinity`` gives an infinite nll (no alignment) the value 0
    and no gradient, else its gradient is nan, as PyTorch's. Under
    ``backward(create_graph=True)`` the engine differentiates :func:`_composite_nll`."""

    @staticmethod
    def composite(ctx, log_probs):
        ext, skip, input_lengths, target_lengths, zero_infinity = ctx.options
        return _composite_nll(log_probs, ext, skip, input_lengths, target_lengths,
                              zero_infinity)

    @staticmethod
    def forward(ctx, log_probs, ext, input_lengths, target_lengths, zero_infinity):
        lp = log_probs.astype(np.float64)
        n = lp.shape[1]
        lp_ext = np.take_along_axis(lp, np.broadcast_to(ext[None], (lp.shape[0], *ext.shape)),
                                    axis=2)
        # a path may jump over position s - 1 onto s when l'_s is a label unequal to l'_{s-2}
        skip = np.zeros(ext.shape, bool)
        skip[:, 2:] = (ext[:, 2:] != ext[:, :1]) & (ext[:, 2:] != ext[:, :-2])
        alpha = _alphas(lp_ext, skip, input_lengths, target_lengths)
        rows = np.arange(n)
        last = alpha[np.maximum(input_lengths - 1, 0), rows]  # (N, L')
        end = 2 * target_lengths
        ll = last[rows, end]
        ll = np.where(target_lengths > 0,
                      np.logaddexp(ll, last[rows, np.maximum(end - 1, 0)]), ll)
        # no time steps: only the empty target has an alignment (the empty one)
        ll = np.where(input_lengths == 0, np.where(target_lengths == 0, 0.0, -np.inf), ll)
        nll = -ll
        if zero_infinity:
            nll = np.where(np.isinf(nll), 0.0, nll)
        ctx.options = (ext, skip, input_lengths, target_lengths, zero_infinity)
        ctx.saved = (lp, lp_ext, ext, skip, alpha, -ll, input_lengths, target_lengths,
                     zero_infinity, log_probs.dtype)
        return nll.astype(log_probs.dtype)

    @staticmethod
    def backward(ctx, grad):
        (lp, lp_ext, ext, skip, alpha, raw_nll, input_lengths, target_lengths,
         zero_infinity, dtype) = ctx.saved
        t_max = lp.shape[0]
        beta = _betas(lp_ext, skip, input_lengths, target_lengths)
        # alpha of a step past the input length is the frozen last one: mask it out
        live = (np.arange(t_max)[:, None] < input_lengths[None, :])[..., None]
        both = np.where(live, alpha + beta, -np.inf)  # (T, N, L')
        occupancy = np.full(lp.shape, -np.inf)
        t_idx, n_idx, _ = np.indices(both.shape)
        np.logaddexp.at(occupancy, (t_idx, n_idx, np.broadcast_to(ext[None], both.shape)),
                        both)
        with np.errstate(invalid="ignore", over="ignore"):
            g = -np.exp(occupancy + raw_nll[None, :, None] - lp)
        g = np.where(live, g, 0.0)
        if zero_infinity:
            g = np.where(np.isinf(raw_nll)[None, :, None], 0.0, g)
        return (g * np.asarray(grad, dtype=np.float64)[None, :, None]).astype(dtype)

"""L-BFGS (Nocedal 1980; Liu & Nocedal 1989), PyTorch's ``torch.optim.LBFGS``.

A quasi-Newton method: from the last ``history_size`` pairs of steps s and gradient
changes y it builds an approximation of the inverse Hessian H (never stored: the
two-loop recursion applies it), and moves along d = -H g. Each ``step(closure)`` runs up
to ``max_iter`` such iterations, calling ``closure`` (which must zero the gradients,
recompute the loss, call backward and return the loss) to re-evaluate; the first
iteration's step is ``min(1, 1 / sum|g|) * lr``, later ones ``lr``, or, with
``line_search_fn="strong_wolfe"``, the step a line search picks satisfying the strong
Wolfe conditions (Nocedal & Wright, Algorithms 3.5-3.6, with cubic interpolation).

It stops early when max|g| <= tolerance_grad, when the step or the loss change is below
tolerance_change, or after ``max_eval`` evaluations. All parameters form one vector, so
there is one parameter group only; its state sits under parameter 0, as PyTorch's.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from .optimizer import Optimizer, check_nonnegative

_COUNTS = ("func_evals", "n_iter")
_FLOATS = ("t", "H_diag", "prev_loss")
_VECTORS = ("d", "prev_flat_grad")
_LISTS = ("old_dirs", "old_stps", "ro", "al")


def _cubic_interpolate(x1: float, f1: float, g1: float, x2: float, f2: float, g2: float,
                       bounds: tuple[float, float] | None = None) -> float:
    """The minimiser of the cubic through (x1, f1) and (x2, f2) with slopes g1, g2, clipped to
    ``bounds`` (the interval between x1 and x2 by default); their midpoint if it has none."""
    lo, hi = bounds if bounds is not None else (min(x1, x2), max(x1, x2))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1**2 - g1 * g2
    if d2_square < 0:
        return (lo + hi) / 2.0
    d2 = math.sqrt(d2_square)
    if x1 <= x2:
        pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(pos, lo), hi)


def _strong_wolfe(obj: Callable[[float], tuple[float, np.ndarray]], t: float, d: np.ndarray,
                  f: float, g: np.ndarray, gtd: float, c1: float = 1e-4, c2: float = 0.9,
                  tolerance_change: float = 1e-9,
                  max_ls: int = 25) -> tuple[float, np.ndarray, float, int]:
    """A step t along d with f(x + t d) <= f + c1 t gtd and |g(x + t d) . d| <= -c2 gtd.
    ``obj(t)`` is (loss, flat gradient) at x + t d. Returns (loss, gradient, t, evaluations)."""
    d_norm = float(np.max(np.abs(d)))
    f_new, g_new = obj(t)
    evals = 1
    gtd_new = float(g_new @ d)
    t_prev, f_prev, g_prev, gtd_prev = 0.0, f, g.copy(), gtd
    done = False
    ls_iter = 0
    # bracket an interval holding a point that satisfies the conditions
    while ls_iter < max_ls:
        if f_new > f + c1 * t * gtd or (ls_iter > 1 and f_new >= f_prev):
            bracket, bf, bg, bgtd = [t_prev, t], [f_prev, f_new], [g_prev, g_new.copy()], [
                gtd_prev, gtd_new]
            break
        if abs(gtd_new) <= -c2 * gtd:
            bracket, bf, bg, bgtd = [t], [f_new], [g_new], [gtd_new]
            done = True
            break
        if gtd_new >= 0:
            bracket, bf, bg, bgtd = [t_prev, t], [f_prev, f_new], [g_prev, g_new.copy()], [
                gtd_prev, gtd_new]
            break
        tmp = t
        t = _cubic_interpolate(t_prev, f_prev, gtd_prev, t, f_new, gtd_new,
                               bounds=(t + 0.01 * (t - t_prev), t * 10))
        t_prev, f_prev, g_prev, gtd_prev = tmp, f_new, g_new.copy(), gtd_new
        f_new, g_new = obj(t)
        evals += 1
        gtd_new = float(g_new @ d)
        ls_iter += 1
    if ls_iter == max_ls:
        bracket, bf, bg, bgtd = [0, t], [f, f_new], [g, g_new], [gtd, gtd_new]
    # zoom: shrink the bracket until a point satisfies them
    insuf_progress = False
    low, high = (0, 1) if bf[0] <= bf[-1] else (1, 0)
    while not done and ls_iter < max_ls:
        if abs(bracket[1] - bracket[0]) * d_norm < tolerance_change:
            break
        t = _cubic_interpolate(bracket[0], bf[0], bgtd[0], bracket[1], bf[1], bgtd[1])
        eps = 0.1 * (max(bracket) - min(bracket))
        if min(max(bracket) - t, t - min(bracket)) < eps:
            # too close to an end: move away from it unless the last try was not
            if insuf_progress or t >= max(bracket) or t <= min(bracket):
                t = max(bracket) - eps if abs(t - max(bracket)) < abs(t - min(bracket)) \
                    else min(bracket) + eps
                insuf_progress = False
            else:
                insuf_progress = True
        else:
            insuf_progress = False
        f_new, g_new = obj(t)
        evals += 1
        gtd_new = float(g_new @ d)
        ls_iter += 1
        if f_new > f + c1 * t * gtd or f_new >= bf[low]:
            bracket[high], bf[high], bg[high], bgtd[high] = t, f_new, g_new.copy(), gtd_new
            low, high = (0, 1) if bf[0] <= bf[1] else (1, 0)
        else:
            if abs(gtd_new) <= -c2 * gtd:
                done = True
            elif gtd_new * (bracket[high] - bracket[low]) >= 0:
                bracket[high], bf[high], bg[high], bgtd[high] = (
                    bracket[low], bf[low], bg[low], bgtd[low])
            bracket[low], bf[low], bg[low], bgtd[low] = t, f_new, g_new.copy(), gtd_new
    return bf[low], bg[low], bracket[low], evals


class LBFGS(Optimizer):
    """``LBFGS(params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7,
    tolerance_change=1e-9, history_size=100, line_search_fn=None)``; ``step(closure)``.

    ``max_eval`` defaults to ``max_iter * 5 // 4``; ``line_search_fn`` is None or
    ``"strong_wolfe"``. State (under parameter 0): ``func_evals``, ``n_iter``, ``d``,
    ``t``, ``old_dirs``, ``old_stps``, ``ro``, ``H_diag``, ``prev_flat_grad``,
    ``prev_loss`` and, after the first iteration, ``al``.
    """

    def __init__(self, params: Iterable[Any], lr: float = 1, max_iter: int = 20,
                 max_eval: int | None = None, tolerance_grad: float = 1e-7,
                 tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: str | None = None) -> None:
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = {"lr": lr, "max_iter": max_iter, "max_eval": max_eval,
                    "tolerance_grad": tolerance_grad, "tolerance_change": tolerance_change,
                    "history_size": history_size, "line_search_fn": line_search_fn}
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")

    def _check_group(self, group: dict[str, Any]) -> None:
        check_nonnegative(group, "lr", "tolerance_grad", "tolerance_change")
        for name in ("max_iter", "max_eval", "history_size"):
            v = group[name]
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise ValueError(f"{name} must be an int >= 1, got {v!r}")
        if group["line_search_fn"] not in (None, "strong_wolfe"):
            raise ValueError(f"only 'strong_wolfe' is supported as line_search_fn, got "
                             f"{group['line_search_fn']!r}")

    def add_param_group(self, group: dict[str, Any]) -> None:
        """The first group only: L-BFGS treats all parameters as one vector."""
        if self.param_groups:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        super().add_param_group(group)

    # ---- the parameters as one flat vector --------------------------------------------
    @property
    def _params(self) -> list[Any]:
        return self.param_groups[0]["params"]

    def _flat_grad(self) -> np.ndarray:
        parts = []
        for p in self._params:
            g = p.grad
            parts.append(np.zeros(p.data.size, p.data.dtype) if g is None
                         else np.asarray(getattr(g, "data", g), dtype=p.data.dtype).ravel())
        return np.concatenate(parts)

    def _add_to_params(self, t: float, d: np.ndarray) -> None:
        offset = 0
        for p in self._params:
            n = p.data.size
            p.data += t * d[offset:offset + n].reshape(p.data.shape)
            offset += n
            bump = getattr(p, "_bump_version", None)
            if bump is not None:
                bump()

    def _set_params(self, values: list[np.ndarray]) -> None:
        for p, v in zip(self._params, values):
            p.data[...] = v
            bump = getattr(p, "_bump_version", None)
            if bump is not None:
                bump()

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Run up to ``max_iter`` L-BFGS iterations; return the loss ``closure`` gave first."""
        if closure is None:
            raise RuntimeError("LBFGS.step needs a closure that re-evaluates the model and "
                               "returns the loss")
        group = self.param_groups[0]
        try:
            self._check_group(group)
        except (TypeError, ValueError) as e:
            raise type(e)(f"param group 0: {e}") from None
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tol_grad, tol_change = group["tolerance_grad"], group["tolerance_change"]
        history_size = group["history_size"]
        state = self.state.setdefault(0, {})
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)

        orig_loss = closure()
        loss = _as_float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if np.max(np.abs(flat_grad)) <= tol_grad:
            return orig_loss

        d, t = state.get("d"), state.get("t")
        old_dirs, old_stps, ro = state.get("old_dirs"), state.get("old_stps"), state.get("ro")
        h_diag = state.get("H_diag")
        prev_flat_grad, prev_loss = state.get("prev_flat_grad"), state.get("prev_loss")
        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = -flat_grad
                old_dirs, old_stps, ro = [], [], []
                h_diag = 1.0
            else:
                y = flat_grad - prev_flat_grad
                s = d * t
                ys = float(y @ s)
                if ys > 1e-10:  # keep the pair only if the curvature is positive
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    h_diag = ys / float(y @ y)
                # the two-loop recursion: d = -H g
                if "al" not in state:
                    state["al"] = [None] * history_size
                al = state["al"]
                q = -flat_grad
                for i in range(len(old_dirs) - 1, -1, -1):
                    al[i] = float(old_stps[i] @ q) * ro[i]
                    q = q - al[i] * old_dirs[i]
                d = r = q * h_diag
                for i in range(len(old_dirs)):
                    be_i = float(old_dirs[i] @ r) * ro[i]
                    r += (al[i] - be_i) * old_stps[i]
            prev_flat_grad = flat_grad.copy()
            prev_loss = loss
            t = min(1.0, 1.0 / float(np.sum(np.abs(flat_grad)))) * lr if state["n_iter"] == 1 \
                else lr
            gtd = float(flat_grad @ d)
            if gtd > -tol_change:  # not a descent direction
                break
            evals = 0
            if group["line_search_fn"] is not None:
                x_init = [p.data.copy() for p in self._params]

                def obj(step: float, x_init: list = x_init, d: np.ndarray = d) -> tuple:
                    self._add_to_params(step, d)
                    value = _as_float(closure())
                    grad = self._flat_grad()
                    self._set_params(x_init)
                    return value, grad

                loss, flat_grad, t, evals = _strong_wolfe(obj, t, d, loss, flat_grad, gtd,
                                                          max_ls=max_eval - current_evals)
                self._add_to_params(t, d)
                opt_cond = np.max(np.abs(flat_grad)) <= tol_grad
            else:
                self._add_to_params(t, d)
                opt_cond = False
                if n_iter != max_iter:
                    loss = _as_float(closure())
                    flat_grad = self._flat_grad()
                    opt_cond = np.max(np.abs(flat_grad)) <= tol_grad
                    evals = 1
            current_evals += evals
            state["func_evals"] += evals
            if (n_iter == max_iter or current_evals >= max_eval or opt_cond
                    or np.max(np.abs(d * t)) <= tol_change or abs(loss - prev_loss) < tol_change):
                break
        state.update(d=d, t=t, old_dirs=old_dirs, old_stps=old_stps, ro=ro, H_diag=h_diag,
                     prev_flat_grad=prev_flat_grad, prev_loss=prev_loss)
        return orig_loss

    def _checked_state_entry(self, i: int, entry: Any, p: Any,
                             group: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(entry, dict):
            raise TypeError(f"state of parameter {i} must be a dict, got {type(entry).__name__}")
        known = set(_COUNTS + _FLOATS + _VECTORS + _LISTS)
        if i != 0 or not set(entry) <= known:
            raise ValueError(f"LBFGS keeps its state under parameter 0 with entries among "
                             f"{sorted(known)}; got parameter {i} with {sorted(map(str, entry))}")
        n = sum(q.data.size for q in self._params)
        dtype = self._params[0].data.dtype
        out: dict[str, Any] = {}
        for k, v in entry.items():
            if k in _COUNTS:
                out[k] = int(_as_float(v))
            elif k in _FLOATS:
                out[k] = _as_float(v)
            elif k in _VECTORS:
                out[k] = _flat_vector(k, v, n, dtype)
            elif k in ("ro", "al"):
                out[k] = [None if x is None else _as_float(x) for x in v]
            else:
                out[k] = [_flat_vector(k, x, n, dtype) for x in v]
        return out


def _as_float(x: Any) -> float:
    """A loss or saved scalar (a Tensor, a 0-d array, a number) as a Python float."""
    x = getattr(x, "data", x) if not isinstance(x, (int, float)) else x
    return float(np.asarray(x).reshape(()))


def _flat_vector(name: str, v: Any, n: int, dtype: np.dtype) -> np.ndarray:
    a = np.asarray(getattr(v, "data", v))
    if a.shape != (n,) or a.dtype.kind not in "fiu":
        raise ValueError(f"LBFGS state {name!r} must be a numeric vector of the {n} parameter "
                         f"entries, got {a.dtype} of shape {a.shape}")
    return np.array(a, dtype=dtype, copy=True)

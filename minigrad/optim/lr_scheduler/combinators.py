"""Schedulers made of schedulers: SequentialLR (one after another) and ChainedScheduler (all at
once, their factors multiplying). Their state dicts hold their members' state dicts."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

from .base import LRScheduler, group_lrs
from .plateau import ReduceLROnPlateau


def _check_members(owner: str, schedulers: Sequence[Any], optimizer: Any) -> None:
    if len(schedulers) < 1:
        raise ValueError(f"{owner} expects at least one scheduler, but got no scheduler.")
    for i, s in enumerate(schedulers):
        if not hasattr(s, "optimizer"):
            raise TypeError(f"{owner} at index {i} should have `optimizer` as its attribute.")
        if isinstance(s, ReduceLROnPlateau):
            raise ValueError(  # noqa: TRY004  (PyTorch's type)
                f"{owner} does not support `ReduceLROnPlateau` scheduler as it requires "
                "additional kwargs to be specified when calling `step`, but got one at index "
                f"{i} in the given schedulers sequence.")
        if s.optimizer is not optimizer:
            raise ValueError(f"{owner}: scheduler {i} ({type(s).__name__}) belongs to another "
                             "optimizer")


def _undo_initial_steps(scheduler: Any) -> None:
    """Step every (nested) member's ``last_epoch`` back by the initial step it made when built."""
    for s in scheduler._schedulers:
        if hasattr(s, "_schedulers"):
            _undo_initial_steps(s)
        elif hasattr(s, "last_epoch"):
            s.last_epoch -= 1


class _Combinator(LRScheduler):
    """State dicts of a scheduler of schedulers: its own attributes and each member's dict."""

    def state_dict(self) -> dict:
        """Every attribute but the optimizer, with ``_schedulers`` as the members' state dicts."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "_schedulers")}
        state["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore what :meth:`state_dict` returned (members included)."""
        state = dict(state_dict)
        saved = state.pop("_schedulers")
        self.__dict__.update(state)
        for s, sd in zip(self._schedulers, saved):
            s.load_state_dict(sd)


class SequentialLR(_Combinator):
    """Run ``schedulers[0]`` until ``milestones[0]``, then ``schedulers[1]`` (restarted at its
    epoch 0), and so on."""

    def __init__(self, optimizer: Any, schedulers: Sequence[LRScheduler],
                 milestones: Sequence[int], last_epoch: int = -1) -> None:
        _check_members("SequentialLR", schedulers, optimizer)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(f"SequentialLR: expected {len(schedulers) - 1} milestones for "
                             f"{len(schedulers)} schedulers, got {len(milestones)}")
        self.optimizer = optimizer
        self._schedulers = list(schedulers)
        self._milestones = list(milestones)
        self.last_epoch = last_epoch + 1
        for group in optimizer.param_groups:  # undo the step each scheduler made when built
            group["lr"] = group["initial_lr"]
        _undo_initial_steps(self)
        idx = bisect_right(self._milestones, 0)
        self._schedulers[idx]._initial_step()
        self._last_lr = self._schedulers[idx].get_last_lr()

    def step(self) -> None:  # type: ignore[override]
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler.step(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()



class ChainedScheduler(_Combinator):
    """Step every scheduler in turn at each step: their recursive factors multiply
    (e.g. ConstantLR's warmup factor times ExponentialLR's decay)."""

    def __init__(self, schedulers: Sequence[LRScheduler], optimizer: Any = None) -> None:
        optimizer = optimizer or (schedulers[0].optimizer if schedulers else None)
        _check_members("ChainedScheduler", schedulers, optimizer)
        self._schedulers = list(schedulers)
        self.optimizer = optimizer
        self._last_lr = group_lrs(optimizer)

    def step(self) -> None:  # type: ignore[override]
        """Step each scheduler, in order."""
        for s in self._schedulers:
            s.step()
        self._last_lr = group_lrs(self.optimizer)

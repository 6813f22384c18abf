"""The scheduler base class: ``initial_lr``, ``base_lrs``, ``last_epoch``, the step, state dicts."""

from __future__ import annotations

from typing import Any


def group_lrs(optimizer: Any) -> list:
    """Each parameter group's current ``lr``."""
    return [group["lr"] for group in optimizer.param_groups]


def per_group(name: str, optimizer: Any, value: Any) -> list:
    """``value`` once per parameter group (a list or tuple must have one entry per group)."""
    n = len(optimizer.param_groups)
    if isinstance(value, (list, tuple)):
        if len(value) != n:
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. "
                             f"{name} has {len(value)} values, param_groups has {n}.")
        return list(value)
    return [value] * n


class LRScheduler:
    """Base class: subclasses define ``get_lr()`` (the recursive rule) and may define
    ``_get_closed_form_lr()`` (used when ``step`` jumps to a given epoch)."""

    _is_initial = False

    def __init__(self, optimizer: Any, last_epoch: int = -1) -> None:
        if not hasattr(optimizer, "param_groups"):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            missing = [i for i, g in enumerate(optimizer.param_groups) if "initial_lr" not in g]
            if missing:
                raise KeyError(f"param 'initial_lr' is not specified in param_groups[{missing[0]}] "
                               "when resuming an optimizer (last_epoch != -1)")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._initial_step()

    def _initial_step(self) -> None:
        """Step 0: ``_is_initial`` tells ``get_lr`` to keep the rates it finds."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def get_lr(self) -> list:
        raise NotImplementedError

    def get_last_lr(self) -> list:
        """The learning rate of each group after the last ``step()``."""
        return self._last_lr

    def step(self, epoch: int | None = None) -> None:
        """Advance one epoch (or jump to ``epoch``, PyTorch's deprecated form) and set the rates."""
        self._step_count += 1
        if epoch is None:
            self.last_epoch += 1
            values = self.get_lr()
        else:
            self.last_epoch = epoch
            closed = getattr(self, "_get_closed_form_lr", None)
            values = closed() if closed is not None else self.get_lr()
        for group, lr in zip(self.optimizer.param_groups, values):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def state_dict(self) -> dict:
        """Every attribute except the optimizer."""
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore what :meth:`state_dict` returned."""
        self.__dict__.update(state_dict)

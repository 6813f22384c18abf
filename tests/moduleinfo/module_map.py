"""Which PyTorch ModuleInfos run against minigrad: every one whose class ``minigrad.nn`` has
under the same name (``torch.nn.X`` -> ``minigrad.nn.X``), so a module added to ``nn`` with
PyTorch's name enters the run by itself. ``RANDOM_IN_TRAINING`` lists the classes whose
training-mode forward draws random numbers (their train-mode values are not compared).
``THROUGH_LOG_SOFTMAX`` lists the classes whose first forward argument is a log-softmax
output that the runner passes through ``log_softmax`` on both sides (see there)."""

from __future__ import annotations

from typing import Any

from opinfo.op_map import stand_in_for_expecttest

from minigrad import nn

# Classes whose forward in training mode is random (values cannot be compared sample by sample).
RANDOM_IN_TRAINING = frozenset({"Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout",
                                "FeatureAlphaDropout", "RReLU"})

# PyTorch's CTC kernel returns, as the gradient with respect to log_probs, the gradient with
# respect to the logits they are the log_softmax of (the true one plus exp(log_probs));
# minigrad's is the true gradient. log_softmax leaves normalized log-probabilities unchanged
# and its backward maps both to the same gradient of the logits, which the run compares.
THROUGH_LOG_SOFTMAX = frozenset({"CTCLoss"})


def load_module_db() -> list:
    """PyTorch's ModuleInfo list."""
    stand_in_for_expecttest()
    from torch.testing._internal.common_modules import module_db

    return module_db


def class_name(info: Any) -> str:
    """``torch.nn.Linear`` -> ``"Linear"``."""
    return info.module_cls.__name__


def resolve(info: Any) -> type | None:
    """minigrad's class of the ModuleInfo ``info``, or None when ``minigrad.nn`` lacks it."""
    cls = getattr(nn, class_name(info), None)
    return cls if isinstance(cls, type) and issubclass(cls, nn.Module) else None


def modules_to_run(module_db: list) -> list[tuple[Any, type]]:
    """Every ModuleInfo whose class minigrad has, with minigrad's class."""
    return [(info, cls) for info in module_db if (cls := resolve(info)) is not None]

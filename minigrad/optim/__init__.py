"""Optimizers, gradient clipping and learning-rate schedules (PyTorch's names and rules).

>>> import minigrad as mg
>>> w = mg.tensor([1.0, -2.0], requires_grad=True)
>>> opt = mg.optim.SGD([w], lr=0.1)
>>> (w * w).sum().backward()          # grad = 2w
>>> opt.step(); opt.zero_grad()
>>> w.data
array([ 0.8, -1.6], dtype=float32)
"""

from . import lr_scheduler
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .adam_variants import Adamax, NAdam, RAdam
from .asgd import ASGD
from .clip import clip_grad_norm_
from .lbfgs import LBFGS
from .optimizer import Optimizer
from .rmsprop import Adadelta, RMSprop
from .rprop import Rprop
from .sgd import SGD
from .warmup_cosine import CosineWithWarmup, cosine_lr

__all__ = ["ASGD", "LBFGS", "SGD", "Adadelta", "Adagrad", "Adam", "AdamW", "Adamax",
           "CosineWithWarmup", "NAdam", "Optimizer", "RAdam", "RMSprop", "Rprop",
           "clip_grad_norm_", "cosine_lr", "lr_scheduler"]

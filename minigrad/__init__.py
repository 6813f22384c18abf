"""minigrad: reverse-mode autodiff on NumPy, with Numba kernels for the hot ops.

The ops run on one of two backends (``minigrad/backends/``): ``reference``
(plain NumPy) or ``fast`` (Numba kernels, the default); choose with
``MINIGRAD_BACKEND``, :func:`set_backend` or ``with use_backend(name):``.

>>> import minigrad as mg
>>> x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
>>> (x * x).sum().backward()
>>> x.grad
array([2., 4., 6.], dtype=float32)
"""

from .malloc import keep_freed_memory

# Freed arrays stay mapped for the next training step (see malloc.py: on the
# target VM a page fault on a fresh array cost more than the math that fills it).
keep_freed_memory()

from .backends import get_backend, set_backend, use_backend
from .function import Function, Context, no_grad, is_grad_enabled
from .tensor import Tensor, tensor, zeros, ones, full, zeros_like, ones_like, arange
from .random import manual_seed, randn, rand, randint, get_rng_state, set_rng_state
from .ops.shape_ops import cat, stack, split
from .ops.masking import where, tril, triu, causal_mask
from .ops.matmul import matmul
from .ops.softmax_ops import softmax, log_softmax
from .gradcheck import gradcheck, GradcheckError
from . import optim
from .serialization import save, load
from . import viz
from .profiler import profile

float32 = "float32"
float64 = "float64"
int64 = "int64"

__all__ = [
    "Context",
    "Function",
    "GradcheckError",
    "Tensor",
    "arange",
    "cat",
    "causal_mask",
    "float32",
    "float64",
    "full",
    "get_backend",
    "get_rng_state",
    "gradcheck",
    "int64",
    "is_grad_enabled",
    "load",
    "log_softmax",
    "manual_seed",
    "matmul",
    "no_grad",
    "ones",
    "ones_like",
    "optim",
    "profile",
    "rand",
    "randint",
    "randn",
    "save",
    "set_backend",
    "set_rng_state",
    "softmax",
    "split",
    "stack",
    "tensor",
    "tril",
    "triu",
    "use_backend",
    "viz",
    "where",
    "zeros",
    "zeros_like",
]

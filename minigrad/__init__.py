"""minigrad: reverse-mode autodiff on NumPy, with Numba kernels for the hot ops.

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
    "Function", "Context", "no_grad", "is_grad_enabled",
    "Tensor", "tensor", "zeros", "ones", "full", "zeros_like", "ones_like", "arange",
    "manual_seed", "randn", "rand", "randint", "get_rng_state", "set_rng_state",
    "cat", "stack", "split", "where", "tril", "triu", "causal_mask", "matmul",
    "softmax", "log_softmax", "gradcheck", "GradcheckError",
    "float32", "float64", "int64",
    "viz", "profile",
    "optim", "save", "load",
]

"""minigrad: reverse-mode autodiff on NumPy, with Numba kernels for the hot ops.

The ops run on one of two backends (``minigrad/backends/``): ``reference``
(plain NumPy) or ``fast`` (Numba kernels, the default); choose with
``MINIGRAD_BACKEND``, :func:`set_backend` or ``with use_backend(name):``.

>>> import minigrad as mg
>>> x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
>>> (x * x).sum().backward()
>>> x.grad
tensor([2., 4., 6.])
"""

# Importing minigrad changes nothing process-wide: malloc tuning, BLAS threads and
# Numba's threading layer are set when the fast kernels are first used, all in
# minigrad/kernels/runtime/settings.py (ensure_ready).
import numpy as _np

from .backends import get_backend, set_backend, use_backend
from .num_threads import get_num_threads, set_num_threads
from . import cold_start
from .grad_mode import no_grad, enable_grad, set_grad_enabled, is_grad_enabled
from .grad_mode import inference_mode
from .function import Function, Context
from . import dtypes
from .tensor import Tensor
from .device import Device as device
from .constructors import *
from .functional import *
from .random import manual_seed, get_rng_state, set_rng_state, Generator
from .ops.shapes import cat, stack
from .ops.masking import where, causal_mask
from .gradcheck import gradcheck, gradgradcheck, GradcheckError
from . import autograd
from .sampling import multinomial
from . import optim
from .serialization import save, load
from .safetensors_io import save_safetensors, load_safetensors, safetensors_metadata
from . import viz
from .profiler import profile
from .step_capture import capture, CapturedStep
from . import testing

# dtypes are NumPy dtype objects: ``x.dtype == minigrad.float32`` and ``x.to(minigrad.long)``
# work, and so do NumPy's own names (np.float32) and strings ("float32").
float32 = _np.dtype("float32")
float64 = _np.dtype("float64")
int64 = _np.dtype("int64")
int32 = _np.dtype("int32")
int16 = _np.dtype("int16")
int8 = _np.dtype("int8")
uint8 = _np.dtype("uint8")
bool = _np.dtype("bool")  # PyTorch's names: they shadow builtins in this namespace only
float = float32
double = float64
long = int64
int = int32
short = int16


# Last, as ``torch.nn`` after ``import torch``: the two libraries built on the names above.
# They import minigrad's modules (minigrad.tensor, minigrad.functional, ...), never this
# package's namespace, so this is no import cycle (tools/check_layout.py checks it).
try:
    from . import models, nn
except ImportError as _e:  # a checkout used without `pip install -e .`
    from ._repo_root import check_installed

    check_installed(_e)

# __all__ is every public name above except the submodules that are no part of the API
# (minigrad.tensor, minigrad.ops, ...) and the names that would shadow Python's builtins on
# ``from minigrad import *`` (sum, max, bool, ...): they remain attributes, ``minigrad.max(x, 1)``.
_SHADOW_BUILTINS = {"abs", "all", "any", "bool", "float", "int", "max", "min", "pow", "round",
                    "sum"}
_PUBLIC_SUBMODULES = {"autograd", "cold_start", "dtypes", "models", "nn", "optim", "step_capture",
                      "testing", "viz"}
__all__ = [name for name, value in sorted(globals().items())
           if not name.startswith("_") and name not in _SHADOW_BUILTINS
           and (not isinstance(value, type(_np)) or name in _PUBLIC_SUBMODULES)]

"""Each library's float32 matrix product, as a contender of ``matmul_floor.py``.

    with thread_env(2):                      # before the worker process starts
        worker = Worker(MatmulPeak, cfg, 0, 2e-3, "mkl", 2)
    # in the worker: matmul, as_operand = library_matmul("mkl", 2)

The libraries (pip packages from the package index):

- ``numpy``: ``numpy.matmul``, NumPy's own OpenBLAS (the ``scipy-openblas64`` build it ships);
- ``torch``: ``torch.matmul``, PyTorch's CPU GEMM (``pip install -e '.[bench]'``);
- ``openblas``: the newest OpenBLAS of the ``scipy-openblas32`` wheel, called through CBLAS;
- ``mkl``: Intel's oneMKL (the ``mkl`` wheel ships ``libmkl_rt``), called through CBLAS;
- ``blis``: BLIS as explosion's ``blis`` (cython-blis) builds it, ``blis.py.gemm``. That
  build has no threading at all, so it runs at 1 thread only.

OpenBLAS and MKL are called with ctypes (:class:`CblasGemm`): ``cblas_sgemm`` for a
matrix, ``cblas_sgemm_batch_strided`` (both libraries have it) for a batch of them, so a
batch is one call into the library, as it is for ``numpy.matmul`` and ``torch.matmul``;
``blis.py.gemm`` takes one matrix per call, so its batches are a Python loop (a few
microseconds a matrix, which the floor then counts against BLIS).

Thread counts are set twice: the environment variables every library reads when it is
loaded (:func:`thread_env`, which must be in force when the worker process starts), and
the library's own call where it has one (``torch.set_num_threads``,
``mkl_set_num_threads``, ``openblas_set_num_threads``).
"""

from __future__ import annotations

import ctypes
import importlib.metadata
import importlib.util
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np

LIBRARIES = ("numpy", "torch", "openblas", "mkl", "blis")
# the pip command that installs each library (NumPy is a dependency of minigrad)
INSTALL = {"torch": "pip install -e '.[bench]'", "openblas": "pip install scipy-openblas32",
           "mkl": "pip install mkl", "blis": "pip install blis"}
SINGLE_THREADED = {"blis"}  # built without threading: only a 1-thread contender
# read by the libraries when they load: OpenMP (torch, MKL's libiomp5), OpenBLAS, MKL, BLIS
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                    "BLIS_NUM_THREADS")

_ROW_MAJOR, _NO_TRANS = 101, 111  # CBLAS enum values, the same in OpenBLAS and MKL


def _mkl_path() -> Path | None:
    """libmkl_rt of the installed ``mkl`` wheel (it sits in the environment's lib/)."""
    try:
        dist = importlib.metadata.distribution("mkl")
    except importlib.metadata.PackageNotFoundError:
        return None
    for f in dist.files or []:
        if f.name.startswith("libmkl_rt.so") or f.name in ("mkl_rt.2.dll", "libmkl_rt.dylib"):
            return Path(dist.locate_file(f)).resolve()
    return None


def missing(library: str) -> str | None:
    """None when ``library`` can be used here, else a line naming the pip command."""
    if library not in LIBRARIES:
        raise ValueError(f"library must be one of {', '.join(map(repr, LIBRARIES))}, "
                         f"not {library!r}")
    found = {"numpy": lambda: True,
             "torch": lambda: importlib.util.find_spec("torch") is not None,
             "openblas": lambda: importlib.util.find_spec("scipy_openblas32") is not None,
             "mkl": lambda: _mkl_path() is not None,
             "blis": lambda: importlib.util.find_spec("blis") is not None}[library]()
    return None if found else f"{library} is not installed: skipped ({INSTALL[library]})"


@contextmanager
def thread_env(threads: int) -> Iterator[None]:
    """Every library's thread-count variable set to ``threads`` while the block runs (a
    worker process started inside inherits them); the previous values come back after."""
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    saved = {k: os.environ.get(k) for k in THREAD_VARIABLES}
    os.environ.update({k: str(threads) for k in THREAD_VARIABLES})
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


class CblasGemm:
    """``a @ b`` for C-contiguous float32 a (M, K), b (K, N) or batches a (L, M, K),
    b (L, K, N), through a CBLAS library loaded with ctypes (``prefix``: the symbols'
    prefix, "scipy_" for the scipy-openblas wheels)."""

    def __init__(self, path: str | Path, prefix: str = "") -> None:
        lib = ctypes.CDLL(str(path))
        i, f, p = ctypes.c_int, ctypes.c_float, ctypes.c_void_p  # LP64: 32-bit ints
        self._gemm = getattr(lib, prefix + "cblas_sgemm")
        self._gemm.argtypes = [i] * 6 + [f, p, i, p, i, f, p, i]
        self._gemm.restype = None
        self._batch = getattr(lib, prefix + "cblas_sgemm_batch_strided")
        self._batch.argtypes = [i] * 6 + [f, p, i, i, p, i, i, f, p, i, i, i]
        self._batch.restype = None
        self.lib = lib

    def __call__(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """The product, a new C-contiguous float32 array."""
        if a.dtype != np.float32 or b.dtype != np.float32 or not a.flags.c_contiguous \
                or not b.flags.c_contiguous or a.ndim != b.ndim or a.ndim not in (2, 3) \
                or a.shape[:-2] != b.shape[:-2] or a.shape[-1] != b.shape[-2]:
            raise ValueError(f"CblasGemm takes C-contiguous float32 (M, K) @ (K, N) or "
                             f"(L, M, K) @ (L, K, N), got {a.dtype}{a.shape} @ "
                             f"{b.dtype}{b.shape}")
        M, K = a.shape[-2:]
        N = b.shape[-1]
        out = np.empty(a.shape[:-2] + (M, N), dtype=np.float32)
        if a.ndim == 2:
            self._gemm(_ROW_MAJOR, _NO_TRANS, _NO_TRANS, M, N, K, 1.0, a.ctypes.data, K,
                       b.ctypes.data, N, 0.0, out.ctypes.data, N)
        else:
            self._batch(_ROW_MAJOR, _NO_TRANS, _NO_TRANS, M, N, K, 1.0, a.ctypes.data, K,
                        M * K, b.ctypes.data, N, K * N, 0.0, out.ctypes.data, N, M * N,
                        a.shape[0])
        return out


def _mkl(threads: int) -> tuple[CblasGemm, str]:
    lib = ctypes.CDLL(str(_mkl_path()))
    # 32-bit integers, as CblasGemm passes them, whatever MKL_INTERFACE_LAYER says
    # (mkl_set_interface_layer must come before any other MKL call; 0 is MKL_INTERFACE_LP64)
    lib.MKL_Set_Interface_Layer(0)
    gemm = CblasGemm(_mkl_path())
    gemm.lib.MKL_Set_Num_Threads(threads)
    buf = ctypes.create_string_buffer(256)
    gemm.lib.mkl_get_version_string(buf, len(buf))
    version = re.search(r"Version (\S+?)-", buf.value.decode())  # "... Version 2026.2-Product"
    return gemm, f"oneMKL {version.group(1) if version else '(version unknown)'}"


def _openblas(threads: int) -> tuple[CblasGemm, str]:
    import scipy_openblas32 as wheel

    gemm = CblasGemm(Path(wheel.get_lib_dir()) / wheel.get_library(fullname=True), "scipy_")
    gemm.lib.scipy_openblas_set_num_threads(threads)
    gemm.lib.scipy_openblas_get_config.restype = ctypes.c_char_p
    return gemm, gemm.lib.scipy_openblas_get_config().decode()


def _blis(threads: int) -> tuple[Callable[..., object], str]:
    if threads != 1:
        raise ValueError("the blis package is built without threading: 1 thread only")
    from blis.py import gemm

    def matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if a.ndim == 2:
            return gemm(a, b, out=np.empty((a.shape[0], b.shape[1]), np.float32), beta=0.0)
        out = np.empty(a.shape[:-1] + b.shape[-1:], np.float32)
        for i in range(a.shape[0]):
            gemm(a[i], b[i], out=out[i], beta=0.0)
        return out

    return matmul, f"cython-blis {importlib.metadata.version('blis')}, no threading"


def library_matmul(library: str, threads: int
                   ) -> tuple[Callable[..., object], Callable[[np.ndarray], object], str]:
    """(matmul, as_operand, description) of ``library`` on ``threads`` threads: ``matmul``
    takes two operands made by ``as_operand`` from float32 NumPy arrays; ``np.asarray`` of
    its result is the product. Call it in the process that will time it, started inside
    :func:`thread_env` (NumPy's OpenBLAS takes its thread count from there alone)."""
    message = missing(library)
    if message is not None:
        raise ValueError(message)
    if library == "numpy":
        try:  # NumPy >= 1.26
            blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
            description = f"{blas['name']} {blas['version']}"
        except (TypeError, KeyError):
            description = f"NumPy {np.__version__}'s BLAS"
        return np.matmul, np.asarray, description
    if library == "torch":
        import torch

        torch.set_num_threads(threads)
        return torch.matmul, torch.from_numpy, f"torch {torch.__version__}"
    matmul, description = {"mkl": _mkl, "openblas": _openblas, "blis": _blis}[library](threads)
    return matmul, np.asarray, description

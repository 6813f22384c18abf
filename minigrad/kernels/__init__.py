"""Numba kernels for the hot ops, each file beside a plain NumPy reference.

Every kernel is ``@njit(cache=True)``, works on float32 and float64, and reads
only inside the arrays it is given: callers check shapes and index ranges
before a kernel runs. Tests hold each kernel equal to its reference.
"""

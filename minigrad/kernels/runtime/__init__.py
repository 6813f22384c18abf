"""The process machinery the kernels run on, kept apart from the kernels themselves.

- ``settings.py``: every process-wide setting minigrad makes (malloc, BLAS threads,
  Numba's threading layer, a fork handler), applied once when a kernel first runs;
- ``threads.py``: who uses the cores (Numba's threads, each BLAS call on one thread);
- ``malloc.py``: glibc's malloc keeps freed memory for the next training step;
- ``disk_cache.py``: Numba's on-disk cache of compiled kernels (use it without
  compiling, announce what compiles);
- ``cache_location.py``: where Numba caches the compiled kernels (the user's cache folder,
  never inside the installed package);
- ``float32_bits.py``: float32 helpers the kernels share (a Cephes ``expf``, row max by
  integer order keys, LLVM intrinsics for fused multiply-add and reassociation).

Importing this package imports none of them; ``import minigrad`` never imports it.
"""

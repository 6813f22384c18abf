"""Differential testing of minigrad against PyTorch's own op database (OpInfo).

PyTorch tests itself with ``torch.testing._internal.common_methods_invocations.op_db``:
one ``OpInfo`` per op (and per variant, e.g. ``div.trunc_rounding``), each with a
``sample_inputs(device, dtype)`` generator of ``SampleInput(input, args, kwargs)``. This
package runs those samples through minigrad's counterpart of each op and compares forward
values, dtypes and shapes, float64 gradients and second derivatives.

- ``op_map.py``: which minigrad callable stands for which OpInfo, and how a sample's
  torch objects become minigrad ones;
- ``runner.py``: one sample -> one outcome (pass or a failure category);
- ``differences.py``: the short table of deliberate differences and the separate table
  of known bugs (each an expected failure until fixed);
- ``test_opinfo.py``: the pytest run, one test per op; ``report.py``: the full count table.
"""

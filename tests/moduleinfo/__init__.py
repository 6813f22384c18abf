"""Differential testing of minigrad's ``nn`` modules against PyTorch's module database.

PyTorch tests its modules with ``torch.testing._internal.common_modules.module_db``: one
``ModuleInfo`` per class, whose ``module_inputs_func`` gives ``ModuleInput``s (constructor
arguments and forward arguments). This package builds each module in both libraries with
the same constructor arguments, loads PyTorch's parameters and buffers into minigrad's
through ``load_state_dict`` (strict: PyTorch's names are the contract), runs the forward on
equal inputs in float32 and float64, train and eval mode, and compares values, dtypes,
shapes and the float64 gradients with respect to the inputs and the parameters.

- ``module_map.py``: which ModuleInfos run (every class ``minigrad.nn`` has by name);
- ``runner.py``: one ModuleInput -> one outcome (the categories of ``tests/opinfo``);
- ``differences.py``: the short table of deliberate differences;
- ``test_moduleinfo.py``: the pytest run, one test per class; ``report.py``: the count table.

It shares the comparison, conversion and tables machinery of ``tests/opinfo``.
"""

import sys
from pathlib import Path

# ``python -m tests.moduleinfo.report`` imports this package as ``tests.moduleinfo``; pytest
# puts ``tests/`` on the path and imports it as ``moduleinfo``. Either way the shared
# ``opinfo`` package is imported by that name.
_TESTS = str(Path(__file__).resolve().parents[1])
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

"""Differential testing of ``minigrad.optim`` against PyTorch's own optimizer database.

PyTorch tests its optimizers with ``torch.testing._internal.common_optimizers.optim_db``:
one ``OptimizerInfo`` per optimizer class, whose ``optim_inputs_func`` lists configs
(``OptimizerInput(params, kwargs, desc)``). This package runs every config of every class
minigrad has through both libraries and compares trajectories and state dicts, both ways.

- ``runner.py``: one config -> one outcome (pass or a failure category);
- ``differences.py``: the short table of deliberate differences;
- ``test_optim_db.py``: the pytest run, one test per class; ``report.py``: the count table;
- ``test_lr_schedulers.py``: every learning-rate scheduler's rates against torch's;
- ``test_lbfgs_line_search.py``: LBFGS where its line search has to work (Rosenbrock).
"""

"""One call of a minigrad module and its PyTorch counterpart on the same inputs: forward
values, dtype and shape, and in float64 the gradients of every input and parameter."""

from __future__ import annotations

from typing import Any

import numpy as np

import minigrad


def compare_with_torch(theirs: Any, mine: Any, arrays: list, kwargs: dict, tol: dict,
                       rng: np.random.Generator, msg: str) -> tuple:
    """Call both modules on ``arrays`` (positional inputs) and ``kwargs`` (ndarrays become
    tensors); assert their first outputs agree to ``tol`` and, for float64 inputs, that
    backward of one random cotangent gives the same gradients to the inputs and to the
    parameters (matched by PyTorch's names). Returns (mine's result, theirs' result)."""
    import torch
    tin = [torch.tensor(a, requires_grad=True) for a in arrays]
    min_ = [minigrad.Tensor(a, requires_grad=True) for a in arrays]
    t_res = theirs(*tin, **{k: torch.tensor(v) if isinstance(v, np.ndarray) else v
                            for k, v in kwargs.items()})
    m_res = mine(*min_, **kwargs)
    t_out = t_res[0] if isinstance(t_res, tuple) else t_res
    m_out = m_res[0] if isinstance(m_res, tuple) else m_res
    assert m_out.dtype == arrays[0].dtype and m_out.shape == tuple(t_out.shape), msg
    np.testing.assert_allclose(m_out.numpy(), t_out.detach().numpy(), **tol, err_msg=msg)
    if arrays[0].dtype == np.float64:
        g = rng.standard_normal(m_out.shape)
        t_out.backward(torch.tensor(g))
        m_out.backward(minigrad.Tensor(g))
        for a, b in zip(min_, tin):
            np.testing.assert_allclose(a.grad, b.grad.numpy(), **tol, err_msg=msg)
        params = dict(mine.named_parameters())
        for name, p in theirs.named_parameters():
            np.testing.assert_allclose(params[name].grad, p.grad.numpy(), **tol,
                                       err_msg=f"{msg}: {name}")
        mine.zero_grad()
        theirs.zero_grad()
    return m_res, t_res

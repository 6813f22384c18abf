"""``requires_grad`` changes only on leaves (PyTorch's rule): turning it off on an op's output
would silently drop that branch from every backward, so it is refused; turning it on, where it
is already on, is allowed. ``detach()`` is the way to use a computed value without its graph.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import minigrad as mg

try:  # PyTorch, where installed, is checked to do the same
    import torch
except ImportError:
    torch = None

MESSAGE = ("you can only change requires_grad flags of leaf variables. If you want to use a "
           "computed variable in a subgraph that doesn't require differentiation use "
           "var_no_grad = var.detach().")
TURN_OFF = {
    "requires_grad_(False)": lambda h: h.requires_grad_(False),
    "requires_grad = False": lambda h: setattr(h, "requires_grad", False),
}


@pytest.mark.parametrize("how", sorted(TURN_OFF))
def test_turning_off_on_a_non_leaf_is_refused_and_the_branch_kept(how):
    libs = (mg, torch) if torch is not None else (mg,)
    for lib in libs:
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        h = x * x
        with pytest.raises(RuntimeError, match=re.escape(MESSAGE)):
            TURN_OFF[how](h)
        assert h.requires_grad and not h.is_leaf
        (h + x * x).sum().backward()
        np.testing.assert_allclose(np.asarray(x.grad.numpy()), [4.0, 8.0], err_msg=lib.__name__)


def test_turning_on_where_it_is_on_is_allowed():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3.0
    assert h.requires_grad_(True) is h and h.requires_grad and not h.is_leaf
    h.requires_grad = True
    h.sum().backward()
    np.testing.assert_allclose(x.grad.data, [3.0, 3.0])


def test_leaves_change_freely_and_detach_is_the_way_out():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    x.requires_grad_(False)
    assert not x.requires_grad
    x.requires_grad = True
    h = (x * x).detach()
    h.requires_grad_(False)  # a detached tensor is a leaf
    assert h.is_leaf and not h.requires_grad


def test_an_inplace_write_keeps_the_output_flag_consistent():
    """Internal code sets the flag of op outputs through the private slot, never the setter."""
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1.0
    h.mul_(2.0)
    assert h.requires_grad and not h.is_leaf
    with pytest.raises(RuntimeError, match="only change requires_grad flags of leaf"):
        h.requires_grad_(False)

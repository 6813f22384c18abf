"""The OpInfo harness itself: each failure category is detected, and the tables' verdicts.

Each case pairs a torch op with a minigrad function that is wrong in exactly one way, on a
hand-made OpInfo-like object, so a harness that stopped comparing something would fail here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

torch = pytest.importorskip("torch")

import minigrad

from .differences import Entry, judge
from .op_map import load_op_db
from .runner import (
    CRASH,
    PASS,
    REFUSED,
    WRONG_DTYPE,
    WRONG_GRAD,
    WRONG_GRADGRAD,
    WRONG_SHAPE,
    WRONG_VALUE,
    Outcome,
    run_op,
)

load_op_db()  # registers the expecttest stand-in when needed
from torch.testing._internal.opinfo.core import SampleInput


@dataclass
class FakeInfo:
    """The part of an OpInfo the runner reads."""

    op: Any
    kwargs: dict = field(default_factory=dict)
    full_name: str = "fake"
    name: str = "fake"
    supports_autograd: bool = True
    supports_gradgrad: bool = True

    def supported_dtypes(self, device: str) -> set:
        return {torch.float32, torch.float64}

    def sample_inputs(self, device: str, dtype: torch.dtype, requires_grad: bool = False):
        x = torch.linspace(0.1, 0.9, 6, dtype=dtype).reshape(2, 3)
        yield SampleInput(x.requires_grad_(requires_grad), kwargs=self.kwargs)


def _straight_through(value: Any, grad_path: Any) -> Any:
    """``value`` in the forward, the gradient of ``grad_path`` in the backward."""
    return value.detach() + (grad_path - grad_path.detach())


def _raise(x: Any) -> Any:
    raise ValueError("boom")


CASES = [
    (torch.exp, minigrad.exp, {}, PASS),
    (torch.exp, lambda x: minigrad.exp(x) + 1e-3, {}, WRONG_VALUE),
    (torch.exp, lambda x: minigrad.exp(x).double() if x.dtype == minigrad.float32
     else minigrad.exp(x).float(), {}, WRONG_DTYPE),
    (torch.exp, lambda x: minigrad.exp(x).reshape(-1), {}, WRONG_SHAPE),
    (torch.exp, _raise, {}, CRASH),
    (lambda x, scale: x * scale, lambda x: x * 2.0, {"scale": 2.0}, REFUSED),
    # exp(x) forward, 2x's gradient backward
    (torch.exp, lambda x: _straight_through(minigrad.exp(x), 2 * x), {}, WRONG_GRAD),
    # x*x forward and first derivative (2x), but a first derivative that has no x in its graph
    (lambda x: x * x, lambda x: x * x.detach() + (x - x.detach()) * x.detach(), {},
     WRONG_GRADGRAD),
]


@pytest.mark.parametrize("torch_op, mg_op, kwargs, expected", CASES)
def test_each_category_is_detected(torch_op, mg_op, kwargs, expected) -> None:
    outcomes = run_op(FakeInfo(torch_op, kwargs), mg_op, (torch.float32, torch.float64))
    categories = {o.dtype: o.category for o in outcomes}
    if expected in (WRONG_GRAD, WRONG_GRADGRAD):  # float64 samples only are differentiated
        assert categories == {"float32": PASS, "float64": expected}
    else:
        assert categories == {"float32": expected, "float64": expected}


def test_ties_in_sort_indices_are_not_a_difference() -> None:
    """Equal values may come back in any order: indices are compared through the values."""
    info = next(i for i in load_op_db() if i.full_name == "argsort")

    class Tied(FakeInfo):
        def sample_inputs(self, device, dtype, requires_grad=False):
            yield SampleInput(torch.tensor([3, 1, 3, 1, 2]), args=(0,))

    def reversed_ties(x: Any, dim: int) -> Any:
        return minigrad.tensor([3, 1, 4, 0, 2])  # ties in the other order than torch's

    fake = Tied(info.op, full_name="argsort", name="argsort", supports_autograd=False)
    fake.supported_dtypes = lambda device: {torch.int64}
    assert [o.category for o in run_op(fake, reversed_ties, (torch.int64,))] == [PASS]


def _outcome(category: str, index: int = 0, kwargs: tuple = ()) -> Outcome:
    return Outcome("exp", "float32", index, category, "detail", "sample", kwargs)


def test_judge_sorts_failures_against_the_tables(monkeypatch) -> None:
    from . import differences

    known = Entry("exp", CRASH, "[x] a known crash", kwarg="device")
    deliberate = Entry("exp", REFUSED, "[y] deliberate")
    stale = Entry("exp", WRONG_VALUE, "[z] fixed long ago")
    monkeypatch.setattr(differences, "KNOWN_BUGS", [known, stale])
    monkeypatch.setattr(differences, "DIFFERENCES", [deliberate])
    outcomes = [_outcome(PASS), _outcome(CRASH, 1, ("device",)), _outcome(CRASH, 2),
                _outcome(REFUSED, 3)]
    verdict = judge("exp", outcomes, ("float32",))
    assert [o.index for o in verdict.unexpected] == [2]
    assert [o.index for o in verdict.deliberate] == [3]
    assert {e: [o.index for o in os] for e, os in verdict.known.items()} == {known: [1]}
    assert verdict.stale == [stale]

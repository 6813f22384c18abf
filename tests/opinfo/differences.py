"""The two tables every non-passing OpInfo sample must appear in.

- ``DIFFERENCES``: deliberate differences from PyTorch, each with its reason. Keep it short:
  a difference a PyTorch user would trip on is a bug, not an entry.
- ``KNOWN_BUGS``: failures not fixed yet. Each is an expected failure (``xfail(strict=True)``)
  of its op's test: the test fails when a listed failure stops happening, so a fix must
  delete its entry (and a new failure is never hidden behind an old one).

An entry matches an outcome (``runner.Outcome``) by op (OpInfo ``full_name``), category,
and optionally dtypes, sample indices (positions in ``sample_inputs(dtype)``), the name of a
keyword argument the sample passes, or a piece of the outcome's detail text. Reasons start
with the mechanism in brackets; ``FINDINGS.md`` groups them by it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .runner import (
    CRASH,
    REFUSED,
    WRONG_DTYPE,
    WRONG_GRAD,
    WRONG_VALUE,
    Outcome,
)


@dataclass(frozen=True)
class Entry:
    """Samples of ``op`` whose outcome is ``category`` for the reason ``reason``."""

    op: str
    category: str
    reason: str
    dtypes: tuple[str, ...] | None = None
    samples: tuple[int, ...] | None = None
    kwarg: str | None = None
    detail: str | None = None

    def matches(self, o: Outcome) -> bool:
        """Whether outcome ``o`` is one this entry accounts for."""
        return (o.op == self.op and o.category == self.category
                and (self.dtypes is None or o.dtype in self.dtypes)
                and (self.samples is None or o.index in self.samples)
                and (self.kwarg is None or self.kwarg in o.kwargs)
                and (self.detail is None or self.detail in o.detail))


def _each(ops: str, category: str, reason: str, **match) -> list[Entry]:
    return [Entry(op, category, reason, **match) for op in ops.split()]


FLOATS = ("float32", "float64")
INTS = ("int64", "int32", "int16", "int8", "uint8", "uint16", "uint32", "uint64")

# ---- deliberate differences -------------------------------------------------------------
DIFFERENCES: list[Entry] = [
    *_each("bool double float int long", REFUSED,
           "[layout] minigrad tensors are NumPy arrays with one layout: no memory_format=",
           kwarg="memory_format"),
    *_each("matmul __rmatmul__ bmm nn.functional.linear", CRASH,
           "[BLAS] products run on BLAS, which has no integer kernels: integer operands raise "
           "a TypeError naming the dtypes", dtypes=INTS, detail="TypeError"),
    *_each("any all", WRONG_DTYPE, "[dtype rule] any/all of uint8 give uint8 in PyTorch (kept "
                                   "there for compatibility); minigrad gives bool for every dtype",
           dtypes=("uint8",)),
    # shape, reduction and linear-algebra ops
    Entry("nn.functional.softmin.with_dtype", WRONG_VALUE,
          "[PyTorch meaning] softmin of a uint8 tensor with dtype=: PyTorch negates in uint8 "
          "first (-x wraps around to 256 - x), then casts; minigrad casts first and gives "
          "softmax(-x), the softmin of the values given", dtypes=("uint8",)),
    *_each("mm mv dot addmm addmm.decomposed baddbmm", CRASH,
           "[BLAS] products run on BLAS, which has no integer kernels: integer operands raise "
           "a TypeError naming the dtypes", dtypes=INTS, detail="TypeError"),
    Entry("nn.functional.local_response_norm", WRONG_VALUE,
          "[PyTorch meaning] an integer input: PyTorch averages the squares with its integer "
          "avg_pool, which truncates each average; minigrad averages in floating point, the "
          "normalisation's own definition", dtypes=INTS),
    Entry("nn.functional.batch_norm", CRASH,
          "[shape] a 1-d input has no channel dimension: minigrad refuses it by name (PyTorch "
          "accepts only an empty one, and for a non-empty one says its running_mean 'should "
          "contain 0 elements')", detail="at least 2 dims"),
    Entry("nn.functional.ctc_loss", WRONG_GRAD,
          "[PyTorch meaning] PyTorch's kernel returns, as the gradient with respect to "
          "log_probs, the gradient with respect to the logits under log_softmax (the true one "
          "plus exp(log_probs)); minigrad returns the derivative of the loss it computes. The "
          "two agree through log_softmax, which ctc_loss's inputs are meant to come from "
          "(tests/nn/test_ctc_loss.py); OpInfo's samples are not normalised"),
    *_each("nn.functional.conv1d nn.functional.conv2d nn.functional.conv3d "
           "nn.functional.conv_transpose1d nn.functional.conv_transpose2d "
           "nn.functional.conv_transpose3d", CRASH,
           "[BLAS] a convolution is a product of windows and weight on BLAS, which has no "
           "integer kernels: integer operands raise a TypeError naming the dtypes",
           dtypes=INTS, detail="TypeError"),
]

# ---- known bugs (expected failures until fixed; delete an entry with its fix) -----------
KNOWN_BUGS: list[Entry] = [
    # missing options of an existing op
    # PyTorch meanings
    # gradients
]


@dataclass
class Verdict:
    """One op's outcomes sorted against the tables."""

    unexpected: list[Outcome]
    deliberate: list[Outcome]
    known: dict[Entry, list[Outcome]]
    stale: list[Entry]


def judge(op: str, outcomes: list[Outcome], dtypes_run: tuple[str, ...],
          differences: list[Entry] | None = None, known_bugs: list[Entry] | None = None,
          passing: tuple[str, ...] = ("pass", "not applicable")) -> Verdict:
    """Sort ``op``'s failing outcomes (every category but ``passing``) into deliberate
    differences, known bugs and unexpected failures; a table entry of ``op`` (for one of
    ``dtypes_run``) that matches none of them is stale (fixed, or its failure changed
    category). The tables default to this module's (the OpInfo run's)."""
    differences = DIFFERENCES if differences is None else differences
    known_bugs = KNOWN_BUGS if known_bugs is None else known_bugs
    failures = [o for o in outcomes if o.category not in passing]
    entries = [e for e in differences + known_bugs if e.op == op]
    hits: dict[Entry, list[Outcome]] = {e: [] for e in entries}
    verdict = Verdict([], [], {}, [])
    for o in failures:
        entry = next((e for e in entries if e.matches(o)), None)
        if entry is None:
            verdict.unexpected.append(o)
        else:
            hits[entry].append(o)
    for e, matched in hits.items():
        if not matched:
            if e.dtypes is None or set(e.dtypes) & set(dtypes_run):
                verdict.stale.append(e)
        elif e in differences:
            verdict.deliberate.extend(matched)
        else:
            verdict.known[e] = matched
    return verdict

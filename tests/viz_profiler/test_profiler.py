"""minigrad.profile(): per-op counts and times, and nothing left behind after exit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
from minigrad.function import Function
from minigrad.ops.elementwise import Mul
from minigrad.profiler import OpStats, is_profiling


def _abc():
    a = mg.randn(3, 4, requires_grad=True)
    b = mg.randn(3, 4, requires_grad=True)
    c = mg.randn(4, requires_grad=True)
    return a, b, c


def test_counts_match_a_known_graph_forward_only():
    a, b, c = _abc()
    with mg.profile() as prof:
        (a * b + c).sum()
    stats = prof.stats()
    assert set(stats) == {"Mul", "Add", "Sum"}
    for name in ("Mul", "Add", "Sum"):
        assert stats[name].calls == 1
        assert stats[name].backward_calls == 0
        assert stats[name].backward_s == 0.0
        assert stats[name].forward_s > 0.0


def test_backward_times_are_recorded():
    a, b, c = _abc()
    with mg.profile() as prof:
        loss = (a * b + c).sum()
        loss.backward()
    stats = prof.stats()
    assert {k: (v.calls, v.backward_calls) for k, v in stats.items()} == {
        "Mul": (1, 1), "Add": (1, 1), "Sum": (1, 1)
    }
    assert all(v.backward_s > 0.0 for v in stats.values())
    assert prof.total_s() == pytest.approx(sum(v.total_s for v in stats.values()))
    assert prof.wall_s >= prof.total_s()
    # the gradients are still right under the timed versions
    np.testing.assert_allclose(a.grad, b.data, rtol=1e-6)
    np.testing.assert_allclose(c.grad, np.full(4, 3.0), rtol=1e-6)


def test_repeated_ops_accumulate():
    x = mg.randn(5, requires_grad=True)
    with mg.profile() as prof:
        y = x
        for _ in range(7):
            y = y.tanh()
        y.sum().backward()
    s = prof.stats()
    assert s["Tanh"].calls == 7 and s["Tanh"].backward_calls == 7
    assert s["Sum"].calls == 1


def test_ops_without_grad_are_counted_forward_only():
    a, b, _ = _abc()
    with mg.profile() as prof:
        with mg.no_grad():
            a * b
        mg.tensor([1.0, 2.0]) * 3.0  # no input requires grad
    assert prof.stats()["Mul"].calls == 2
    assert prof.stats()["Mul"].backward_calls == 0


def test_profiler_is_off_after_exit():
    apply_before = Function.__dict__["apply"]
    mul_bwd = Mul.__dict__["backward"]
    a, b, c = _abc()
    with mg.profile() as prof:
        assert is_profiling()
        assert Function.__dict__["apply"] is not apply_before
        assert Mul.__dict__["backward"] is not mul_bwd
        (a * b).sum().backward()
    assert not is_profiling()
    assert Function.__dict__["apply"] is apply_before
    assert Mul.__dict__["backward"] is mul_bwd
    before = prof.stats()
    (a * b + c).sum().backward()  # not recorded any more
    assert prof.stats() == before


def test_restores_on_exception():
    apply_before = Function.__dict__["apply"]
    with pytest.raises(ValueError, match="cannot be broadcast"), mg.profile():
        mg.randn(2, 3, requires_grad=True) + mg.randn(4, requires_grad=True)
    assert Function.__dict__["apply"] is apply_before
    assert not is_profiling()


def test_nested_profiles_are_refused_and_outer_still_restores():
    apply_before = Function.__dict__["apply"]
    with mg.profile() as outer:
        with pytest.raises(RuntimeError, match="already active"), mg.profile():
            pass
        assert is_profiling()
        mg.randn(2, requires_grad=True).exp()
    assert outer.stats()["Exp"].calls == 1
    assert Function.__dict__["apply"] is apply_before


def test_a_profile_object_cannot_be_reentered_while_active():
    prof = mg.profile()
    with prof, pytest.raises(RuntimeError):
        prof.__enter__()
    assert not is_profiling()


def test_inherited_backward_is_timed_and_inheritance_restored():
    class Double(Function):
        @staticmethod
        def forward(ctx, x):
            return 2 * x

        @staticmethod
        def backward(ctx, grad):
            # d(2x)/dx = 2
            return 2 * grad

    class DoubleAgain(Double):  # inherits forward and backward
        pass

    x = mg.randn(3, requires_grad=True)
    with mg.profile() as prof:
        DoubleAgain.apply(Double.apply(x)).sum().backward()
    s = prof.stats()
    assert (s["Double"].calls, s["Double"].backward_calls) == (1, 1)
    assert (s["DoubleAgain"].calls, s["DoubleAgain"].backward_calls) == (1, 1)
    assert "backward" not in DoubleAgain.__dict__
    assert DoubleAgain.backward is Double.backward
    np.testing.assert_allclose(x.grad, np.full(3, 4.0))


def test_table_lists_ops_sorted_and_limited():
    a, b, c = _abc()
    with mg.profile() as prof:
        for _ in range(3):
            (a * b + c).sum().backward()
        (a * 2.0).sum()
    table = prof.table()
    for word in ("Name", "Calls", "Fwd ms", "Bwd ms", "Total ms", "%", "Mul", "Add", "Sum"):
        assert word in table
    by_calls = prof.table(sort_by="calls")
    names = [line.split()[0] for line in by_calls.splitlines() if line.split()
             and line.split()[0] in ("Mul", "Add", "Sum")]
    assert names[:2] == ["Mul", "Sum"]  # 4 calls each; ties are broken by name
    by_name = prof.table(sort_by="name")
    rows = [line.split()[0] for line in by_name.splitlines()
            if line.split() and line.split()[0] in ("Mul", "Add", "Sum")]
    assert rows == ["Add", "Mul", "Sum"]
    limited = prof.table(row_limit=1)
    assert "2 more ops not shown" in limited
    mul_row = next(line for line in table.splitlines() if line.startswith("Mul"))
    assert mul_row.split()[1:3] == ["4", "3"]  # 4 forward calls, 3 backward calls
    percents = [float(line.split()[-1].rstrip("%")) for line in table.splitlines()
                if line.split() and line.split()[0] in ("Mul", "Add", "Sum")]
    assert sum(percents) == pytest.approx(100.0, abs=0.2)


def test_table_rejects_bad_arguments():
    with mg.profile() as prof:
        pass
    with pytest.raises(ValueError, match="sort_by"):
        prof.table(sort_by="speed")
    with pytest.raises(ValueError, match="row_limit"):
        prof.table(row_limit=0)
    assert "0 op calls" in prof.table()


def test_opstats_total():
    assert OpStats(2, 0.5, 1, 0.25).total_s == 0.75


@settings(max_examples=20, deadline=None)
@given(st.lists(st.sampled_from(["exp", "tanh", "sigmoid", "neg"]), min_size=1, max_size=12))
def test_counts_match_a_random_chain(names):
    x = mg.randn(4, requires_grad=True)
    # exp(exp(exp(x))) overflows to inf (and inf - inf to nan): harmless here, only the
    # op counts are checked, so NumPy's warnings about it are silenced
    with mg.profile() as prof, np.errstate(over="ignore", invalid="ignore"):
        y = x
        for n in names:
            y = -y if n == "neg" else getattr(y, n)()
        y.sum().backward()
    expected = {"Exp": 0, "Tanh": 0, "Sigmoid": 0, "Neg": 0}
    for n in names:
        expected[n.capitalize()] += 1
    s = prof.stats()
    for op, n in expected.items():
        got = (s[op].calls, s[op].backward_calls) if op in s else (0, 0)
        assert got == (n, n)
    assert s["Sum"].calls == 1


def test_kernel_compile_and_cache_load_are_reported_apart(monkeypatch):
    """Time inside Numba's compiler lock (a kernel compiling or loading from the cache) is
    taken out of the op's time and reported on its own line. A fake clock makes the
    seconds exact: 1 s of work around 5 s inside the lock (nested holds count once)."""
    pytest.importorskip("numba")
    from types import SimpleNamespace

    from numba.core import event

    from minigrad import profiler

    now = [0.0]
    monkeypatch.setattr(profiler, "time", SimpleNamespace(perf_counter=lambda: now[0]))

    class Loads(Function):
        @staticmethod
        def forward(ctx, x):
            now[0] += 0.5
            event.start_event("numba:compiler_lock")
            event.start_event("numba:compiler_lock")  # the lock is re-entrant
            now[0] += 5.0
            event.end_event("numba:compiler_lock")
            event.end_event("numba:compiler_lock")
            now[0] += 0.5
            return 2 * x

        @staticmethod
        def backward(ctx, grad):
            # d(2x)/dx = 2
            now[0] += 0.25
            return 2 * grad

    x = mg.randn(3, requires_grad=True)
    with mg.use_backend("fast"), mg.profile() as prof:
        Loads.apply(x).sum().backward()
    s = prof.stats()["Loads"]
    assert (s.forward_s, s.backward_s, s.load_s) == (1.0, 0.25, 5.0)
    assert prof.load_s() == 5.0 and prof.total_s() == pytest.approx(1.25)
    assert prof.stats()["Sum"].load_s == 0.0
    assert "Kernel compile / cache load (one-time, not in the op times above, in the wall " \
           "time): 5000.000 ms (Loads 5000.0 ms)" in prof.table()
    with mg.profile() as quiet:  # outside a profile nothing listens: the lock is not timed
        pass
    event.start_event("numba:compiler_lock")
    now[0] += 3.0
    event.end_event("numba:compiler_lock")
    assert quiet.load_s() == 0.0 and "Kernel compile" not in quiet.table()

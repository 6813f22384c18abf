"""Grad mode is per thread (as PyTorch): ``no_grad`` in one thread leaves others recording."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

import minigrad as mg


def _in_thread(fn):
    """Run ``fn`` in a new thread; return its result (its exception propagates)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(fn).result()


def test_no_grad_in_one_thread_does_not_stop_another_threads_graph():
    inside = threading.Event()
    release = threading.Event()
    results = {}

    def evaluator():
        with mg.no_grad():
            inside.set()
            release.wait(10)
            results["eval_enabled"] = mg.is_grad_enabled()

    t = threading.Thread(target=evaluator)
    t.start()
    assert inside.wait(10)
    try:
        # the other thread sits inside no_grad(): this thread still records
        x = mg.tensor([1.0, 2.0], requires_grad=True)
        y = (x * x).sum()
        assert mg.is_grad_enabled() and y.requires_grad
        y.backward()
        assert x.grad.tolist() == [2.0, 4.0]
    finally:
        release.set()
        t.join()
    assert results["eval_enabled"] is False
    assert mg.is_grad_enabled()


def test_new_thread_starts_with_grad_enabled_even_under_no_grad():
    with mg.no_grad():
        assert _in_thread(mg.is_grad_enabled) is True
        assert not mg.is_grad_enabled()


def test_enable_grad_inside_no_grad_records():
    x = mg.tensor([3.0], requires_grad=True)
    with mg.no_grad():
        with mg.enable_grad():
            y = x * x
        z = x * x
    assert y.requires_grad and not z.requires_grad
    y.backward()
    assert float(x.grad) == 6.0


def test_set_grad_enabled_as_function_and_context_manager():
    x = mg.tensor([1.0], requires_grad=True)
    with mg.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    assert mg.is_grad_enabled()
    mg.set_grad_enabled(False)
    try:
        assert not mg.is_grad_enabled() and not (x * 2).requires_grad
    finally:
        mg.set_grad_enabled(True)
    assert (x * 2).requires_grad


def test_decorators_restore_the_mode_even_on_error():
    @mg.no_grad()
    def f():
        assert not mg.is_grad_enabled()
        raise KeyError("boom")

    @mg.set_grad_enabled(False)
    def g():
        return mg.is_grad_enabled()

    with pytest.raises(KeyError):
        f()
    assert mg.is_grad_enabled()
    assert g() is False and mg.is_grad_enabled()
    with mg.no_grad():
        assert mg.enable_grad()(mg.is_grad_enabled)() is True
        assert not mg.is_grad_enabled()


def test_matches_torch_grad_mode_api():
    torch = pytest.importorskip("torch")
    for name in ("no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled"):
        assert hasattr(torch, name) and hasattr(mg, name)


def test_threads_running_ops_at_once_each_keep_their_own_mode_and_results():
    errors = []
    barrier = threading.Barrier(2)

    def work(record: bool):
        try:
            barrier.wait(10)
            x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
            with mg.set_grad_enabled(record):
                for _ in range(300):
                    y = (x * 2.0 + 1.0).tanh().sum()
                    assert y.requires_grad is record and mg.is_grad_enabled() is record
            if record:
                y.backward()
                assert x.grad is not None
        except Exception as e:  # noqa: BLE001 - handed to the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(flag,)) for flag in (True, False)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors

"""The DataLoader with worker processes: the same batches as in one process, the workers'
seeds and get_worker_info, IterableDataset sharding, errors that name the sample and the
worker, and no process left behind (end of pass, break, an exception, garbage collection,
KeyboardInterrupt, a timeout, a dead worker)."""

from __future__ import annotations

import faulthandler
import gc
import multiprocessing
import os
import pickle
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import minigrad as mg
from minigrad.utils.data import DataLoader, Dataset, IterableDataset, get_worker_info

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(autouse=True)
def no_children_left():
    """Every test: no child process of this one outlives it (processes other tests
    started, such as a background compiler, are not this test's)."""
    before = {p.pid for p in multiprocessing.active_children()}
    yield
    left = [p for p in multiprocessing.active_children() if p.pid not in before]
    assert left == [], f"a worker outlived its test: {left}"


@pytest.fixture
def ctrl_c_delivered():
    """Ctrl-C raising KeyboardInterrupt here and in the processes started here, as in a
    terminal, whatever this process inherited: a shell that runs a command in the background
    without job control starts it with SIGINT ignored, a disposition children inherit."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def _new_children(before: set) -> list:
    return [p for p in multiprocessing.active_children() if p.pid not in before]


class Rows(Dataset):
    """Sample i: (a float64 row, i); ``fail`` -> what sample ``fail_at`` does."""

    def __init__(self, n=20, fail_at=None, fail="raise"):
        self.x = np.arange(n * 2, dtype=np.float64).reshape(n, 2)
        self.fail_at = fail_at
        self.fail = fail

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        if i == self.fail_at:
            if self.fail == "raise":
                raise ValueError(f"sample {i} is corrupt")
            if self.fail == "sleep":
                time.sleep(3)
            if self.fail == "exit":
                os._exit(3)
            if self.fail == "graph":
                w = mg.ones(2, requires_grad=True)
                return w * 2, i
        return self.x[i], i


class WhoAmI(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        info = get_worker_info()
        return {"i": i, "id": info.id, "n": info.num_workers, "seed": info.seed, "pid": os.getpid(),
                "py": random.random(), "np": float(np.random.rand()),
                "mg": float(mg.rand(1).item()), "init": getattr(info.dataset, "init", None)}


class Shards(IterableDataset):
    """0..n-1, each worker yielding every num_workers-th item from its id on."""

    def __init__(self, n, worker_info=get_worker_info):
        self.n = n
        self.worker_info = worker_info  # torch's own, to run the same class under torch

    def __len__(self):
        return self.n

    def __iter__(self):
        info = self.worker_info()
        start, step = (0, 1) if info is None else (info.id, info.num_workers)
        return iter(range(start, self.n, step))


CONFIGS = [
    {"batch_size": 3},
    {"batch_size": 3, "drop_last": True},
    {"batch_size": 4, "shuffle": True},
    {"batch_size": None},
    {"batch_size": 5, "shuffle": True, "prefetch_factor": 1},
]


@pytest.mark.parametrize("kw", CONFIGS, ids=[str(k) for k in CONFIGS])
@pytest.mark.parametrize("workers", [1, 2])
def test_workers_give_the_batches_of_one_process(kw, workers):
    kw = dict(kw)
    prefetch = kw.pop("prefetch_factor", None)

    def run(**extra):
        loader = DataLoader(Rows(17), generator=mg.Generator().manual_seed(4), **kw, **extra)
        return len(loader), repr(list(loader))  # a Tensor's repr shows values and dtype

    assert run(num_workers=workers, prefetch_factor=prefetch) == run()


def test_float64_batches_stay_float64_through_a_worker():
    (x, y), *_ = DataLoader(Rows(4), batch_size=4, num_workers=1)
    assert x.dtype == np.float64 and y.dtype == np.int64


def test_worker_info_seeds_and_worker_init_fn():
    def init(worker_id):
        get_worker_info().dataset.init = worker_id * 10

    assert get_worker_info() is None
    loader = DataLoader(WhoAmI(), batch_size=None, num_workers=2, worker_init_fn=init,
                        generator=mg.Generator().manual_seed(0))
    seen = list(loader)
    ids = [s["id"] for s in seen]
    assert ids == [0, 1] * 4  # batches go to the workers in turn
    assert {s["n"] for s in seen} == {2}
    assert [s["init"] for s in seen] == [i * 10 for i in ids]
    by_worker = {s["id"]: s for s in seen[:2]}
    assert by_worker[1]["seed"] == by_worker[0]["seed"] + 1  # base seed + worker id
    for lib in ("py", "np", "mg"):  # each worker's generators are seeded apart
        assert by_worker[0][lib] != by_worker[1][lib]
    assert by_worker[0]["pid"] != os.getpid()
    again = list(DataLoader(WhoAmI(), batch_size=None, num_workers=2, worker_init_fn=init,
                            generator=mg.Generator().manual_seed(0)))
    assert [s["seed"] for s in again] == [s["seed"] for s in seen]
    assert [s["mg"] for s in again] == [s["mg"] for s in seen]


def test_worker_info_is_frozen():
    loader = DataLoader(WhoAmI(), batch_size=None, num_workers=1,
                        worker_init_fn=lambda i: setattr(get_worker_info(), "id", 5))
    with pytest.raises(Exception, match="cannot assign to field 'id'"):
        list(loader)


@pytest.mark.parametrize("kw", [{"batch_size": 2}, {"batch_size": 2, "drop_last": True},
                                {"batch_size": None}])
def test_iterable_dataset_sharded_by_worker_info(kw):
    def run(lib_data):
        cls = type("S", (lib_data.IterableDataset,), dict(Shards.__dict__))
        loader = lib_data.DataLoader(cls(11, lib_data.get_worker_info), num_workers=2, **kw)
        return len(loader), [b.tolist() if hasattr(b, "tolist") else b for b in loader]

    import minigrad.utils.data as ours

    n, got = run(ours)
    flat = sorted(k for b in got for k in (b if isinstance(b, list) else [b]))
    if not kw.get("drop_last"):
        assert flat == list(range(11))
    torch = pytest.importorskip("torch")
    assert (n, got) == run(torch.utils.data)


def test_an_error_in_a_worker_names_the_sample_and_the_worker():
    loader = DataLoader(Rows(20, fail_at=7), batch_size=3, num_workers=2)
    with pytest.raises(ValueError) as info:
        list(loader)
    msg = str(info.value)
    # sample 7 is in batch 2, which goes to worker 0 (batches go to workers in turn)
    assert "Caught ValueError in DataLoader worker process 0 while loading sample 7 of the " \
           "batch [6, 7, 8]" in msg
    assert "sample 7 is corrupt" in msg and "__getitem__" in msg  # the original traceback


def test_errors_in_worker_init_fn_and_in_collate_are_named():
    def bad_init(worker_id):
        raise OSError("no disk")

    with pytest.raises(OSError, match="worker process 0 while starting"):
        list(DataLoader(Rows(4), num_workers=1, worker_init_fn=bad_init))

    def bad_collate(batch):
        if batch[0][1] == 2:  # the second batch, on worker 1
            raise TypeError("cannot collate")
        return len(batch)

    with pytest.raises(TypeError, match=r"worker process 1 while collating the samples \[2, 3\]"):
        list(DataLoader(Rows(4), batch_size=2, num_workers=2, collate_fn=bad_collate))


def test_an_exception_type_that_needs_other_arguments_becomes_runtime_error():
    class Picky(Exception):
        def __init__(self, a, b):
            super().__init__(a, b)

    class Raises(Rows):
        def __getitem__(self, i):
            raise Picky(1, 2)

    with pytest.raises(RuntimeError, match="Caught Picky in DataLoader worker process 0"):
        list(DataLoader(Raises(2), num_workers=1))


def test_a_tensor_with_a_graph_cannot_leave_a_worker():
    with pytest.raises(RuntimeError, match="cannot leave a DataLoader worker"):
        list(DataLoader(Rows(4, fail_at=1, fail="graph"), batch_size=None, num_workers=1))


def test_break_leaves_no_worker():
    for _ in DataLoader(Rows(40), batch_size=2, num_workers=2):
        break
    # the fixture checks that no new child process is left


def test_an_exception_in_the_loop_body_leaves_no_worker():
    with pytest.raises(ZeroDivisionError):
        for i, _ in enumerate(DataLoader(Rows(40), batch_size=2, num_workers=2)):
            i / 0


def test_garbage_collection_shuts_the_workers_down():
    before = {p.pid for p in multiprocessing.active_children()}
    it = iter(DataLoader(Rows(40), batch_size=2, num_workers=2))
    next(it)
    assert len(_new_children(before)) == 2
    del it
    gc.collect()


def test_keyboard_interrupt_in_the_loop_leaves_no_worker():
    with pytest.raises(KeyboardInterrupt):
        for _ in DataLoader(Rows(40), batch_size=2, num_workers=2):
            raise KeyboardInterrupt


def test_timeout_raises_and_stops_the_workers():
    loader = DataLoader(Rows(8, fail_at=0, fail="sleep"), batch_size=2, num_workers=1,
                        timeout=0.3)
    start = time.monotonic()
    with pytest.raises(RuntimeError, match="DataLoader timed out after 0.3 seconds"):
        next(iter(loader))
    assert time.monotonic() - start < 2.9  # not waiting for the sleeping sample


def test_a_worker_that_exits_is_reported_in_pytorchs_words():
    loader = DataLoader(Rows(8, fail_at=2, fail="exit"), batch_size=2, num_workers=2)
    with pytest.raises(RuntimeError, match=r"^DataLoader worker \(pid \d+\) exited "
                                           r"unexpectedly with exit code 3\. Details are lost "
                                           r"due to multiprocessing\."):
        list(loader)


class Slow(Dataset):
    """Sample i after ``delay`` seconds, sample ``stall_at`` after 5: a pass that lasts long
    enough to interfere with."""

    def __init__(self, n=200, delay=0.01, stall_at=None):
        self.n = n
        self.delay = delay
        self.stall_at = stall_at

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        time.sleep(5 if i == self.stall_at else self.delay)
        return i


def _no_fault_report(worker_id):
    faulthandler.disable()


@pytest.mark.parametrize(("sig", "name"), [(signal.SIGKILL, "Killed"),
                                           (signal.SIGTERM, "Terminated"),
                                           (signal.SIGSEGV, "Segmentation fault")])
@pytest.mark.parametrize("timeout", [0, 30])
def test_a_worker_killed_by_a_signal_is_named_at_once(sig, name, timeout):
    """os.kill of a worker: a clear error naming the signal within the status-check
    interval (not after ``timeout``, and not a hang without one), and no worker left."""
    # the workers inherit pytest's faulthandler, which would print a SIGSEGV's stack: the
    # signal is the test's own, so each worker turns it off
    it = iter(DataLoader(Slow(), batch_size=2, num_workers=2, timeout=timeout,
                         worker_init_fn=_no_fault_report))
    next(it)
    victim = it._workers[1].pid
    os.kill(victim, sig)
    start = time.monotonic()
    with pytest.raises(RuntimeError, match=rf"^DataLoader worker \(pid {victim}\) is killed "
                                           rf"by signal: {name}\.$"):
        for _ in it:
            pass
    assert time.monotonic() - start < 5
    assert [w for w in it._workers if w.is_alive()] == []


def _kill_a_worker(it):
    os.kill(it._workers[0].pid, signal.SIGKILL)


def _interrupt_soon(it):
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()  # Ctrl-C, mid-wait


ENDINGS = {  # name -> (what happens, the error, how a later next() names it)
    "a dead worker": (_kill_a_worker, RuntimeError,
                      "an earlier RuntimeError: DataLoader worker"),
    "a timeout": (None, RuntimeError,
                  "an earlier RuntimeError: DataLoader timed out after 0.5 seconds"),
    "an interrupt": (_interrupt_soon, KeyboardInterrupt, "an earlier KeyboardInterrupt"),
}


@pytest.mark.usefixtures("ctrl_c_delivered")
@pytest.mark.parametrize("ending", list(ENDINGS))
def test_a_pass_ended_by_a_failure_says_so_instead_of_waiting(ending):
    """After a failure of the pass itself (not of a batch) the workers are stopped, and a
    later next() raises at once, naming the failure, instead of waiting for batches no
    worker will send."""
    cause, kind, why = ENDINGS[ending]
    before = {p.pid for p in multiprocessing.active_children()}
    # sample 4 (the third batch, worker 0's) stalls: the timeout and the interrupt come then
    it = iter(DataLoader(Slow(40, delay=0.0, stall_at=4), batch_size=2, num_workers=2,
                         prefetch_factor=1, timeout=0.5 if ending == "a timeout" else 0))
    next(it)
    with pytest.raises(kind):
        if cause is not None:
            cause(it)
        for _ in it:
            pass
    assert _new_children(before) == []
    start = time.monotonic()
    with pytest.raises(RuntimeError, match=f"^this DataLoader pass was ended by {why}"):
        next(it)
    assert time.monotonic() - start < 0.5


def _batches_and_errors(lib_data, dataset, **kw):
    """Every outcome of one pass, driving next() by hand: a batch's values, or the type of
    the error it raised; the loop goes on after an error, as a training loop may."""
    out = []
    it = iter(lib_data.DataLoader(dataset, **kw))
    while True:
        try:
            batch = next(it)
            out.append(batch.tolist() if hasattr(batch, "tolist") else batch)
        except StopIteration:
            return out
        except (ValueError, KeyError) as e:
            out.append(type(e).__name__)


def _broken(lib_data, kind):
    """Samples 0..9, 3 raising ValueError and 6 KeyError: map-style or a sharded stream."""
    def sample(i):
        if i == 3:
            raise ValueError("bad 3")
        if i == 6:
            raise KeyError("bad 6")
        return i

    if kind == "map":
        cls = type("Broken", (lib_data.Dataset,), {"__len__": lambda self: 10,
                                                   "__getitem__": lambda self, i: sample(i)})
        return cls()

    def stream(self):
        info = lib_data.get_worker_info()
        start, step = (0, 1) if info is None else (info.id, info.num_workers)
        for i in range(start, 10, step):
            yield sample(i)

    return type("BrokenStream", (lib_data.IterableDataset,), {"__iter__": stream})()


BROKEN = [(kind, workers, kw) for kind in ("map", "stream") for workers in (0, 1, 2, 3)
          for kw in ({"batch_size": 2}, {"batch_size": None})]


@pytest.mark.parametrize(("kind", "workers", "kw"), BROKEN, ids=[str(b) for b in BROKEN])
def test_a_batch_error_leaves_the_pass_going_as_pytorchs(kind, workers, kw):
    """An error a worker raised while loading a batch is that batch's: next() raises it and
    the following next() gives the next batch (a stream's copy that raised has ended, as a
    generator does), with any number of workers, as PyTorch's."""
    import minigrad.utils.data as ours

    got = _batches_and_errors(ours, _broken(ours, kind), num_workers=workers, **kw)
    if kind == "map" and kw["batch_size"] == 2:
        assert got == [[0, 1], "ValueError", [4, 5], "KeyError", [8, 9]]
    torch = pytest.importorskip("torch")
    assert got == _batches_and_errors(torch.utils.data, _broken(torch.utils.data, kind),
                                      num_workers=workers, **kw)


def test_a_kept_batch_error_does_not_keep_the_workers():
    """The error's traceback does not hold the pass: once the loop is left, its workers
    stop even while the error is kept (here by pytest.raises)."""
    before = {p.pid for p in multiprocessing.active_children()}
    with pytest.raises(ValueError, match="sample 7 is corrupt") as kept:
        for _ in DataLoader(Rows(20, fail_at=7), batch_size=3, num_workers=2):
            pass
    assert _new_children(before) == []
    assert kept.value.__traceback__ is not None


def test_persistent_workers_keep_going_after_a_batch_error():
    loader = DataLoader(Rows(6, fail_at=1), batch_size=None, num_workers=2,
                        persistent_workers=True)
    first = iter(loader)
    pids = {w.pid for w in first._workers}
    assert next(first)[1] == 0
    with pytest.raises(ValueError, match="sample 1"):
        next(first)
    assert [b[1] for b in first] == [2, 3, 4, 5]
    assert iter(loader) is first and {w.pid for w in first._workers} == pids
    del loader, first
    gc.collect()


def test_persistent_workers_survive_epochs_and_restart_iterables():
    loader = DataLoader(WhoAmI(), batch_size=None, num_workers=2, persistent_workers=True)
    pids = [{s["pid"] for s in loader} for _ in range(3)]
    assert pids[0] == pids[1] == pids[2] and len(pids[0]) == 2
    it = iter(loader)
    next(it)  # abandon a pass half way: the next one starts clean
    assert len(list(loader)) == 8
    stream = DataLoader(Shards(7), batch_size=2, num_workers=2, persistent_workers=True)
    for _ in range(2):
        assert sorted(k for b in stream for k in b.tolist()) == list(range(7))
    del loader, stream, it
    gc.collect()


def test_persistent_workers_restart_after_an_error():
    loader = DataLoader(Rows(6, fail_at=1), batch_size=None, num_workers=1,
                        persistent_workers=True)
    for _ in range(2):
        with pytest.raises(ValueError, match="sample 1"):
            list(loader)
    del loader
    gc.collect()


class _NoEvents(multiprocessing.context.ForkContext):
    """A start method whose Event cannot be made (as when the system has no semaphores)."""

    def Event(self):
        raise OSError("no semaphores left")


def test_a_pass_that_cannot_set_up_raises_only_its_own_error(monkeypatch):
    """A failure while the pass builds its queues is raised as it is: the half-built pass
    has nothing to stop, and collecting it reports no second error."""
    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    with pytest.raises(OSError, match="no semaphores left"):
        iter(DataLoader(Rows(4), num_workers=2, multiprocessing_context=_NoEvents()))
    gc.collect()
    assert unraisable == []


def test_num_workers_set_after_the_loader_was_built():
    loader = DataLoader(Rows(5), batch_size=2)
    loader.num_workers = 2  # not fixed after init, as in PyTorch (prefetch_factor is None)
    assert repr(list(loader)) == repr(list(DataLoader(Rows(5), batch_size=2)))


def _shuffled_in_workers(method):
    """Each sample's key, worker, worker seed and first random draws, in batch order."""
    loader = DataLoader(WhoAmI(), batch_size=None, shuffle=True, num_workers=2,
                        generator=mg.Generator().manual_seed(8), multiprocessing_context=method)
    return [(s["i"], s["id"], s["seed"], s["py"], s["np"], s["mg"]) for s in loader]


@pytest.mark.parametrize("method", [
    "fork", "spawn", pytest.param("forkserver", marks=pytest.mark.slow)])
def test_start_methods_give_the_same_batches_and_seeds(method):
    """Every start method: the shuffled order of one process, and the same worker seeds
    and first random draws as the fork start method."""
    got = _shuffled_in_workers(method)
    alone = DataLoader(list(range(8)), batch_size=None, shuffle=True,
                       generator=mg.Generator().manual_seed(8))
    assert [s[0] for s in got] == [int(k) for k in alone]
    assert got == _shuffled_in_workers("fork")


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_a_generator_gives_one_order_for_any_number_of_workers(workers):
    """The same generator seed: the same shuffled batches, epoch after epoch, with 0..3
    workers. Persistent workers keep their base seed, so from the second epoch on the
    generator has made one draw fewer and the order differs, as PyTorch's."""
    import warnings

    def epochs(lib, make_generator, **kw):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # 3 workers on a 2-CPU machine
            loader = lib.DataLoader(list(range(11)), batch_size=3, shuffle=True,
                                    generator=make_generator(), **kw)
            return [[b.tolist() for b in loader] for _ in range(3)]

    def same(lib, make_generator):
        alone = epochs(lib, make_generator)
        assert epochs(lib, make_generator) == alone  # same seed, same order
        assert epochs(lib, make_generator, num_workers=workers) == alone
        kept = epochs(lib, make_generator, num_workers=workers, persistent_workers=True)
        return [kept[e] == alone[e] for e in range(3)]

    import minigrad.utils.data as ours

    pattern = same(ours, lambda: mg.Generator().manual_seed(3))
    assert pattern == [True, False, False]
    torch = pytest.importorskip("torch")
    assert same(torch.utils.data, lambda: torch.Generator().manual_seed(3)) == pattern


def test_two_loaders_in_two_threads_at_once():
    """Two threads, each iterating its own loader with workers (forked while the other
    thread's queues are busy): each gets its batches, as in one thread, and no worker is
    left."""
    results = {}

    def run(seed):
        loader = DataLoader(Slow(30, delay=0.002), batch_size=4, shuffle=True, num_workers=2,
                            generator=mg.Generator().manual_seed(seed), timeout=30)
        results[seed] = [b.tolist() for b in loader]

    threads = [threading.Thread(target=run, args=(seed,)) for seed in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    for seed in (1, 2):
        alone = DataLoader(Slow(30, delay=0.0), batch_size=4, shuffle=True,
                           generator=mg.Generator().manual_seed(seed))
        assert results[seed] == [b.tolist() for b in alone]


def _run_script(body: str, **popen) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": ROOT}
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(body)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)


@pytest.mark.usefixtures("ctrl_c_delivered")
def test_ctrl_c_reaches_every_process_and_leaves_none(tmp_path):
    """SIGINT to the whole process group, as a terminal's Ctrl-C: the main process gets a
    KeyboardInterrupt and no worker survives it."""
    proc = _run_script("""
        import multiprocessing, os, time
        from minigrad.utils.data import DataLoader, Dataset

        class Slow(Dataset):
            def __len__(self):
                return 100
            def __getitem__(self, i):
                time.sleep(0.05)
                return i

        loader = DataLoader(Slow(), batch_size=2, num_workers=2)
        try:
            for i, _ in enumerate(loader):
                if i == 1:
                    print("pids", *[p.pid for p in multiprocessing.active_children()],
                          flush=True)
        except KeyboardInterrupt:
            print("interrupted", multiprocessing.active_children(), flush=True)
    """, start_new_session=True)
    line = proc.stdout.readline()
    assert line.startswith("pids"), line + proc.stderr.read()
    pids = [int(p) for p in line.split()[1:]]
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert "interrupted []" in out, out + err
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_forked_workers_after_parallel_kernels_ran():
    """The fast backend's kernels ran in parallel threads (and BLAS in its own) before the
    workers were forked: the workers run the same kernels, serially, and agree."""
    proc = _run_script("""
        import numpy as np
        import minigrad as mg
        from minigrad.nn import functional as F
        from minigrad.utils.data import DataLoader, Dataset

        mg.set_backend("fast")
        w = mg.tensor(np.random.default_rng(0).standard_normal((256, 256), dtype=np.float32))
        F.gelu(w @ w)  # the parallel paths: matmul's row split and GELU

        class Features(Dataset):
            def __len__(self):
                return 6
            def __getitem__(self, i):
                x = mg.tensor(np.full((4, 256), i, np.float32))
                return F.gelu(x @ w).sum(-1)

        serial = [b.numpy() for b in DataLoader(Features(), batch_size=2)]
        forked = [b.numpy() for b in DataLoader(Features(), batch_size=2, num_workers=2)]
        for a, b in zip(serial, forked):
            np.testing.assert_allclose(a, b, rtol=1e-5)
        print("ok")
    """)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0 and "ok" in out, out + err


class BadStream(IterableDataset):
    def __iter__(self):
        for i in range(10):
            if i == 3:
                raise ValueError("bad record")
            yield i


@pytest.mark.parametrize("workers", [0, 1])
def test_an_error_in_a_stream_names_the_item(workers):
    with pytest.raises(ValueError) as info:
        list(DataLoader(BadStream(), batch_size=2, num_workers=workers))
    text = str(info.value) + "".join(getattr(info.value, "__notes__", []))
    if workers or sys.version_info >= (3, 11):
        assert "while loading item 3 of the dataset's iterator" in text


def test_a_dataset_that_cannot_be_pickled_for_spawn_starts_no_worker():
    loader = DataLoader(Rows(4), num_workers=1, multiprocessing_context="spawn",
                        collate_fn=lambda batch: batch)
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        list(loader)


def _running(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie (an exited child nobody reaped yet)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_workers_stop_when_the_main_process_is_killed():
    """SIGKILL leaves no chance to clean up: each worker notices its parent is gone."""
    proc = _run_script("""
        import os, signal
        from minigrad.utils.data import DataLoader

        loader = DataLoader(list(range(10)), num_workers=2, persistent_workers=True)
        list(loader)  # the workers now wait for the next epoch
        import multiprocessing
        print(*[p.pid for p in multiprocessing.active_children()], flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    out, err = proc.communicate(timeout=60)
    pids = [int(p) for p in out.split()]
    assert len(pids) == 2, out + err
    deadline = time.monotonic() + 10
    while any(_running(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [p for p in pids if _running(p)]
    for pid in left:  # a failing run must not leave them behind either
        os.kill(pid, signal.SIGKILL)
    assert left == []


class SlowFirst(Dataset):
    """Sample 0 waits until sample 2 (on the other worker) was read, then a moment more."""

    def __init__(self):
        self.second_batch_started = multiprocessing.get_context("fork").Event()

    def __len__(self):
        return 12

    def __getitem__(self, i):
        if i == 0:
            self.second_batch_started.wait(timeout=10)
            time.sleep(0.3)
        if i == 2:
            self.second_batch_started.set()
        return i


def test_in_order_false_hands_out_batches_as_they_are_ready():
    got = [b.tolist() for b in DataLoader(SlowFirst(), batch_size=2, num_workers=2,
                                          in_order=False, multiprocessing_context="fork")]
    assert sorted(got) == [[i, i + 1] for i in range(0, 12, 2)]
    assert got[0] == [2, 3]  # the slow first batch did not hold the second back
    in_order = [b.tolist() for b in DataLoader(SlowFirst(), batch_size=2, num_workers=2,
                                               multiprocessing_context="fork")]
    assert in_order == [[i, i + 1] for i in range(0, 12, 2)]

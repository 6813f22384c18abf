"""Data-parallel training checked without MPI: two ranks as two threads of this process
(thread_ranks.py), through exactly the communicator interface the MPI process group uses.

Gradients are averaged (the mean over ranks, not their sum), the ranks agree on which
parameters got a gradient (PyTorch DDP's find_unused_parameters rule), rank 0's weights are
broadcast at start, mismatched models are refused on every rank, and the trainer's
agreement steps (configuration, rank 0 first, a failure on any rank) stop every rank
together. These run in the README's suite, where mpi4py is not installed.
"""

from __future__ import annotations

import argparse
import threading
from pathlib import Path

import numpy as np
import pytest
import thread_ranks as tr  # this folder is on the import path (see conftest.py)

import minigrad
from minigrad import distributed as dist
from minigrad import nn
from minigrad.distributed import process_group as pg
from minigrad.train import distributed_run as dr


@pytest.fixture(autouse=True)
def reference_backend():
    """The reference backend: no kernel compiles in the threads."""
    before = minigrad.get_backend()
    minigrad.set_backend("reference")
    yield
    minigrad.set_backend(before)


class ThreeBranches(nn.Module):
    """``forward(x, use)``: the sum of the branches named in ``use`` (a, b, c); weights
    drawn from ``seed`` by NumPy (minigrad's generator is one for all threads)."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.a = nn.Linear(3, 2, dtype=np.float64)
        self.b = nn.Linear(3, 2, dtype=np.float64)
        self.c = nn.Linear(3, 2, dtype=np.float64)
        rng = np.random.default_rng(seed)
        for p in self.parameters():
            p.data[...] = rng.standard_normal(p.shape)

    def forward(self, x, use: str):
        out = None
        for name in use:
            y = getattr(self, name)(x)
            out = y if out is None else out + y
        return (out * out).mean()


def batch(rank: int) -> minigrad.Tensor:
    return minigrad.tensor(np.random.default_rng(10 + rank).standard_normal((4, 3)))


def local_grads(seed: int, rank: int, use: str) -> dict[str, np.ndarray | None]:
    """What one rank's backward alone gives (no averaging), from rank 0's weights."""
    model = ThreeBranches(seed)
    if use:
        model(batch(rank), use).backward()
    return {n: None if p.grad is None else p.grad.numpy().copy()
            for n, p in model.named_parameters()}


def ddp_grads(uses: list[str], bucket_cap_mb: float, seed: int = 0):
    """Each rank (thread) builds the model from its own seed, wraps it, runs backward on
    its rows with the branches ``uses[rank]``; returns every rank's gradients."""
    def rank_fn(group: pg.ProcessGroup):
        model = ThreeBranches(seed + group.rank)  # different weights: DDP broadcasts rank 0's
        ddp = dist.DistributedDataParallel(model, bucket_cap_mb=bucket_cap_mb,
                                           process_group=group)
        use = uses[group.rank]
        if use:
            ddp(batch(group.rank), use).backward()
        else:
            ddp(batch(group.rank), "a").detach()  # a forward that uses nothing for backward
        ddp.finish_gradient_sync()
        return {n: None if p.grad is None else p.grad.numpy().copy()
                for n, p in model.named_parameters()}
    return tr.results(tr.run_ranks(len(uses), rank_fn))


# which branches each of the two ranks uses: both, one of them, none, different ones
USES = [("abc", "abc"), ("ab", "a"), ("a", "ab"), ("ab", ""), ("", "bc"), ("a", "c"),
        ("", "")]


@pytest.mark.parametrize("bucket_cap_mb", [1e-5, 25.0])  # a bucket per parameter; one bucket
@pytest.mark.parametrize("uses", USES)
def test_gradients_are_the_mean_and_unused_parameters_keep_none(uses, bucket_cap_mb):
    got = ddp_grads(list(uses), bucket_cap_mb)
    local = [local_grads(0, rank, use) for rank, use in enumerate(uses)]
    for name in local[0]:
        mine = [g[name] for g in local]
        for rank in range(2):
            if all(m is None for m in mine):  # used on no rank: left alone, as one process
                assert got[rank][name] is None, (name, rank)
                continue
            # used somewhere: the mean over ranks, a rank without a gradient counting zero
            want = sum(np.zeros_like(next(m for m in mine if m is not None)) if m is None
                       else m for m in mine) / 2
            np.testing.assert_allclose(got[rank][name], want, rtol=1e-12, atol=1e-15,
                                       err_msg=f"{name} on rank {rank}")


def test_three_ranks_average_over_three():
    got = ddp_grads(["a", "a", "b"], 25.0)
    local = [local_grads(0, rank, use) for rank, use in enumerate(["a", "a", "b"])]
    np.testing.assert_allclose(got[2]["a.weight"],
                               (local[0]["a.weight"] + local[1]["a.weight"]) / 3, rtol=1e-12)
    np.testing.assert_allclose(got[0]["b.weight"], local[2]["b.weight"] / 3, rtol=1e-12)


def test_no_sync_accumulates_then_the_total_is_averaged():
    def rank_fn(group):
        model = ThreeBranches(0)
        ddp = dist.DistributedDataParallel(model, process_group=group)
        with ddp.no_sync():
            ddp(batch(group.rank), "b").backward()  # b: a gradient from no_sync only
        local_b = model.b.weight.grad.numpy().copy()
        ddp(batch(group.rank), "a").backward()
        ddp.finish_gradient_sync()
        return local_b, model.b.weight.grad.numpy().copy(), model.c.weight.grad
    (b0, avg0, c0), (b1, avg1, c1) = tr.results(tr.run_ranks(2, rank_fn))
    assert not np.allclose(b0, b1)  # no communication inside no_sync
    np.testing.assert_allclose(avg0, (b0 + b1) / 2, rtol=1e-12)
    np.testing.assert_array_equal(avg0, avg1)
    assert c0 is None and c1 is None


def test_rank_zeros_weights_and_buffers_are_broadcast():
    def rank_fn(group):
        model = ThreeBranches(group.rank)
        model.register_buffer("scale", minigrad.tensor(np.full(2, float(group.rank))))
        dist.DistributedDataParallel(model, process_group=group)
        return {n: t.numpy().copy() for n, t in model.state_dict().items()}
    got = tr.results(tr.run_ranks(2, rank_fn))
    want = ThreeBranches(0).state_dict()
    for name, value in want.items():
        for rank in range(2):
            np.testing.assert_array_equal(got[rank][name], value.numpy(), err_msg=name)
    assert got[1]["scale"].tolist() == [0.0, 0.0]


def test_a_different_model_is_refused_on_every_rank():
    def rank_fn(group):
        model = nn.Linear(3, 2 + group.rank)
        dist.DistributedDataParallel(model, process_group=group)
    outcomes = tr.run_ranks(2, rank_fn)
    for status, error in outcomes:
        assert status == "raised" and isinstance(error, dist.DistributedError)
        assert "parameter weight is ((3, 3), 'float32', True) on rank 1" in str(error)


def test_ranks_that_issue_different_collectives_fail_instead_of_mixing_them():
    def rank_fn(group):
        if group.rank == 0:
            dist.all_reduce(1.0, "sum", group)
        else:
            dist.barrier(group)
    for status, error in tr.run_ranks(2, rank_fn):
        assert status == "raised" and "allreduce(sum) on rank 0, barrier on rank 1" in str(error)


# ---- the trainer's agreement steps ------------------------------------------------------
def world_of(group: pg.ProcessGroup) -> dr.World:
    return dr.World(group.size, group.rank, group, prog="minigrad-train")


def args_of(text: str, out_dir: str, **flags) -> argparse.Namespace:
    from minigrad.train.cli import build_parser
    return build_parser().parse_args(
        ["--text", text, "--out-dir", out_dir]
        + [w for k, v in flags.items() for w in ("--" + k.replace("_", "-"), str(v))])


def run_stopped(fn, capsys):
    """Run ``fn(world)`` on 2 thread ranks; (each rank's exit code, what was printed)."""
    outcomes = tr.run_ranks(2, lambda group: fn(world_of(group)))
    codes = []
    for status, value in outcomes:
        assert status == "raised" and isinstance(value, dr.AgreedExit), (status, value)
        codes.append(value.code)
    return codes, capsys.readouterr().err


@pytest.mark.parametrize("flag,rank0,rank1,shown", [
    ("seed", 1337, 1, "--seed is 1 on rank 1 but 1337 on rank 0"),
    ("lr", 0.001, 0.002, "--lr is 0.002 on rank 1 but 0.001 on rank 0"),
    ("out_dir", "a", "b", "--out-dir is "),
    ("text", "t0.txt", "t1.txt", "--text is sha256 "),
    ("batch_size", 12, 8, "--batch-size is 8 on rank 1 but 12 on rank 0"),
    ("tokenizer", "char", "bpe", "--tokenizer is bpe on rank 1 but char on rank 0"),
])
def test_a_configuration_that_differs_stops_every_rank_naming_the_flag(
        tmp_path, capsys, flag, rank0, rank1, shown):
    (tmp_path / "t0.txt").write_text("hello world\n")
    (tmp_path / "t1.txt").write_text("hello there\n")
    values = (rank0, rank1)

    def fn(world):
        flags = {"text": str(tmp_path / "t0.txt"), "out_dir": str(tmp_path / "a"),
                 flag: values[world.rank]}
        if flag in ("text", "out_dir"):
            flags[flag] = str(tmp_path / values[world.rank])
        text, out = flags.pop("text"), flags.pop("out_dir")
        world.check_config(dr.run_identity(args_of(text, out, **flags)))
    codes, err = run_stopped(fn, capsys)
    assert codes == [2, 2]
    assert err.count("error: the ranks disagree on the run's flags: ") == 1, err
    assert shown in err, err


def test_the_same_configuration_passes_and_sampling_flags_may_differ(tmp_path):
    (tmp_path / "t.txt").write_text("hello\n")

    def fn(group):
        args = args_of(str(tmp_path / "t.txt"), str(tmp_path / "o"), threads=1 + group.rank,
                       temperature=0.5 + group.rank)
        world_of(group).check_config(dr.run_identity(args))
        return True
    assert tr.results(tr.run_ranks(2, fn)) == [True, True]


@pytest.mark.parametrize("failing,every", [((1,), False), ((0,), False), ((0, 1), True)])
def test_a_usage_error_on_any_rank_stops_every_rank_and_is_printed_once(
        capsys, failing, every):
    def fn(world):
        failure = None
        if world.rank in failing:
            failure = dr.UsageExit(2, "minigrad-train: error: --text x.txt: no such file\n")
        world.agree(failure)
    codes, err = run_stopped(fn, capsys)
    assert codes == [2, 2]
    assert err.count("no such file") == 1, err
    assert ("[rank" in err) is not every, err


def test_rank_zero_prepares_first_and_the_others_read_after(tmp_path, capsys):
    shared = tmp_path / "shared.txt"

    def fn(group):
        world = world_of(group)

        def write():
            shared.write_text("made by rank 0")
            return "wrote"
        # the others read only after rank 0 has written: the file is there for them
        return world.main_first(write, lambda: shared.read_text())
    assert tr.results(tr.run_ranks(2, fn)) == ["wrote", "made by rank 0"]

    def failing(world):
        def write():
            raise dr.DataError("cannot write tokens.bin: disk full")
        world.main_first(write, lambda: pytest.fail("a rank read after rank 0 failed"))
    codes, err = run_stopped(failing, capsys)
    assert codes == [2, 2] and err.count("disk full") == 1


def test_the_tokenizer_is_made_by_rank_zero_and_sent_to_the_others():
    from minigrad.train.data import CharVocab
    made = []

    def fn(group):
        world = world_of(group)

        def make():
            made.append(group.rank)
            return CharVocab.from_text("a shared vocabulary")
        tok = world.from_main(make, dr.shared_tokenizer, dr.tokenizer_from_shared)
        return tok.chars
    got = tr.results(tr.run_ranks(2, fn))
    assert made == [0] and got[0] == got[1] == CharVocab.from_text("a shared vocabulary").chars


def test_an_abort_stops_a_rank_waiting_in_a_collective():
    def fn(group):
        if group.rank == 1:
            pg.abort_all_ranks("minigrad-train: error: bad prompt [rank 1 of 2]\n", 2, group)
        dist.barrier(group)  # rank 1 never comes: without the abort, the deadline
    outcomes = tr.run_ranks(2, fn, timeout=60)
    for status, error in outcomes:
        assert status == "raised" and isinstance(error, tr.Aborted)
        assert (error.code, error.by) == (2, 1)


@pytest.mark.parametrize("tokenizer", ["char", "bpe"])
def test_the_trainer_set_up_on_two_ranks_lets_rank_zero_alone_write(
        tmp_path, monkeypatch, tokenizer):
    """prepare_run on two thread ranks: only rank 0 creates or clears --out-dir and writes
    the token file; the other rank reads it and gets rank 0's tokenizer."""
    if tokenizer == "bpe":
        pytest.importorskip("tokenizers")
    from minigrad.train import cli, prepare
    from minigrad.train.data import TINY_SHAKESPEARE
    text = tmp_path / "t.txt"
    text.write_text(Path(TINY_SHAKESPEARE).read_text(encoding="utf-8")[:5000], encoding="utf-8")
    here = threading.local()
    real_connect = prepare.connect
    monkeypatch.setattr(prepare, "connect", lambda args, parser, batch: real_connect(
        args, parser, batch, here.group))
    calls = []
    # the writers: only rank 0 may call them (check_out_dir and check_writable only look)
    for name in ("make_room", "save_token_file", "train_bpe"):
        real = getattr(prepare, name)

        def spy(*a, _real=real, _name=name, **kw):
            calls.append((here.group.rank, _name))
            return _real(*a, **kw)
        monkeypatch.setattr(prepare, name, spy)

    def rank_fn(group):
        here.group = group
        args, explicit, parser = cli.parse_args([
            "--text", str(text), "--out-dir", str(tmp_path / "out"), "--tokenizer", tokenizer,
            "--bpe-vocab-size", "280", "--n-layer", "1", "--n-head", "2", "--n-embd", "8",
            "--block-size", "8", "--batch-size", "4", "--max-iters", "2", *flags])
        run = prepare.prepare_run(args, explicit, parser)
        return len(run.tokenizer), np.asarray(run.train_ids[:50]).tolist()

    for flags in ([], ["--overwrite"]):
        calls.clear()
        (n0, ids0), (n1, ids1) = tr.results(tr.run_ranks(2, rank_fn))
        assert n0 == n1 and ids0 == ids1
        assert {rank for rank, _ in calls} == {0}, calls
        assert (0, "make_room") in calls
        if tokenizer == "bpe":
            assert (0, "save_token_file") in calls and (0, "train_bpe") in calls
        (tmp_path / "out" / "ckpt_last.npz").write_bytes(b"a run to overwrite")

"""``all_gather_object`` sends JSON, never pickle: what it accepts, what it refuses, and that
sequences come back as the tuples the callers made (on 2 ranks under ``mpiexec``)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import mpi_launch as launch  # this folder is on the import path (see conftest.py)
import pytest

from minigrad.distributed import process_group as pg


@pytest.mark.parametrize("obj,fragment", [
    ({1: "a"}, "obj has the key 1 of type int; dict keys must be str"),
    ([("shape", (2, 3)), ("dtype", object())], "obj[1][1] is a object"),
    ({"w": b"bytes"}, "obj['w'] is a bytes"),
])
def test_non_json_data_is_refused_before_anything_is_sent(obj, fragment):
    # refused before the world is even asked for: no MPI needed
    with pytest.raises(TypeError, match="all_gather_object") as info:
        pg.all_gather_object(obj)
    assert fragment in str(info.value)


GATHER = textwrap.dedent("""
    import sys
    from minigrad.distributed import process_group as pg
    pg.init_process_group(timeout=120)
    rank = pg.get_rank()
    # each rank writes a file of its own: two ranks' lines on one stdout can interleave
    out = open(f"{sys.argv[1]}/rank{rank}.txt", "w")
    items = [("parameter w", ((16, 8 + 8 * rank), "float32", True)),
             ("names", ["a", "b"]), ("nested", {"k": [1, [2.5, None]]})]
    got = pg.all_gather_object(items)
    print(f"rank {rank} got {got!r}", file=out)
    try:
        pg.check_same_on_all_ranks(items, "model")
    except pg.DistributedError as e:
        print(f"rank {rank} refused: {e}", file=out)
    out.close()
""")


def test_two_ranks_gather_tuples_in_rank_order(mpiexec, tmp_path):
    done = subprocess.run([mpiexec, "-n", "2", sys.executable, "-c", GATHER, str(tmp_path)],
                          capture_output=True, text=True, timeout=180, env=launch.mpi_env(),
                          check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = [line for rank in (0, 1)
             for line in (tmp_path / f"rank{rank}.txt").read_text().splitlines()]

    def one(rank: int) -> tuple:
        return (("parameter w", ((16, 8 + 8 * rank), "float32", True)),
                ("names", ("a", "b")), ("nested", {"k": (1, (2.5, None))}))

    for rank in (0, 1):
        assert f"rank {rank} got {[one(0), one(1)]!r}" in lines, lines
        refused = [s for s in lines if s.startswith(f"rank {rank} refused: ")]
        expected = (f"rank {rank} refused: the ranks disagree on the model: parameter w is "
                    f"((16, 16), 'float32', True) on rank 1 but ((16, 8), 'float32', True) "
                    f"on rank 0")
        assert refused == [expected], lines

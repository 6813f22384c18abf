"""Checkpoint files: atomic under SIGKILL, and untrusted files never run code.

A process killed with SIGKILL gets no chance to clean up, so a child that saves a large
checkpoint over and over is killed mid-save at varying moments; the previous complete
checkpoint stays loadable (``minigrad.save`` writes a temporary file and renames it).
(Training killed mid-run and resumed is tests/train/test_kill_and_resume.py.)

Untrusted files: an ``.npz`` holding an object array is refused without unpickling it, and a
consistently tampered checkpoint (array and its recorded shape both changed) loads as data
but ``model.load_state_dict`` refuses it, naming the key, with nothing applied.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import minigrad as mg
from minigrad import models
from minigrad.serialization import CheckpointError

SAVE_LOOP = textwrap.dedent("""
    import sys
    import numpy as np
    import minigrad as mg

    path = sys.argv[1]
    big = np.empty((6, 1024, 1024), np.float32)      # 24 MB: a save takes a while
    gen = 0
    while True:
        gen += 1
        big.fill(gen)
        mg.save({"gen": gen, "weights": big, "tail": np.full(7, gen, np.int64)}, path)
        print("saved", gen, flush=True)
""")


def _check_complete(ckpt: dict) -> int:
    """The generation of a loaded checkpoint, after checking it is one whole generation."""
    gen = int(ckpt["gen"])
    assert ckpt["weights"].shape == (6, 1024, 1024)
    assert float(ckpt["weights"].min()) == float(ckpt["weights"].max()) == gen
    np.testing.assert_array_equal(ckpt["tail"], np.full(7, gen))
    return gen


@pytest.mark.parametrize("delay", [0.0, 0.013, 0.037, 0.071, 0.16])
def test_sigkill_during_save_leaves_the_previous_checkpoint_loadable(tmp_path, delay) -> None:
    path = tmp_path / "ckpt.npz"
    child = subprocess.Popen([sys.executable, "-c", SAVE_LOOP, str(path)],
                             stdout=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        first = child.stdout.readline()       # one complete checkpoint is on disk
        assert first.startswith("saved"), first
        time.sleep(delay)                     # then kill it somewhere in a later save
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    reported = [int(line.split()[1]) for line in [first, *child.stdout] if line.startswith("saved")]
    child.stdout.close()
    assert child.returncode == -signal.SIGKILL
    gen = _check_complete(mg.load(path))
    # the file holds the last save reported done, or the one whose rename beat the kill
    assert gen in (reported[-1], reported[-1] + 1)
    # whatever the kill left behind is a hidden temporary file, never the checkpoint's name
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "ckpt.npz"]
    assert all(n.startswith(".ckpt.npz.") and n.endswith(".tmp") for n in leftovers), leftovers


# ---- untrusted files ----------------------------------------------------------------------
class _Boom:
    """Unpickling this writes a marker file: proof that something was unpickled."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.write_text, (Path(self.marker), "unpickled!"))


def test_object_array_in_a_checkpoint_is_never_unpickled(tmp_path) -> None:
    marker = tmp_path / "marker.txt"
    path = tmp_path / "evil.npz"
    mg.save({"w": np.zeros(3)}, path)
    with np.load(path) as npz:
        arrays = {k: npz[k] for k in npz.files}
    arrays["a0"] = np.array([_Boom(str(marker)), 1], dtype=object)
    np.savez(path, **arrays)                 # savez pickles the object array into the file
    with pytest.raises(CheckpointError, match="evil.npz"):
        mg.load(path)
    assert not marker.exists()


def _tiny_gpt() -> models.GPT:
    mg.manual_seed(0)
    return models.GPT(vocab_size=11, block_size=8, n_layer=1, n_head=2, n_embd=8)


def test_consistently_tampered_checkpoint_is_refused_by_load_state_dict(tmp_path) -> None:
    model = _tiny_gpt()
    state = {k: np.array(v.data) + 1.0 for k, v in model.state_dict().items()}
    state["blocks.0.attn.in_proj_weight"] = np.zeros((8, 9), np.float32)   # one bad shape
    path = tmp_path / "tampered.npz"
    mg.save({"model": state}, path)
    loaded = mg.load(path)["model"]          # a well-formed file: the shapes it records match
    before = {k: np.array(v.data) for k, v in model.state_dict().items()}
    with pytest.raises(ValueError) as info:
        model.load_state_dict(loaded)
    message = str(info.value)
    assert "blocks.0.attn.in_proj_weight" in message and "(8, 9)" in message
    assert "(24, 8)" in message
    for k, v in model.state_dict().items():
        np.testing.assert_array_equal(v.data, before[k], err_msg=f"{k} was changed")


def test_checkpoint_arrays_keep_their_names_dtypes_and_shapes(tmp_path) -> None:
    """A round trip gives back exactly the arrays saved (so the checks above see true data)."""
    model = _tiny_gpt()
    path = tmp_path / "good.npz"
    mg.save({"model": model.state_dict()}, path)
    loaded = mg.load(path)["model"]
    assert list(loaded) == list(model.state_dict())
    for k, v in model.state_dict().items():
        assert loaded[k].dtype == v.dtype and loaded[k].shape == v.shape
        np.testing.assert_array_equal(loaded[k], v.data)
    fresh = models.GPT(vocab_size=11, block_size=8, n_layer=1, n_head=2, n_embd=8)
    fresh.load_state_dict(loaded)
    for k, v in fresh.state_dict().items():
        np.testing.assert_array_equal(v.data, loaded[k])

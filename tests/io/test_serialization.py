"""Checkpoints: round trips, clear errors on damaged files, atomic writes."""

from __future__ import annotations

import io
import json
import math
import os
import pickle
import warnings
import zipfile

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minigrad as mg
from minigrad import serialization
from minigrad.serialization import CheckpointError


def same(a, b) -> bool:
    """Deep equality that also requires equal types, dtypes and shapes (NaN equals NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, (np.ndarray, np.generic)):
        return (a.dtype == b.dtype and np.shape(a) == np.shape(b)
                and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


def sample_checkpoint():
    mg.manual_seed(3)
    return {
        "model": {"wte.weight": mg.randn(5, 4), "ln.bias": mg.zeros(4, dtype=np.float64)},
        "optimizer": {
            "state": {0: {"step": 7, "exp_avg": np.arange(6.0).reshape(2, 3)}},
            "param_groups": [{"lr": 3e-4, "betas": (0.9, 0.95), "params": [0, 1]}],
        },
        "iter": 123,
        "best_val": float("inf"),
        "config": {"n_layer": 2, "bias": True, "dropout": 0.0, "name": None},
        "vocab": "\n !abcñé✓日本",
        "odd": "lone surrogate \ud800 and NUL \x00",
        "rng": mg.get_rng_state(),
        "arrays": [np.array([1, 2], dtype=np.int64), np.array([2**64 - 1], dtype=np.uint64),
                   np.array([True, False]), np.zeros((0, 3), dtype=np.float32),
                   np.array(2.5), np.arange(6, dtype=np.int8).reshape(2, 3).T,
                   np.array(["ab", "ç"])],
        "scalars": (np.float64(0.1), np.int32(-4), np.bool_(True)),
        7: "int key", "7": "str key",
        "empty": {"d": {}, "l": [], "t": ()},
        "big": 2**80,
    }


def expected_after_load(obj):
    """What load returns: the same structure with ndarrays in place of Tensors."""
    if isinstance(obj, mg.Tensor):
        return obj.data
    if isinstance(obj, dict):
        return {k: expected_after_load(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return type(obj)(expected_after_load(v) for v in obj)
    return obj


def test_round_trip_of_a_training_checkpoint(tmp_path):
    obj = sample_checkpoint()
    path = tmp_path / "ckpt.npz"
    mg.save(obj, path)
    loaded = mg.load(path)
    assert same(loaded, expected_after_load(obj))
    assert loaded["model"]["wte.weight"].dtype == np.float32
    assert loaded["rng"].dtype == np.uint64
    assert isinstance(loaded["model"]["wte.weight"], np.ndarray)
    assert os.listdir(tmp_path) == ["ckpt.npz"]
    mg.set_rng_state(loaded["rng"])  # the RNG state is usable as loaded


def test_save_uses_the_exact_path_and_overwrites(tmp_path):
    path = tmp_path / "run.ckpt"  # no .npz suffix is added
    mg.save({"a": 1}, str(path))
    mg.save({"a": 2}, path)
    assert os.listdir(tmp_path) == ["run.ckpt"]
    assert mg.load(path) == {"a": 2}


def test_file_is_plain_npz_readable_without_pickle(tmp_path):
    path = tmp_path / "c.npz"
    mg.save({"w": np.ones(3)}, path)
    with np.load(path, allow_pickle=False) as npz:
        header = json.loads(npz["__minigrad__"].tobytes().decode("utf-8"))
        assert header["format"] == "minigrad-checkpoint" and header["version"] == 1
        np.testing.assert_array_equal(npz["a0"], np.ones(3))


def test_new_file_permissions_follow_the_umask(tmp_path):
    umask = os.umask(0o022)
    os.umask(umask)
    mg.save({"a": 1}, tmp_path / "c.npz")
    assert (os.stat(tmp_path / "c.npz").st_mode & 0o777) == (0o666 & ~umask)


scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.text(max_size=8),
    st.floats(allow_nan=True, allow_infinity=True),
)
arrays = st.tuples(
    st.sampled_from(["float32", "float64", "int64", "uint64", "bool", "int8", "complex128"]),
    st.lists(st.integers(0, 3), max_size=3),
    st.integers(0, 2**32 - 1),
).map(lambda a: (np.random.default_rng(a[2]).integers(0, 100, size=tuple(a[1])) - 50)
      .astype(a[0]))
trees = st.recursive(
    st.one_of(scalars, arrays),
    lambda kids: st.one_of(
        st.lists(kids, max_size=3),
        st.lists(kids, max_size=3).map(tuple),
        st.dictionaries(st.one_of(st.text(max_size=5), st.integers(-5, 5)), kids, max_size=3),
    ),
    max_leaves=10,
)


@given(obj=trees)
def test_round_trip_of_random_nested_structures(obj, tmp_path_factory):
    path = tmp_path_factory.mktemp("rt") / "x.npz"
    mg.save(obj, path)
    assert same(mg.load(path), obj)


# ---- damaged and foreign files ------------------------------------------------------------------
def saved_bytes(tmp_path):
    path = tmp_path / "good.npz"
    mg.save(sample_checkpoint(), path)
    return path.read_bytes()


def expect_checkpoint_error(path, fragment=""):
    with pytest.raises(CheckpointError) as e:
        mg.load(path)
    assert str(path) in str(e.value)
    assert fragment in str(e.value)
    return e.value


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="no checkpoint file at"):
        mg.load(tmp_path / "nope.npz")


def test_empty_file(tmp_path):
    path = tmp_path / "empty.npz"
    path.write_bytes(b"")
    expect_checkpoint_error(path, "is empty (0 bytes)")


def test_random_bytes_and_npy_files(tmp_path):
    path = tmp_path / "noise.npz"
    path.write_bytes(np.random.default_rng(0).bytes(4096))
    expect_checkpoint_error(path, "not an .npz/zip archive")
    np.save(tmp_path / "arr.npy", np.ones(3))
    expect_checkpoint_error(tmp_path / "arr.npy", "not an .npz/zip archive")
    noise_zip = tmp_path / "noise_zip.npz"
    noise_zip.write_bytes(b"PK\x03\x04" + np.random.default_rng(1).bytes(500))
    expect_checkpoint_error(noise_zip, "truncated or corrupt")


def test_every_truncation_is_an_error(tmp_path):
    data = saved_bytes(tmp_path)
    path = tmp_path / "cut.npz"
    for length in list(range(1, len(data), 13)) + [len(data) - 1]:
        path.write_bytes(data[:length])
        expect_checkpoint_error(path)


def test_flipped_byte_in_array_data_fails_the_crc(tmp_path):
    path = tmp_path / "c.npz"
    mg.save({"w": np.full(64, 1.25)}, path)
    data = bytearray(path.read_bytes())
    at = data.find(np.full(8, 1.25).tobytes())
    data[at + 3] ^= 0x40
    path.write_bytes(bytes(data))
    expect_checkpoint_error(path, "fails its CRC check")


def test_every_single_byte_flip_is_caught_or_harmless(tmp_path):
    # A flip may land in a field nothing reads (a timestamp); then the data must be intact.
    good = tmp_path / "small.npz"
    mg.save({"w": np.arange(3.0), "it": (7, np.int64(2)), "s": "é", "f": [0.5]}, good)
    data, reference = good.read_bytes(), mg.load(good)
    path = tmp_path / "flip.npz"
    caught = 0
    for i in range(len(data)):
        b = bytearray(data)
        b[i] ^= 0xA5
        path.write_bytes(bytes(b))
        try:
            got = mg.load(path)
        except CheckpointError:
            caught += 1
            continue
        assert same(got, reference), f"flipping byte {i} changed the loaded data silently"
    assert caught > len(data) // 2  # most bytes are CRC-checked data or zip structure


def write_npz(path, header=None, **arrays):
    if header is not None:
        text = header if isinstance(header, str) else json.dumps(header)
        arrays["__minigrad__"] = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    with open(path, "wb") as f:
        np.savez(f, **arrays)


def header(root):
    return {"format": "minigrad-checkpoint", "version": 1, "root": root}


ARRAY_NODE = {"array": "a0", "dtype": "<f8", "shape": [3]}


@pytest.mark.parametrize(
    "hdr, arrays, fragment",
    [
        (None, {"a0": np.ones(3)}, "not a minigrad checkpoint (no '__minigrad__' entry)"),
        ("{not json", {}, "not valid JSON"),
        ({"format": "other", "version": 1, "root": None}, {}, "format marker missing"),
        ({"format": "minigrad-checkpoint", "version": 99, "root": None}, {}, "version 99"),
        (header({"dict": [["w", ARRAY_NODE]]}), {}, "missing array 'a0'"),
        (header(None), {"a0": np.ones(3)}, "arrays its structure does not use"),
        (header(ARRAY_NODE), {"a0": np.ones(4)}, "structure records <f8 [3]"),
        (header(ARRAY_NODE), {"a0": np.ones(3, dtype=np.float32)}, "is <f4 [3]"),
        (header({"set": [1, 2]}), {}, "unrecognised structure node"),
        (header({"dict": [[1.5, None]]}), {}, "unrecognised structure node"),
        # one array referenced twice (a tied weight) must agree on its dtype and shape
        (header({"list": [ARRAY_NODE, {**ARRAY_NODE, "shape": [1, 3]}]}), {"a0": np.ones(3)},
         "unrecognised"),
    ],
)
def test_foreign_or_tampered_archives(tmp_path, hdr, arrays, fragment):
    path = tmp_path / "t.npz"
    write_npz(path, hdr, **arrays)
    expect_checkpoint_error(path, fragment)


def test_object_arrays_are_never_unpickled(tmp_path):
    path = tmp_path / "evil.npz"
    node = {"array": "a0", "dtype": "|O", "shape": [1]}
    write_npz(path, header(node), a0=np.array([{"x": 1}], dtype=object))
    expect_checkpoint_error(path, "truncated or corrupt")


# ---- failed saves leave the old file untouched --------------------------------------------------
@pytest.fixture
def existing(tmp_path):
    path = tmp_path / "ckpt.npz"
    mg.save({"iter": 1, "w": np.arange(10.0)}, path)
    return path, path.read_bytes()


def assert_untouched(path, old_bytes):
    assert path.read_bytes() == old_bytes
    assert os.listdir(path.parent) == [path.name]  # no temporary file left behind
    assert mg.load(path)["iter"] == 1


@pytest.mark.parametrize(
    "obj, error, fragment",
    [
        ({"model": {"w": {1, 2}}}, TypeError, "type set at obj['model']['w']"),
        ({"a": [1, object()]}, TypeError, "at obj['a'][1]"),
        ({"a": {(1, 2): 3}}, TypeError, "dict key (1, 2) of type tuple at obj['a']"),
        ({"a": {True: 3}}, TypeError, "dict key True"),
        ({"a": np.array([None, 1])}, TypeError, "dtype object at obj['a']"),
    ],
)
def test_unsupported_objects_raise_type_error_naming_the_key_path(existing, obj, error, fragment):
    path, old = existing
    with pytest.raises(error) as e:
        mg.save(obj, path)
    assert fragment in str(e.value)
    assert_untouched(path, old)


def test_self_containing_structure_is_rejected(existing):
    path, old = existing
    loop: list = [1]
    loop.append(loop)
    with pytest.raises(ValueError, match=r"contains itself \(at obj\[1\]\)"):
        mg.save(loop, path)
    assert_untouched(path, old)


@pytest.mark.parametrize("exc", [OSError("disk full"), KeyboardInterrupt()])
def test_write_failing_midway_keeps_old_file(existing, monkeypatch, exc):
    path, old = existing

    def half_write(f, arrays):
        f.write(b"PK\x03\x04 half a checkpoint")
        raise exc

    monkeypatch.setattr(serialization, "_write_npz", half_write)
    with pytest.raises(type(exc)):
        mg.save({"iter": 2, "w": np.zeros(10)}, path)
    assert_untouched(path, old)


@pytest.mark.parametrize("target", ["fsync", "replace"])
def test_fsync_or_rename_failing_keeps_old_file(existing, monkeypatch, target):
    path, old = existing

    def fail(*args, **kwargs):
        raise OSError(f"{target} failed")

    monkeypatch.setattr(serialization.os, target, fail)
    with pytest.raises(OSError, match=f"{target} failed"):
        mg.save({"iter": 2}, path)
    monkeypatch.undo()
    assert_untouched(path, old)


def test_model_and_optimizer_resume_from_checkpoint(tmp_path):
    w = mg.tensor(np.array([[0.5, -1.0], [2.0, 0.1]]), requires_grad=True)
    opt = mg.optim.AdamW([w], lr=0.1)
    w.grad = mg.tensor(np.ones((2, 2)))
    opt.step()
    mg.save({"w": w, "optimizer": opt.state_dict(), "iter": 1}, tmp_path / "c.npz")
    ck = mg.load(tmp_path / "c.npz")
    w2 = mg.tensor(ck["w"], requires_grad=True)
    opt2 = mg.optim.AdamW([w2], lr=0.1)
    opt2.load_state_dict(ck["optimizer"])
    for t, o in ((w, opt), (w2, opt2)):
        t.grad = mg.tensor(np.full((2, 2), -0.5))
        o.step()
    np.testing.assert_array_equal(w.data, w2.data)
    assert ck["iter"] == 1


# ---- crafted archives: compression, duplicated members, PyTorch files, deep nesting ----------
def rezip(src, dst, compress_type=zipfile.ZIP_STORED, extra=()):
    """Copy the members of the archive ``src`` into ``dst`` with ``compress_type``, then
    append the (name, bytes) pairs of ``extra``."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", compress_type) as zout:
        for info in zin.infolist():
            zout.writestr(info.filename, zin.read(info))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # zipfile warns "Duplicate name"
            for name, data in extra:
                zout.writestr(name, data)


def test_compressed_members_are_refused_before_inflating(tmp_path):
    good = tmp_path / "good.npz"
    mg.save({"w": np.zeros((1024, 1024))}, good)  # 8 MB of zeros deflate to ~8 KB
    packed = tmp_path / "packed.npz"
    rezip(good, packed, zipfile.ZIP_DEFLATED)
    assert packed.stat().st_size < 100_000
    expect_checkpoint_error(packed, "compressed members")
    np.testing.assert_array_equal(mg.load(good)["w"], 0.0)  # the stored original still loads


def test_a_duplicated_member_name_is_refused(tmp_path):
    good = tmp_path / "good.npz"
    mg.save({"w": np.arange(3.0)}, good)
    buf = io.BytesIO()
    np.save(buf, np.full(3, 7.0))
    dup = tmp_path / "dup.npz"
    rezip(good, dup, extra=[("a0.npy", buf.getvalue())])
    expect_checkpoint_error(dup, "two members named 'a0.npy'")


def test_pytorch_files_are_named_with_how_to_convert(tmp_path):
    fake = tmp_path / "model.pt"  # torch.save's zip layout: <name>/data.pkl, <name>/data/0, ...
    with zipfile.ZipFile(fake, "w") as z:
        z.writestr("model/data.pkl", pickle.dumps({"w": 1}))
        z.writestr("model/version", "3\n")
    err = expect_checkpoint_error(fake, "is a PyTorch file (torch.save)")
    assert "torch.load" in str(err) and "minigrad.save" in str(err)
    legacy = tmp_path / "legacy.pt"
    legacy.write_bytes(pickle.dumps({"w": [1.0]}, protocol=2))
    expect_checkpoint_error(legacy, "is a Python pickle")


def test_a_real_torch_save_file_is_named_as_pytorch(tmp_path):
    torch = pytest.importorskip("torch")
    path = tmp_path / "sd.pt"
    torch.save({"w": torch.ones(2, 3)}, path)
    expect_checkpoint_error(path, "PyTorch file")


def test_nesting_too_deep_is_a_clear_error_and_the_limit_round_trips(tmp_path):
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(ValueError, match=f"nested more than {serialization.MAX_DEPTH}"):
        mg.save({"x": deep}, tmp_path / "deep.npz")
    assert not (tmp_path / "deep.npz").exists()
    ok: list = [np.ones(2)]
    for _ in range(serialization.MAX_DEPTH - 1):
        ok = [ok]
    mg.save(ok, tmp_path / "ok.npz")
    assert same(mg.load(tmp_path / "ok.npz"), ok)

"""minigrad.pytorch_file reads no more than a file holds: a compressed member (which could
inflate to any size) is refused, an expanded tensor comes back as a read-only view of its
storage instead of a copy of any size, and malformed fields raise PyTorchFileError naming
the file, never a bare Python error."""

from __future__ import annotations

import pickle
import tracemalloc
import zipfile

import numpy as np
import pytest

from minigrad.pytorch_file import PyTorchFileError, load_pytorch_file

torch = pytest.importorskip("torch")


def copy_zip(src, out, *, compress: str | None = None, replace: dict | None = None):
    """Copy a zip member by member; the member ending in ``compress`` deflated, members
    ending in a key of ``replace`` given new bytes."""
    replace = replace or {}
    with zipfile.ZipFile(src) as a, zipfile.ZipFile(out, "w") as b:
        for info in a.infolist():
            data = a.read(info)
            for suffix, new in replace.items():
                if info.filename.endswith(suffix):
                    data = new
            if compress and info.filename.endswith(compress):
                info.compress_type = zipfile.ZIP_DEFLATED
            b.writestr(info, data)


def test_a_compressed_member_is_refused_before_it_is_inflated(tmp_path):
    ok = tmp_path / "ok.pt"
    torch.save({"w": torch.zeros(1_000_000)}, ok)  # 4 MB of zeros deflate to a few KB
    bomb = tmp_path / "bomb.pt"
    copy_zip(ok, bomb, compress="/data/0")
    assert bomb.stat().st_size < 100_000
    tracemalloc.start()
    try:
        with pytest.raises(PyTorchFileError, match=r"bomb\.pt: member .*data/0.* is compressed"):
            load_pytorch_file(bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000
    assert load_pytorch_file(ok)["w"].shape == (1_000_000,)


def test_an_expanded_tensor_is_a_view_not_a_copy(tmp_path):
    path = tmp_path / "expanded.pt"
    big = torch.arange(3, dtype=torch.float32).reshape(3, 1).expand(3, 50_000_000)
    torch.save({"e": big, "plain": torch.ones(2, 2)}, path)
    assert path.stat().st_size < 10_000
    tracemalloc.start()
    try:
        got = load_pytorch_file(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # a copy would be 600 MB
    e = got["e"]
    assert e.shape == (3, 50_000_000) and not e.flags.writeable
    assert e[2, 12345] == 2.0 and e[0, -1] == 0.0
    assert got["plain"].flags.owndata and got["plain"].flags.writeable  # the usual case copies


def test_malformed_fields_name_the_file(tmp_path):
    ok = tmp_path / "ok.pt"
    torch.save({"w": torch.ones(4)}, ok)

    for name, payload in [("junk", b"not a pickle at all"),
                          ("truncated", pickle.dumps({"w": 1}, protocol=2)[:-3])]:
        bad = tmp_path / f"{name}.pt"
        copy_zip(ok, bad, replace={"/data.pkl": payload})
        with pytest.raises(PyTorchFileError, match=rf"{name}\.pt: .*data\.pkl is malformed"):
            load_pytorch_file(bad)

    with zipfile.ZipFile(ok) as z:
        top = z.namelist()[0].split("/")[0]
    missing = tmp_path / "missing.pt"
    with zipfile.ZipFile(ok) as a, zipfile.ZipFile(missing, "w") as b:
        for info in a.infolist():
            if not info.filename.endswith("/data/0"):
                b.writestr(info, a.read(info))
    with pytest.raises(PyTorchFileError, match=rf"missing\.pt: member '{top}/data/0' is missing"):
        load_pytorch_file(missing)


def test_a_size_that_is_not_integers_is_refused():
    from minigrad.pytorch_file import _rebuild_tensor

    flat = np.zeros(4, np.float32)
    for size, stride, offset in [((2.5,), (1,), 0), (("2",), (1,), 0), ((2,), (1,), "0"),
                                 (None, (1,), 0)]:
        with pytest.raises(PyTorchFileError, match="must be integers"):
            _rebuild_tensor((flat, "f.pt"), offset, size, stride)
    assert _rebuild_tensor((flat, "f.pt"), 1, (3,), (1,)).shape == (3,)

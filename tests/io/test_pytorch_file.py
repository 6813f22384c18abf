"""minigrad.pytorch_file: torch.save's zip files read without torch, held equal to torch.load;
refused globals, truncated storages and non-zip files raise PyTorchFileError."""

from __future__ import annotations

import io
import pickle
import sys
import zipfile

import numpy as np
import pytest

from minigrad.pytorch_file import PyTorchFileError, load_pytorch_file

torch = pytest.importorskip("torch")


def assert_same(ours, theirs):
    """ours (NumPy) equals theirs (torch.load's objects), structure and values."""
    if isinstance(theirs, torch.Tensor):
        expected = theirs.detach()
        if expected.dtype in (torch.float16, torch.bfloat16):
            expected = expected.float()
        assert isinstance(ours, np.ndarray) and ours.flags.owndata
        np.testing.assert_array_equal(ours, expected.numpy())
        assert ours.dtype == expected.numpy().dtype and ours.shape == tuple(expected.shape)
    elif isinstance(theirs, dict):
        assert type(ours) is type(theirs) and list(ours) == list(theirs)
        for k in theirs:
            assert_same(ours[k], theirs[k])
    elif isinstance(theirs, (list, tuple)):
        assert type(ours) is type(theirs) and len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            assert_same(a, b)
    else:
        assert ours == theirs


def test_every_dtype_view_and_container_reads_as_torch_load_gives_it(tmp_path):
    base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
    obj = {
        "dtypes": [torch.randn(3, 2).to(d) for d in (torch.float32, torch.float64,
                                                       torch.float16, torch.bfloat16)]
        + [torch.tensor([1, -2, 3], dtype=d) for d in (torch.int64, torch.int32,
                                                        torch.int16, torch.int8)]
        + [torch.tensor([0, 255], dtype=torch.uint8), torch.tensor([True, False])],
        "transposed": base.t(), "offset_slice": base[1:, 2:5], "strided": base[:, ::2],
        "scalar": torch.tensor(1.5), "empty": torch.zeros(0, 3),
        "shared": (base, base[2]),  # one storage, two tensors
        "parameter": torch.nn.Parameter(torch.ones(2, 2)),
        "plain": {"lr": 1e-3, "betas": (0.9, 0.99), "name": "x", "none": None, 3: [True]},
    }
    path = tmp_path / "all.pt"
    torch.save(obj, path)
    assert_same(load_pytorch_file(path), torch.load(path, weights_only=True))


def test_a_model_and_optimizer_checkpoint(tmp_path):
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.LayerNorm(3))
    opt = torch.optim.AdamW(model.parameters())
    model(torch.randn(2, 4)).sum().backward()
    opt.step()
    ckpt = {"model": model.state_dict(), "optimizer": opt.state_dict(), "iter_num": 7,
            "best_val_loss": torch.tensor(1.25), "config": {"dataset": "shakespeare_char"}}
    path = tmp_path / "ckpt.pt"
    torch.save(ckpt, path)
    assert_same(load_pytorch_file(path), torch.load(path, weights_only=True))


def test_reads_without_torch_importable(tmp_path, monkeypatch):
    path = tmp_path / "w.pt"
    torch.save({"w": torch.arange(6.0).reshape(2, 3)}, path)
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch now fails
    np.testing.assert_array_equal(load_pytorch_file(path)["w"], np.arange(6.0).reshape(2, 3))


class Evil:
    def __reduce__(self):
        return (print, ("ran code",))


def rewrite(path, member_suffix: str, new: bytes, out):
    """Copy the zip at ``path`` to ``out`` with the member ending in ``member_suffix`` replaced."""
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            data = new if info.filename.endswith(member_suffix) else src.read(info)
            dst.writestr(info, data)


def test_refuses_code_and_broken_files(tmp_path, capsys):
    path = tmp_path / "ok.pt"
    torch.save({"w": torch.ones(4)}, path)

    evil = tmp_path / "evil.pt"
    rewrite(path, "/data.pkl", pickle.dumps({"w": Evil()}, protocol=2), evil)
    with pytest.raises(PyTorchFileError, match=r"refusing to load \w+\.print"):
        load_pytorch_file(evil)
    assert "ran code" not in capsys.readouterr().out

    short = tmp_path / "short.pt"
    rewrite(path, "/data/0", b"\0" * 8, short)  # 2 floats where the tensor needs 4
    with pytest.raises(PyTorchFileError, match="reaches past its storage of 2 elements"):
        load_pytorch_file(short)

    legacy = tmp_path / "legacy.pt"
    buffer = io.BytesIO()
    torch.save({"w": torch.ones(2)}, buffer, _use_new_zipfile_serialization=False)
    legacy.write_bytes(buffer.getvalue())
    with pytest.raises(PyTorchFileError, match="not a zip-format PyTorch file"):
        load_pytorch_file(legacy)
    with pytest.raises(FileNotFoundError, match="no PyTorch file"):
        load_pytorch_file(tmp_path / "none.pt")

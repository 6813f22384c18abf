"""minigrad.save_safetensors / load_safetensors: round trips, interop with the real
safetensors package both ways, tied weights stored once, and every malformed file refused."""

from __future__ import annotations

import json
import struct

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minigrad
from minigrad import models, nn
from minigrad.safetensors_io import (
    ALIASES_KEY,
    SafetensorsError,
    load_safetensors,
    safetensors_metadata,
    save_safetensors,
)

DTYPES = ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8",
          "uint16", "uint32", "uint64", "bool"]
tensors = st.dictionaries(
    st.text(min_size=1, max_size=6).filter(lambda s: s != "__metadata__"),
    st.tuples(st.sampled_from(DTYPES), st.lists(st.integers(0, 3), max_size=3),
              st.integers(0, 2**31)).map(
        lambda a: np.random.default_rng(a[2]).integers(0, 100, size=tuple(a[1])).astype(a[0])),
    max_size=4,
)


def assert_same(a: dict, b: dict) -> None:
    assert list(a) == list(b)
    for k, x in a.items():
        assert x.dtype == b[k].dtype and x.shape == b[k].shape, k
        np.testing.assert_array_equal(x, b[k])


@given(state=tensors)
def test_round_trip(state, tmp_path_factory):
    path = tmp_path_factory.mktemp("st") / "w.safetensors"
    save_safetensors(state, path, {"note": "hi"})
    assert_same(load_safetensors(path), state)
    assert safetensors_metadata(path) == {"note": "hi"}


@given(state=tensors)
def test_interop_with_the_safetensors_package_both_ways(state, tmp_path_factory):
    st_numpy = pytest.importorskip("safetensors.numpy")
    d = tmp_path_factory.mktemp("st")
    save_safetensors(state, d / "ours.safetensors", {"k": "v"})
    assert_same(dict(sorted(st_numpy.load_file(d / "ours.safetensors").items())),
                dict(sorted(state.items())))
    st_numpy.save_file(state, d / "theirs.safetensors", metadata={"k": "v"})
    assert_same(dict(sorted(load_safetensors(d / "theirs.safetensors").items())),
                dict(sorted(state.items())))
    assert safetensors_metadata(d / "theirs.safetensors") == {"k": "v"}


def test_bfloat16_from_torch_widens_exactly(tmp_path):
    torch = pytest.importorskip("torch")
    st_torch = pytest.importorskip("safetensors.torch")
    x = torch.randn(5, 3).to(torch.bfloat16)
    st_torch.save_file({"x": x}, tmp_path / "b.safetensors")
    out = load_safetensors(tmp_path / "b.safetensors")["x"]
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, x.float().numpy())


def test_module_and_tensors_are_accepted_and_a_tied_weight_is_stored_once(tmp_path):
    minigrad.manual_seed(0)
    gpt = models.GPT(vocab_size=11, block_size=8, n_layer=1, n_head=2, n_embd=8)
    save_safetensors(gpt, tmp_path / "g.safetensors")
    st_numpy = pytest.importorskip("safetensors.numpy")
    raw = st_numpy.load_file(tmp_path / "g.safetensors")
    assert "wte.weight" in raw and "lm_head.weight" not in raw  # once
    assert json.loads(safetensors_metadata(tmp_path / "g.safetensors")[ALIASES_KEY]) == \
        {"lm_head.weight": "wte.weight"}
    back = load_safetensors(tmp_path / "g.safetensors")
    assert back["lm_head.weight"] is back["wte.weight"]  # the tie comes back
    other = models.GPT(vocab_size=11, block_size=8, n_layer=1, n_head=2, n_embd=8)
    other.load_state_dict(back)
    for k, v in gpt.state_dict().items():
        np.testing.assert_array_equal(other.state_dict()[k].data, v.data)


def test_gpt_save_and_from_safetensors_keep_the_config(tmp_path):
    minigrad.manual_seed(0)
    gpt = models.GPT(vocab_size=13, block_size=6, n_layer=2, n_head=2, n_embd=8,
                     activation="gelu_tanh", tie_weights=False, layer_norm_eps=1e-6)
    gpt.save_safetensors(tmp_path / "g.safetensors")
    again = models.GPT.from_safetensors(tmp_path / "g.safetensors")
    assert again.config == gpt.config
    x = np.arange(12).reshape(2, 6) % 13
    with minigrad.no_grad():
        np.testing.assert_array_equal(again(x)[0].data, gpt(x)[0].data)
    save_safetensors({"w": np.ones(2)}, tmp_path / "plain.safetensors")
    with pytest.raises(ValueError, match="minigrad.gpt_config"):
        models.GPT.from_safetensors(tmp_path / "plain.safetensors")


def test_unsupported_values_raise_before_writing(tmp_path):
    path = tmp_path / "x.safetensors"
    with pytest.raises(TypeError, match="'c'.*complex128"):
        save_safetensors({"a": np.ones(2), "c": np.ones(2, complex)}, path)
    with pytest.raises(TypeError, match="metadata"):
        save_safetensors({"a": np.ones(2)}, path, {"n": 1})
    with pytest.raises(ValueError, match="__metadata__"):
        save_safetensors({"__metadata__": np.ones(2)}, path)
    with pytest.raises(TypeError, match="mapping"):
        save_safetensors([np.ones(2)], path)
    assert not path.exists() and list(tmp_path.iterdir()) == []


# ---- malformed files ------------------------------------------------------------------
def raw_file(path, header: dict, data: bytes, n: int | None = None) -> None:
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text) if n is None else n) + text + data)


F32x2 = {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}


@pytest.mark.parametrize("header, data, n, fragment", [
    ({"a": F32x2}, b"\0" * 8, 2**40, "100 MB cap"),
    ({"a": F32x2}, b"\0" * 8, 10**6, "larger than the file"),
    ({"a": {**F32x2, "dtype": "F8_E4M3"}}, b"\0" * 8, None, "unknown dtype 'F8_E4M3'"),
    ({"a": {**F32x2, "data_offsets": [0, 16]}}, b"\0" * 8, None, "outside the data area"),
    ({"a": {**F32x2, "shape": [3]}}, b"\0" * 8, None, "needs 12 bytes"),
    ({"a": {**F32x2, "shape": [-2]}}, b"\0" * 8, None, "bad shape"),
    ({"a": {"dtype": "F32", "shape": [2]}}, b"\0" * 8, None, "exactly dtype"),
    ({"a": F32x2, "b": F32x2}, b"\0" * 8, None, "overlap"),
    ({"a": {**F32x2, "data_offsets": [4, 12]}}, b"\0" * 12, None, "gap"),
    ({"a": F32x2}, b"\0" * 12, None, "trailing bytes"),
    ({"__metadata__": {"k": 1}, "a": F32x2}, b"\0" * 8, None, "str to str"),
    ({"__metadata__": {ALIASES_KEY: '{"b": "zz"}'}, "a": F32x2}, b"\0" * 8, None,
     ALIASES_KEY),
])
def test_malformed_files_are_refused_with_the_reason(tmp_path, header, data, n, fragment):
    path = tmp_path / "bad.safetensors"
    raw_file(path, header, data, n)
    with pytest.raises(SafetensorsError, match=fragment) as e:
        load_safetensors(path)
    assert str(path) in str(e.value)


def test_short_garbage_and_missing_files(tmp_path):
    (tmp_path / "short").write_bytes(b"\1\2")
    with pytest.raises(SafetensorsError, match="too short"):
        load_safetensors(tmp_path / "short")
    (tmp_path / "json").write_bytes(struct.pack("<Q", 3) + b"{x}")
    with pytest.raises(SafetensorsError, match="not valid JSON"):
        load_safetensors(tmp_path / "json")
    with pytest.raises(FileNotFoundError):
        load_safetensors(tmp_path / "nope")


# ---- tied weights in load_state_dict and minigrad.save ------------------------------------
class Tied(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(5, 3)
        self.head = nn.Linear(3, 5, bias=False)
        self.head.weight = self.emb.weight


def test_untied_checkpoint_into_a_tied_model_names_both_keys_and_changes_nothing():
    net = Tied()
    before = net.emb.weight.data.copy()
    state = {"emb.weight": np.zeros((5, 3)), "head.weight": np.ones((5, 3))}
    with pytest.raises(ValueError, match=r"'emb\.weight' and 'head\.weight'"):
        net.load_state_dict(state)
    np.testing.assert_array_equal(net.emb.weight.data, before)
    net.load_state_dict({"emb.weight": np.ones((5, 3)), "head.weight": np.ones((5, 3))})
    np.testing.assert_array_equal(net.head.weight.data, 1.0)  # equal arrays load


def test_strict_false_with_one_name_of_a_tie_is_refused():
    net = Tied()
    before = net.emb.weight.data.copy()
    with pytest.raises(ValueError, match=r"head\.weight.*emb\.weight"):
        net.load_state_dict({"head.weight": np.ones((5, 3))}, strict=False)
    np.testing.assert_array_equal(net.emb.weight.data, before)


def test_minigrad_save_stores_a_tied_weight_once_and_restores_the_tie(tmp_path):
    import zipfile

    net = Tied()
    minigrad.save({"model": net.state_dict()}, tmp_path / "c.npz")
    with zipfile.ZipFile(tmp_path / "c.npz") as zf:
        assert len([n for n in zf.namelist() if n != "__minigrad__.npy"]) == 1
    back = minigrad.load(tmp_path / "c.npz")["model"]
    assert set(back) == {"emb.weight", "head.weight"}  # stable key names
    assert back["emb.weight"] is back["head.weight"]
    other = Tied()
    other.load_state_dict(back)
    np.testing.assert_array_equal(other.head.weight.data, net.emb.weight.data)

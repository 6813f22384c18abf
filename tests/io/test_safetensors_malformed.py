"""Every malformed safetensors header is a SafetensorsError naming the file, never a bare
Python error: each field of a valid header replaced by a value of every JSON type."""

import json
import struct

import numpy as np
import pytest

import minigrad as mg
from minigrad.safetensors_io import SafetensorsError

BAD_VALUES = {
    "null": "null", "true": "true", "float": "1.5", "negative": "-1", "string": '"x"',
    "empty list": "[]", "object": "{}", "list of strings": '["a", "b"]',
    "list of floats": "[1.0, 2.0]", "list of bools": "[true, false]",
    "overflowing product": "[4294967296, 4294967296, 4294967296]",
    "huge ints": "[36893488147419103232, 36893488147419103232]",
    "5000-digit int": "1" + "0" * 5000, "deep list": "[" * 2000 + "]" * 2000,
    "nested list": "[[1], [2]]",
}
FIELDS = ["dtype", "shape", "data_offsets", "__metadata__", "entry"]


def _file(tmp_path, header_text: str, data: bytes) -> str:
    raw = header_text.encode()
    path = tmp_path / "bad.safetensors"
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + data)
    return str(path)


def _valid(tmp_path):
    path = tmp_path / "ok.safetensors"
    mg.save_safetensors({"w": np.arange(6, dtype=np.float32).reshape(2, 3)}, str(path))
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    return json.loads(raw[8:8 + n]), raw[8 + n:]


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("bad", BAD_VALUES)
def test_a_malformed_field_is_a_clear_error(tmp_path, field, bad):
    if (field, bad) == ("__metadata__", "object"):
        pytest.skip("an empty __metadata__ object is valid")
    header, data = _valid(tmp_path)
    marker = "__BAD__"
    if field == "__metadata__":
        header["__metadata__"] = marker
    elif field == "entry":
        header["w"] = marker
    else:
        header["w"][field] = marker
    text = json.dumps(header).replace(f'"{marker}"', BAD_VALUES[bad])
    path = _file(tmp_path, text, data)
    with pytest.raises(SafetensorsError, match="bad.safetensors"):
        mg.load_safetensors(path)


@pytest.mark.parametrize("text", ["", "[]", "1" + "0" * 5000, '{"a": ', "\udcff".encode(
    "utf-8", "surrogatepass").decode("latin-1"), "[" * 100000])
def test_a_header_that_is_not_a_json_object_is_a_clear_error(tmp_path, text):
    with pytest.raises(SafetensorsError, match="bad.safetensors"):
        mg.load_safetensors(_file(tmp_path, text, b""))

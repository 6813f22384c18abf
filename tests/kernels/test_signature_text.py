"""The background compiler's requests are JSON text, never pickle: every argument type
minigrad's kernels take goes there and back exactly; any other type is refused."""

from __future__ import annotations

import json

import pytest
from numba.core import types

from minigrad.kernels.runtime.signature_text import from_text, to_text


def test_kernel_argument_types_round_trip():
    args = (types.Array(types.float32, 2, "C", readonly=True, aligned=True),
            types.Array(types.float32, 4, "A"), types.Array(types.float64, 1, "F"),
            types.Array(types.int64, 3, "C"), types.Array(types.boolean, 2, "C"),
            types.float32, types.float64, types.int64, types.boolean)
    text = to_text(args)
    assert " " not in text and "\n" not in text  # one field of one line
    assert isinstance(json.loads(text), list)
    assert from_text(text) == args


def test_a_type_without_a_text_form_is_refused():
    with pytest.raises(TypeError, match="no text form"):
        to_text((types.UniTuple(types.int64, 2),))

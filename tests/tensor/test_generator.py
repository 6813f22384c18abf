"""minigrad.Generator (as torch.Generator), randperm and multinomial(generator=): a stream of
its own, repeatable under a seed, independent of the global one."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.random import numpy_generator


def test_a_generator_is_seeded_like_torchs_and_returns_itself():
    g = mg.Generator()
    assert g.initial_seed() == 67280421310721
    assert g.manual_seed(5) is g and g.initial_seed() == 5
    assert g.device == "cpu"
    torch = pytest.importorskip("torch")
    assert torch.Generator().initial_seed() == mg.Generator().initial_seed()


def test_same_seed_same_draws_and_the_global_stream_untouched():
    mg.manual_seed(0)
    expected_global = mg.rand(3).tolist()
    mg.manual_seed(0)
    a = mg.randperm(20, generator=mg.Generator().manual_seed(3)).tolist()
    assert mg.rand(3).tolist() == expected_global  # a Generator does not draw from the global
    assert a == mg.randperm(20, generator=mg.Generator().manual_seed(3)).tolist()
    assert a != mg.randperm(20, generator=mg.Generator().manual_seed(4)).tolist()
    assert sorted(a) == list(range(20))


def test_state_round_trip_and_seed():
    g = mg.Generator().manual_seed(1)
    state = g.get_state()
    first = mg.randperm(10, generator=g).tolist()
    assert g.set_state(state) is g
    assert mg.randperm(10, generator=g).tolist() == first
    seed = g.seed()
    assert g.initial_seed() == seed and 0 <= seed < 2**63
    with pytest.raises(ValueError, match="uint64 array of shape"):
        g.set_state(np.zeros(3))
    with pytest.raises(ValueError, match="non-negative integer"):
        g.manual_seed(-1)


def test_randperm_dtype_and_errors():
    p = mg.randperm(5)
    assert p.dtype == np.int64 and sorted(p.tolist()) == [0, 1, 2, 3, 4]
    assert mg.randperm(4, dtype=np.int32).dtype == np.int32
    assert mg.randperm(0).tolist() == []
    with pytest.raises(ValueError, match="non-negative integer"):
        mg.randperm(-1)


def test_numpy_generator_accepts_none_generator_and_numpy():
    rng = np.random.default_rng(0)
    assert numpy_generator(rng) is rng
    assert numpy_generator(None) is mg.random.generator()
    with pytest.raises(TypeError, match="generator must be None, a minigrad.Generator"):
        numpy_generator(42)


def test_multinomial_with_a_generator():
    def draw(seed):
        return mg.multinomial([0.1, 0.2, 0.7], 6, True,
                              generator=mg.Generator().manual_seed(seed)).tolist()

    assert draw(2) == draw(2)
    assert draw(2) != draw(3) or draw(2) != draw(4)

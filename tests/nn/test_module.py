"""nn.Module, Parameter, Sequential, ModuleList: registration, naming, modes,
state_dict round trips and strict loading, repr."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 4)
        self.norm = nn.LayerNorm(4)
        self.drop = nn.Dropout(0.5)
        self.scale = nn.Parameter(np.ones(4, dtype=np.float32))
        self.register_buffer("steps", np.zeros(1, dtype=np.int64))
        self.register_buffer("cache", np.zeros(2, dtype=np.float32), persistent=False)

    def forward(self, x):
        return self.drop(self.norm(self.fc(x))) * self.scale


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(5, 3)
        self.blocks = nn.ModuleList([Block(), Block()])
        self.head = nn.Linear(4, 5, bias=False)

    def forward(self, ids):
        x = self.emb(ids)
        for b in self.blocks:
            x = b(x)[..., :3]
        return x


def test_parameter_is_a_tensor_that_requires_grad():
    p = nn.Parameter(np.zeros((2, 3), dtype=np.float64))
    assert isinstance(p, mg.Tensor) and p.requires_grad and p.dtype == np.float64
    assert nn.Parameter([1.0, 2.0]).dtype == np.float32
    t = mg.ones(2)
    assert nn.Parameter(t).data is t.data  # shares, does not copy
    with pytest.raises(TypeError):
        nn.Parameter(np.arange(3))
    assert "Parameter containing" in repr(p)


def test_named_parameters_are_dotted_and_ordered():
    names = [n for n, _ in Net().named_parameters()]
    assert names == [
        "emb.weight",
        "blocks.0.scale", "blocks.0.fc.weight", "blocks.0.fc.bias",
        "blocks.0.norm.weight", "blocks.0.norm.bias",
        "blocks.1.scale", "blocks.1.fc.weight", "blocks.1.fc.bias",
        "blocks.1.norm.weight", "blocks.1.norm.bias",
        "head.weight",
    ]
    assert len(list(Net().parameters())) == len(names)


def test_tied_weights_appear_once_in_parameters_but_under_both_names_in_state_dict():
    net = Net()
    net.head.weight = net.emb.weight  # wrong shape for a real model, but a tie is a tie
    params = list(net.parameters())
    assert sum(p is net.emb.weight for p in params) == 1
    sd = net.state_dict()
    assert "emb.weight" in sd and "head.weight" in sd
    assert np.shares_memory(sd["emb.weight"].data, sd["head.weight"].data)


def test_buffers_and_state_dict_share_memory():
    net = Net()
    sd = net.state_dict()
    assert "blocks.0.steps" in sd and "blocks.0.cache" not in sd  # non-persistent left out
    assert isinstance(sd, OrderedDict)
    assert all(isinstance(v, mg.Tensor) for v in sd.values())
    assert not any(v.requires_grad for v in sd.values())
    assert sd["emb.weight"].data is net.emb.weight.data
    assert [n for n, _ in net.named_buffers()] == [
        "blocks.0.steps", "blocks.0.cache", "blocks.1.steps", "blocks.1.cache"]


def test_state_dict_round_trip_copies_in_place_and_casts():
    src, dst = Net(), Net()
    w_before = dst.emb.weight.data
    state = {k: v.data.astype(np.float64) for k, v in src.state_dict().items()}  # ndarrays
    dst.load_state_dict(state)
    assert dst.emb.weight.data is w_before  # in place: an optimizer's reference stays valid
    assert dst.emb.weight.dtype == np.float32
    for k, v in src.state_dict().items():
        np.testing.assert_array_equal(dst.state_dict()[k].data, v.data)
    dst.load_state_dict(src.state_dict())  # Tensors work too


def _snapshot(m):
    return {k: v.data.copy() for k, v in m.state_dict().items()}


def _unchanged(m, snap):
    return all(np.array_equal(v.data, snap[k]) for k, v in m.state_dict().items())


def test_strict_load_reports_missing_and_unexpected_keys_and_changes_nothing():
    src, dst = Net(), Net()
    snap = _snapshot(dst)
    state = src.state_dict()
    del state["head.weight"]
    state["blocks.7.fc.weight"] = np.zeros((4, 3), np.float32)
    with pytest.raises(KeyError) as e:
        dst.load_state_dict(state)
    assert "head.weight" in str(e.value) and "blocks.7.fc.weight" in str(e.value)
    assert _unchanged(dst, snap)
    result = dst.load_state_dict(state, strict=False)
    assert result.missing_keys == ["head.weight"]
    assert result.unexpected_keys == ["blocks.7.fc.weight"]
    np.testing.assert_array_equal(dst.emb.weight.data, src.emb.weight.data)


def test_misshaped_entry_raises_naming_key_and_shapes_and_changes_nothing():
    src, dst = Net(), Net()
    snap = _snapshot(dst)
    state = {k: v.data.copy() for k, v in src.state_dict().items()}
    state["blocks.1.fc.weight"] = np.zeros((3, 4), np.float32)  # transposed
    with pytest.raises(ValueError, match=r"blocks\.1\.fc\.weight.*\(3, 4\).*\(4, 3\)"):
        dst.load_state_dict(state)
    assert _unchanged(dst, snap)  # emb.weight (checked before the bad key) was not applied
    with pytest.raises(ValueError):
        dst.load_state_dict(state, strict=False)  # shapes are checked even when not strict
    with pytest.raises(TypeError):
        dst.load_state_dict([1, 2])
    state["blocks.1.fc.weight"] = np.array(["a"] * 12).reshape(4, 3)
    with pytest.raises(TypeError):
        dst.load_state_dict(state)
    assert _unchanged(dst, snap)


def test_train_eval_recursive_and_dropout_follows():
    net = Net()
    assert all(m.training for m in net.modules())
    assert net.eval() is net
    assert not any(m.training for m in net.modules())
    x = mg.randn(2, 3)
    b = net.blocks[0]
    np.testing.assert_array_equal(b(x).data, b(x).data)  # eval: deterministic
    net.train()
    assert all(m.training for m in net.modules())


def test_zero_grad_apply_modules_children():
    net = Net()
    out = net(np.array([[0, 1, 4]]))
    out.sum().backward()
    assert net.emb.weight.grad is not None
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())
    seen = []
    net.apply(lambda m: seen.append(type(m).__name__))
    assert seen[-1] == "Net" and seen.count("Linear") == 3
    assert [n for n, _ in net.named_children()] == ["emb", "blocks", "head"]
    assert len(list(net.modules())) == 1 + 1 + 1 + 2 * 4 + 1
    names = dict(net.named_modules())
    assert isinstance(names["blocks.1.norm"], nn.LayerNorm) and names[""] is net


def test_setattr_rules_and_none_parameters():
    lin = nn.Linear(2, 3, bias=False)
    assert lin.bias is None and [n for n, _ in lin.named_parameters()] == ["weight"]
    with pytest.raises(TypeError, match="Parameter or None"):
        lin.weight = mg.zeros(3, 2)  # a plain Tensor cannot replace a Parameter
    lin.weight = nn.Parameter(np.zeros((3, 2), np.float32))
    assert np.all(lin.weight.data == 0)
    m = nn.Module()
    m.register_buffer("b", mg.ones(2))
    m.b = np.zeros(2, dtype=np.float32)  # assigning to a buffer name updates the buffer
    assert isinstance(m.b, mg.Tensor) and m.state_dict()["b"].data.sum() == 0
    m.sub = nn.ReLU()
    del m.sub
    assert list(m.children()) == []

    class NoInit(nn.Module):
        def __init__(self):
            self.x = nn.Linear(1, 1)

    with pytest.raises(AttributeError, match="super"):
        NoInit()


def test_sequential_and_modulelist_containers():
    seq = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    x = mg.randn(5, 3)
    manual = seq[2](seq[1](seq[0](x)))
    np.testing.assert_allclose(seq(x).data, manual.data)
    assert len(seq) == 3 and isinstance(seq[-1], nn.Linear) and len(seq[:2]) == 2
    seq.append(nn.GELU())
    assert [n for n, _ in seq.named_children()] == ["0", "1", "2", "3"]
    named = nn.Sequential(OrderedDict(fc=nn.Linear(3, 3), act=nn.ReLU()))
    assert [n for n, _ in named.named_parameters()] == ["fc.weight", "fc.bias"]

    ml = nn.ModuleList()
    ml.append(nn.Linear(1, 1)).extend([nn.Linear(1, 2), nn.Linear(2, 2)])
    assert len(ml) == 3 and [type(m) for m in ml] == [nn.Linear] * 3
    assert ml[1].out_features == 2 and ml[-1].in_features == 2
    ml[0] = nn.Linear(1, 5)
    assert ml[0].out_features == 5
    ml.insert(0, nn.ReLU())
    assert isinstance(ml[0], nn.ReLU) and len(ml) == 4
    del ml[0]
    assert [n for n, _ in ml.named_parameters()][:2] == ["0.weight", "0.bias"]
    with pytest.raises(IndexError):
        ml[7]
    with pytest.raises(TypeError):
        ml.append("not a module")
    with pytest.raises(TypeError):
        nn.Sequential(nn.ReLU(), 3)
    with pytest.raises(NotImplementedError):
        ml(x)


def test_repr_shows_the_tree():
    text = repr(nn.Sequential(nn.Linear(3, 4), nn.GELU(approximate="tanh"), nn.Dropout(0.1)))
    assert text == (
        "Sequential(\n"
        "  (0): Linear(in_features=3, out_features=4, bias=True)\n"
        "  (1): GELU(approximate='tanh')\n"
        "  (2): Dropout(p=0.1)\n"
        ")"
    )
    assert repr(nn.ReLU()) == "ReLU()"
    nested = repr(Net())
    assert "(blocks): ModuleList(\n    (0): Block(\n      (fc): Linear(" in nested


def test_to_double_and_num_parameters():
    net = Net().double()
    assert all(p.dtype == np.float64 for p in net.parameters())
    assert net.blocks[0].steps.dtype == np.int64  # integer buffers are left alone
    assert net.num_parameters() == 5 * 3 + 2 * (4 + 12 + 4 + 4 + 4) + 20
    with pytest.raises(TypeError):
        net.to(np.int32)
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())


def test_deepcopy_gives_an_independent_module():
    import copy

    net = Net()
    clone = copy.deepcopy(net)
    clone.emb.weight.data[...] = 0
    assert np.abs(net.emb.weight.data).sum() > 0
    assert [n for n, _ in clone.named_parameters()] == [n for n, _ in net.named_parameters()]

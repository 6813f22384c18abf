"""Everyday PyTorch idioms (tutorial and nanoGPT-style code), each run with ``torch`` and
with ``minigrad`` as the same function of the module, and the results compared by value.

Each idiom takes the library module ``lib`` (``torch`` or ``minigrad``); ``nn``/``F``
come from it. Results may be tensors, numbers, shapes, or tuples of these.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

A = np.arange(12, dtype=np.float32).reshape(3, 4) / 4 - 1
B = np.linspace(-1, 1, 20, dtype=np.float32).reshape(4, 5)
IDS = np.array([[1, 0, 3], [2, 2, 1]])


def t(lib, a, **kw):
    return lib.tensor(a, **kw)


def nnf(lib):
    return (lib.nn, lib.nn.functional)


def _backward_grad(lib):
    x = t(lib, A, requires_grad=True)
    (x * x).sum().backward()
    return x.grad


def _no_grad(lib):
    x = t(lib, A, requires_grad=True)
    with lib.no_grad():
        y = x * 2
    return y.requires_grad, (x * 2).requires_grad


def _linear_forward(lib):
    nn, _ = nnf(lib)
    lin = nn.Linear(4, 2)
    with lib.no_grad():
        lin.weight.copy_(t(lib, B[:2, :4])) if lib is torch else lin.weight.data.__setitem__(
            ..., B[:2, :4])
    return lin(t(lib, A)).shape, lin.weight.shape, lin.bias.shape


def _sequential(lib):
    nn, _ = nnf(lib)
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    return net(t(lib, A)).shape, len(list(net.parameters())), sum(p.numel() for p in net.parameters())


def _state_dict_keys(lib):
    nn, _ = nnf(lib)
    m = nn.Sequential(nn.Linear(4, 8), nn.LayerNorm(8), nn.Embedding(5, 3))
    return list(m.state_dict().keys())


def _module_subclass(lib):
    nn, F = nnf(lib)

    class MLP(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 3)
            self.drop = nn.Dropout(0.0)

        def forward(self, x):
            return F.relu(self.drop(self.fc(x)))

    m = MLP()
    m.eval()
    return m(t(lib, A)).shape, [n for n, _ in m.named_parameters()], m.training


def _training_step(lib):
    nn, F = nnf(lib)
    lin = nn.Linear(4, 3)
    with lib.no_grad():
        for p in lin.parameters():
            p.data[...] = 0.1 if lib is minigrad else p.fill_(0.1)
    opt = lib.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9, weight_decay=0.1)
    loss = F.cross_entropy(lin(t(lib, A)), t(lib, np.array([0, 2, 1])))
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item(), lin.weight


def _grad_clip(lib):
    x = t(lib, A, requires_grad=True)
    (x * 3).sum().backward()
    clip = lib.nn.utils.clip_grad_norm_ if lib is torch else lib.optim.clip_grad_norm_
    return float(clip([x], 1.0))


def _generate_step(lib):
    logits = t(lib, B)
    probs = lib.softmax(logits[:, -3:] / 0.8, dim=-1)
    v, _ = lib.topk(logits, 2)
    logits = logits.masked_fill(logits < v[:, [-1]], float("-inf"))
    return probs, logits


def _causal_mask_scores(lib):
    T = 4
    tril = lib.tril(lib.ones(T, T))
    att = t(lib, B[:, :4]).masked_fill(tril == 0, float("-inf"))
    return lib.softmax(att, dim=-1)


IDIOMS = {
    # creation
    "tensor_list": lambda lib: lib.tensor([[1.0, 2.0], [3.0, 4.0]]),
    "tensor_int_dtype": lambda lib: lib.tensor([1, 2, 3]).dtype == lib.long,
    "zeros_shape": lambda lib: lib.zeros(2, 3),
    "zeros_tuple": lambda lib: lib.zeros((2, 3)),
    "ones_like": lambda lib: lib.ones_like(t(lib, A)),
    "zeros_like": lambda lib: lib.zeros_like(t(lib, A)),
    "full": lambda lib: lib.full((2, 2), 7.0),
    "full_like": lambda lib: lib.full_like(t(lib, A), 2.5),
    "arange": lambda lib: lib.arange(0, 10, 2),
    "arange_float": lambda lib: lib.arange(0.0, 1.0, 0.25),
    "linspace": lambda lib: lib.linspace(0, 1, 5),
    "eye": lambda lib: lib.eye(3),
    "empty_shape": lambda lib: lib.empty(2, 3).shape,
    "from_numpy": lambda lib: lib.from_numpy(A.copy()),
    "randn_shape": lambda lib: (lib.manual_seed(0), lib.randn(2, 3).shape)[1],
    "rand_range": lambda lib: bool(((lib.rand(100) >= 0) & (lib.rand(100) < 1)).all()),
    # shape and size
    "shape": lambda lib: tuple(t(lib, A).shape),
    "size": lambda lib: tuple(t(lib, A).size()),
    "size_dim": lambda lib: t(lib, A).size(-1),
    "numel": lambda lib: t(lib, A).numel(),
    "dim": lambda lib: t(lib, A).dim(),
    "view": lambda lib: t(lib, A).view(2, 6),
    "view_minus1": lambda lib: t(lib, A).view(-1),
    "reshape": lambda lib: t(lib, A).reshape(4, 3),
    "transpose": lambda lib: t(lib, A).transpose(0, 1),
    "T": lambda lib: t(lib, A).T,
    "permute": lambda lib: t(lib, A).reshape(3, 2, 2).permute(2, 0, 1),
    "unsqueeze": lambda lib: t(lib, A).unsqueeze(1).shape,
    "squeeze": lambda lib: t(lib, A).reshape(3, 1, 4).squeeze(1),
    "flatten": lambda lib: t(lib, A).reshape(3, 2, 2).flatten(1),
    "contiguous_view": lambda lib: t(lib, A).transpose(0, 1).contiguous().view(-1),
    "split_heads": lambda lib: t(lib, A).view(3, 2, 2).transpose(0, 1),
    "cat": lambda lib: lib.cat([t(lib, A), t(lib, A)], dim=1),
    "stack": lambda lib: lib.stack([t(lib, A), t(lib, A)], dim=0),
    "split": lambda lib: t(lib, A).split(3, dim=1),
    "split_fn": lambda lib: lib.split(t(lib, A), [1, 3], dim=1),
    "chunk": lambda lib: t(lib, A).chunk(2, dim=-1),
    "expand": lambda lib: t(lib, A[:, :1]).expand(3, 4),
    "repeat": lambda lib: t(lib, A).repeat(2, 1),
    "flip": lambda lib: t(lib, A).flip(0),
    # indexing
    "index_slice": lambda lib: t(lib, A)[:, 1:3],
    "index_last": lambda lib: t(lib, A)[:, -1, None],
    "index_bool": lambda lib: t(lib, A)[t(lib, A) > 0],
    "index_fancy": lambda lib: t(lib, A)[lib.tensor([0, 2])],
    "index_select": lambda lib: t(lib, A).index_select(0, lib.tensor([2, 0])),
    "narrow": lambda lib: t(lib, A).narrow(1, 1, 2),
    "nonzero": lambda lib: (t(lib, A) > 0.5).nonzero(),
    "bmm": lambda lib: lib.bmm(t(lib, A).reshape(1, 3, 4), t(lib, B).reshape(1, 4, 5)),
    "outer": lambda lib: lib.outer(t(lib, A[0]), t(lib, B[0])),
    "gather": lambda lib: t(lib, A).gather(1, lib.tensor([[0], [3], [1]])),
    "where": lambda lib: lib.where(t(lib, A) > 0, t(lib, A), lib.zeros_like(t(lib, A))),
    "masked_fill": lambda lib: t(lib, A).masked_fill(t(lib, A) < 0, 0.0),
    "tril": lambda lib: lib.tril(lib.ones(3, 3)),
    "triu_bool": lambda lib: lib.triu(lib.ones(3, 3, dtype=lib.bool), diagonal=1),
    # math and reductions
    "arith": lambda lib: (t(lib, A) * 2 + 1) / 3 - t(lib, A) ** 2,
    "matmul": lambda lib: t(lib, A) @ t(lib, B),
    "matmul_fn": lambda lib: lib.matmul(t(lib, A), t(lib, B)),
    "sum_dim_keepdim": lambda lib: t(lib, A).sum(dim=1, keepdim=True),
    "mean_dim": lambda lib: t(lib, A).mean(-1),
    "max_dim_tuple": lambda lib: tuple(t(lib, A).max(dim=1)),
    "max_values_indices": lambda lib: (t(lib, A).max(-1).values, t(lib, A).max(-1).indices),
    "max_all": lambda lib: t(lib, A).max(),
    "min_dim_0": lambda lib: t(lib, A).min(0)[0],
    "fn_max_dim": lambda lib: lib.max(t(lib, A), 1)[1],
    "argmax_dim": lambda lib: t(lib, A).argmax(dim=-1),
    "var_std": lambda lib: (t(lib, A).var(dim=0), t(lib, A).std()),
    "var_unbiased_false": lambda lib: t(lib, A).var(-1, unbiased=False),
    "exp_log_sqrt": lambda lib: (t(lib, A).exp(), t(lib, A).abs().sqrt(), (t(lib, A) + 2).log()),
    "clamp": lambda lib: t(lib, A).clamp(min=-0.5, max=0.5),
    "softmax_dim": lambda lib: t(lib, A).softmax(dim=-1),
    "log_softmax": lambda lib: lib.log_softmax(t(lib, A), dim=1),
    "topk": lambda lib: tuple(lib.topk(t(lib, A), 2)),
    "sort": lambda lib: tuple(t(lib, A).sort(descending=True)),
    "cumsum": lambda lib: t(lib, A).cumsum(dim=1),
    "norm": lambda lib: t(lib, A).norm(dim=-1),
    "einsum": lambda lib: lib.einsum("ij,jk->ik", t(lib, A), t(lib, B)),
    "maximum": lambda lib: lib.maximum(t(lib, A), lib.zeros(3, 4)),
    "comparisons": lambda lib: ((t(lib, A) > 0) & (t(lib, A) <= 1)).sum(),
    "eq_float_mean": lambda lib: (t(lib, A).argmax(1) == lib.tensor([3, 3, 3])).float().mean(),
    "isnan_any": lambda lib: (t(lib, A) / 0).isnan().any(),
    "item": lambda lib: t(lib, A).sum().item(),
    "tolist": lambda lib: t(lib, A).tolist(),
    # dtypes, devices
    "float_double": lambda lib: (t(lib, IDS).float().dtype == lib.float32,
                                 t(lib, A).double().dtype == lib.float64),
    "long_int_bool": lambda lib: (t(lib, A).long(), t(lib, A).int(), t(lib, A).bool()),
    "to_dtype": lambda lib: t(lib, A).to(lib.float64),
    "to_device": lambda lib: t(lib, A).to("cpu"),
    "device_type": lambda lib: t(lib, A).device.type,
    "detach": lambda lib: t(lib, A, requires_grad=True).detach().requires_grad,
    "numpy": lambda lib: t(lib, A).detach().numpy() if lib is torch else t(lib, A).numpy(),
    # autograd
    "backward_grad": _backward_grad,
    "no_grad": _no_grad,
    "requires_grad_": lambda lib: t(lib, A).requires_grad_().requires_grad,
    # nn
    "linear": _linear_forward,
    "sequential": _sequential,
    "state_dict_keys": _state_dict_keys,
    "module_subclass": _module_subclass,
    "training_step": _training_step,
    "clip_grad_norm": _grad_clip,
    "embedding_shape": lambda lib: lib.nn.Embedding(10, 4)(lib.tensor(IDS)).shape,
    "layernorm": lambda lib: lib.nn.LayerNorm(4)(t(lib, A)),
    "cross_entropy_3d": lambda lib: lib.nn.functional.cross_entropy(
        t(lib, B[:2, :4]).view(-1, 2), lib.tensor([0, 1, 1, 0])),
    "one_hot": lambda lib: lib.nn.functional.one_hot(lib.tensor(IDS), 4),
    "mse_loss": lambda lib: lib.nn.functional.mse_loss(t(lib, A), lib.zeros(3, 4)),
    "gelu_tanh": lambda lib: lib.nn.functional.gelu(t(lib, A), approximate="tanh"),
    "sdpa_causal": lambda lib: lib.nn.functional.scaled_dot_product_attention(
        t(lib, A)[None], t(lib, A)[None], t(lib, A)[None], is_causal=True),
    "generate_step": _generate_step,
    "causal_mask_scores": _causal_mask_scores,
    "module_to_cpu": lambda lib: isinstance(lib.nn.Linear(2, 2).to("cpu"), lib.nn.Module),
    "init_normal": lambda lib: (lib.manual_seed(0), lib.nn.init.zeros_(lib.nn.Linear(2, 3).bias))[1],
    "modulelist": lambda lib: len(lib.nn.ModuleList([lib.nn.Linear(2, 2) for _ in range(3)])),
}


def _setitem(lib):
    x = t(lib, A)
    x[0, 1] = 5.0
    return x


def _grad_zero_(lib):
    x = t(lib, A, requires_grad=True)
    x.sum().backward()
    return x.grad.zero_()


# Idioms that behave as in PyTorch since the in-place rule, ``.grad`` as a Tensor and the
# convolution layers: the table above, joined here so each stays beside its helper.
IDIOMS.update({
    "setitem": _setitem,
    "add_": lambda lib: t(lib, A).add_(1.0),
    "grad_zero_": _grad_zero_,
    "conv2d_shape": lambda lib: lib.nn.Conv2d(1, 1, 3)(lib.ones(1, 1, 4, 4)).shape,
})

# Idioms that differ from PyTorch by design: each with the reason (docs/pytorch.md).
KNOWN_DIFFERENT = {
    "data_is_tensor": (lambda lib: type(t(lib, A).data).__name__,
                       ".data is the ndarray by design (documented difference)"),
}


def _plain(x):
    """A comparable plain value: arrays for tensors, tuples for shapes/sequences."""
    if isinstance(x, (torch.Tensor, minigrad.Tensor)):
        return x.detach().numpy() if isinstance(x, torch.Tensor) else x.numpy()
    if isinstance(x, torch.Size):
        return tuple(x)
    if isinstance(x, (tuple, list)):
        return tuple(_plain(v) for v in x)
    if isinstance(x, torch.dtype):
        return str(x).replace("torch.", "")
    if isinstance(x, np.dtype):
        return x.name
    return x


def _assert_same(got, want, where="result"):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), f"{where}: {got!r} vs {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            _assert_same(g, w, f"{where}[{i}]")
    elif isinstance(want, np.ndarray):
        g = np.asarray(got)
        assert g.shape == want.shape, f"{where}: shape {g.shape} vs {want.shape}"
        assert g.dtype == want.dtype, f"{where}: dtype {g.dtype} vs {want.dtype}"
        np.testing.assert_allclose(g, want, rtol=1e-5, atol=1e-6, err_msg=where)
    else:
        assert got == pytest.approx(want) if isinstance(want, float) else got == want, \
            f"{where}: {got!r} vs {want!r}"


@pytest.mark.parametrize("name", sorted(IDIOMS))
def test_idiom_behaves_as_in_pytorch(name):
    idiom = IDIOMS[name]
    torch.manual_seed(0)
    want = _plain(idiom(torch))
    got = _plain(idiom(minigrad))
    _assert_same(got, want)


@pytest.mark.parametrize("name", sorted(KNOWN_DIFFERENT))
def test_known_differences_are_still_different(name):
    """A listed difference that stops differing fails here: move it to IDIOMS."""
    idiom, _reason = KNOWN_DIFFERENT[name]
    torch.manual_seed(0)
    want = _plain(idiom(torch))
    with pytest.raises(AssertionError):
        _assert_same(_plain(idiom(minigrad)), want)

"""nn.TransformerEncoderLayer, TransformerDecoderLayer, TransformerEncoder, TransformerDecoder
and Transformer as PyTorch's: state dict keys, strict loading of PyTorch's weights, forward
values in float32/float64 in train (dropout 0) and eval, float64 gradients of inputs and
parameters, over every constructor option and forward argument (PyTorch comparisons skip
without torch); deep-copied stacks, the causal mask, shapes, errors and a gradcheck without
torch."""

from __future__ import annotations

import numpy as np
import pytest
from torch_module_compare import compare_with_torch

import minigrad as mg
from minigrad import nn
from minigrad.nn import functional as F

D, NH, FF, N, S, T = 8, 2, 16, 2, 5, 3

LAYER_OPTIONS = [
    {},
    {"norm_first": True},
    {"batch_first": True},
    {"bias": False},
    {"activation": "gelu", "layer_norm_eps": 1e-3},
    {"activation": "gelu_fn", "norm_first": True, "batch_first": True},
]

KPM = np.array([[False, False, False, False, True], [False, False, False, False, False]])


def _activation(opts: dict, lib: str) -> dict:
    """Options with "gelu_fn" replaced by each library's gelu function (a callable)."""
    out = dict(opts)
    if out.get("activation") == "gelu_fn":
        if lib == "torch":
            import torch
            out["activation"] = torch.nn.functional.gelu
        else:
            out["activation"] = F.gelu
    return out


def _causal(n: int) -> np.ndarray:
    return np.triu(np.full((n, n), -np.inf), 1)


def _forward_args(kind: str) -> list[dict]:
    """Forward-argument sets for each module kind (masks as ndarrays)."""
    rng = np.random.default_rng(0)
    if kind in ("encoder_layer", "encoder"):
        key = "src_mask" if kind == "encoder_layer" else "mask"
        causal_key = "is_causal"
        return [{}, {"src_key_padding_mask": KPM}, {key: _causal(S)},
                {key: _causal(S), causal_key: True}, {key: rng.standard_normal((S, S))},
                {key: np.zeros((N * NH, S, S), bool), "src_key_padding_mask": KPM}]
    mem_kpm = {"memory_key_padding_mask": KPM}
    args = [{}, {"tgt_mask": _causal(T)}, {"tgt_mask": _causal(T), "tgt_is_causal": True},
            {"tgt_key_padding_mask": KPM[:, :T] | np.eye(N, T, 1, dtype=bool)}, mem_kpm,
            {"memory_mask": rng.standard_normal((T, S)), **mem_kpm}]
    if kind == "transformer":
        args += [{"src_mask": _causal(S), "src_key_padding_mask": KPM, "tgt_mask": _causal(T)},
                 {"src_is_causal": True, "src_mask": _causal(S)}]
    return args


def _build(lib, kind: str, opts: dict):
    if lib == "torch":
        import torch
        m = torch.nn
    else:
        m = nn
    o = _activation(opts, lib)
    common = {"dim_feedforward": FF, "dropout": 0.0, **o}
    if kind == "encoder_layer":
        return m.TransformerEncoderLayer(D, NH, **common)
    if kind == "decoder_layer":
        return m.TransformerDecoderLayer(D, NH, **common)
    if kind == "encoder":
        return m.TransformerEncoder(m.TransformerEncoderLayer(D, NH, **common), 2,
                                    norm=m.LayerNorm(D), enable_nested_tensor=False)
    if kind == "decoder":
        return m.TransformerDecoder(m.TransformerDecoderLayer(D, NH, **common), 2)
    return m.Transformer(D, NH, num_encoder_layers=2, num_decoder_layers=1, **common)


def _inputs(kind: str, batch_first: bool, dtype, rng) -> list[np.ndarray]:
    def seq(t):
        return rng.standard_normal((N, t, D) if batch_first else (t, N, D)).astype(dtype)
    if kind in ("encoder_layer", "encoder"):
        return [seq(S)]
    if kind == "transformer":
        return [seq(S), seq(T)]
    return [seq(T), seq(S)]


KINDS = ["encoder_layer", "decoder_layer", "encoder", "decoder", "transformer"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("opt", range(len(LAYER_OPTIONS)))
@pytest.mark.parametrize(("dtype", "train"), [(np.float32, False), (np.float64, False),
                                              (np.float64, True)])
def test_matches_torch(kind, opt, dtype, train):
    torch = pytest.importorskip("torch")
    opts = LAYER_OPTIONS[opt]
    torch.manual_seed(opt)
    tdt = torch.float64 if dtype == np.float64 else torch.float32
    theirs = _build("torch", kind, opts).to(tdt).train(train)
    mine = _build("minigrad", kind, opts).to(dtype).train(train)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    mine.load_state_dict({k: v.numpy() for k, v in theirs.state_dict().items()}, strict=True)
    rng = np.random.default_rng(opt)
    tol = {"rtol": 1e-4, "atol": 2e-5} if dtype == np.float32 else {"rtol": 1e-9, "atol": 1e-11}
    for fkw in _forward_args(kind):
        fkw = {k: v.astype(dtype) if isinstance(v, np.ndarray) and v.dtype.kind == "f" else v
               for k, v in fkw.items()}
        arrays = _inputs(kind, opts.get("batch_first", False), dtype, rng)
        compare_with_torch(theirs, mine, arrays, fkw, tol, rng, f"{kind} {sorted(fkw)}")


def test_square_subsequent_mask_and_transformer_init_match_torch():
    torch = pytest.importorskip("torch")
    for sz in (1, 4):
        np.testing.assert_array_equal(nn.Transformer.generate_square_subsequent_mask(sz).numpy(),
                                      torch.nn.Transformer.generate_square_subsequent_mask(sz))
    theirs = torch.nn.Transformer(16, 2, 1, 1, dim_feedforward=32)
    mine = nn.Transformer(16, 2, 1, 1, dim_feedforward=32)
    t_params = dict(theirs.named_parameters())
    for name, p in mine.named_parameters():
        b = t_params[name].detach().numpy()
        if p.ndim > 1:  # xavier_uniform over every matrix
            np.testing.assert_allclose(np.abs(p.numpy()).max(), np.abs(b).max(), rtol=0.2,
                                       err_msg=name)
        elif b.min() == b.max():  # LayerNorm ones and zeros, attention biases zeros
            np.testing.assert_array_equal(p.numpy(), b, err_msg=name)
        else:  # nn.Linear's U(-1/sqrt(fan_in), 1/sqrt(fan_in)) biases
            fan_in = t_params[name.replace("bias", "weight")].shape[1]
            assert np.abs(p.numpy()).max() <= 1 / np.sqrt(fan_in), name


# ---- without torch ---------------------------------------------------------------------

ENCODER_LAYER_KEYS = [
    "self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight",
    "self_attn.out_proj.bias", "linear1.weight", "linear1.bias", "linear2.weight",
    "linear2.bias", "norm1.weight", "norm1.bias", "norm2.weight", "norm2.bias",
]
DECODER_LAYER_KEYS = [
    "self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight",
    "self_attn.out_proj.bias", "multihead_attn.in_proj_weight", "multihead_attn.in_proj_bias",
    "multihead_attn.out_proj.weight", "multihead_attn.out_proj.bias", "linear1.weight",
    "linear1.bias", "linear2.weight", "linear2.bias", "norm1.weight", "norm1.bias",
    "norm2.weight", "norm2.bias", "norm3.weight", "norm3.bias",
]


def test_state_dict_keys_are_pytorchs():
    assert list(nn.TransformerEncoderLayer(D, NH, FF).state_dict()) == ENCODER_LAYER_KEYS
    assert list(nn.TransformerDecoderLayer(D, NH, FF).state_dict()) == DECODER_LAYER_KEYS
    assert list(nn.TransformerEncoderLayer(D, NH, FF, bias=False).state_dict()) == [
        "self_attn.in_proj_weight", "self_attn.out_proj.weight", "linear1.weight",
        "linear2.weight", "norm1.weight", "norm2.weight"]
    t = nn.Transformer(D, NH, 2, 1, FF)
    want = ([f"encoder.layers.{i}.{k}" for i in range(2) for k in ENCODER_LAYER_KEYS]
            + ["encoder.norm.weight", "encoder.norm.bias"]
            + [f"decoder.layers.0.{k}" for k in DECODER_LAYER_KEYS]
            + ["decoder.norm.weight", "decoder.norm.bias"])
    assert list(t.state_dict()) == want


def test_stacks_are_independent_deep_copies():
    layer = nn.TransformerEncoderLayer(D, NH, FF)
    enc = nn.TransformerEncoder(layer, 3)
    ws = [m.linear1.weight for m in enc.layers]
    assert len(enc.layers) == 3 and all(w is not layer.linear1.weight for w in ws)
    assert len({id(w) for w in ws}) == 3
    for w in ws:
        np.testing.assert_array_equal(w.numpy(), layer.linear1.weight.numpy())
    ws[0].data[...] = 0
    assert ws[1].numpy().any() and layer.linear1.weight.numpy().any()
    dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(D, NH, FF), 2)
    assert dec.layers[0].self_attn.in_proj_weight is not dec.layers[1].self_attn.in_proj_weight


def test_generate_square_subsequent_mask():
    m = nn.Transformer.generate_square_subsequent_mask(3)
    assert m.dtype == np.float32
    np.testing.assert_array_equal(m.numpy(), [[0, -np.inf, -np.inf], [0, 0, -np.inf], [0, 0, 0]])


@pytest.mark.parametrize("batch_first", [False, True])
def test_shapes_batched_and_unbatched(batch_first):
    model = nn.Transformer(D, NH, 1, 1, FF, dropout=0.0, batch_first=batch_first)
    rng = np.random.default_rng(0)
    src, tgt = (mg.Tensor(a) for a in _inputs("transformer", batch_first, np.float32, rng))
    assert model(src, tgt).shape == tgt.shape
    src1, tgt1 = mg.Tensor(rng.standard_normal((S, D)).astype(np.float32)), \
        mg.Tensor(rng.standard_normal((T, D)).astype(np.float32))
    out1 = model(src1, tgt1, tgt_mask=nn.Transformer.generate_square_subsequent_mask(T))
    assert out1.shape == (T, D)
    # an unbatched call is the batched call on a batch of one
    b_axis = 0 if batch_first else 1
    out_b = model(src1.unsqueeze(b_axis), tgt1.unsqueeze(b_axis),
                  tgt_mask=nn.Transformer.generate_square_subsequent_mask(T))
    np.testing.assert_allclose(out_b.squeeze(b_axis).numpy(), out1.numpy(), rtol=1e-5, atol=1e-6)


def test_causal_target_mask_means_no_look_ahead():
    dec = nn.TransformerDecoder(nn.TransformerDecoderLayer(D, NH, FF, dropout=0.0,
                                                           batch_first=True), 2).double()
    rng = np.random.default_rng(0)
    tgt, mem = rng.standard_normal((1, T, D)), rng.standard_normal((1, S, D))
    mask = nn.Transformer.generate_square_subsequent_mask(T)
    a = dec(mg.Tensor(tgt), mg.Tensor(mem), tgt_mask=mask).numpy()
    tgt2 = tgt.copy()
    tgt2[0, -1] += 10.0  # a change to the last position cannot reach earlier ones
    b = dec(mg.Tensor(tgt2), mg.Tensor(mem), tgt_mask=mask).numpy()
    np.testing.assert_allclose(a[0, :-1], b[0, :-1], rtol=1e-12)
    assert not np.allclose(a[0, -1], b[0, -1])


def test_key_padding_mask_hides_padded_sources():
    enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(D, NH, FF, dropout=0.0,
                                                           batch_first=True), 1).double()
    rng = np.random.default_rng(0)
    src = rng.standard_normal((N, S, D))
    a = enc(mg.Tensor(src), src_key_padding_mask=KPM).numpy()
    src2 = src.copy()
    src2[0, -1] += 10.0  # padded position of sequence 0
    b = enc(mg.Tensor(src2), src_key_padding_mask=KPM).numpy()
    np.testing.assert_allclose(a[0, :-1], b[0, :-1], rtol=1e-12)
    np.testing.assert_allclose(a[1], b[1], rtol=1e-12)


def test_activation_choices_and_errors():
    assert nn.TransformerEncoderLayer(D, NH, activation="gelu").activation is F.gelu
    assert nn.TransformerEncoderLayer(D, NH).activation is F.relu
    act = nn.GELU()
    layer = nn.TransformerEncoderLayer(D, NH, activation=act)
    assert layer.activation is act
    with pytest.raises(RuntimeError, match="relu/gelu"):
        nn.TransformerEncoderLayer(D, NH, activation="tanh")
    model = nn.Transformer(D, NH, 1, 1, FF)
    with pytest.raises(RuntimeError, match="batch number"):
        model(mg.zeros(S, 2, D), mg.zeros(T, 3, D))
    with pytest.raises(RuntimeError, match="feature number"):
        model(mg.zeros(S, 2, D + 1), mg.zeros(T, 2, D))
    with pytest.raises(RuntimeError, match="Need attn_mask"):
        nn.TransformerEncoderLayer(D, NH)(mg.zeros(S, 2, D), is_causal=True)


@pytest.mark.parametrize("norm_first", [False, True])
def test_gradcheck_tiny_transformer(norm_first):
    model = nn.Transformer(4, 2, 1, 1, 6, dropout=0.0, norm_first=norm_first,
                           batch_first=True).double()
    rng = np.random.default_rng(0)
    src = mg.Tensor(rng.standard_normal((1, 3, 4)), requires_grad=True)
    tgt = mg.Tensor(rng.standard_normal((1, 2, 4)), requires_grad=True)
    mask = nn.Transformer.generate_square_subsequent_mask(2, dtype=np.float64)
    kpm = np.array([[False, False, True]])
    params = [p for n, p in model.named_parameters() if "decoder.layers.0.multihead" in n
              or "encoder.layers.0.linear1" in n]

    def fn(src, tgt, *_):
        return model(src, tgt, tgt_mask=mask, src_key_padding_mask=kpm,
                     memory_key_padding_mask=kpm)
    assert mg.gradcheck(fn, [src, tgt, *params])

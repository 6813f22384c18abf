"""The catalogue of bad input: every case is a clear error, raised before any state changes.

Each entry of ``CATALOGUE`` is one bad input: what is called, the exception type expected
and fragments its message must contain (the shapes, ids or names at fault and what was
expected). docs/reliability.md lists the same catalogue for readers. Further tests below
check that nothing was applied when a load or an update is refused, that out-of-range ids
are refused before a Numba kernel sees them (and never crash the interpreter), and that the
training script turns unusable text into exit code 2 with a message, not a traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

import minigrad as mg
from minigrad import models, nn
from minigrad.nn import functional as F
from minigrad.optim import SGD, Adam, AdamW
from minigrad.serialization import CheckpointError

ROOT = Path(__file__).resolve().parents[2]
TRAIN_CHARS = ROOT / "examples" / "train_chars.py"


@dataclass
class Case:
    """One bad input: ``call()`` must raise ``error`` whose message contains every fragment."""

    name: str
    call: Callable[[], object]
    error: type
    fragments: tuple[str, ...]


def t(*shape: int, dtype=np.float32, grad: bool = False) -> mg.Tensor:
    """A float Tensor of ``shape`` holding 0, 1, 2, ... (values do not matter here)."""
    data = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
    return mg.Tensor(data, requires_grad=grad)


def ids(*values: int) -> np.ndarray:
    return np.asarray(values, dtype=np.int64)


def _tiny_gpt(**kw) -> models.GPT:
    mg.manual_seed(0)
    args = {"vocab_size": 11, "block_size": 8, "n_layer": 1, "n_head": 2, "n_embd": 8}
    args.update(kw)
    return models.GPT(**args)


def _tiny_transformer(**kw) -> models.Transformer:
    mg.manual_seed(0)
    args = {"src_vocab_size": 7, "tgt_vocab_size": 9, "d_model": 8, "num_heads": 2,
            "num_encoder_layers": 1, "num_decoder_layers": 1, "d_ff": 16, "max_len": 10}
    args.update(kw)
    return models.Transformer(**args)


def _backward_twice() -> None:
    x = t(3, dtype=np.float64, grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()


def _backward_twice_through_shared_node() -> None:
    x = t(3, dtype=np.float64, grad=True)
    h = x.exp()
    h.sum().backward()          # frees Exp's saved output
    (h * 2.0).sum().backward()  # a new graph that runs into the freed Exp


def _mha(embed_dim=8, heads=2):
    mg.manual_seed(0)
    return nn.MultiHeadAttention(embed_dim, heads)


# Shapes used by the binary-op cases: (2, 3) and (4,) cannot broadcast.
A23, B4 = (2, 3), (4,)
BINARY = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "pow": lambda a, b: a ** b,
    "where": lambda a, b: mg.where(np.ones(A23, dtype=bool), a, b),
}

CATALOGUE: list[Case] = []

# ---- shapes ---------------------------------------------------------------------------
for _name, _op in BINARY.items():
    CATALOGUE.append(Case(f"{_name} (2,3) with (4,)", lambda op=_op: op(t(*A23), t(*B4)),
                          ValueError, ("(2, 3)", "(4,)")))
CATALOGUE += [
    Case("add Tensor (2,3) + ndarray (4,)", lambda: t(*A23) + np.ones(B4, np.float32),
         ValueError, ("(2, 3)", "(4,)")),
    Case("add ndarray (4,) + Tensor (2,3)", lambda: np.ones(B4, np.float32) + t(*A23),
         ValueError, ("(2, 3)", "(4,)")),
    Case("sub 3-D broadcast failure (2,3,4) - (3,5)", lambda: t(2, 3, 4) - t(3, 5),
         ValueError, ("(2, 3, 4)", "(3, 5)")),
    Case("matmul inner mismatch (2,3) @ (4,5)", lambda: t(2, 3) @ t(4, 5),
         ValueError, ("(2, 3)", "(4, 5)", "3 != 4")),
    Case("matmul vector mismatch (3,) @ (4,)", lambda: t(3) @ t(4), ValueError, ("(3,)", "(4,)")),
    Case("matmul batch mismatch (2,3,4) @ (5,4,2)", lambda: t(2, 3, 4) @ t(5, 4, 2),
         ValueError, ("(2, 3, 4)", "(5, 4, 2)", "batch")),
    Case("matmul of a 0-d tensor", lambda: t() @ t(3), ValueError, ("()", "(3,)")),
    Case("reshape 6 elements to (4,)", lambda: t(2, 3).reshape(4), ValueError,
         ("(2, 3)", "(4,)")),
    Case("cat (2,3) with (2,4) on axis 0", lambda: mg.cat([t(2, 3), t(2, 4)]), ValueError,
         ("(2, 3)", "(2, 4)")),
    Case("stack (2,3) with (3,2)", lambda: mg.stack([t(2, 3), t(3, 2)]), ValueError,
         ("(2, 3)", "(3, 2)")),
    Case("split sizes not adding up", lambda: t(5).split([2, 2]), ValueError,
         ("[2, 2]", "5")),
    Case("permute with a repeated axis", lambda: t(2, 3).permute(0, 0), ValueError,
         ("(0, 0)", "(2, 3)")),
    Case("transpose axis out of range", lambda: t(2, 3).transpose(0, 5), IndexError,
         ("(0, 5)", "(2, 3)")),
    Case("sum over a missing axis", lambda: t(2, 3).sum(axis=2), IndexError, ("axis 2", "2")),
    Case("linear: in_features mismatch", lambda: nn.Linear(4, 3)(t(2, 5)), ValueError,
         ("5", "4")),
    Case("layer_norm: last dim mismatch", lambda: nn.LayerNorm(4)(t(2, 5)), ValueError,
         ("(2, 5)", "(4,)")),
    Case("cross_entropy: targets of the wrong shape", lambda: F.cross_entropy(t(4, 3), ids(0, 1)),
         ValueError, ("(4, 3)", "(4,)", "(2,)")),
    Case("item() of a 3-element tensor", lambda: t(3).item(), ValueError, ("(3,)",)),
    Case("negative size in a constructor", lambda: mg.zeros(2, -1), ValueError, ("(2, -1)",)),
]

# ---- data that is not an array ----------------------------------------------------------
CATALOGUE += [
    Case("ragged nested list", lambda: mg.tensor([[1.0, 2.0], [3.0]]), ValueError, ("ragged",)),
    Case("ragged at depth 3", lambda: mg.tensor([[[1.0], [2.0]], [[3.0]]]), ValueError,
         ("ragged",)),
    Case("list of strings", lambda: mg.tensor(["a", "b"]), TypeError, ("dtype",)),
    Case("None as data", lambda: mg.tensor(None), TypeError, ("NoneType",)),
    Case("dict as data", lambda: mg.tensor({"a": 1}), TypeError, ("dict",)),
    Case("complex array as data", lambda: mg.tensor(np.array([1 + 2j])), TypeError,
         ("complex128",)),
    Case("object array as data", lambda: mg.tensor(np.array([1, "a"], dtype=object)), TypeError,
         ("object",)),
    Case("arange with step 0", lambda: mg.arange(0, 5, 0), ValueError, ("step", "0")),
    Case("split_size 0", lambda: t(4).split(0), ValueError, ("split_size", "0")),
    Case("max of an empty tensor", lambda: mg.zeros(0).max(), ValueError, ("empty",)),
    Case("tril of a 1-D tensor", lambda: mg.tril(t(3)), ValueError, ("(3,)",)),
    Case("manual_seed(-1)", lambda: mg.manual_seed(-1), ValueError, ("-1",)),
    Case("set_rng_state with a bad state", lambda: mg.set_rng_state(np.zeros(3)), ValueError,
         ("(6,)", "(3,)")),
]

# ---- dtypes -------------------------------------------------------------------------------
CATALOGUE += [
    Case("int tensor asked to require grad", lambda: mg.tensor([1, 2, 3], requires_grad=True),
         TypeError, ("int64", "floating")),
    Case("requires_grad_ on an int tensor", lambda: mg.arange(3).requires_grad_(), TypeError,
         ("int64", "floating")),
    Case("int zeros asked to require grad",
         lambda: mg.zeros(2, dtype=np.int32, requires_grad=True), TypeError, ("int32",)),
    Case("bool tensor asked to require grad",
         lambda: mg.tensor(np.ones(2, bool), requires_grad=True), TypeError, ("bool",)),
    Case("float ids to Embedding", lambda: nn.Embedding(5, 2)(np.array([0.0, 1.0])),
         TypeError, ("integer", "float64")),
    Case("float Tensor ids to F.embedding",
         lambda: F.embedding(mg.tensor([1.0]), t(5, 2)), TypeError, ("integer", "float32")),
    Case("float index array", lambda: t(4)[np.array([0.0, 1.0])], IndexError,
         ("integer", "float64")),
    Case("float Tensor index", lambda: t(4)[mg.tensor([1.0])], IndexError, ("float32",)),
    Case("float cross_entropy targets",
         lambda: F.cross_entropy(t(2, 3), np.array([0.0, 1.0])), TypeError,
         ("integer", "float64")),
    Case("int logits to cross_entropy",
         lambda: F.cross_entropy(mg.tensor([[1, 2]]), ids(0)), TypeError,
         ("floating", "int64")),
    Case("float token ids to GPT", lambda: _tiny_gpt()(np.zeros((1, 4))), TypeError,
         ("integer", "float64")),
    Case("matmul of int tensors", lambda: mg.arange(4).reshape(2, 2) @ mg.arange(4).reshape(2, 2),
         TypeError, ("int64",)),
    Case("softmax of an int tensor", lambda: mg.softmax(mg.arange(3)), TypeError, ("int64",)),
    Case("layer_norm of an int tensor", lambda: F.layer_norm(mg.arange(4), 4), TypeError,
         ("floating", "int64")),
    Case("gradcheck on float32 input",
         lambda: mg.gradcheck(lambda x: x * 2, [t(2, grad=True)]), TypeError, ("float64",)),
]

# ---- ids out of range ----------------------------------------------------------------------
CATALOGUE += [
    Case("Embedding id == num_embeddings", lambda: nn.Embedding(5, 2)(ids(0, 5)), IndexError,
         ("id 5", "5 rows", "0..4")),
    Case("Embedding negative id", lambda: nn.Embedding(5, 2)(ids(-1)), IndexError,
         ("-1", "0..4")),
    Case("Embedding huge id", lambda: nn.Embedding(5, 2)(ids(2**40)), IndexError,
         (str(2**40),)),
    Case("cross_entropy target == C", lambda: F.cross_entropy(t(2, 3), ids(0, 3)), IndexError,
         ("target 3", "3 classes", "0..2")),
    Case("cross_entropy negative target (not ignore_index)",
         lambda: F.cross_entropy(t(2, 3), ids(-1, 0)), IndexError, ("target -1", "-100")),
    Case("cross_entropy (B,T,C) target out of range",
         lambda: F.cross_entropy(t(2, 2, 3), np.array([[0, 1], [2, 7]])), IndexError,
         ("target 7",)),
    Case("index array past the end", lambda: t(3)[ids(0, 5)], IndexError, ("5", "(3,)")),
    Case("index array before the start", lambda: t(3)[ids(-4)], IndexError, ("-4", "(3,)")),
    Case("index Tensor out of range on axis 1", lambda: t(2, 3)[:, mg.tensor([3])], IndexError,
         ("3", "(2, 3)")),
    Case("GPT token id >= vocab_size", lambda: _tiny_gpt()(np.array([[1, 11]])), IndexError,
         ("11", "[0, 11)")),
    Case("GPT target id >= vocab_size",
         lambda: _tiny_gpt()(np.array([[1, 2]]), np.array([[1, 12]])), IndexError, ("12",)),
    Case("cross_entropy uint64 target that wraps to ignore_index in int64",
         lambda: F.cross_entropy(t(2, 3), np.array([2**64 - 1, 0], np.uint64), ignore_index=-1),
         IndexError, (str(2**64 - 1), "3 classes")),
    Case("boolean index of the wrong length", lambda: t(3)[np.array([True, False])], IndexError,
         ("(3,)",)),
    Case("GPT.generate from an out-of-range id",
         lambda: _tiny_gpt().generate(np.full((1, 2), 11), 2), IndexError, ("11",)),
    Case("Transformer greedy_decode start_id out of range",
         lambda: _tiny_transformer().greedy_decode(np.array([[1, 2]]), 9, 1, 5), ValueError,
         ("start_id", "[0, 9)")),
    Case("Transformer src id out of range",
         lambda: _tiny_transformer()(np.array([[1, 7]]), np.array([[0, 1]])), IndexError,
         ("7",)),
]

# ---- masks -----------------------------------------------------------------------------------
CATALOGUE += [
    Case("masked_fill with a float mask", lambda: t(2, 3).masked_fill(np.ones((2, 3)), 0.0),
         TypeError, ("boolean", "float64")),
    Case("masked_fill with an int Tensor mask",
         lambda: t(2, 3).masked_fill(mg.tensor([[1, 0, 1]]), 0.0), TypeError, ("int64",)),
    Case("masked_fill mask (2,4) on (2,3)",
         lambda: t(2, 3).masked_fill(np.ones((2, 4), bool), 0.0), ValueError,
         ("(2, 4)", "(2, 3)")),
    Case("masked_fill mask larger than the tensor",
         lambda: t(3).masked_fill(np.ones((2, 3), bool), 0.0), ValueError, ("(2, 3)", "(3,)")),
    Case("where with a float condition", lambda: mg.where(np.ones(3), t(3), t(3)), TypeError,
         ("boolean", "float64")),
    Case("where condition (4,) on (3,)", lambda: mg.where(np.ones(4, bool), t(3), t(3)),
         ValueError, ("(4,)", "(3,)")),
    Case("sdpa integer mask",
         lambda: F.scaled_dot_product_attention(t(1, 3, 4), t(1, 3, 4), t(1, 3, 4),
                                                attn_mask=np.zeros((3, 3), np.int64)),
         TypeError, ("bool or float", "int64")),
    Case("sdpa mask (3,4) for scores (1,3,3)",
         lambda: F.scaled_dot_product_attention(t(1, 3, 4), t(1, 3, 4), t(1, 3, 4),
                                                attn_mask=np.zeros((3, 4), bool)),
         ValueError, ("(3, 4)", "(1, 3, 3)")),
    Case("sdpa q/k width mismatch",
         lambda: F.scaled_dot_product_attention(t(1, 3, 4), t(1, 3, 5), t(1, 3, 4)),
         ValueError, ("(1, 3, 4)", "(1, 3, 5)")),
    Case("MultiHeadAttention int mask",
         lambda: _mha()(t(2, 3, 8), mask=np.zeros((3, 3), np.int64)), TypeError,
         ("boolean", "int64")),
    Case("MultiHeadAttention mask (4,4) for T=3",
         lambda: _mha()(t(2, 3, 8), mask=np.zeros((4, 4), bool)), ValueError,
         ("(4, 4)", "(2, 2, 3, 3)")),
    Case("MultiHeadAttention key-padding mask of the wrong batch",
         lambda: _mha()(t(2, 3, 8), mask=np.zeros((3, 1, 1, 3), bool)), ValueError,
         ("(3, 1, 1, 3)",)),
    Case("MultiHeadAttention query of the wrong width", lambda: _mha()(t(2, 3, 6)), ValueError,
         ("(2, 3, 6)", "8")),
    Case("Transformer float src_mask",
         lambda: _tiny_transformer()(np.array([[1, 2]]), np.array([[0, 1]]),
                                     src_mask=np.zeros((1, 2))),
         TypeError, ("boolean", "float64")),
]

# ---- model configuration and sequence length ---------------------------------------------
CATALOGUE += [
    Case("GPT sequence longer than block_size", lambda: _tiny_gpt()(np.zeros((1, 9), np.int64)),
         ValueError, ("length 9", "block_size is 8")),
    Case("GPT 1-D ids", lambda: _tiny_gpt()(ids(1, 2)), ValueError, ("(2,)", "(batch, time)")),
    Case("GPT targets of another shape",
         lambda: _tiny_gpt()(np.zeros((1, 4), np.int64), np.zeros((1, 3), np.int64)),
         ValueError, ("(1, 3)", "(1, 4)")),
    Case("MultiHeadAttention 3 heads for width 8", lambda: nn.MultiHeadAttention(8, 3),
         ValueError, ("8", "3", "divisible")),
    Case("GPT 3 heads for n_embd 8", lambda: _tiny_gpt(n_head=3), ValueError, ("8", "3")),
    Case("Transformer 3 heads for d_model 8", lambda: _tiny_transformer(num_heads=3),
         ValueError, ("8", "3")),
    Case("Transformer target longer than max_len",
         lambda: _tiny_transformer()(np.array([[1, 2]]), np.zeros((1, 11), np.int64)),
         ValueError, ("11", "10")),
    Case("Dropout p = 1.5", lambda: nn.Dropout(1.5), ValueError, ("1.5", "[0, 1]")),
    Case("F.dropout p = -0.1", lambda: F.dropout(t(3), -0.1), ValueError, ("-0.1",)),
    Case("Linear with 0 inputs", lambda: nn.Linear(0, 3), ValueError, ("in_features", "0")),
    Case("Embedding with 0 rows", lambda: nn.Embedding(0, 2), ValueError, ("num_embeddings",)),
    Case("LayerNorm eps = 0", lambda: nn.LayerNorm(4, eps=0), ValueError, ("eps",)),
    Case("PositionalEncoding: sequence longer than max_len",
         lambda: nn.PositionalEncoding(8, 4)(t(1, 5, 8)), ValueError, ("5", "max_len 4")),
    Case("sdpa value length differs from key length",
         lambda: F.scaled_dot_product_attention(t(1, 3, 4), t(1, 3, 4), t(1, 2, 4)),
         ValueError, ("(1, 3, 4)", "(1, 2, 4)")),
    Case("MultiHeadAttention key of another batch size",
         lambda: _mha()(t(2, 3, 8), t(3, 3, 8)), ValueError, ("(2, 3, 8)", "(3, 3, 8)")),
    Case("GPT.generate with max_new_tokens = -1",
         lambda: _tiny_gpt().generate(np.zeros((1, 2), np.int64), -1), ValueError, ("-1",)),
    Case("GPT.generate with temperature 0",
         lambda: _tiny_gpt().generate(np.zeros((1, 2), np.int64), 2, temperature=0),
         ValueError, ("temperature",)),
    Case("GPT.generate with top_k 0",
         lambda: _tiny_gpt().generate(np.zeros((1, 2), np.int64), 2, top_k=0), ValueError,
         ("top_k",)),
    Case("Transformer beam_size 0",
         lambda: _tiny_transformer().beam_search(np.array([[1, 2]]), 0, 1, 5, beam_size=0),
         ValueError, ("beam_size",)),
    Case("load_state_dict of a list", lambda: _tiny_gpt().load_state_dict([1, 2]), TypeError,
         ("mapping", "list")),
]

# ---- autograd misuse --------------------------------------------------------------------------
CATALOGUE += [
    Case("backward() on a non-scalar without grad",
         lambda: (t(2, 3, dtype=np.float64, grad=True) * 2.0).backward(), RuntimeError,
         ("scalar", "(2, 3)")),
    Case("backward(grad) of the wrong shape",
         lambda: (t(2, 3, dtype=np.float64, grad=True) * 2.0).backward(np.ones(3)), ValueError,
         ("(3,)", "(2, 3)")),
    Case("backward() on a tensor without a graph", lambda: t(3).sum().backward(), RuntimeError,
         ("does not require grad",)),
    Case("second backward() through a freed graph", _backward_twice, RuntimeError,
         ("second time", "retain_graph=True")),
    Case("backward() into a node freed by another graph", _backward_twice_through_shared_node,
         RuntimeError, ("second time", "Exp")),
]

# ---- optimizer construction -----------------------------------------------------------------
CATALOGUE += [
    Case("SGD negative lr", lambda: SGD([t(2, grad=True)], lr=-0.1), ValueError, ("lr", "-0.1")),
    Case("Adam beta1 = 1", lambda: Adam([t(2, grad=True)], lr=0.1, betas=(1.0, 0.9)),
         ValueError, ("1.0",)),
    Case("AdamW on an int tensor", lambda: AdamW([mg.arange(3)], lr=0.1), TypeError,
         ("int64",)),
    Case("optimizer with no parameters", lambda: SGD([], lr=0.1), ValueError, ("empty",)),
    Case("optimizer given a single tensor", lambda: SGD(t(2, grad=True), lr=0.1), TypeError,
         ("list",)),
    Case("clip_grad_norm_ with max_norm -1",
         lambda: mg.optim.clip_grad_norm_([t(2, grad=True)], -1.0), ValueError, ("max_norm",)),
    Case("optimizer load_state_dict(None)",
         lambda: SGD([t(2, grad=True)], lr=0.1).load_state_dict(None), ValueError,
         ("'state'", "'param_groups'", "NoneType")),
]


@pytest.mark.parametrize("case", CATALOGUE, ids=[c.name for c in CATALOGUE])
def test_bad_input_raises_a_clear_error(case: Case) -> None:
    with pytest.raises(case.error) as info:
        case.call()
    message = str(info.value)
    for fragment in case.fragments:
        assert fragment in message, f"{fragment!r} missing from the message: {message!r}"


# ---- before any Numba kernel: out-of-range ids never reach a kernel --------------------------
def test_out_of_range_ids_are_refused_before_any_kernel_runs(monkeypatch) -> None:
    """Replace the unchecked kernels by tripwires: the checks must fire first."""
    from minigrad.kernels import cross_entropy as KCE
    from minigrad.kernels import embedding as KE

    def tripwire(*args, **kwargs):
        raise AssertionError("a kernel ran on unchecked ids")

    monkeypatch.setattr(KCE, "cross_entropy", tripwire)
    monkeypatch.setattr(KE, "embedding_backward", tripwire)
    monkeypatch.setattr(mg.backends, "active", mg.backends.Fast())
    logits = t(4, 5, grad=True)
    for bad in ([0, 1, 2, 5], [0, -2, 1, 1], [2**62, 0, 0, 0]):
        with pytest.raises(IndexError, match="out of range"):
            F.cross_entropy(logits, np.asarray(bad))
    table = nn.Embedding(5, 3)
    for bad in ([5], [-1], [0, 1, 2**62]):
        with pytest.raises(IndexError, match="out of range"):
            table(np.asarray(bad))


WORST_IDS_SCRIPT = textwrap.dedent("""
    import numpy as np
    import minigrad as mg, nn, models
    from minigrad.nn import functional as F

    def expect(fn, exc):
        try:
            fn()
        except exc:
            return 1
        raise SystemExit(f"no {exc.__name__} from {fn}")

    n = 0
    big = 2**62
    table = nn.Embedding(100, 16)
    logits = mg.randn(64, 100, requires_grad=True)
    gpt = models.GPT(vocab_size=50, block_size=16, n_layer=1, n_head=2, n_embd=16)
    for bad in (100, -101, big, -big, 10**6):
        ids = np.zeros((8, 64), np.int64); ids[7, 63] = bad
        n += expect(lambda: table(ids).sum().backward(), IndexError)
        tg = np.zeros(64, np.int64); tg[-1] = bad
        n += expect(lambda: F.cross_entropy(logits, tg).backward(), IndexError)
        n += expect(lambda: mg.randn(100, requires_grad=True)[ids].sum().backward(), IndexError)
        tok = np.zeros((2, 16), np.int64); tok[1, 15] = bad
        n += expect(lambda: gpt(tok, np.zeros((2, 16), np.int64)), IndexError)
        n += expect(lambda: gpt(np.zeros((2, 16), np.int64), tok), IndexError)
    # the interpreter still works: a correct step after all the refusals
    loss = F.cross_entropy(logits, np.arange(64) % 100)
    loss.backward()
    assert np.isfinite(logits.grad).all()
    print("survived", n)
""")


def test_worst_out_of_range_ids_never_crash_the_interpreter() -> None:
    """Huge and negative ids in a fresh interpreter: errors, then a normal step; exit 0."""
    proc = subprocess.run([sys.executable, "-c", WORST_IDS_SCRIPT], capture_output=True,
                          text=True, timeout=300, cwd=ROOT, check=False)
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert "survived 25" in proc.stdout


# ---- nothing applied: module load_state_dict ------------------------------------------------
def _snapshot(model: nn.Module) -> dict[str, np.ndarray]:
    return {k: np.array(v.data, copy=True) for k, v in model.state_dict().items()}


def _assert_unchanged(model: nn.Module, before: dict[str, np.ndarray]) -> None:
    after = model.state_dict()
    assert list(after) == list(before)
    for k, v in before.items():
        np.testing.assert_array_equal(after[k].data, v, err_msg=f"{k} changed")


def _good_state(model: nn.Module) -> dict[str, np.ndarray]:
    """A complete, correctly shaped state whose every value differs from the model's."""
    return {k: np.array(v.data) + 1.0 for k, v in model.state_dict().items()}


def _state_missing(s):
    s.pop(max(s))
    return s


def _state_unexpected(s):
    s["blocks.9.attn.q_proj.weight"] = np.zeros((8, 8), np.float32)
    return s


def _state_misshaped_last(s):
    k = max(s)
    s[k] = np.zeros(s[k].shape + (1,), np.float32)
    return s


def _state_transposed(s):
    s["blocks.0.mlp.fc.weight"] = s["blocks.0.mlp.fc.weight"].T.copy()
    return s


def _state_string_array(s):
    s["ln_f.weight"] = np.array(["x"] * 8)
    return s


BAD_STATES = [
    ("missing key", _state_missing, KeyError, "missing keys"),
    ("unexpected key", _state_unexpected, KeyError, "blocks.9.attn.q_proj.weight"),
    ("mis-shaped key", _state_misshaped_last, ValueError, "shape mismatch"),
    ("transposed matrix", _state_transposed, ValueError, "blocks.0.mlp.fc.weight"),
    ("string array", _state_string_array, TypeError, "ln_f.weight"),
]


@pytest.mark.parametrize("name,corrupt,error,fragment", BAD_STATES,
                         ids=[b[0] for b in BAD_STATES])
def test_model_load_state_dict_refuses_and_applies_nothing(name, corrupt, error, fragment):
    model = _tiny_gpt()
    assert "blocks.0.mlp.fc.weight" in model.state_dict()
    before = _snapshot(model)
    state = corrupt(_good_state(model))
    with pytest.raises(error) as info:
        model.load_state_dict(state)
    assert fragment in str(info.value)
    assert "nothing was loaded" in str(info.value) or error is TypeError
    _assert_unchanged(model, before)


def test_model_load_state_dict_names_every_bad_key() -> None:
    model = _tiny_gpt()
    state = _good_state(model)
    state.pop("ln_f.bias")
    state["extra.weight"] = np.zeros(3, np.float32)
    with pytest.raises(KeyError) as info:
        model.load_state_dict(state)
    assert "ln_f.bias" in str(info.value) and "extra.weight" in str(info.value)


# ---- nothing applied: optimizer load_state_dict and step ----------------------------------
def _trained_adamw() -> tuple[list[mg.Tensor], AdamW]:
    rng = np.random.default_rng(0)
    params = [mg.Tensor(rng.standard_normal(s).astype(np.float32), requires_grad=True)
              for s in ((3, 4), (4,), (2,))]
    opt = AdamW([{"params": params[:2], "weight_decay": 0.1},
                 {"params": params[2:], "weight_decay": 0.0}], lr=1e-2)
    for _ in range(2):
        for p in params:
            p.grad = mg.tensor(rng.standard_normal(p.shape).astype(np.float32))
        opt.step()
    return params, opt


def _opt_snapshot(opt) -> tuple:
    groups = [{k: v for k, v in g.items() if k != "params"} for g in opt.param_groups]
    ids_ = [[id(p) for p in g["params"]] for g in opt.param_groups]
    state = {i: {k: np.array(v, copy=True) for k, v in s.items()} for i, s in opt.state.items()}
    return groups, ids_, state


def _opt_unchanged(opt, snap: tuple) -> None:
    groups, ids_, state = snap
    assert [{k: v for k, v in g.items() if k != "params"} for g in opt.param_groups] == groups
    assert [[id(p) for p in g["params"]] for g in opt.param_groups] == ids_
    assert set(opt.state) == set(state)
    for i, s in state.items():
        assert set(opt.state[i]) == set(s)
        for k, v in s.items():
            np.testing.assert_array_equal(opt.state[i][k], v)


def _sd_with(mutate):
    def make(opt):
        sd = opt.state_dict()
        for g in sd["param_groups"]:
            g["lr"] = 0.5  # a valid change that must not leak in when the rest is refused
        for s in sd["state"].values():
            for k in ("exp_avg", "exp_avg_sq"):
                s[k] = s[k] + 1.0
        mutate(sd)
        return sd
    return make


def _drop_group(sd):
    sd["param_groups"].pop()


def _drop_param(sd):
    sd["param_groups"][1]["params"] = []


def _bad_buffer_shape(sd):
    sd["state"][2]["exp_avg"] = np.zeros(5, np.float32)


def _negative_step(sd):
    sd["state"][2]["step"] = -1


def _unknown_index(sd):
    sd["state"][7] = sd["state"][0]


def _negative_lr(sd):
    sd["param_groups"][1]["lr"] = -1.0


def _missing_buffer(sd):
    del sd["state"][1]["exp_avg_sq"]


def _string_buffer(sd):
    sd["state"][2]["exp_avg"] = np.array(["a", "b"])


def _extra_top_key(sd):
    sd["lr"] = 1.0


BAD_OPT_STATES = [
    ("one group fewer", _drop_group, "parameter groups"),
    ("group of another size", _drop_param, "parameter group 1"),
    ("buffer of another shape", _bad_buffer_shape, "(5,)"),
    ("negative step", _negative_step, "-1"),
    ("unknown parameter index", _unknown_index, "7"),
    ("negative lr", _negative_lr, "lr"),
    ("missing buffer", _missing_buffer, "exp_avg_sq"),
    ("string buffer", _string_buffer, "numeric"),
    ("extra top-level key", _extra_top_key, "'lr'"),
]


@pytest.mark.parametrize("name,mutate,fragment", BAD_OPT_STATES, ids=[b[0] for b in BAD_OPT_STATES])
def test_optimizer_load_state_dict_refuses_and_applies_nothing(name, mutate, fragment):
    _, opt = _trained_adamw()
    snap = _opt_snapshot(opt)
    with pytest.raises((ValueError, TypeError)) as info:
        opt.load_state_dict(_sd_with(mutate)(opt))
    assert fragment in str(info.value)
    _opt_unchanged(opt, snap)


def test_optimizer_step_with_one_bad_grad_updates_nothing() -> None:
    params, opt = _trained_adamw()
    before = [p.data.copy() for p in params]
    snap = _opt_snapshot(opt)
    params[0].grad = mg.ones(3, 4)
    params[1].grad = mg.ones(4)
    params[2]._grad = mg.ones(3)   # mis-shaped (set past the .grad setter, which checks shapes)
    with pytest.raises(ValueError, match=r"\(2,\).*\(3,\)"):
        opt.step()
    for p, b in zip(params, before):
        np.testing.assert_array_equal(p.data, b)
    _opt_unchanged(opt, snap)


# ---- checkpoint files -----------------------------------------------------------------------
@pytest.fixture
def checkpoint(tmp_path) -> Path:
    path = tmp_path / "ckpt.npz"
    rng = np.random.default_rng(0)
    mg.save({"model": {"w": rng.standard_normal((16, 16)).astype(np.float32),
                       "b": np.zeros(16, np.float32)}, "iter": 3, "name": "run"}, path)
    return path


def test_missing_checkpoint_file(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="nope.npz"):
        mg.load(tmp_path / "nope.npz")


def test_checkpoint_path_is_a_directory(tmp_path) -> None:
    with pytest.raises(IsADirectoryError):
        mg.load(tmp_path)


def test_empty_checkpoint_file(tmp_path) -> None:
    path = tmp_path / "empty.npz"
    path.write_bytes(b"")
    with pytest.raises(CheckpointError, match="empty"):
        mg.load(path)


def test_foreign_file_is_not_a_checkpoint(tmp_path) -> None:
    path = tmp_path / "text.npz"
    path.write_text("hello, this is not a zip archive\n")
    with pytest.raises(CheckpointError, match="not a minigrad checkpoint"):
        mg.load(path)


@pytest.mark.parametrize("fraction", [0.05, 0.3, 0.5, 0.8, 0.99])
def test_truncated_checkpoint(checkpoint: Path, fraction: float) -> None:
    raw = checkpoint.read_bytes()
    checkpoint.write_bytes(raw[: max(4, int(len(raw) * fraction))])
    with pytest.raises(CheckpointError, match="ckpt.npz"):
        mg.load(checkpoint)


@pytest.mark.parametrize("offset", [0.2, 0.45, 0.6, 0.9])
def test_flipped_byte_in_checkpoint(checkpoint: Path, offset: float) -> None:
    raw = bytearray(checkpoint.read_bytes())
    i = int(len(raw) * offset)
    raw[i] ^= 0xFF
    checkpoint.write_bytes(bytes(raw))
    with pytest.raises(CheckpointError):
        mg.load(checkpoint)


def _rewrite(path: Path, edit) -> None:
    """Re-pack a checkpoint's arrays after ``edit(arrays, header)`` changed them."""
    import json

    with np.load(path) as npz:
        arrays = {k: npz[k] for k in npz.files}
    header = json.loads(arrays.pop("__minigrad__").tobytes().decode())
    edit(arrays, header)
    arrays["__minigrad__"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
    np.savez(path, **arrays)


def _array_nodes(header) -> dict[str, dict]:
    """Array name -> its node in the header (walks the JSON structure)."""
    found, stack = {}, [header["root"]]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            if "array" in n:
                found[n["array"]] = n
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)
    return found


def _tamper_shape(arrays, header):
    node = next(iter(_array_nodes(header).values()))
    node["shape"] = [s + 1 for s in node["shape"]]


def _tamper_dtype(arrays, header):
    name = next(iter(_array_nodes(header)))
    arrays[name] = arrays[name].astype(np.float64)


def _tamper_extra_array(arrays, header):
    arrays["a99"] = np.zeros(3)


def _tamper_missing_array(arrays, header):
    del arrays[next(iter(_array_nodes(header)))]


def _tamper_version(arrays, header):
    header["version"] = 99


def _tamper_format(arrays, header):
    header["format"] = "something-else"


def _tamper_node(arrays, header):
    header["root"] = {"pickle": "cos\nsystem\n"}


def _tamper_object_array(arrays, header):
    name = next(iter(_array_nodes(header)))
    arrays[name] = np.array([{"a": 1}, None], dtype=object)


TAMPERED = [
    ("recorded shape differs", _tamper_shape, "structure records"),
    ("array dtype differs", _tamper_dtype, "structure records"),
    ("extra array", _tamper_extra_array, "a99"),
    ("missing array", _tamper_missing_array, "missing array"),
    ("unknown version", _tamper_version, "version 99"),
    ("foreign format marker", _tamper_format, "format marker"),
    ("unknown structure node", _tamper_node, "unrecognised"),
    ("object array", _tamper_object_array, "ckpt.npz"),
]


@pytest.mark.parametrize("name,edit,fragment", TAMPERED, ids=[t_[0] for t_ in TAMPERED])
def test_tampered_checkpoint_is_rejected(checkpoint: Path, name, edit, fragment) -> None:
    _rewrite(checkpoint, edit)
    with pytest.raises(CheckpointError) as info:
        mg.load(checkpoint)
    assert fragment in str(info.value)


def test_save_into_a_missing_directory_names_the_path(tmp_path) -> None:
    target = tmp_path / "no" / "such" / "ckpt.npz"
    with pytest.raises(FileNotFoundError, match="does not exist") as info:
        mg.save({"a": 1}, target)
    assert str(target) in str(info.value)


def test_save_of_unsupported_object_leaves_the_old_file(checkpoint: Path) -> None:
    before = checkpoint.read_bytes()
    with pytest.raises(TypeError, match=r"obj\['model'\]\['f'\]"):
        mg.save({"model": {"f": lambda: 0}}, checkpoint)
    assert checkpoint.read_bytes() == before
    assert [p.name for p in checkpoint.parent.iterdir()] == ["ckpt.npz"]  # no temp file left


# ---- the training script: unusable text and arguments ----------------------------------------
def _run_train_chars(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, str(TRAIN_CHARS), "--out-dir", str(tmp_path / "out"),
           "--n-layer", "1", "--n-head", "2", "--n-embd", "16", "--block-size", "16",
           "--batch-size", "4", "--max-iters", "4", "--eval-interval", "2", "--eval-iters", "1",
           "--warmup-iters", "0", "--max-new-tokens", "5", *args]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env,
                          check=False)


def _text_file(tmp_path: Path, name: str, content: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(content)
    return str(path)


TEXT_CASES = [
    ("empty text", lambda p: ["--text", _text_file(p, "e.txt", b"")], "is empty"),
    ("not UTF-8", lambda p: ["--text", _text_file(p, "l.txt", "caf\xe9 ".encode("latin-1") * 50)],
     "not UTF-8"),
    ("shorter than one block",
     lambda p: ["--text", _text_file(p, "s.txt", b"abcdefghij" * 3)], "block_size + 1 = 17"),
    ("missing text file", lambda p: ["--text", str(p / "absent.txt")], "does not exist"),
    ("text is a directory", lambda p: ["--text", str(p)], "is a directory"),
    ("heads do not divide the width",
     lambda p: ["--text", _text_file(p, "ok.txt", b"hello world " * 50), "--n-head", "3"],
     "divisible by --n-head 3"),
    ("--resume with no checkpoint",
     lambda p: ["--text", _text_file(p, "ok.txt", b"hello world " * 50), "--resume"],
     "no checkpoint"),
    ("--resume from a corrupt checkpoint",
     lambda p: ["--text", _text_file(p, "ok.txt", b"hello world " * 50), "--resume",
                "--out-dir", _corrupt_out_dir(p)], "cannot read checkpoint"),
]


def _corrupt_out_dir(tmp_path: Path) -> str:
    out = tmp_path / "corrupt-out"
    out.mkdir()
    (out / "ckpt_last.npz").write_bytes(b"PK\x03\x04" + b"\x00" * 40)
    return str(out)


@pytest.mark.parametrize("name,make_args,fragment", TEXT_CASES, ids=[c[0] for c in TEXT_CASES])
def test_train_chars_unusable_input_exits_2_without_traceback(tmp_path, name, make_args,
                                                              fragment) -> None:
    proc = _run_train_chars(tmp_path, *make_args(tmp_path))
    assert proc.returncode == 2, (proc.returncode, proc.stdout[-500:], proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr
    assert fragment in proc.stderr, proc.stderr

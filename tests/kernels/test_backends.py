"""The seam: the Backend interface, choosing a backend, and Fast held equal to Reference.

``Reference`` implements every method of ``Backend`` (the interface); ``Fast`` overrides
some of them, and every override is compared with the reference method on drawn shapes,
masks and targets (a parity test declares the overrides it checks with ``@parity``; an
override no test declares fails :func:`test_every_fast_override_has_a_parity_test`).
Whole training steps of both models are compared on both backends; the reference
backend runs the gradient checks on its own, and without Numba installed.
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import minigrad as mg
from minigrad import backends, models
from minigrad.backends import Backend, Fast, Reference
from minigrad.optim.adam import adam_coefficients

FB, RB = Fast(), Reference()

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOL = {np.float32: {"rtol": 1e-4, "atol": 1e-5}, np.float64: {"rtol": 1e-10, "atol": 1e-12}}
dtypes = st.sampled_from([np.float32, np.float64])


def _run(code: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                          timeout=300, cwd=ROOT, env={**os.environ, **env})


def _close(a, b, dtype) -> None:
    if a is None or b is None:
        assert a is None and b is None
        return
    np.testing.assert_allclose(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64),
                               **TOL[dtype])


def _grad(p) -> np.ndarray:
    return np.asarray(getattr(p.grad, "data", p.grad))


#: primitive name -> the parity test that holds Fast's override equal to Reference's
PARITY: dict[str, object] = {}


def parity(*names: str):
    """Declare that the decorated test compares ``FB.<name>`` with ``RB.<name>``."""
    def mark(test):
        for name in names:
            PARITY[name] = test
        return test
    return mark


def _params(f) -> list:
    """A method's parameters: names, kinds and defaults (annotations may differ)."""
    return [(q.name, q.kind, q.default) for q in inspect.signature(f).parameters.values()]


def _primitives(cls) -> dict[str, object]:
    """The public methods a class defines itself (not those it inherits)."""
    return {n: f for n, f in vars(cls).items() if inspect.isfunction(f) and not n.startswith("_")}


# ------------------------------------------------------------------ selection
def test_set_get_and_context_manager_restore():
    assert mg.get_backend() == "fast"
    with mg.use_backend("reference"):
        assert mg.get_backend() == "reference" and type(backends.active) is Reference
        with pytest.raises(RuntimeError), mg.use_backend("fast"):
            assert mg.get_backend() == "fast"
            raise RuntimeError("inside")
        assert mg.get_backend() == "reference"
    assert mg.get_backend() == "fast"
    mg.set_backend("reference")
    try:
        assert mg.get_backend() == "reference"
    finally:
        mg.set_backend("fast")


def test_unknown_backend_is_refused_before_anything_changes():
    with pytest.raises(ValueError, match="unknown minigrad backend 'numba'"):
        mg.set_backend("numba")
    with pytest.raises(ValueError, match="unknown"), mg.use_backend("gpu"):
        pass
    assert mg.get_backend() == "fast" and type(backends.active) is Fast


def test_unknown_backend_in_the_environment_warns_and_uses_the_default():
    """``import minigrad`` never fails on MINIGRAD_BACKEND: a bad value warns, naming it
    and the choices, and the default backend is used."""
    r = _run("import minigrad; print(minigrad.get_backend())", MINIGRAD_BACKEND="cuda")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "fast"
    assert "MINIGRAD_BACKEND='cuda' is not a minigrad backend" in r.stderr
    assert "reference, fast" in r.stderr and "RuntimeWarning" in r.stderr
    r = _run("import minigrad; print(minigrad.get_backend())", MINIGRAD_BACKEND=" Reference ")
    assert r.returncode == 0 and r.stdout.strip() == "reference" and not r.stderr


# ------------------------------------------------------------------ interface
def test_reference_implements_every_primitive_of_the_interface():
    names = _primitives(Backend)
    assert len(names) > 15
    assert _primitives(Reference).keys() == names.keys()  # each one, and nothing else public
    for name, f in _primitives(Reference).items():
        assert _params(f) == _params(names[name]), name
        with pytest.raises(NotImplementedError):  # the interface names it, computes nothing
            names[name](Backend(), *[None] * (len(inspect.signature(f).parameters) - 1))


def test_every_fast_override_has_a_parity_test():
    """Fast overrides only primitives of the interface, with the same signature, and each
    override is compared with the reference method by a test declared with @parity."""
    interface = _primitives(Backend)
    overrides = _primitives(Fast)
    assert overrides.keys() <= interface.keys(), "Fast defines a method the interface lacks"
    for name, f in overrides.items():
        assert _params(f) == _params(interface[name]), name
    unchecked = sorted(overrides.keys() - PARITY.keys())
    assert not unchecked, f"Fast overrides {unchecked} without a parity test (@parity)"
    for name, test in PARITY.items():  # a declaration is backed by a call in the test
        source = inspect.getsource(inspect.unwrap(test))
        assert f"FB.{name}(" in source or f'"{name}"' in source, (name, test.__name__)


def test_reference_backend_never_loads_numba():
    """A whole GPT training step (forward, backward, clipping, AdamW) on the reference
    backend, in a fresh process: neither Numba nor minigrad.kernels is ever imported."""
    code = (
        "import sys, numpy as np, minigrad as mg\n"
        "from minigrad import models\n"
        "m = models.GPT(vocab_size=7, block_size=6, n_layer=1, n_head=2, n_embd=8, dropout=0.1)\n"
        "opt = mg.optim.AdamW(m.parameters(), lr=1e-3)\n"
        "_, loss = m(np.zeros((2, 6), dtype=np.int64), np.ones((2, 6), dtype=np.int64))\n"
        "loss.backward(); mg.optim.clip_grad_norm_(m.parameters(), 1.0); opt.step()\n"
        "bad = [k for k, m in sys.modules.items()\n"
        "       if m is not None and (k == 'numba' or k.startswith(('numba.', 'minigrad.kernels')))]\n"
        "print(mg.get_backend(), bad)\n"
    )
    r = _run(code, MINIGRAD_BACKEND="reference")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "reference []"
    # and with Numba not installed at all (None in sys.modules: ``import numba`` fails)
    r = _run("import sys\nsys.modules['numba'] = None\n" + code, MINIGRAD_BACKEND="reference")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "reference []"


def test_the_fast_backend_imports_its_kernels_on_first_use_only():
    """``import minigrad`` (fast backend by default) imports no kernel and no Numba; the
    first fast primitive does."""
    code = ("import sys, numpy as np, minigrad as mg, minigrad.nn, minigrad.models\n"
            "loaded = lambda: sorted(k for k in sys.modules if k == 'numba' or k.startswith("
            "'minigrad.kernels'))\n"
            "before = loaded()\n"
            "mg.backends.active.softmax(np.zeros((2, 3)))\n"
            "print(mg.get_backend(), before, 'numba' in loaded())\n")
    r = _run(code)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "fast [] True"


# ------------------------------------------------------- whole training steps
def _gpt_step(name: str, dtype, dropout: float) -> tuple:
    mg.manual_seed(0)
    m = models.GPT(vocab_size=13, block_size=8, n_layer=2, n_head=2, n_embd=16, dropout=dropout)
    for p in m.parameters():
        p.data = p.data.astype(dtype)
    rng = np.random.default_rng(1)
    idx, tgt = rng.integers(0, 13, (2, 8)), rng.integers(0, 13, (2, 8))
    tgt[0, :3] = -100
    with mg.use_backend(name):
        mg.manual_seed(7)  # the same dropout masks on both backends
        _, loss = m(idx, tgt)
        loss.backward()
    return loss.item(), {k: _grad(p) for k, p in m.named_parameters()}


def _transformer_step(name: str, dtype, dropout: float) -> tuple:
    mg.manual_seed(0)
    m = models.Transformer(src_vocab_size=11, tgt_vocab_size=9, d_model=16, num_heads=2,
                           num_encoder_layers=1, num_decoder_layers=1, d_ff=32, max_len=16,
                           dropout=dropout)
    for p in m.parameters():
        p.data = p.data.astype(dtype)
    rng = np.random.default_rng(2)
    src, tgt = rng.integers(0, 11, (2, 7)), rng.integers(0, 9, (2, 6))
    src_mask = np.zeros((2, 1, 1, 7), dtype=bool)
    src_mask[1, ..., 5:] = True  # padded source keys: the masked (unfused) path
    with mg.use_backend(name):
        mg.manual_seed(7)
        logits = m(src, tgt[:, :-1], src_mask=src_mask)
        loss = mg.nn.functional.cross_entropy(logits, tgt[:, 1:])
        loss.backward()
    return loss.item(), {k: _grad(p) for k, p in m.named_parameters()}


@pytest.mark.parametrize("step", [_gpt_step, _transformer_step])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("dropout", [0.0, 0.1])
def test_training_step_fast_equals_reference(step, dtype, dropout):
    loss_f, grads_f = step("fast", dtype, dropout)
    loss_r, grads_r = step("reference", dtype, dropout)
    _close(loss_f, loss_r, dtype)
    assert grads_f.keys() == grads_r.keys()
    for k in grads_f:
        _close(grads_f[k], grads_r[k], dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("top_k", [1, None])
def test_generate_same_tokens_on_both_backends(dtype, top_k):
    # wide enough (128 channels, 1000 ids) that each decoding step's projections and head
    # take the fast backend's matrix-vector kernel; both cache paths and both backends agree
    mg.manual_seed(3)
    m = models.GPT(vocab_size=1000, block_size=16, n_layer=2, n_head=4, n_embd=128)
    for p in m.parameters():
        p.data = p.data.astype(dtype) * (25 if p.ndim == 2 else 1)  # sharp, varied logits
    prompt = np.random.default_rng(4).integers(0, 1000, (1, 3))
    runs = {}
    for name in ("fast", "reference"):
        for use_cache in (True, False):
            with mg.use_backend(name):
                mg.manual_seed(11)
                runs[name, use_cache] = m.generate(prompt, 20, top_k=top_k,
                                                   use_cache=use_cache).numpy()
    want = runs["reference", False]
    assert len(set(want[0, 3:].tolist())) > 3  # the test sees varied tokens, not one repeated
    for key, got in runs.items():
        np.testing.assert_array_equal(got, want, err_msg=str(key))


# ------------------------------------------------------------ each primitive
def _arr(rng, shape, dtype, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(dtype)


@parity("softmax", "softmax_backward", "log_softmax", "log_softmax_backward")
@given(dtypes, st.integers(1, 4), st.integers(1, 9), st.integers(0, 2**32 - 1))
def test_softmax_family(dtype, rows, cols, seed):
    rng = np.random.default_rng(seed)
    x, g = _arr(rng, (rows, cols), dtype, 3), _arr(rng, (rows, cols), dtype)
    x[0] = -np.inf  # a fully masked row gives zeros (softmax)
    for fwd, bwd in (("softmax", "softmax_backward"), ("log_softmax", "log_softmax_backward")):
        yf, yr = getattr(FB, fwd)(x[1:]), getattr(RB, fwd)(x[1:])
        _close(yf, yr, dtype)
        _close(getattr(FB, bwd)(yr, g[1:]), getattr(RB, bwd)(yr, g[1:]), dtype)
    _close(FB.softmax(x), RB.softmax(x), dtype)


@parity("linear", "linear_backward", "matmul")
@given(dtypes, st.integers(1, 3), st.integers(1, 6), st.integers(1, 6), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_linear_and_matmul(dtype, rows, n_in, n_out, bias, seed):
    rng = np.random.default_rng(seed)
    x, w = _arr(rng, (2, rows, n_in), dtype), _arr(rng, (n_out, n_in), dtype)
    b = _arr(rng, (n_out,), dtype) if bias else None
    g = _arr(rng, (2, rows, n_out), dtype)
    _close(FB.linear(x, w, b), RB.linear(x, w, b), dtype)
    _close(FB.matmul(x, w.T), RB.matmul(x, w.T), dtype)
    for need in ((True, True, bias), (True, False, False), (False, True, bias)):
        for f, r in zip(FB.linear_backward(g, x, w, *need), RB.linear_backward(g, x, w, *need)):
            _close(f, r, dtype)


@parity("add_weight_grad")
@given(dtypes, st.integers(0, 7), st.integers(1, 9), st.integers(1, 6), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_add_weight_grad(dtype, rows, n_out, n_in, strided, seed):
    # dw += g^T x in place: BLAS with beta = 1 on the fast backend (C-contiguous operands),
    # a product and an add otherwise (a strided g)
    rng = np.random.default_rng(seed)
    g, x = _arr(rng, (rows, n_out + strided), dtype)[:, :n_out], _arr(rng, (rows, n_in), dtype)
    start = _arr(rng, (n_out, n_in), dtype)
    fast, ref = start.copy(), start.copy()
    FB.add_weight_grad(g, x, fast)
    RB.add_weight_grad(g, x, ref)
    _close(fast, ref, dtype)


@parity("layer_norm", "layer_norm_backward")
@given(dtypes, st.integers(1, 5), st.integers(1, 8), st.integers(0, 2**32 - 1))
def test_layer_norm(dtype, rows, d, seed):
    rng = np.random.default_rng(seed)
    x, w, b = _arr(rng, (rows, d), dtype, 2), _arr(rng, (d,), dtype), _arr(rng, (d,), dtype)
    g = _arr(rng, (rows, d), dtype)
    yf, mf, rf = FB.layer_norm(x, w, b, 1e-5)
    yr, mr, rr = RB.layer_norm(x, w, b, 1e-5)
    for f, r in ((yf, yr), (mf, mr), (rf, rr)):
        _close(f, r, dtype)
    # a nearly constant float32 row (1/std in the hundreds) multiplies each backend's float32
    # rounding in the backward by 1/std: both are then right only to that coarser precision
    assume(dtype is np.float64 or float(np.max(rr)) < 50.0)
    for f, r in zip(FB.layer_norm_backward(g, x, w, mf, rf), RB.layer_norm_backward(g, x, w, mr, rr)):
        _close(f, r, dtype)


@parity("batch_norm", "batch_norm_backward")
@given(dtypes, st.integers(1, 4), st.integers(1, 4), st.integers(1, 6), st.floats(-100, 100),
       st.integers(0, 2**32 - 1))
def test_batch_norm(dtype, n, c, s, offset, seed):
    rng = np.random.default_rng(seed)
    assume(n * s > 1)
    # values far from zero (offset) check the one-pass variance against the two-pass one
    x = _arr(rng, (n, c, s), dtype, 2) + dtype(offset)
    w, b, g = _arr(rng, (c,), dtype), _arr(rng, (c,), dtype), _arr(rng, (n, c, s), dtype)
    yf, mf, vf = FB.batch_norm(x, w, b, 1e-5)
    yr, mr, vr = RB.batch_norm(x, w, b, 1e-5)
    _close(mf, mr, dtype)
    _close(vf, vr, dtype)
    rstd = 1.0 / np.sqrt(vr + 1e-5)
    # as for layer norm: a nearly constant float32 channel scales each backend's rounding
    # of x - mean by 1/std, so both are right only to that coarser precision
    assume(dtype is np.float64 or float(np.max(rstd)) * max(1.0, abs(offset)) < 50.0)
    _close(yf, yr, dtype)
    fx, *fwb = FB.batch_norm_backward(g, x, w, mr, rstd)
    rx, *rwb = RB.batch_norm_backward(g, x, w, mr, rstd)
    for f, r in zip(fwb, rwb):
        _close(f, r, dtype)
    # dx = w rstd (g - mean(g) - xhat mean(g xhat)) is a difference of terms of size
    # w rstd |g|, each rounded with xhat's relative error eps |x| rstd: with few values a
    # channel (two: dx is zero but for rounding) that, not 1e-5, bounds the float32 answer
    scale = float(np.max(np.abs(w) * rstd)) * float(np.max(np.abs(g))) * max(
        1.0, float(np.max(rstd)) * float(np.max(np.abs(x))))
    np.testing.assert_allclose(fx.astype(np.float64), rx.astype(np.float64),
                               rtol=TOL[dtype]["rtol"],
                               atol=max(TOL[dtype]["atol"], (1e-6 if dtype is np.float32
                                                             else 1e-14) * scale))


@parity("gelu", "gelu_backward")
@given(dtypes, st.integers(1, 40), st.integers(0, 2**32 - 1), st.sampled_from(["none", "tanh"]))
def test_gelu(dtype, n, seed, approximate):
    rng = np.random.default_rng(seed)
    x, g = _arr(rng, (n,), dtype, 4), _arr(rng, (n,), dtype)
    (yf, df), (yr, dr) = FB.gelu(x, True, approximate), RB.gelu(x, True, approximate)
    _close(yf, yr, dtype)
    _close(df, dr, dtype)
    _close(FB.gelu_backward(g, df), RB.gelu_backward(g, dr), dtype)


@parity("attention", "attention_backward")
@given(dtypes, st.integers(1, 2), st.integers(0, 5), st.integers(0, 5), st.integers(1, 4),
       st.booleans(), st.sampled_from(["none", "mask", "dropout"]), st.integers(0, 2**32 - 1))
def test_attention(dtype, heads, t_q, t_k, hs, causal, extra, seed):
    """The one head layout (B, T, H, d) and the additive mask; the fast backend's fused and
    unfused routes against the reference (attention's own tests: tests/nn/test_attention.py)."""
    rng = np.random.default_rng(seed)
    q, k, v = (_arr(rng, (2, t, heads, hs), dtype) for t in (t_q, t_k, t_k))
    g = _arr(rng, (2, t_q, heads, hs), dtype)
    blocked = rng.random((2, 1, t_q, t_k)) < 0.4
    mask = np.where(blocked, -np.inf, 0.0).astype(dtype) if extra == "mask" else None
    drop = ((rng.random((2, heads, t_q, t_k)) > 0.3) / 0.7).astype(dtype) if extra == "dropout" else None
    scale = 1 / np.sqrt(hs)
    of, pf, saved_f = FB.attention(q, k, v, mask, causal, scale, drop)
    o_r, pr, saved_r = RB.attention(q, k, v, mask, causal, scale, drop)
    assert of.shape == o_r.shape == (2, t_q, heads, hs)
    for f, r in ((of, o_r), (pf, pr)):
        _close(f, r, dtype)
    assert np.all(np.isfinite(o_r))  # fully masked rows (and no keys) give zeros, not NaN
    needs = (True, True, True)
    for f, r in zip(FB.attention_backward(g, saved_f, scale, drop, needs),
                    RB.attention_backward(g, saved_r, scale, drop, needs)):
        _close(f, r, dtype)


@parity("count_targets", "cross_entropy")
@given(dtypes, st.integers(0, 6), st.integers(1, 5),
       st.sampled_from([-100, 0, 2**40, -2**40]), st.integers(0, 2**32 - 1))
def test_cross_entropy_and_targets(dtype, n, c, ignore_index, seed):
    rng = np.random.default_rng(seed)
    x = _arr(rng, (n, c), dtype, 3)
    t = rng.integers(0, c, n)
    t[rng.random(n) < 0.3] = ignore_index
    assert FB.count_targets(t, c, ignore_index) == RB.count_targets(t, c, ignore_index)
    for f, r in zip(FB.cross_entropy(x, t, ignore_index, 0.5), RB.cross_entropy(x, t, ignore_index, 0.5)):
        _close(f, r, dtype)
    bad = t.copy()
    if n:
        bad[-1] = c
        assert FB.count_targets(bad, c, ignore_index)[0] == RB.count_targets(bad, c, ignore_index)[0] == n - 1


@parity("embedding_backward", "masked_fill", "sum_of_squares", "adam_update")
@given(dtypes, st.integers(1, 5), st.integers(0, 12), st.integers(0, 2**32 - 1))
def test_embedding_masked_fill_norm_and_adam(dtype, vocab, n, seed):
    rng = np.random.default_rng(seed)
    ids, g = rng.integers(0, vocab, (n,)), _arr(rng, (n, 3), dtype)
    _close(FB.embedding_backward(ids, g, vocab), RB.embedding_backward(ids, g, vocab), dtype)
    # into a gradient already there (a tied head's), in place, and into a strided one
    total = _arr(rng, (vocab, 3), dtype)
    strided = np.zeros((vocab, 6), dtype)[:, ::2]
    strided[...] = total
    for out in (total.copy(), strided):
        got = FB.embedding_backward(ids, g, vocab, out=out)
        assert got is out
        _close(got, RB.embedding_backward(ids, g, vocab, out=total.copy()), dtype)
    x, mask = _arr(rng, (n, 3), dtype), rng.random((1, 3)) < 0.5
    _close(FB.masked_fill(x, mask, -2.5), RB.masked_fill(x, mask, -2.5), dtype)
    assert FB.sum_of_squares(x) == pytest.approx(RB.sum_of_squares(x), rel=1e-12)
    c = adam_coefficients(1e-2, 0.9, 0.99, 1e-8, 0.1, 3, True, dtype)
    state = [_arr(rng, (n, 3), dtype), np.zeros((n, 3), dtype), np.ones((n, 3), dtype)]
    fast_state = [a.copy() for a in state]
    RB.adam_update(state[0], g, state[1], state[2], c)
    FB.adam_update(fast_state[0], g, fast_state[1], fast_state[2], c)
    for f, r in zip(fast_state, state):
        _close(f, r, dtype)


@given(st.integers(1, 2), st.integers(1, 3), st.integers(1, 6), st.integers(1, 4),
       st.booleans(), st.integers(0, 2**32 - 1))
def test_attention_reads_views_of_a_packed_projection(batch, heads, t, hs, causal, seed):
    """q, k, v as strided views into one packed (B, T, 3C) projection (what a GPT's c_attn
    gives): the fast backend's fused kernel reads them without a copy and equals the
    reference, forward and backward."""
    rng = np.random.default_rng(seed)
    C = heads * hs
    qkv = _arr(rng, (batch, t, 3 * C), np.float32)
    g = _arr(rng, (batch, t, heads, hs), np.float32)
    views = qkv.reshape(batch, t, 3, heads, hs)
    q, k, v = views[:, :, 0], views[:, :, 1], views[:, :, 2]
    assert np.shares_memory(q, qkv) and np.shares_memory(v, qkv)  # views, not copies
    scale = 1 / np.sqrt(hs)
    of, pf, saved_f = FB.attention(q, k, v, None, causal, scale, None)
    o_r, pr, saved_r = RB.attention(q, k, v, None, causal, scale, None)
    _close(of, o_r, np.float32)
    _close(pf, pr, np.float32)
    for f, r in zip(FB.attention_backward(g, saved_f, scale, None, (True,) * 3),
                    RB.attention_backward(g, saved_r, scale, None, (True,) * 3)):
        _close(f, r, np.float32)


# ------------------------------------------------- gradient checks, reference
def test_reference_backend_passes_the_gradient_checks():
    """The op gradient checks (finite differences, float64) on the reference backend alone,
    in a process that never loads Numba."""
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
         "tests/ops/test_ops_grad.py", "tests/autograd/test_gradcheck.py",
         "tests/nn/test_functional.py"],
        capture_output=True, text=True, timeout=900, cwd=ROOT, check=False,
        env={**os.environ, "MINIGRAD_BACKEND": "reference"})
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]


@parity("recurrence", "recurrence_backward")
@given(dtypes, st.sampled_from(["RNN_TANH", "RNN_RELU", "LSTM", "GRU"]), st.integers(1, 5),
       st.integers(0, 3), st.integers(1, 4), st.booleans(), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_recurrence(dtype, kind, length, batch, hidden, reverse, bias, seed):
    # every cell kind, both directions, with and without b_hh, an empty batch and one step
    rng = np.random.default_rng(seed)
    gates = {"LSTM": 4, "GRU": 3}.get(kind, 1) * hidden
    gi = _arr(rng, (length, batch, gates), dtype, 2)
    h0, c0 = _arr(rng, (batch, hidden), dtype), _arr(rng, (batch, hidden), dtype)
    c0 = c0 if kind == "LSTM" else None
    w, b = _arr(rng, (gates, hidden), dtype), _arr(rng, (gates,), dtype) if bias else None
    args = (kind, gi, h0, c0, w, b, reverse)
    (yf, gf), (yr, gr) = FB.recurrence(*args), RB.recurrence(*args)
    _close(yf, yr, dtype)
    _close(gf, gr, dtype)
    gy = _arr(rng, yr.shape, dtype)
    back = (kind, gy, yr, gr, h0, c0, w, reverse)
    for f, r in zip(FB.recurrence_backward(*back), RB.recurrence_backward(*back)):
        _close(f, r, dtype)


@parity("reduce_sum")
@given(dtypes, st.lists(st.integers(0, 40), min_size=1, max_size=4),
       st.lists(st.integers(-4, 3), max_size=4), st.booleans(), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_reduce_sum(dtype, shape, axes, keepdims, big, seed):
    # every axis set (the kernel takes a kept block between summed leading and trailing
    # axes, float32 only), a bias' gradient large enough to split over the threads, empty
    # dims; float64 accumulation, so the result is the reference's to float32 rounding
    rng = np.random.default_rng(seed)
    shape = [4096, 40] if big else shape
    axes = tuple(sorted({a % len(shape) for a in axes if -len(shape) <= a < len(shape)}))
    a = _arr(rng, tuple(shape), dtype)
    axis = (axes[0] if len(axes) == 1 and rng.random() < 0.5 else axes) if axes else None
    if big:
        axis = 0
    got, want = FB.reduce_sum(a, axis, keepdims), RB.reduce_sum(a, axis, keepdims)
    assert got.dtype == want.dtype and got.shape == want.shape
    _close(got, want, dtype)


@parity("relu", "relu_backward")
@given(dtypes, st.integers(0, 40_000), st.integers(0, 2**32 - 1))
def test_relu_and_its_backward(dtype, size, seed):
    # bit for bit: +0 for -0.0 and negatives, NaN passed on, inf kept; the backward selects
    # (an infinite gradient at a zeroed input gives 0, a NaN input passes it); sizes that
    # split over the threads
    rng = np.random.default_rng(seed)
    x = _arr(rng, (size,), dtype)
    for value, share in ((-0.0, 0.1), (np.nan, 0.05), (np.inf, 0.05), (-np.inf, 0.05)):
        x[rng.random(size) < share] = value
    y = FB.relu(x)
    np.testing.assert_array_equal(y, RB.relu(x))
    assert not np.signbit(y[y == 0]).any()
    g = _arr(rng, (size,), dtype)
    g[rng.random(size) < 0.1] = np.inf
    np.testing.assert_array_equal(FB.relu_backward(g, y), RB.relu_backward(g, y))


@parity("window_max", "window_select", "window_select_backward")
@given(dtypes, st.integers(1, 3), st.integers(0, 2), st.integers(1, 3), st.integers(1, 4),
       st.integers(1, 2), st.integers(0, 2**32 - 1))
def test_window_max_select_and_scatter(dtype, d, rows, kernel, stride, dilation, seed):
    # 1-3 spatial dims, a stride above the kernel, dilation, no rows (an empty batch), ties
    # (small integers drawn), -inf padding and NaN: the first maximum wins, a NaN first of all
    rng = np.random.default_rng(seed)
    k = tuple(int(v) for v in rng.integers(1, kernel + 1, d))
    s = tuple(int(v) for v in rng.integers(1, stride + 1, d))
    r = tuple(int(v) for v in rng.integers(1, dilation + 1, d))
    space = tuple(int(dl * (kl - 1) + 1 + rng.integers(0, 5)) for kl, dl in zip(k, r))
    x = rng.integers(-2, 3, (rows, 2, *space)).astype(dtype)
    x[rng.random(x.shape) < 0.1] = -np.inf
    x[rng.random(x.shape) < 0.05] = np.nan
    (yf, af), (yr, ar) = FB.window_max(x, k, s, r), RB.window_max(x, k, s, r)
    np.testing.assert_array_equal(af, ar)
    np.testing.assert_array_equal(yf, yr)
    np.testing.assert_array_equal(FB.window_select(x, ar, k, s, r), yr)
    np.testing.assert_array_equal(RB.window_select(x, ar, k, s, r), yr)
    g = _arr(rng, yr.shape, dtype)
    _close(FB.window_select_backward(g, ar, x.shape, k, s, r),
           RB.window_select_backward(g, ar, x.shape, k, s, r), dtype)


@parity("windows_backward")
@given(dtypes, st.integers(1, 3), st.integers(0, 3), st.integers(1, 3), st.integers(1, 4),
       st.integers(1, 2), st.sampled_from(["contiguous", "strided", "broadcast"]),
       st.integers(0, 2**32 - 1))
def test_col2im(dtype, d, rows, kernel, stride, dilation, layout, seed):
    # overlapping windows (stride below the kernel) add up, a stride above it leaves gaps,
    # dilation, no rows; g a permuted view, as a convolution's gradient reaches it, or one
    # value per window broadcast over its offsets, as average pooling's
    rng = np.random.default_rng(seed)
    k = tuple(int(v) for v in rng.integers(1, kernel + 1, d))
    s = tuple(int(v) for v in rng.integers(1, stride + 1, d))
    r = tuple(int(v) for v in rng.integers(1, dilation + 1, d))
    shape = (rows, 2) + tuple(int(dl * (kl - 1) + 1 + rng.integers(0, 5)) for kl, dl in zip(k, r))
    out = RB.windows(np.zeros(shape, dtype), k, s, r).shape[2:2 + d]
    if layout == "strided":  # stored kernel-major (rows, 2, *kernel, *out)
        g = np.moveaxis(_arr(rng, (rows, 2, *k, *out), dtype), tuple(range(2, 2 + d)),
                        tuple(range(2 + d, 2 + 2 * d)))
    elif layout == "broadcast":
        g = np.broadcast_to(_arr(rng, (rows, 2, *out, *(1,) * d), dtype), (rows, 2, *out, *k))
    else:
        g = _arr(rng, (rows, 2, *out, *k), dtype)
    _close(FB.windows_backward(g, shape, s, r), RB.windows_backward(g, shape, s, r), dtype)


@parity("window_rows", "window_rows_backward", "window_columns", "window_columns_backward")
@given(dtypes, st.sampled_from(["rows", "columns"]), st.integers(1, 3), st.integers(0, 3),
       st.integers(1, 3), st.integers(1, 3), st.integers(1, 4), st.integers(1, 2),
       st.integers(0, 3), st.booleans(), st.integers(0, 2**32 - 1))
def test_im2col_and_its_adjoint(dtype, layout, d, batch, channels, kernel, stride, dilation,
                                pad, strided, seed):
    # im2col (rows or columns) of the zero-padded x: a copy, so equal to the reference bit
    # for bit;
    # its adjoint adds overlapping windows up and drops the padding's share; padding wider
    # than a window (windows wholly in it), uneven low/high padding, x a strided view, an
    # empty batch
    rng = np.random.default_rng(seed)
    k = tuple(int(v) for v in rng.integers(1, kernel + 1, d))
    s = tuple(int(v) for v in rng.integers(1, stride + 1, d))
    r = tuple(int(v) for v in rng.integers(1, dilation + 1, d))
    pads = tuple((int(rng.integers(0, pad + 1)), int(rng.integers(0, pad + 1))) for _ in k)
    space = tuple(max(1, int(dl * (kl - 1) + 1 + rng.integers(0, 5)) - lo - hi)
                  for kl, dl, (lo, hi) in zip(k, r, pads))
    assume(all(n + lo + hi >= dl * (kl - 1) + 1 for n, kl, dl, (lo, hi)
               in zip(space, k, r, pads)))
    x = _arr(rng, (batch, channels, *(n + 2 for n in space)), dtype)
    x = x[(slice(None), slice(None), *(slice(1, -1),) * d)]
    x = x if strided else np.ascontiguousarray(x)
    forward, backward = f"window_{layout}", f"window_{layout}_backward"
    cols = getattr(FB, forward)(x, k, s, r, pads)
    np.testing.assert_array_equal(cols, getattr(RB, forward)(x, k, s, r, pads))
    assert cols.flags.c_contiguous
    g = _arr(rng, cols.shape, dtype)
    _close(getattr(FB, backward)(g, x.shape, s, r, pads),
           getattr(RB, backward)(g, x.shape, s, r, pads), dtype)


@parity("channels_first", "channels_last")
@given(dtypes, st.integers(1, 3), st.integers(0, 4), st.integers(1, 70), st.integers(1, 9),
       st.booleans(), st.booleans(), st.integers(0, 2**32 - 1))
def test_channels_first_and_last(dtype, groups, batch, positions, outs, bias, want_sum, seed):
    # a layout change is a copy (bit for bit, -0.0 kept without a bias); the bias added and
    # the gradient summed; large enough cases to split over the threads
    rng = np.random.default_rng(seed)
    rows = _arr(rng, (groups, batch, positions, outs), dtype)
    rows[rng.random(rows.shape) < 0.1] = -0.0
    b = _arr(rng, (groups * outs,), dtype) if bias else None
    np.testing.assert_array_equal(FB.channels_first(rows, b), RB.channels_first(rows, b))
    g = _arr(rng, (batch, groups, outs, positions), dtype)
    (rf, sf), (rr, sr) = FB.channels_last(g, want_sum), RB.channels_last(g, want_sum)
    np.testing.assert_array_equal(rf, rr)
    assert rf.flags.c_contiguous
    _close(sf, sr, dtype)


@pytest.mark.parametrize("layout", ["rows", "columns"])
def test_im2col_and_channels_with_the_work_split_over_the_threads(layout):
    # the digits CNN's second convolution: large enough for the threads to take samples (or
    # planes) of their own (an odd batch: blocks of unequal size); the drawn cases above are
    # all serial
    rng = np.random.default_rng(0)
    x = _arr(rng, (33, 32, 4, 4), np.float32)
    pads, forward, backward = ((1, 1), (1, 1)), f"window_{layout}", f"window_{layout}_backward"
    cols = getattr(FB, forward)(x, (3, 3), (1, 1), (1, 1), pads)
    np.testing.assert_array_equal(cols, getattr(RB, forward)(x, (3, 3), (1, 1), (1, 1), pads))
    g = _arr(rng, cols.shape, np.float32)
    _close(getattr(FB, backward)(g, x.shape, (1, 1), (1, 1), pads),
           getattr(RB, backward)(g, x.shape, (1, 1), (1, 1), pads), np.float32)
    rows, b = _arr(rng, (1, 33, 16, 64), np.float32), _arr(rng, (64,), np.float32)
    np.testing.assert_array_equal(FB.channels_first(rows, b), RB.channels_first(rows, b))
    g = _arr(rng, (33, 1, 64, 16), np.float32)
    (rf, sf), (rr, sr) = FB.channels_last(g, True), RB.channels_last(g, True)
    np.testing.assert_array_equal(rf, rr)
    _close(sf, sr, np.float32)


@pytest.mark.parametrize("kind", ["RNN_TANH", "RNN_RELU", "LSTM", "GRU"])
@pytest.mark.parametrize("reverse", [False, True])
def test_recurrence_with_its_rows_split_over_threads(kind, reverse):
    # large enough for the fast backend to give the threads rows of their own (an odd batch:
    # blocks of unequal size); the drawn cases above are all serial
    rng = np.random.default_rng(0)
    hidden, batch = 64, 5
    gates = {"LSTM": 4, "GRU": 3}.get(kind, 1) * hidden
    gi = _arr(rng, (80, batch, gates), np.float32)
    h0, c0 = _arr(rng, (batch, hidden), np.float32), _arr(rng, (batch, hidden), np.float32)
    c0 = c0 if kind == "LSTM" else None
    w, b = _arr(rng, (gates, hidden), np.float32, 0.1), _arr(rng, (gates,), np.float32)
    (yf, gf), (yr, gr) = (be.recurrence(kind, gi, h0, c0, w, b, reverse) for be in (FB, RB))
    _close(yf, yr, np.float32)
    _close(gf, gr, np.float32)
    back = (kind, _arr(rng, yr.shape, np.float32), yr, gr, h0, c0, w, reverse)
    for f, r in zip(FB.recurrence_backward(*back), RB.recurrence_backward(*back)):
        if r is None:
            assert f is None
            continue
        # dW and db add up 400 rows of float32 products, in another order: their rounding
        # is that of the sum's largest terms
        np.testing.assert_allclose(f, r, rtol=1e-4, atol=1e-5 * max(1.0, float(np.abs(r).max())))

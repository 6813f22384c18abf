"""Version counters and in-place writes (PyTorch's semantics, checked against PyTorch).

Every in-place write minigrad performs (``copy_``, ``x[i] = v``, ``add_`` ...,
optimizer steps, ``clip_grad_norm_``) bumps the tensor's version counter, which
views share with their base; backward refuses an array saved at an older
version. In-place ops on non-leaf tensors are recorded in the graph.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minigrad as mg
from minigrad.optim import SGD, AdamW, clip_grad_norm_

STALE = "modified by an inplace operation"


def leaf(values, dtype=np.float64):
    return mg.tensor(np.array(values, dtype=dtype), requires_grad=True)


# ---- the counter ------------------------------------------------------------------------
def test_views_share_the_counter_and_copies_do_not():
    x = mg.tensor(np.arange(6.0).reshape(2, 3))
    views = [x.reshape(3, 2), x.view(6), x.transpose(0, 1), x.permute(1, 0), x.T, x[0], x[:, 1:],
             x.detach(), x.unsqueeze(0), x.unsqueeze(0).squeeze(0), x.split(1, axis=0)[1]]
    copies = [x[[0, 1]], x * 1, x.to(np.float32)]
    x.add_(1)
    assert x._version == 1
    assert all(v._version == 1 for v in views)
    assert all(c._version == 0 for c in copies)
    views[5][0] = 100.0  # a write through a view is a write to the base
    assert x._version == 2 and x.data[0, 0] == 100.0


@pytest.mark.parametrize("write", [
    lambda t: t.add_(1.0), lambda t: t.sub_(1.0), lambda t: t.mul_(2.0), lambda t: t.div_(2.0),
    lambda t: t.clamp_(0.0, 1.0), lambda t: t.zero_(), lambda t: t.fill_(3.0),
    lambda t: t.copy_(np.ones(3)), lambda t: t.__setitem__(0, 5.0),
])
def test_every_inplace_method_bumps_and_saved_arrays_go_stale(write):
    w = leaf([0.5, 1.5, 2.5])
    x = mg.tensor(np.array([1.0, 2.0, 3.0]))
    y = (w * x).sum()  # Mul saved x's array
    write(x)
    assert x._version == 1
    with pytest.raises(RuntimeError, match=rf"{STALE}.*input 1 of Mul, is at version 1; "
                                           r"expected version 0 instead"):
        y.backward()


def test_saved_output_goes_stale_like_pytorch():
    a = leaf([0.1, 0.2])
    e = a.exp()
    e.mul_(2.0)  # Exp saved its output, which is e's array
    with pytest.raises(RuntimeError, match=r"output 0 of Exp, is at version 1"):
        e.sum().backward()
    torch = pytest.importorskip("torch")
    ta = torch.tensor([0.1, 0.2], requires_grad=True)
    te = ta.exp()
    te.mul_(2.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        te.sum().backward()


def test_optimizer_step_between_forward_and_backward_is_refused():
    for make in (lambda ps: SGD(ps, lr=0.1), lambda ps: AdamW(ps, lr=0.1)):
        w = leaf([[1.0, 2.0], [3.0, 4.0]], np.float32)
        x = mg.tensor(np.ones((3, 2), np.float32))
        opt = make([w])
        loss = (x @ w.T).sum()  # MatMul saved w.T, a view sharing w's counter
        w.grad = mg.tensor(np.ones((2, 2), np.float32))
        opt.step()
        assert w._version == 1
        with pytest.raises(RuntimeError, match=STALE):
            loss.backward()


def test_clip_grad_norm_bumps_the_grads_it_scales():
    w = leaf([3.0, 4.0])
    w.grad = mg.tensor(np.array([3.0, 4.0]))
    clip_grad_norm_([w], 1.0)
    assert w.grad._version == 1
    clip_grad_norm_([w], 10.0)  # nothing scaled: no write
    assert w.grad._version == 1


def test_backward_with_unchanged_versions_still_works_and_retains():
    w = leaf([1.0, 2.0])
    y = (w * w).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_allclose(w.grad.data, [4.0, 8.0])


# ---- autograd semantics of in-place ops (PyTorch's) ----------------------------------
def test_inplace_on_leaf_requiring_grad_raises_unless_no_grad():
    w = leaf([1.0, 2.0])
    for write in (lambda: w.add_(1.0), lambda: w.copy_([0.0, 0.0]), lambda: w.__setitem__(0, 1.0),
                  lambda: w.zero_()):
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used "
                                               "in an in-place operation"):
            write()
    assert w._version == 0 and w.data.tolist() == [1.0, 2.0]
    with mg.no_grad():
        w.sub_(1.0)
    assert w.data.tolist() == [0.0, 1.0] and w.is_leaf and w._version == 1


def _run(lib, tensor, ops):
    """Build the same graph in minigrad or torch: returns (output, leaves)."""
    a = tensor([0.5, -1.0, 2.0])
    b = tensor([1.5, 0.25, -0.75])
    h = a * b + 0.5
    ops(lib, h, a, b)
    return (h * h).sum(), (a, b)


INPLACE_CASES = {
    "add_": lambda lib, h, a, b: h.add_(b, alpha=2.0),
    "sub_": lambda lib, h, a, b: h.sub_(b * 3.0),
    "mul_": lambda lib, h, a, b: h.mul_(b),
    "div_": lambda lib, h, a, b: h.div_(b + 2.0),
    "clamp_": lambda lib, h, a, b: h.clamp_(-0.5, 1.0),
    "copy_": lambda lib, h, a, b: h.copy_(a * 3.0),
    "setitem": lambda lib, h, a, b: h.__setitem__(slice(0, 2), b[1:] * a[1:]),
    "setitem_mask": lambda lib, h, a, b: h.__setitem__(
        lib.tensor(np.array([True, False, True])), a[1]),
    "fill_": lambda lib, h, a, b: h.fill_(2.0),
    "zero_then_add": lambda lib, h, a, b: h.zero_().add_(a),
}


@pytest.mark.parametrize("name", sorted(INPLACE_CASES))
def test_inplace_on_non_leaf_matches_torch(name):
    torch = pytest.importorskip("torch")
    ops = INPLACE_CASES[name]
    out, (a, b) = _run(mg, lambda v: leaf(v), ops)
    out.backward()
    tout, (ta, tb) = _run(torch, lambda v: torch.tensor(v, dtype=torch.float64,
                                                         requires_grad=True), ops)
    tout.backward()
    np.testing.assert_allclose(out.item(), tout.item(), rtol=1e-12)
    for mine, theirs in ((a, ta), (b, tb)):
        expected = np.zeros(3) if theirs.grad is None else theirs.grad.numpy()
        got = np.zeros(3) if mine.grad is None else mine.grad.data
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)


def test_inplace_into_constant_buffer_records_the_value_written():
    torch = pytest.importorskip("torch")
    w = leaf([2.0, 3.0])
    buf = mg.zeros(4, dtype=np.float64)
    buf[1:3] = w * w
    (buf * mg.tensor(np.arange(4.0))).sum().backward()
    tw = torch.tensor([2.0, 3.0], dtype=torch.float64, requires_grad=True)
    tbuf = torch.zeros(4, dtype=torch.float64)
    tbuf[1:3] = tw * tw
    (tbuf * torch.arange(4.0, dtype=torch.float64)).sum().backward()
    np.testing.assert_allclose(w.grad.data, tw.grad.numpy())
    assert not buf.is_leaf and buf.requires_grad


# Programs whose ops used h before it was written in place; each keeps differentiating
# through the value it read. EARLIER_USES pairs each with d(loss)/dx at x = [1, 2] as
# PyTorch 2.13 computes it.
def _later_consumer(x):
    h = x * 2
    y = h + 1
    h.mul_(3)
    return (y * h).sum()


def _two_writes(x):
    h = x * 2
    y = h + 1
    h.add_(1)
    w = h - 1
    h.mul_(3)
    return (y + w * 2 + h).sum()


def _write_through_a_view(x):
    h = x * 2
    y = h.sum()
    h[0:1].mul_(5)
    return y + h.sum()


def _view_used_then_base_written(x):
    h = x * 2
    y = h[1:] + 1
    h.add_(1)
    return y.sum() + h.sum()


def _op_saving_its_output(x):
    h = x * 2
    y = h.exp()  # saves its output, not h
    h.mul_(3)
    return y.sum()


def _augmented_assignments(x):
    h = x * 2
    y = -h
    h += 1
    y.sub_(h)
    return (y * x).sum()


EARLIER_USES = [
    (_later_consumer, [30.0, 54.0]),
    (_two_writes, [12.0, 12.0]),
    (_write_through_a_view, [12.0, 4.0]),
    (_view_used_then_base_written, [2.0, 4.0]),
    (_op_saving_its_output, [2 * np.exp(2.0), 2 * np.exp(4.0)]),
    (_augmented_assignments, [-9.0, -17.0]),
]


@pytest.mark.parametrize("program, expected", EARLIER_USES,
                         ids=[p.__name__.strip("_") for p, _ in EARLIER_USES])
def test_an_op_that_used_a_tensor_before_its_in_place_write_differentiates_the_old_value(
        program, expected):
    x = leaf([1.0, 2.0])
    program(x).backward()
    np.testing.assert_allclose(x.grad.data, expected, rtol=1e-12)


def test_an_op_that_saved_the_overwritten_array_is_refused():
    x = leaf([1.0, 2.0])
    h = x * 2
    y = h * h  # saves h's array
    h.add_(1)
    with pytest.raises(RuntimeError, match=r"modified by an inplace operation.*input 0 of Mul"):
        y.sum().backward()


def test_inplace_on_a_view_while_recording_is_a_recorded_write_to_its_base():
    a = leaf([1.0, 2.0, 3.0])
    h = a * 1.0
    v = h[1:]
    v.mul_(a[1:])
    assert h._version == 1 and h.data.tolist() == [1.0, 4.0, 9.0]
    (h * 1.0).sum().backward()  # d/da of [a0, a1**2, a2**2]
    assert a.grad.data.tolist() == [1.0, 4.0, 6.0]
    with mg.no_grad():
        v.mul_(2.0)  # no graph: a plain write, and the base sees it
    assert h.data.tolist() == [1.0, 8.0, 18.0] and h._version == 2


def test_inplace_errors_change_nothing():
    x = mg.tensor(np.zeros(3))
    with pytest.raises(RuntimeError, match=r"output with shape \[3\] doesn't match the broadcast "
                                           r"shape \[2, 3\]"):
        x.add_(np.ones((2, 3)))
    i = mg.tensor([1, 2, 3])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output "
                                           "type Long"):
        i.mul_(1.5)
    with pytest.raises(ValueError, match="cannot be broadcast to the indexed region"):
        x[0:2] = np.ones(3)
    with pytest.raises(ValueError, match="more than once"):
        x[np.array([0, 0])] = mg.tensor(np.ones(2), requires_grad=True)
    assert x._version == 0 and i._version == 0 and x.data.tolist() == [0.0, 0.0, 0.0]
    i.add_(2)
    assert i.data.tolist() == [3, 4, 5] and i.dtype == np.int64


def test_float64_value_written_into_float32_tensor_is_cast():
    x = mg.zeros(2)
    x.copy_(np.array([1.25, 2.5]))
    assert x.dtype == np.float32 and x.data.tolist() == [1.25, 2.5]


def test_grad_is_a_tensor():
    w = leaf([1.0, 2.0], np.float32)
    (w * w).sum().backward()
    assert isinstance(w.grad, mg.Tensor) and w.grad.dtype == np.float32
    assert w.grad.shape == w.shape and not w.grad.requires_grad
    assert isinstance(w.grad.data, np.ndarray)
    w.grad.zero_()
    assert w.grad.data.tolist() == [0.0, 0.0]
    with pytest.raises(TypeError, match="assigned grad expected to be a Tensor or None"):
        w.grad = np.ones(2, np.float32)
    with pytest.raises(ValueError, match=r"assigned grad has shape \(3,\)"):
        w.grad = mg.zeros(3)
    with pytest.raises(ValueError, match="dtype float64"):
        w.grad = mg.tensor(np.ones(2))


# ---- random graphs of view ops with one in-place write: raise or match PyTorch ------------
VIEW_OPS = [  # (name, op, the ndims it applies to)
    ("reshape", lambda t: t.reshape(-1), (1, 2, 3)), ("T", lambda t: t.T, (2,)),
    ("slice", lambda t: t[1:], (1, 2, 3)), ("row", lambda t: t[0], (2, 3)),
    ("unsqueeze", lambda t: t.unsqueeze(0), (1, 2)), ("transpose", lambda t: t.transpose(0, 1), (2, 3)),
    ("exp", lambda t: t.exp(), (1, 2, 3)), ("mul", lambda t: t * 2.0, (1, 2, 3)),
    ("tanh", lambda t: t.tanh(), (1, 2, 3)),
]
WRITES = [
    ("add_", lambda t: t.add_(1.0)), ("mul_", lambda t: t.mul_(0.5)),
    ("clamp_", lambda t: t.clamp_(-0.3, 0.3)), ("set0", lambda t: t.__setitem__(0, 0.25)),
]


@given(chain=st.lists(st.sampled_from(range(len(VIEW_OPS))), min_size=1, max_size=4),
       at=st.integers(0, 4), write=st.sampled_from(range(len(WRITES))))
def test_random_view_graph_with_inplace_write_raises_or_matches_torch(chain, at, write):
    torch = pytest.importorskip("torch")
    at = min(at, len(chain))
    init = np.array([[0.3, -0.7], [1.1, 0.4]])

    def build(lib, x):
        h = x * 1.0
        for k, idx in enumerate(chain):
            if k == at and h.shape[0] > 0:  # an empty view has no element 0 to write
                WRITES[write][1](h)
            _, op, ndims = VIEW_OPS[idx]
            if h.ndim in ndims and h.shape[0] > 0:  # an empty view has no row to take
                h = op(h)
        if at == len(chain) and h.ndim > 0 and h.shape[0] > 0:
            WRITES[write][1](h)
        return (h * h).sum()

    x = mg.tensor(init.copy(), requires_grad=True)
    tx = torch.tensor(init.copy(), requires_grad=True)
    try:
        out = build(mg, x)
        out.backward()
    except RuntimeError as e:  # refused: must be one of minigrad's clear refusals
        assert STALE in str(e) or "in-place write to a view" in str(e)
        return
    tout = build(torch, tx)
    tout.backward()
    np.testing.assert_allclose(out.item(), tout.item(), rtol=1e-12)
    # atol: where tanh saturates, 1 - tanh(x)**2 cancels, and the last-bit difference between
    # NumPy's and PyTorch's tanh becomes ~1e-15 absolute (Hypothesis found 1.8e-15 at 2e-6)
    np.testing.assert_allclose(x.grad.data, tx.grad.numpy(), rtol=1e-12, atol=1e-13)

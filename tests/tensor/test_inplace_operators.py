"""Augmented assignment (``x += y``, ...) and PyTorch's named in-place methods: one rule for all.

Every operator writes into the tensor itself (same object, same array, every view sees it),
bumps the version counter, is refused on a leaf that requires grad while grad mode is on,
updates a Parameter in place under ``no_grad`` and is recorded in the graph on a non-leaf;
dtypes follow PyTorch (no float result into an integer tensor, no shape change by
broadcasting). The table below runs every case for every operator; the semantics are checked
without PyTorch (finite differences, NumPy), and against PyTorch where it is installed.
"""

from __future__ import annotations

import itertools
import operator

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.tensor import _INPLACE_OPS

LEAF_ERROR = "a leaf Variable that requires grad is being used in an in-place operation."

# symbol -> (Python's in-place operator, PyTorch's in-place method, NumPy's reference op)
AUGMENTED = {
    "+=": (operator.iadd, "add_", np.add),
    "-=": (operator.isub, "sub_", np.subtract),
    "*=": (operator.imul, "mul_", np.multiply),
    "/=": (operator.itruediv, "div_", np.true_divide),
    "**=": (operator.ipow, "pow_", np.power),
    "//=": (operator.ifloordiv, "floor_divide_", np.floor_divide),
    "%=": (operator.imod, "remainder_", np.mod),
    "&=": (operator.iand, "bitwise_and_", np.bitwise_and),
    "|=": (operator.ior, "bitwise_or_", np.bitwise_or),
    "^=": (operator.ixor, "bitwise_xor_", np.bitwise_xor),
    "<<=": (operator.ilshift, "bitwise_left_shift_", np.left_shift),
    ">>=": (operator.irshift, "bitwise_right_shift_", np.right_shift),
}
BITWISE = {"&=", "|=", "^="}
SHIFTS = {"<<=", ">>="}  # integers only: PyTorch shifts neither floats nor bools
FLOAT_OPS = sorted(set(AUGMENTED) - BITWISE - SHIFTS)
# // and % have gradient 0 or 1 almost everywhere; the gradient checks include them: the
# recorded op must still give exactly that
X0 = np.array([[1.5, 2.25, 0.75], [1.25, 0.5, 2.75]])
Y0 = np.array([[0.53, 1.71, 1.27], [2.43, 0.37, 1.13]])  # no ratio near an integer


def _apply(symbol: str, x, y):
    """``x <symbol> y`` as the statement does it: returns what the name is bound to after."""
    return AUGMENTED[symbol][0](x, y)


# ---- the table is one rule ---------------------------------------------------------------
@pytest.mark.parametrize("symbol", sorted(AUGMENTED))
def test_augmented_assignment_is_pytorchs_inplace_method(symbol):
    dunder = AUGMENTED[symbol][0].__name__.replace("i", "__i", 1) + "__"
    assert getattr(mg.Tensor, dunder) is getattr(mg.Tensor, AUGMENTED[symbol][1])


# ---- leaf that requires grad, grad mode on: refused, nothing changed -----------------------
@pytest.mark.parametrize("symbol", sorted(AUGMENTED))
def test_leaf_requiring_grad_is_refused_and_unchanged(symbol):
    w = mg.tensor(X0.copy(), requires_grad=True)
    p = nn.Parameter(mg.tensor(X0.copy()))
    for t in (w, p):
        with pytest.raises(RuntimeError, match=LEAF_ERROR):
            _apply(symbol, t, mg.tensor(Y0))
        assert t._version == 0 and t.is_leaf and t.grad is None
        np.testing.assert_array_equal(t.data, X0)


# ---- under no_grad: in place, same object, version bumped ------------------------------------
@pytest.mark.parametrize("symbol", FLOAT_OPS)
def test_no_grad_updates_the_same_parameter_in_place(symbol):
    p = nn.Parameter(mg.tensor(X0.copy()))
    array = p.data
    view = p[0]  # every view of the array sees the write
    with mg.no_grad():
        q = _apply(symbol, p, mg.tensor(Y0))
    assert q is p and p.data is array and isinstance(p, nn.Parameter)
    assert p.is_leaf and p.requires_grad and p._version == 1 and view._version == 1
    want = AUGMENTED[symbol][2](X0, Y0)
    np.testing.assert_allclose(p.data, want, rtol=1e-12)
    np.testing.assert_allclose(view.data, want[0], rtol=1e-12)


@pytest.mark.parametrize("symbol", FLOAT_OPS)
def test_tensor_without_grad_is_written_in_place_in_grad_mode(symbol):
    x = mg.tensor(X0.copy())
    same = x
    x = _apply(symbol, x, 2.0)
    assert x is same and x._version == 1 and x.is_leaf and not x.requires_grad
    np.testing.assert_allclose(x.data, AUGMENTED[symbol][2](X0, 2.0), rtol=1e-12)


# ---- a non-leaf: recorded, gradients as finite differences say -------------------------------
def _fd_grad(f, arrays, k, eps=1e-6):
    """Central differences of the scalar f(*arrays) with respect to arrays[k]."""
    g = np.zeros_like(arrays[k])
    for i in np.ndindex(g.shape):
        hi = [a.copy() for a in arrays]
        lo = [a.copy() for a in arrays]
        hi[k][i] += eps
        lo[k][i] -= eps
        g[i] = (f(*hi) - f(*lo)) / (2 * eps)
    return g


def _graph(symbol: str, a, b):
    """h = a * 1.5 + 0.25, then ``h <symbol>= b``, then a loss that reads h twice."""
    h = a * 1.5 + 0.25
    assert _apply(symbol, h, b) is h and h._version == 1 and h.is_leaf != a.requires_grad
    return (h * h).sum() + h.sum()


def test_writing_into_a_constant_with_an_operand_that_requires_grad_is_recorded():
    w = mg.tensor([2.0, 3.0], requires_grad=True)
    acc = mg.zeros(2, dtype=np.float64)
    same = acc
    acc += w * w
    acc *= w
    assert acc is same and acc.requires_grad and not acc.is_leaf and acc._version == 2
    acc.sum().backward()
    np.testing.assert_allclose(w.grad.data, 3 * np.array([2.0, 3.0]) ** 2)


# ---- views ----------------------------------------------------------------------------------
@pytest.mark.parametrize("symbol", FLOAT_OPS)
def test_view_write_reaches_the_base_and_a_view_of_a_leaf_is_refused(symbol):
    base = mg.tensor(X0.copy())
    row = base[1]
    row = _apply(symbol, row, 2.0)
    want = X0.copy()
    want[1] = AUGMENTED[symbol][2](X0[1], 2.0)
    np.testing.assert_allclose(base.data, want, rtol=1e-12)
    assert base._version == 1

    w = mg.tensor(X0.copy(), requires_grad=True)
    with mg.no_grad():
        made_without_grad = w[1]
    for view in (w.T[0], made_without_grad):
        with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad is "
                                               "being used in an in-place operation."):
            _apply(symbol, view, 2.0)
    assert w._version == 0
    np.testing.assert_array_equal(w.data, X0)


def _view_graph(symbol: str, a, b):
    """A write through a chain of two views of a non-leaf, then a loss reading base and view."""
    h = a * 1.5 + 0.25
    v = h.T[1:]  # (2, 2): columns 1 and 2 of h
    assert _apply(symbol, v, b[:, 1:].T) is v and h._version == 1
    return (h * h).sum() + (v * v * v).sum()


def _read_then_write(symbol: str, a, b):
    """``h[0] <symbol>= b[0]`` (a row: a view) and ``h[1, 2] <symbol>= b[1, 2]`` (an element: a
    copy), spelled as Python runs them, then ``h[1] = h[1] + b[1]``: each new value reads h."""
    h = a * 1.5 + 0.25
    h[0] = _apply(symbol, h[0], b[0])
    h[1, 2] = _apply(symbol, h[1, 2], b[1, 2])
    h[1] = h[1] + b[1]  # (h[1] * b[1] would save the view h[1]: refused, as by PyTorch)
    return (h * h).sum()


GRAPHS = {"non-leaf": _graph, "view of a non-leaf": _view_graph,
          "x[i] op= y": _read_then_write}


@pytest.mark.parametrize("where", sorted(GRAPHS))
@pytest.mark.parametrize("symbol", FLOAT_OPS)
def test_write_is_recorded_with_gradients_of_finite_differences_and_pytorch(symbol, where):
    graph = GRAPHS[where]
    a = mg.tensor(X0.copy(), requires_grad=True)
    b = mg.tensor(Y0.copy(), requires_grad=True)
    graph(symbol, a, b).backward()

    def f(x, y):
        with mg.no_grad():
            return float(graph(symbol, mg.tensor(x), mg.tensor(y)).item())

    for k, t in enumerate((a, b)):
        np.testing.assert_allclose(t.grad.data, _fd_grad(f, [X0, Y0], k), rtol=1e-5, atol=1e-5,
                                   err_msg=f"{symbol}: input {k}")
    # PyTorch has no derivative for floor_divide (minigrad's is 0, as finite differences say)
    if symbol == "//=" or (torch := _torch()) is None:
        return
    ta, tb = (torch.tensor(v.copy(), requires_grad=True) for v in (X0, Y0))
    try:
        graph(symbol, ta, tb).backward()
    except RuntimeError as e:  # PyTorch saved a value the write overwrote (**= on an element)
        assert "modified by an inplace operation" in str(e) and where == "x[i] op= y"
        return
    for mine, theirs in ((a, ta), (b, tb)):
        want = np.zeros_like(X0) if theirs.grad is None else theirs.grad.numpy()
        np.testing.assert_allclose(mine.grad.data, want, rtol=1e-12, atol=1e-14)


def test_a_view_of_a_constant_written_with_a_value_that_requires_grad():
    w = mg.tensor([1.0, 2.0, 3.0], dtype=np.float64, requires_grad=True)
    buf = mg.zeros(2, 3, dtype=np.float64)
    row = buf[1]
    row += w * w
    buf.T[0] *= w[0]  # a second view of the same base, after the first write
    assert buf.requires_grad and not buf.is_leaf and buf._version == 3  # as PyTorch counts
    (buf * buf).sum().backward()
    np.testing.assert_allclose(w.grad.data, [6.0, 32.0, 108.0])  # d/dw of w0**6 + w1**4 + w2**4


def _torch():
    try:
        import torch
    except ImportError:
        return None
    return torch


# ---- dtypes -------------------------------------------------------------------------------
@pytest.mark.parametrize("symbol", sorted(set(FLOAT_OPS) - {"**="}))
def test_float_result_into_an_integer_tensor_is_refused(symbol):
    i = mg.tensor([4, 5, 6])
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired "
                                           "output type Long"):
        _apply(symbol, i, 1.5)
    assert i._version == 0 and i.data.tolist() == [4, 5, 6] and i.dtype == np.int64


@pytest.mark.parametrize("symbol", sorted(set(AUGMENTED) - {"/="}))
def test_integer_tensor_with_integer_operand_stays_integer(symbol):
    i = mg.tensor([4, 5, 6])
    j = _apply(symbol, i, 3)
    assert j is i and i.dtype == np.int64 and i._version == 1
    assert i.data.tolist() == AUGMENTED[symbol][2](np.array([4, 5, 6]), 3).tolist()


@pytest.mark.parametrize("symbol", FLOAT_OPS)
def test_float32_with_float64_operand_stays_float32(symbol):
    x = mg.tensor(X0.astype(np.float32))
    _apply(symbol, x, mg.tensor(Y0))
    assert x.dtype == np.float32
    np.testing.assert_allclose(x.data, AUGMENTED[symbol][2](X0, Y0).astype(np.float32),
                               rtol=1e-6)


@pytest.mark.parametrize("symbol", sorted(AUGMENTED))
def test_broadcasting_that_would_change_the_shape_is_refused(symbol):
    dt = np.int64 if symbol in BITWISE | SHIFTS else np.float64
    x = mg.tensor(np.ones(3, dt))
    with pytest.raises(RuntimeError, match=r"output with shape \[3\] doesn't match the "
                                           r"broadcast shape \[2, 3\]"):
        _apply(symbol, x, mg.tensor(np.ones((2, 3), dt)))
    assert x._version == 0 and x.data.tolist() == [1, 1, 1]


@pytest.mark.parametrize("symbol", sorted(BITWISE))
def test_bitwise_on_bool_and_integer_tensors(symbol):
    b = mg.tensor([True, False, True])
    _apply(symbol, b, mg.tensor([True, True, False]))
    assert b.dtype == np.bool_ and b._version == 1
    assert b.data.tolist() == AUGMENTED[symbol][2](np.array([1, 0, 1], bool),
                                                   np.array([1, 1, 0], bool)).tolist()
    with pytest.raises(RuntimeError, match="result type Long can't be cast to the desired "
                                           "output type Bool"):
        _apply(symbol, b, 1)
    with pytest.raises(TypeError):
        _apply(symbol, mg.tensor([1.0]), 1)


# (operation, result) with PyTorch 2.13's answers: arithmetic shifts keep the sign, a count
# at or past the width shifts everything out, a negative count gives 0 (left) or the sign
SHIFT_CASES = [
    (lambda: mg.tensor([5, -5]) << 1, [10, -10]),
    (lambda: mg.tensor([5, -5]) >> 1, [2, -3]),
    (lambda: mg.tensor([5, -5]) << 64, [0, 0]),
    (lambda: mg.tensor([5, -5]) >> 64, [0, -1]),
    (lambda: mg.tensor([5, -5]) << -1, [0, 0]),
    (lambda: mg.tensor([5, -5]) >> -1, [0, -1]),
    (lambda: 2 << mg.tensor([3]), [16]),
    (lambda: mg.tensor([5], dtype=np.uint8) << 9, [0]),
    (lambda: mg.tensor([True]) << 1, [2]),
    (lambda: mg.tensor([1, 2]).bitwise_left_shift(mg.tensor([1, 2])), [2, 8]),
]


@pytest.mark.parametrize("k", range(len(SHIFT_CASES)))
def test_shifts_as_pytorch(k):
    op, want = SHIFT_CASES[k]
    assert op().data.tolist() == want


def test_shift_keeps_the_integer_type_and_refuses_floats_and_bools():
    i = mg.tensor([3], dtype=np.int32)
    assert (i << 2).dtype == np.int32
    i <<= 2
    assert i.data.tolist() == [12] and i._version == 1 and i.dtype == np.int32
    for a, b in ((mg.tensor([1.5]), 1), (mg.tensor([True]), mg.tensor([True]))):
        with pytest.raises(TypeError, match="needs integer operands"):
            a << b
    n, b = mg.tensor([0, 5]), mg.tensor([True, False])
    assert n.bitwise_not_() is n and n.data.tolist() == [-1, -6] and n._version == 1
    assert b.bitwise_not_().data.tolist() == [False, True]


def test_bool_tensor_refuses_an_arithmetic_result():
    b = mg.tensor([True, False])
    with pytest.raises(RuntimeError, match="result type Long can't be cast to the desired "
                                           "output type Bool"):
        b += 1
    assert b.data.tolist() == [True, False] and b._version == 0


def test_matmul_assignment_rebinds_as_in_pytorch():
    """PyTorch has no in-place matmul: ``x @= y`` binds x to a new tensor, the old one stays."""
    x = mg.tensor(np.eye(2, dtype=np.float32))
    old = x
    x @= mg.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert x is not old and old._version == 0
    np.testing.assert_array_equal(old.data, np.eye(2))


def test_same_answers_and_errors_as_pytorch():
    torch = pytest.importorskip("torch")
    for symbol in sorted(AUGMENTED):
        # bool tensors only under the operators whose out-of-place dtype agrees with PyTorch's
        bool_cases = ((np.bool_, True), (np.bool_, 2)) if symbol in BITWISE | {"+=", "*="} else ()
        for dt, operand in ((np.float32, 1.5), (np.int64, 3), (np.int64, 1.5), *bool_cases):
            outcomes = []
            for lib in (mg, torch):
                x = lib.tensor(np.array([5, 3, 1]).astype(dt))
                try:
                    _apply(symbol, x, operand)
                    outcomes.append(("ok", np.asarray(x.numpy()).dtype.name, x.numpy()))
                except (RuntimeError, TypeError):
                    outcomes.append(("error",))
            where = f"{dt.__name__} {symbol} {operand}: {outcomes}"
            assert outcomes[0][:2] == outcomes[1][:2], where
            if outcomes[0][0] == "ok":
                np.testing.assert_allclose(outcomes[0][2], outcomes[1][2], rtol=1e-6, err_msg=where)
    w = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=LEAF_ERROR):
        w += 1
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
        w[0:1].add_(1)


# ---- the named in-place methods ----------------------------------------------------------
NAMED_ARGS = {  # extra arguments of the binary and ternary ones
    "add_": (0.5,), "sub_": (0.5,), "mul_": (1.5,), "div_": (1.5,), "pow_": (2.0,),
    "floor_divide_": (0.5,), "remainder_": (0.5,), "fmod_": (0.5,), "atan2_": (0.5,),
    "copysign_": (-1.0,), "lerp_": (2.0, 0.25), "clamp_": (0.3, 0.6),
    "masked_fill_": (np.array([True, False, True]), -1.0),
}
UNIT = np.array([0.2, 0.5, 0.7])  # inside every unary method's domain but acosh's
INTEGER_ONLY = {"bitwise_and_", "bitwise_or_", "bitwise_xor_", "bitwise_left_shift_",
                "bitwise_right_shift_", "bitwise_not_"}


@pytest.mark.parametrize("name", sorted(set(_INPLACE_OPS) - INTEGER_ONLY))
def test_named_inplace_method_equals_its_out_of_place_op(name):
    start = UNIT + 1.0 if name == "acosh_" else UNIT
    args = NAMED_ARGS.get(name, ())
    x = mg.tensor(start.copy())
    out_of_place = getattr(x, _INPLACE_OPS[name][0])(*args)
    assert getattr(x, name)(*args) is x and x._version == 1
    np.testing.assert_allclose(x.data, out_of_place.data, rtol=1e-12)

    w = mg.tensor(start.copy(), requires_grad=True)
    with pytest.raises(RuntimeError, match=LEAF_ERROR):
        getattr(w, name)(*args)
    np.testing.assert_array_equal(w.data, start)

    h = w * 1.0  # recorded on a non-leaf: the gradient is the out-of-place op's
    getattr(h, name)(*args).sum().backward()
    w2 = mg.tensor(start.copy(), requires_grad=True)
    getattr(w2 * 1.0, _INPLACE_OPS[name][0])(*args).sum().backward()
    np.testing.assert_allclose(w.grad.data, w2.grad.data, rtol=1e-12)


def test_named_inplace_methods_exist_in_pytorch():
    torch = pytest.importorskip("torch")
    missing = [name for name in _INPLACE_OPS if not hasattr(torch.Tensor, name)]
    assert not missing


def test_masked_fill_inplace_matches_pytorch_gradient():
    torch = pytest.importorskip("torch")
    mask = np.array([[True, False, False], [False, True, False]])
    a = mg.tensor(X0.copy(), requires_grad=True)
    v = mg.tensor(0.5, dtype=np.float64, requires_grad=True)
    ta = torch.tensor(X0.copy(), requires_grad=True)
    tv = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)
    for lib, x, val in ((mg, a, v), (torch, ta, tv)):
        h = x * 2.0
        h.masked_fill_(lib.tensor(mask), val)
        (h * h).sum().backward()
    np.testing.assert_allclose(a.grad.data, ta.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(v.grad.data, tv.grad.numpy(), rtol=1e-12)


# ---- a learner's first training loop -------------------------------------------------------
def test_hand_written_sgd_loop_trains_the_model_the_optimizer_holds():
    rng = np.random.default_rng(0)
    x = mg.tensor(rng.standard_normal((32, 4)).astype(np.float32))
    y = mg.tensor((0.3 * rng.standard_normal((32, 4)) @ rng.standard_normal((4, 1)))
                  .astype(np.float32))
    mg.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
    opt = mg.optim.SGD(model.parameters(), lr=0.3)
    held = list(opt.param_groups[0]["params"])
    before = [p.data.copy() for p in held]
    losses = []
    for _ in range(60):
        loss = ((model(x) - y) ** 2).mean()
        losses.append(loss.item())
        model.zero_grad()
        loss.backward()
        with mg.no_grad():
            for p in model.parameters():
                p -= 0.3 * p.grad
    assert all(a > b for a, b in itertools.pairwise(losses)) and losses[-1] < 0.8 * losses[0]
    params = list(model.parameters())
    assert all(p is q for p, q in zip(params, held)) and len(params) == len(held)
    assert all(isinstance(p, nn.Parameter) and p.is_leaf and p.requires_grad for p in params)
    assert all(not np.array_equal(p.data, b) for p, b in zip(held, before))
    assert all(p._version == 60 for p in params)
    with pytest.raises(RuntimeError, match=LEAF_ERROR):
        params[0] += 1.0  # outside no_grad: refused, as PyTorch

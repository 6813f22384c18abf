"""The window view (im2col) and col2im, the one primitive of convolution and pooling: its
definition, the adjoint identity that makes col2im its backward, and derivatives to second
order, over a table of kernel, stride and dilation in 1-3 spatial dims."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import minigrad as mg
from minigrad import backends, gradcheck, gradgradcheck
from minigrad.ops.windows import Windows, WindowSum, window_sum, windows

rng = np.random.default_rng(0)

# (spatial size, kernel, stride, dilation) per case
GEOMETRIES = [
    ((6,), (3,), (1,), (1,)),
    ((7,), (2,), (3,), (2,)),
    ((5, 6), (2, 3), (1, 2), (2, 1)),
    ((4, 5), (1, 1), (2, 2), (1, 1)),
    ((4, 4, 5), (2, 2, 3), (2, 1, 1), (1, 2, 1)),
]


def _out(space, kernel, stride, dilation):
    return tuple((n - r * (k - 1) - 1) // s + 1 for n, k, s, r in zip(space, kernel, stride,
                                                                    dilation))


@pytest.mark.parametrize("space, kernel, stride, dilation", GEOMETRIES)
def test_windows_read_x_at_o_stride_plus_k_dilation(space, kernel, stride, dilation):
    x = rng.standard_normal((2, 3, *space))
    w = backends.active.windows(x, kernel, stride, dilation)
    out = _out(space, kernel, stride, dilation)
    assert w.shape == (2, 3, *out, *kernel)
    for o in itertools.product(*map(range, out)):
        for k in itertools.product(*map(range, kernel)):
            at = tuple(oi * s + ki * r for oi, ki, s, r in zip(o, k, stride, dilation))
            np.testing.assert_array_equal(w[(..., *o, *k)], x[(..., *at)])
    assert not w.flags.writeable  # overlapping windows: a write would land in several


@pytest.mark.parametrize("space, kernel, stride, dilation", GEOMETRIES)
def test_col2im_is_the_adjoint_of_the_windows(space, kernel, stride, dilation):
    # <windows(x), g> = <x, col2im(g)> for every x and g: col2im is the windows' backward
    x = rng.standard_normal((2, *space))
    g = rng.standard_normal((2, *_out(space, kernel, stride, dilation), *kernel))
    lhs = np.sum(backends.active.windows(x, kernel, stride, dilation) * g)
    rhs = np.sum(x * backends.active.windows_backward(g, x.shape, stride, dilation))
    np.testing.assert_allclose(lhs, rhs, rtol=1e-12)


@pytest.mark.parametrize("space, kernel, stride, dilation", GEOMETRIES)
def test_im2col_is_the_padded_windows_reordered_and_col2im_its_adjoint(
        space, kernel, stride, dilation):
    # rows[n, o, c, k] = columns[n, c, k, o] = x_pad[n, c, o s + k r], and
    # <im2col(x), g> = <x, its backward(g)>, in both layouts
    be, d = backends.active, len(kernel)
    pads = tuple((1, 2) for _ in kernel)
    x = rng.standard_normal((2, 3, *space))
    xp = np.pad(x, ((0, 0), (0, 0)) + pads)
    view = be.windows(xp, kernel, stride, dilation)  # (N, C, *O, *K)
    out = _out(xp.shape[2:], kernel, stride, dilation)
    rows = be.window_rows(x, kernel, stride, dilation, pads)
    columns = be.window_columns(x, kernel, stride, dilation, pads)
    assert rows.shape == (2, *out, 3, *kernel) and rows.flags.c_contiguous
    assert columns.shape == (2, 3, *kernel, *out) and columns.flags.c_contiguous
    np.testing.assert_array_equal(np.moveaxis(rows, 1 + d, 1), view)
    np.testing.assert_array_equal(
        columns.transpose(0, 1, *range(2 + d, 2 + 2 * d), *range(2, 2 + d)), view)
    for cols, backward in ((rows, be.window_rows_backward),
                           (columns, be.window_columns_backward)):
        g = rng.standard_normal(cols.shape)
        np.testing.assert_allclose(np.sum(cols * g), np.sum(
            x * backward(g, x.shape, stride, dilation, pads)), rtol=1e-12)


@pytest.mark.parametrize("space, kernel, stride, dilation", GEOMETRIES)
def test_windows_and_col2im_first_and_second_derivatives(space, kernel, stride, dilation):
    x = mg.tensor(rng.standard_normal((1, *space)), requires_grad=True)
    g = mg.tensor(rng.standard_normal((1, *_out(space, kernel, stride, dilation), *kernel)),
                  requires_grad=True)

    def both(x, g):  # squared, so the second derivative is not zero
        w = windows(x, kernel, stride, dilation)
        return (w * w).sum() + (window_sum(g * g, x.shape, stride, dilation) * x).sum()

    assert gradcheck(both, [x, g]) and gradgradcheck(both, [x, g])


def test_the_recorded_backward_of_each_is_the_other():
    x = mg.tensor(rng.standard_normal((1, 5, 5)), requires_grad=True)
    w = Windows.apply(x, kernel=(2, 2), stride=(1, 2), dilation=(2, 1))
    (gx,) = mg.autograd.grad((w * w).sum(), x, create_graph=True)
    names = {t._ctx.fn for t in mg.engine.topological_order([gx]) if t._ctx is not None}
    assert WindowSum in names


def test_windows_need_a_kernel_that_fits():
    with pytest.raises(ValueError, match="larger than the input"):
        backends.active.windows(np.zeros((1, 3)), (2,), (1,), (3,))

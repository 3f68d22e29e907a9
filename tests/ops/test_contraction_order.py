"""contraction_order.matmul: float products summed over k in order (each product and sum rounded),
without BLAS, so that a product's bits do not depend on the CPU OpenBLAS runs on (clause
ops.host-cpu). The in-order sum is written out here element by element in Python (NumPy scalars
of the dtype), independently of the einsum loop the module relies on."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.runtime.ops.contraction_order import matmul

pytestmark = pytest.mark.clause("ops.host-cpu")

SHAPES = [((3, 5), (5, 4)), ((1, 9), (9, 3)), ((6, 11), (11, 1)), ((1, 17), (17, 1)), ((2, 3, 7), (2, 7, 2)),
          ((4, 13), (2, 13, 3)), ((2, 1, 5, 6), (1, 3, 6, 2)), ((7, 64), (64, 9))]


def _in_order(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """out[..., i, j] = ((x[i,0]·y[0,j] + x[i,1]·y[1,j]) + ...) in the dtype, from +0."""
    shape = np.broadcast_shapes(x.shape[:-2], y.shape[:-2]) + (x.shape[-2], y.shape[-1])
    xb = np.broadcast_to(x, shape[:-2] + x.shape[-2:])
    yb = np.broadcast_to(y, shape[:-2] + y.shape[-2:])
    out = np.zeros(shape, x.dtype)
    t = x.dtype.type
    for idx in np.ndindex(shape):
        *b, i, j = idx
        acc = t(0)
        for k in range(x.shape[-1]):
            acc = t(acc + t(xb[(*b, i, k)] * yb[(*b, k, j)]))
        out[idx] = acc
    return out


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shapes", SHAPES, ids=[f"{a}x{b}" for a, b in SHAPES])
def test_float_products_are_summed_in_order(shapes: tuple, dtype: type) -> None:
    rng = np.random.default_rng(3)
    x = rng.standard_normal(shapes[0]).astype(dtype)
    y = rng.standard_normal(shapes[1]).astype(dtype)
    got, want = matmul(x, y), _in_order(x, y)
    bad = np.flatnonzero(got.ravel() != want.ravel())
    assert got.shape == want.shape and not bad.size, \
        (f"matmul {shapes} {np.dtype(dtype).name}: {bad.size} entries differ from the in-order sum, first "
         f"{got.ravel()[bad[0]]!r} but should be {want.ravel()[bad[0]]!r}" if bad.size else f"shape {got.shape} vs {want.shape}")


def test_transposed_operands_are_summed_in_order_too() -> None:
    rng = np.random.default_rng(4)
    x = rng.standard_normal((9, 6)).astype(np.float32)
    y = rng.standard_normal((5, 9)).astype(np.float32)
    got, want = matmul(x.T, y.T), _in_order(np.ascontiguousarray(x.T), np.ascontiguousarray(y.T))
    assert np.array_equal(got, want), f"matmul(x.T, y.T)={got.ravel()[:4]}..., but in order {want.ravel()[:4]}..."

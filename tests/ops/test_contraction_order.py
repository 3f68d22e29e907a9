"""contraction_order's matrix products without BLAS (whose kernels, and so summation order,
OpenBLAS picks by CPU; clause ops.host-cpu): matmul's float64 entries summed over k in order, each
product and sum rounded; ordered_matmul's float32 with fused multiply-adds in order, or with rounded
products (fused=False), and dot's float32 in order with rounded products (the solvers' products).
matmul's float32 stays on BLAS for speed (contraction_order.py). Each order is written out here
element by element in Python (NumPy scalars), independently of the einsum loop and the vector code
the module uses."""

from __future__ import annotations

from typing import Callable

import numpy as np
import pytest

from simdist.runtime.ops.contraction_order import dot, matmul, ordered_matmul

pytestmark = pytest.mark.clause("ops.host-cpu")

SHAPES = [((3, 5), (5, 4)), ((1, 9), (9, 3)), ((6, 11), (11, 1)), ((1, 17), (17, 1)), ((2, 3, 7), (2, 7, 2)),
          ((4, 13), (2, 13, 3)), ((2, 1, 5, 6), (1, 3, 6, 2)), ((7, 64), (64, 9))]

Step = Callable[[float, float, float], float]
F32, F64 = np.float32, np.float64


def _unfused64(acc: float, a: float, b: float) -> float:
    return F64(acc + F64(a) * F64(b))


def _fused32(acc: float, a: float, b: float) -> float:   # the product exact (float64), one rounding
    return F32(F64(acc) + F64(a) * F64(b))


def _unfused32(acc: float, a: float, b: float) -> float:
    return F32(acc + F32(F32(a) * F32(b)))


def _in_order(x: np.ndarray, y: np.ndarray, step: Step, acc0: float) -> np.ndarray:
    """out[..., i, j] = step(...step(step(acc0, x[i,0], y[0,j]), x[i,1], y[1,j])...), in x's dtype."""
    shape = np.broadcast_shapes(x.shape[:-2], y.shape[:-2]) + (x.shape[-2], y.shape[-1])
    xb = np.broadcast_to(x, shape[:-2] + x.shape[-2:])
    yb = np.broadcast_to(y, shape[:-2] + y.shape[-2:])
    out = np.zeros(shape, x.dtype)
    for idx in np.ndindex(shape):
        *b, i, j = idx
        acc = acc0
        for k in range(x.shape[-1]):
            acc = step(acc, xb[(*b, i, k)], yb[(*b, k, j)])
        out[idx] = x.dtype.type(acc)
    return out


def _check(got: np.ndarray, want: np.ndarray, what: str) -> None:
    bad = np.flatnonzero(got.ravel() != want.ravel()) if got.shape == want.shape else np.arange(1)
    assert got.shape == want.shape and not bad.size, \
        (f"matmul {what}: {bad.size} entries differ from the order written out, first {got.ravel()[bad[0]]!r} but "
         f"should be {want.ravel()[bad[0]]!r}" if got.shape == want.shape else f"shape {got.shape}, should be {want.shape}")


@pytest.mark.parametrize("mode", ["float64", "float32 fused", "float32 unfused"])
@pytest.mark.parametrize("shapes", SHAPES, ids=[f"{a}x{b}" for a, b in SHAPES])
def test_products_are_summed_in_order(shapes: tuple, mode: str) -> None:
    rng = np.random.default_rng(3)
    dt = F64 if mode == "float64" else F32
    x, y = rng.standard_normal(shapes[0]).astype(dt), rng.standard_normal(shapes[1]).astype(dt)
    step, acc0 = {"float64": (_unfused64, F64(0)), "float32 fused": (_fused32, F32(0)),
                  "float32 unfused": (_unfused32, F32(0))}[mode]
    if mode == "float32 fused" and y.shape[-1] == 1 and x.shape[-2] > 1:   # a matrix-vector product:
        step = _unfused32                                                   # its products rounded
    if mode == "float64":
        got = matmul(x, y)
    else:
        got = ordered_matmul(x, y, fused=mode == "float32 fused" and step is _fused32)
    _check(got, _in_order(x, y, step, acc0), f"{shapes} {mode}")


def test_float32_dot_is_summed_in_order_with_rounded_products() -> None:
    rng = np.random.default_rng(5)
    x, y = rng.standard_normal((20, 200)).astype(F32), rng.standard_normal((200, 20)).astype(F32)
    _check(dot(x, y), _in_order(x, y, _unfused32, F32(0)), "dot (20, 200)x(200, 20) float32")


def test_float32_matmul_is_blas() -> None:
    rng = np.random.default_rng(5)
    x, y = rng.standard_normal((20, 200)).astype(F32), rng.standard_normal((200, 20)).astype(F32)
    got, want = matmul(x, y), np.matmul(x, y)
    assert np.array_equal(got, want), f"float32 matmul gave {got.ravel()[:3]}, but should be BLAS's {want.ravel()[:3]} (speed)"


def test_transposed_operands_are_summed_in_order_too() -> None:
    rng = np.random.default_rng(4)
    x = rng.standard_normal((9, 6)).astype(F64)
    y = rng.standard_normal((5, 9)).astype(F64)
    _check(matmul(x.T, y.T), _in_order(np.ascontiguousarray(x.T), np.ascontiguousarray(y.T), _unfused64, F64(0)),
           "x.T @ y.T float64")

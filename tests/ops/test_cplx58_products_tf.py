"""Complex products in TF 2.21's Eigen order (clause ops.complex-gebp-order). A complex64/complex128 product of two or
more rows, columns and terms is Eigen's GEBP kernel: four real sums per entry whose accumulators follow the kernel
that owns the column (in order; two accumulators over 8-term blocks; complex64's last odd column four accumulators,
its corner rows Eigen's scalar complex multiply-adds); a small batched product (m + k + n < 20) is Eigen's lazy
product: complex products in order, or Redux's packets where both operands run along k. simdist summed four real
sums in order for every product: 12,904 of 24,288 seeded GEBP products and all 4,512 small batched ones differed
(/work/wt/cplx58_logs/ctest.py, ctest2.py). Cases: tf.linalg.matmul plain, transposed, adjoint and batched, einsum
and tensordot, in both complex dtypes, as bit patterns of the real and imaginary parts. Its golden (tests/goldens/) is
stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _bits(t: Any) -> list:
    a = np.asarray(t.numpy())
    real = np.float32 if a.dtype == np.complex64 else np.float64
    view = np.uint32 if real == np.float32 else np.uint64
    return [a.dtype.name, list(a.shape), np.ascontiguousarray(a).view(real).view(view).ravel().tolist()]


def _pair(seed: int, xs: tuple, ys: tuple, dtype: str) -> tuple[np.ndarray, np.ndarray]:
    r = np.random.RandomState(seed)
    x = (r.randn(*xs) + 1j * r.randn(*xs)).astype(dtype)
    y = (r.randn(*ys) + 1j * r.randn(*ys)).astype(dtype)
    return x, y


def _matmul(seed: int, m: int, k: int, n: int, dtype: str, batch: tuple, ta: int, tb: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        x, y = _pair(seed, batch + ((k, m) if ta else (m, k)), batch + ((n, k) if tb else (k, n)), dtype)
        return _bits(tf.linalg.matmul(tf.constant(x), tf.constant(y), transpose_a=ta == 1, transpose_b=tb == 1,
                                      adjoint_a=ta == 2, adjoint_b=tb == 2))
    return run


def _einsum(seed: int, eq: str, xs: tuple, ys: tuple, dtype: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        x, y = _pair(seed, xs, ys, dtype)
        return _bits(tf.einsum(eq, tf.constant(x), tf.constant(y)))
    return run


def _tensordot(seed: int, xs: tuple, ys: tuple, axes: Any, dtype: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        x, y = _pair(seed, xs, ys, dtype)
        return _bits(tf.tensordot(tf.constant(x), tf.constant(y), axes))
    return run


def _with_infinities(seed: int, m: int, k: int, n: int, dtype: str, batch: tuple) -> Callable[[Any], Any]:
    """A product with infinite, NaN and 3e38 parts among its operands' entries; each part as its repr, NaNs as 'nan'
    whatever their sign (which NaN's sign TF's packets propagate is not modelled: cplx58_logs/OPEN.md)."""
    def run(tf: Any) -> Any:
        x, y = _pair(seed, batch + (m, k), batch + (k, n), dtype)
        r = np.random.RandomState(seed + 1)
        special = np.array([np.inf, -np.inf, np.nan, 3e38, -3e38, 0.0])
        for a in (x, y):
            flat = a.reshape(-1)
            for _ in range(max(1, flat.size // 8)):
                j, v = r.randint(flat.size), special[r.randint(len(special))]
                flat[j] = complex(v, flat[j].imag) if r.randint(2) else complex(flat[j].real, v)
        z = np.asarray(tf.linalg.matmul(tf.constant(x), tf.constant(y)).numpy())
        parts = np.ascontiguousarray(z).view(z.real.dtype).ravel()
        return [z.dtype.name, list(z.shape), ["nan" if np.isnan(v) else repr(float(v)) for v in parts]]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    seed = 5800
    for dtype in ("complex64", "complex128"):
        for m, k, n in ((2, 9, 3), (5, 17, 7), (7, 24, 13), (13, 33, 9), (6, 16, 12), (3, 8, 5), (4, 33, 2)):
            for ta, tb in ((0, 0), (1, 0), (0, 1), (2, 0), (0, 2)):
                seed += 1
                c[f"matmul/{dtype}/{m}x{k}x{n}/t{ta}{tb}"] = _matmul(seed, m, k, n, dtype, (), ta, tb)
            seed += 1
            c[f"matmul/{dtype}/{m}x{k}x{n}/batch2"] = _matmul(seed, m, k, n, dtype, (2,), 0, 0)
        for m, k, n in ((2, 8, 3), (3, 7, 2), (2, 15, 2), (4, 9, 5)):
            for ta, tb in ((0, 0), (0, 1), (0, 2), (1, 1)):
                seed += 1
                c[f"lazy/{dtype}/{m}x{k}x{n}/t{ta}{tb}"] = _matmul(seed, m, k, n, dtype, (3,), ta, tb)
        for m, k, n in ((1, 9, 4), (5, 8, 1), (1, 15, 1)):
            for tb in (1, 2):
                seed += 1
                c[f"lazy/{dtype}/{m}x{k}x{n}/2-D t0{tb}"] = _matmul(seed, m, k, n, dtype, (), 0, tb)
        seed += 1
        c[f"einsum/{dtype}/ij,jk"] = _einsum(seed, "ij,jk->ik", (7, 17), (17, 5), dtype)
        seed += 1
        c[f"einsum/{dtype}/bij,bkj"] = _einsum(seed, "bij,bkj->bik", (2, 9, 24), (2, 6, 24), dtype)
        seed += 1
        c[f"einsum/{dtype}/small bij,bkj"] = _einsum(seed, "bij,bkj->bik", (3, 2, 9), (3, 4, 9), dtype)
        seed += 1
        c[f"einsum/{dtype}/small bji,bjk"] = _einsum(seed, "bji,bjk->bik", (3, 8, 3), (3, 8, 2), dtype)
        seed += 1
        c[f"tensordot/{dtype}/axes1"] = _tensordot(seed, (5, 3, 8), (8, 9), 1, dtype)
        seed += 1
        c[f"tensordot/{dtype}/axes2"] = _tensordot(seed, (6, 4, 5), (4, 5, 7), 2, dtype)
    for dtype in ("complex64", "complex128"):
        for m, k, n in ((5, 9, 7), (7, 3, 9), (4, 5, 3), (9, 17, 5), (3, 8, 13)):
            seed += 2
            c[f"infinities/{dtype}/{m}x{k}x{n}"] = _with_infinities(seed, m, k, n, dtype, ())
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(cplx58_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.complex-gebp-order")
@pytest.mark.parametrize("prefix", ["matmul/", "lazy/", "einsum/", "tensordot/", "infinities/"])
def test_complex_products_follow_eigens_kernels(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

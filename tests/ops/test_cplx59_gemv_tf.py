"""Complex products of one row or one column in TF 2.21's Eigen GEMV order (clause ops.complex-gebp-order). With
m + k + n >= 20 TF's MatMul/BatchMatMulV2 leaves the lazy product for Eigen's GEMV kernels: a matrix TF holds row-major
(x without transpose for one column, y with transpose or adjoint for one row) is general_matrix_vector_product
<RowMajor>, packets of 4 complex64 or 2 complex128 from zero, their halves added down to one, the rest in order; a
column-major one adds k in order, in blocks of 16 columns from k = 128 on. simdist summed in order over k: 1,790 of
2,240 seeded products of /work/wt/cplx59_logs/gemv_tf.py and 1,286 of cplx58's 8,952 differed (cother59.py). Cases:
tf.linalg.matmul plain, transposed and adjoint, batched or not, tf.linalg.matvec and einsum's matrix-vector forms,
as bit patterns of the real and imaginary parts. Its golden (tests/goldens/) is stamped with this file."""

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


def _matvec(seed: int, m: int, k: int, dtype: str, ta: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        x, v = _pair(seed, (k, m) if ta else (m, k), (k,), dtype)
        return _bits(tf.linalg.matvec(tf.constant(x), tf.constant(v), transpose_a=ta))
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    seed = 5960
    for dtype in ("complex64", "complex128"):
        for other, k in ((5, 20), (17, 64), (8, 129), (40, 300), (3, 33)):
            for ta, tb in ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0)):
                for batch in ((), (2,)):
                    for m, n in ((1, other), (other, 1)):
                        seed += 1
                        c[f"matmul/{dtype}/{m}x{k}x{n}/t{ta}{tb}/b{len(batch)}"] = _matmul(seed, m, k, n, dtype, batch,
                                                                                           ta, tb)
        for m, k in ((9, 24), (16, 130)):
            for ta in (False, True):
                seed += 1
                c[f"matvec/{dtype}/{m}x{k}/t{int(ta)}"] = _matvec(seed, m, k, dtype, ta)
        for eq, xs, ys in (("ij,j->i", (9, 24), (24,)), ("i,ij->j", (24,), (24, 9)), ("ij,kj->ik", (1, 40), (7, 40)),
                           ("bij,bj->bi", (2, 6, 30), (2, 30))):
            seed += 1
            c[f"einsum/{dtype}/{eq}"] = _einsum(seed, eq, xs, ys, dtype)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(cplx59_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.complex-gebp-order")
@pytest.mark.parametrize("prefix", ["matmul/complex64", "matmul/complex128", "matvec/", "einsum/"])
def test_complex_gemv_follows_eigens_kernels(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

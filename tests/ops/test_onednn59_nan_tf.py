"""Which NaN oneDNN's float32 MatMul kernels return when several operands of a dot product are NaN (clause
ops.packet-paths, its paragraph "oneDNN's float32 MatMul: which NaN", fifty-ninth session, onednn59).

The operands' NaNs carry payloads that name the operand and its position along k, and signs at random, so the
output's NaN shows which one the kernel kept. Observed on TF 2.21 on the Xeon: the no-copy and copy-based sgemm
kernels, one chain of fused multiply-adds per block, keep the last NaN operand along k (x's before y's at one step),
a later block's NaN before the earlier blocks' sum; the matrix-vector kernel likewise with the vector's element
first; the 2..15-row transpose_b kernel the same in each of its 16 lanes (b's element first, x's in its calls of
three rows for columns 5..7 of each 8), the lanes added by halves with the lower lane first. simdist's compiled
kernels returned whichever NaN their instructions gave. Each case runs on TF 2.21 and on simdist (the golden's host
model); outputs as float32 bit patterns. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _tagged(r: np.random.RandomState, shape: tuple, src: int, kaxis: int, p: float) -> np.ndarray:
    """randn values, a fraction p of them NaNs whose payload is (src << 16) | their index along k, sign random."""
    v = r.randn(*shape).astype(np.float32)
    bits = v.view(np.uint32)
    mask = r.rand(*shape) < p
    kidx = np.indices(shape)[kaxis].astype(np.uint32)
    sign = (r.rand(*shape) < 0.5).astype(np.uint32) << np.uint32(31)
    nan_bits = sign | np.uint32(0x7FC00000) | np.uint32(src << 16) | kidx
    bits[mask] = nan_bits[mask]
    return v


def _product(seed: int, m: int, k: int, n: int, ta: bool, tb: bool, p: float) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        x = _tagged(r, (m, k), 1, 1, p)
        y = _tagged(r, (k, n), 2, 0, p)
        a = tf.constant(np.ascontiguousarray(x.T) if ta else x)
        b = tf.constant(np.ascontiguousarray(y.T) if tb else y)
        z = tf.linalg.matmul(a, b, transpose_a=ta, transpose_b=tb)
        return np.asarray(z.numpy(), np.float32).view(np.uint32).ravel().tolist()
    return run


_VALS = np.array([0.0, -0.0, 1.5, -2.25, np.inf, -np.inf, 1.0, 3e38], np.float32)


def _mixed(seed: int, m: int, k: int, n: int, tb: bool) -> Callable[[Any], Any]:
    """Operands of zeros, infinities, large values and NaNs of both signs (invalid products and sums beside NaN
    operands)."""
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        vals = np.concatenate([_VALS, np.array([0x7FC00000, 0xFFC00000, 0x7FC00011, 0xFFC00022],
                                               np.uint32).view(np.float32)])
        x = vals[r.randint(0, len(vals), (m, k))]
        y = vals[r.randint(0, len(vals), (n, k) if tb else (k, n))]
        z = tf.linalg.matmul(tf.constant(x), tf.constant(y), transpose_b=tb)
        return np.asarray(z.numpy(), np.float32).view(np.uint32).ravel().tolist()
    return run


_SHAPES = {
    "nocopy": ((5, 17, 3, False, False, 0.15), (16, 40, 2, False, False, 0.05), (3, 400, 5, False, False, 0.05),
               (2, 800, 3, False, False, 0.02), (5, 100, 3, True, False, 0.05), (16, 800, 2, True, False, 0.02),
               (17, 100, 5, False, True, 0.05), (32, 400, 3, False, True, 0.05)),
    "copy": ((16, 500, 120, False, True, 0.02), (16, 800, 101, False, True, 0.02)),
    "lanes": ((2, 17, 5, False, True, 0.15), (5, 40, 3, False, True, 0.05), (9, 100, 2, False, True, 0.05),
              (15, 8, 3, False, True, 0.15), (3, 40, 13, False, True, 0.05)),
    "lanes6": ((3, 40, 9, False, True, 0.15), (9, 17, 14, False, True, 0.15), (15, 8, 22, False, True, 0.3),
               (7, 40, 12, False, True, 0.15), (5, 17, 6, False, True, 0.3)),
    "gemv": ((1, 40, 5, False, False, 0.15), (1, 400, 2, True, False, 0.05), (1, 5000, 129, False, False, 0.02),
             (5, 40, 1, True, False, 0.15), (700, 800, 1, True, False, 0.02)),
}


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    seed = 5950
    for kind, shapes in _SHAPES.items():
        for m, k, n, ta, tb, p in shapes:
            c[f"{kind}/{m}x{k}x{n}/ta{int(ta)}tb{int(tb)}"] = _product(seed, m, k, n, ta, tb, p)
            seed += 1
    for i, (m, k, n, tb) in enumerate(((16, 9, 3, True), (5, 17, 2, True), (3, 33, 5, True), (4, 16, 2, False),
                                       (16, 8, 3, False), (2, 33, 3, True))):
        c[f"mixed/{m}x{k}x{n}/tb{int(tb)}"] = _mixed(5980 + i, m, k, n, tb)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(onednn59_nan_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_onednn_float32_matmul_nan_operands_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

"""oneDNN's plain float32 MatMul with k a multiple of 384 beyond 768 (clause ops.packet-paths, its paragraph
"oneDNN's 2-D float32 MatMul: one column, long k", fifty-eighth session, onednn58).

TF 2.21 on a oneDNN host sums each block of 384 along k in order with fused multiply-adds from +0 and adds the blocks'
sums in order (two rows or more; plain, transpose_a, and transpose_b from 16 rows: 2..15 rows with transpose_b are
the dot-product kernel). simdist left k > 768 to NumPy's BLAS. Other k beyond 768 are split in an order not found
(still NumPy's). Each case runs on TF 2.21 and on simdist (the golden's host model); results as float32 bit patterns,
gradients included. Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import portable_inputs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _bits(t: Any) -> list:
    return np.asarray(t.numpy(), np.float32).view(np.uint32).ravel().tolist()


def _product(seed: int, m: int, k: int, n: int, ta: bool, tb: bool, grads: bool = False) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        x = (r.randn(m, k) * portable_inputs.pow2(r.randint(-6, 7, size=(m, k)))).astype(np.float32)
        y = r.randn(k, n).astype(np.float32)
        a = tf.constant(np.ascontiguousarray(x.T) if ta else x)
        b = tf.constant(np.ascontiguousarray(y.T) if tb else y)
        if not grads:
            return _bits(tf.linalg.matmul(a, b, transpose_a=ta, transpose_b=tb))
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            z = tf.linalg.matmul(a, b, transpose_a=ta, transpose_b=tb)
            loss = tf.reduce_sum(z * tf.constant(r.randn(*z.shape).astype(np.float32)))
        return [_bits(z)] + [_bits(g) for g in tape.gradient(loss, [a, b])]
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for i, (m, k, n, ta, tb) in enumerate(((2, 1152, 3, False, False), (33, 1152, 2, True, False),
                                           (16, 1536, 17, False, True), (4, 1536, 40, False, False),
                                           (64, 1920, 2, True, False), (4, 2304, 17, True, False),
                                           (16, 3072, 10, False, False), (32, 3072, 8, True, False),
                                           (33, 3840, 3, False, False), (2, 4608, 2, True, False))):
        c[f"k384/{m}x{k}x{n}/ta{int(ta)}tb{int(tb)}"] = _product(700 + i, m, k, n, ta, tb)
    c["k384/grads/8x1152x16"] = _product(720, 8, 1152, 16, False, False, grads=True)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(onednn58_longk_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_onednn_float32_matmul_blocks_of_384_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

"""oneDNN's batched float32 product (clause ops.packet-paths, its paragraph "oneDNN's batched float32 MatMul"): TF
2.21's BatchMatMulV2 (tf.linalg.matmul of rank 3 or more, a rank-3 input by a rank-2 kernel as Keras' Dense on a
sequence, einsum's BatchMatMul, raw BatchMatMulV2 of rank 2) on a host where oneDNN runs float32 accumulates each
block of 512 along k in order with fused multiply-adds from +0 and adds the blocks' sums, whatever the transposes, one
row or one column. simdist took the 2-D MatMul kernels' rules or NumPy's BLAS (the fifty-eighth session: 10 of 48
seeded small products differed, and fz54b seed 57103 #6's traced transpose_b product with infinities). Each case runs
on TF 2.21 and on simdist (the golden's host model); results as float32 bit patterns, gradients included. Its golden
(tests/goldens/) is stamped with this file."""

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
    return np.asarray(t.numpy(), np.float32).view(np.uint32).ravel().tolist()


def _product(seed: int, sa: tuple, sb: tuple, ta: bool, tb: bool, grads: bool = False) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        a = tf.constant((r.randn(*sa) * r.choice([1.0, 30.0])).astype(np.float32))
        b = tf.constant(r.randn(*sb).astype(np.float32))
        if not grads:
            return _bits(tf.linalg.matmul(a, b, transpose_a=ta, transpose_b=tb))
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            z = tf.linalg.matmul(a, b, transpose_a=ta, transpose_b=tb)
            w = tf.constant(r.randn(*z.shape).astype(np.float32))
            loss = tf.reduce_sum(z * w)
        return [_bits(z)] + [_bits(g) for g in tape.gradient(loss, [a, b])]
    return run


def _special(tf: Any) -> Any:
    """fz54b seed 57103 #6's operands: a traced transpose_b product with -inf, a subnormal and NaN-free rows."""
    a = np.array([-1.0, -3.5, 0.0, -28.607, -2.0, -0.5, -np.inf, 1.0, 24.422, -2.5, -0.8, 0.0, 1e-39, 1.0, -0.4, 1.0],
                 np.float32).reshape([1, 4, 4])
    b = np.array([0.0, -0.8, 0.8, -17.21, 0.5, 0.0, 0.5, -0.7, -3.75, -1.0, -0.8, -10.413], np.float32).reshape([1, 3, 4])
    f = tf.function(lambda x, y: tf.linalg.matmul(x, y, transpose_b=True))
    return [_bits(f(tf.constant(a), tf.constant(b))), _bits(tf.linalg.matmul(tf.constant(a), tf.constant(b),
                                                                              transpose_b=True))]


def _einsum(tf: Any) -> Any:
    r = np.random.RandomState(58)
    q, k = r.randn(2, 5, 8).astype(np.float32), r.randn(2, 7, 8).astype(np.float32)
    return _bits(tf.einsum("bqd,bkd->bqk", q, k))


def _raw2d(tf: Any) -> Any:
    r = np.random.RandomState(59)
    x, y = r.randn(5, 17).astype(np.float32), r.randn(3, 17).astype(np.float32)
    return _bits(tf.raw_ops.BatchMatMulV2(x=tf.constant(x), y=tf.constant(y), adj_y=True))


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    r = np.random.RandomState(1)
    for i in range(24):   # small products, every transpose, one row and one column
        bt = int(r.choice([1, 2, 3]))
        m, k, n = int(r.choice([1, 2, 4, 7, 16, 20])), int(r.choice([1, 3, 4, 9, 17, 40])), int(r.choice([1, 2, 3, 8, 17]))
        ta, tb = bool(r.randint(2)) and i % 3 == 0, bool(r.randint(2))
        sa, sb = (bt, k, m) if ta else (bt, m, k), (bt, n, k) if tb else (bt, k, n)
        c[f"small/{i}/{bt}x{m}x{k}x{n}/ta{int(ta)}tb{int(tb)}"] = _product(100 + i, sa, sb, ta, tb, grads=i % 4 == 0)
    for k in (384, 385, 512, 513, 519, 600, 1024):   # one block of 512, two blocks
        for tb in (False, True):
            c[f"blocks/k{k}/tb{int(tb)}"] = _product(k, (1, 3, k), (1, 2, k) if tb else (1, k, 2), False, tb)
    c["rank4"] = _product(7, (2, 3, 4, 16), (2, 3, 16, 4), False, False, grads=True)
    c["broadcast-batch"] = _product(8, (3, 2, 17), (1, 3, 17), False, True)
    c["rank3-by-rank2"] = _product(9, (3, 4, 33), (33, 16), False, False, grads=True)
    c["rank2-by-rank3"] = _product(10, (6, 9), (2, 9, 4), False, False)
    c["wide"] = _product(11, (1, 64, 64), (1, 64, 64), False, True)
    c["infinities-traced"] = _special
    c["einsum-attention"] = _einsum
    c["raw-rank2"] = _raw2d
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(batch_matmul58_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_batched_float32_matmul_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

"""oneDNN's float32 products the fifty-eighth session modelled (clause ops.packet-paths).

Batched (its paragraph "oneDNN's batched float32 MatMul"): TF
2.21's BatchMatMulV2 (tf.linalg.matmul of rank 3 or more, a rank-3 input by a rank-2 kernel as Keras' Dense on a
sequence, einsum's BatchMatMul, raw BatchMatMulV2 of rank 2) on a host where oneDNN runs float32 accumulates each
block of 512 along k in order with fused multiply-adds from +0 and adds the blocks' sums, whatever the transposes, one
row or one column. simdist took the 2-D MatMul kernels' rules or NumPy's BLAS (the fifty-eighth session: 10 of 48
seeded small products differed, and fz54b seed 57103 #6's traced transpose_b product with infinities). Each case runs
on TF 2.21 and on simdist (the golden's host model); results as float32 bit patterns, gradients included. Its golden
(tests/goldens/) is stamped with this file.

2-D (its paragraph "oneDNN's 2-D float32 MatMul: one column, long k"): one column (x @ y [k, 1], a Dense(1) layer's
output) is each row's dot product as the one-row kernel sums it, but one row by one column; x^T @ a column (a
Dense(1) kernel's gradient) sums k in order with fused multiply-adds; a plain product of two rows or more with
k = 385..768 sums each half of k so and adds the two; x^T @ y (a Dense kernel's gradient) likewise."""

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


def _2d(seed: int, sa: tuple, sb: tuple, ta: bool, tb: bool, grads: bool = False) -> Callable[[Any], Any]:
    return _product(seed, sa, sb, ta, tb, grads)


def _dense1(tf: Any) -> Any:
    """A Dense(1) head's forward product and both gradients as a training step computes them (x @ w, x^T @ dy,
    dy @ w^T)."""
    r = np.random.RandomState(60)
    x = tf.constant(r.randn(32, 24).astype(np.float32))
    w = tf.Variable(r.randn(24, 1).astype(np.float32))
    y = tf.constant(r.randn(32, 1).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = tf.linalg.matmul(x, w)
        loss = tf.reduce_sum(tf.square(z - y))
    return [_bits(z)] + [_bits(g) for g in tape.gradient(loss, [x, w])]


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
    for i, (m, k) in enumerate(((16, 9), (7, 40), (3, 385), (20, 100), (2, 1000), (64, 5))):
        c[f"matvec/{m}x{k}"] = _2d(200 + i, (m, k), (k, 1), False, False)
        c[f"matvec-tb/{m}x{k}"] = _2d(210 + i, (m, k), (1, k), False, True) if m >= 16 or m == 1 else \
            _2d(210 + i, (1, k), (1, k), False, True)
        c[f"matvec-ta/{m}x{k}"] = _2d(220 + i, (k, m), (k, 1), True, False, grads=i % 2 == 0)
    for i, (m, k, n, tb) in enumerate(((2, 385, 3, False), (3, 400, 2, False), (4, 512, 5, False), (5, 700, 4, False),
                                      (2, 768, 2, False), (16, 500, 4, True), (32, 385, 2, True), (8, 450, 30, False))):
        c[f"halves/{m}x{k}x{n}/tb{int(tb)}"] = _2d(300 + i, (m, k), (n, k) if tb else (k, n), False, tb)
    c["dense1-step"] = _dense1
    for i, (k, m, n) in enumerate(((32, 4, 3), (32, 16, 10), (8, 5, 7), (100, 3, 17), (17, 17, 17), (500, 8, 4),
                                   (385, 4, 3), (768, 16, 10), (400, 1, 7), (64, 1, 3))):
        c[f"transpose-a/{k}x{m}x{n}"] = _2d(400 + i, (k, m), (k, n), True, False, grads=i % 3 == 0)
    c["zeros/one-row"] = lambda tf: _bits(tf.linalg.matmul(tf.zeros([1, 32]), -tf.ones([3, 32]), transpose_b=True))
    c["zeros/matvec"] = lambda tf: _bits(tf.linalg.matmul(tf.zeros([4, 32]), -tf.ones([32, 1])))
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(onednn_matmul58_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_onednn_float32_matmul_kernels_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

"""oneDNN's float32 MatMul beyond k = 768 and where its threads split k (clause ops.packet-paths, its paragraph
"oneDNN's float32 MatMul: k's blocks and threads", fifty-ninth session, onednn59).

TF 2.21 hands a 2-D float32 MatMul to oneDNN's sgemm. Its no-copy kernel sums k in blocks of 384 while 768 or more
remain, then the rest in two halves (k = 784: 384 + 200 + 200), each block in order with fused multiply-adds from +0,
the blocks' sums added in order; its copy-based kernel (transpose_b alone, 16 rows or more, one thread, more than 100
columns and k < 1,200 or k a multiple of 256) in blocks of 384 and the rest (784: 384 + 384 + 16). A product of one
row (or a transposed matrix by one column) that TF runs on its thread pool is split between the threads: each sums
its half of k in order and the halves are added. simdist kept NumPy's BLAS for k > 768 but multiples of 384, and
summed one row over k in order. Each case runs on TF 2.21 and on simdist (the golden's host model); results as
float32 bit patterns (a digest and the first bits for large ones), gradients included. Its golden (tests/goldens/)
is stamped with this file."""

from __future__ import annotations

import hashlib
import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import portable_inputs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _bits(t: Any) -> Any:
    b = np.ascontiguousarray(np.asarray(t.numpy(), np.float32)).view(np.uint32).ravel()
    if b.size <= 2048:
        return b.tolist()
    return [hashlib.sha256(b.tobytes()).hexdigest()[:24], b[:6].tolist(), b[-6:].tolist()]


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


#: (m, k, n, transpose_a, transpose_b) by the kernel and k split TF 2.21 takes on a oneDNN host
_SHAPES = {
    "nocopy": ((32, 784, 128, False, False), (32, 784, 128, True, False), (2, 1000, 40, False, False),
               (33, 769, 3, False, False), (64, 800, 17, True, False), (16, 1000, 2, False, True),
               (64, 1025, 17, True, False), (100, 785, 10, False, False), (3, 7777, 5, True, False),
               (16, 4000, 10, False, True), (16, 800, 100, False, True), (200, 900, 20, False, True),
               (16, 1300, 150, False, True), (2, 120001, 3, False, False), (4, 100001, 8, False, False)),
    "copy": ((16, 800, 101, False, True), (32, 784, 128, False, True), (16, 2048, 110, False, True),
             (16, 1280, 150, False, True), (20, 1024, 150, False, True)),
    "row": ((1, 4130, 127, False, False), (1, 4140, 127, False, False), (1, 9999, 300, True, False),
            (1, 30001, 20, False, False), (1, 5001, 129, True, False), (1, 2000, 1001, False, False),
            (1, 2000, 1000, False, False)),
    "both": ((2, 500, 50, True, True), (16, 1000, 3, True, True), (40, 1000, 50, True, True),
             (1, 1000, 3, True, True)),
    "column": ((700, 800, 1, True, False), (600, 1000, 1, True, True), (1001, 600, 1, True, False),
               (300, 2000, 1, True, False)),
}


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    seed = 5900
    for kind, shapes in _SHAPES.items():
        for m, k, n, ta, tb in shapes:
            c[f"{kind}/{m}x{k}x{n}/ta{int(ta)}tb{int(tb)}"] = _product(seed, m, k, n, ta, tb)
            seed += 1
    # a Dense layer on 784 features (forward k = 784) and one on a batch of 1,000 (its kernel gradient x^T @ dy:
    # k = 1,000)
    c["grads/32x784x128"] = _product(5990, 32, 784, 128, False, False, grads=True)
    c["grads/1000x20x8"] = _product(5991, 1000, 20, 8, False, False, grads=True)
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(onednn59_longk_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.packet-paths")
def test_onednn_float32_matmul_k_blocks_and_threads_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)

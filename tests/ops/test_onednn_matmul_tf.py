"""oneDNN's float32 MatMul (clause ops.packet-paths, its paragraph "oneDNN's float32 MatMul"): where oneDNN runs
float32 (an AVX-512 CPU with AVX512_VNNI or AMX: the reference model and the fifty-fifth session's Xeon), TF 2.21
computes x [m, k] @ b [n, k]^T for 2 <= m <= 15 as dot products of rows in 16 lanes of fused multiply-adds added by
halves, and a plain x [m, k] @ y [k, n] with n >= 2 and k <= 384 over k in order with fused multiply-adds
(simdist/runtime/ops/onednn_matmul.py). The cases: seeded transpose_b products over that range of m, k from 1 to
1000, n from 1 to 200, the input gradient of a Dense-like product (dy @ W^T, the transpose_b product every dense
layer's backward pass runs), and plain products up to k = 384. Each runs on TF 2.21 and on simdist (the golden's host
model): the same bits. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_SHAPES = ((2, 3, 4), (3, 9, 5), (2, 17, 3), (4, 40, 3), (8, 8, 8), (5, 65, 9), (9, 17, 7), (2, 16, 3), (6, 7, 4),
           (15, 33, 15), (14, 7, 14), (2, 20, 200), (12, 20, 100), (4, 1000, 5), (5, 8, 1), (12, 300, 1), (3, 1, 4),
           (7, 3, 9))


def _product(m: int, k: int, n: int, seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.default_rng(seed)
        a = r.standard_normal((m, k)).astype(np.float32)
        b = (r.standard_normal((n, k)) * r.choice([0.1, 1.0, 30.0], (n, k))).astype(np.float32)
        return tf.linalg.matmul(tf.constant(a), tf.constant(b), transpose_b=True)
    return run


def _plain(m: int, k: int, n: int, seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.default_rng(seed)
        return tf.linalg.matmul(tf.constant(r.standard_normal((m, k)).astype(np.float32)),
                                tf.constant(r.standard_normal((k, n)).astype(np.float32)))
    return run


def _dense_input_gradient(m: int, units: int, features: int, seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.default_rng(seed)
        x = tf.constant(r.standard_normal((m, features)).astype(np.float32))
        w = tf.constant(r.standard_normal((features, units)).astype(np.float32))
        dy = tf.constant(r.standard_normal((m, units)).astype(np.float32))
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.linalg.matmul(x, w)
        return tape.gradient(y, x, output_gradients=dy)
    return run


CASES = [(f"float32 {m}x{k} @ ({n}x{k})^T", "ops.packet-paths", _product(m, k, n, 100 + i))
         for i, (m, k, n) in enumerate(_SHAPES)] + [
    (f"float32 dense input gradient, batch {m}, {units} units, {f} features", "ops.packet-paths",
     _dense_input_gradient(m, units, f, 200 + m))
    for m, units, f in ((4, 33, 10), (8, 64, 3), (15, 7, 40))] + [
    (f"float32 {m}x{k} @ {k}x{n} (in order)", "ops.packet-paths", _plain(m, k, n, 300 + i))
    for i, (m, k, n) in enumerate(((2, 37, 5), (3, 9, 5), (2, 100, 3), (40, 300, 2), (3, 40, 17), (16, 20, 3),
                                   (2, 384, 3), (64, 96, 64)))]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.packet-paths")
@EDGES.parametrize("ops.packet-paths")
def test_onednn_transpose_b_matmul_bit_for_bit(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_onednn_matmul_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

"""A tf.function's replays run each op's own forward (OpDef.bare included): the bits of a product
computed by a replay equal an eager call's on every host model, since the kernel order a host
takes (contraction_order: Eigen's paired or in-order sums where oneDNN is off) lives on the op.

A shortcut of MatMul's own once skipped the AVX2 host's paired order in replays: a Keras fit's
traced step and the same steps in an eager loop differed in the last bit there
(test_keras_multi_optimizer, forty-fifth session)."""

from __future__ import annotations

import numpy as np
import pytest

from simdist import tf
from simdist.runtime import host_cpu

AVX2 = host_cpu.CPUModel("avx2-only", "AuthenticAMD", ("avx", "avx2", "f16c", "fma"))

# (m, k, n): one row, a matrix-vector product, Eigen's paired sizes, the smallest in-order ones, BLAS's
SHAPES = [(1, 5, 3), (4, 3, 1), (4, 4, 3), (4, 3, 2), (3, 4, 2), (2, 3, 3), (7, 33, 8), (40, 20, 16)]


def _operands(m: int, k: int, n: int, dt: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(m * 10_000 + k * 100 + n)
    return rng.normal(size=(m, k)).astype(dt), rng.normal(size=(k, n)).astype(dt)


@pytest.mark.parametrize("model", [AVX2, "reference"], ids=["avx2-host", "reference"])
@pytest.mark.parametrize("dt", ["float32", "float64"])
@pytest.mark.parametrize("mkn", SHAPES, ids=[f"{m}x{k}x{n}" for m, k, n in SHAPES])
def test_a_replayed_matmul_has_the_eager_bits(model, dt: str, mkn: tuple[int, int, int]) -> None:
    x, y = _operands(*mkn, np.dtype(dt))
    with host_cpu.using(model):
        eager = tf.matmul(x, y).numpy()
        f = tf.function(lambda a, b: tf.nn.relu(tf.matmul(a, b)) + tf.matmul(a, b))
        want = (np.maximum(eager, 0) + eager).astype(dt)
        for call in range(3):    # the first call records, the others replay
            got = f(tf.constant(x), tf.constant(y)).numpy()
            assert got.tobytes() == want.tobytes(), (
                f"call {call} of a tf.function gave relu(x@y)+x@y = {got.ravel()[:4]}..., but should be the eager "
                f"product's {want.ravel()[:4]}... bit for bit [matmul {mkn} {dt}, host model {getattr(model, 'name', model)}]")

"""float16 Einsum in Eigen's half-precision matrix product (simdist/runtime/ops/half_matmul.py) and
float16 tensordot as TF's MatMul composition, each against real TensorFlow 2.21 bit for bit:
batch matmul equations over random shapes (every code path of the product: 16-column panels, the
8-column panel's two accumulators, the scalar columns, GEMV, dot products, the lazy product of
small sizes, aligned per output row), depths and widths up to 256 and 300, operands TF transposes, the
attention equations of Keras's dot_product_attention and their gradients, and tensordot (which
TF computes with MatMul, whose float16 kernel adds in float32, k in order, and rounds once), and
float16 MatMul/BatchMatMulV2 themselves. Needs the `tf` extra.

float16 Einsum is host-dependent (ops.host-cpu): TF 2.21 runs oneDNN's _MklEinsum for float16 on
CPUs with AVX512-FP16, AMX-FP16 or AVX-NE-CONVERT (float32 accumulation, rounded once) and Eigen's
half-precision product elsewhere, so simdist runs on the `host` model against TF on the same
machine. Live only: TF's answers here are this machine's, never kept as a golden (the goldens are
the reference host's, tests/tf_workers.py). Without TF the module is skipped.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers
from simdist.runtime import host_cpu

pytestmark = [pytest.mark.tf, pytest.mark.skipif(not tf_workers.HAS_TF, reason="needs TensorFlow (the `tf` extra): "
                                                 "this module compares with TF on this machine, live")]
clause = pytest.mark.clause

_RNG = np.random.default_rng(20261201)


def _operands(b: int, m: int, k: int, n: int, scale: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    x = (_RNG.standard_normal((b, m, k)) * scale).astype(np.float16)
    y = _RNG.standard_normal((b, k, n)).astype(np.float16)
    return x, y


def _einsum(equation: str, x: np.ndarray, y: np.ndarray) -> Callable[[Any], Any]:
    return lambda tf: tf.einsum(equation, tf.constant(x), tf.constant(y))


def _grads(equation: str, x: np.ndarray, y: np.ndarray) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        a, b = tf.constant(x), tf.constant(y)
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            out = tf.einsum(equation, a, b)
            loss = tf.reduce_sum(tf.cast(out, tf.float32) * tf.cast(out, tf.float32))
        return [out] + tape.gradient(loss, [a, b])
    return run


def _tensordot(x: np.ndarray, w: np.ndarray, axes: Any) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        a, b = tf.constant(x), tf.constant(w)
        with tf.GradientTape() as tape:
            tape.watch([a, b])
            out = tf.tensordot(a, b, axes)
            loss = tf.reduce_sum(tf.cast(out, tf.float32))
        return [out] + tape.gradient(loss, [a, b])
    return run


_SHAPES = [(int(_RNG.integers(1, 4)), int(_RNG.integers(1, 20)), int(_RNG.integers(1, 70)), int(_RNG.integers(1, 60)))
           for _ in range(120)]
RANDOM = [(f"bmk-bkn-{'x'.join(map(str, s))}", "ops.einsum", _einsum("bmk,bkn->bmn", *_operands(*s, scale=s[0] ** 2 / 4)))
          for s in _SHAPES]
# every path of the product on purpose, and the modelled limits of depth (256) and width
_PATHS = [(2, 8, 16, 16), (2, 8, 13, 8), (1, 6, 27, 8), (2, 7, 9, 25), (1, 1, 46, 45), (3, 13, 35, 1), (1, 1, 300, 1),
          (2, 4, 8, 5), (2, 3, 8, 8), (1, 2, 2, 15), (1, 6, 8, 5), (1, 40, 256, 33), (1, 300, 64, 300),
          (1, 64, 257, 40), (3, 1, 30, 21), (3, 1, 5, 9), (2, 5, 20, 1), (3, 1, 40, 1), (3, 3, 3, 12), (2, 2, 7, 9),
          (3, 4, 4, 11), (2, 152, 256, 147)]
PATHS = [(f"path-{'x'.join(map(str, s))}", "ops.einsum", _einsum("bmk,bkn->bmn", *_operands(*s))) for s in _PATHS]
_A, _B = _operands(4, 12, 10, 24)
TRANSPOSED = [
    ("transposed-kbm-bkn", "ops.einsum", _einsum("kbm,bkn->bmn", np.transpose(_A, (2, 0, 1)).copy(), _B)),
    ("transposed-bmk-bnk", "ops.einsum", _einsum("bmk,bnk->bnm", _A, np.transpose(_B, (0, 2, 1)).copy())),
    ("two-free-labels", "ops.einsum", _einsum("abc,ce->abe", _A, _B[0])),
]
_Q = (_RNG.standard_normal((32, 8, 2, 8)) * 0.7).astype(np.float16)
_K = (_RNG.standard_normal((32, 8, 2, 8)) * 0.7).astype(np.float16)
_P = _RNG.uniform(0, 0.3, (32, 2, 8, 8)).astype(np.float16)
ATTENTION = [
    ("attention-logits-grads", "ops.einsum", _grads("BTNH,BSNH->BNTS", _Q, _K)),
    ("attention-combine-grads", "ops.einsum", _grads("BNTS,BSNH->BTNH", _P, _K)),
]
TENSORDOT = [
    ("tensordot-dense-3d", "ops.einsum", _tensordot(_RNG.standard_normal((32, 8, 8)).astype(np.float16),
                                                     (_RNG.standard_normal((8, 16)) * 0.3).astype(np.float16), [[2], [0]])),
    ("tensordot-axes-2", "ops.einsum", _tensordot(_RNG.standard_normal((5, 6, 7)).astype(np.float16),
                                                   _RNG.standard_normal((6, 7, 9)).astype(np.float16), 2)),
]



def _matmul(x: np.ndarray, y: np.ndarray, **kw: bool) -> Callable[[Any], Any]:
    return lambda tf: tf.matmul(tf.constant(x), tf.constant(y), **kw)


# float16 MatMul/BatchMatMulV2: float32 additions in order of k, rounded once (the orders of NumPy's
# BLAS differ from it in the last bit of some elements)
_MM = [(1, 256, 16, 32), (1, 64, 64, 64), (3, 32, 300, 20), (2, 17, 129, 33)]
MATMUL = [(f"matmul-{'x'.join(map(str, s))}", "ops.einsum",
           _matmul(*((a[0], b[0]) if s[0] == 1 else (a, b)))) for s in _MM for a, b in [_operands(*s)]] + [
    ("matmul-transposed", "ops.einsum", _matmul(np.swapaxes(_A, 1, 2).copy(), _B, transpose_a=True)),
    ("matmul-broadcast", "ops.einsum", _matmul(_A, _B[0])),
]

EDGES = edge_compare.EdgeModule(__file__, RANDOM + PATHS + TRANSPOSED + ATTENTION + TENSORDOT + MATMUL)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.einsum")
@clause("ops.host-cpu")
@EDGES.parametrize("ops.einsum")
def test_float16_contractions_as_tf_on_this_machine(k: int, tf_results: dict[int, Any]) -> None:
    with host_cpu.using("host"):
        EDGES.check(k, tf_results)


if __name__ == "__main__":  # TF worker: python test_f16tr_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

"""Summation orders issue 29's fz10 routed through Eigen's reducers, each against real TensorFlow
2.21 bit for bit: float32/float64 Sum, Mean and EuclideanNorm of ordinary values add in Eigen's
SumReducer order (NumPy's pairwise sum differs in the last bit); bfloat16 Sum, Mean and
EuclideanNorm compute in float32 and round once (reduction_ops.h's casting specializations);
bfloat16 LogSoftmax sums its exponentials with Eigen's SumReducer<bfloat16> (every addition
rounded to bfloat16 but the packet's lanes). `tf.add_n` of one variable returns its read, a
tensor, not the variable (a MirroredVariable's SUM across replicas raised simdist's
AssertionError). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_RNG = np.random.default_rng(20261130)
# shapes and axes: rows shorter and longer than a packet block, kept inner dimensions, full reductions
_LAYOUTS: list[tuple[tuple[int, ...], Any]] = [
    ((16,), None), ((37,), None), ((5, 34), [-1]), ((5, 34), [0]), ((7, 3, 29), [0, 2]), ((7, 3, 29), None),
    ((32, 1, 32), [-1]), ((4, 40, 9), [1]), ((3, 300), [1]), ((2000,), None),
]
_DATA = [(shape, axis, (_RNG.standard_normal(shape) * 10 ** _RNG.uniform(-3, 3, shape)))
         for shape, axis in _LAYOUTS]


def _reduce(name: str, x: np.ndarray, dtype: str, axis: Any) -> Callable[[Any], Any]:
    return lambda tf: getattr(tf.math, name)(tf.cast(tf.constant(x), getattr(tf, dtype)), axis)


SUMS: list[tuple[str, str, Callable[[Any], Any]]] = [
    (f"{name}-{dtype}-{'x'.join(map(str, shape))}-{axis}", "ops.packet-paths", _reduce(name, x, dtype, axis))
    for name in ("reduce_sum", "reduce_mean", "reduce_euclidean_norm")
    for dtype in ("float32", "float64", "bfloat16")
    for shape, axis, x in _DATA
]
LOG_SOFTMAX: list[tuple[str, str, Callable[[Any], Any]]] = [
    (f"log-softmax-bfloat16-{'x'.join(map(str, shape))}", "ops.packet-paths",
     (lambda v: lambda tf: tf.nn.log_softmax(tf.cast(tf.constant(v), tf.bfloat16)))(np.clip(x, -30, 30)))
    for shape, _, x in _DATA
]



def _add_n_then_assign(tf: Any) -> Any:
    """add_n([v]) then an assign to v: the result is v's value before the assign when add_n read v."""
    v = tf.Variable([1.0, 2.0])
    r = tf.math.add_n([v])
    v.assign([5.0, 6.0])
    return r


ADD_N: list[tuple[str, str, Callable[[Any], Any]]] = [
    ("add-n-one-variable-is-a-read", "autodiff.integer", _add_n_then_assign),
]

EDGES = edge_compare.EdgeModule(__file__, SUMS + LOG_SOFTMAX + ADD_N)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.packet-paths")
@EDGES.parametrize("ops.packet-paths")
def test_sums_in_eigen_order(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("autodiff.integer")
@EDGES.parametrize("autodiff.integer")
def test_add_n_of_one_variable(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


if __name__ == "__main__":  # TF worker: python test_fuzz10_sums_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

"""Error classes issue 29's fourteenth generator (tests/fuzz14) found wrong, each against real
TensorFlow 2.21 (the same call on both backends gives the same dtype and bits, or raises the same
exception class): attributes TF's Python reads on arguments it has not converted (a `layout=`
string's `.mesh`, a window's `dtype.is_floating`, fftnd's `input_tensor.shape`, eig's
`tensor.dtype`: AttributeError; fftnd's scalar axes: IndexError), the kernel lookup for an op's
first input type before its other inputs' types and the kernel's checks (NotFoundError: MatMul,
BatchMatMulV2, MatrixSolve, SpaceToBatchND, TensorScatter*), the output-type attrs of the raw
FFTND ops, Fill's scalar value and matmul's transpose/adjoint pairs. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _fn(make: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """make(tf) inside a tf.function."""
    return lambda tf: tf.function(lambda: make(tf))()


_A = "ops.argument-errors"
CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # layout= (dtensor.call_with_layout)
    ("fill layout str", _A, lambda tf: tf.fill([2], 1.0, layout="NHWC")),
    ("ones layout int", _A, lambda tf: tf.ones([2], layout=3)),
    ("zeros layout str", _A, lambda tf: tf.zeros([2, 1], layout="x")),
    ("ones_like layout str", _A, lambda tf: tf.ones_like([1.0], layout="x")),
    ("zeros_like layout str", _A, lambda tf: tf.zeros_like([1.0], layout="x")),
    ("fill layout traced", _A, _fn(lambda tf: tf.fill([2], 1.0, layout="NHWC"))),
    ("ones negative layout traced", _A, _fn(lambda tf: tf.ones([-2], layout=3))),
    ("ones layout None", _A, lambda tf: tf.ones([2], layout=None)),
    ("fill non-scalar value", _A, lambda tf: tf.fill([3], [[1.0, 2.0]])),
    ("fill non-scalar value traced", _A, _fn(lambda tf: tf.fill([3], [[1.0, 2.0]]))),
    # window and mel dtypes read as given
    *[(f"{w} dtype {d!r}", _A, (lambda w, d: lambda tf: getattr(tf.signal, w)(4, dtype=d))(w, d))
      for w in ("hann_window", "hamming_window", "vorbis_window", "kaiser_window", "kaiser_bessel_derived_window")
      for d in (np.float32, "float64")],
    ("hann_window dtype tf.int32", _A, lambda tf: tf.signal.hann_window(4, dtype=tf.int32)),
    ("hann_window dtype tf.float16", _A, lambda tf: tf.signal.hann_window(4, dtype=tf.float16)),
    ("mel dtype np.int16", _A, lambda tf: tf.signal.linear_to_mel_weight_matrix(dtype=np.int16)),
    ("mel dtype tf.int16", _A, lambda tf: tf.signal.linear_to_mel_weight_matrix(dtype=tf.int16)),
    ("mel bins before dtype", _A, lambda tf: tf.signal.linear_to_mel_weight_matrix(num_mel_bins=-1, dtype="x")),
    # the FFTND wrappers
    ("fftnd python int", _A, lambda tf: tf.signal.fftnd(2, norm="backward")),
    ("ifftnd scalar axes", _A, lambda tf: tf.signal.ifftnd(-1, fft_length=tf.constant([2, 2]), axes=tf.constant(0))),
    ("irfftnd python float", _A, lambda tf: tf.signal.irfftnd(0.001)),
    ("rfftnd python int", _A, lambda tf: tf.signal.rfftnd(3, fft_length=tf.TensorShape([2, 3]))),
    ("irfftnd numpy scalar axes", _A, lambda tf: tf.signal.irfftnd(tf.constant([1, 2]), axes=np.int64(-1))),
    ("rfftnd int tensor scalar axes", _A, lambda tf: tf.signal.rfftnd(tf.constant([1, 2]), axes=tf.constant(-1))),
    ("rfftnd list", _A, lambda tf: tf.signal.rfftnd([[1.0, 2.0]])),
    ("rfftnd bool", _A, lambda tf: tf.signal.rfftnd(False)),
    ("rfftnd ndarray", _A, lambda tf: tf.signal.rfftnd(np.ones((2, 2), np.float32))),
    ("irfftnd rank below axes", _A, lambda tf: tf.signal.irfftnd(tf.constant([1, 2]), axes=[0, 1])),
    ("rfftnd rank below axes", _A, lambda tf: tf.signal.rfftnd(tf.constant([1.0, 2.0]), axes=[0, 1])),
    ("fftnd complex", _A, lambda tf: tf.signal.fftnd(tf.constant([1 + 0j, 2]))),
    ("raw irfftnd Treal uint8", _A, lambda tf: tf.irfftnd(tf.constant([1 + 0j]), [2], axes=[0], Treal=tf.uint8)),
    ("raw irfftnd Treal bfloat16", _A, lambda tf: tf.irfftnd(-2.5, [0], axes=[0], Treal=tf.bfloat16)),
    ("raw irfftnd Treal float64", _A, lambda tf: tf.irfftnd(tf.constant([1 + 0j]), [1], axes=[0], Treal=tf.float64)),
    ("raw rfftnd Tcomplex float64", _A, lambda tf: tf.rfftnd(tf.constant([1.0]), [1], axes=[0], Tcomplex=tf.float64)),
    # eig reads tensor.dtype
    ("eig python float", _A, lambda tf: tf.linalg.eig(float("nan"))),
    ("eigvals python int", _A, lambda tf: tf.linalg.eigvals(5)),
    ("eigvals list", _A, lambda tf: tf.linalg.eigvals([[1.0, 2.0], [3.0, 4.0]])),
    ("eigvals ndarray", _A, lambda tf: tf.linalg.eigvals(np.array([[1.0, 2.0], [3.0, 4.0]]))),
    ("eigvals int ndarray", _A, lambda tf: tf.linalg.eigvals(np.array([[1, 2], [3, 4]]))),
    # kernel lookup before the other inputs' types and the kernel's checks
    ("matmul uint16 @ int64", _A, lambda tf: tf.matmul(tf.ones([2, 2], tf.uint16), tf.ones([2, 2], tf.int64))),
    ("matmul int64 @ uint16", _A, lambda tf: tf.matmul(tf.ones([2, 2], tf.int64), tf.ones([2, 2], tf.uint16))),
    ("matmul uint16 @ list", _A, lambda tf: tf.ones([2, 2], tf.uint16) @ [[1.5, 2.0], [3.0, 4.0]]),
    ("matvec uint16 float32", _A, lambda tf: tf.linalg.matvec(tf.ones([2, 2], tf.uint16), tf.ones([2]))),
    ("batch matmul uint8 float32", _A, lambda tf: tf.matmul(tf.ones([2, 2, 2], tf.uint8), tf.ones([2, 2, 2]))),
    ("matmul bool", _A, lambda tf: tf.matmul(tf.ones([2, 2], tf.bool), tf.ones([2, 2], tf.bool))),
    ("matmul uint16 @ int64 traced", _A,
     _fn(lambda tf: tf.matmul(tf.ones([2, 2], tf.uint16), tf.ones([2, 2], tf.int64)))),
    ("matmul uint16 traced", _A, _fn(lambda tf: tf.matmul(tf.ones([2, 2], tf.uint16), tf.ones([2, 2], tf.uint16)))),
    ("matmul transpose and adjoint", _A,
     lambda tf: tf.linalg.matmul(tf.ones([2, 2]), tf.ones([2, 2]), transpose_b=True, adjoint_b=1)),
    ("solve half matrix, double rhs", _A, lambda tf: tf.linalg.solve(tf.eye(2, dtype=tf.float16), tf.ones([2, 1], tf.float64))),
    ("solve half matrix, double rhs traced", _A,
     _fn(lambda tf: tf.linalg.solve(tf.eye(2, dtype=tf.float16), tf.ones([2, 1], tf.float64)))),
    ("space_to_batch complex64", _A,
     lambda tf: tf.space_to_batch(tf.ones([1, 2, 2, 1], tf.complex64), [2, 2], [[0, 0], [0, 0]])),
    ("space_to_batch bool of rank 1", _A, lambda tf: tf.space_to_batch(tf.ones([2], tf.bool), [2, 2], [[0, 0], [0, 0]])),
    ("space_to_batch complex64 traced", _A,
     _fn(lambda tf: tf.space_to_batch(tf.ones([1, 2, 2, 1], tf.complex64), [2, 2], [[0, 0], [0, 0]]))),
    ("batch_to_space complex64", _A,
     lambda tf: tf.batch_to_space(tf.ones([4, 1, 1, 1], tf.complex64), [2, 2], [[0, 0], [0, 0]])),
    ("tensor_scatter_nd_min complex64", _A,
     lambda tf: tf.tensor_scatter_nd_min(tf.ones([2], tf.complex64), [[0]], tf.ones([1], tf.float32))),
    ("tensor_scatter_nd_max bool", _A, lambda tf: tf.tensor_scatter_nd_max(tf.ones([2], tf.bool), [[0]], [True])),
    ("tensor_scatter_nd_sub bool", _A, lambda tf: tf.tensor_scatter_nd_sub(tf.ones([2], tf.bool), [[0]], [True])),
    ("tensor_scatter_nd_add bool", _A, lambda tf: tf.tensor_scatter_nd_add(tf.ones([2], tf.bool), [[0]], [True])),
    ("tensor_scatter_nd_sub bool traced", _A,
     _fn(lambda tf: tf.tensor_scatter_nd_sub(tf.ones([2], tf.bool), [[0]], tf.ones([1], tf.bool)))),
    ("tensor_scatter_nd_add complex64", _A,
     lambda tf: tf.tensor_scatter_nd_add(tf.ones([2], tf.complex64), [[0]], tf.ones([1], tf.complex64))),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_argument_error_classes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz15c_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

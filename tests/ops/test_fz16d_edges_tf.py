"""Rules issue 29's fourteenth generator (tests/fuzz14) found in array, linalg and math ops where
TF 2.21 raises another class than simdist did, or accepts what simdist refused (fz16d's share),
each against real TensorFlow 2.21: the same call on both backends gives the same dtype and bits,
or raises the same exception class. Eagerly, in a tf.function (`traced`: its first call traces,
running the ops' shape functions) and in a tf.function with an input_signature (`sig`:
get_concrete_function traces on placeholders). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _eager(expr: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        return eval(expr, {"tf": tf, "np": np})  # noqa: S307 - our own text
    return run


def _traced(expr: str) -> Callable[[Any], Any]:
    """The expression inside a tf.function, called once (its trace runs the shape functions)."""
    def run(tf: Any) -> Any:
        return tf.function(lambda: eval(expr, {"tf": tf, "np": np}))()  # noqa: S307 - our own text
    return run


def _sig(expr: str, *specs: tuple[list[int | None] | None, str]) -> Callable[[Any], Any]:
    """get_concrete_function of `lambda x, y, ...: expr` with an input_signature of these specs,
    then (when it traces) a length-1 marker."""
    def run(tf: Any) -> Any:
        names = "xyzw"[:len(specs)]
        fn = eval(f"lambda {', '.join(names)}: {expr}", {"tf": tf, "np": np})  # noqa: S307 - our own text
        sig = [tf.TensorSpec(s, getattr(tf, d)) for s, d in specs]
        tf.function(fn, input_signature=sig).get_concrete_function()
        return tf.constant([1])
    return run


def _count(tf: Any, fn: Callable[[], Any]) -> Any:
    """tf.function(fn) called twice (each call's error class, or 'ok'), then its tracing count."""
    g = tf.function(fn)
    seen = []
    for _ in range(2):
        try:
            g()
            seen.append("ok")
        except Exception as e:  # noqa: BLE001 - the class is the answer
            seen.append(type(e).__name__)
    return tf.constant([g.experimental_get_tracing_count()] + [len(x) for x in seen])


def _both(group: str, *calls: str) -> list[tuple[str, str, Callable[[Any], Any]]]:
    return [(f"{c} {how}", group, (_traced if how == "traced" else _eager)(c)) for c in calls
            for how in ("eager", "traced")]


_X = "np.zeros([2, 3], np.float32)"

# -- shape functions at trace (array_shape_fns; fz14 seed 14 #581, #14, #220, #299, #412, #655, #761, seed
# 1420261202 #302, #303, #337, #553, #514, #794, seed 14 #439)
CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    *_both("function.trace-time-errors",
           "tf.broadcast_to([1.0, 2.0, 3.0], (0,))", "tf.broadcast_to([1.0, 2.0, 3.0], (2, 1))",
           "tf.broadcast_to([1.0, 2.0, 3.0], ())", "tf.broadcast_to(tf.zeros([2, 1, 3]), (4, 3))",
           "tf.broadcast_to([1.0, 2.0, 3.0], (-1, 3))", "tf.broadcast_to([1.0, 2.0, 3.0], [[3]])",
           "tf.broadcast_to([1.0, 2.0, 3.0], 3)",
           f"tf.ensure_shape({_X}, [3, 2])", f"tf.ensure_shape({_X}, [2])", f"tf.ensure_shape({_X}, None)",
           f"tf.ensure_shape({_X}, [2, None])",
           "tf.linalg.tensor_diag(tf.constant(0, tf.int64))", "tf.linalg.tensor_diag_part(tf.constant(-1.5))",
           f"tf.linalg.tensor_diag_part({_X})", "tf.linalg.tensor_diag_part(tf.zeros([2, 3, 2]))",
           "tf.linalg.qr(0.5)", "tf.linalg.svd(tf.zeros([3]))", "tf.linalg.lu(tf.zeros([3]))",
           "tf.linalg.trace(tf.constant(3, tf.int64))",
           "tf.gather(np.array(5, np.int64), [0], batch_dims=-1)", f"tf.gather({_X}, [[0]], batch_dims=2)",
           f"tf.gather({_X}, [[0]], batch_dims=1, axis=0)", f"tf.gather({_X}, [[0, 1]], batch_dims=1)",
           "tf.math.invert_permutation(tf.constant(3))", "tf.math.invert_permutation([[0]])",
           "tf.math.segment_sum(np.array([2.5, -0.0]), [[0]])", "tf.math.segment_prod(np.array([2.5]), [[0]])",
           "tf.math.segment_max(np.array([2.5, 1.0]), [0, 0, 0])",
           "tf.math.betainc(0.5, [1.0, 2.0, 3.0], [0.5, 0.5])", "tf.math.betainc([0.5], [[1.0, 2.0]], [0.5, 0.5])",
           "tf.math.betainc([0.5, 1.0], [1.0, 2.0], 0.5)",
           "tf.linalg.set_diag(np.float32(-3.0), 0.0)", "tf.linalg.set_diag(np.zeros([3, 3]), np.zeros([2]))",
           "tf.linalg.set_diag(np.zeros([3, 3]), np.zeros([2, 3]))",
           "tf.linalg.set_diag(np.zeros([3, 3]), np.zeros([3]), k=5)",
           "tf.linalg.set_diag(np.zeros([3, 3]), np.zeros([3]), k=(0, 1))",
           "tf.reverse_sequence(tf.zeros([2, 3, 4]), [[0]], seq_axis=2)",
           "tf.reverse_sequence(tf.zeros([2, 3, 4]), [1, 1, 1], seq_axis=2)",
           "tf.reverse_sequence(tf.zeros([2, 3, 4]), [1, 1], seq_axis=3)",
           "tf.linalg.expm(np.zeros([3], np.float32))", "tf.linalg.expm(np.array([False]))",
           "tf.reverse(-1, axis=0)", "tf.reverse(-1, axis=[0])", "tf.ifftnd(-1, fft_length=[1, 1], axes=(0, 1))",
           "tf.tensor_scatter_nd_max(tf.zeros([2, 0], tf.float16), [1], np.array(1.0, np.float16))",
           "tf.debugging.assert_greater(-2.5, -2.5)",
           "tf.unique(tf.constant([[1.0]]))", "tf.unique_with_counts(tf.constant([[1.0]]), out_idx='int32')",
           "tf.unstack(np.float64(0.001), num=0)",
           "tf.space_to_batch(tf.constant(-1, tf.int64), tf.TensorShape([]), [[1, 1]])",
           "tf.space_to_batch(np.array(1 + 1j, np.complex128), tf.TensorShape([]), [[1, 1]])",
           "tf.space_to_batch_nd([-3.4e+38], tf.TensorShape([2, 3]), tf.constant([[0, 0], [1, 0], [0, 0], [2, 0]]))",
           "tf.space_to_batch_nd(tf.zeros([1, 4, 4, 1]), [2, 2], paddings=[[0, 0], [1, 0]])",
           "tf.space_to_batch_nd(tf.zeros([1, 4, 4, 1]), [2, 3], paddings=[[0, 0], [0, 0]])",
           "tf.linalg.sqrtm(tf.zeros([4, 2], tf.float16))", "tf.linalg.sqrtm(tf.zeros([2, 2], tf.float16))",
           "tf.slice([[[[5, 3]], [[5, 0]], [[1, 3]]]], np.array([0, 1, 1], np.int64), [])",
           "tf.slice([[[[5, 3]], [[5, 0]], [[1, 3]]]], [0, 1, 1], [1, 1, 1])", "tf.slice([[5, 3]], [0, 1], [1])"),
    ("unique sig unknown rank, called", "function.trace-time-errors",
     lambda tf: tf.function(lambda x: tf.unique(x)[0], input_signature=[tf.TensorSpec(None, tf.float64)])(
         tf.constant([[1.0]], tf.float64))),
    ("unique_with_counts sig [2, 2]", "function.trace-time-errors",
     _sig("tf.unique_with_counts(x)[0]", ([2, 2], "float32"))),
    ("sqrtm sig float16 [4, 2]", "function.trace-time-errors", _sig("tf.linalg.sqrtm(x)", ([4, 2], "float16"))),
    ("unsorted_segment_sqrt_n sig int scalar data", "function.trace-time-errors",
     _sig("tf.math.unsorted_segment_sqrt_n(2, segment_ids=[0], num_segments=0)", ([], "float32"))),
    ("confusion_matrix static assert: no trace counted", "function.trace-time-errors", lambda tf: _count(
        tf, lambda: tf.math.confusion_matrix(np.array([], np.int32), tf.constant(3), num_classes=1))),
    ("broadcast_to sig [None, 3]", "function.trace-time-errors",
     _sig("tf.broadcast_to(x, (2, 4))", ([None, 3], "float32"))),
    ("broadcast_to sig [None]", "function.trace-time-errors", _sig("tf.broadcast_to(x, (2, 4))", ([None], "float32"))),
    ("broadcast_to sig shape []", "function.trace-time-errors",
     _sig("tf.broadcast_to(x, y)", ([3], "float32"), ([], "int32"))),
    ("broadcast_to sig [y, 4]", "function.trace-time-errors",
     _sig("tf.broadcast_to(x, [y, 4])", ([2, 3], "float32"), ([], "int32"))),
    ("ensure_shape sig [None, 3]", "function.trace-time-errors",
     _sig("tf.ensure_shape(x, [3, 2])", ([None, 3], "float32"))),
    ("ensure_shape sig unknown rank", "function.trace-time-errors", _sig("tf.ensure_shape(x, [3, None])", (None, "float32"))),
    ("qr sig []", "function.trace-time-errors", _sig("tf.math.cosh(tf.linalg.qr(0.5))", ([], "float32"))),
    ("svd sig [None]", "function.trace-time-errors", _sig("tf.linalg.svd(x)", ([None], "float32"))),
    ("set_diag sig k constant", "function.trace-time-errors",
     _sig("tf.linalg.set_diag(np.float32(-3.0), 0.0, k=tf.constant(2))", ([], "float32"))),
    ("set_diag sig k placeholder", "function.trace-time-errors",
     _sig("tf.linalg.set_diag(np.zeros([3, 3]), np.zeros([2, 3]), k=x)", ([], "int32"))),
    ("segment_prod sig", "function.trace-time-errors",
     _sig("tf.math.segment_prod(np.array([], np.float32), segment_ids=[[0]])", ([0], "float32"))),
    ("segment_sum sig ids unknown rank", "function.trace-time-errors",
     _sig("tf.math.segment_sum(np.array([1.0, 2.0]), x)", (None, "int32"))),
    ("expm sig [None]", "function.trace-time-errors", _sig("tf.linalg.expm(x)", ([None], "float32"))),
    ("ifftnd sig scalar", "function.trace-time-errors",
     _sig("tf.ifftnd(-1, fft_length=[1, 1], axes=(0, 1))", ([1, 1], "complex64"))),
    ("tensor_scatter_nd_max sig empty input", "function.trace-time-errors",
     _sig("tf.tensor_scatter_nd_max(tf.zeros([2, 0], tf.float16), [1], np.array(1.0, np.float16))", ([], "float32"))),
    ("assert_greater sig constants", "function.trace-time-errors",
     _sig("tf.debugging.assert_greater(-2.5, -2.5, message='m')", ([], "float32"))),
    ("assert_less sig placeholder", "function.trace-time-errors",
     _sig("(tf.debugging.assert_less(x, -2.5, message='m'), x)[1]", ([], "float32"))),
    ("triangular_solve sig", "function.trace-time-errors",
     _sig("tf.linalg.triangular_solve(float('inf'), rhs=np.array(5, np.int64), adjoint=True)", ([], "float32"))),
]

# -- the Python wrappers' own rules and conversions (fz14 seed 14 #133, #670, #659, #723, #165, #278, seed
# 1420261202 #294, #990, #197, #779, seed 14202612013 #6)
CASES += _both("ops.wrapper-rules",
               "tf.concat([np.array([[1.0, 2.0]], np.float32)], axis=None)",
               "tf.concat([np.array([[1.0, 2.0]], np.float32)], axis=1.5)",
               "tf.concat([np.array([[1.0, 2.0]], np.float32)], axis=[0])",
               "tf.concat([np.array([[1.0, 2.0]], np.float32)], axis=7)",
               "tf.concat(np.array([[1.0, 2.0]], np.float32), axis=0)",
               "tf.expand_dims(False, axis=None)",
               "tf.tensordot(np.zeros([2]), np.zeros([2]), axes=None)",
               "tf.linalg.normalize(np.complex64(4 - 3j), axis=np.int64(1))",
               "tf.norm(np.zeros([2, 2], np.float32), axis=(np.int32(0), 1))",
               "tf.gather_nd([[7.0, -0.0], [1.0, -1.0]], [1, 1], batch_dims=tf.constant(2))",
               "tf.gather_nd([[7.0, -0.0], [1.0, -1.0]], [[1]], batch_dims=-1)",
               "tf.gather_nd([[7.0, -0.0], [1.0, -1.0]], [[[1]]], batch_dims=2)",
               "tf.boolean_mask(0, -1, axis=(-2, 1))",
               "tf.math.nextafter([[1, 3, 1], [2, 2, 3]], [0, 2, 5])", "tf.math.nextafter(1, 2)",
               "tf.math.betainc(np.uint16(0), -1, tf.Variable([0.5, 0.5], dtype=tf.float64))",
               "tf.linalg.triangular_solve(float('inf'), rhs=np.array(5, np.int64), adjoint=True)",
               "tf.linalg.triangular_solve(np.ones([2, 2], np.float32), rhs=np.array([[5], [3]], np.int64))",
               "tf.linalg.solve(float('inf'), rhs=np.array(5, np.int64))",
               "tf.required_space_to_batch_paddings([], np.array([3], np.int64))",
               "tf.required_space_to_batch_paddings(tf.constant([1]), tf.constant([0]), base_paddings=[[0, 0]])")
CASES += [("gather_nd sig batch_dims placeholder", "ops.wrapper-rules",
           _sig("tf.gather_nd([[7.0, -0.0], [1.0, -1.0]], [[1]], batch_dims=x)", ([], "int32")))]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_shape_functions_at_trace(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.attr-types")
@EDGES.parametrize("ops.wrapper-rules")
def test_wrapper_rules(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz16d_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

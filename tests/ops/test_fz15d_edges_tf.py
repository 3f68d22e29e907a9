"""The rules issue 29's fz15d closed (classes of the fourteenth generator, tests/fuzz14, where one
side accepts and the other refuses, or the values differ), each against real TensorFlow 2.21: the
same call on both backends gives the same dtype and bits, or raises the same exception class.
Grappler's constant push-down inside tf.function, a one-row MatMul's order, the argument checks of
Fill, DynamicPartition and DynamicStitch, squeeze of an empty axis list, get_static_value while a
tf.function traces, broadcast_dynamic_shape's operand conversion, polygamma's poles, betainc's
operand matching and the assertions' separate conversion of x and y. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _traced(body: Callable[[Any, Any], Any], x: Any, dtype: str = "float32", calls: int = 1) -> Callable[[Any], Any]:
    """tf.function(body)(tf, x) called `calls` times on x (a float tensor argument)."""
    def run(tf: Any) -> Any:
        xt = tf.constant(x, getattr(tf, dtype))
        f = tf.function(lambda v: body(tf, v))
        return [f(xt) for _ in range(calls)]
    return run


def _brightness(tf: Any) -> Any:
    """random_brightness with an op seed inside an input_signature function, called three times."""
    tf.random.set_seed(5)
    f = tf.function(lambda x: tf.image.random_brightness([[-3.0], [0.5], [4.0]], 1e-6, seed=42),
                    input_signature=[tf.TensorSpec([None], tf.int8)])
    x = tf.constant([7], tf.int8)
    return [f(x) for _ in range(3)]


def _uniform_plus(tf: Any) -> Any:
    tf.random.set_seed(3)
    f = tf.function(lambda: [tf.random.uniform([4], -1e-6, 1e-6, seed=5) + 7.0,
                             tf.random.uniform([3], 0, 5.0, seed=4) * 3.0])
    return f() + f()


def _matmul(m: int, k: int, n: int, dtype: str = "float32", **kw: Any) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        rng = np.random.default_rng(m * 100 + k * 10 + n)
        x = rng.standard_normal((k, m) if kw.get("transpose_a") else (m, k)).astype(dtype)
        y = rng.standard_normal((k, n)).astype(dtype)
        return tf.matmul(x, y, **kw)
    return run


def _static_value(tf: Any) -> Any:
    """get_static_value of an argument, a literal and a tf.shape inside an input_signature trace."""
    def body(x: Any) -> Any:
        flags = [tf.get_static_value(x) is None, tf.get_static_value(tf.constant([1, 2])) is None,
                 tf.get_static_value(tf.shape(tf.zeros([2, 3]))) is None, tf.get_static_value(x + 1.0) is None]
        return tf.constant([int(f) for f in flags])
    f = tf.function(body, input_signature=[tf.TensorSpec([], tf.float32)])
    return f(tf.constant(0.5))


def _dynamic_shape(call: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        tf.broadcast_dynamic_shape([1], [1])   # (TF's first eager call of an op skips its fast path)
        return eval(call, {"tf": tf, "np": np})  # noqa: S307 - our own text
    return run


def _call(text: str) -> Callable[[Any], Any]:
    return lambda tf: eval(text, {"tf": tf, "np": np})  # noqa: S307 - our own text


def _in_function(text: str) -> Callable[[Any], Any]:
    return lambda tf: tf.function(lambda: eval(text, {"tf": tf, "np": np}))()  # noqa: S307 - our own text


_X = [1.0, 3.0, -2.0, 1e8]
_B64 = "tf.constant([0.5, 0.25], tf.float64)"
CASES: list[tuple] = [
    ("(x + 0.1) + 0.2 traced", "function.grappler-rewrites", _traced(lambda tf, x: (x + 0.1) + 0.2, _X)),
    ("0.2 + (0.1 + x) traced", "function.grappler-rewrites", _traced(lambda tf, x: 0.2 + (0.1 + x), _X)),
    ("0.3 - (x - 0.1) traced", "function.grappler-rewrites", _traced(lambda tf, x: 0.3 - (x - 0.1), _X)),
    ("0.3 - (0.1 - x) traced", "function.grappler-rewrites", _traced(lambda tf, x: 0.3 - (0.1 - x), _X)),
    ("((x + 0.1) + 0.2) + 0.3 traced", "function.grappler-rewrites",
     _traced(lambda tf, x: ((x + 0.1) + 0.2) + 0.3, _X)),
    ("(x * 0.1) * 0.3 traced", "function.grappler-rewrites", _traced(lambda tf, x: (x * 0.1) * 0.3, _X)),
    ("float64 (x + 0.1) + 0.2 traced", "function.grappler-rewrites",
     _traced(lambda tf, x: (x + 0.1) + 0.2, _X, "float64")),
    ("float16 (x + 0.1) + 0.2 traced", "function.grappler-rewrites",
     _traced(lambda tf, x: (x + 0.1) + 0.2, [1.0, 3.0, -2.0, 1000.0], "float16")),
    ("bfloat16 (x + 0.1) + 0.2 traced", "function.grappler-rewrites",
     _traced(lambda tf, x: (x + 0.1) + 0.2, [1.0, 3.0, -2.0, 1000.0], "bfloat16")),
    ("float16 0.3 - (x - 0.1) traced (no push-down)", "function.grappler-rewrites",
     _traced(lambda tf, x: 0.3 - (x - 0.1), [1.0, 3.0, -2.0, 1000.0], "float16")),
    ("random_brightness seeded, input_signature", "function.grappler-rewrites", _brightness),
    ("uniform + 7.0 and uniform(0, 5) * 3.0 traced", "function.grappler-rewrites", _uniform_plus),
    ("rgb_to_grayscale one pixel", "ops.packet-paths", _call("tf.image.rgb_to_grayscale(tf.constant([[-3.0, 2.5, -1.5]]))")),
    ("rgb_to_grayscale one pixel, input_signature, three calls", "ops.packet-paths",
     _traced(lambda tf, x: tf.image.rgb_to_grayscale(x), [[-3.0, 2.5, -1.5]], calls=3)),
    ("tensordot [1, 3] . [3]", "ops.packet-paths",
     _call("tf.tensordot(tf.constant([[-3.0, 2.5, -1.5]]), tf.constant([0.2989, 0.5870, 0.1140]), [[-1], [-1]])")),
    ("matvec [1, 3] [3]", "ops.packet-paths",
     _call("tf.linalg.matvec(tf.constant([[-3.0, 2.5, -1.5]]), tf.constant([0.2989, 0.5870, 0.1140]))")),
    ("matmul 1x17 @ 17x1", "ops.packet-paths", _matmul(1, 17, 1)),
    ("matmul 1x33 @ 33x16", "ops.packet-paths", _matmul(1, 33, 16)),
    ("matmul transpose_a 1x40 @ 40x5", "ops.packet-paths", _matmul(1, 40, 5, transpose_a=True)),
    ("matmul float64 1x40 @ 40x5", "ops.packet-paths", _matmul(1, 40, 5, "float64")),
    ("fill with a [2, 1] value", "ops.argument-errors",
     _call("tf.fill(dims=tf.constant([2, 3], tf.int32), value=np.array([[1], [0]], dtype=np.int8))")),
    ("fill with a [1] value", "ops.argument-errors", _call("tf.fill([2], [1.0])")),
    ("fill with a [1] value traced", "ops.argument-errors", _in_function("tf.fill([2], [1.0])")),
    ("dynamic_partition partition -1", "ops.argument-errors",
     _call("tf.dynamic_partition(tf.constant([False]), [-1], num_partitions=3)")),
    ("dynamic_partition partition 3 of 3", "ops.argument-errors",
     _call("tf.dynamic_partition(tf.constant([1, 2]), [0, 3], num_partitions=3)")),
    ("dynamic_partition num_partitions 0", "ops.argument-errors",
     _call("tf.dynamic_partition(tf.constant([1, 2]), [0, 1], num_partitions=0)")),
    ("dynamic_stitch one index, a tensor of two rows", "ops.argument-errors",
     _call("tf.dynamic_stitch([2], tf.constant([[False, True], [True, False]]))")),
    ("dynamic_stitch data shape not starting with the indices'", "ops.argument-errors",
     _call("tf.dynamic_stitch([[0, 1]], [tf.constant([1, 2, 3])])")),
    ("dynamic_stitch trailing shapes differ", "ops.argument-errors",
     _call("tf.dynamic_stitch([[0], [1]], [tf.constant([[1, 2]]), tf.constant([[3]])])")),
    ("dynamic_stitch index -1", "ops.argument-errors", _call("tf.dynamic_stitch([[-1]], [tf.constant([5])])")),
    ("dynamic_stitch valid", "ops.argument-errors",
     _call("tf.dynamic_stitch([[0, 2], [1]], [tf.constant([[1, 2], [3, 4]]), tf.constant([[5, 6]])])")),
    ("squeeze(x, [])", "ops.argument-errors", _call("tf.squeeze(tf.constant([[5.0], [7.0]]), [])")),
    ("nn.moments axes=[]", "ops.argument-errors", _call("list(tf.nn.moments(tf.constant([[5.0], [7.0]]), axes=[]))")),
    ("nn.moments int32 axes=[] shift", "ops.argument-errors",
     _call("list(tf.nn.moments(x=tf.constant([2147483647]), axes=[], shift=-1))")),
    ("nn.moments int64 axes=np.int64(-1)", "ops.argument-errors",
     _call("list(tf.nn.moments(tf.constant([[1, 2], [3, 5]], tf.int64), np.int64(-1)))")),
    ("matrix_rank of a list of ints", "ops.argument-errors",
     _call("tf.linalg.matrix_rank([[5, 2], [2, 0], [3, 3], [-4, -1]])")),
    ("matrix_rank of an int32 tensor", "ops.argument-errors", _call("tf.linalg.matrix_rank(tf.constant([[5, 2], [2, 0]]))")),
    ("get_static_value while tracing", "ops.array-more", _static_value),
    *[(f"broadcast_dynamic_shape {c}", "ops.array-more", _dynamic_shape(f"tf.broadcast_dynamic_shape({c})")) for c in (
        "np.array([2, 3], np.int64), np.array([], np.int64)", "np.array([2, 3], np.int64), np.array([1], np.int64)",
        "tf.constant([2, 3], tf.int64), np.array([1], np.int64)", "[1], tf.constant([2, 3], tf.int64)",
        "np.array([2 ** 40], np.int64), [1]", "tf.TensorShape([2, 3]), tf.TensorShape([3])",
        "tf.constant([3, 3], tf.int32), tf.TensorShape([3])", "np.array([2.0]), [1]", "np.array([2], np.uint8), [1]",
        "tf.constant([3], tf.int32), tf.TensorShape([2 ** 40])", "tf.TensorShape([2, None]), [1]")],
    ("broadcast_dynamic_shape of NumPy int64 traced", "ops.array-more",
     _in_function("tf.broadcast_dynamic_shape(np.array([2, 3], np.int64), np.array([1], np.int64))")),
    *[(f"broadcast_static_shape {c}", "ops.array-more", _call(f"tf.constant(tf.broadcast_static_shape({c}).as_list())"))
      for c in ("[2, 3], np.array([], np.int64)", "tf.TensorShape([2]), [1]", "(2,), tf.TensorShape([1])",
                "tf.TensorShape([2, 1]), tf.TensorShape([3])")],
    ("polygamma at its poles float32", "ops.special-functions",
     _call("tf.math.polygamma(tf.constant([4.0, 1.0, 2.0, 3.0, 1.0, 4.0]), tf.constant([0.0, -3.0, -1.0, -2.0, 0.5, -0.0]))")),
    ("polygamma at its poles float64", "ops.special-functions",
     _call("tf.math.polygamma(tf.constant([4.0, 1.0, 2.0, 3.0], tf.float64), tf.constant([0.0, -3.0, -1.0, -2.0], tf.float64))")),
    ("betainc(255, np.float16, float64 x)", "ops.conversion",
     _call(f"tf.math.betainc(a=255, b=np.float16(0.001), x={_B64})"), edge_compare.within(1e-12)),
    ("betainc(2 ** 31, np.float32, float32 x)", "ops.conversion",
     _call("tf.math.betainc(2 ** 31, np.float32(4.0), tf.constant(0.5))")),
    ("betainc(np.float64, 4.0, float32 x)", "ops.conversion",
     _call("tf.math.betainc(np.float64(2.0), 4.0, tf.constant(0.5))")),
    ("betainc(2.0, float64 b, 0.5)", "ops.conversion", _call(f"tf.math.betainc(2.0, {_B64}, 0.5)"),
     edge_compare.within(1e-12)),
    ("betainc(int array, 3.0, float64 x)", "ops.conversion",
     _call(f"tf.math.betainc(np.array([1, 2]), 3.0, {_B64})"), edge_compare.within(1e-12)),
    ("assert_equal(float64, -0.0)", "ops.debugging-checks",
     _call("tf.debugging.assert_equal(tf.constant(-0.0, tf.float64), y=-0.0)")),
    ("assert_greater(32767, -(2 ** 63))", "ops.debugging-checks", _call("tf.debugging.assert_greater(32767, -(2 ** 63))")),
    ("assert_less(-(2 ** 63), -2.5)", "ops.debugging-checks", _call("tf.debugging.assert_less(x=-(2 ** 63), y=-2.5)")),
    ("assert_less_equal(int32, float32)", "ops.debugging-checks",
     _call("tf.debugging.assert_less_equal(tf.constant([1, 2]), tf.constant([1.0, 2.0]))")),
    ("assert_equal(int32 tensor, list)", "ops.debugging-checks",
     _call("[tf.debugging.assert_equal(tf.constant([1, 2]), [1, 2]), tf.constant(1)][1]")),
    ("assert_equal(float64, 1.0) traced", "ops.debugging-checks",
     _in_function("tf.debugging.assert_equal(tf.constant(1.0, tf.float64), 1.0)")),
]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.bits_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_constant_push_down(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.packet-paths")
@EDGES.parametrize("ops.packet-paths")
def test_one_row_matmul_order(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_fill_partition_stitch_squeeze_arguments(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.array-more")
@EDGES.parametrize("ops.array-more")
def test_static_value_and_broadcast_shapes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.special-functions")
@EDGES.parametrize("ops.special-functions")
def test_polygamma_poles(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_betainc_operands_match_the_tensor(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.debugging-checks")
@EDGES.parametrize("ops.debugging-checks")
def test_assertions_convert_x_and_y_alone(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz15d_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

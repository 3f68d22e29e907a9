"""Rules issue 29's eleventh campaign (fz11: the fourth fuzzer's open classes and seeds 41-43, the
second's 71-72) found wrong, each against real TensorFlow 2.21: the same calls on both backends
give the same types, dtypes and bits, or raise the same exception class. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _fn(body: str) -> Callable[[Any], Any]:
    """tf.function(lambda: <body>)() (tf and np in scope): its tensors are graph tensors."""
    def run(tf: Any) -> Any:
        return tf.function(eval(f"lambda: {body}", {"tf": tf, "np": np}))()  # noqa: S307 - our text
    return run


def _eager(body: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        return eval(body, {"tf": tf, "np": np})  # noqa: S307 - our text
    return run


def _sig(body: str, value: Any, spec: Any) -> Callable[[Any], Any]:
    """tf.function(lambda x: <body>, input_signature=[TensorSpec(spec, dtype of value)]) called on
    `value` (a NumPy array)."""
    def run(tf: Any) -> Any:
        x = tf.constant(value)
        f = tf.function(eval(f"lambda x: {body}", {"tf": tf, "np": np}),  # noqa: S307 - our text
                        input_signature=[tf.TensorSpec(spec, x.dtype)])
        return f(x)
    return run


def _sig_concrete(body: str, value: Any, spec: Any) -> Callable[[Any], Any]:
    """get_concrete_function() of that function (its trace alone)."""
    def run(tf: Any) -> Any:
        x = tf.constant(value)
        f = tf.function(eval(f"lambda x: {body}", {"tf": tf, "np": np}),  # noqa: S307 - our text
                        input_signature=[tf.TensorSpec(spec, x.dtype)])
        f.get_concrete_function()
        return tf.constant(0)
    return run


def _variable_every_call(calls: int) -> Callable[[Any], Any]:
    """A tf.function creating a variable on every run: call `calls` (after the earlier ones, their
    errors caught)."""
    def run(tf: Any) -> Any:
        f = tf.function(lambda s: tf.Variable(1e40, dtype=np.float16) * 1)
        for _ in range(calls - 1):
            try:
                f(0.5)
            except ValueError:
                pass
        return f(0.5)
    return run


def _singleton_counts(tf: Any) -> Any:
    """The singleton pattern, three calls: outputs, the variable, and the tracing count (TF keeps
    both traces of the first call)."""
    class Scale:
        v = None

        def __call__(self, x: Any) -> Any:
            if self.v is None:
                self.v = tf.Variable(x * 2)
            self.v.assign_add(x)
            return self.v.read_value()
    s = Scale()
    f = tf.function(s)
    outs = [f(tf.constant(x)) for x in (1.0, 2.0, 3.0)]
    return outs + [s.v.read_value(), tf.constant(f.experimental_get_tracing_count())]


def _name_identity(tf: Any) -> Any:
    x = tf.constant([1.0])
    return [x.dtype.name is x.dtype.name, x.dtype.name == x.dtype.name, tf.float16.name is tf.float16.name]


def _later_call_creates(tf: Any) -> Any:
    """A function whose first call creates no variable and whose next trace (another signature)
    creates one."""
    made = []

    def body(x: Any) -> Any:
        if x.shape.rank == 1:
            made.append(tf.Variable(2.0))
        return x + 1
    f = tf.function(body)
    f(tf.constant(1.0))
    return f(tf.constant([1.0]))


def _last_dimension(x: Any) -> Any:
    return int(x.shape[-1])


def _floor_by_zero(x: Any) -> Any:
    return x + 1 // (x.shape.rank or 0)


def _missing_key(x: Any) -> Any:
    return {}["a"] + x


def _own_error(x: Any) -> Any:
    raise _Own("raised by the function")


class _Own(Exception):
    """An exception class whose constructor is Exception's."""


def _staged(fn: Callable[[Any], Any], autograph: bool = True, spec: Any = None) -> Callable[[Any], Any]:
    """tf.function(fn) called on a 0-d float64 tensor (with an input_signature of `spec` when given,
    and then through get_concrete_function)."""
    def run(tf: Any) -> Any:
        x = tf.constant(1e10, tf.float64)
        if spec is None:
            return tf.function(fn, autograph=autograph)(x)
        f = tf.function(fn, autograph=autograph, input_signature=[tf.TensorSpec(spec, tf.float64)])
        f.get_concrete_function()
        return f(x)
    return run


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- AutoGraph re-raises a trace's exception from its message, or as StagingError (fz4 seeds 41 #28, 42)
    ("staged-index-error", "function.trace-time-errors", _staged(_last_dimension)),
    ("staged-index-error-signature", "function.trace-time-errors", _staged(_last_dimension, spec=[])),
    ("unconverted-index-error", "function.trace-time-errors", _staged(_last_dimension, autograph=False)),
    ("staged-zero-division", "function.trace-time-errors", _staged(_floor_by_zero)),
    ("kept-key-error", "function.trace-time-errors", _staged(_missing_key)),
    ("kept-exception-subclass", "function.trace-time-errors", _staged(_own_error)),
    ("eager-index-error", "function.trace-time-errors", lambda tf: _last_dimension(tf.constant(1.0))),
    # -- the array protocol of tensors and TF's DType.name (fz4 seeds 31 #165, 34 #137)
    ("array-of-0d-float", "ops.fuzz4", _eager("tf.constant(1.5).__array__()")),
    ("array-of-0d-bool", "ops.fuzz4", _eager("tf.constant(True).__array__()")),
    ("array-of-0d-int64", "ops.fuzz4", _eager("tf.constant(-7, tf.int64).__array__()")),
    ("array-of-0d-half", "ops.fuzz4", _eager("tf.constant(0.5, tf.float16).__array__()")),
    ("array-of-vector", "ops.fuzz4", _eager("tf.constant([1.0, 2.0]).__array__()")),
    ("array-of-0d-with-dtype", "ops.fuzz4", _eager("tf.constant(1.5).__array__(np.float64)")),
    ("asarray-of-0d", "ops.fuzz4", _eager("np.asarray(tf.constant(1.5))")),
    ("array-copy-of-0d", "ops.fuzz4", _eager("np.array(tf.constant(3, tf.int64))")),
    ("asarray-of-0d-bfloat16", "ops.fuzz4", _eager("np.asarray(tf.constant(1.0, tf.bfloat16))")),
    ("asarray-of-bfloat16-vector", "ops.fuzz4", _eager("np.asarray(tf.constant([1.0, 2.0], tf.bfloat16))")),
    ("array-of-0d-variable", "ops.fuzz4", _eager("tf.Variable(2.0).__array__()")),
    ("numpy-sum-of-0d", "ops.fuzz4", _eager("np.sum(tf.constant(1.5))")),
    ("dtype-name-identity", "ops.fuzz4", _name_identity),
    # -- binary_op_wrapper retries NumPy's reflected operator (fz4 seeds 1 #63, #124, #136, 2 #113)
    ("traced-bool-plus-numpy-int", "ops.reflected-retry", _fn("(tf.constant([1.5, 2.0]) > 0) + np.int64(-2)")),
    ("traced-bool-plus-ndarray", "ops.reflected-retry", _fn("tf.constant([True, False]) + np.array([1, 2])")),
    ("traced-bool-minus-numpy-bool", "ops.reflected-retry", _fn("tf.constant([True, False]) - np.bool_(True)")),
    ("traced-float-or-numpy-int", "ops.reflected-retry", _fn("tf.constant([1.5, 2.0]) | np.int32(3)")),
    ("traced-float-xor-ndarray", "ops.reflected-retry", _fn("tf.constant([1.5, 2.0]) ^ np.array([1, 2])")),
    ("traced-int-pow-numpy-float", "ops.reflected-retry", _fn("tf.constant([1, 2]) ** np.float32(0.5)")),
    ("traced-bool-floordiv-numpy-float", "ops.reflected-retry", _fn("tf.constant([True]) // np.float16(2)")),
    ("traced-bool-div-numpy-half", "ops.reflected-retry", _fn("tf.constant([True]) / np.float16(0.5)")),
    ("traced-int-matmul-ndarray", "ops.reflected-retry",
     _fn("tf.constant([[True, False]]) @ np.ones([2, 1], np.int32)")),
    ("traced-bool-plus-python-int", "ops.reflected-retry", _fn("tf.constant([True, False]) + 2")),
    ("traced-bool-plus-list", "ops.reflected-retry", _fn("tf.constant([True, False]) - [1, 2]")),
    ("sig-half-gt-list-plus-numpy-bool", "ops.reflected-retry",
     _sig("(x > [10000000000.0, 0.5, 0.1]) + np.bool_(False)", np.array([3.0, 0.1, np.nan], np.float16), [None])),
    ("sig-le-ndarray-plus-numpy-int", "ops.reflected-retry",
     _sig("(x <= np.array([0.1, 0.1, 0.5], dtype=np.float32)) + np.int64(-2)", np.zeros(3, np.float32), [None])),
    ("concrete-le-ndarray-plus-numpy-int", "ops.reflected-retry",
     _sig_concrete("(x <= np.array([0.1, 0.1, 0.5], dtype=np.float32)) + np.int64(-2)", np.zeros(3, np.float32),
                   [None])),
    ("eager-bool-plus-numpy-int", "ops.reflected-retry", _eager("tf.constant([True, False]) + np.int64(-2)")),
    ("eager-int-or-numpy-float", "ops.reflected-retry", _eager("tf.constant([1, 2]) | np.float32(1.5)")),
    ("eager-bool-div-numpy-half", "ops.reflected-retry", _eager("tf.constant([True]) / np.float16(0.5)")),
    ("eager-int-plus-big-ndarray", "ops.reflected-retry", _eager("tf.constant([1, 2]) + np.array([2 ** 40])")),
    ("eager-variable-or-numpy-float", "ops.reflected-retry", _eager("tf.Variable([1, 2]) | np.float32(1.5)")),
    # -- shape functions of GatherNd and Unpack in a graph, kernel checks eagerly (fz4 seeds 41 #28, 43 #187)
    ("traced-gather-nd-scalar-params", "function.trace-time-errors", _fn("tf.gather_nd(-7.25, indices=[[0, 1]])")),
    ("gather-nd-scalar-params", "function.trace-time-errors", _eager("tf.gather_nd(-7.25, indices=[[0, 1]])")),
    ("traced-gather-nd-deep-index", "function.trace-time-errors", _fn("tf.gather_nd([[1.]], indices=[[0, 0, 0]])")),
    ("traced-gather-nd-scalar-indices", "function.trace-time-errors", _fn("tf.gather_nd([1., 2.], indices=1)")),
    ("sig-gather-nd-unknown-rank", "function.trace-time-errors",
     _sig("tf.gather_nd(x, [[0, 1]])", np.ones((1, 2), np.float32), None)),
    ("unstack-scalar-with-num", "function.trace-time-errors", _eager("tf.unstack(np.int32(3), num=1)")),
    ("traced-unstack-scalar-with-num", "function.trace-time-errors", _fn("tf.unstack(np.int32(3), num=1)")),
    ("unstack-scalar", "function.trace-time-errors", _eager("tf.unstack(3.0)")),
    ("unstack-axis-out-of-range-with-num", "function.trace-time-errors",
     _eager("tf.unstack(tf.ones([2, 3]), num=2, axis=3)")),
    ("traced-unstack-axis-out-of-range-with-num", "function.trace-time-errors",
     _fn("tf.unstack(tf.ones([2, 3]), num=2, axis=3)")),
    # -- a reduction keeps a segment reduction's unknown rows (fuzz2 seed 71 #168)
    ("traced-mod-by-max-of-segment-rows", "function.trace-time-errors",
     _fn("tf.reshape(tf.range(8), (-1, 1)) % tf.math.sign(tf.math.reduce_max(tf.math.segment_min("
         "tf.reshape(tf.range(8), [2, 2, 2]), [0, 1]), axis=1))")),
    ("traced-add-sum-of-segment-rows-keepdims", "function.trace-time-errors",
     _fn("tf.ones([3, 1]) + tf.reduce_sum(tf.math.segment_sum(tf.ones([2, 2]), [0, 1]), axis=1, keepdims=True)")),
    ("traced-add-full-sum-of-segment-rows", "function.trace-time-errors",
     _fn("tf.ones([3]) + tf.reduce_sum(tf.math.segment_sum(tf.ones([2, 2]), [0, 1]))")),
    ("traced-add-column-sum-of-segment-rows", "function.trace-time-errors",
     _fn("tf.ones([3]) + tf.reduce_sum(tf.math.segment_sum(tf.ones([2, 2]), [0, 1]), axis=0)")),
    # -- Grappler fuses Square(Sub) into SquaredDifference, which lacks small and unsigned ints (fuzz2 71 #123)
    *[(f"traced-square-of-difference-{dt}", "function.grappler-rewrites",
       (lambda dt: lambda tf: tf.function(lambda x: tf.square(x - x))(tf.constant(np.array([4, 0], dt))))(dt))
      for dt in ("uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "float32")],
    ("traced-square-of-shared-difference-uint32", "function.grappler-rewrites",
     lambda tf: tf.function(lambda x: (lambda d: (d + d, tf.square(d)))(tf.math.subtract(x, x)))(
         tf.constant(np.array([4, 0], np.uint32)))),
    ("square-of-difference-uint32", "function.grappler-rewrites",
     lambda tf: tf.square(tf.math.subtract(*[tf.constant(np.array([4, 0], np.uint32))] * 2))),
    # -- a dry run's Python error for one rank of an unknown-rank input (fz4 seed 43 #191)
    ("sig-unknown-rank-ellipsis-subscript", "function.trace-time-errors",
     _sig("x[0, ..., 1][-3:-1]", np.arange(48).reshape(3, 4, 4), None)),
    # -- UnsortedSegmentSum's type attr before its shapes (fz4 seed 43 #26)
    ("traced-unsorted-segment-mean-bool-scalar", "ops.segment-ids",
     _fn("tf.math.unsorted_segment_mean(tf.constant(False), segment_ids=np.array([1]), num_segments=tf.constant(2))")),
    ("unsorted-segment-sum-bool-scalar", "ops.segment-ids",
     _eager("tf.math.unsorted_segment_sum(tf.constant(False), segment_ids=np.array([1]), num_segments=2)")),
    ("traced-unsorted-segment-sum-int-scalar", "ops.segment-ids",
     _fn("tf.math.unsorted_segment_sum(tf.constant(3), segment_ids=np.array([1]), num_segments=2)")),
    # -- DenseBincount's weights shape (fz4 seed 41 #95)
    ("bincount-weights-longer", "ops.counting", _eager("tf.math.bincount(tf.constant([0, 3]), weights=[0.5, 1.0, 2.0])")),
    ("traced-bincount-weights-shorter", "ops.counting", _fn("tf.math.bincount(tf.constant([0, 3]), weights=[0.5])")),
    ("bincount-rows-weights", "ops.counting",
     _eager("tf.math.bincount(tf.constant([[0, 3]]), weights=[[0.5]], axis=-1)")),
    ("bincount-flattened-weights", "ops.counting",
     _eager("tf.math.bincount(tf.constant([[0, 3]]), weights=[0.5, 2.], axis=0)")),
    ("bincount-empty-weights", "ops.counting", _eager("tf.math.bincount(tf.constant([0, 3]), weights=[])")),
    # -- Where (coordinates) has no half kernel on CPU (fz4 seed 42 #172)
    ("where-coordinates-of-half", "ops.dtype-refusal", _eager("tf.where(tf.constant(np.array([0.001, 0], np.float16)))")),
    ("traced-where-coordinates-of-half", "ops.dtype-refusal",
     _fn("tf.where(tf.constant(np.array([0.001], np.float16)))")),
    ("where-coordinates-of-bfloat16", "ops.dtype-refusal", _eager("tf.where(tf.constant([1.0, 0.0], tf.bfloat16))")),
    # -- softmax's tensor axis: _wrap_2d_function takes its truth (fz4 seed 41 #125)
    ("log-softmax-axis-tensor-pair", "ops.argument-errors",
     _eager("tf.nn.log_softmax(tf.constant([[1.0], [2.0]]), axis=tf.constant([1, -2]))")),
    ("traced-log-softmax-axis-tensor-pair", "ops.argument-errors",
     _fn("tf.nn.log_softmax(tf.constant([[1.0], [2.0]]), axis=tf.constant([1, -2]))")),
    ("traced-softmax-scalar-axis-tensor", "ops.argument-errors",
     _fn("tf.nn.softmax(tf.constant([1.0, 2.0]), axis=tf.constant(-1))")),
    ("softmax-scalar-axis-tensor", "ops.argument-errors",
     _eager("tf.nn.softmax(tf.constant([0.0, 0.0]), axis=tf.constant(-1))")),
    ("traced-softmax-variable-axis", "ops.argument-errors",
     _fn("tf.nn.softmax(tf.ones([2]), axis=tf.Variable(0))")),
    # -- array_ops.stack's `if axis == 0` (fz4 seed 41 #3)
    ("traced-stack-axis-tensor", "ops.argument-errors",
     _fn("tf.stack([np.ones([2], np.float32), 2.5], axis=tf.constant(0))")),
    ("stack-axis-tensor-mixed", "ops.argument-errors",
     _eager("tf.stack([np.ones([2], np.float32), 2.5], axis=tf.constant(0))")),
    ("stack-axis-tensor", "ops.argument-errors", _eager("tf.stack([tf.ones([2]), tf.ones([2])], axis=tf.constant(1))")),
    ("traced-stack-axis-tensor-of-tensors", "ops.argument-errors",
     _fn("tf.stack([tf.ones([2]), tf.ones([2])], axis=tf.constant(1))")),
    ("stack-axis-tensor-pair", "ops.argument-errors",
     _eager("tf.stack([tf.ones([2]), tf.ones([2])], axis=tf.constant([1, 0]))")),
    # -- tf.Variable created in a tf.function: TF's singleton rule (fz4 seed 2 #50)
    ("variable-every-call-second-call", "function.trace-once", _variable_every_call(2)),
    ("variable-every-call-third-call", "function.trace-once", _variable_every_call(3)),
    ("variable-every-call-concrete", "function.trace-once",
     _sig_concrete("tf.Variable(1.0) + x", np.ones(1, np.float32), [None])),
    ("variable-singleton-counts", "function.trace-once", _singleton_counts),
    ("variable-created-by-a-later-trace", "function.trace-once", _later_call_creates),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.fuzz4")
@EDGES.parametrize("ops.fuzz4")
def test_array_protocol_and_dtype_names(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.reflected-retry")
@EDGES.parametrize("ops.reflected-retry")
def test_reflected_operator_retry(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-once")
@EDGES.parametrize("function.trace-once")
def test_variables_created_in_a_function(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_autograph_reraises_trace_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_squared_difference_fusion(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.segment-ids")
@EDGES.parametrize("ops.segment-ids")
def test_unsorted_segment_type_before_shapes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.counting")
@EDGES.parametrize("ops.counting")
def test_bincount_weights_shape(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.dtype-refusal")
@EDGES.parametrize("ops.dtype-refusal")
def test_where_coordinates_dtypes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_softmax_axis_tensor(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


if __name__ == "__main__":  # TF worker: python test_fuzz11_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)

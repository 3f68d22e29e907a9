"""The rules issue 29's fourth campaign of the third fuzzer (tests/fuzz3/, seeds 51 and 52) found
wrong, each against real TensorFlow 2.21: the same call on both backends gives the same dtype and
bits, or raises the same exception class; inside a tf.function, at the same stage (while the graph
is built, from get_concrete_function, or when it runs). What a traced graph knows of constant inputs
(DenseBincount's, Range's and MatrixDiagPartV3's shape functions, check_ops' static asserts),
subnormals under DAZ (Where, NextAfter, FloorMod, Python floats to bfloat16), eager kernel lookup
before the dtype check, NumPy arrays beside a variable, and single kernels' rules. Needs the `tf`
extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _sig(body: str, shape: Any, dtype: str, arg: Any) -> Callable[[Any], Any]:
    """`lambda x: <body>` as a tf.function with input_signature [TensorSpec(shape, dtype)]: the
    name of the error get_concrete_function raises ("at trace: ValueError"), else its call on
    `arg` (a value, or an error's class)."""
    def run(tf: Any) -> Any:
        f = tf.function(eval(f"lambda x: {body}", {"tf": tf, "np": np}),  # noqa: S307 - our text
                        input_signature=[tf.TensorSpec(shape, getattr(tf, dtype))])
        try:
            f.get_concrete_function()
        except Exception as e:  # noqa: BLE001 - the class is the result
            return f"at trace: {type(e).__name__}"
        return f(tf.constant(arg, getattr(tf, dtype)))
    return run


def _traced(body: str) -> Callable[[Any], Any]:
    """`<body>` in a tf.function without arguments (a variable v = [1, 2] in scope)."""
    def run(tf: Any) -> Any:
        v = tf.Variable([1, 2])
        return tf.function(eval(f"lambda: {body}", {"tf": tf, "np": np, "v": v}))()  # noqa: S307 - our text
    return run


def _var(value: Any, dtype: str, call: Callable[[Any, Any], Any]) -> Callable[[Any], Any]:
    return lambda tf: call(tf, tf.Variable(value, dtype=getattr(tf, dtype)))


def _bf16_bits(values: list[float]) -> Callable[[Any], Any]:
    return lambda tf: np.asarray(tf.constant(values, tf.bfloat16).numpy()).view(np.uint16)


def _igamma_tape(tf: Any) -> Any:
    a = tf.Variable(np.array([0.333, -7.25], np.float16))
    with tf.GradientTape():
        return tf.math.igamma(a=a, x=tf.constant([0.5, 2.0], tf.float64))


def _global_norm_grad(tf: Any) -> Any:
    v = tf.Variable(np.array([[65504.0], [3.0]], np.float16))
    with tf.GradientTape() as t:
        n = tf.linalg.global_norm([v, tf.constant([[-2.0]], dtype=tf.float16)])
    return n, t.gradient(n, v)


def _accumulate_n_grad(tf: Any) -> Any:
    v = tf.Variable(np.array([7, 1], np.uint8))
    with tf.GradientTape(persistent=True) as t:
        named = tf.math.accumulate_n([v], name="op")
        bare = tf.math.accumulate_n([v])
    return [t.gradient(named, v) is None, t.gradient(bare, v)]


_SUB32 = 9.99994610111476e-41   # a float32 subnormal

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- graph constants: DenseBincount's shape function evaluates a constant size
    ("bincount-const-maxlength", "function.trace-time-errors", _sig("tf.math.bincount([1, 2], maxlength=-1)", [None], "int32", [1])),
    ("bincount-abs-const", "function.trace-time-errors",
     _sig("tf.math.bincount(tf.abs(tf.constant([1, 2])), maxlength=-1)", [None], "int32", [1])),
    ("bincount-minlength-maxlength", "function.trace-time-errors",
     _sig("tf.math.bincount([1, 2], minlength=-3, maxlength=-1)", [None], "int32", [1])),
    ("bincount-argument", "function.trace-time-errors", _sig("tf.math.bincount(x, maxlength=-1)", [None], "int32", [1, 2])),
    ("bincount-argument-maxlength", "function.trace-time-errors",
     _sig("tf.math.bincount([1, 2], maxlength=x[0] - 5)", [None], "int32", [1, 2])),
    ("bincount-variable", "function.trace-time-errors", _traced("tf.math.bincount(v, maxlength=-1)")),
    # -- check_ops' static asserts: operands tensor_util.constant_value knows
    ("confusion-const-negative", "function.trace-time-errors",
     _sig("tf.math.confusion_matrix([-1, 2], [1, 2])", [None], "int32", [1])),
    ("confusion-abs-labels", "function.trace-time-errors",
     _sig("tf.math.confusion_matrix(tf.abs([-1, 2]), [1, 2], num_classes=1)", [None], "int32", [1])),
    ("confusion-mul-labels", "function.trace-time-errors",
     _sig("tf.math.confusion_matrix(tf.constant([-1, 2]) * 1, [1, 2])", [None], "int32", [1])),
    ("confusion-const-out-of-bound", "function.trace-time-errors",
     _sig("tf.math.confusion_matrix([1, 2], [1, 2], num_classes=2)", [None], "int32", [1])),
    ("confusion-rank-mismatch-negative", "function.trace-time-errors",
     _sig("tf.math.confusion_matrix([[0, 1], [2, -3]], [0, 2, 1])", [None], "int32", [1])),
    ("confusion-argument-rank-mismatch", "function.trace-time-errors",
     _sig("tf.math.confusion_matrix(labels=x, predictions=[1, 0, 2], dtype=tf.int16)", [None, 3], "int64",
          [[-5, 1, 2]])),
    ("confusion-argument-negative", "function.trace-time-errors",
     _sig("tf.math.confusion_matrix(labels=x, predictions=[1, 0, 2])", [None], "int32", [-5, 1, 2])),
    ("confusion-const-predictions-bound", "function.trace-time-errors",
     _sig("tf.math.confusion_matrix(labels=x, predictions=[1, 0, 2], num_classes=2)", [None], "int32", [0, 1, 1])),
    ("average-loss-const-batch", "function.trace-time-errors",
     _sig("tf.nn.compute_average_loss(tf.cast(x, tf.float32), global_batch_size=-1)", [None], "int32", [1])),
    ("average-loss-argument-batch", "function.trace-time-errors",
     _sig("tf.nn.compute_average_loss(tf.cast(x, tf.float32), global_batch_size=x[0])", [None], "int32", [-1])),
    # -- Range's shape function on constant inputs
    ("range-float16-const", "function.trace-time-errors",
     _sig("tf.range(start=0, delta=-2, dtype=tf.float16)", [None], "int32", [1])),
    ("range-float16-abs-const", "function.trace-time-errors",
     _sig("tf.range(tf.abs(tf.constant(0, tf.float16)), 3, 1, dtype=tf.float16)", [None], "int32", [1])),
    ("range-float16-argument", "function.trace-time-errors",
     _sig("tf.range(start=0, limit=tf.cast(x[0], tf.float16), delta=-2, dtype=tf.float16)", [None], "int32", [-3])),
    ("range-const-tensor-limit", "function.trace-time-errors",
     _sig("tf.range(0, tf.constant(-3), 1)", [None], "int32", [1])),
    ("range-argument-limit", "function.trace-time-errors", _sig("tf.range(0, x[0], 1)", [None], "int32", [-3])),
    # -- MatrixDiagPartV3's shape function on a constant k
    ("diag-part-const-k", "function.trace-time-errors",
     _sig("tf.linalg.diag_part(tf.constant([[float('inf'), 2.5]], dtype=tf.float64), k=-1)", [None], "int32", [1])),
    ("diag-part-unknown-dims", "function.trace-time-errors",
     _sig("tf.linalg.diag_part(x, k=-5)", [None, None, None], "float32", np.zeros([1, 2, 2]))),
    ("diag-part-known-dims", "function.trace-time-errors",
     _sig("tf.linalg.diag_part(x, k=-5)", [1, 2, 2], "float32", np.zeros([1, 2, 2]))),
    ("diag-part-band-order", "function.trace-time-errors",
     _sig("tf.linalg.diag_part(x, k=(1, 0))", [1, None, 2], "float32", np.zeros([1, 2, 2]))),
    # -- what a graph build checks before a kernel's errors
    ("searchsorted-dtypes-first", "function.trace-time-errors",
     _sig("tf.searchsorted(tf.constant([-0.0, 1e10]), x)", [3, None, 3], "int32", np.zeros([3, 1, 3]))),
    ("reduce-std-integer-repeated-axis", "function.trace-time-errors",
     _sig("tf.math.reduce_std(tf.constant([[7, 65535], [1, 1]], dtype=tf.uint16), [-1, 1])", [None], "int32", [1])),
    ("unsorted-segment-prefix", "function.trace-time-errors",
     _sig("tf.math.unsorted_segment_max(tf.constant(-9, dtype=tf.int64), [1], 3)", [None], "int32", [1])),
    ("unsorted-segment-prefix-dims", "function.trace-time-errors",
     _sig("tf.math.unsorted_segment_sum(tf.constant([[1.0, 2.0]]), [1, 0], 3)", [None], "int32", [1])),
    ("sigmoid-xent-unknown-rank", "function.trace-time-errors",
     _sig("tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant(0.5), logits=x)", None, "float32",
          [[0.5, 1.0, -7.25], [0.1, 2.0, 0.0]])),
    ("confusion-empty-labels-rank-mismatch", "function.trace-time-errors",
     _sig("tf.math.confusion_matrix(labels=tf.constant([[], [], []], dtype=tf.int64), predictions=[2, 0, 1])", None,
          "int32", 1)),
    ("confusion-empty", "function.trace-time-errors",
     _sig("tf.math.confusion_matrix(labels=tf.constant([], dtype=tf.int64), predictions=[])", None, "int32", 1)),
    ("reduce-std-integer-axis-out-of-range", "function.trace-time-errors",
     _sig("tf.math.reduce_std(input_tensor=np.array([], np.int32), axis=-3)", None, "int32", 1)),
    # -- a graph input of unknown rank or dimension: the kernel's error, when the graph runs (seed 53 #38)
    ("expand-dims-unknown-rank", "function.trace-time-errors", _sig("tf.expand_dims(x, 5)", None, "int64", [[1, 2]])),
    ("expand-dims-known-rank", "function.trace-time-errors", _sig("tf.expand_dims(x, 5)", [None, 2], "int64", [[1, 2]])),
    ("squeeze-unknown-rank", "function.trace-time-errors", _sig("tf.squeeze(x, 5)", None, "int64", [[1, 2]])),
    ("squeeze-unknown-dim", "function.trace-time-errors", _sig("tf.squeeze(x, 0)", [None, 2], "int64", [[1, 2], [3, 4]])),
    ("squeeze-known-dim", "function.trace-time-errors", _sig("tf.squeeze(x, 1)", [None, 2], "int64", [[1, 2], [3, 4]])),
    ("matmul-unknown-rank", "function.trace-time-errors",
     _sig("tf.linalg.matmul(x, np.ones((4, 3), np.float32))", None, "float32", np.ones([2, 4]))),
    ("matmul-unknown-rank-mismatch", "function.trace-time-errors",
     _sig("tf.linalg.matmul(x, np.ones((4, 3), np.float32))", None, "float32", np.ones([2, 3]))),
    ("matmul-unknown-inner-dim", "function.trace-time-errors",
     _sig("tf.linalg.matmul(x, np.ones((4, 3), np.float32))", [2, None], "float32", np.ones([2, 3]))),
    ("matmul-known-mismatch", "function.trace-time-errors",
     _sig("tf.linalg.matmul(x, np.ones((4, 3), np.float32))", [2, 3], "float32", np.ones([2, 3]))),
    ("bitcast-known-last-dim", "function.trace-time-errors",
     _sig("tf.bitcast(x, tf.uint32)", [2, 3], "uint8", np.zeros([2, 3]))),
    ("bitcast-unknown-last-dim", "function.trace-time-errors",
     _sig("tf.bitcast(x, tf.uint32)", [2, None], "uint8", np.zeros([2, 3]))),
    # -- subnormals under DAZ
    ("where-list-subnormal", "ops.subnormals", lambda tf: tf.where([[_SUB32, -1.0, float("inf")]])),
    ("where-tensor-subnormal", "ops.subnormals", lambda tf: tf.where(tf.constant([[_SUB32, -1.0, 2.0]]))),
    ("where-numpy-subnormal", "ops.subnormals", lambda tf: tf.where(np.array([[_SUB32, -1.0, 2.0]], np.float32))),
    ("nextafter-float32", "ops.subnormals",
     lambda tf: tf.math.nextafter(tf.constant([0.0, 1e-40, -1e-40, 0.5]), tf.constant(1e-3))),
    ("nextafter-daz-equal", "ops.subnormals",
     lambda tf: tf.math.nextafter(tf.constant([1e-40, 1e-40, -2.0]), tf.constant([1e-40, 0.0, 0.0]))),
    ("nextafter-float64", "ops.subnormals",
     lambda tf: tf.math.nextafter(tf.constant([5e-324, 0.0, 1e-310], tf.float64),
                                  tf.constant([5e-324, -1e-3, 0.0], tf.float64))),
    ("floormod-float64-subnormal", "ops.subnormals",
     lambda tf: tf.math.floormod(tf.constant([5e-324, 5e-324, 1e-310, -1e-310, 3e-310, -2.0], tf.float64),
                                 tf.constant([-0.001, 0.333, -1.0, 3e-310, 1e-310, -0.001], tf.float64))),
    ("floormod-float32-subnormal", "ops.subnormals",
     lambda tf: tf.math.floormod(tf.constant([1e-40, -1e-40, 3e-39, 1.5e-38, 2.0, -1e-40, 0.5]),
                                 tf.constant([-1.0, 1.0, 1e-39, 1.4e-38, 1e-40, 0.0, -1e-41]))),
    ("truncatemod-float32-subnormal", "ops.subnormals",
     lambda tf: tf.truncatemod(tf.constant([1e-40, -2.0, 3.0, 0.1, 1.5e-38, 2.0]),
                               tf.constant([0.1, 1e10, 0.0, -1.0, 1.4e-38, 1e-40]))),
    ("bfloat16-python-floats", "ops.subnormals",
     _bf16_bits([1e-39, -1e-40, 1.1754942e-38, 1.1754943e-38, 1.17549435e-38, 1.1758e-38, 3.4e38, 1.0])),
    ("bfloat16-python-scalar", "ops.subnormals", _bf16_bits(1e-39)),   # type: ignore[arg-type]
    ("bfloat16-numpy-kept", "ops.subnormals",
     lambda tf: np.asarray(tf.constant(np.array([1e-39, -1e-40]), tf.bfloat16).numpy()).view(np.uint16)),
    ("bfloat16-transpose", "ops.subnormals",
     lambda tf: tf.transpose(tf.constant([[2.5, _SUB32], [-7.25, _SUB32]], dtype=tf.bfloat16))),
    ("sign-float32-subnormal-lanes", "ops.subnormals",
     lambda tf: tf.math.sign(np.array([1e-40, -1e-40, 0.0, -0.0, 2.0, -3.0, 1e-40, -1e-40, 1e-40, -1e-40, 1e-40],
                                      np.float32))),
    ("sign-float64-subnormal-lanes", "ops.subnormals",
     lambda tf: tf.math.sign(np.array([1e-310, -1e-310, 0.0, -0.0, 3e-320, -3e-320, 2.0], np.float64))),
    ("sign-float32-tail-only", "ops.subnormals", lambda tf: tf.math.sign(tf.constant([1e-40, -1e-40]))),
    ("unique-subnormal-zero", "ops.subnormals", lambda tf: tf.unique(tf.constant([1e-40, 0.0, -1e-40, 2.0]))),
    ("unique-float64-subnormal", "ops.subnormals",
     lambda tf: tf.unique(tf.constant([0.0, 6e-08, float("nan"), 1.0, -0.0, 2.5, 0.0, 5e-324], tf.float64))),
    # -- eager kernel lookup (T from the first input) before the inputs' dtypes are compared
    ("igamma-half-double", "ops.special-more",
     lambda tf: tf.math.igamma(tf.constant([1.0], tf.float16), tf.constant([0.5], tf.float64))),
    ("igamma-half-variable-tape", "ops.special-more", _igamma_tape),
    ("igammac-half-double", "ops.special-more",
     lambda tf: tf.math.igammac(tf.constant([1.0], tf.float16), tf.constant([0.5], tf.float64))),
    ("igamma-series-limit", "ops.special-more",
     lambda tf: tf.math.igamma(tf.constant([1e10, 1e6, 5e5, 1e5, 3e3, 2.5, 1e8], tf.float64),
                               tf.constant([1e10, 1e6, 4.9e5, 1e5, 3e3, 2.5, 0.99999e8], tf.float64))),
    ("igammac-series-limit", "ops.special-more",
     lambda tf: tf.math.igammac(tf.constant([5e5, 1e6, 1e8, 3e3, 0.5], tf.float64),
                                tf.constant([4.9e5, 9.99e5, 0.99999e8, 2999.0, 0.25], tf.float64))),
    # -- NumPy arrays beside a variable take its dtype (numpy scalars and lists do not)
    ("multiply-ndarray-f64-variable", "ops.conversion",
     _var(3.0, "float64", lambda tf, v: tf.math.multiply(np.array([[-0.0, 0.3333333432674408]], np.float32), v))),
    ("multiply-ndarray-wraps-int32-variable", "ops.conversion",
     _var(3, "int32", lambda tf, v: tf.math.multiply(np.array([2**40, 5]), v))),
    ("maximum-ndarray-int32-variable", "ops.conversion",
     _var(3, "int32", lambda tf, v: tf.math.maximum(np.array([1.5, 7.9], np.float64), v))),
    ("multiply-numpy-scalar-variable", "ops.conversion",
     _var(3.0, "float64", lambda tf, v: tf.math.multiply(np.float32(1.0), v))),
    ("multiply-list-variable", "ops.conversion", _var(3.0, "float64", lambda tf, v: tf.math.multiply([1.5], v))),
    ("add-ndarray-variable", "ops.conversion",
     _var(3.0, "float64", lambda tf, v: tf.math.add(np.array([0.5], np.float32), v))),
    # -- MatrixInverse's Eigen PartialPivLU check on matrices holding inf/NaN (seed 52 #82, #288, seed 53 #24)
    ("inv-nan-first-pivot", "ops.linalg-more",
     lambda tf: tf.linalg.inv([[[float("nan"), 2.5], [0.3333333432674408, 0.0]], [[float("inf"), 1e30], [-2.0, 0.5]]])),
    ("inv-nan-below-pivot", "ops.linalg-more",
     lambda tf: tf.shape(tf.linalg.inv(tf.constant([[float("inf"), 1.0], [float("nan"), -0.0]], tf.float64)))),
    ("inv-nan-later-pivot", "ops.linalg-more",
     lambda tf: tf.shape(tf.linalg.inv(tf.constant([[[-float("inf"), 1.08], [float("nan"), 0.0]],
                                                    [[0.67, -1.31], [-0.76, -2.0]]], tf.float32)))),
    ("inv-zero-column-adjoint", "ops.linalg-more",
     lambda tf: tf.linalg.inv(tf.constant([[0.0, float("inf")], [0.0, 1.0]], tf.float64), adjoint=True)),
    ("inv-inf-pivots", "ops.linalg-more",
     lambda tf: tf.shape(tf.linalg.inv(tf.constant([[float("inf"), 1.0, 2.0], [1.0, float("inf"), 0.0],
                                                    [0.0, 1.0, float("nan")]], tf.float64)))),
    # -- single kernels
    ("moments-list", "ops.argument-errors", lambda tf: tf.nn.moments([[1.0, 2.0]], 1)),
    ("moments-float", "ops.argument-errors", lambda tf: tf.nn.moments(2.0, [])),
    ("moments-numpy", "ops.argument-errors", lambda tf: tf.nn.moments(np.array([[1.0, 2.0]]), 1)),
    ("histogram-nan", "ops.argument-errors",
     lambda tf: tf.histogram_fixed_width(tf.constant([[1e-40], [1.0], [float("nan")]]), [0.0, 5.0], nbins=3)),
    ("histogram-inf", "ops.argument-errors",
     lambda tf: tf.histogram_fixed_width(tf.constant([float("inf"), -float("inf"), 2.0]), [0.0, 5.0], nbins=3)),
    ("bincount-uint64-wraps", "ops.argument-errors",
     lambda tf: tf.math.bincount(np.array([2**63, 2, 2, 2**64 - 1], np.uint64), maxlength=5, dtype=tf.float16)),
    ("bincount-uint8", "ops.argument-errors", lambda tf: tf.math.bincount(np.array([3, 2], np.uint8), minlength=7)),
    ("logical-not-float-list", "ops.argument-errors", lambda tf: tf.math.logical_not([float("nan"), -7.25, 0.1])),
    ("logical-not-int-list", "ops.argument-errors", lambda tf: tf.math.logical_not([1, 0])),
    ("logical-not-bool-list", "ops.argument-errors", lambda tf: tf.math.logical_not([True, False])),
    ("logical-not-numpy-float", "ops.argument-errors", lambda tf: tf.math.logical_not(np.array([1.5, 0.0]))),
    ("zeta-huge-x", "ops.special-more",
     lambda tf: tf.math.zeta(tf.constant([1e30, 1e10, 1e30, 1e30, 1e30]), tf.constant([3.0, 3.0, 1.0, 0.5, 2.0]))),
    ("unravel-index-numpy-bool", "ops.conversion", lambda tf: tf.unravel_index(np.bool_(False), dims=[2, 3])),
    ("unravel-index-numpy-float", "ops.conversion", lambda tf: tf.unravel_index(np.float32(1.0), dims=[2, 3])),
    ("unravel-index-python-bool", "ops.conversion", lambda tf: tf.unravel_index(True, dims=[2, 3])),
    ("unravel-index-numpy-int64", "ops.conversion", lambda tf: tf.unravel_index(np.int64(-5), [2, 3])),
    ("unravel-index-int64-min", "ops.conversion",
     lambda tf: tf.unravel_index(tf.constant([-2**63, -7, 5, -1], tf.int64), [2, 3])),
    ("global-norm-float16-gradient", "ops.argument-errors", _global_norm_grad),
    ("accumulate-n-named-integer-gradient", "ops.argument-errors", _accumulate_n_grad),
    ("global-norm-int32", "ops.argument-errors",
     lambda tf: tf.linalg.global_norm([np.array([0, 3], np.int32), tf.constant([1073741824, 1], dtype=tf.int32)])),
    ("matmul-sparse-flag-batch", "ops.argument-errors",
     lambda tf: tf.linalg.matmul(tf.ones([1, 3, 2], tf.int64), tf.ones([1, 2, 1], tf.int64), b_is_sparse=True)),
    ("matmul-sparse-flag-matrix", "ops.argument-errors",
     lambda tf: tf.linalg.matmul(tf.ones([3, 2]), tf.ones([2, 2]), a_is_sparse=True)),
    ("unsorted-segment-max-empty-data", "ops.argument-errors",
     lambda tf: tf.math.unsorted_segment_max(np.zeros([2, 0], np.uint16), [1, 2], 2)),
    ("unsorted-segment-sum-empty-data", "ops.argument-errors",
     lambda tf: tf.math.unsorted_segment_sum(np.zeros([2, 0], np.float32), [1, 5], 2)),
    ("unsorted-segment-mean-empty-data", "ops.argument-errors",
     lambda tf: tf.math.unsorted_segment_mean(np.zeros([2, 0], np.float32), [1, 5], 2)),
    ("polygamma-order-zero", "ops.special-functions",
     lambda tf: tf.math.polygamma(tf.constant([0.0, 0.0, 0.0, 0.0], tf.float64),
                                  tf.constant([0.0, -1.0, -0.0, -3.0], tf.float64))),
    ("floordiv-bfloat16-rounds-quotient", "ops.floor-division-float",
     lambda tf: tf.math.floordiv(tf.constant([2.5, -7.25, 1.0, 100.0, -3.0], tf.bfloat16),
                                 tf.constant([0.1, 0.3333, 0.3, 0.7, 0.1], tf.bfloat16))),
]

# The igamma series cases compare within 1e-9 relative (their sums are Eigen's, their prefactors SciPy's
# lgamma); every other case bit for bit.
EDGES = edge_compare.EdgeModule(
    __file__, CASES, agree=lambda case: edge_compare.within(1e-9) if "series" in case[0] else edge_compare.bits_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_graph_constants(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals")
@EDGES.parametrize("ops.subnormals")
def test_subnormals_under_daz(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.special-more")
@EDGES.parametrize("ops.special-more")
def test_kernel_lookup_and_series(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_ndarray_beside_variable(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_argument_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-more")
@EDGES.parametrize("ops.linalg-more")
def test_inverse_pivot_check(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.special-functions")
@EDGES.parametrize("ops.special-functions")
def test_polygamma_order_zero(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.floor-division-float")
@EDGES.parametrize("ops.floor-division-float")
def test_floordiv_bfloat16(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fuzz4_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
